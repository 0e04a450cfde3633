// @test no-shared slow
// world.raycast against the per-body oracle (each live body's placed mask and each layer's pixels through the
// naive oracle; the smallest distance, then bodies before layers, then the lower id) under churn: adds, moves,
// removals, masks, transforms and filters changing between rays, with and without steps; dense and hashed
// grids, short and long rays; tile map and raster layers; the tie rules; errors. Both kernel paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
    CollisionRaster,
    Mask,
    TileMap,
    World,
    type Body,
    type CollisionLayer,
    type RayHit,
    type WorldRayHit
} from '../src/index.js';
import { mulberry32, testKernels } from './reference.js';
import { fields, refCast, segments, type RefHit } from './ray-reference.js';

const SEED = 20261217;

function sprite(w: number, h: number, density: number, rnd: () => number): Mask {
    const m = new Mask(w, h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (rnd() < density) m.set(x, y);
    return m;
}

interface LayerRef {
    body: Body;
    category: number;
    w: number;
    h: number;
    set: (i: number, j: number) => boolean;
}

// The oracle: every live body and layer the filter selects, one by one.
function oracle(
    world: World,
    bodies: Body[],
    layers: LayerRef[],
    f: number,
    s: number[]
): { hit: RayHit; body: Body } | null {
    let best: RefHit | null = null,
        who: Body | null = null;
    for (const b of bodies) {
        if ((world.getFilter(b).category & f) === 0) continue;
        const p = world.placedMask(b);
        const h = refCast((i, j) => p.mask.get(i, j), p.mask.width, p.mask.height, p.x, p.y, s[0], s[1], s[2], s[3]);
        if (h && (!best || h.distance < best.distance || (h.distance === best.distance && b.id < (who as Body).id))) {
            best = h;
            who = b;
        }
    }
    for (const l of layers) {
        if ((l.category & f) === 0) continue;
        const h = refCast(l.set, l.w, l.h, 0, 0, s[0], s[1], s[2], s[3]);
        if (h && (!best || h.distance < best.distance)) {
            best = h;
            who = l.body;
        }
    }
    return best && { hit: fields(best) as RayHit, body: who as Body };
}

// `far`: a segment reaching more than 2^32 px beyond a body is clipped to its box first, so the entry point may
// differ from the oracle's (unclipped) one in the last bits; the pixel, normal and body may not.
function check(
    world: World,
    bodies: Body[],
    layers: LayerRef[],
    f: number,
    s: number[],
    what: string,
    far = false
): boolean {
    const want = oracle(world, bodies, layers, f, s),
        got = world.raycast(s[0], s[1], s[2], s[3], { filter: f });
    assert.equal(got?.body, want?.body, `${what}: body, ray ${s.join(', ')} filter ${f}`);
    if (far && got && want) {
        const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
        assert.deepEqual(
            [got.px, got.py, got.nx, got.ny],
            [want.hit.px, want.hit.py, want.hit.nx, want.hit.ny],
            `${what}: ray ${s.join(', ')}`
        );
        assert.ok(
            near(got.x, want.hit.x) && near(got.y, want.hit.y) && near(got.distance, want.hit.distance),
            `${what}: ray ${s.join(', ')}`
        );
    } else assert.deepEqual(fields(got), want && want.hit, `${what}: hit, ray ${s.join(', ')} filter ${f}`);
    return want !== null;
}

testKernels('world.raycast equals the per-body oracle under churn, with layers and filters', () => {
    const rnd = mulberry32(SEED);
    const shapes = [
        sprite(12, 9, 0.6, rnd),
        sprite(30, 20, 0.15, rnd),
        sprite(5, 40, 0.4, rnd),
        new Mask(8, 8, true),
        sprite(64, 70, 0.02, rnd),
        new Mask(0, 3)
    ];
    for (const cellSize of [undefined, 8, 256]) {
        const world = new World(cellSize === undefined ? {} : { cellSize });
        const W = 200,
            H = 150,
            bodies: Body[] = [];
        const tiles = [sprite(16, 16, 0.1, rnd), new Mask(16, 16, true)];
        const map = new TileMap(
            16,
            16,
            8,
            6,
            tiles,
            Array.from({ length: 48 }, () => (rnd() < 0.8 ? -1 : Math.floor(rnd() * 2)))
        );
        const raster = new CollisionRaster(W, H, { layers: 2 });
        for (let k = 0; k < 15; k++) raster.stamp(shapes[k % 4], rnd() * W, rnd() * H, { id: k, layer: k % 2 });
        const layers: LayerRef[] = [
            {
                body: world.addLayer(map, { category: 8 }),
                category: 8,
                w: map.width,
                h: map.height,
                set: (i, j) => map.hitTest(i, j)
            },
            {
                body: world.addLayer(raster.layer(1), { category: 16 }),
                category: 16,
                w: W,
                h: H,
                set: (i, j) => raster.hitTest(i, j, { layers: 2 })
            }
        ];
        const add = () =>
            bodies.push(
                world.add({
                    x: rnd() * (W + 40) - 20,
                    y: rnd() * (H + 40) - 20,
                    mask: shapes[Math.floor(rnd() * shapes.length)],
                    category: [1, 2, 4, 0][Math.floor(rnd() * 4)],
                    angle: rnd() < 0.2 ? rnd() * 6 : 0
                })
            );
        for (let k = 0; k < 40; k++) add();
        let hits = 0,
            rays = 0;
        for (let round = 0; round < 12; round++) {
            for (let op = 0; op < 25; op++) {
                const r = rnd(),
                    b = bodies[Math.floor(rnd() * bodies.length)];
                if (r < 0.1 || !b) add();
                else if (r < 0.2) {
                    world.remove(b);
                    bodies.splice(bodies.indexOf(b), 1);
                } else if (r < 0.7) world.move(b, b.x + (rnd() - 0.5) * 60, b.y + (rnd() - 0.5) * 60);
                else if (r < 0.8) world.setMask(b, shapes[Math.floor(rnd() * shapes.length)]);
                else if (r < 0.9) world.setTransform(b, { angle: rnd() * 6, flipX: rnd() < 0.5 });
                else world.setFilter(b, { category: [1, 2, 4, 0][Math.floor(rnd() * 4)] });
            }
            if (round % 3 === 0) world.step();
            for (const s of segments(rnd, W, H, 0, 0, 30)) {
                for (const f of [0xffffffff, 1, 2 | 8, 4 | 16, 8]) {
                    rays++;
                    if (check(world, bodies, layers, f, s, `cellSize ${cellSize}, round ${round}`)) hits++;
                }
            }
        }
        assert.ok(hits > rays / 4 && hits < rays, `${hits} of ${rays} rays hit`);
    }
});

testKernels('world.raycast in a sparse world (hashed grid) with short and far-reaching rays', () => {
    const rnd = mulberry32(SEED + 1);
    const world = new World(),
        bodies: Body[] = [],
        shape = sprite(20, 20, 0.3, rnd),
        dot = new Mask(1, 1, true);
    // Clusters far apart: the grid hashes its cells.
    for (const [cx, cy] of [
        [0, 0],
        [1e6, -3e5],
        [-2e6, 5e6],
        [2 ** 40, 2 ** 40]
    ]) {
        for (let k = 0; k < 30; k++)
            bodies.push(world.add({ x: cx + rnd() * 300, y: cy + rnd() * 300, mask: k % 5 === 0 ? dot : shape }));
    }
    world.step();
    let hits = 0;
    for (const [cx, cy] of [
        [0, 0],
        [1e6, -3e5],
        [-2e6, 5e6],
        [2 ** 40, 2 ** 40]
    ]) {
        for (const s of segments(rnd, 320, 320, cx - 10, cy - 10, 60))
            if (check(world, bodies, [], 0xffffffff, s, `cluster ${cx}`)) hits++;
        // From another cluster, across empty space.
        for (let k = 0; k < 5; k++) {
            const s = [rnd() * 300, rnd() * 300, cx + rnd() * 300, cy + rnd() * 300];
            if (check(world, bodies, [], 0xffffffff, s, 'across', true)) hits++;
        }
    }
    assert.ok(hits > 50, `${hits} hits`);
});

test('world.raycast ties: equal distances go to bodies before layers, then to the lower id', () => {
    const world = new World(),
        wall = new Mask(4, 4, true);
    const late = world.add({ x: 10, y: 0, mask: wall });
    const early = world.add({ x: 10, y: 0, mask: wall });
    const map = new TileMap(4, 4, 10, 1, [wall], [-1, -1, -1, -1, 0, -1, -1, -1, -1, -1]);
    const layer = world.addLayer(map);
    assert.equal(world.raycast(0, 1.5, 40, 1.5)?.body, late, 'two bodies on the same pixel: the lower id');
    world.remove(late);
    assert.equal(world.raycast(0, 1.5, 40, 1.5)?.body, early);
    world.move(early, 16, 0);
    assert.deepEqual(
        { ...world.raycast(0, 1.5, 40, 1.5) },
        { px: 16, py: 1, x: 16, y: 1.5, distance: 16, nx: -1, ny: 0, body: early },
        'body and layer on the same pixel: the body'
    );
    world.setFilter(early, { category: 2 });
    assert.equal(world.raycast(0, 1.5, 40, 1.5, { filter: 1 })?.body, layer, 'filtered out by category');
    assert.equal(world.raycast(0, 1.5, 40, 1.5, { filter: 2 })?.body, early);
    // A layer without raycast is not hit by rays; one with it is.
    const custom: CollisionLayer = {
        overlaps: () => true,
        overlapArea: () => 1,
        overlap: () => ({ x: 0, y: 0 }),
        hitTest: () => true
    };
    const plain = new World();
    plain.addLayer(custom);
    assert.equal(plain.raycast(0, 0, 10, 10), null);
    const withRays: CollisionLayer = {
        ...custom,
        raycast: (x0, y0, _x1, _y1, out) =>
            Object.assign(out ?? {}, { px: 0, py: 0, x: x0, y: y0, distance: 0, nx: 0, ny: 0 })
    };
    const handle = plain.addLayer(withRays);
    assert.equal(plain.raycast(0, 0, 10, 10)?.body, handle);
});

testKernels('world.raycast with out: allocation-free form; decorative and removed bodies are never hit', () => {
    const world = new World(),
        m = new Mask(3, 3, true);
    const a = world.add({ x: 5, y: 5, mask: m }),
        deco = world.add({ x: 2, y: 5, mask: m, category: 0 });
    const out: WorldRayHit = { px: 0, py: 0, x: 0, y: 0, distance: 0, nx: 0, ny: 0, body: deco };
    assert.equal(world.raycast(0, 6.5, 20, 6.5, undefined, out), out);
    assert.deepEqual({ ...out }, { px: 5, py: 6, x: 5, y: 6.5, distance: 5, nx: -1, ny: 0, body: a });
    world.remove(a);
    assert.equal(world.raycast(0, 6.5, 20, 6.5, undefined, out), null);
    assert.equal(out.body, a, 'out is left alone on a miss');
    assert.equal(world.raycast(0, 6.5, 20, 6.5), null);
    // Many bodies along one long ray: stops at the first, whatever the grid's cell size.
    const row = new World({ cellSize: 16 }),
        bodies: Body[] = [];
    for (let k = 0; k < 500; k++) bodies.push(row.add({ x: 10 + 7 * k, y: 0, mask: m }));
    assert.equal(row.raycast(0, 1.5, 1e5, 1.5)?.body, bodies[0]);
    assert.equal(row.raycast(1e5, 1.5, 0, 1.5)?.body, bodies[499]);
    assert.equal(row.raycast(-1e300, 1.5, 1e300, 1.5)?.body, bodies[0]);
});

test('world.raycast: errors name the value', () => {
    const world = new World();
    world.add({ x: 0, y: 0, mask: new Mask(2, 2, true) });
    assert.throws(() => world.raycast(0, NaN, 1, 1), {
        name: 'RangeError',
        message: 'y0 must be a finite number, got NaN.'
    });
    assert.throws(() => world.raycast(0, 0, 1, 1, { filter: 0.5 }), {
        name: 'RangeError',
        message: /filter must be a 32-bit integer \(-2147483648\.\.4294967295, .*\), got 0\.5/
    });
    assert.throws(() => world.raycast(0, 0, 1, {} as number), {
        name: 'TypeError',
        message: 'y1 must be a number, got Object.'
    });
    assert.throws(() => world.raycast(0, 0, 1, 1, undefined, 5 as unknown as WorldRayHit), {
        name: 'TypeError',
        message: /out must be a WorldRayHit object, got 5/
    });
});

test('world.raycast: a layer whose raycast casts a World ray itself gets a clear Error, and both worlds stay usable', () => {
    const inner = new World();
    inner.add({ x: 5, y: 0, mask: new Mask(2, 2, true) });
    const world = new World();
    world.add({ x: 10, y: 0, mask: new Mask(4, 4, true) });
    // A layer that answers rays with another World's rays (a mask ray inside a World search is fine).
    const nested: CollisionLayer = {
        overlaps: () => false,
        overlapArea: () => 0,
        overlap: () => null,
        hitTest: () => false,
        raycast: (x0, y0, x1, y1, out) => inner.raycast(x0, y0, x1, y1, undefined, out as WorldRayHit)
    };
    world.addLayer(nested);
    assert.throws(
        () => world.raycast(0, 1.5, 20, 1.5),
        (e: unknown) => e instanceof Error && /cast a World ray during another World ray/.test((e as Error).message)
    );
    assert.equal(inner.raycast(0, 1.5, 20, 1.5)?.px, 5);
    const plain = new World();
    plain.add({ x: 10, y: 0, mask: new Mask(4, 4, true) });
    plain.addLayer(new TileMap(4, 4, 2, 1, [new Mask(4, 4, true)], [-1, 0]));
    assert.equal(plain.raycast(0, 1.5, 20, 1.5)?.px, 4, 'the tile map (a mask ray inside the World search) is nearer');
});
