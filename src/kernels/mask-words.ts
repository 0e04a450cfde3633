// What a kernel reads of a mask. core/mask.ts's Mask satisfies it structurally, so the kernels need
// nothing from the layers above them.

/** A mask as the kernels see it: its size and its words in the strip layout (see core/mask.ts). */
export interface MaskWords {
    /** Width in pixels. */
    readonly width: number;
    /** Height in pixels. */
    readonly height: number;
    /** Number of 32-pixel strips, `ceil(width / 32)`. */
    readonly strips: number;
    /**
     * Packed bits, `strips * height` words: the word of pixel (x, y) is `words[(x >>> 5) * height + y]`, at bit
     * `x & 31`. For reading.
     */
    readonly _words: Uint32Array;
    /** Byte offset of the words in WebAssembly memory; −1 for words on the JS heap. */
    readonly _ptr: number;
    /**
     * Tells the mask its words changed (it drops what it knows of its pixels): every kernel that writes a mask
     * calls it.
     */
    _touch(): void;
}

// The parts above the kernels that read a mask's words themselves (the ray walk, the contour tracer, a World
// snapshot's hash) reach them through these, so a field of Mask is read only by its own part and the kernels.

/** @internal A mask's words, for reading: unlike Mask's public `words`, keeps what the mask knows of its pixels. */
export function wordsOf(m: MaskWords): Uint32Array {
    return m._words;
}

/** @internal Tells `m` its words were written through {@link wordsOf}: whoever writes them calls it after. */
export function touchWords(m: MaskWords): void {
    m._touch();
}

/** @internal Whether `m`'s words equal `copy` (taken from them earlier): how a cache notices edits. */
export function sameWords(m: MaskWords, copy: Uint32Array): boolean {
    const a = m._words,
        n = a.length;
    if (n !== copy.length) return false;
    // Four words a test: a cache asks on every use (a moveAndSlide of a small move), and this is its cost.
    let i = 0;
    for (; i + 4 <= n; i += 4)
        if (((a[i] ^ copy[i]) | (a[i + 1] ^ copy[i + 1]) | (a[i + 2] ^ copy[i + 2]) | (a[i + 3] ^ copy[i + 3])) !== 0)
            return false;
    for (; i < n; i++) if (a[i] !== copy[i]) return false;
    return true;
}
