// @test fast
// Sprite placement (src/engines/sprite.ts) against a naive per-pixel reference: each world pixel centre, moved by
// the documented rounding of the mask's offset, is mapped back through the inverse pose into the frame.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mask } from '../src/index.js';
import { TransformCache } from '../src/index.js';
import { overlaps, placeSprite, poseBounds, spritesOverlap, type SpritePose } from '../src/phaser.js';
import * as pixi from '../src/pixi.js';
import { deprecationsWarned } from '../src/base/deprecate.js';
import { mulberry32 } from './reference.js';
import { boundingRect, flipX, rotate90 } from '../src/index.js';

const STEPS = 256;

function blobMask(rnd: () => number, w: number, h: number): Mask {
    const m = new Mask(w, h);
    // A filled ellipse with random holes: solid areas make edges, holes make interior detail.
    for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
            const u = (x + 0.5) / w - 0.5,
                v = (y + 0.5) / h - 0.5;
            if (u * u + v * v < 0.25 && rnd() < 0.85) m.set(x, y);
        }
    if (rnd() < 0.3) m.set(0, 0);
    return m;
}

function randomPose(rnd: () => number, w: number, h: number): SpritePose {
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const scale = (): number => pick([1, -1, 1, rnd() * 3 + 0.25, -(rnd() * 3 + 0.25), 2, 0.5]);
    const angle = pick([0, Math.PI / 2, Math.PI, -Math.PI / 2, (rnd() - 0.5) * 14, (rnd() - 0.5) * 14]);
    const origin = (n: number): number => pick([0, n / 2, n, Math.floor(rnd() * n), rnd() * n, (rnd() - 0.5) * 3 * n]);
    const at = (): number => pick([Math.floor(rnd() * 200) - 100, rnd() * 200 - 100, Math.floor(rnd() * 200) - 99.5]);
    return {
        x: at(),
        y: at(),
        originX: origin(w),
        originY: origin(h),
        scaleX: scale(),
        scaleY: scale(),
        angle,
        flipX: rnd() < 0.5,
        flipY: rnd() < 0.5
    };
}

interface Sample {
    set: boolean;
    tie: boolean;
}

/** The reference: every world pixel the pose may touch, sampled at its centre through the inverse pose. */
function reference(
    mask: Mask,
    p: SpritePose
): { x0: number; y0: number; w: number; h: number; at: (x: number, y: number) => Sample } {
    const a = (Math.round((p.angle / (2 * Math.PI)) * STEPS) * 2 * Math.PI) / STEPS;
    const snap = (v: number): number =>
        Math.abs(v) < 1e-12 ? 0 : Math.abs(Math.abs(v) - 1) < 1e-12 ? Math.sign(v) : v;
    const cos = snap(Math.cos(a)),
        sin = snap(Math.sin(a));
    const w = mask.width,
        h = mask.height;
    // Where the mask centre is drawn, minus the centre: the offset whose rounding is the one documented error.
    const lcx = p.scaleX * (w / 2 - p.originX),
        lcy = p.scaleY * (h / 2 - p.originY);
    const tx = p.x + cos * lcx - sin * lcy - w / 2,
        ty = p.y + sin * lcx + cos * lcy - h / 2;
    const dx = tx - Math.floor(tx + 0.5),
        dy = ty - Math.floor(ty + 0.5);
    const corners = [
        [0, 0],
        [w, 0],
        [0, h],
        [w, h]
    ].map(([u, v]) => {
        const lx = p.scaleX * (u - p.originX),
            ly = p.scaleY * (v - p.originY);
        return [p.x + cos * lx - sin * ly, p.y + sin * lx + cos * ly];
    });
    const x0 = Math.floor(Math.min(...corners.map(c => c[0]))) - 2,
        y0 = Math.floor(Math.min(...corners.map(c => c[1]))) - 2;
    const x1 = Math.ceil(Math.max(...corners.map(c => c[0]))) + 2,
        y1 = Math.ceil(Math.max(...corners.map(c => c[1]))) + 2;
    const at = (X: number, Y: number): Sample => {
        if (p.scaleX === 0 || p.scaleY === 0) return { set: false, tie: false };
        const qx = X + 0.5 + dx - p.x,
            qy = Y + 0.5 + dy - p.y;
        // Inverse rotation, inverse signed scale, add the origin: a point of the drawn (flipped) box.
        const bx = (cos * qx + sin * qy) / p.scaleX + p.originX,
            by = (-sin * qx + cos * qy) / p.scaleY + p.originY;
        // Undo the in-box flip.
        const u = p.flipX ? w - bx : bx,
            v = p.flipY ? h - by : by;
        const set = mask.get(Math.floor(u), Math.floor(v));
        // A centre within float noise of a frame pixel edge, where the pixels either side differ: both answers are right.
        const e = 1e-6,
            tie = [
                [e, 0],
                [-e, 0],
                [0, e],
                [0, -e],
                [e, e],
                [e, -e],
                [-e, e],
                [-e, -e]
            ].some(([du, dv]) => mask.get(Math.floor(u + du), Math.floor(v + dv)) !== set);
        return { set, tie };
    };
    return { x0, y0, w: x1 - x0, h: y1 - y0, at };
}

