// @test fast no-shared
// Property tests: every Mask operation against the naive per-pixel reference on seeded random inputs.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
    angle,
    boundingRect,
    boundingRects,
    centroid,
    connectedComponent,
    connectedComponents,
    convolve,
    crop,
    flipX,
    flipY,
    Mask,
    outline,
    rotate90,
    scale,
    toRGBA,
    trim
} from '../src/index.js';
import { Ref, sameMask, mulberry32, testKernels as test } from './reference.js';

const SEED = 20261123;
const RUNS = { seed: SEED, numRuns: 300 };
const EDGE_WIDTHS = [0, 1, 2, 31, 32, 33, 63, 64, 65, 100];

const arbWidth = fc.oneof(fc.constantFrom(...EDGE_WIDTHS), fc.integer({ min: 0, max: 70 }));
const arbRef = fc
    .record({
        w: arbWidth,
        h: fc.integer({ min: 0, max: 10 }),
        density: fc.constantFrom(0, 0.03, 0.2, 0.5, 0.9, 1),
        seed: fc.integer()
    })
    .map(({ w, h, density, seed }) => Ref.random(w, h, density, seed));

// Offsets near every edge of the pair, plus far-away and fractional ones.
const arbPair = fc
    .tuple(arbRef, arbRef)
    .chain(([a, b]) =>
        fc.tuple(
            fc.constant(a),
            fc.constant(b),
            fc.oneof(
                fc.integer({ min: -b.w - 2, max: a.w + 2 }),
                fc.constantFrom(2 ** 31, -(2 ** 31), 2 ** 32, 2 ** 32 + 1, -(2 ** 32), 1e15)
            ),
            fc.oneof(fc.integer({ min: -b.h - 2, max: a.h + 2 }), fc.constantFrom(2 ** 31, 2 ** 32, -(2 ** 32) - 1))
        )
    );

test('overlap, overlaps, overlapArea, overlapMask match the reference', () => {
    fc.assert(
        fc.property(arbPair, ([a, b, dx, dy]) => {
            const ma = a.toMask(),
                mb = b.toMask();
            const expected = a.overlap(b, dx, dy);
            assert.deepEqual(ma.overlap(mb, dx, dy), expected);
            assert.equal(ma.overlaps(mb, dx, dy), expected !== null);
            assert.equal(ma.overlapArea(mb, dx, dy), a.overlapArea(b, dx, dy));
            assert.ok(sameMask(ma.overlapMask(mb, dx, dy), a.overlapMask(b, dx, dy)));
            // symmetry: b sees the same pixels from the other side
            assert.equal(mb.overlapArea(ma, -dx, -dy), a.overlapArea(b, dx, dy));
        }),
        { seed: SEED, numRuns: 1500 }
    );
});

test('overlapMask writes every word of a result in reused memory or a full out; a zeroed mask placed there after it is empty', () => {
    // Full masks disposed first leave set words where the next masks go (a small mask's slab restarts, a
    // larger one's block returns): the result must still be zero outside the overlap, and new Mask() empty.
    const arbTall = fc
        .record({
            w: fc.oneof(fc.constantFrom(1, 31, 32, 33, 64, 65, 96, 130), fc.integer({ min: 1, max: 140 })),
            h: fc.oneof(fc.constantFrom(1, 7, 8, 9, 16, 17, 33, 70), fc.integer({ min: 1, max: 90 })),
            density: fc.constantFrom(0.05, 0.5, 1),
            seed: fc.integer()
        })
        .map(({ w, h, density, seed }) => Ref.random(w, h, density, seed));
    const arb = fc
        .tuple(arbTall, arbTall)
        .chain(([a, b]) =>
            fc.tuple(
                fc.constant(a),
                fc.constant(b),
                fc.integer({ min: -b.w - 2, max: a.w + 2 }),
                fc.integer({ min: -b.h - 2, max: a.h + 2 })
            )
        );
    fc.assert(
        fc.property(arb, ([a, b, dx, dy]) => {
            const ma = a.toMask(),
                mb = b.toMask();
            for (let k = 0; k < 3; k++) new Mask(a.w, a.h, true).dispose();
            const got = ma.overlapMask(mb, dx, dy),
                want = a.overlapMask(b, dx, dy);
            assert.ok(sameMask(got, want));
            got.dispose();
            // Into a full `out`: on the JS kernels too, every word outside the overlap is cleared.
            const full = new Mask(a.w, a.h, true);
            assert.ok(sameMask(ma.overlapMask(mb, dx, dy, full), want));
            full.dispose();
            new Mask(a.w, a.h, true).dispose();
            const fresh = new Mask(a.w, a.h);
            assert.equal(fresh.count(), 0);
            fresh.dispose();
        }),
        { seed: SEED, numRuns: 400 }
    );
});

