// The word-parallel 4-connected flood fill of debris/ (detachIslands): whole 32-pixel words at a time, never a
// pixel at a time. JavaScript only: the work is a chain of dependent words with a branch each, where WebAssembly
// SIMD's four lanes find nothing to do side by side. Words are in the strip layout of core/mask.ts (the word of
// pixel (x, y) is `[(x >>> 5) * height + y]`, bit `x & 31`), as Int32Array views, so nothing is a heap number.
//
// A flood runs over two planes of the same size: `solid`, the pixels it may cover, and `open`, whose set bits
// under `solid` are the pixels not reached yet. A pixel is reached by clearing it in `open`; the reached set is
// `solid & ~open`. detachIslands floods twice with it: from the anchors over the terrain (open: a copy of the
// terrain, which ends holding the detached pixels), then each island over that copy (open: the terrain itself,
// which so loses the island's pixels as it is found).
//
// Work: a word is processed again only when it gains pixels, so at most 33 times; in practice once (52,464 times
// for 52,455 solid words on Hedgewars' Cave: a stack entry of a word that a walk settled is skipped). A popped
// word fills its runs of solid pixels from its reached ones (two Kogge-Stone passes, 5 steps each way), then
// walks down and up its strip while the next word gains pixels, so a vertical band of terrain costs one pass.
// Words that gain pixels in the next strip, or that a walk passes back up to, wait in `pending` (a bit per word)
// and on a stack; when the stack is full they wait in the bits alone and a scan of the bits finds them, so the
// memory is a 32nd of a plane for each, whatever the terrain.
import { popcnt } from '../base/bits.js';

/** @internal The scratch of {@link flood} over a plane of `words` words: its pending words, as bits and a stack. */
export interface FloodScratch {
    /** Bit `i & 31` of `pending[i >>> 5]`: word i has pixels that are reached but not yet spread. */
    readonly pending: Int32Array;
    /** Indices of pending words, `sp` of them; a pending word may be missing (the stack was full: `overflow`). */
    readonly stack: Int32Array;
    sp: number;
    overflow: boolean;
    /** Box of the words that gained pixels since {@link resetBox}: strips s0..s1 and rows y0..y1, inclusive. */
    s0: number;
    s1: number;
    y0: number;
    y1: number;
}

/**
 * @internal Words the floods have processed, and scans of the pending bits after a full stack, since the module was
 * loaded: the counted work of the tests.
 */
export const floodWork = { words: 0, rescans: 0 };

/** @internal Scratch for planes of `words` words: 2 × words / 32 words of memory, at least 1,024 stack slots. */
export function newFloodScratch(words: number): FloodScratch {
    const cap = Math.min(Math.max(words, 1), Math.max(1024, words >>> 5));
    const f: FloodScratch = {
        pending: new Int32Array((words + 31) >>> 5),
        stack: new Int32Array(cap),
        sp: 0,
        overflow: false,
        s0: 0,
        s1: 0,
        y0: 0,
        y1: 0
    };
    resetBox(f);
    return f;
}

/** @internal Empties the box of {@link FloodScratch} (s0 > s1 until a word gains pixels). */
export function resetBox(f: FloodScratch): void {
    f.s0 = f.y0 = 0x7fffffff;
    f.s1 = f.y1 = -1;
}

// Marks word i pending (its pixels were reached, their spread is owed).
function mark(f: FloodScratch, i: number): void {
    const b = 1 << (i & 31);
    if ((f.pending[i >>> 5] & b) !== 0) return;
    f.pending[i >>> 5] |= b;
    if (f.sp < f.stack.length) f.stack[f.sp++] = i;
    else f.overflow = true;
}

// The runs of `s` that hold a bit of `r` (r within s): the reached runs of one word, in both directions.
function fillRuns(r: number, s: number): number {
    if (r === 0 || s === -1) return r === 0 ? 0 : -1;
    let g = r,
        p = s;
    g |= p & (g << 1);
    p &= p << 1;
    g |= p & (g << 2);
    p &= p << 2;
    g |= p & (g << 4);
    p &= p << 4;
    g |= p & (g << 8);
    p &= p << 8;
    g |= p & (g << 16);
    p = s;
    g |= p & (g >>> 1);
    p &= p >>> 1;
    g |= p & (g >>> 2);
    p &= p >>> 2;
    g |= p & (g >>> 4);
    p &= p >>> 4;
    g |= p & (g >>> 8);
    p &= p >>> 8;
    g |= p & (g >>> 16);
    return g;
}

// Fills word i (strip `strip`, row y) from its reached pixels, hands the end pixels of its runs across to the strips
// left and right, and clears its pending bit (a stale entry of it on the stack is skipped); returns its reached
// pixels.
function settle(
    solid: Int32Array,
    open: Int32Array,
    i: number,
    strip: number,
    y: number,
    h: number,
    strips: number,
    f: FloodScratch
): number {
    const s = solid[i];
    const full = fillRuns(s & ~open[i], s);
    if ((open[i] & full) !== 0) open[i] &= ~full;
    f.pending[i >>> 5] &= ~(1 << (i & 31));
    floodWork.words++;
    if ((full & 1) !== 0 && strip > 0) {
        const j = i - h;
        if ((solid[j] & open[j] & 0x80000000) !== 0) {
            open[j] &= 0x7fffffff;
            gained(f, strip - 1, y);
            mark(f, j);
        }
    }
    if (full < 0 && strip < strips - 1) {
        const j = i + h;
        if ((solid[j] & open[j] & 1) !== 0) {
            open[j] &= ~1;
            gained(f, strip + 1, y);
            mark(f, j);
        }
    }
    return full;
}

