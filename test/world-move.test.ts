// @test fast no-shared
// World.moveAndSlide against a naive World mover: the per-pixel reference (test/move-reference.ts) over a
// layer that tests every other body the filters accept and every layer, one by one. Seeded scenes of static
// bodies, a tile map and one-way platforms; moving platforms carry their riders; bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mask, TileMap, World, type Body, type CollisionLayer, type MoveResult } from '../src/index.js';
import { referenceMove } from './move-reference.js';
import { mulberry32, testKernels } from './reference.js';
import { allocations } from './work.js';

const SEEDS = Number(process.env.HITMASK_MOVE_SEEDS ?? 12);

// The World as the naive mover sees it: every live body but `mover` whose filter accepts it, and the layers.
interface LayerInfo {
    layer: CollisionLayer;
    category: number;
    collidesWith: number;
    oneWay: boolean;
}

// Bodies added with { oneWay: true } (the naive mover's own record of them).
const oneWayBodies = new WeakSet<Body<number>>();

function naiveSolids(
    world: World<number>,
    bodies: readonly Body<number>[],
    layerInfo: readonly LayerInfo[],
    mover: Body<number>,
    oneWay: boolean
): CollisionLayer {
    const f = world.getFilter(mover);
    const others = () =>
        bodies
            .filter(b => b !== mover && world.has(b) && oneWayBodies.has(b) === oneWay)
            .filter(b => {
                const g = world.getFilter(b);
                return (
                    (g.category & f.collidesWith) !== 0 &&
                    (f.category & g.collidesWith) !== 0 &&
                    !(f.group !== 0 && g.group === f.group)
                );
            });
    const layers = () =>
        layerInfo.filter(
            l => l.oneWay === oneWay && (l.category & f.collidesWith) !== 0 && (f.category & l.collidesWith) !== 0
        );
    const test = (m: Mask, x: number, y: number) =>
        others().some(b => {
            const p = world.placedMask(b);
            return m.overlaps(p.mask, p.x - x, p.y - y);
        }) || layers().some(l => l.layer.overlaps(m, x, y));
    return { overlaps: test, overlapArea: () => 0, overlap: () => null, hitTest: () => false };
}

// A layer over `floor` whose overlaps() runs `hook` first: user code running inside a move.
function hooked(floor: CollisionLayer, hook: (m: Mask) => void): CollisionLayer {
    return {
        overlaps: (m, x, y) => {
            hook(m);
            return floor.overlaps(m, x, y);
        },
        overlapArea: (m, x, y) => floor.overlapArea(m, x, y),
        overlap: (m, x, y) => floor.overlap(m, x, y),
        hitTest: (x, y) => floor.hitTest(x, y)
    };
}

function terrain(rnd: () => number): TileMap {
    const tile = new Mask(8, 8, true),
        slope = Mask.fromText('.......#\n......##\n.....###\n....####\n...#####\n..######\n.#######\n########');
    const cells: number[] = [];
    for (let r = 0; r < 16; r++)
        for (let c = 0; c < 32; c++)
            cells.push(r === 15 || (r > 11 && rnd() < 0.2) ? 0 : r > 12 && rnd() < 0.1 ? 1 : -1);
    return new TileMap(8, 8, 32, 16, [tile, slope], cells);
}

