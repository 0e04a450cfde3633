// @test fast no-shared
// Crowds of small moves (issue 43): moveAndSlide's lean path for moves of a few pixels, a box of positions
// tested at once and what a move's own tests tell, counted in layer tests against the per-pixel rules
// (test/move-reference.ts), and every such move equal to the rules on both kernel paths: in the air, on flat
// ground, on slopes and stairs, in tight caves, against one-way platforms, starting inside solid, with the
// mask edited between moves.
import assert from 'node:assert/strict';
import { CollisionRaster, Mask, moveAndSlide, type CollisionLayer, type MoveOptions } from '../src/index.js';
import { referenceMove } from './move-reference.js';
import { mulberry32, testKernels } from './reference.js';
import { tileMapOf } from './tiles.js';

// A layer's overlaps() counted: the work a move costs, whatever the machine's load.
function counted(layer: CollisionLayer): CollisionLayer & { tests: number } {
    return {
        tests: 0,
        overlaps(m, x, y) {
            this.tests++;
            return layer.overlaps(m, x, y);
        },
        overlap: (m, x, y) => layer.overlap(m, x, y),
        overlapArea: (m, x, y) => layer.overlapArea(m, x, y),
        hitTest: (x, y) => layer.hitTest(x, y)
    };
}

// A 600x300 terrain: a flat floor at y = 250 on the left, a 1-px-per-px slope up, 3-px stairs, a cave with a
// low ceiling, pillars, floating ledges.
function terrain(): Mask {
    const m = new Mask(600, 300);
    const fill = (x0: number, y0: number, x1: number, y1: number) => {
        for (let y = Math.max(0, y0); y < Math.min(300, y1); y++)
            for (let x = Math.max(0, x0); x < Math.min(600, x1); x++) m.set(x, y);
    };
    fill(0, 250, 200, 300);
    for (let x = 200; x < 280; x++) fill(x, 250 - (x - 200), x + 1, 300);
    for (let k = 0; k < 10; k++) fill(280 + k * 8, 170 - k * 3, 288 + k * 8, 300);
    fill(360, 200, 600, 300);
    fill(400, 150, 600, 170);
    for (let k = 0; k < 6; k++) fill(420 + k * 30, 170 + (k % 3) * 5, 424 + k * 30, 200);
    for (let k = 0; k < 8; k++) fill(20 + k * 70, 60 + (k % 4) * 30, 60 + k * 70, 63);
    return m;
}

// Walker shapes: a box, a round one with empty corners, a ring (gaps inside a column).
function shapes(): Mask[] {
    const round = new Mask(12, 16),
        ring = new Mask(10, 10);
    for (let y = 0; y < 16; y++)
        for (let x = 0; x < 12; x++) if ((x - 5.5) ** 2 / 36 + (y - 7.5) ** 2 / 64 <= 1) round.set(x, y);
    for (let y = 0; y < 10; y++)
        for (let x = 0; x < 10; x++) if (x === 0 || y === 0 || x === 9 || y === 9) ring.set(x, y);
    return [new Mask(6, 10, true), round, ring];
}

const same = (a: object, b: object, what: string) => assert.deepEqual(a, b, what);

testKernels('a small move in the air costs one layer test; the per-pixel rules make one per pixel and contact', () => {
    const ground = counted(new CollisionRaster(600, 300).stamp(terrain(), 0, 0).view());
    const me = shapes()[1],
        options = { stepUp: 3, snapDown: 3 };
    const rules = { tests: 0 };
    for (const [x, y, dx, dy] of [
        [30.5, 100, 2.5, 3],
        [100, 120.25, -3, 1.5],
        [150.75, 20, 0, 2.75],
        [50, 110, 1.5, -3]
    ]) {
        ground.tests = 0;
        const got = moveAndSlide(ground, me, x, y, dx, dy, options);
        assert.equal(ground.tests, 1, `(${x}, ${y}) by (${dx}, ${dy}): ${ground.tests} tests`);
        same(got, referenceMove(ground, me, x, y, dx, dy, options, rules), `(${x}, ${y}) by (${dx}, ${dy})`);
        assert.deepEqual([got.onFloor, got.onCeiling, got.onWall, got.floor], [false, false, false, null]);
    }
    ground.tests = 0;
    // The rules: the ground before, each pixel step, the floor and ceiling after (the snap is not tried in the air).
    assert.ok(rules.tests >= 4 * 5, `${rules.tests} tests by the rules`);
});

