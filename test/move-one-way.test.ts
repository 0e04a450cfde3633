// @test fast no-shared
// One-way platforms that are not flat (docs/movement.md, the rules): a mover that stood on ground climbs one-way
// bumps with stepUp as it climbs solid ones, never stopped by them; dropThrough leaves them out of one move.
// Generated bumpy platforms like Pingus' platform.png (1–2 px bumps), checked against the per-pixel reference
// (test/move-reference.ts) on every kind of layer; Pingus' own platform.png where Debian's pingus-data is installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
    CollisionRaster,
    Mask,
    moveAndSlide,
    type CollisionLayer,
    type MoveOptions,
    type MoveResult
} from '../src/index.js';
import { decodeImage } from '../src/node.js';
import { referenceMove } from './move-reference.js';
import { mulberry32, testKernels } from './reference.js';
import { tileMapOf } from './tiles.js';

// A layer of one mask placed at (0, 0).
function maskLayer(m: Mask): CollisionLayer {
    return {
        overlaps: (o, x, y) => m.overlaps(o, x, y),
        overlapArea: (o, x, y) => m.overlapArea(o, x, y),
        overlap: (o, x, y) => m.overlap(o, x, y),
        hitTest: (x, y) => m.get(x, y)
    };
}

const kinds = (m: Mask): CollisionLayer[] => [
    maskLayer(m),
    tileMapOf(m, 16),
    new CollisionRaster(m.width, m.height).stamp(m, 0, 0).view()
];

// A one-way platform from x0 to x1 whose top is `top` raised by 0..bump px, changing every 2..6 px (Pingus'
// platform.png has 1–2 px bumps), `thick` px below its top; drawn into `m`.
function bumpy(rnd: () => number, m: Mask, x0: number, x1: number, top: number, bump: number, thick: number): void {
    let h = 0,
        run = 0;
    for (let x = x0; x < Math.min(x1, m.width); x++) {
        if (run-- <= 0) {
            h = Math.floor(rnd() * (bump + 1));
            run = 2 + Math.floor(rnd() * 5);
        }
        for (let y = top - h; y < top + thick; y++) m.set(x, y);
    }
}

// The scene: a bumpy one-way platform (top near y = 60, 2 px bumps) over a solid floor at y = 110.
function scene(seed: number): { solid: Mask; oneWay: Mask } {
    const solid = new Mask(320, 120),
        oneWay = new Mask(320, 120);
    for (let x = 0; x < 320; x++) for (let y = 110; y < 120; y++) solid.set(x, y);
    bumpy(mulberry32(seed), oneWay, 20, 300, 60, 2, 6);
    return { solid, oneWay };
}

const me = new Mask(6, 10, true);

// Walks `me` along the platform from its left end to its right end and back at `speed` px a frame, with
// gravity, each move checked against the rules; returns the frames, the climbs, and the frames in the air.
function walk(
    solid: CollisionLayer,
    oneWay: CollisionLayer,
    speed: number,
    stepUp: number
): { frames: number; climbs: number; air: number; x: number; inside: number } {
    const options: MoveOptions = { stepUp, snapDown: 2, oneWay };
    let r: MoveResult = moveAndSlide(solid, me, 24, 20, 0, 60, options);
    assert.ok(r.onFloor && r.floor === oneWay, 'landed on the platform');
    let frames = 0,
        climbs = 0,
        air = 0,
        inside = 0,
        dir = 1;
    while (frames < 1200 && !(dir < 0 && r.x <= 24)) {
        if (dir > 0 && r.x >= 290) dir = -1;
        const dx = dir * speed,
            dy: number = r.onFloor ? 1 : 2;
        const want = referenceMove(solid, me, r.x, r.y, dx, dy, options),
            got = moveAndSlide(solid, me, r.x, r.y, dx, dy, options);
        assert.deepEqual(got, want, `frame ${frames} at (${r.x}, ${r.y}) by (${dx}, ${dy})`);
        if (got.y < r.y) climbs++;
        if (!got.onFloor) air++;
        if (oneWay.overlaps(me, Math.floor(got.x), Math.floor(got.y))) inside++;
        assert.ok(!got.onWall, 'a one-way platform never stops a move sideways');
        r = got;
        frames++;
    }
    return { frames, climbs, air, x: r.x, inside };
}