// Grows the box by the word of strip s, row y.
function gained(f: FloodScratch, s: number, y: number): void {
    if (s < f.s0) f.s0 = s;
    if (s > f.s1) f.s1 = s;
    if (y < f.y0) f.y0 = y;
    if (y > f.y1) f.y1 = y;
}

/**
 * @internal Reaches `bits` of word i (bits within `solid[i]`, none reached yet) and marks the word pending: a seed of
 * the next {@link flood}.
 */
export function seed(open: Int32Array, i: number, bits: number, h: number, f: FloodScratch): void {
    if (bits === 0) return;
    open[i] &= ~bits;
    const s = (i / h) | 0;
    gained(f, s, i - s * h);
    mark(f, i);
}

/**
 * @internal Spreads the reached pixels of every pending word over `solid`'s 4-connected pixels until nothing more is
 * reached (see the header); `open` loses every pixel reached, the box grows by every word that gained one.
 */
export function flood(solid: Int32Array, open: Int32Array, h: number, strips: number, f: FloodScratch): void {
    const pending = f.pending,
        stack = f.stack;
    for (;;) {
        while (f.sp > 0) {
            const i = stack[--f.sp];
            // Settled by a walk since it was pushed.
            if ((pending[i >>> 5] & (1 << (i & 31))) === 0) continue;
            const strip = (i / h) | 0,
                top = i - strip * h;
            const full = settle(solid, open, i, strip, top, h, strips, f);
            // Down the strip while the next word gains pixels; a word that spreads back up marks the one above.
            let prev = full;
            for (let j = i + 1, y = top + 1; y < h; j++, y++) {
                const g = prev & solid[j] & open[j];
                if (g === 0) break;
                open[j] &= ~g;
                gained(f, strip, y);
                prev = settle(solid, open, j, strip, y, h, strips, f);
                const back = prev & solid[j - 1] & open[j - 1];
                if (back !== 0) seed(open, j - 1, back, h, f);
            }
            prev = full;
            for (let j = i - 1, y = top - 1; y >= 0; j--, y--) {
                const g = prev & solid[j] & open[j];
                if (g === 0) break;
                open[j] &= ~g;
                gained(f, strip, y);
                prev = settle(solid, open, j, strip, y, h, strips, f);
                const back = prev & solid[j + 1] & open[j + 1];
                if (back !== 0) seed(open, j + 1, back, h, f);
            }
        }
        if (!f.overflow) return;
        // The stack overflowed: refill it from the pending bits (they hold every pending word).
        f.overflow = false;
        floodWork.rescans++;
        for (let k = 0; k < pending.length && !f.overflow; k++)
            for (let b = pending[k]; b !== 0; b &= b - 1) {
                if (f.sp === stack.length) {
                    f.overflow = true;
                    break;
                }
                stack[f.sp++] = (k << 5) | (31 - Math.clz32(b & -b));
            }
    }
}

/**
 * @internal Seeds the solid, unreached pixels of the rectangle x0..x1 × y0..y1 (exclusive ends, already clipped to
 * the plane, x1 > x0 and y1 > y0).
 */
export function seedRect(
    solid: Int32Array,
    open: Int32Array,
    h: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    f: FloodScratch
): void {
    for (let s = x0 >>> 5, last = (x1 - 1) >>> 5; s <= last; s++) {
        const lo = Math.max(x0 - (s << 5), 0),
            hi = Math.min(x1 - (s << 5), 32);
        const bits = hi - lo === 32 ? -1 : ((1 << (hi - lo)) - 1) << lo;
        for (let i = s * h + y0, e = s * h + y1; i < e; i++) seed(open, i, bits & solid[i] & open[i], h, f);
    }
}

/**
 * @internal Seeds the solid, unreached pixels of a plane of `h` rows and `strips` strips (valid bits `last` in its
 * last strip) that lie on or beside (one of 4 neighbours) a set pixel of `a`, a plane of `ah` rows and
 * `aStrips` strips at the same origin; `a`'s pixels outside the plane do not count.
 */
export function seedNear(
    solid: Int32Array,
    open: Int32Array,
    h: number,
    strips: number,
    last: number,
    a: Int32Array,
    ah: number,
    aStrips: number,
    f: FloodScratch
): void {
    const rows = Math.min(h, ah),
        cols = Math.min(strips, aStrips);
    // Word (s, y) of `a`, cut to the plane.
    const at = (s: number, y: number): number =>
        s < 0 || s >= cols || y < 0 || y >= rows ? 0 : s === strips - 1 ? a[s * ah + y] & last : a[s * ah + y];
    // Only rows and strips where `a` has words, and one more each way, can take seeds.
    for (let s = 0; s < Math.min(strips, cols + 1); s++)
        for (let y = 0, i = s * h; y < Math.min(h, rows + 1); y++, i++) {
            const free = solid[i] & open[i];
            if (free === 0) continue;
            const w = at(s, y);
            const near =
                w | (w << 1) | (w >>> 1) | (at(s - 1, y) >>> 31) | (at(s + 1, y) << 31) | at(s, y - 1) | at(s, y + 1);
            seed(open, i, near & free, h, f);
        }
}

/** @internal Number of pixels set in `a & ~b` over strips s0..s1, rows y0..y1 (inclusive). */
export function countAndNot(
    a: Int32Array,
    b: Int32Array,
    h: number,
    s0: number,
    s1: number,
    y0: number,
    y1: number
): number {
    let n = 0;
    for (let s = s0; s <= s1; s++) for (let i = s * h + y0, e = s * h + y1; i <= e; i++) n += popcnt(a[i] & ~b[i]);
    return n;
}
