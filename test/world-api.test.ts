// @test fast no-shared
// World behaviour: callbacks and when their changes take effect, contacts, sweeps, filters, edge cases, errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mask, transformMask } from '../src/index.js';
import { TileMap } from '../src/index.js';
import { World, type Body, type Contact, type Pair } from '../src/index.js';
import { deprecationsWarned } from '../src/base/deprecate.js'; // internal: the names warned about so far
import { captureWarnings, warnsOnce } from './deprecations.js';

const box = (w: number, h: number): Mask => new Mask(w, h, true);
const ids = (bs: Body<unknown>[]): number[] => bs.map(b => b.id);

test('each pair once, never a body with itself; touching edges do not collide; fractional positions floor', () => {
    const world = new World();
    const a = world.add({ x: 0, y: 0, mask: box(10, 10) });
    const b = world.add({ x: 10, y: 0, mask: box(10, 10) }); // touches a's right edge
    const c = world.add({ x: 9.99, y: 9.5, mask: box(10, 10) }); // placed at (9, 9): overlaps a and b
    const pairs = world.collisions().map(p => [p.a.id, p.b.id]);
    assert.deepEqual(pairs, [
        [a.id, c.id],
        [b.id, c.id]
    ]);
    world.move(c, 10, 10);
    assert.deepEqual(world.collisions(), []);
});

test('filters: categories both ways, groups, decorative bodies', () => {
    const world = new World();
    const m = box(4, 4);
    const p = world.add({ x: 0, y: 0, mask: m, category: 1, collidesWith: 2 });
    const q = world.add({ x: 1, y: 1, mask: m, category: 2, collidesWith: 1 });
    const r = world.add({ x: 2, y: 2, mask: m, category: 2, collidesWith: 2 });
    const deco = world.add({ x: 1, y: 1, mask: m, category: 0 });
    const g1 = world.add({ x: 1, y: 2, mask: m, category: 4, collidesWith: 4, group: 7 });
    const g2 = world.add({ x: 2, y: 1, mask: m, category: 4, collidesWith: 4, group: 7 });
    const g3 = world.add({ x: 2, y: 2, mask: m, category: 4, collidesWith: 4, group: 8 });
    const got = world.collisions().map(x => [x.a.id, x.b.id]);
    assert.deepEqual(got, [
        [p.id, q.id],
        [g1.id, g3.id],
        [g2.id, g3.id]
    ]); // r refuses q (r.cat & q.collidesWith = 0)
    void r;
    assert.deepEqual(world.queryPoint(2, 2).includes(deco), false);
    world.setFilter(deco, { category: 1 });
    assert.deepEqual(world.getFilter(deco), { category: 1, collidesWith: 0xffffffff, group: 0 });
    assert.ok(world.collisions().some(x => x.b === deco));
});

