// The kernels in plain JavaScript: what runs where WebAssembly SIMD is absent, on masks whose words are
// on the JS heap, and on intersections too small for a call into WebAssembly (kernels.ts, pickFor).
//
// A's strip s meets B's strip bs = o >> 5 shifted right by sh = o & 31 (o = 32s − dx) ORed with strip
// bs + 1 shifted left by 32 − sh (see kernels.ts). sh is the same for every strip of a call, so each
// strip is one of four kinds: aligned (sh = 0: B's word as it is), left edge (bs = −1: only strip 0,
// shifted left), right edge (no strip bs + 1: only strip bs, shifted right) and two-word. The right edge
// runs the two-word loop with its second word multiplied by 0 (one strip a call, one more read a row) except
// in overlapArea, where its own loop measured 7% faster; the bytes saved pay for the pair queries' content
// boxes in the 12 KB of `import { Mask }`.
//
// Loops per kind are measured 1.15-1.7x faster than one loop per strip. How they are written:
// - One index per row (A's), B's rows at fixed distances from it, index arithmetic `| 0`: a truncated
//   add has no overflow check, which TurboFan keeps on every `i + 1` otherwise (measured 11% faster).
// - The left shift is a multiply, Math.imul(x, 1 << ls): x86 shifts by a variable count need it in cl,
//   and two counts per word (sh, 32 − sh) kept reloading it; now cl holds sh for the whole loop
//   (measured 11% faster).
// - Words shifted right are read `B[j] | 0`: a Uint32Array word of 2^31 or more into `>>>` otherwise
//   deoptimizes the loop ("lost precision") into code about 2x slower.
// - Not taken: two A strips at a time against three B strips, reading the middle B word once (3 -> 2.5
//   loads a word, 3% faster in the compiled kernel: not worth its bundle bytes); row-major order
//   (all strips of a row, carrying the shared B word) is slower (strides of a strip height, short inner loops).
// Once any ArrayBuffer has been detached in the process (a transfer, a plain WebAssembly memory growing),
// V8 checks every typed-array access for it, and these loops take ~25% longer.
import { ctz, lastWordMask, popcnt } from '../base/bits.js';
import type { Clip, Kernels } from './contract.js';
import type { MaskWords } from './mask-words.js';

// ---- finding the first overlapping row of a strip ----
// Each returns A's index of the first row in i..iEnd−1 whose words overlap, or −1. Rows go four at a
// time under one OR-accumulated test (1.3-1.6x faster full scans than one test a row); a block that
// hits is searched row by row from its start by the single-row loop.

// sh = 0: B's row at i + d as it is.
function row0(A: Uint32Array, B: Uint32Array, i: number, iEnd: number, d: number): number {
    for (const i4 = (iEnd - 3) | 0; i < i4; i = (i + 4) | 0) {
        const j = (i + d) | 0;
        if (
            ((A[i] & B[j]) |
                (A[(i + 1) | 0] & B[(j + 1) | 0]) |
                (A[(i + 2) | 0] & B[(j + 2) | 0]) |
                (A[(i + 3) | 0] & B[(j + 3) | 0])) !==
            0
        )
            break;
    }
    for (; i < iEnd; i = (i + 1) | 0) if ((A[i] & B[(i + d) | 0]) !== 0) return i;
    return -1;
}

// Left edge: B's row at i + d times m = 2^(32 − sh) (a left shift).
function rowL(A: Uint32Array, B: Uint32Array, i: number, iEnd: number, d: number, m: number): number {
    for (const i4 = (iEnd - 3) | 0; i < i4; i = (i + 4) | 0) {
        const j = (i + d) | 0;
        if (
            ((A[i] & Math.imul(B[j], m)) |
                (A[(i + 1) | 0] & Math.imul(B[(j + 1) | 0], m)) |
                (A[(i + 2) | 0] & Math.imul(B[(j + 2) | 0], m)) |
                (A[(i + 3) | 0] & Math.imul(B[(j + 3) | 0], m))) !==
            0
        )
            break;
    }
    for (; i < iEnd; i = (i + 1) | 0) if ((A[i] & Math.imul(B[(i + d) | 0], m)) !== 0) return i;
    return -1;
}

