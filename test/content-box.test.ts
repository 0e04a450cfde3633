// @test fast no-shared
// Pair queries on large clips clip to the box of each mask's set pixels, which a mask keeps while it is unchanged
// (src/core/mask.ts, src/kernels/content-box.ts). The box must equal the naive one, and no query may ever see a
// stale box: masks changed through every writer (pixel calls, fill, draw and erase, overlapMask into them, a
// raster stamping its plane, a view of their words kept from before the queries) answer exactly as the naive
// reference, on both kernel paths. The counted
// test checks the box is used: the kernel gets the clip narrowed to both boxes, and none when they do not meet.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CollisionRaster, Mask } from '../src/index.js';
import { contentBox } from '../src/kernels/content-box.js'; // internal: the box scan has no public entry
import { JS, WASM, type Clip } from '../src/kernels/kernels.js'; // internal: counts the kernel calls
import { mulberry32, Ref, sameMask, testKernels } from './reference.js';

function blob(w: number, h: number, rnd: () => number): Ref {
    const r = new Ref(w, h),
        cx = rnd() * w,
        cy = rnd() * h,
        rad = 3 + rnd() * Math.min(w, h) * 0.4;
    for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) if ((x - cx) ** 2 + (y - cy) ** 2 <= rad * rad && rnd() > 0.1) r.px[y * w + x] = 1;
    return r;
}

test('contentBox equals the naive box of the set pixels, x in whole strips', () => {
    const rnd = mulberry32(4401),
        out = new Int32Array(4);
    const sizes = [
        [1, 1],
        [31, 5],
        [32, 7],
        [33, 40],
        [64, 1],
        [97, 70],
        [200, 3],
        [5, 300],
        [260, 130]
    ];
    for (const [w, h] of sizes) {
        const cases = [
            new Ref(w, h),
            new Ref(w, h, new Uint8Array(w * h).fill(1)),
            Ref.random(w, h, 0.0005, 1),
            Ref.random(w, h, 0.05, 2),
            blob(w, h, rnd)
        ];
        const one = new Ref(w, h);
        one.px[Math.floor(rnd() * w * h)] = 1;
        cases.push(one);
        for (const r of cases) {
            // The naive box with x widened to whole strips (all 0 for an empty mask).
            const m = r.toMask(),
                box = r.boundingRect();
            contentBox(m.words, m.height, m.strips, out);
            if (box === null) assert.deepEqual([...out], [0, 0, 0, 0], `empty ${w}x${h}`);
            else
                assert.deepEqual(
                    [...out],
                    [box.x & ~31, box.y, (box.x + box.width + 31) & ~31, box.y + box.height],
                    `${w}x${h}`
                );
        }
    }
});

// Applies one random change to mask m (and its reference r), through one of the writers; returns what it did.
function change(m: Mask, r: Ref, rnd: () => number, pool: { m: Mask; r: Ref }[]): string {
    const w = r.w,
        h = r.h,
        k = Math.floor(rnd() * 9);
    const src = pool[Math.floor(rnd() * pool.length)],
        dx = Math.floor(rnd() * (w + src.r.w)) - src.r.w,
        dy = Math.floor(rnd() * (h + src.r.h)) - src.r.h;
    switch (k) {
        case 0: {
            // single pixels, far from the box too
            for (let i = 0; i < 3; i++) {
                const x = Math.floor(rnd() * w),
                    y = Math.floor(rnd() * h),
                    on = rnd() < 0.7;
                m.set(x, y, on);
                r.px[y * w + x] = on ? 1 : 0;
            }
            return 'set';
        }
        case 1:
            m.clear();
            r.px.fill(0);
            return 'clear';
        case 2:
            m.fill();
            r.px.fill(1);
            return 'fill';
        case 3:
            m.invert();
            for (let i = 0; i < r.px.length; i++) r.px[i] ^= 1;
            return 'invert';
        case 4:
            m.draw(src.m, dx, dy);
            r.px.set(r.draw(src.r, dx, dy).px);
            return 'draw';
        case 5:
            m.erase(src.m, dx, dy);
            r.px.set(r.draw(src.r, dx, dy, true).px);
            return 'erase';
        case 6: {
            const sx = Math.floor(rnd() * 40) - 20,
                sy = Math.floor(rnd() * 40) - 20;
            m.draw(m, sx, sy);
            r.px.set(r.draw(new Ref(w, h, r.px.slice()), sx, sy).px);
            return 'self draw';
        }
        case 7: {
            // out === this: m becomes m & src
            m.overlapMask(src.m, dx, dy, m);
            r.px.set(r.overlapMask(src.r, dx, dy).px);
            return 'overlapMask into this';
        }
        default: {
            // out === other: m becomes other & m (other of m's size)
            const o = blob(w, h, rnd),
                om = o.toMask();
            om.overlapMask(m, 0, 0, m);
            r.px.set(o.overlapMask(r, 0, 0).px);
            om.dispose();
            return 'overlapMask into other';
        }
    }
}

