// Layout choice: pygame's strip layout (the one Mask uses) vs row-major words, same kernels otherwise.
// Run: npm run bench -- layout
import { banner, fmtTiming, table, time } from './harness.js';
import { makeScene, toMask, type Scene } from './scenes.js';

/** Row-major packed mask: word k of row y is words[y * stride + k]. */
interface RowMajor {
    w: number;
    h: number;
    stride: number;
    words: Uint32Array;
}

function rowMajor(px: Uint8Array, size: number): RowMajor {
    const stride = (size + 31) >>> 5,
        words = new Uint32Array(stride * size);
    for (let y = 0; y < size; y++)
        for (let x = 0; x < size; x++) if (px[y * size + x]) words[y * stride + (x >>> 5)] |= 1 << (x & 31);
    return { w: size, h: size, stride, words };
}

// The row-major twin of Mask.overlaps / overlapArea: same clipping, same shift/combine per word,
// but the inner loop runs along a row (few words per row for sprite-sized masks).
function rmKernel(a: RowMajor, b: RowMajor, dx: number, dy: number, area: boolean): number {
    if (dx >= a.w || dy >= a.h || dx <= -b.w || dy <= -b.h) return 0;
    const x0 = Math.max(0, dx),
        x1 = Math.min(a.w, dx + b.w),
        y0 = Math.max(0, dy),
        y1 = Math.min(a.h, dy + b.h);
    const A = a.words,
        B = b.words,
        as = a.stride,
        bs = b.stride,
        s0 = x0 >> 5,
        s1 = (x1 - 1) >> 5;
    let n = 0;
    for (let y = y0; y < y1; y++) {
        const ar = y * as,
            br = (y - dy) * bs;
        for (let s = s0; s <= s1; s++) {
            const o = (s << 5) - dx,
                k = o >> 5,
                sh = o & 31;
            let w: number;
            if (sh === 0) w = B[br + k];
            else w = (k >= 0 ? B[br + k] >>> sh : 0) | (k + 1 < bs ? B[br + k + 1] << (32 - sh) : 0);
            let v = A[ar + s] & w;
            if (!area) {
                if (v !== 0) return 1;
                continue;
            }
            v -= (v >>> 1) & 0x55555555;
            v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
            n += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
        }
    }
    return n;
}

banner('hitmask mask layout: strip (column-of-words) vs row-major');
const rows: (string | number)[][] = [];
for (const size of [32, 64, 256, 1024]) {
    const sc: Scene = makeScene(size, 'none');
    const ma = toMask(sc.a, size),
        mb = toMask(sc.b, size);
    const ra = rowMajor(sc.a, size),
        rb = rowMajor(sc.b, size);
    if (ma.overlapArea(mb, sc.dx, sc.dy) !== rmKernel(ra, rb, sc.dx, sc.dy, true)) throw new Error('layouts disagree');
    const sAny = time(() => ma.overlaps(mb, sc.dx, sc.dy));
    const rAny = time(() => rmKernel(ra, rb, sc.dx, sc.dy, false));
    const sArea = time(() => ma.overlapArea(mb, sc.dx, sc.dy));
    const rArea = time(() => rmKernel(ra, rb, sc.dx, sc.dy, true));
    rows.push([
        `${size}²`,
        fmtTiming(sAny),
        fmtTiming(rAny),
        (rAny.median / sAny.median).toFixed(2) + '×',
        fmtTiming(sArea),
        fmtTiming(rArea),
        (rArea.median / sArea.median).toFixed(2) + '×'
    ]);
}
table(
    [
        'size',
        'overlaps strip',
        'overlaps row-major',
        'row-major / strip',
        'area strip',
        'area row-major',
        'row-major / strip'
    ],
    rows
);
console.log(
    'Full scans (no hit), b at (13, 2): every word of the intersection is visited. Ratios > 1 mean the strip layout is faster.'
);