test('filters take any 32-bit integer: ~BULLET (negative) as Box2D users write it, read back unsigned', () => {
    const BULLET = 0x2,
        SHIP = 0x1;
    const world = new World();
    const m = box(4, 4);
    // ~BULLET is -3: every category but bullets; the same as 0xfffffffd.
    const ship = world.add({ x: 0, y: 0, mask: m, category: SHIP, collidesWith: ~BULLET });
    const bullet = world.add({ x: 1, y: 1, mask: m, category: BULLET, collidesWith: ~0 });
    const rock = world.add({ x: 2, y: 2, mask: m, category: 0x4, collidesWith: ~BULLET >>> 0 });
    const sign = world.add({ x: 2, y: 0, mask: m, category: -(2 ** 31), collidesWith: -1 });
    assert.deepEqual(world.getFilter(ship), { category: SHIP, collidesWith: 0xfffffffd, group: 0 });
    assert.deepEqual(world.getFilter(bullet), { category: BULLET, collidesWith: 0xffffffff, group: 0 });
    assert.deepEqual(world.getFilter(sign), { category: 0x80000000, collidesWith: 0xffffffff, group: 0 });
    const pairs = world.collisions().map(x => [x.a.id, x.b.id]);
    // ship–bullet and bullet–rock refused by ~BULLET; ship–rock, ship–sign, rock–sign collide; bullet–sign too.
    assert.deepEqual(pairs, [
        [ship.id, rock.id],
        [ship.id, sign.id],
        [bullet.id, sign.id],
        [rock.id, sign.id]
    ]);
    world.setFilter(bullet, { collidesWith: ~SHIP });
    assert.equal(world.getFilter(bullet).collidesWith, 0xfffffffe);
    // Layers and query filters take the same values.
    const wall = world.addLayer(new TileMap(8, 8, 1, 1, [box(8, 8)], [0]), {
        category: ~0,
        collidesWith: ~BULLET
    });
    assert.deepEqual(world.getFilter(wall), { category: 0xffffffff, collidesWith: 0xfffffffd, group: 0 });
    assert.deepEqual(ids(world.queryPoint(2, 2, { filter: ~BULLET })), [ship.id, rock.id, sign.id, wall.id]);
    // Past 32 bits in either direction, or not an integer, is still refused, naming the value.
    for (const bad of [-(2 ** 31) - 1, 2 ** 32, 0.5, NaN])
        assert.throws(() => world.add({ x: 0, y: 0, mask: m, collidesWith: bad }), {
            name: 'RangeError',
            message: /^collidesWith must be a 32-bit integer \(-2147483648\.\.4294967295/
        });
});

test('events: begin, stay, end; listeners in registration order; off() removes one', () => {
    const world = new World<string>();
    const log: string[] = [];
    world.add({ x: 0, y: 0, mask: box(5, 5), data: 'a' });
    const b = world.add({ x: 3, y: 3, mask: box(5, 5), data: 'b' });
    const second = (p: Body<string>, q: Body<string>) => log.push(`second ${p.data}${q.data}`);
    world.on('begin', (p, q) => log.push(`begin ${p.data}${q.data}`));
    world.on('begin', second);
    world.on('stay', (p, q) => log.push(`stay ${p.data}${q.data}`));
    world.on('end', (p, q) => log.push(`end ${p.data}${q.data}`));
    assert.equal(world.step(), 1);
    world.off('begin', second);
    assert.equal(world.step(), 1);
    world.move(b, 50, 50);
    assert.equal(world.step(), 0);
    assert.equal(world.step(), 0);
    assert.deepEqual(log, ['begin ab', 'second ab', 'stay ab', 'end ab']);
    assert.deepEqual(world.collisions(), []);
    assert.throws(() => world.on('hit' as 'begin', () => {}), /Unknown event "hit"; expected "begin", "stay" or "end"/);
});

test('listeners: removing a body inside a listener takes effect at once; adds and moves at the next step', () => {
    const world = new World<string>();
    const log: string[] = [];
    const m = box(4, 4);
    const bullet = world.add({ x: 0, y: 0, mask: m, data: 'bullet' });
    world.add({ x: 1, y: 0, mask: m, data: 'e1' });
    const e2 = world.add({ x: 2, y: 0, mask: m, data: 'e2' });
    let spawned: Body<string> | null = null;
    world.on('begin', (a, b) => log.push(`begin ${a.data}-${b.data}`));
    world.on('begin', (self, other) => {
        if (self !== bullet) return;
        log.push(`bullet hit ${other.data}`);
        world.remove(self); // removes itself: no more events for it
        spawned = world.add({ x: 2, y: 0, mask: m, data: 'spark' }); // overlaps e1, e2 but only from the next step
        world.move(e2, 100, 100); // e1–e2 still reported this step
    });
    assert.equal(world.step(), 3);
    assert.deepEqual(log, ['begin bullet-e1', 'bullet hit e1', 'begin e1-e2']);
    assert.ok(bullet.removed);
    assert.throws(() => world.move(bullet, 0, 0), /was removed/);
    log.length = 0;
    world.step();
    assert.deepEqual(log, ['begin e1-spark']); // e1–e2 ended silently? no: e2 moved away -> end (no listener)
    assert.ok(spawned);
    // Detection cannot run inside a listener.
    const nested = () => {
        world.step();
    };
    world.on('stay', nested);
    assert.throws(() => world.step(), /inside a collision listener/);
    world.off('stay', nested);
    world.step();
});

test('removing the other body inside a callback silences it for the rest of the step', () => {
    const world = new World<string>();
    const m = box(4, 4);
    const log: string[] = [];
    const a = world.add({ x: 0, y: 0, mask: m, data: 'a' });
    const b = world.add({ x: 1, y: 1, mask: m, data: 'b' });
    const c = world.add({ x: 2, y: 2, mask: m, data: 'c' });
    world.on('begin', (p, q) => {
        log.push(`${p.data}-${q.data}`);
        if (p === a && q === b) world.remove(b);
    });
    world.on('begin', (p, q) => log.push(`then ${p.data}-${q.data}`));
    world.step();
    assert.deepEqual(log, ['a-b', 'a-c', 'then a-c']);
    assert.equal(world.size, 2);
    log.length = 0;
    world.step();
    assert.deepEqual(log, []);
    void c;
});

test('collisions(out) reuses its Pair objects and sees every change', () => {
    const world = new World();
    const bodies = [0, 1, 2].map(i => world.add({ x: i * 3, y: 0, mask: box(4, 4) }));
    const out: Pair[] = [];
    assert.equal(world.collisions(out), out);
    assert.deepEqual(
        out.map(p => [p.a.id, p.b.id]),
        [
            [bodies[0].id, bodies[1].id],
            [bodies[1].id, bodies[2].id]
        ]
    );
    const first = out[0];
    world.move(bodies[2], 100, 0);
    assert.equal(world.step(), 1);
    assert.equal(world.collisions(out).length, 1);
    assert.equal(out[0], first, 'the Pair object is reused');
    assert.deepEqual([out[0].a, out[0].b], [bodies[0], bodies[1]]);
    // A change after step() is seen: collisions() detects again.
    world.move(bodies[2], 6, 0);
    assert.equal(world.collisions(out).length, 2);
    world.remove(bodies[1]);
    assert.deepEqual(world.collisions(), []);
    assert.throws(() => world.collisions({} as Pair[]), {
        name: 'TypeError',
        message: /out must be an array of pairs, got Object/
    });
});

test('huge and negative coordinates, sparse clusters, zero-size masks', () => {
    const world = new World();
    const far = 2 ** 49;
    const a = world.add({ x: far, y: -far, mask: box(8, 8) });
    const b = world.add({ x: far + 7, y: -far + 7, mask: box(8, 8) });
    const c = world.add({ x: -far, y: far, mask: box(8, 8) });
    const d = world.add({ x: -far + 8, y: far, mask: box(8, 8) }); // touches c: no hit
    const e = world.add({ x: -3.5, y: -3.5, mask: box(8, 8) });
    const z1 = world.add({ x: -2, y: -2, mask: new Mask(0, 5) });
    const z2 = world.add({ x: -2, y: -2, mask: new Mask(5, 0) });
    const f = world.add({ x: 0, y: 0, mask: box(2, 2) });
    assert.deepEqual(
        world.collisions().map(p => [p.a.id, p.b.id]),
        [
            [a.id, b.id],
            [e.id, f.id]
        ]
    );
    assert.deepEqual(ids(world.queryPoint(far + 7, -far + 7)), [a.id, b.id]);
    assert.deepEqual(ids(world.queryPoint(-2, -2)), [e.id]);
    assert.deepEqual(world.queryMask(new Mask(0, 0), 0, 0), []);
    assert.equal(world.sweep(z1, 10, 10), null);
    void c;
    void d;
    void z2;
    // Cells 2^32 apart share a hash bucket; the pair rule must still hold.
    const w2 = new World({ cellSize: 1 });
    const p = w2.add({ x: 0, y: 0, mask: box(2, 2) });
    const q = w2.add({ x: 2 ** 32, y: 0, mask: box(2, 2) });
    const r = w2.add({ x: 2 ** 32 + 1, y: 1, mask: box(2, 2) });
    assert.deepEqual(
        w2.collisions().map(x => [x.a.id, x.b.id]),
        [[q.id, r.id]]
    );
    void p;
});

test('one huge boss among many bullets, and large bodies against each other', () => {
    const world = new World();
    const bullets: Body<unknown>[] = [];
    for (let i = 0; i < 400; i++)
        bullets.push(world.add({ x: (i % 40) * 25, y: Math.floor(i / 40) * 25, mask: box(3, 3) }));
    const boss = world.add({ x: 100, y: 100, mask: box(500, 120) });
    const boss2 = world.add({ x: 590, y: 210, mask: box(300, 300) });
    const pairs = world.collisions();
    const bossHits = pairs.filter(p => p.b === boss).map(p => p.a);
    const expected = bullets.filter(b => b.x + 3 > 100 && b.x < 600 && b.y + 3 > 100 && b.y < 220);
    assert.deepEqual(ids(bossHits), ids(expected));
    assert.ok(pairs.some(p => p.a === boss && p.b === boss2));
});

test('contact: first pixel, area, box, normal and push-out', () => {
    const world = new World();
    const ground = world.add({ x: 0, y: 10, mask: box(40, 10) });
    const player = world.add({ x: 5, y: 3, mask: box(6, 10) }); // sinks 3 px into the ground
    const c = world.contact(player, ground) as Contact;
    assert.deepEqual(
        { x: c.x, y: c.y, area: c.area, box: c.box },
        { x: 5, y: 10, area: 18, box: { x: 5, y: 10, width: 6, height: 3 } }
    );
    assert.deepEqual([c.normalX, c.normalY], [0, -1]);
    assert.deepEqual([c.pushX, c.pushY], [0, -3]);
    // Push from the right side: a 2-px overlap horizontally.
    const wall = world.add({ x: 100, y: 0, mask: box(10, 50) });
    const p2 = world.add({ x: 92, y: 20, mask: box(10, 4) });
    const c2 = world.contact(p2, wall) as Contact;
    assert.deepEqual([c2.normalX, c2.normalY, c2.pushX, c2.pushY], [-1, 0, -2, 0]);
    assert.equal(world.contact(player, wall), null);
    // Symmetric overlap (gradient zero): falls back to the centre difference, then to up.
    const s1 = world.add({ x: 300, y: 300, mask: box(4, 4) });
    const s2 = world.add({ x: 300, y: 300, mask: box(4, 4) });
    const c3 = world.contact(s1, s2) as Contact;
    assert.deepEqual([c3.normalX, c3.normalY, c3.pushX, c3.pushY], [0, -1, 0, -4]);
    const out = {
        x: 0,
        y: 0,
        area: 0,
        box: { x: 0, y: 0, width: 0, height: 0 },
        normalX: 0,
        normalY: 0,
        pushX: 0,
        pushY: 0
    };
    assert.equal(world.contact(player, ground, out), out);
    // After applying the push the two no longer overlap.
    world.move(player, player.x + out.pushX, player.y + out.pushY);
    assert.equal(world.contact(player, ground), null);
    assert.throws(() => world.contact(player, player), /two different bodies/);
});

test('contact and pairs against a tile layer', () => {
    const world = new World();
    const cells = new Array(4 * 2).fill(-1);
    cells[4] = cells[5] = cells[6] = cells[7] = 0; // bottom row solid
    const ground = world.addLayer(new TileMap(8, 8, 4, 2, [box(8, 8)], cells), { category: 2 });
    const hero = world.add({ x: 3, y: 6, mask: box(4, 4) }); // 2 px into the ground
    const ghost = world.add({ x: 3, y: 6, mask: box(4, 4), collidesWith: 1 });
    assert.deepEqual(
        world.collisions().map(p => [p.a.id, p.b.id]),
        [
            [hero.id, ghost.id],
            [hero.id, ground.id]
        ]
    );
    const c = world.contact(hero, ground) as Contact;
    assert.deepEqual([c.x, c.y, c.area, c.pushX, c.pushY], [3, 8, 8, 0, -2]);
    assert.deepEqual(c.box, { x: 3, y: 8, width: 4, height: 2 });
    assert.deepEqual(ids(world.queryPoint(5, 9)), [hero.id, ghost.id, ground.id]);
    assert.deepEqual(ids(world.queryPoint(5, 9, { filter: 2 })), [ground.id]);
    assert.deepEqual(ids(world.queryRect(0, 12, 2, 2)), [ground.id]);
    assert.deepEqual(ids(world.queryMask(box(2, 2), 0, 0)), []);
    assert.throws(() => world.contact(ground, hero), /is a layer/);
    assert.throws(() => world.move(ground, 0, 0), /is a layer/);
    world.setFilter(ground, { collidesWith: 0 });
    assert.deepEqual(world.collisions().length, 1);
    world.remove(ground);
    assert.ok(ground.removed);
    assert.deepEqual(ids(world.queryPoint(5, 9)), [hero.id, ghost.id]);
});

test('sweep: a 40 px/frame bullet cannot pass a 4 px wall; first contact and last free position', () => {
    const world = new World();
    const wall = world.add({ x: 20, y: -10, mask: box(4, 30), category: 2 });
    const bullet = world.add({ x: 0, y: 0, mask: box(2, 2), collidesWith: 2 });
    // Sampling only the end positions would miss: at x = 40 the bullet is past the wall.
    world.move(bullet, 40, 0);
    assert.deepEqual(world.collisions(), []);
    world.move(bullet, 0, 0);
    const hit = world.sweep(bullet, 40, 0);
    assert.ok(hit);
    assert.equal(hit.body, wall);
    assert.deepEqual([hit.x, hit.y, hit.freeX, hit.freeY, hit.t], [19, 0, 18, 0, 19 / 40]);
    // Diagonal through a one-pixel diagonal gap cannot slip between pixels either (4-connected walk).
    const diag = Mask.fromText('#...\n.#..\n..#.\n...#');
    const w2 = new World();
    w2.add({ x: 10, y: 10, mask: diag });
    const dot = w2.add({ x: 10, y: 14, mask: box(1, 1) });
    const h2 = w2.sweep(dot, 14, 10);
    assert.ok(h2);
    assert.deepEqual([h2.x, h2.y, h2.freeX, h2.freeY], [12, 12, 11, 12]);
    // Bodies overlapping at the start are ignored (a bullet leaving its shooter).
    const shooter = world.add({ x: -1, y: -1, mask: box(4, 4), category: 2 });
    assert.equal(world.sweep(bullet, 40, 0)?.body, wall);
    assert.equal(world.sweep(bullet, -30, 0), null);
    void shooter;
    // Layers stop sweeps too.
    const w3 = new World();
    w3.addLayer(new TileMap(4, 4, 10, 1, [box(4, 4)], [-1, -1, -1, -1, -1, -1, -1, 0, -1, -1]));
    const b3 = w3.add({ x: 0, y: 0, mask: box(1, 1) });
    const h3 = w3.sweep(b3, 39, 0);
    assert.ok(h3 && h3.body.layer);
    assert.equal(h3.x, 28);
    const out = { body: b3, x: 0, y: 0, freeX: 0, freeY: 0, t: 0 };
    assert.equal(w3.sweep(b3, 0, 30, out), null);
});

test('setMask (animation frames) and transforms change what collides', () => {
    const world = new World();
    const bar = new Mask(20, 2, true);
    const a = world.add({ x: 0, y: 0, mask: bar });
    const b = world.add({ x: 9, y: 5, mask: box(2, 2) }); // below the bar's centre
    assert.equal(world.collisions().length, 0);
    world.setTransform(a, { angle: Math.PI / 2 }); // vertical bar through the centre
    assert.equal(world.collisions().length, 1);
    assert.deepEqual(world.getTransform(a), { angle: Math.PI / 2, scaleX: 1, scaleY: 1, flipX: false, flipY: false });
    const pm = world.placedMask(a);
    assert.deepEqual([pm.x, pm.y, pm.mask.width, pm.mask.height], [9, -9, 2, 20]);
    world.setMask(a, box(1, 1));
    assert.equal(world.collisions().length, 0);
    world.setTransform(a, { angle: 0, scaleX: 12, scaleY: 12 }); // 1 px scaled about its centre: (-5.5..6.5)
    assert.equal(world.collisions().length, 0);
    world.move(a, 5, 2);
    assert.equal(world.collisions().length, 1);
    void b;
});

test('bad input: clear errors naming the value', () => {
    const world = new World();
    const m = box(2, 2);
    const b = world.add({ x: 0, y: 0, mask: m });
    const other = new World().add({ x: 0, y: 0, mask: m });
    assert.throws(() => world.add({ x: NaN, y: 0, mask: m }), /x must be a finite number within ±2\^50, got NaN/);
    assert.throws(() => world.add({ x: 0, y: Infinity, mask: m }), RangeError);
    assert.throws(() => world.add({ x: 2 ** 51, y: 0, mask: m }), RangeError);
    assert.throws(() => world.add({ x: 0, y: 0, mask: {} as Mask }), /mask must be a Mask, got Object/);
    assert.throws(() => world.add(null as never), TypeError);
    // A disposed mask is refused at the door (core's one mask check), not at a later step; nothing is added.
    const gone = box(2, 2);
    gone.dispose();
    const before = world.size;
    assert.throws(() => world.add({ x: 0, y: 0, mask: gone }), /^Error: mask \(<Mask 2x2>\) was disposed/);
    assert.throws(() => world.setMask(b, gone), /^Error: mask \(<Mask 2x2>\) was disposed/);
    assert.throws(() => world.queryMask(gone, 0, 0), /^Error: mask \(<Mask 2x2>\) was disposed/);
    assert.equal(world.size, before);
    assert.equal(world.step(), 0);
    assert.throws(
        () => world.add({ x: 0, y: 0, mask: m, category: -(2 ** 31) - 1 }),
        /category must be a 32-bit integer \(-2147483648\.\.4294967295, e\.g\. 0xffffffff or ~BULLET\), got -2147483649/
    );
    assert.throws(() => world.add({ x: 0, y: 0, mask: m, collidesWith: 1.5 }), RangeError);
    assert.throws(() => world.add({ x: 0, y: 0, mask: m, group: 2 ** 40 }), RangeError);
    assert.throws(() => world.add({ x: 0, y: 0, mask: m, scaleX: 0 }), /scaleX must be a finite number > 0/);
    assert.throws(() => world.add({ x: 0, y: 0, mask: m, angle: NaN }), /angle must be a finite number/);
    assert.throws(() => world.move(b, 0, NaN), /y must be a finite number/);
    assert.throws(() => world.move({} as Body<unknown>, 0, 0), /needs a Body returned by world.add\(\), got Object/);
    assert.throws(() => world.move(other, 0, 0), /belongs to another World/);
    assert.throws(() => world.setMask(b, null as never), TypeError);
    assert.throws(() => world.setTransform(b, null as never), TypeError);
    assert.throws(() => world.setFilter(b, { category: 2 ** 32 }), RangeError);
    assert.throws(() => world.setFilter(b, 5 as never), TypeError);
    assert.throws(() => world.queryPoint(NaN, 0), RangeError);
    assert.throws(() => world.queryRect(0, 0, -1, 2), /width must be an integer/);
    assert.throws(() => world.queryMask(null as never, 0, 0), TypeError);
    assert.throws(() => world.queryPoint(0, 0, undefined, null as never), /out must be an array/);
    assert.throws(() => world.collisions({} as never), /out must be an array/);
    assert.throws(() => world.contact(b, world.add({ x: 1, y: 1, mask: m }), { x: 0 } as never), {
        name: 'TypeError',
        message: /out must be a Contact object with a box, got Object/
    });
    assert.throws(() => world.sweep(b, 10, 0, 3 as never), {
        name: 'TypeError',
        message: /out must be a SweepHit object, got 3/
    });
    assert.throws(() => world.sweep(b, NaN, 0), /toX must be a finite number/);
    assert.throws(() => world.on('hit' as never, () => {}), /Unknown event "hit"/);
    assert.throws(() => world.on('begin', 3 as never), /listener must be a function/);
    assert.throws(
        () => world.addLayer({} as never),
        /layer must be a CollisionLayer \(an object with overlaps, overlap, overlapArea, hitTest\)/
    );
    assert.throws(() => new World({ cellSize: 48 }), /cellSize must be a power of two, got 48; try 64/);
    assert.throws(() => new World({ angleSteps: 2 }), RangeError);
    assert.throws(() => new World(5 as never), TypeError);
    world.remove(b);
    assert.throws(() => world.remove(b), /was removed from this World/);
    assert.equal(world.has(b), false);
    const layer = world.addLayer(new TileMap(1, 1, 1, 1, [null]));
    assert.throws(() => world.setFilter(layer, { group: 1 }), /Layers have no group/);
    const listener = (): void => {};
    world.on('end', listener).off('end', listener);
});

test('editing the mask of a rotated body: setMask with the same mask makes its copy anew', () => {
    const world = new World(),
        m = new Mask(8, 8, true),
        wall = new Mask(4, 20, true);
    const spinner = world.add({ x: 0, y: 0, mask: m, angle: Math.PI / 4 });
    world.add({ x: 7, y: -4, mask: wall });
    assert.equal(world.step(), 1);
    // Carve away the right half: the rotated copy placed before still has it.
    for (let y = 0; y < 8; y++) for (let x = 4; x < 8; x++) m.set(x, y, false);
    const stale = world.placedMask(spinner).mask.count();
    world.setMask(spinner, m);
    const fresh = transformMask(m, { angle: Math.PI / 4 });
    const placed = world.placedMask(spinner);
    assert.ok(placed.mask.equals(fresh.mask), 'the placed copy is the edited mask, rotated');
    assert.ok(placed.mask.count() < stale, `${placed.mask.count()} pixels now, ${stale} in the stale copy`);
    assert.equal(world.step(), 0, 'the carved side no longer reaches the wall');
});

test('0.3 forms: a numeric filter and a layer with test/hitPoint/testPixel still work, each warning once', () => {
    const world = new World<string>();
    const floor = new TileMap(8, 8, 6, 2, [box(8, 8)], [-1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0]);
    // A user layer written against 0.3: the World gives it the 0.4 names once and keeps the same object.
    const old = {
        calls: 0,
        test(m: Mask, x: number, y: number) {
            this.calls++;
            return floor.overlaps(m, x, y);
        },
        overlapArea: (m: Mask, x: number, y: number) => floor.overlapArea(m, x, y),
        hitPoint: (m: Mask, x: number, y: number, out?: { x: number; y: number }) => floor.overlap(m, x, y, out),
        testPixel: (x: number, y: number) => floor.hitTest(x, y)
    };
    const before = deprecationsWarned().filter(n => n.startsWith('CollisionLayer.')).length;
    const { result: ground, warnings } = captureWarnings(() =>
        world.addLayer(old as never, { category: 2, data: 'old' })
    );
    assert.equal(before, 0, 'no 0.3 layer was seen before in this process');
    const said = (old: string, now: string) =>
        `hitmask: CollisionLayer.${old} is deprecated and will be removed in 0.5.0; use CollisionLayer.${now} instead.`;
    assert.deepEqual(warnings, [said('test', 'overlaps'), said('hitPoint', 'overlap'), said('testPixel', 'hitTest')]);
    assert.equal(ground.layer, old as never, 'the handle keeps the object given');
    // A frozen one cannot take new methods: it is wrapped (once), and still answers.
    const frozen = Object.freeze({ ...old, test: (m: Mask, x: number, y: number) => floor.overlaps(m, x, y) });
    const cold = captureWarnings(() => world.addLayer(frozen as never, { category: 2, data: 'frozen' }));
    assert.deepEqual(cold.warnings, [], 'each name warned once');
    const hero = world.add({ x: 4, y: 6, mask: box(4, 4), data: 'hero' }),
        ghost = world.add({ x: 4, y: -20, mask: box(4, 4), data: 'ghost' });
    assert.deepEqual(
        world.collisions().map(p => [p.a.data, p.b.data]),
        [
            ['hero', 'old'],
            ['hero', 'frozen']
        ]
    );
    assert.ok(old.calls > 0, 'the old method answers');
    assert.deepEqual((world.contact(hero, ground) as Contact).box, (world.contact(hero, cold.result) as Contact).box);
    assert.equal(world.raycast(0, 9, 40, 9)?.body, hero);
    // Numbers where the options object goes: 0.3's positional filters, warned once per method.
    const f = (method: string) => [`World.${method}(…, filter)`, `World.${method}(…, { filter })`] as const;
    const two = 2 as never,
        out: Body<string>[] = [];
    assert.equal(
        warnsOnce(...f('queryPoint'), () => world.queryPoint(5, 9, two, out)),
        out,
        'out still comes after the filter'
    );
    assert.deepEqual(ids(out), ids(world.queryPoint(5, 9, { filter: 2 })));
    assert.deepEqual(ids(out), [ground.id, cold.result.id]);
    assert.deepEqual(
        ids(warnsOnce(...f('queryRect'), () => world.queryRect(0, -30, 20, 40, two))),
        ids(world.queryRect(0, -30, 20, 40, { filter: 2 }))
    );
    assert.deepEqual(ids(warnsOnce(...f('queryMask'), () => world.queryMask(box(3, 3), 4, 5, 1 as never))), [hero.id]);
    assert.equal(warnsOnce(...f('raycast'), () => world.raycast(5, -40, 5, 40, 1 as never))?.body, ghost);
    assert.equal(world.raycast(5, -40, 5, 40, { filter: 2 }), null, 'the layers here have no raycast');
    // The options object: any object with or without `filter`; anything else is a TypeError.
    assert.deepEqual(ids(world.queryPoint(5, 9, {})), ids(world.queryPoint(5, 9)));
    assert.throws(() => world.queryPoint(5, 9, 'all' as never), /options must be an object like \{ filter: 0b10 \}/);
    assert.throws(() => world.queryPoint(5, 9, { filter: 2 ** 32 }), /filter must be a 32-bit integer/);
});
