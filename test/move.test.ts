// @test no-shared
// moveAndSlide against its per-pixel reference (test/move-reference.ts): hand-built scenes for each rule,
// seeded random terrains, masks and moves on every kind of layer and both kernel paths (HITMASK_MOVE_SEEDS
// terrains, default 12, for longer runs), the layer tests a long fall costs, and bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
    CollisionRaster,
    kernelStats,
    Mask,
    moveAndSlide,
    type CollisionLayer,
    type MoveOptions,
    type MoveResult
} from '../src/index.js';
import { referenceMove } from './move-reference.js';
import { mulberry32, testKernels } from './reference.js';
import { tileMapOf } from './tiles.js';
import { allocations } from './work.js';
import { warnsOnce } from './deprecations.js';

// A layer of one mask placed at (0, 0), counting its overlaps() calls.
function maskLayer(terrain: Mask): CollisionLayer & { tests: number } {
    return {
        tests: 0,
        overlaps(m, x, y) {
            this.tests++;
            return terrain.overlaps(m, x, y);
        },
        overlapArea: (m, x, y) => terrain.overlapArea(m, x, y),
        overlap: (m, x, y) => terrain.overlap(m, x, y),
        hitTest: (x, y) => terrain.get(x, y)
    };
}

// Terrain from rows of text: '#' solid, anything else empty.
function picture(rows: string[]): Mask {
    const m = new Mask(Math.max(...rows.map(r => r.length)), rows.length);
    rows.forEach((r, y) => {
        for (let x = 0; x < r.length; x++) if (r[x] === '#') m.set(x, y);
    });
    return m;
}

const box = (w: number, h: number) => new Mask(w, h, true);
const pick = (r: MoveResult) => ({ x: r.x, y: r.y, onFloor: r.onFloor, onCeiling: r.onCeiling, onWall: r.onWall });

test('a fall of any length stops at the first pixel of contact: on a 1-px floor, from 1,000 px above', () => {
    const floor = new Mask(64, 1100);
    for (let x = 0; x < 64; x++) floor.set(x, 1050);
    const layer = maskLayer(floor),
        me = box(8, 8);
    const r = moveAndSlide(layer, me, 10.25, 3.5, 0, 2000);
    assert.deepEqual(pick(r), { x: 10.25, y: 1042, onFloor: true, onCeiling: false, onWall: false });
    assert.equal(r.floor, layer);
    // Counted work: the naive rules test every pixel of the fall; the swept masks, a few per power of two.
    const naive = { tests: 0 };
    assert.deepEqual(pick(referenceMove(layer, me, 10.25, 3.5, 0, 2000, {}, naive)), pick(r));
    layer.tests = 0;
    moveAndSlide(layer, me, 10.25, 3.5, 0, 2000);
    assert.ok(
        naive.tests > 1000 && layer.tests <= naive.tests / 20,
        `${layer.tests} layer tests against the reference's ${naive.tests}`
    );
    // Not stopped: the fraction is kept.
    assert.deepEqual(pick(moveAndSlide(layer, me, 10, 3.5, 0, 500.25)), {
        x: 10,
        y: 503.75,
        onFloor: false,
        onCeiling: false,
        onWall: false
    });
});