test('draw and erase match the reference and keep padding bits zero', () => {
    fc.assert(
        fc.property(arbPair, ([a, b, dx, dy]) => {
            assert.ok(sameMask(a.toMask().draw(b.toMask(), dx, dy), a.draw(b, dx, dy)));
            assert.ok(sameMask(a.toMask().erase(b.toMask(), dx, dy), a.draw(b, dx, dy, true)));
        }),
        RUNS
    );
});

test('every offset around full masks at word-boundary widths: only real intersections overlap', () => {
    const sizes = [1, 31, 32, 33, 63, 64, 65, 100];
    for (const aw of sizes) {
        for (const bw of sizes) {
            const a = new Mask(aw, 3, true),
                b = new Mask(bw, 2, true);
            for (let dy = -3; dy <= 4; dy++) {
                for (let dx = -bw - 1; dx <= aw + 1; dx++) {
                    const iw = Math.max(0, Math.min(aw, dx + bw) - Math.max(0, dx));
                    const ih = Math.max(0, Math.min(3, dy + 2) - Math.max(0, dy));
                    const area = iw * ih;
                    assert.equal(a.overlapArea(b, dx, dy), area, `area ${aw}/${bw} at ${dx},${dy}`);
                    assert.equal(a.overlaps(b, dx, dy), area > 0, `overlaps ${aw}/${bw} at ${dx},${dy}`);
                    const p = a.overlap(b, dx, dy);
                    assert.deepEqual(p, area > 0 ? { x: Math.max(0, dx), y: Math.max(0, dy) } : null);
                }
            }
        }
    }
});

test('every offset around random masks at word-boundary widths matches the reference', () => {
    const sizes = [1, 31, 33, 64, 65];
    let seed = 1;
    for (const aw of sizes) {
        for (const bw of sizes) {
            const a = Ref.random(aw, 4, 0.3, seed++),
                b = Ref.random(bw, 3, 0.3, seed++);
            const ma = a.toMask(),
                mb = b.toMask();
            for (let dy = -4; dy <= 5; dy++) {
                for (let dx = -bw - 1; dx <= aw + 1; dx++) {
                    assert.deepEqual(ma.overlap(mb, dx, dy), a.overlap(b, dx, dy), `${aw}/${bw} at ${dx},${dy}`);
                    assert.equal(ma.overlapArea(mb, dx, dy), a.overlapArea(b, dx, dy));
                }
            }
        }
    }
});

test('offsets are floored; far offsets (±2^31, ±2^32 and beyond) never wrap into a hit', () => {
    const a = new Mask(8, 8, true),
        b = new Mask(4, 4, true);
    assert.deepEqual(a.overlap(b, -0.5, 0), { x: 0, y: 0 });
    assert.equal(a.overlapArea(b, -0.5, -0.5), 9); // floor(-0.5) = -1: 3x3 of b inside a
    assert.equal(a.overlapArea(b, 7.9, 7.9), 1);
    assert.equal(a.overlapArea(b, -3.2, 0), 0); // floor(-3.2) = -4: b ends at x = 0, touching
    for (const far of [
        2 ** 31,
        2 ** 31 - 1,
        -(2 ** 31),
        2 ** 32,
        2 ** 32 + 1,
        -(2 ** 32),
        2 ** 53,
        -(2 ** 53),
        1e300
    ]) {
        assert.equal(a.overlaps(b, far, 0), false);
        assert.equal(a.overlaps(b, 0, far), false);
        assert.equal(a.overlap(b, far, far), null);
        assert.equal(a.overlapArea(b, far, 0), 0);
        assert.equal(a.clone().draw(b, far, 0).count(), 64);
        assert.equal(a.clone().erase(b, 0, far).count(), 64);
    }
});