function checkPair(a: Mask, ra: Ref, b: Mask, rb: Ref, dx: number, dy: number, what: string): void {
    const at = `${what}: ${ra.w}x${ra.h} / ${rb.w}x${rb.h} at ${dx},${dy}`;
    assert.deepEqual(a.overlap(b, dx, dy), ra.overlap(rb, dx, dy), `overlap, ${at}`);
    assert.equal(a.overlaps(b, dx, dy), ra.overlapArea(rb, dx, dy) > 0, `overlaps, ${at}`);
    assert.equal(a.overlapArea(b, dx, dy), ra.overlapArea(rb, dx, dy), `overlapArea, ${at}`);
    const m = a.overlapMask(b, dx, dy);
    assert.ok(sameMask(m, ra.overlapMask(rb, dx, dy)), `overlapMask, ${at}`);
    m.dispose();
}

testKernels('pair queries stay exact while masks change through every writer', () => {
    const rnd = mulberry32(4402);
    const pool = [
        [200, 150],
        [130, 90],
        [70, 260],
        [40, 30]
    ].map(([w, h]) => {
        const r = blob(w, h, rnd);
        return { r, m: r.toMask() };
    });
    for (let step = 0; step < 300; step++) {
        const t = pool[Math.floor(rnd() * 3)],
            what = change(t.m, t.r, rnd, pool);
        // Three queries a change: the second computes the boxes, the third and later use them.
        for (let q = 0; q < 3; q++) {
            const o = pool[Math.floor(rnd() * 3)];
            const dx = Math.floor(rnd() * (t.r.w + o.r.w)) - o.r.w,
                dy = Math.floor(rnd() * (t.r.h + o.r.h)) - o.r.h;
            checkPair(t.m, t.r, o.m, o.r, dx, dy, `after ${what} (step ${step})`);
            checkPair(o.m, o.r, t.m, t.r, -dx, -dy, `after ${what} (step ${step}), swapped`);
        }
    }
});

testKernels('a view of words kept from before the queries and written later: the answers see every write', () => {
    // Reading `words` switches the box off for good, so even a view read long before is safe to write.
    const rnd = mulberry32(4404),
        probe = blob(150, 120, rnd),
        pm = probe.toMask();
    const r = blob(200, 150, rnd),
        m = r.toMask(),
        view = m.words;
    for (let i = 0; i < 40; i++) {
        for (let q = 0; q < 3; q++)
            checkPair(m, r, pm, probe, Math.floor(rnd() * 300) - 150, Math.floor(rnd() * 240) - 120, `view step ${i}`);
        // a row of pixels through the old view, anywhere (often outside the box the queries saw)
        const y = Math.floor(rnd() * 150);
        for (let x = i % 3; x < 200; x += 5) {
            view[(x >>> 5) * 150 + y] |= 1 << (x & 31);
            r.px[y * 200 + x] = 1;
        }
        // and changes through the mask's own methods in between
        if (i % 4 === 3) {
            m.erase(pm, 20, 10);
            r.px.set(r.draw(probe, 20, 10, true).px);
        }
    }
});

testKernels('a raster plane, adopted words and clones answer exactly after each change', () => {
    const rnd = mulberry32(4403),
        probe = blob(150, 120, rnd),
        pm = probe.toMask();
    // The plane is written by the raster's kernels, never through the Mask's own methods.
    const raster = new CollisionRaster(300, 200),
        ref = new Ref(300, 200);
    for (let i = 0; i < 40; i++) {
        const s = blob(60, 50, rnd),
            sm = s.toMask(),
            x = Math.floor(rnd() * 300) - 30,
            y = Math.floor(rnd() * 200) - 25;
        if (i % 7 === 6) {
            raster.clear();
            ref.px.fill(0);
        } else if (i % 3 === 2) {
            raster.erase(sm, x, y);
            ref.px.set(ref.draw(s, x, y, true).px);
        } else {
            raster.stamp(sm, x, y);
            ref.px.set(ref.draw(s, x, y).px);
        }
        for (let q = 0; q < 3; q++) {
            const dx = Math.floor(rnd() * 300) - 75,
                dy = Math.floor(rnd() * 200) - 60;
            checkPair(raster.plane(0), ref, pm, probe, dx, dy, `raster step ${i}`);
        }
        sm.dispose();
    }
    // Mask.fromWords keeps the caller's array, which the caller may write unseen: such a mask never keeps a box.
    const words = new Uint32Array(7 * 120),
        adopted = Mask.fromWords(200, 120, words),
        aref = new Ref(200, 120);
    for (let i = 0; i < 20; i++) {
        const x = Math.floor(rnd() * 200),
            y = Math.floor(rnd() * 120);
        words[(x >>> 5) * 120 + y] |= 1 << (x & 31);
        aref.px[y * 200 + x] = 1;
        for (let q = 0; q < 3; q++)
            checkPair(
                adopted,
                aref,
                pm,
                probe,
                Math.floor(rnd() * 200) - 75,
                Math.floor(rnd() * 120) - 60,
                `adopted step ${i}`
            );
    }
    // A clone starts from its own pixels, and changing it leaves the original's box alone.
    const orig = blob(180, 140, rnd),
        om = orig.toMask();
    for (let q = 0; q < 3; q++) checkPair(om, orig, pm, probe, 10, 10, 'original');
    const copy = om.clone(),
        cref = new Ref(180, 140, orig.px.slice());
    copy.fill();
    cref.px.fill(1);
    for (let q = 0; q < 3; q++) {
        checkPair(copy, cref, pm, probe, 100 - 40 * q, 90 - 40 * q, 'filled clone');
        checkPair(om, orig, pm, probe, 100 - 40 * q, 90 - 40 * q, 'original after its clone was filled');
    }
});