test('placeSprite: 600 seeded poses (rotated, scaled, mirrored, flipped, origin-shifted) equal the naive inverse-pose reference', () => {
    const rnd = mulberry32(16),
        cache = new TransformCache(STEPS);
    let pixels = 0,
        ties = 0,
        tieDiffs = 0,
        setPixels = 0;
    for (let k = 0; k < 600; k++) {
        const m = blobMask(rnd, 1 + Math.floor(rnd() * 40), 1 + Math.floor(rnd() * 40));
        const pose = randomPose(rnd, m.width, m.height);
        const placed = placeSprite(m, pose, cache);
        const ref = reference(m, pose);
        const b = boundingRect(placed.mask);
        if (b) {
            // Nothing outside the reference's window.
            assert.ok(
                placed.x + b.x >= ref.x0 &&
                    placed.y + b.y >= ref.y0 &&
                    placed.x + b.x + b.width <= ref.x0 + ref.w &&
                    placed.y + b.y + b.height <= ref.y0 + ref.h,
                `pose ${k} ${JSON.stringify(pose)}: placed mask inside the reference window`
            );
        }
        for (let Y = ref.y0; Y < ref.y0 + ref.h; Y++)
            for (let X = ref.x0; X < ref.x0 + ref.w; X++) {
                const s = ref.at(X, Y),
                    got = placed.mask.get(X - placed.x, Y - placed.y);
                pixels++;
                if (s.tie) {
                    ties++;
                    if (got !== s.set) tieDiffs++;
                    continue;
                }
                if (s.set) setPixels++;
                if (got !== s.set)
                    assert.fail(
                        `pose ${k} ${JSON.stringify(pose)} (mask ${m.width}x${m.height}): world pixel (${X}, ${Y}) is ${got}, reference ${s.set}`
                    );
            }
    }
    // Ties (a centre mapping onto a frame pixel edge, either answer right) are rare.
    // Ties (a centre mapping exactly onto an edge between differing frame pixels, where either answer is
    // right) come from whole and half-pixel poses and scales such as 0.5; they stay a small share.
    assert.ok(ties < pixels / 20, `${ties} ties (${tieDiffs} answered the other way) of ${pixels} pixels`);
    assert.ok(setPixels > 100_000, `${setPixels} set pixels compared`);
});

test('placeSprite: integer poses of whole-pixel origins are exactly the frame moved, quarter-turned or flipped', () => {
    const rnd = mulberry32(7);
    for (let k = 0; k < 50; k++) {
        const m = blobMask(rnd, 1 + Math.floor(rnd() * 30), 1 + Math.floor(rnd() * 30));
        const ox = Math.floor(rnd() * m.width),
            oy = Math.floor(rnd() * m.height);
        const base = { x: 10, y: -3, originX: ox, originY: oy, scaleX: 1, scaleY: 1, angle: 0 };
        assert.deepEqual(placeSprite(m, base), { mask: m, x: 10 - ox, y: -3 - oy });
        // Phaser's flipX keeps the box where it was and mirrors the picture in it.
        const fx = placeSprite(m, { ...base, flipX: true });
        assert.ok(fx.mask.equals(flipX(m)));
        assert.deepEqual([fx.x, fx.y], [10 - ox, -3 - oy]);
        // A negative scale mirrors about the origin: the box moves to the other side of it.
        const nx = placeSprite(m, { ...base, scaleX: -1 });
        assert.ok(nx.mask.equals(flipX(m)));
        assert.deepEqual([nx.x, nx.y], [10 + ox - m.width, -3 - oy]);
        // A quarter turn clockwise about the origin: frame pixel (u, v) lands at (x − (v − oy) − 1, y + (u − ox)).
        const q = placeSprite(m, { ...base, angle: Math.PI / 2 });
        assert.ok(q.mask.equals(rotate90(m, 1)));
        assert.deepEqual([q.x, q.y], [10 - (m.height - oy), -3 - ox]);
    }
});