test('zero-size masks overlap nothing and survive every operation', () => {
    const shapes: [number, number][] = [
        [0, 0],
        [0, 5],
        [5, 0],
        [40, 0],
        [0, 40]
    ];
    const full = new Mask(40, 40, true);
    for (const [w, h] of shapes) {
        const z = new Mask(w, h, true);
        assert.equal(z.count(), 0);
        assert.equal(z.overlaps(full, 0, 0), false);
        assert.equal(full.overlaps(z, 0, 0), false);
        assert.equal(full.overlapArea(z, 3, 3), 0);
        assert.equal(full.overlap(z, 0, 0), null);
        assert.equal(full.clone().draw(z, 0, 0).count(), 1600);
        assert.equal(boundingRect(z), null);
        assert.deepEqual(boundingRects(z), []);
        assert.equal(centroid(z), null);
        assert.equal(angle(z), 0);
        assert.deepEqual(outline(z), []);
        assert.deepEqual(connectedComponents(z), []);
        assert.equal(connectedComponent(z).count(), 0);
        assert.equal(z.invert().count(), 0);
        assert.deepEqual([flipX(z).width, flipY(z).height], [w, h]);
        assert.deepEqual([rotate90(z).width, rotate90(z).height], [h, w]);
        assert.equal(scale(z, 3, 3).count(), 0);
        assert.equal(trim(z).mask.width, 0);
        assert.equal(z.toText(), h === 0 ? '' : Array(h).fill('').join('\n'));
        const c = convolve(z, full);
        assert.deepEqual([c.width, c.height], [Math.max(0, w + 39), Math.max(0, h + 39)]);
        assert.equal(c.count(), 0);
    }
});

test('get, set, fill, clear, invert, count, clone, equals', () => {
    fc.assert(
        fc.property(arbRef, fc.integer(), (r, seed) => {
            const m = r.toMask();
            assert.equal(m.count(), r.count());
            const c = m.clone();
            assert.ok(c.equals(m) && c !== m && c.words !== m.words);
            if (r.w > 0 && r.h > 0) {
                const rnd = mulberry32(seed);
                const x = Math.floor(rnd() * r.w),
                    y = Math.floor(rnd() * r.h);
                c.set(x, y, !m.get(x, y));
                assert.equal(c.equals(m), false);
                assert.equal(m.get(x, y), r.at(x, y)); // the original is untouched
                assert.equal(m.get(x + 0.7, y + 0.2), r.at(x, y));
            }
            assert.equal(m.get(-1, 0), false);
            assert.equal(m.get(r.w, 0), false);
            const inv = m.clone().invert();
            assert.equal(inv.count(), r.w * r.h - r.count());
            assert.ok(
                sameMask(
                    inv,
                    new Ref(
                        r.w,
                        r.h,
                        r.px.map(v => 1 - v)
                    )
                )
            );
            assert.equal(m.clone().fill().count(), r.w * r.h);
            assert.ok(sameMask(m.clone().fill(), new Ref(r.w, r.h, new Uint8Array(r.w * r.h).fill(1))));
            assert.equal(m.clone().clear().count(), 0);
            assert.equal(new Mask(r.w, r.h, true).count(), r.w * r.h);
            assert.equal(m.equals(new Mask(r.w + 1, r.h)), false);
        }),
        RUNS
    );
});

