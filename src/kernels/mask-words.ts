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
    /** Packed bits, `strips * height` words: the word of pixel (x, y) is `words[(x >>> 5) * height + y]`, at bit `x & 31`. For reading. */
    readonly _words: Uint32Array;
    /** Byte offset of the words in WebAssembly memory; −1 for words on the JS heap. */
    readonly _ptr: number;
    /** Tells the mask its words changed (it drops what it knows of its pixels): every kernel that writes a mask calls it. */
    _touch(): void;
}