// Two words: B's rows at i + d (shifted right by sh) and i + e (times m = 2^(32 − sh)). The right edge is
// m = 0, e = d: one more read a row on one strip, where a loop of its own cost bundle bytes.
function row2(
    A: Uint32Array,
    B: Uint32Array,
    i: number,
    iEnd: number,
    d: number,
    e: number,
    sh: number,
    m: number
): number {
    for (const i4 = (iEnd - 3) | 0; i < i4; i = (i + 4) | 0) {
        const j = (i + d) | 0,
            k = (i + e) | 0;
        if (
            ((A[i] & (((B[j] | 0) >>> sh) | Math.imul(B[k], m))) |
                (A[(i + 1) | 0] & (((B[(j + 1) | 0] | 0) >>> sh) | Math.imul(B[(k + 1) | 0], m))) |
                (A[(i + 2) | 0] & (((B[(j + 2) | 0] | 0) >>> sh) | Math.imul(B[(k + 2) | 0], m))) |
                (A[(i + 3) | 0] & (((B[(j + 3) | 0] | 0) >>> sh) | Math.imul(B[(k + 3) | 0], m)))) !==
            0
        )
            break;
    }
    for (; i < iEnd; i = (i + 1) | 0)
        if ((A[i] & (((B[(i + d) | 0] | 0) >>> sh) | Math.imul(B[(i + e) | 0], m))) !== 0) return i;
    return -1;
}

// B's word for one row of A's strip, B index j (see row0..row2 for the four kinds, and for j): kind 0
// aligned, 1 left edge, 2 right edge, 3 two-word. For tails and the one row a search found.
// Every word is read `| 0` (int32): a bare Uint32Array read merged with the int32 of another kind
// deoptimized its caller ("lost precision") on words of 2^31 or more.
function bWord(B: Uint32Array, j: number, bh: number, sh: number, kind: number): number {
    const w = B[j] | 0;
    return kind === 0 ? w : kind === 1 ? w << (32 - sh) : kind === 2 ? w >>> sh : (w >>> sh) | (B[j + bh] << (32 - sh));
}

// The loop kind of A's strip whose B strip is bs (see bWord).
function kindOf(bs: number, sh: number, bStrips: number): number {
    return sh === 0 ? 0 : bs < 0 ? 1 : bs + 1 >= bStrips ? 2 : 3;
}

// The first overlapping pixel of rows yb..ye−1 of the clip in row-major order into hitX/hitY (true), or
// false: each strip is searched above the best row so far, so ties go to the leftmost strip.
// With `stopAtAny`, true at the first strip that hits.
let hitY = 0,
    hitX = 0;
function bandHit(a: MaskWords, b: MaskWords, c: Clip, yb: number, ye: number, stopAtAny: boolean): boolean {
    const A = a._words,
        B = b._words,
        ah = a.height,
        bh = b.height,
        bStrips = b.strips,
        dx = c.dx;
    const n0 = yb - c.dy,
        sh = -dx & 31,
        m = 1 << (32 - sh),
        sEnd = (c.x1 - 1) >> 5;
    let yEnd = ye,
        found = false;
    // A hit in the band's first row ends it: no later strip can be above it.
    for (let s = c.x0 >> 5; s <= sEnd && yEnd > yb; s++) {
        const bs = ((s << 5) - dx) >> 5,
            kind = kindOf(bs, sh, bStrips),
            i = s * ah + yb,
            iEnd = i + yEnd - yb;
        // B's index of A's row i: strip bs's row, strip 0's on the left edge (bs = −1).
        const d = bs * bh + n0 - i + (kind === 1 ? bh : 0);
        // Two calls of row2, not one with chosen arguments: each inlines with its own constants (measured 15% faster).
        const r =
            kind === 0
                ? row0(A, B, i, iEnd, d)
                : kind === 1
                  ? rowL(A, B, i, iEnd, d, m)
                  : kind === 2
                    ? row2(A, B, i, iEnd, d, d, sh, 0)
                    : row2(A, B, i, iEnd, d, d + bh, sh, m);
        if (r >= 0) {
            if (stopAtAny) return true;
            yEnd = r - i + yb;
            hitY = yEnd;
            hitX = (s << 5) + ctz(A[r] & bWord(B, r + d, bh, sh, kind));
            found = true;
        }
    }
    return found;
}