test('walls stop a horizontal move at the last free pixel; stepUp climbs slopes and steps; snapDown keeps to the ground going down', () => {
    const terrain = picture([
        '                                        ',
        '                                        ',
        '                          #             ',
        '                         ##             ',
        '                        ###             ',
        '                       ####             ',
        '                      #####       #     ',
        '                     ######       #     ',
        '########################################'
    ]);
    const layer = maskLayer(terrain),
        me = box(2, 2);
    // Standing on the floor (top row 6), walking right into the slope without stepUp: a wall.
    let r = moveAndSlide(layer, me, 10.5, 6, 20, 0);
    assert.deepEqual(pick(r), { x: 19, y: 6, onFloor: true, onCeiling: false, onWall: true });
    // With stepUp 1 it walks up the slope (one pixel up per pixel across), to the top and past it.
    r = moveAndSlide(layer, me, 10.5, 6, 15, 0, { stepUp: 1 });
    assert.deepEqual(pick(r), { x: 25.5, y: 0, onFloor: true, onCeiling: false, onWall: false });
    // Walking off the top to the right: without snapDown it leaves the ground, with it it stays on the floor row.
    r = moveAndSlide(layer, me, 25, 0, 3, 0);
    assert.deepEqual(pick(r), { x: 28, y: 0, onFloor: false, onCeiling: false, onWall: false });
    r = moveAndSlide(layer, me, 25, 0, 3, 0, { snapDown: 8 });
    assert.deepEqual(pick(r), { x: 28, y: 6, onFloor: true, onCeiling: false, onWall: false });
    // The 2-px post at x 35 is too high for stepUp 1, not for stepUp 2.
    assert.deepEqual(pick(moveAndSlide(layer, me, 30, 6, 8, 0, { stepUp: 1 })), {
        x: 32,
        y: 6,
        onFloor: true,
        onCeiling: false,
        onWall: true
    });
    assert.deepEqual(pick(moveAndSlide(layer, me, 30, 6, 8, 0, { stepUp: 2 })), {
        x: 38,
        y: 4,
        onFloor: false,
        onCeiling: false,
        onWall: false
    });
    // Moving up into the ceiling-free sky and down back onto the floor.
    assert.deepEqual(pick(moveAndSlide(layer, me, 3, 6, 0, -4)), {
        x: 3,
        y: 2,
        onFloor: false,
        onCeiling: false,
        onWall: false
    });
    assert.deepEqual(pick(moveAndSlide(layer, me, 3, 2, 0, 10)), {
        x: 3,
        y: 6,
        onFloor: true,
        onCeiling: false,
        onWall: false
    });
});

test('ceilings stop an upward move; a mover already touching one stays', () => {
    const terrain = picture(['##########', '          ', '          ', '          ', '          ', '##########']);
    const layer = maskLayer(terrain),
        me = box(2, 2);
    assert.deepEqual(pick(moveAndSlide(layer, me, 4, 3, 0, -10)), {
        x: 4,
        y: 1,
        onFloor: false,
        onCeiling: true,
        onWall: false
    });
    assert.deepEqual(pick(moveAndSlide(layer, me, 4, 1, 0, -0.5)), {
        x: 4,
        y: 1,
        onFloor: false,
        onCeiling: true,
        onWall: false
    });
});

test('one-way platforms hold a mover coming down, let it through going up, sideways, or from inside', () => {
    const empty = maskLayer(new Mask(40, 40));
    const platform = new Mask(40, 40);
    for (let x = 10; x < 30; x++) for (let y = 20; y < 22; y++) platform.set(x, y);
    const oneWay = maskLayer(platform),
        me = box(4, 4),
        options: MoveOptions = { oneWay };
    // Falling onto it: held, standing on the one-way layer.
    let r = moveAndSlide(empty, me, 15, 2, 0, 30, options);
    assert.deepEqual(pick(r), { x: 15, y: 16, onFloor: true, onCeiling: false, onWall: false });
    assert.equal(r.floor, oneWay);
    // Jumping up from below: passes through.
    assert.deepEqual(pick(moveAndSlide(empty, me, 15, 30, 0, -20, options)), {
        x: 15,
        y: 10,
        onFloor: false,
        onCeiling: false,
        onWall: false
    });
    // Starting inside it (mid-jump) and falling: goes through, down to the next ground (none here).
    assert.deepEqual(pick(moveAndSlide(empty, me, 15, 19, 0, 15, options)), {
        x: 15,
        y: 34,
        onFloor: false,
        onCeiling: false,
        onWall: false
    });
    // Sideways into it: not a wall.
    assert.deepEqual(pick(moveAndSlide(empty, me, 0, 19, 20, 0, options)), {
        x: 20,
        y: 19,
        onFloor: false,
        onCeiling: false,
        onWall: false
    });
    // Standing on it, walking off the end with snapDown: no ground within reach, so it leaves the ground.
    r = moveAndSlide(empty, me, 20, 16, 20, 0, { oneWay, snapDown: 4 });
    assert.deepEqual(pick(r), { x: 40, y: 16, onFloor: false, onCeiling: false, onWall: false });
    assert.equal(r.floor, null);
});