test('fromRGBA sets bits where alpha > threshold; fromColorKey where RGB differs by more than tolerance', () => {
    fc.assert(
        fc.property(
            arbWidth,
            fc.integer({ min: 0, max: 6 }),
            fc.integer({ min: 0, max: 255 }),
            fc.integer(),
            (w, h, t, seed) => {
                const rnd = mulberry32(seed);
                const data = new Uint8ClampedArray(w * h * 4);
                for (let i = 0; i < data.length; i++) data[i] = rnd() < 0.3 ? t : Math.floor(rnd() * 256);
                const m = Mask.fromRGBA(data, w, h, { threshold: t });
                const key: [number, number, number] = [data[0] ?? 0, data[1] ?? 0, data[2] ?? 0];
                const tol = Math.floor(rnd() * 40);
                const k = Mask.fromColorKey(new Uint8Array(data.buffer), w, h, key, { tolerance: tol });
                const k2 = Mask.fromColorKey(data, w, h, (key[0] << 16) | (key[1] << 8) | key[2], { tolerance: tol });
                const ra = new Ref(w, h),
                    rk = new Ref(w, h);
                for (let i = 0; i < w * h; i++) {
                    ra.px[i] = data[i * 4 + 3] > t ? 1 : 0;
                    rk.px[i] = [0, 1, 2].some(c => Math.abs(data[i * 4 + c] - key[c]) > tol) ? 1 : 0;
                }
                assert.ok(sameMask(m, ra));
                assert.ok(sameMask(k, rk));
                assert.ok(k.equals(k2));
            }
        ),
        RUNS
    );
    // default threshold 127, exactly as pygame: 127 is clear, 128 is set
    const px = new Uint8Array([0, 0, 0, 127, 0, 0, 0, 128, 0, 0, 0, 255, 0, 0, 0, 0]);
    assert.equal(Mask.fromRGBA(px, 4, 1).toText(), '.##.');
    assert.equal(Mask.fromRGBA(px, 4, 1, { threshold: 0 }).toText(), '###.');
    assert.equal(Mask.fromRGBA(px, 4, 1, { threshold: 255 }).toText(), '....');
    assert.equal(Mask.fromImageData({ data: px, width: 2, height: 2 }).toText(), '.#\n#.');
});

test('fromRGBA and fromColorKey: sheets taller than one 256 KiB block, rows wider than one (65,537 px, the JS loop)', () => {
    const rnd = mulberry32(41);
    for (const [w, h] of [
        [300, 500],
        [65537, 2],
        [70001, 3]
    ]) {
        const data = new Uint8Array(w * h * 4);
        for (let i = 0; i < data.length; i++) data[i] = rnd() < 0.5 ? 0 : 200;
        const ra = new Ref(w, h),
            rk = new Ref(w, h);
        for (let i = 0; i < w * h; i++) {
            ra.px[i] = data[i * 4 + 3] > 127 ? 1 : 0;
            rk.px[i] = data[i * 4] !== 0 || data[i * 4 + 1] !== 0 || data[i * 4 + 2] !== 0 ? 1 : 0;
        }
        assert.ok(sameMask(Mask.fromRGBA(data, w, h), ra), `fromRGBA ${w}x${h}`);
        assert.ok(sameMask(Mask.fromColorKey(data, w, h, 0), rk), `fromColorKey ${w}x${h}`);
    }
});

test('boundingRect, boundingRects and connected components match a flood-fill reference', () => {
    fc.assert(
        fc.property(arbRef, fc.integer({ min: 0, max: 6 }), (r, minArea) => {
            const m = r.toMask();
            assert.deepEqual(boundingRect(m), r.boundingRect());
            const comps = r.components();
            assert.deepEqual(
                boundingRects(m),
                comps.map(c => c.boundingRect())
            );
            const got = connectedComponents(m, minArea);
            const want = comps.filter(c => c.count() >= Math.max(1, minArea));
            assert.equal(got.length, want.length);
            got.forEach((g, i) => assert.ok(sameMask(g, want[i])));
            // largest component, first in row-major order on ties
            let best: Ref | null = null;
            for (const c of comps) if (!best || c.count() > best.count()) best = c;
            assert.ok(sameMask(connectedComponent(m), best ?? new Ref(r.w, r.h)));
            // component at a position
            if (r.w > 0 && r.h > 0) {
                const x = (r.w * 7 + 3) % r.w,
                    y = (r.h * 5 + 1) % r.h;
                const at = comps.find(c => c.at(x, y)) ?? new Ref(r.w, r.h);
                assert.ok(sameMask(connectedComponent(m, x, y), at));
            }
        }),
        RUNS
    );
});