testKernels(
    'world.moveAndSlide equals the naive World mover on seeded scenes (bodies, tiles, one-way platforms)',
    () => {
        let moves = 0,
            blocked = 0;
        for (let seed = 1; seed <= SEEDS; seed++) {
            const rnd = mulberry32(seed),
                world = new World<number>(),
                bodies: Body<number>[] = [];
            const layerInfo: LayerInfo[] = [
                { layer: terrain(rnd), category: 1, collidesWith: 0xffffffff, oneWay: false }
            ];
            world.addLayer(layerInfo[0].layer);
            const cells = new Array(32 * 16).fill(-1);
            for (let k = 0; k < 6; k++) {
                const r = 3 + Math.floor(rnd() * 10),
                    c = Math.floor(rnd() * 28);
                for (let i = 0; i < 4; i++) cells[r * 32 + c + i] = 0;
            }
            const platforms = new TileMap(
                8,
                2,
                32,
                64,
                [new Mask(8, 2, true)],
                Array.from({ length: 32 * 64 }, (_, i) =>
                    cells[Math.floor(i / 32 / 4) * 32 + (i % 32)] === 0 && Math.floor(i / 32) % 4 === 0 ? 0 : -1
                )
            );
            world.addLayer(platforms, { oneWay: true, category: 4 });
            layerInfo.push({ layer: platforms, category: 4, collidesWith: 0xffffffff, oneWay: true });
            for (let k = 0; k < 12; k++) {
                const m = new Mask(4 + Math.floor(rnd() * 12), 4 + Math.floor(rnd() * 12), true);
                const oneWay = rnd() < 0.25;
                bodies.push(
                    world.add({
                        x: rnd() * 240,
                        y: rnd() * 110,
                        mask: m,
                        data: k,
                        category: rnd() < 0.3 ? 2 : 1,
                        collidesWith: rnd() < 0.2 ? 1 : 0xffffffff,
                        oneWay
                    })
                );
                if (oneWay) oneWayBodies.add(bodies[bodies.length - 1]);
            }
            const shapes = [new Mask(6, 10, true), Mask.fromText('.##.\n####\n####\n.##.'), new Mask(12, 3, true)];
            for (let k = 0; k < 40; k++) {
                const mover = world.add({
                    x: rnd() * 240,
                    y: rnd() * 100,
                    mask: shapes[k % 3],
                    data: 100 + k,
                    category: k % 3 === 1 ? 2 : 1,
                    collidesWith: k % 5 === 4 ? 3 : 0xffffffff
                });
                const stepUp = Math.floor(rnd() * 4),
                    snapDown = Math.floor(rnd() * 5);
                for (let j = 0; j < 6; j++) {
                    const dx = (rnd() - 0.5) * (rnd() < 0.2 ? 80 : 12),
                        dy = (rnd() - 0.4) * (rnd() < 0.2 ? 120 : 10),
                        dropThrough = rnd() < 0.1;
                    const p = world.placedMask(mover);
                    const want: MoveResult = referenceMove(
                        naiveSolids(world, bodies, layerInfo, mover, false),
                        p.mask,
                        mover.x,
                        mover.y,
                        dx,
                        dy,
                        { stepUp, snapDown, oneWay: naiveSolids(world, bodies, layerInfo, mover, true), dropThrough }
                    );
                    const got = world.moveAndSlide(mover, dx, dy, { stepUp, snapDown, carry: false, dropThrough });
                    assert.deepEqual(
                        [got.x, got.y, got.onFloor, got.onCeiling, got.onWall],
                        [want.x, want.y, want.onFloor, want.onCeiling, want.onWall],
                        `seed ${seed}, mover ${k}, move ${j}: (${dx}, ${dy}) stepUp ${stepUp} snapDown ${snapDown} drop ${dropThrough}`
                    );
                    assert.deepEqual([mover.x, mover.y], [want.x, want.y], 'the body is where the result says');
                    if (got.onFloor) assert.ok(got.floor !== null, 'a floor is named');
                    else assert.equal(got.floor, null);
                    moves++;
                    if (got.onWall || got.onFloor) blocked++;
                }
                world.remove(mover);
            }
        }
        assert.ok(moves >= SEEDS * 200 && blocked > moves / 10, `${moves} moves, ${blocked} stopped by something`);
    }
);