testKernels('a walker follows a bumpy one-way platform with stepUp, as on solid, at any speed', () => {
    for (let seed = 1; seed <= 6; seed++) {
        const s = scene(seed);
        const [solid] = kinds(s.solid),
            oneWays = kinds(s.oneWay);
        for (const speed of [1, 2.5, 7]) {
            const oneWay = oneWays[((seed + speed) % 3) | 0];
            const w = walk(solid, oneWay, speed, 2);
            assert.ok(w.x <= 24, `seed ${seed}, speed ${speed}: walked there and back (${w.frames} frames, at ${w.x})`);
            assert.equal(w.inside, 0, `seed ${seed}, speed ${speed}: never inside the platform`);
            assert.ok(w.climbs >= 10, `seed ${seed}, speed ${speed}: ${w.climbs} climbs`);
            if (speed <= 2.5) assert.equal(w.air, 0, `seed ${seed}, speed ${speed}: always on the platform`);
        }
    }
});

test('one-way bumps still never block: stepUp 0 walks into them, a body from below or in the air passes', () => {
    const s = scene(3),
        solid = maskLayer(s.solid),
        oneWay = maskLayer(s.oneWay);
    // The platform's top at x = 40..45 and the row a 6-px wide mover stands on there.
    const standY = (x: number) => {
        let y = 0;
        while (!oneWay.overlaps(me, x, y + 1)) y++;
        return y;
    };
    // stepUp 0: the first bump is walked into (not a wall), and the mover, inside, falls through to the floor.
    let x = 24,
        y = standY(24);
    let r = moveAndSlide(solid, me, x, y, 0, 0, { oneWay });
    assert.ok(r.onFloor);
    for (let f = 0; f < 40 && !oneWay.overlaps(me, Math.floor(r.x), Math.floor(r.y)); f++) {
        r = moveAndSlide(solid, me, r.x, r.y, 1, 0, { oneWay, snapDown: 2 });
        assert.equal(r.onWall, false);
    }
    assert.ok(oneWay.overlaps(me, Math.floor(r.x), Math.floor(r.y)), 'walked into a bump');
    r = moveAndSlide(solid, me, r.x, r.y, 0, 200, { oneWay });
    assert.deepEqual([r.y, r.onFloor, r.floor], [100, true, solid], 'fell through onto the solid floor');
    // Jumping up from the floor and sideways through the platform, stepUp 3: passes (not lifted onto it).
    r = moveAndSlide(solid, me, 40, 100, 0, 0, { oneWay, stepUp: 3 });
    assert.ok(r.onFloor);
    for (let f = 0; f < 14; f++) r = moveAndSlide(solid, me, r.x, r.y, 1, -5, { oneWay, stepUp: 3 });
    assert.ok(r.y < 40 && !oneWay.overlaps(me, Math.floor(r.x), Math.floor(r.y)), `up through it, at y = ${r.y}`);
    // Falling beside the platform's end with the feet 1 px below its top and moving into it: in the air, so
    // not lifted onto it; it is entered and fallen through.
    x = 300;
    y = standY(295) + 1;
    r = moveAndSlide(solid, me, x, y, -4, 0, { oneWay, stepUp: 3 });
    assert.deepEqual([r.x, r.y], [296, y], 'in the air: walked into, not climbed');
    assert.deepEqual(r, referenceMove(solid, me, x, y, -4, 0, { oneWay, stepUp: 3 }));
});

test('dropThrough: standing on a one-way platform, one move leaves it out; the mover then falls through', () => {
    const s = scene(5),
        solid = maskLayer(s.solid),
        oneWay = maskLayer(s.oneWay),
        options: MoveOptions = { oneWay, stepUp: 2, snapDown: 2 };
    let r = moveAndSlide(solid, me, 100, 20, 0, 60, options);
    assert.ok(r.onFloor && r.floor === oneWay);
    const top = r.y;
    // Without dropThrough, gravity keeps it there.
    assert.equal(moveAndSlide(solid, me, r.x, r.y, 0, 3, options).y, top);
    r = moveAndSlide(solid, me, r.x, r.y, 0, 3, { ...options, dropThrough: true });
    assert.deepEqual([r.y, r.onFloor, r.floor], [top + 3, false, null], 'dropped into the platform');
    assert.deepEqual(r, referenceMove(solid, me, 100, top, 0, 3, { ...options, dropThrough: true }));
    // The next moves start inside it: not held, down to the solid floor.
    for (let f = 0; f < 30 && !r.onFloor; f++) r = moveAndSlide(solid, me, r.x, r.y, 0, 3, options);
    assert.deepEqual([r.y, r.floor], [100, solid]);
    // On solid, dropThrough changes nothing; false is the default; anything else is refused.
    assert.deepEqual(moveAndSlide(solid, me, 100, 100, 0, 3, { ...options, dropThrough: true }), r);
    assert.deepEqual(moveAndSlide(solid, me, 100, top, 0, 3, { ...options, dropThrough: false }).y, top);
    assert.throws(
        () => moveAndSlide(solid, me, 0, 0, 0, 0, { dropThrough: 1 as never }),
        /^TypeError: dropThrough must be a boolean, got 1/
    );
});