test('overlaps of two posed masks equals the overlap of the two reference pixel sets (both adapters); far boxes never rasterise', () => {
    const rnd = mulberry32(99),
        cache = new TransformCache(STEPS);
    let hits = 0;
    for (let k = 0; k < 300; k++) {
        const a = blobMask(rnd, 1 + Math.floor(rnd() * 30), 1 + Math.floor(rnd() * 30));
        const b = blobMask(rnd, 1 + Math.floor(rnd() * 30), 1 + Math.floor(rnd() * 30));
        const pa = randomPose(rnd, a.width, a.height),
            pb = randomPose(rnd, b.width, b.height);
        pb.x = pa.x + (rnd() - 0.5) * 60;
        pb.y = pa.y + (rnd() - 0.5) * 60;
        const got = overlaps({ mask: a, pose: pa }, { mask: b, pose: pb }, { cache });
        assert.equal(pixi.overlaps({ mask: a, pose: pa }, { mask: b, pose: pb }, { cache }), got, `pair ${k}: PixiJS`);
        const A = placeSprite(a, pa, cache),
            B = placeSprite(b, pb, cache);
        // Independent of Mask.overlaps: a pixel set in both placed masks.
        let want = false;
        for (let y = 0; y < A.mask.height && !want; y++)
            for (let x = 0; x < A.mask.width; x++) {
                if (A.mask.get(x, y) && B.mask.get(A.x + x - B.x, A.y + y - B.y)) {
                    want = true;
                    break;
                }
            }
        assert.equal(got, want, `pair ${k}`);
        if (got) hits++;
    }
    assert.ok(hits > 30 && hits < 270, `a mix of hits and misses (${hits} of 300)`);
    // Far apart: decided by the box test, before any transform (a fresh cache stays empty).
    const fresh = new TransformCache(STEPS),
        m = new Mask(8, 8, true);
    const calls: string[] = [];
    const spy = Object.assign(fresh, {
        get: (...args: Parameters<TransformCache['get']>) => (
            calls.push('get'),
            TransformCache.prototype.get.apply(fresh, args)
        )
    });
    const at = (x: number) => ({
        mask: m,
        pose: { x, y: 0, originX: 4, originY: 4, scaleX: 2, scaleY: 2, angle: 1 }
    });
    assert.equal(overlaps(at(0), at(40), { cache: spy }), false);
    assert.deepEqual(calls, []);
    assert.equal(overlaps(at(0), at(10), { cache: spy }), true);
    assert.deepEqual(calls, ['get', 'get']);
});

test('poseBounds holds every placed pixel within 1 px; zero scale is empty; bad poses throw', () => {
    const rnd = mulberry32(5);
    for (let k = 0; k < 200; k++) {
        const m = blobMask(rnd, 1 + Math.floor(rnd() * 30), 1 + Math.floor(rnd() * 30));
        const pose = randomPose(rnd, m.width, m.height);
        const bb = poseBounds(m, pose),
            p = placeSprite(m, pose),
            r = boundingRect(p.mask);
        if (!r) continue;
        assert.ok(
            p.x + r.x >= bb.minX - 1 &&
                p.y + r.y >= bb.minY - 1 &&
                p.x + r.x + r.width <= bb.maxX + 1 &&
                p.y + r.y + r.height <= bb.maxY + 1,
            `pose ${k}: ${JSON.stringify(bb)} vs ${JSON.stringify(r)} at ${p.x},${p.y}`
        );
    }
    const m = new Mask(4, 4, true),
        ok: SpritePose = { x: 0, y: 0, originX: 0, originY: 0, scaleX: 1, scaleY: 1, angle: 0 };
    assert.equal(placeSprite(m, { ...ok, scaleX: 0 }).mask.count(), 0);
    assert.throws(
        () => placeSprite(m, { ...ok, angle: NaN }),
        /RangeError: pose\.angle must be a finite number, got NaN/
    );
    assert.throws(() => placeSprite(m, { ...ok, x: Infinity }), RangeError);
    assert.throws(() => placeSprite(m, null as unknown as SpritePose), TypeError);
    assert.throws(() => placeSprite({} as Mask, ok), /TypeError: mask must be a Mask/);
    assert.throws(() => placeSprite(m, ok, {} as TransformCache), /cache must be a TransformCache/);
});

test('a disposed mask is the Error every Mask function gives, whichever placement function gets it', () => {
    const m = new Mask(4, 4, true),
        ok: SpritePose = { x: 0, y: 0, originX: 0, originY: 0, scaleX: 1, scaleY: 1, angle: 0 };
    m.dispose();
    for (const f of [
        () => placeSprite(m, ok),
        () => poseBounds(m, ok),
        () => overlaps({ mask: m, pose: ok }, { mask: new Mask(2, 2, true), pose: ok }),
        () => pixi.hitmaskFor({ mask: m, pose: ok })
    ]) {
        assert.throws(
            f,
            (e: unknown) =>
                e instanceof Error &&
                !(e instanceof TypeError) &&
                /^mask \(.*\) was disposed; create a new Mask/.test(e.message)
        );
    }
});

test('spritesOverlap (deprecated since 0.4.0) answers as overlaps of the posed masks and warns once', () => {
    const a = new Mask(4, 4, true),
        pose: SpritePose = { x: 0, y: 0, originX: 2, originY: 2, scaleX: 1, scaleY: 1, angle: 0.5 };
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    try {
        for (const dx of [3, 5, 9]) {
            const far = { ...pose, x: dx };
            assert.equal(spritesOverlap(a, pose, a, far), overlaps({ mask: a, pose }, { mask: a, pose: far }));
        }
        assert.equal(pixi.spritesOverlap, spritesOverlap, 'one alias, exported by both adapters');
    } finally {
        console.warn = warn;
    }
    assert.deepEqual(warnings, [
        'hitmask: spritesOverlap(a, poseA, b, poseB, cache) is deprecated and will be removed in 0.5.0; ' +
            'use overlaps({ mask: a, pose: poseA }, { mask: b, pose: poseB }, { cache }) instead.'
    ]);
    assert.ok(deprecationsWarned().includes('spritesOverlap(a, poseA, b, poseB, cache)'));
});