test('centroid and angle are floats matching the reference moments', () => {
    fc.assert(
        fc.property(arbRef, r => {
            const m = r.toMask(),
                c = centroid(m),
                e = r.centroid();
            if (!e) return assert.equal(c, null);
            assert.ok(c && Math.abs(c.x - e.x) < 1e-9 && Math.abs(c.y - e.y) < 1e-9);
            assert.ok(Math.abs(angle(m) - r.angle()) < 1e-6);
        }),
        RUNS
    );
    assert.equal(angle(new Mask(10, 10, true)), 0); // pygame says -45 for a filled square; moments in floats say 0
    assert.equal(angle(Mask.fromText('#..\n.#.\n..#')), -45);
    assert.equal(angle(Mask.fromText('..#\n.#.\n#..')), 45);
    assert.equal(angle(Mask.fromText('###')), 0);
    assert.deepEqual(centroid(Mask.fromText('#.\n..')), { x: 0, y: 0 });
    assert.deepEqual(centroid(Mask.fromText('##\n##')), { x: 0.5, y: 0.5 });
});

test('convolve matches its definition through overlap', () => {
    const small = fc
        .record({ w: fc.integer({ min: 0, max: 40 }), h: fc.integer({ min: 0, max: 5 }), seed: fc.integer() })
        .map(({ w, h, seed }) => Ref.random(w, h, 0.15, seed));
    fc.assert(
        fc.property(small, small, (a, b) => {
            assert.ok(sameMask(convolve(a.toMask(), b.toMask()), a.convolve(b)));
        }),
        { seed: SEED, numRuns: 60 }
    );
});

test('scale, flipX, flipY, rotate90, crop and trim match the reference', () => {
    fc.assert(
        fc.property(
            arbRef,
            fc.integer({ min: 0, max: 80 }),
            fc.integer({ min: 0, max: 12 }),
            fc.integer({ min: -5, max: 5 }),
            (r, sw, sh, turns) => {
                const m = r.toMask(),
                    { w, h } = r;
                assert.ok(sameMask(scale(m, sw, sh), r.scale(sw, sh)));
                assert.ok(
                    sameMask(
                        flipX(m),
                        r.map(w, h, (x, y) => [w - 1 - x, y])
                    )
                );
                assert.ok(
                    sameMask(
                        flipY(m),
                        r.map(w, h, (x, y) => [x, h - 1 - y])
                    )
                );
                const t = ((turns % 4) + 4) % 4;
                const rot = [
                    r.map(w, h, (x, y) => [x, y]),
                    r.map(h, w, (x, y) => [h - 1 - y, x]),
                    r.map(w, h, (x, y) => [w - 1 - x, h - 1 - y]),
                    r.map(h, w, (x, y) => [y, w - 1 - x])
                ][t];
                assert.ok(sameMask(rotate90(m, turns), rot));
                assert.ok(rotate90(rotate90(m, 1), -1).equals(m));
                const cx = sw - 40,
                    cy = sh - 6;
                assert.ok(sameMask(crop(m, cx, cy, sw, sh), r.crop(cx, cy, sw, sh)));
                const box = r.boundingRect();
                const tr = trim(m);
                if (!box) assert.deepEqual([tr.mask.width, tr.mask.height, tr.x, tr.y], [0, 0, 0, 0]);
                else {
                    assert.deepEqual([tr.x, tr.y], [box.x, box.y]);
                    assert.ok(sameMask(tr.mask, r.crop(box.x, box.y, box.width, box.height)));
                }
            }
        ),
        RUNS
    );
});

