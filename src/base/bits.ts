// Word-level helpers shared by every mask kernel. Words are 32-bit, pixel x = 0 is the least-significant bit.

/** Number of set bits in a 32-bit word (SWAR; JS has no popcount instruction). */
export function popcnt(v: number): number {
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Index of the lowest set bit of a non-zero word. */
export function ctz(v: number): number {
    return 31 - Math.clz32(v & -v);
}

/** Index of the highest set bit of a non-zero word. */
export function msb(v: number): number {
    return 31 - Math.clz32(v);
}

/** Reverses the 32 bits of a word. */
export function rev32(v: number): number {
    v = ((v >>> 1) & 0x55555555) | ((v & 0x55555555) << 1);
    v = ((v >>> 2) & 0x33333333) | ((v & 0x33333333) << 2);
    v = ((v >>> 4) & 0x0f0f0f0f) | ((v & 0x0f0f0f0f) << 4);
    v = ((v >>> 8) & 0x00ff00ff) | ((v & 0x00ff00ff) << 8);
    return ((v >>> 16) | (v << 16)) >>> 0;
}

/** Sum of the bit positions of the set bits of a word (Σx over one word's pixels). */
export function bitIndexSum(v: number): number {
    return (
        popcnt(v & 0xaaaaaaaa) +
        2 * popcnt(v & 0xcccccccc) +
        4 * popcnt(v & 0xf0f0f0f0) +
        8 * popcnt(v & 0xff00ff00) +
        16 * popcnt(v & 0xffff0000)
    );
}

/** Mask of the valid bits in the last word of a row `width` pixels wide (all ones when width is a multiple of 32). */
export function lastWordMask(width: number): number {
    const r = width & 31;
    return r === 0 ? 0xffffffff : 0xffffffff >>> (32 - r);
}

/** Mask of bits lo..hi-1 of one word (0 <= lo < hi <= 32). */
export function bitRange(lo: number, hi: number): number {
    return ((0xffffffff >>> (32 - (hi - lo))) << lo) >>> 0;
}