test('a moving platform carries its riders, sideways and up and down; carry: false leaves them', () => {
    const world = new World<string>();
    const platform = world.add({ x: 10, y: 50, mask: new Mask(30, 4, true), data: 'platform' });
    const rider = world.add({ x: 20, y: 42, mask: new Mask(6, 8, true), data: 'rider' });
    const bystander = world.add({ x: 100, y: 42, mask: new Mask(6, 8, true), data: 'bystander' });
    assert.equal(world.moveAndSlide(rider, 0, 5).floor, platform, 'the rider stands on the platform');
    world.moveAndSlide(platform, 7, 0);
    assert.deepEqual([platform.x, rider.x, rider.y, bystander.x], [17, 27, 42, 100]);
    world.moveAndSlide(platform, 0, -10);
    assert.deepEqual([platform.y, rider.y], [40, 32], 'an elevator going up lifts its rider');
    world.moveAndSlide(platform, 0, 6);
    assert.deepEqual([platform.y, rider.y], [46, 38], 'and going down takes it along');
    world.moveAndSlide(platform, -5, 0, { carry: false });
    assert.deepEqual([platform.x, rider.x], [12, 27], 'carry: false');
    // A ceiling stops a rider carried up: it stays under the ceiling and the platform, which moved on, now
    // overlaps it (squeezed: the game decides what that means).
    world.add({ x: 20, y: 32, mask: new Mask(20, 4, true), data: 'ceiling' });
    world.moveAndSlide(platform, 0, -4);
    assert.deepEqual([platform.y, rider.y], [42, 36], 'held under the ceiling');
    assert.deepEqual(
        world.collisions().map(p => `${p.a.data}-${p.b.data}`),
        ['platform-rider']
    );
});

test('a one-way body: jumped through from below, landed on from above, and it carries what stands on it', () => {
    const world = new World<string>();
    const ledge = world.add({ x: 0, y: 40, mask: new Mask(40, 3, true), data: 'ledge', oneWay: true });
    const hero = world.add({ x: 10, y: 50, mask: new Mask(6, 8, true), data: 'hero' });
    world.moveAndSlide(hero, 0, -30);
    assert.equal(hero.y, 20, 'up through the ledge');
    const r = world.moveAndSlide(hero, 0, 40);
    assert.deepEqual([hero.y, r.onFloor, r.floor?.data], [32, true, 'ledge'], 'down onto it');
    world.moveAndSlide(hero, 50, 0);
    assert.equal(hero.x, 60, 'and off it sideways: a one-way body never blocks sideways');
    world.moveAndSlide(hero, -50, 0);
    world.moveAndSlide(ledge, 4, -3);
    assert.deepEqual([hero.x, hero.y], [14, 29], 'carried');
    // Restore keeps the flag: the ledge still holds from above only.
    const bytes = world.snapshot();
    world.restore(bytes);
    assert.equal(world.moveAndSlide(hero, 0, 5).floor, ledge);
});

test('world.moveAndSlide in a game loop allocates no typed arrays; bad input is refused and nothing moves', () => {
    const world = new World<number>();
    world.addLayer(
        new TileMap(
            16,
            16,
            20,
            4,
            [new Mask(16, 16, true)],
            Array.from({ length: 80 }, (_, i) => (i >= 60 ? 0 : -1))
        )
    );
    const walkers: Body<number>[] = [];
    for (let i = 0; i < 50; i++)
        walkers.push(world.add({ x: i * 6, y: 20, mask: new Mask(5, 8, true), data: i, category: 2, collidesWith: 1 }));
    const out = { x: 0, y: 0, onFloor: false, onCeiling: false, onWall: false, floor: null as Body<number> | null };
    for (const w of walkers) world.moveAndSlide(w, 1, 40, { snapDown: 2 }, out);
    const seen = allocations(() => {
        for (let f = 0; f < 30; f++)
            for (const w of walkers) world.moveAndSlide(w, f % 2 ? 1.5 : -1.5, 2, { stepUp: 2, snapDown: 2 }, out);
    });
    assert.equal(seen.bytes, 0, `${seen.count} typed arrays`);
    const w = walkers[0],
        before = [w.x, w.y];
    assert.throws(() => world.moveAndSlide(w, NaN, 0), /dx must be a finite number/);
    assert.throws(
        () => world.moveAndSlide(w, 0, 0, { stepUp: -1 }),
        /^RangeError: stepUp must be an integer in 0\.\.1048576 \(pixels\), got -1/
    );
    assert.throws(
        () => world.moveAndSlide(w, 0, 0, { carry: 1 as never }),
        /^TypeError: carry must be a boolean, got 1/
    );
    assert.throws(() => world.moveAndSlide({} as Body<number>, 0, 0), /^TypeError: moveAndSlide\(\) needs a Body/);
    assert.throws(
        () => world.addLayer(new TileMap(1, 1, 1, 1, [], [-1]), { oneWay: 'yes' as never }),
        /^TypeError: oneWay must be a boolean/
    );
    assert.throws(
        () => world.add({ x: 0, y: 0, mask: new Mask(1, 1), oneWay: 1 as never }),
        /^TypeError: oneWay must be a boolean, got 1/
    );
    assert.deepEqual([w.x, w.y], before);
});