test('toRGBA paints on/off colours; fromText/toText round-trip', () => {
    fc.assert(
        fc.property(arbRef, r => {
            const m = r.toMask();
            const rgba = toRGBA(m, { onColor: 0xff000080, offColor: 0x0000ff10 });
            for (let i = 0; i < r.w * r.h; i++) {
                const want = r.px[i] ? [255, 0, 0, 128] : [0, 0, 255, 16];
                assert.deepEqual([...rgba.subarray(i * 4, i * 4 + 4)], want);
            }
            assert.ok(Mask.fromRGBA(toRGBA(m), r.w, r.h).equals(m));
            if (r.h > 0 && r.w > 0) assert.ok(Mask.fromText(m.toText()).equals(m));
        }),
        { seed: SEED, numRuns: 100 }
    );
    // unaligned output buffer
    const m = Mask.fromText('#.\n.#');
    const buf = new Uint8Array(17);
    toRGBA(m, { onColor: 0x01020304, offColor: 0x05060708 }, buf.subarray(1));
    assert.deepEqual([...buf.subarray(1, 9)], [1, 2, 3, 4, 5, 6, 7, 8]);
});

test('fromWords wraps words without copying', () => {
    const words = new Uint32Array(2 * 3);
    const m = Mask.fromWords(40, 3, words);
    assert.equal(m.words, words);
    m.set(39, 2);
    assert.equal(words[1 * 3 + 2], 1 << 7);
    words[0] = 5;
    assert.equal(m.get(2, 0), true);
    // Its buffer transferred: an Error on use, not a mask that silently went empty.
    structuredClone(words.buffer, { transfer: [words.buffer] });
    assert.throws(
        () => m.count(),
        /^Error: <Mask 40x3> lost its words: the array given to Mask.fromWords was detached \(its buffer was transferred\)\. Pass words\.slice\(\) to Mask.fromWords to keep a copy\./
    );
    assert.throws(() => m.get(0, 0), /lost its words/);
});

test("fromWords of another mask's words (a view of WebAssembly memory) copies them: the new mask survives memory growth", () => {
    const src = new Mask(64, 64);
    for (let i = 0; i < 64; i++) src.set(i, i);
    const m = Mask.fromWords(64, 64, src.words);
    // Grow the memory (a plain memory, as on a page without cross-origin isolation, detaches old views).
    const big = Array.from({ length: 8 }, () => new Mask(2048, 2048));
    assert.equal(m.count(), 64);
    m.set(1, 0);
    assert.equal(m.get(1, 0), true);
    assert.equal(m.count(), 65);
    // A copy where the source lives in WebAssembly memory (with the JS kernels both share one array, as documented).
    if (src._ptr >= 0) assert.equal(src.get(1, 0), false, 'the source is not changed');
    for (const b of big) b.dispose();
});

test('outline follows pygame: clockwise from the first pixel, start repeated, first component only', () => {
    const sq = new Mask(5, 5);
    for (let y = 1; y <= 3; y++) for (let x = 1; x <= 3; x++) sq.set(x, y);
    const pts = (m: Mask, every = 1) => outline(m, every).map(p => [p.x, p.y]);
    assert.deepEqual(pts(sq), [
        [1, 1],
        [2, 1],
        [3, 1],
        [3, 2],
        [3, 3],
        [2, 3],
        [1, 3],
        [1, 2],
        [1, 1]
    ]);
    assert.deepEqual(pts(sq, 2), [
        [1, 1],
        [3, 1],
        [3, 3],
        [1, 3],
        [1, 1]
    ]);
    const v = new Mask(20, 20).set(10, 10).set(11, 11).set(10, 12);
    assert.deepEqual(pts(v), [
        [10, 10],
        [11, 11],
        [10, 12],
        [11, 11],
        [10, 10]
    ]);
    assert.deepEqual(pts(new Mask(3, 3).set(1, 1)), [[1, 1]]);
    const two = new Mask(4, 4).set(0, 0).set(3, 3);
    assert.deepEqual(pts(two), [[0, 0]]);
});