testKernels('walkers on random bumpy one-way platforms, pressing down now and then, equal the per-pixel rules', () => {
    let climbs = 0,
        drops = 0;
    for (let seed = 1; seed <= 8; seed++) {
        const rnd = mulberry32(seed * 131);
        const terrain = new Mask(300, 160),
            platforms = new Mask(300, 160);
        let ground = 140;
        for (let x = 0; x < 300; x++) {
            ground = Math.max(120, Math.min(155, ground + Math.floor(rnd() * 5) - 2));
            for (let y = ground; y < 160; y++) terrain.set(x, y);
        }
        for (let k = 0; k < 10; k++) {
            const x0 = Math.floor(rnd() * 250);
            bumpy(rnd, platforms, x0, x0 + 40 + Math.floor(rnd() * 100), 20 + Math.floor(rnd() * 90), 3, 1 + (k % 5));
        }
        const solid = kinds(terrain)[seed % 3],
            oneWay = kinds(platforms)[(seed + 1) % 3];
        const mover = new Mask(2 + Math.floor(rnd() * 8), 2 + Math.floor(rnd() * 12), rnd() < 0.7);
        if (mover.count() === 0) mover.set(0, mover.height - 1);
        const stepUp = seed % 4,
            base: MoveOptions = { oneWay, stepUp, snapDown: 1 + (seed % 3) };
        let r: MoveResult = { x: 5 + rnd() * 250, y: 0, onFloor: false, onCeiling: false, onWall: false, floor: null },
            vy = 0,
            dir = 1;
        for (let f = 0; f < 500; f++) {
            vy = r.onFloor ? (rnd() < 0.03 ? -7 : 0) : Math.min(vy + 0.5, 9);
            if (r.onWall || r.x < 2 || r.x > 290) dir = -dir;
            const dx = dir * (0.5 + rnd() * 3),
                options = r.onFloor && r.floor === oneWay && rnd() < 0.1 ? { ...base, dropThrough: true } : base;
            if (options !== base) drops++;
            const want = referenceMove(solid, mover, r.x, r.y, dx, Math.max(vy, 1), options),
                got = moveAndSlide(solid, mover, r.x, r.y, dx, Math.max(vy, 1), options);
            assert.deepEqual(got, want, `seed ${seed} frame ${f}: at (${r.x}, ${r.y}) by (${dx}, ${vy})`);
            if (got.y < r.y && r.floor === oneWay && vy >= 0) climbs++;
            if (got.onCeiling && vy < 0) vy = 0;
            r = got;
        }
    }
    assert.ok(climbs >= 8 && drops >= 5, `${climbs} climbs on one-way platforms, ${drops} drops`);
});

// Pingus' platform.png (Debian's pingus-data), where installed: walked along with stepUp 2 it never lets a walker in.
const PINGUS = '/usr/share/games/pingus';
function findPlatform(dir: string, depth = 0): string | null {
    if (depth > 8 || !existsSync(dir)) return null;
    for (const name of readdirSync(dir).sort()) {
        const p = join(dir, name);
        if (name === 'platform.png') return p;
        if (statSync(p).isDirectory()) {
            const found = findPlatform(p, depth + 1);
            if (found !== null) return found;
        }
    }
    return null;
}
const platformPng = findPlatform(PINGUS);

test(
    "Pingus' platform.png: walkers follow its bumps with stepUp 2 and never fall in",
    { skip: platformPng === null ? `no platform.png under ${PINGUS} (apt-get install pingus-data)` : false },
    () => {
        const img = decodeImage(readFileSync(platformPng as string));
        const tile = Mask.fromRGBA(img.data, img.width, img.height);
        const w = tile.width * 6,
            oneWayMask = new Mask(w, tile.height + 80);
        for (let k = 0; k < 6; k++) oneWayMask.draw(tile, k * tile.width, 60);
        const solid = maskLayer(new Mask(w, tile.height + 80)),
            oneWay = maskLayer(oneWayMask);
        let r = moveAndSlide(solid, me, 4, 0, 0, 200, { oneWay });
        assert.ok(r.onFloor, 'landed on it');
        for (let f = 0; f < w && r.x < w - 12; f++) {
            r = moveAndSlide(solid, me, r.x, r.y, 1.5, 1, { oneWay, stepUp: 2, snapDown: 2 });
            assert.ok(!oneWay.overlaps(me, Math.floor(r.x), Math.floor(r.y)), `inside the platform at x = ${r.x}`);
        }
        assert.ok(r.x >= w - 12 && r.onFloor, `walked across, at x = ${r.x}`);
    }
);