testKernels('walking on flat ground: 3 layer tests a move, where the rules make 6 to 8', () => {
    const ground = counted(new CollisionRaster(600, 300).stamp(terrain(), 0, 0).view());
    const me = shapes()[0],
        options = { stepUp: 3, snapDown: 3 };
    let x = 10,
        y = 240,
        fast = 0,
        rules = 0;
    for (let f = 0; f < 60; f++) {
        const dx = 0.5 + ((f * 7) % 5) * 0.5,
            dy = 0.5;
        const count = { tests: 0 };
        const want = referenceMove(ground, me, x, y, dx, dy, options, count);
        ground.tests = 0;
        const got = moveAndSlide(ground, me, x, y, dx, dy, options);
        same(got, want, `frame ${f}`);
        assert.ok(got.onFloor && !got.onWall, `frame ${f} walks on the floor`);
        assert.ok(ground.tests <= 3, `frame ${f}: ${ground.tests} tests`);
        fast += ground.tests;
        rules += count.tests;
        x = got.x;
        y = got.y;
    }
    assert.equal(x, 100, 'walked 90 px');
    assert.ok(fast <= rules * 0.5, `${fast} tests against the rules' ${rules}`);
});

testKernels('a crowd of small moves on a raster: under half the per-pixel rules’ layer tests, every move equal', () => {
    const t = terrain(),
        raster = new CollisionRaster(600, 300).stamp(t, 0, 0);
    const solid = counted(raster.view());
    const rnd = mulberry32(43),
        masks = shapes();
    let fast = 0,
        rules = 0,
        moves = 0,
        air = 0,
        floor = 0,
        walls = 0;
    const crowd = Array.from({ length: 40 }, (_, i) => ({
        mask: masks[i % masks.length],
        x: 10 + rnd() * 560,
        y: rnd() * 240,
        vy: 0,
        dir: rnd() < 0.5 ? -1 : 1,
        onFloor: false,
        onWall: false,
        options: { stepUp: i % 4, snapDown: (i >> 2) % 4 } as MoveOptions
    }));
    for (let f = 0; f < 150; f++) {
        for (const w of crowd) {
            w.vy = w.onFloor ? (rnd() < 0.02 ? -3 : 0.5) : Math.min(w.vy + 0.25, 3);
            if (w.onWall || w.x < 2 || w.x > 580) w.dir = -w.dir;
            const dx = w.dir * (0.5 + rnd() * 2.5);
            const count = { tests: 0 };
            const want = referenceMove(solid, w.mask, w.x, w.y, dx, w.vy, w.options, count);
            solid.tests = 0;
            const got = moveAndSlide(solid, w.mask, w.x, w.y, dx, w.vy, w.options);
            same(got, want, `frame ${f}: ${w.mask.width}x${w.mask.height} at (${w.x}, ${w.y}) by (${dx}, ${w.vy})`);
            fast += solid.tests;
            rules += count.tests;
            moves++;
            if (got.onFloor) floor++;
            else air++;
            if (got.onWall) walls++;
            w.x = got.x;
            w.y = got.y > 300 ? 0 : got.y;
            w.onFloor = got.onFloor;
            w.onWall = got.onWall;
        }
    }
    assert.ok(air > 500 && floor > 2000 && walls > 20, `${air} moves in the air, ${floor} on ground, ${walls} walls`);
    assert.ok(fast <= rules * 0.5, `${fast} layer tests in ${moves} moves, the rules ${rules}`);
});

testKernels('random small moves equal the rules: one-way platforms, starting inside solid, a mask edited', () => {
    const t = terrain(),
        platforms = new Mask(600, 300);
    for (let k = 0; k < 12; k++) for (let x = 30 + k * 45; x < 60 + k * 45; x++) platforms.set(x, 120 + (k % 5) * 20);
    const layers: [CollisionLayer, CollisionLayer][] = [
        [
            new CollisionRaster(600, 300).stamp(t, 0, 0).view(),
            new CollisionRaster(600, 300).stamp(platforms, 0, 0).view()
        ],
        [tileMapOf(t, 16), tileMapOf(platforms, 16)]
    ];
    const rnd = mulberry32(4343),
        masks = shapes();
    const edited = new Mask(8, 12, true);
    for (let k = 0; k < 4000; k++) {
        const [solid, oneWay] = layers[k % 2];
        const me = k % 7 === 0 ? edited : masks[k % masks.length];
        if (k % 50 === 0) edited.set(Math.floor(rnd() * 8), Math.floor(rnd() * 12), rnd() < 0.5);
        // Anywhere, inside solid too; moves of up to 4 px across and 9 down or up.
        const x = rnd() * 620 - 10,
            y = rnd() * 310 - 10,
            dx = (rnd() - 0.5) * 8,
            dy = (rnd() - 0.5) * 18;
        const options: MoveOptions = { stepUp: Math.floor(rnd() * 4), snapDown: Math.floor(rnd() * 5) };
        if (k % 3 === 0) options.oneWay = oneWay;
        if (k % 11 === 0) options.dropThrough = true;
        same(
            moveAndSlide(solid, me, x, y, dx, dy, options),
            referenceMove(solid, me, x, y, dx, dy, options),
            `move ${k}: ${me.width}x${me.height} at (${x}, ${y}) by (${dx}, ${dy}) ${JSON.stringify({ ...options, oneWay: !!options.oneWay })}`
        );
    }
});