// ---- counting ----

// Bits set in the four words a..d (SWAR; each word's byte sums stay at most 8, their total at most 32).
function popcnt4(a: number, b: number, c: number, d: number): number {
    a -= (a >>> 1) & 0x55555555;
    b -= (b >>> 1) & 0x55555555;
    c -= (c >>> 1) & 0x55555555;
    d -= (d >>> 1) & 0x55555555;
    a = (a & 0x33333333) + ((a >>> 2) & 0x33333333);
    b = (b & 0x33333333) + ((b >>> 2) & 0x33333333);
    c = (c & 0x33333333) + ((c >>> 2) & 0x33333333);
    d = (d & 0x33333333) + ((d >>> 2) & 0x33333333);
    const s =
        ((a + (a >>> 4)) & 0x0f0f0f0f) +
        ((b + (b >>> 4)) & 0x0f0f0f0f) +
        ((c + (c >>> 4)) & 0x0f0f0f0f) +
        ((d + (d >>> 4)) & 0x0f0f0f0f);
    return Math.imul(s, 0x01010101) >>> 24;
}

// Pixels set in A's rows i..iEnd−1 and B's word (`kind` and B's index i + d as in bWord). Four rows at
// a time; an all-zero block (most of a contact) skips the popcount.
function areaRun(
    A: Uint32Array,
    B: Uint32Array,
    i: number,
    iEnd: number,
    d: number,
    bh: number,
    sh: number,
    kind: number
): number {
    let n = 0;
    const i4 = (iEnd - 3) | 0;
    if (kind === 0) {
        for (; i < i4; i = (i + 4) | 0) {
            const j = (i + d) | 0;
            const w0 = A[i] & B[j],
                w1 = A[(i + 1) | 0] & B[(j + 1) | 0],
                w2 = A[(i + 2) | 0] & B[(j + 2) | 0],
                w3 = A[(i + 3) | 0] & B[(j + 3) | 0];
            if ((w0 | w1 | w2 | w3) !== 0) n += popcnt4(w0, w1, w2, w3);
        }
    } else if (kind === 1) {
        const m = 1 << (32 - sh);
        for (; i < i4; i = (i + 4) | 0) {
            const j = (i + d) | 0;
            const w0 = A[i] & Math.imul(B[j], m),
                w1 = A[(i + 1) | 0] & Math.imul(B[(j + 1) | 0], m);
            const w2 = A[(i + 2) | 0] & Math.imul(B[(j + 2) | 0], m),
                w3 = A[(i + 3) | 0] & Math.imul(B[(j + 3) | 0], m);
            if ((w0 | w1 | w2 | w3) !== 0) n += popcnt4(w0, w1, w2, w3);
        }
    } else if (kind === 2) {
        for (; i < i4; i = (i + 4) | 0) {
            const j = (i + d) | 0;
            const w0 = A[i] & ((B[j] | 0) >>> sh),
                w1 = A[(i + 1) | 0] & ((B[(j + 1) | 0] | 0) >>> sh);
            const w2 = A[(i + 2) | 0] & ((B[(j + 2) | 0] | 0) >>> sh),
                w3 = A[(i + 3) | 0] & ((B[(j + 3) | 0] | 0) >>> sh);
            if ((w0 | w1 | w2 | w3) !== 0) n += popcnt4(w0, w1, w2, w3);
        }
    } else {
        const m = 1 << (32 - sh),
            e = (d + bh) | 0;
        for (; i < i4; i = (i + 4) | 0) {
            const j = (i + d) | 0,
                k = (i + e) | 0;
            const w0 = A[i] & (((B[j] | 0) >>> sh) | Math.imul(B[k], m));
            const w1 = A[(i + 1) | 0] & (((B[(j + 1) | 0] | 0) >>> sh) | Math.imul(B[(k + 1) | 0], m));
            const w2 = A[(i + 2) | 0] & (((B[(j + 2) | 0] | 0) >>> sh) | Math.imul(B[(k + 2) | 0], m));
            const w3 = A[(i + 3) | 0] & (((B[(j + 3) | 0] | 0) >>> sh) | Math.imul(B[(k + 3) | 0], m));
            if ((w0 | w1 | w2 | w3) !== 0) n += popcnt4(w0, w1, w2, w3);
        }
    }
    for (; i < iEnd; i = (i + 1) | 0) {
        const w = A[i] & bWord(B, (i + d) | 0, bh, sh, kind);
        if (w !== 0) n += popcnt(w);
    }
    return n;
}

