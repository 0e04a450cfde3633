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
                        dy = (rnd() - 0.4) * (rnd() < 0.2 ? 120 : 10);
                    const p = world.placedMask(mover);
                    const want: MoveResult = referenceMove(
                        naiveSolids(world, bodies, layerInfo, mover, false),
                        p.mask,
                        mover.x,
                        mover.y,
                        dx,
                        dy,
                        { stepUp, snapDown, oneWay: naiveSolids(world, bodies, layerInfo, mover, true) }
                    );
                    const got = world.moveAndSlide(mover, dx, dy, { stepUp, snapDown, carry: false });
                    assert.deepEqual(
                        [got.x, got.y, got.onFloor, got.onCeiling, got.onWall],
                        [want.x, want.y, want.onFloor, want.onCeiling, want.onWall],
                        `seed ${seed}, mover ${k}, move ${j}: (${dx}, ${dy}) stepUp ${stepUp} snapDown ${snapDown}`
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