test('a mover whose pixels change between calls: long moves see the new pixels (the swept masks are rebuilt)', () => {
    const floor = new Mask(40, 400);
    for (let x = 0; x < 40; x++) floor.set(x, 300);
    const layer = maskLayer(floor),
        me = new Mask(8, 40);
    me.set(0, 0);
    assert.equal(moveAndSlide(layer, me, 4, 0, 0, 500).y, 299);
    me.set(0, 39); // a foot 39 px lower: lands 39 px higher
    assert.equal(moveAndSlide(layer, me, 4, 0, 0, 500).y, 260);
    assert.equal(moveAndSlide(layer, me, 4, 0, 0, 500).y, referenceMove(layer, me, 4, 0, 0, 500).y);
    me.set(0, 39, false);
    assert.equal(moveAndSlide(layer, me, 4, 0, 0, 500).y, 299);
});

test(
    'long falls of an edited 512² mask dispose the swept masks they replace: live masks and memory stay flat',
    { skip: !kernelStats().wasmAvailable && 'WebAssembly kernels unavailable here' },
    () => {
        // A rollback catch-up replays falls in a synchronous loop, editing the mover between them: the swept
        // masks of the old pixels must be freed at once, not at garbage collection (which never comes in the loop).
        const floor = new Mask(600, 1600);
        for (let x = 0; x < 600; x++) floor.set(x, 1550);
        const layer = maskLayer(floor),
            me = new Mask(512, 512);
        me.set(0, 0);
        const fall = (k: number) => {
            me.set(5, 511, k % 2 === 0);
            return moveAndSlide(layer, me, 10, 0, 0, 1600);
        };
        fall(0);
        fall(1);
        const before = kernelStats();
        for (let k = 2; k < 202; k++) assert.equal(fall(k).y, k % 2 === 0 ? 1038 : 1549);
        const after = kernelStats();
        assert.equal(after.wasmMasks, before.wasmMasks, 'live masks in WebAssembly memory');
        assert.equal(after.memoryBytes, before.memoryBytes, 'WebAssembly memory reserved');
        assert.equal(after.fallbacks, before.fallbacks, 'no mask fell back to the JS heap');
        assert.equal(fall(202).y, referenceMove(layer, me, 10, 0, 0, 1600).y);
    }
);

test(
    'long falls of new masks disposed after each: their swept masks are freed as the loop goes',
    { skip: !kernelStats().wasmAvailable && 'WebAssembly kernels unavailable here' },
    () => {
        const floor = new Mask(300, 1600);
        for (let x = 0; x < 300; x++) floor.set(x, 1550);
        const layer = maskLayer(floor);
        const fall = () => {
            const me = new Mask(256, 256);
            me.set(3, 255);
            const y = moveAndSlide(layer, me, 10, 0, 0, 1600).y;
            me.dispose();
            return y;
        };
        fall();
        const before = kernelStats();
        for (let k = 0; k < 100; k++) assert.equal(fall(), 1294);
        const after = kernelStats();
        // The last few masks' sweeps may wait for the next ones to be made: a few levels, not one set per fall.
        assert.ok(
            after.wasmMasks <= before.wasmMasks + 12,
            `${after.wasmMasks - before.wasmMasks} more live masks after 100 falls`
        );
        assert.equal(after.fallbacks, before.fallbacks, 'no mask fell back to the JS heap');
    }
);

test('a layer that edits the mover and moves it again from inside a move: the outer move still ends right', () => {
    // The inner call replaces the mover's swept masks while the outer one is testing them: they are disposed
    // only when the outer run is done with them.
    const floor = new Mask(64, 700);
    for (let x = 0; x < 64; x++) floor.set(x, 650);
    const me = box(8, 8);
    let inner = 0;
    const layer: CollisionLayer = {
        ...maskLayer(floor),
        overlaps(m, x, y) {
            if (inner++ === 3) {
                me.set(0, 0, false);
                assert.equal(moveAndSlide(layer, me, 0, 0, 0, 640).y, 640);
                me.set(0, 0, true);
            }
            return floor.overlaps(m, x, y);
        }
    };
    assert.equal(moveAndSlide(layer, me, 4, 0, 0, 700).y, 642);
    assert.ok(inner > 3, 'the inner move ran');
    assert.equal(moveAndSlide(layer, me, 4, 0, 0, 700).y, 642);
});