// ---- combining ----

// C[i] = A[i] & B's word over rows i..iEnd−1 (`kind` and B's index i + d as in bWord).
function andRun(
    A: Uint32Array,
    B: Uint32Array,
    C: Uint32Array,
    i: number,
    iEnd: number,
    d: number,
    bh: number,
    sh: number,
    kind: number
): void {
    if (kind === 0) {
        for (; i < iEnd; i = (i + 1) | 0) C[i] = A[i] & B[(i + d) | 0];
    } else if (kind === 1) {
        const m = 1 << (32 - sh);
        for (; i < iEnd; i = (i + 1) | 0) C[i] = A[i] & Math.imul(B[(i + d) | 0], m);
    } else {
        // Four rows an iteration (this kernel alone): measured 1.17x faster (strip pairs measured no better).
        // The right edge (kind 2) as two words with m = 0, e = d (see row2).
        const m = kind === 2 ? 0 : 1 << (32 - sh),
            e = kind === 2 ? d : (d + bh) | 0;
        for (const i4 = (iEnd - 3) | 0; i < i4; i = (i + 4) | 0) {
            const j = (i + d) | 0,
                k = (i + e) | 0;
            C[i] = A[i] & (((B[j] | 0) >>> sh) | Math.imul(B[k], m));
            C[(i + 1) | 0] = A[(i + 1) | 0] & (((B[(j + 1) | 0] | 0) >>> sh) | Math.imul(B[(k + 1) | 0], m));
            C[(i + 2) | 0] = A[(i + 2) | 0] & (((B[(j + 2) | 0] | 0) >>> sh) | Math.imul(B[(k + 2) | 0], m));
            C[(i + 3) | 0] = A[(i + 3) | 0] & (((B[(j + 3) | 0] | 0) >>> sh) | Math.imul(B[(k + 3) | 0], m));
        }
        for (; i < iEnd; i = (i + 1) | 0) C[i] = A[i] & (((B[(i + d) | 0] | 0) >>> sh) | Math.imul(B[(i + e) | 0], m));
    }
}

// C[from..to−1] = 0: a loop for the few words between strips (a fill() call costs more than it), fill() beyond.
function zero(C: Uint32Array, from: number, to: number): void {
    if (to - from > 32) C.fill(0, from, to);
    else for (; from < to; from = (from + 1) | 0) C[from] = 0;
}