test('a throwing layer or a listener: world.moveAndSlide rethrows and moves nothing, and refuses to run inside a listener', () => {
    const world = new World<string>();
    let fail = false;
    const floor = new TileMap(16, 16, 4, 1, [new Mask(16, 16, true)], [0, 0, 0, 0]);
    const flaky: CollisionLayer = {
        overlaps: (m, x, y) => {
            if (fail) throw new Error('layer broke');
            return floor.overlaps(m, x, y);
        },
        overlapArea: (m, x, y) => floor.overlapArea(m, x, y),
        overlap: (m, x, y) => floor.overlap(m, x, y),
        hitTest: (x, y) => floor.hitTest(x, y)
    };
    world.addLayer(flaky, { data: 'floor' });
    const hero = world.add({ x: 4, y: -20, mask: new Mask(4, 4, true), data: 'hero' });
    fail = true;
    assert.throws(() => world.moveAndSlide(hero, 3, 30), /layer broke/);
    assert.deepEqual([hero.x, hero.y], [4, -20], 'nothing moved');
    fail = false;
    const r = world.moveAndSlide(hero, 3, 30);
    assert.deepEqual([hero.x, hero.y, r.onFloor, r.floor?.data], [7, -4, true, 'floor'], 'the next call works');
    // Inside a listener the World is mid-step: moving (or saving) it there is refused with the way out.
    const other = world.add({ x: 8, y: -4, mask: new Mask(4, 4, true), data: 'other' });
    const seen: string[] = [];
    world.on('begin', a => {
        for (const call of [
            () => world.moveAndSlide(a, 1, 0),
            () => world.snapshot(),
            () => world.restore(new Uint8Array(8)),
            () => world.hash()
        ]) {
            try {
                call();
                seen.push('ran');
            } catch (e) {
                seen.push((e as Error).message.replace(/\(\).*/, '()'));
            }
        }
    });
    world.move(other, 7, -4);
    assert.equal(world.step(), 1);
    assert.deepEqual(seen, ['moveAndSlide()', 'snapshot()', 'restore()', 'hash()']);
    assert.throws(() => world.snapshot('out' as never), /^TypeError: out must be a Uint8Array, got "out"/);
});