test('a move never ends beyond ±2^50: refused with a RangeError, out untouched; one stopped short of it moves', () => {
    const L = 2 ** 50,
        me = box(2, 2);
    const open = maskLayer(new Mask(1, 1));
    const out = { x: 7, y: 7, onFloor: true, onCeiling: true, onWall: true, floor: null } as MoveResult;
    assert.throws(
        () => moveAndSlide(open, me, L - 5, 0, 10, 0, undefined, out),
        /^RangeError: moveAndSlide\(\): a move of \(10, 0\) from \(1125899906842619, 0\) would end at \(1125899906842629, 0\), beyond ±2\^50/
    );
    assert.throws(() => moveAndSlide(open, me, 0, -L + 3, 0, -4), /beyond ±2\^50/);
    assert.deepEqual([out.x, out.y, out.onFloor], [7, 7, true], 'out untouched');
    // Up to the limit itself: allowed.
    assert.equal(moveAndSlide(open, me, L - 5, 0, 5, 0).x, L);
    // A wall at x ≥ 2^50 − 2 stops the move first: no error.
    const wall: CollisionLayer = { ...open, overlaps: (m, x) => x + m.width > L - 2 };
    assert.deepEqual(pick(moveAndSlide(wall, me, L - 10, 0, 20, 0)), {
        x: L - 4,
        y: 0,
        onFloor: false,
        onCeiling: false,
        onWall: true
    });
    // Climbing with stepUp counts too: solid at every pixel x ≥ 2, y ≥ −2^50 − 1 lifts the mover past the limit
    // (a layer answers for the mask's pixels: a wider mask, as a box of positions, meets it sooner).
    const cliff: CollisionLayer = { ...open, overlaps: (m, x, y) => x + m.width > 2 && y + m.height > -L - 1 };
    assert.throws(() => moveAndSlide(cliff, me, 0, -L, 1, 0, { stepUp: 5 }), /would end at \(1, -1125899906842627\)/);
});

testKernels(
    'a game loop with out allocates nothing once warm: long falls reuse the swept masks, short moves never build them',
    () => {
        const rnd = mulberry32(7),
            terrain = randomTerrain(rnd, 400, 300),
            [map, raster] = layers(terrain, 16),
            me = randomMover(rnd);
        const out = { x: 0, y: 0, onFloor: false, onCeiling: false, onWall: false, floor: null } as MoveResult;
        const frame = (solid: CollisionLayer, k: number) =>
            moveAndSlide(
                solid,
                me,
                (k * 37) % 380,
                -40,
                (k % 5) - 2,
                k % 3 === 0 ? 400 : 3,
                { stepUp: 2, snapDown: 3 },
                out
            );
        for (const solid of [map, raster]) {
            for (let k = 0; k < 50; k++) frame(solid, k);
            const a = allocations(() => {
                for (let k = 0; k < 500; k++) frame(solid, k);
            });
            assert.equal(a.count, 0, `${a.count} arrays (${a.bytes} bytes) allocated in 500 moves`);
        }
    }
);

test('out is filled and returned; options may be omitted', () => {
    const layer = maskLayer(picture(['          ', '##########'])),
        me = box(2, 1);
    const out = { x: NaN, y: NaN, onFloor: false, onCeiling: true, onWall: true, floor: null } as MoveResult;
    assert.equal(moveAndSlide(layer, me, 0, 0, 3, 0, undefined, out), out);
    assert.deepEqual(pick(out), { x: 3, y: 0, onFloor: true, onCeiling: false, onWall: false });
    assert.equal(out.floor, layer);
});

// Random terrain: blobs, slopes, thin floors and overhangs, as a TileMap, a raster view and a mask layer.
function randomTerrain(rnd: () => number, w: number, h: number): Mask {
    const m = new Mask(w, h);
    let ground = h - 10 - Math.floor(rnd() * 20);
    for (let x = 0; x < w; x++) {
        ground = Math.max(20, Math.min(h - 2, ground + Math.floor(rnd() * 5) - 2));
        for (let y = ground; y < h; y++) m.set(x, y);
    }
    for (let k = 0; k < 12; k++) {
        const cx = Math.floor(rnd() * w),
            cy = Math.floor(rnd() * h),
            r = 2 + Math.floor(rnd() * 10);
        const carve = rnd() < 0.4;
        for (let y = cy - r; y <= cy + r; y++)
            for (let x = cx - r; x <= cx + r; x++) {
                if (x >= 0 && y >= 0 && x < w && y < h && (x - cx) ** 2 + (y - cy) ** 2 <= r * r) m.set(x, y, !carve);
            }
    }
    for (let k = 0; k < 4; k++) {
        const y = Math.floor(rnd() * h),
            x0 = Math.floor(rnd() * w),
            len = 5 + Math.floor(rnd() * 40);
        for (let x = x0; x < Math.min(w, x0 + len); x++) m.set(x, y);
    }
    return m;
}