/** The kernels in plain JavaScript, on `mask._words`. */
export const JS: Kernels = {
    any(a, b, c) {
        return bandHit(a, b, c, c.y0, c.y1, true);
    },

    // Bands of rows go across every strip before the next band (bandHit), so the band that holds the
    // first hit ends the scan however late the left strips' first hits are: the first band is 256 words
    // (8 rows at least), each next one 8 times the rows of the one before. A band costs a setup per strip:
    // a full scan of 1024² pays four (as fast as three bands 32 times apart), and a first hit 52 rows into
    // the blobs of bench/point-scenes.ts is found in a band of 64 rows, not 256 (2x faster). One strip is
    // one band.
    first(a, b, c, out) {
        const y1 = c.y1,
            strips = ((c.x1 - 1) >> 5) - (c.x0 >> 5) + 1;
        for (let yb = c.y0, h = strips === 1 ? y1 - yb : Math.max(8, (256 / strips) | 0); yb < y1; yb += h, h *= 8) {
            if (h > y1 - yb) h = y1 - yb;
            if (bandHit(a, b, c, yb, yb + h, false)) {
                out.x = hitX;
                out.y = hitY;
                return true;
            }
        }
        return false;
    },

    area(a, b, c) {
        const A = a._words,
            B = b._words,
            ah = a.height,
            bh = b.height,
            bStrips = b.strips,
            dx = c.dx;
        const rows = c.y1 - c.y0,
            n0 = c.y0 - c.dy,
            sh = -dx & 31;
        let n = 0;
        for (let s = c.x0 >> 5, sEnd = (c.x1 - 1) >> 5; s <= sEnd; s++) {
            const bs = ((s << 5) - dx) >> 5,
                i = s * ah + c.y0,
                kind = kindOf(bs, sh, bStrips);
            n += areaRun(A, B, i, i + rows, bs * bh + n0 - i + (kind === 1 ? bh : 0), bh, sh, kind);
        }
        return n;
    },

    // Zeros go between one strip's rows y1.. and the next strip's rows ..y0 (the strip layout).
    and(a, b, c, out) {
        const A = a._words,
            B = b._words,
            C = out._words,
            ah = a.height,
            bh = b.height,
            bStrips = b.strips,
            dx = c.dx;
        out._touch();
        const rows = c.y1 - c.y0,
            n0 = c.y0 - c.dy,
            sh = -dx & 31;
        let z = 0;
        for (let s = c.x0 >> 5, sEnd = (c.x1 - 1) >> 5; s <= sEnd; s++) {
            const bs = ((s << 5) - dx) >> 5,
                i = s * ah + c.y0,
                kind = kindOf(bs, sh, bStrips);
            zero(C, z, i);
            andRun(A, B, C, i, i + rows, bs * bh + n0 - i + (kind === 1 ? bh : 0), bh, sh, kind);
            z = i + rows;
        }
        zero(C, z, out.strips * ah);
    },

    or(a, b, c) {
        combineJS(a, b, c, 1);
    },

    andNot(a, b, c) {
        combineJS(a, b, c, 2);
    },

    fill(m, from, to, value) {
        m._words.fill(value, from, to);
        m._touch();
    },

    rgba(m, data, op, key, t) {
        const { _words: words, strips, width, height } = m;
        m._touch();
        const kr = key & 255,
            kg = (key >>> 8) & 255,
            kb = (key >>> 16) & 255;
        for (let y = 0; y < height; y++) {
            let p = y * width * 4;
            for (let s = 0; s < strips; s++) {
                const n = Math.min(32, width - (s << 5));
                let w = 0;
                if (op === 0) {
                    for (let bit = 0; bit < n; bit++, p += 4) if (data[p + 3] > t) w |= 1 << bit;
                } else {
                    for (let bit = 0; bit < n; bit++, p += 4) {
                        if (
                            Math.abs(data[p] - kr) > t ||
                            Math.abs(data[p + 1] - kg) > t ||
                            Math.abs(data[p + 2] - kb) > t
                        )
                            w |= 1 << bit;
                    }
                }
                words[s * height + y] = w;
            }
        }
        return true;
    }
};