test('dropThrough: a body standing on a one-way body or layer falls into it for one move, then through it', () => {
    const world = new World<string>();
    const ledges = new TileMap(
        8,
        4,
        8,
        16,
        [new Mask(8, 4, true)],
        Array.from({ length: 128 }, (_, i) => (i >= 80 && i < 88 ? 0 : -1))
    );
    world.addLayer(ledges, { oneWay: true, data: 'ledges' });
    const lift = world.add({ x: 0, y: 20, mask: new Mask(64, 2, true), data: 'lift', oneWay: true });
    world.addLayer(new TileMap(64, 4, 1, 17, [new Mask(64, 4, true)], [...new Array(16).fill(-1), 0]), {
        data: 'floor'
    });
    const hero = world.add({ x: 10, y: 0, mask: new Mask(4, 6, true), data: 'hero' });
    let r = world.moveAndSlide(hero, 0, 40);
    assert.deepEqual([hero.y, r.floor?.data], [14, 'lift']);
    r = world.moveAndSlide(hero, 0, 2, { dropThrough: true });
    assert.deepEqual([hero.y, r.onFloor, r.floor], [16, false, null], 'into the one-way body');
    for (let f = 0; f < 20 && !r.onFloor; f++) r = world.moveAndSlide(hero, 0, 3);
    assert.deepEqual([hero.y, r.floor?.data], [34, 'ledges'], 'through it, onto the one-way layer');
    r = world.moveAndSlide(hero, 0, 3, { dropThrough: true });
    for (let f = 0; f < 40 && !r.onFloor; f++) r = world.moveAndSlide(hero, 0, 3);
    assert.deepEqual([hero.y, r.floor?.data], [58, 'floor'], 'and through that, onto solid');
    assert.equal(world.has(lift), true);
    assert.throws(
        () => world.moveAndSlide(hero, 0, 1, { dropThrough: 'yes' as never }),
        /^TypeError: dropThrough must be a boolean, got "yes"/
    );
});

test('world.moveAndSlide never moves a body or a rider past ±2^50; the World still takes its own snapshot', () => {
    const L = 2 ** 50,
        world = new World<string>();
    const far = world.add({ x: L - 5, y: 0, mask: new Mask(4, 4, true), data: 'far' });
    assert.throws(() => world.moveAndSlide(far, 10, 0), /^RangeError: moveAndSlide\(\): .* beyond ±2\^50/);
    assert.deepEqual([far.x, far.y], [L - 5, 0], 'not moved');
    assert.equal(world.moveAndSlide(far, 5, 0).x, L, 'up to the limit');
    const bytes = world.snapshot();
    world.move(far, 0, 0);
    world.restore(bytes);
    assert.deepEqual([far.x, far.y], [L, 0], 'its own snapshot restores');
    assert.equal(world.moveAndSlide(far, -10, 0).x, L - 10, 'and the body still moves');
    // A rider carried past the limit: the platform's move is refused too, nothing moved.
    const lift = world.add({ x: -L + 2, y: 100, mask: new Mask(40, 4, true), data: 'lift' });
    const rider = world.add({ x: -L, y: 94, mask: new Mask(4, 6, true), data: 'rider' });
    assert.throws(() => world.moveAndSlide(lift, -5, 0), /beyond ±2\^50/);
    assert.deepEqual([lift.x, rider.x], [-L + 2, -L]);
    world.restore(world.snapshot());
    // By stepUp: a wall climbed up past −2^50.
    const top = world.add({ x: 0, y: -L + 1, mask: new Mask(2, 2, true), data: 'top' });
    world.add({ x: 2, y: -L, mask: new Mask(2, 2, true), data: 'step' });
    assert.throws(() => world.moveAndSlide(top, 1, 0, { stepUp: 3 }), /would end at \(1, -1125899906842626\)/);
    assert.deepEqual([top.x, top.y], [0, -L + 1]);
    assert.equal(world.restore(world.snapshot()), world);
});

test('a layer throwing while riders are carried: the platform and every rider are put back', () => {
    const world = new World<string>();
    const riderMask = new Mask(4, 6, true);
    let fail = false;
    const floor = new TileMap(16, 16, 4, 8, [new Mask(16, 16, true)], [...new Array(28).fill(-1), 0, 0, 0, 0]);
    world.addLayer(
        hooked(floor, m => {
            // Only the carried riders' moves fail (the lift's own move passes): their masks, and the boxes
            // of positions a small move tests at once, are narrower than the lift's.
            if (fail && m.width < riderMask.width + 8) throw new Error('layer broke');
        }),
        { data: 'floor' }
    );
    const lift = world.add({ x: 10, y: 80, mask: new Mask(30, 4, true), data: 'lift' });
    const a = world.add({ x: 12, y: 74, mask: new Mask(4, 6, true), data: 'a' });
    const b = world.add({ x: 20, y: 74, mask: riderMask, data: 'b' });
    const hash = world.hash();
    fail = true;
    assert.throws(() => world.moveAndSlide(lift, 3, -5), /layer broke/);
    assert.deepEqual([lift.x, lift.y, a.x, a.y, b.x, b.y], [10, 80, 12, 74, 20, 74], 'nothing moved');
    fail = false;
    assert.equal(world.hash(), hash);
    assert.equal(world.collisions().length, 0, 'no rider inside the lift');
    world.moveAndSlide(lift, 3, -5);
    assert.deepEqual([lift.x, lift.y, a.x, a.y, b.x, b.y], [13, 75, 15, 69, 23, 69], 'the next call carries both');
});

