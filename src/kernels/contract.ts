// What every kernel set implements, and the clip of B placed over A that each operation takes. The JS and the
// WebAssembly kernels both import it; kernels.ts picks between them.
import type { Point, RGBAData } from '../base/types.js';
import type { MaskWords } from './mask-words.js';

/** B placed at (dx, dy) over A, and their intersection x0..x1 × y0..y1 in A's pixels (set by {@link clip}). */
export interface Clip {
    dx: number;
    dy: number;
    x0: number;
    y0: number;
    x1: number;
    y1: number;
}

/** A fresh Clip to pass to {@link clip}. */
export function newClip(): Clip {
    return { dx: 0, dy: 0, x0: 0, y0: 0, x1: 0, y1: 0 };
}

/**
 * Clips B (bw × bh) placed at integer (dx, dy) against A (aw × ah) into `c`; false when they do not meet.
 * Compared as doubles before any int32 arithmetic, so huge offsets never wrap into a false hit.
 */
export function clip(aw: number, ah: number, bw: number, bh: number, dx: number, dy: number, c: Clip): boolean {
    if (dx >= aw || dy >= ah || dx <= -bw || dy <= -bh) return false;
    c.dx = dx;
    c.dy = dy;
    c.x0 = dx > 0 ? dx : 0;
    c.y0 = dy > 0 ? dy : 0;
    // Not Math.min: it compiled to double conversions and a −0 test here.
    c.x1 = aw < dx + bw ? aw : dx + bw;
    c.y1 = ah < dy + bh ? ah : dy + bh;
    return true;
}

/** The word-level operations, implemented by the JS kernels (js.ts) and the WebAssembly ones (kernels.ts). */
export interface Kernels {
    /** Whether a pixel is set in both A and B (B placed by the clip). */
    any(a: MaskWords, b: MaskWords, c: Clip): boolean;
    /** The first pixel set in both in row-major order, into `out`; false when none. */
    first(a: MaskWords, b: MaskWords, c: Clip, out: Point): boolean;
    /** Number of pixels set in both. */
    area(a: MaskWords, b: MaskWords, c: Clip): number;
    /**
     * `out = A & B` on the clip's rows of the clip's strips, every other word of out zeroed (out has A's size; out may
     * be A).
     */
    and(a: MaskWords, b: MaskWords, c: Clip, out: MaskWords): void;
    /** `A |= B` over the clip, padding past A's width kept clear (draw; never A === B here). */
    or(a: MaskWords, b: MaskWords, c: Clip): void;
    /** `A &= ~B` over the clip (erase; never A === B here). */
    andNot(a: MaskWords, b: MaskWords, c: Clip): void;
    /** Sets words from..to−1 of `m` to `value`. */
    fill(m: MaskWords, from: number, to: number, value: number): void;
    /**
     * Mask bits from RGBA pixels: op 0 alpha > t; op 1 some RGB channel differs from key (0xBBGGRR) by more than t.
     * False when it cannot run.
     */
    rgba(m: MaskWords, data: RGBAData, op: number, key: number, t: number): boolean;
}