testKernels('a known box narrows the clip the kernels scan, and boxes that do not meet skip them', () => {
    const clips: Clip[] = [];
    const spied = [JS, WASM].map(k => ({ k, first: k.first }));
    for (const { k, first } of spied)
        k.first = (a, b, c, out) => {
            clips.push({ ...c });
            return first.call(k, a, b, c, out);
        };
    try {
        // A 512x256 mask with pixels in x 100..139, y 60..89 only; B 256x256 with pixels in x 10..29, y 200..219.
        const a = new Mask(512, 256),
            b = new Mask(256, 256);
        for (let y = 60; y < 90; y++) for (let x = 100; x < 140; x++) a.set(x, y);
        for (let y = 200; y < 220; y++) for (let x = 10; x < 30; x++) b.set(x, y);
        // B's pixels land on x 110..129, y 50..69 with B at (100, -150): they meet A's in rows 60..69.
        for (let q = 0; q < 3; q++) assert.deepEqual(a.overlap(b, 100, -150), { x: 110, y: 60 });
        assert.equal(clips.length, 3);
        // The first two queries scan the whole clip (the second computes the boxes), the third only the boxes'
        // intersection: A's x 96..160 (strips 3 and 4) and y 60..90, B's x 100..132 (its strip 0) and y 50..70.
        assert.deepEqual([clips[0].x0, clips[0].y0, clips[0].x1, clips[0].y1], [100, 0, 356, 106]);
        assert.deepEqual([clips[2].x0, clips[2].y0, clips[2].x1, clips[2].y1], [100, 60, 132, 70]);
        // Boxes that do not meet (B's pixels on A's rows 120..139, below A's) need no kernel call at all.
        clips.length = 0;
        assert.equal(a.overlap(b, 100, -80), null);
        assert.equal(a.overlaps(b, 100, -80), false);
        assert.equal(a.overlapArea(b, 100, -80), 0);
        assert.equal(clips.length, 0);
        // A change forgets A's box: the next query scans A's whole extent of the clip again.
        a.set(500, 250);
        assert.equal(a.overlap(b, 100, -80), null);
        assert.equal(clips.length, 1);
        assert.deepEqual([clips[0].y0, clips[0].y1], [120, 140]);
        // The top moves down by whole blocks of 4 rows (the words' alignment): this A's box moves it from 0 to 40;
        // B's pixels, from its row 201 now, land on row 51 (B at y -150): 11 rows lower, so the top moves 8, to 48.
        for (let x = 10; x < 30; x++) b.set(x, 200, false);
        clips.length = 0;
        const big = new Mask(512, 256);
        for (let y = 40; y < 100; y++) for (let x = 100; x < 140; x++) big.set(x, y);
        for (let q = 0; q < 3; q++) big.overlap(b, 100, -150);
        assert.deepEqual([clips[2].y0, clips[2].y1], [48, 70]);
        // Masks whose boxes are most of their words are not narrowed (it would cost more than it saves).
        const full = new Mask(256, 256, true),
            most = new Mask(256, 256, true);
        most.set(0, 0, false);
        clips.length = 0;
        for (let q = 0; q < 3; q++) full.overlap(most, 5, 3);
        assert.deepEqual([clips[2].x0, clips[2].y0, clips[2].x1, clips[2].y1], [5, 3, 256, 256]);
        // An empty mask's box meets nothing: once known, no query of it reaches a kernel.
        const empty = new Mask(256, 256);
        clips.length = 0;
        for (let q = 0; q < 3; q++) assert.equal(full.overlap(empty, 7, 9), null);
        assert.equal(clips.length, 1);
        for (const m of [a, b, big, full, most, empty]) m.dispose();
    } finally {
        for (const { k, first } of spied) k.first = first;
    }
});