// op 1: A |= B (padding kept clear); op 2: A &= ~B. The four loop kinds as in andRun; `keep` masks
// A's last strip, where B shifted right could reach the padding past A's width.
function combineJS(a: MaskWords, b: MaskWords, c: Clip, op: number): void {
    a._touch();
    const A = a._words,
        B = b._words,
        ah = a.height,
        bh = b.height,
        bStrips = b.strips,
        dx = c.dx;
    const rows = c.y1 - c.y0,
        n0 = c.y0 - c.dy,
        sh = -dx & 31,
        m = 1 << (32 - sh),
        lastStrip = a.strips - 1,
        edge = lastWordMask(a.width);
    for (let s = c.x0 >> 5, sEnd = (c.x1 - 1) >> 5; s <= sEnd; s++) {
        const bs = ((s << 5) - dx) >> 5,
            kind = kindOf(bs, sh, bStrips),
            keep = s === lastStrip ? edge : -1;
        let i = s * ah + c.y0;
        // The right edge (kind 2) as two words with m = 0, e = d (see row2).
        const iEnd = i + rows,
            d = bs * bh + n0 - i + (kind === 1 ? bh : 0),
            e = kind === 2 ? d : d + bh,
            m2 = kind === 2 ? 0 : m;
        if (op === 1) {
            if (kind === 0) for (; i < iEnd; i = (i + 1) | 0) A[i] |= B[(i + d) | 0] & keep;
            else if (kind === 1) for (; i < iEnd; i = (i + 1) | 0) A[i] |= Math.imul(B[(i + d) | 0], m) & keep;
            else {
                for (const i4 = (iEnd - 3) | 0; i < i4; i = (i + 4) | 0) {
                    const j = (i + d) | 0,
                        k = (i + e) | 0;
                    A[i] |= (((B[j] | 0) >>> sh) | Math.imul(B[k], m2)) & keep;
                    A[(i + 1) | 0] |= (((B[(j + 1) | 0] | 0) >>> sh) | Math.imul(B[(k + 1) | 0], m2)) & keep;
                    A[(i + 2) | 0] |= (((B[(j + 2) | 0] | 0) >>> sh) | Math.imul(B[(k + 2) | 0], m2)) & keep;
                    A[(i + 3) | 0] |= (((B[(j + 3) | 0] | 0) >>> sh) | Math.imul(B[(k + 3) | 0], m2)) & keep;
                }
                for (; i < iEnd; i = (i + 1) | 0)
                    A[i] |= (((B[(i + d) | 0] | 0) >>> sh) | Math.imul(B[(i + e) | 0], m2)) & keep;
            }
        } else {
            if (kind === 0) for (; i < iEnd; i = (i + 1) | 0) A[i] &= ~B[(i + d) | 0];
            else if (kind === 1) for (; i < iEnd; i = (i + 1) | 0) A[i] &= ~Math.imul(B[(i + d) | 0], m);
            else {
                for (const i4 = (iEnd - 3) | 0; i < i4; i = (i + 4) | 0) {
                    const j = (i + d) | 0,
                        k = (i + e) | 0;
                    A[i] &= ~(((B[j] | 0) >>> sh) | Math.imul(B[k], m2));
                    A[(i + 1) | 0] &= ~(((B[(j + 1) | 0] | 0) >>> sh) | Math.imul(B[(k + 1) | 0], m2));
                    A[(i + 2) | 0] &= ~(((B[(j + 2) | 0] | 0) >>> sh) | Math.imul(B[(k + 2) | 0], m2));
                    A[(i + 3) | 0] &= ~(((B[(j + 3) | 0] | 0) >>> sh) | Math.imul(B[(k + 3) | 0], m2));
                }
                for (; i < iEnd; i = (i + 1) | 0)
                    A[i] &= ~(((B[(i + d) | 0] | 0) >>> sh) | Math.imul(B[(i + e) | 0], m2));
            }
        }
    }
}
