// @test no-shared
// overlap() (the first point in row-major order) scans bands of rows across every strip (src/kernels/js.ts,
// $first in wasm-pairs.wat), or, in WebAssembly on clips of 2 strips or more, 16 rows or more and over 256 words,
// groups of 16 rows across every strip ($firstRows): the point must equal the naive row-major first pixel
// whatever band or group holds it, on triangles and discs with holes (first hits early in a late strip, late
// in the left ones), at offsets of every strip alignment, negative and past the edges, on both kernel paths.
import assert from 'node:assert/strict';
import { mulberry32, Ref, testKernels } from './reference.js';

// Shapes whose first row-major pixel is far from the left strips' first pixels.
function triangle(w: number, h: number, corner: number): Ref {
    const r = new Ref(w, h);
    for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
            const u = corner & 1 ? w - 1 - x : x,
                v = corner & 2 ? h - 1 - y : y;
            if (u * h + v * w >= w * h - Math.max(w, h)) r.px[y * w + x] = 1;
        }
    }
    return r;
}

function holedDisc(w: number, h: number, seed: number): Ref {
    const r = new Ref(w, h),
        rnd = mulberry32(seed),
        cx = w * (0.3 + rnd() * 0.4),
        cy = h * (0.3 + rnd() * 0.4),
        rad = Math.min(w, h) * (0.3 + rnd() * 0.3);
    const holes = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => [
        rnd() * w,
        rnd() * h,
        1 + rnd() * rad * 0.4
    ]);
    for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
            if (
                (x - cx) ** 2 + (y - cy) ** 2 <= rad * rad &&
                holes.every(([hx, hy, hr]) => (x - hx) ** 2 + (y - hy) ** 2 > hr * hr)
            )
                r.px[y * w + x] = 1;
        }
    }
    return r;
}

function shape(w: number, h: number, rnd: () => number): Ref {
    const k = Math.floor(rnd() * 4);
    if (k === 0) return triangle(w, h, Math.floor(rnd() * 4));
    if (k === 1) return holedDisc(w, h, Math.floor(rnd() * 1e9));
    if (k === 2) return Ref.random(w, h, 0.002 + rnd() * 0.02, Math.floor(rnd() * 1e9));
    return new Ref(w, h, new Uint8Array(w * h).fill(1));
}

function check(
    a: Ref,
    b: Ref,
    dx: number,
    dy: number,
    ma: ReturnType<Ref['toMask']>,
    mb: ReturnType<Ref['toMask']>
): void {
    assert.deepEqual(
        ma.overlap(mb, dx, dy),
        a.overlap(b, dx, dy),
        `overlap of ${a.w}x${a.h} / ${b.w}x${b.h} at ${dx},${dy}`
    );
}

testKernels('the first point through bands of rows: triangles and holed discs at every strip alignment', () => {
    const rnd = mulberry32(2803);
    // Widths of 1 to 40 strips (first bands of 8 to 256 rows), heights past the second band.
    const sizes = [
        [40, 30],
        [70, 90],
        [130, 70],
        [200, 120],
        [300, 50],
        [520, 60],
        [1100, 24],
        [33, 300]
    ];
    for (const [aw, ah] of sizes) {
        for (let pair = 0; pair < 3; pair++) {
            const bw = Math.max(1, Math.floor(aw * (0.5 + rnd()))),
                bh = Math.max(1, Math.floor(ah * (0.5 + rnd())));
            const a = shape(aw, ah, rnd),
                b = shape(bw, bh, rnd),
                ma = a.toMask(),
                mb = b.toMask();
            // Every shift 0..31 once, at random strips and rows, some negative or past the edges.
            for (let sh = 0; sh < 32; sh++) {
                const dx = (Math.floor(rnd() * ((aw + bw) / 32 + 2)) - Math.ceil(bw / 32) - 1) * 32 + sh;
                const dy = Math.floor(rnd() * (ah + bh + 4)) - bh - 2;
                check(a, b, dx, dy, ma, mb);
            }
        }
    }
});

testKernels(
    'the first point through bands of rows: a hit in each band, early in the last strip and late in the first',
    () => {
        // A 40-strip clip has a first band of 8 rows, then 64 and 512 in JS (three bands in 300 rows), groups of
        // 16 rows in WebAssembly.
        const aw = 1280,
            ah = 300,
            a = new Ref(aw, ah),
            b = new Ref(aw, ah, new Uint8Array(aw * ah).fill(1)),
            mb = b.toMask();
        for (const [early, late] of [
            [0, 299],
            [7, 8],
            [8, 9],
            [15, 16],
            [71, 72],
            [72, 73],
            [200, 263],
            [264, 265],
            [263, 299],
            [299, 299]
        ]) {
            a.px.fill(0);
            a.px[early * aw + aw - 1] = 1;
            a.px[late * aw] = 1;
            const ma = a.toMask();
            for (const [dx, dy] of [
                [0, 0],
                [-1, 0],
                [1, 0],
                [-33, -3],
                [31, 2]
            ])
                check(a, b, dx, dy, ma, mb);
        }
    }
);

testKernels('the first point through groups of rows across the strips: every row count, shift and edge', () => {
    // Clips of 16 to 90 rows and over 256 words (the last group of 16 overlaps the one before unless the
    // count is a multiple of 16; in JS, bands of 8 rows and more), one mask sparse and the other full: the
    // first hit is the sparse one's first pixel in the clip, anywhere, the first row's first strip included.
    const rnd = mulberry32(2804);
    for (const [aw, ah] of [
        [600, 16],
        [560, 17],
        [400, 23],
        [330, 31],
        [300, 33],
        [260, 40],
        [190, 47],
        [100, 90]
    ]) {
        for (let pair = 0; pair < 4; pair++) {
            const bw = aw - 5 + Math.floor(rnd() * 10),
                bh = ah + Math.floor(rnd() * 3),
                sparseA = pair % 2 === 0;
            const sparse = Ref.random(
                sparseA ? aw : bw,
                sparseA ? ah : bh,
                0.002 + rnd() * 0.01,
                Math.floor(rnd() * 1e9)
            );
            const full = sparseA
                ? new Ref(bw, bh, new Uint8Array(bw * bh).fill(1))
                : new Ref(aw, ah, new Uint8Array(aw * ah).fill(1));
            const a = sparseA ? sparse : full,
                b = sparseA ? full : sparse,
                ma = a.toMask(),
                mb = b.toMask();
            for (let sh = 0; sh < 32; sh++) {
                // B from a strip left of A to a strip right of it, rows from the top to 2 below.
                const dx = (Math.floor(rnd() * 4) - 1) * 32 + sh - (sh > 0 && rnd() < 0.5 ? 32 : 0),
                    dy = Math.floor(rnd() * 3) - (bh - ah);
                check(a, b, dx, dy, ma, mb);
                check(a, b, dx, 0, ma, mb);
            }
        }
    }
});