function randomMover(rnd: () => number): Mask {
    const w = 1 + Math.floor(rnd() * 20),
        h = 1 + Math.floor(rnd() * 24),
        kind = rnd();
    const m = new Mask(w, h, kind < 0.3);
    if (kind >= 0.3) {
        // Sparse and ring-shaped movers: gaps inside a column are where a lowest-pixel shortcut would go wrong.
        for (let y = 0; y < h; y++)
            for (let x = 0; x < w; x++)
                if (kind < 0.6 ? rnd() < 0.3 : x === 0 || y === 0 || x === w - 1 || y === h - 1) m.set(x, y);
    }
    return m;
}

function layers(terrain: Mask, tile: number): CollisionLayer[] {
    return [
        tileMapOf(terrain, tile),
        new CollisionRaster(terrain.width, terrain.height).stamp(terrain, 0, 0).view(),
        maskLayer(terrain)
    ];
}

testKernels(
    'random terrains, movers and moves on a TileMap, a raster view and a custom layer equal the per-pixel rules',
    () => {
        for (let seed = 1; seed <= Number(process.env.HITMASK_MOVE_SEEDS ?? 12); seed++) {
            const rnd = mulberry32(seed * 7919);
            const terrain = randomTerrain(rnd, 300, 220),
                platforms = new Mask(300, 220);
            for (let k = 0; k < 10; k++) {
                const y = Math.floor(rnd() * 200),
                    x0 = Math.floor(rnd() * 280),
                    len = 10 + Math.floor(rnd() * 60),
                    thick = 1 + Math.floor(rnd() * 3);
                for (let x = x0; x < Math.min(300, x0 + len); x++)
                    for (let t = 0; t < thick; t++) platforms.set(x, Math.min(219, y + t));
            }
            const solids = layers(terrain, [8, 16, 32][seed % 3]),
                oneWays = layers(platforms, 16);
            for (let k = 0; k < 60; k++) {
                const me = randomMover(rnd);
                const x = rnd() * 340 - 20,
                    y = rnd() * 260 - 30;
                const long = rnd() < 0.4;
                const dx = (rnd() - 0.5) * (long ? 400 : 12),
                    dy = (rnd() - 0.5) * (long ? 600 : 16);
                const options: MoveOptions = { stepUp: Math.floor(rnd() * 4), snapDown: Math.floor(rnd() * 6) };
                if (rnd() < 0.5) options.oneWay = oneWays[k % 3];
                const solid = solids[k % 3];
                const want = referenceMove(solid, me, x, y, dx, dy, options),
                    got = moveAndSlide(solid, me, x, y, dx, dy, options);
                assert.deepEqual(
                    got,
                    want,
                    `seed ${seed} move ${k}: ${me.width}x${me.height} at (${x}, ${y}) by (${dx}, ${dy}) ${JSON.stringify({ ...options, oneWay: !!options.oneWay })}`
                );
            }
        }
    }
);

testKernels('walkers: many small moves in a row stay equal to the per-pixel rules', () => {
    const rnd = mulberry32(99);
    const terrain = randomTerrain(rnd, 400, 200),
        [solid] = layers(terrain, 16);
    const me = randomMover(rnd),
        options = { stepUp: 2, snapDown: 3 };
    let a: MoveResult = { x: 5, y: 0, onFloor: false, onCeiling: false, onWall: false, floor: null },
        b = { ...a };
    let vy = 0,
        dir = 1;
    for (let f = 0; f < 2000; f++) {
        vy = a.onFloor ? (rnd() < 0.02 ? -6 : 0) : Math.min(vy + 0.4, 12);
        if (a.onWall || a.x < 0 || a.x > 390) dir = -dir;
        const dx = dir * (0.5 + rnd() * 2);
        a = moveAndSlide(solid, me, a.x, a.y, dx, vy, options);
        b = referenceMove(solid, me, b.x, b.y, dx, vy, options);
        assert.deepEqual(a, b, `frame ${f}`);
        if (a.onCeiling && vy < 0) vy = 0;
    }
});