test("a layer's overlaps() cannot change the World mid-move: refused as inside a listener, queries still answer", () => {
    const world = new World<string>();
    const floor = new TileMap(16, 16, 4, 4, [new Mask(16, 16, true)], [...new Array(12).fill(-1), 0, 0, 0, 0]);
    const seen = new Set<string>();
    let found = -1;
    let reenter = false;
    const tries: [string, () => unknown][] = [];
    world.addLayer(
        hooked(floor, () => {
            if (reenter) {
                reenter = false;
                for (const [name, call] of tries) {
                    try {
                        call();
                        seen.add(`${name} ran`);
                    } catch (e) {
                        seen.add((e as Error).message);
                    }
                }
                found = world.queryPoint(41, 40).length;
            }
        })
    );
    const hero = world.add({ x: 4, y: 0, mask: new Mask(4, 6, true), data: 'hero' });
    const other = world.add({ x: 40, y: 40, mask: new Mask(4, 4, true), data: 'other' });
    const bytes = world.snapshot();
    tries.push(
        ['moveAndSlide', () => world.moveAndSlide(other, 1, 0)],
        ['remove', () => world.remove(other)],
        ['add', () => world.add({ x: 0, y: 0, mask: new Mask(2, 2, true) })],
        ['move', () => world.move(hero, 100, 100)],
        ['setMask', () => world.setMask(hero, new Mask(1, 1, true))],
        ['setFilter', () => world.setFilter(hero, { category: 2 })],
        ['restore', () => world.restore(bytes)],
        ['hash', () => world.hash()],
        ['snapshot', () => world.snapshot()],
        ['step', () => world.step()]
    );
    reenter = true;
    const r = world.moveAndSlide(hero, 3, 60);
    assert.deepEqual(
        [...seen].map(m =>
            m.replace(
                /\(\) cannot run inside a layer's overlaps\(\) during moveAndSlide\(\); call it after moveAndSlide\(\) returns\./,
                '() refused'
            )
        ),
        [
            'moveAndSlide() refused',
            'remove() refused',
            'add() refused',
            'move() refused',
            'setMask() refused',
            'setFilter() refused',
            'restore() refused',
            'hash() refused',
            'snapshot() refused',
            'step() refused'
        ]
    );
    assert.equal(found, 1, 'a query answers');
    assert.deepEqual([hero.x, hero.y, r.onFloor, other.x, world.size], [7, 42, true, 40, 2], 'the move ended right');
    // Afterwards everything works again.
    world.remove(other);
    assert.equal(world.step(), 0, 'standing on the floor, touching nothing');
    assert.equal(world.restore(bytes), world);
    assert.deepEqual([world.size, hero.y], [2, 0]);
});

test('world.moveAndSlide of a body whose mask was disposed: an Error naming it, nothing moved', () => {
    const world = new World<string>();
    const m = new Mask(4, 4, true),
        b = world.add({ x: 0, y: 0, mask: m, data: 'gone' });
    m.dispose();
    assert.throws(() => world.moveAndSlide(b, 1, 1), /^Error: mask \(<Mask 4x4>\) was disposed/);
    assert.deepEqual([b.x, b.y], [0, 0]);
});