test('bad input: a clear RangeError or TypeError naming the value', () => {
    const layer = maskLayer(new Mask(10, 10)),
        me = box(2, 2);
    assert.throws(
        () => moveAndSlide(layer, me, NaN, 0, 0, 0),
        /^RangeError: x must be a finite number within ±2\^50, got NaN/
    );
    assert.throws(
        () => moveAndSlide(layer, me, 0, -(2 ** 51), 0, 1),
        /^RangeError: y must be a finite number within ±2\^50, got -2251799813685248/
    );
    assert.throws(
        () => moveAndSlide(layer, me, 0, 0, Infinity, 0),
        /^RangeError: dx must be a finite number, got Infinity/
    );
    assert.throws(
        () => moveAndSlide(layer, me, 0, 0, 0, '3' as unknown as number),
        /^RangeError: dy must be a finite number, got "3"/
    );
    assert.throws(
        () => moveAndSlide(layer, me, 0, 0, 0, 0, { stepUp: -1 }),
        /^RangeError: stepUp must be an integer in 0\.\.1048576 \(pixels\), got -1/
    );
    assert.throws(
        () => moveAndSlide(layer, me, 0, 0, 0, 0, { snapDown: 1.5 }),
        /^RangeError: snapDown must be an integer/
    );
    assert.throws(
        () => moveAndSlide({} as CollisionLayer, me, 0, 0, 0, 0),
        /^TypeError: solid must be a CollisionLayer \(an object with overlaps\), got Object/
    );
    assert.throws(
        () => moveAndSlide(layer, me, 0, 0, 0, 0, { oneWay: 5 as unknown as CollisionLayer }),
        /^TypeError: oneWay must be a CollisionLayer/
    );
    assert.throws(() => moveAndSlide(layer, {} as Mask, 0, 0, 0, 0), /^TypeError: mask must be a Mask, got Object/);
    assert.throws(
        () => moveAndSlide(layer, me, 0, 0, 0, 0, 'fast' as unknown as MoveOptions),
        /^TypeError: options must be an object, got "fast"/
    );
    assert.throws(
        () => moveAndSlide(layer, me, 0, 0, 2 ** 21, 0),
        /^RangeError: moveAndSlide\(\): a move of \(2097152, 0\) is more than the 1048576 pixel steps allowed on an axis; move in shorter segments/
    );
    const gone = box(2, 2);
    gone.dispose();
    assert.throws(() => moveAndSlide(layer, gone, 0, 0, 0, 0), /mask .* was disposed/);
    // A layer that throws: the error reaches the caller, and the next call works.
    const bad: CollisionLayer = {
        ...layer,
        overlaps: () => {
            throw new Error('layer failed');
        }
    };
    assert.throws(() => moveAndSlide(bad, me, 0, 0, 100, 0), /layer failed/);
    assert.equal(moveAndSlide(layer, me, 0, 0, 100, 0).x, 100);
});

test('a 0.3 layer (test instead of overlaps) still moves the same, warning once; floor is the object given', () => {
    const rnd = mulberry32(36);
    const terrain = new Mask(96, 64);
    for (let x = 0; x < 96; x++) for (let y = 40 + Math.floor(rnd() * 6); y < 64; y++) terrain.set(x, y);
    const ledges = new Mask(96, 64);
    for (let x = 20; x < 50; x++) ledges.set(x, 30);
    const now = maskLayer(terrain),
        oneWay = maskLayer(ledges);
    const old = { test: (m: Mask, x: number, y: number) => terrain.overlaps(m, x, y) },
        oldWay = { test: (m: Mask, x: number, y: number) => ledges.overlaps(m, x, y) };
    const me = box(6, 8);
    for (let i = 0; i < 50; i++) {
        const x = rnd() * 80,
            y = rnd() * 30,
            dx = rnd() * 60 - 30,
            dy = rnd() * 60 - 20,
            options = { stepUp: 2, snapDown: 3 };
        const want = moveAndSlide(now, me, x, y, dx, dy, { ...options, oneWay });
        const got = warnsOnce('CollisionLayer.test', 'CollisionLayer.overlaps', () =>
            moveAndSlide(old as never, me, x, y, dx, dy, { ...options, oneWay: oldWay as never })
        );
        assert.deepEqual(pick(got), pick(want));
        assert.equal(got.floor, want.floor === now ? old : want.floor === oneWay ? oldWay : null);
    }
    assert.throws(() => moveAndSlide({ tset: () => true } as never, me, 0, 0, 1, 0), /solid must be a CollisionLayer/);
});
