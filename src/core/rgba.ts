// RGBA pixels and mask words: the checks and options of Mask.fromRGBA and Mask.fromColorKey (the kernels
// convert the pixels), and words back to pixels for toRGBA. Works on words, not masks: mask.ts imports it.
import { checkInt, checkSize, outOfRange, rangeError, typeError } from '../base/check.js';
import { isOptions } from '../base/check-types.js';
import type { RGBAData } from '../base/types.js';

/** Options of `Mask.fromRGBA`. */
export interface ThresholdOptions {
    /** A pixel is solid where its alpha is strictly greater than this (0..255). @default 127 */
    threshold?: number;
}

/** Options of `Mask.fromColorKey`. */
export interface ColorKeyOptions {
    /** A pixel is solid where some channel differs from the key by more than this (0..255). @default 0 */
    tolerance?: number;
}

/** A colour key: `0xRRGGBB` or `[r, g, b]`. */
export type ColorKey = number | readonly [number, number, number];

/** Colours of `toRGBA`, `0xRRGGBBAA`. */
export interface RGBAColors {
    /** Colour of set pixels. @default 0xffffffff */
    onColor?: number;
    /** Colour of clear pixels. @default 0x00000000 */
    offColor?: number;
}

/** Throws unless `data` holds `width` × `height` RGBA pixels. */
export function checkRGBA(data: unknown, width: number, height: number): asserts data is RGBAData {
    checkSize('width', width);
    checkSize('height', height);
    if (!(data instanceof Uint8Array || data instanceof Uint8ClampedArray)) {
        throw typeError('data', 'a Uint8Array or Uint8ClampedArray of RGBA pixels', data);
    }
    if (data.length !== width * height * 4) {
        throw outOfRange(
            `data has length ${data.length}, expected ${width * height * 4} (${width}x${height} pixels, 4 bytes each).`
        );
    }
}

/** The alpha threshold of fromRGBA's options. */
export function thresholdOf(options: ThresholdOptions): number {
    if (!isOptions(options)) throw typeError('options', 'an object like { threshold }', options);
    return checkInt('threshold', options.threshold ?? 127, 0, 255);
}

/** A colour key as the kernels take it, `0xBBGGRR`. */
export function colorKeyOf(key: ColorKey): number {
    if (typeof key === 'number') {
        checkInt('color key', key, 0, 0xffffff);
        return (key >>> 16) | (key & 0xff00) | ((key & 255) << 16);
    }
    if (Array.isArray(key) && key.length === 3) {
        return (
            checkInt('color key red', key[0], 0, 255) |
            (checkInt('color key green', key[1], 0, 255) << 8) |
            (checkInt('color key blue', key[2], 0, 255) << 16)
        );
    }
    throw typeError('color key', '0xRRGGBB or [r, g, b]', key);
}

/** The tolerance of fromColorKey's options. */
export function toleranceOf(options: ColorKeyOptions): number {
    if (!isOptions(options)) throw typeError('options', 'an object like { tolerance }', options);
    return checkInt('tolerance', options.tolerance ?? 0, 0, 255);
}

/**
 * RGBA pixels of a mask's words (strip layout, `width` × `height`): `onColor` where set, `offColor` elsewhere,
 * both `0xRRGGBBAA`; written into `out` (length width·height·4) when given. The options are checked here.
 */
export function wordsToRGBA(
    words: Uint32Array,
    width: number,
    height: number,
    options: RGBAColors,
    out: Uint8ClampedArray | Uint8Array | undefined
): Uint8ClampedArray | Uint8Array {
    // An array or number here is 0.1's trailing colours (toRGBA(on, off, out)): refused, not read as defaults.
    if (!isOptions(options)) throw typeError('options', 'an object like { onColor, offColor }', options);
    const onColor = checkInt('onColor', options.onColor ?? 0xffffffff, 0, 0xffffffff);
    const offColor = checkInt('offColor', options.offColor ?? 0x00000000, 0, 0xffffffff);
    const n = width * height * 4;
    if (out === undefined) {
        // The engine's own limit on one array (2^32 bytes in V8 today, less in some browsers), said our way.
        try {
            out = new Uint8ClampedArray(n);
        } catch (e) {
            throw outOfRange(
                `toRGBA(): a ${width}x${height} mask needs ${n} bytes of RGBA, more than this JavaScript engine allocates in one array; convert it in tiles (crop(mask, x, y, w, h) for each).`,
                e
            );
        }
    } else if (!(out instanceof Uint8ClampedArray || out instanceof Uint8Array) || out.length !== n) {
        throw rangeError('out', `a Uint8ClampedArray or Uint8Array of length ${n}`, out);
    }
    const bit = (x: number, y: number): boolean => ((words[(x >>> 5) * height + y] >>> (x & 31)) & 1) !== 0;
    const le = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
    const swap = (c: number) =>
        le ? (((c & 0xff) << 24) | ((c & 0xff00) << 8) | ((c >>> 8) & 0xff00) | (c >>> 24)) >>> 0 : c;
    const on = swap(onColor),
        off = swap(offColor);
    if (out.byteOffset % 4 !== 0) {
        for (let y = 0, p = 0; y < height; y++) {
            for (let x = 0; x < width; x++, p += 4) {
                const c = bit(x, y) ? onColor : offColor;
                out[p] = c >>> 24;
                out[p + 1] = (c >>> 16) & 255;
                out[p + 2] = (c >>> 8) & 255;
                out[p + 3] = c & 255;
            }
        }
        return out;
    }
    // One 32-bit store per pixel in the platform's byte order instead of four byte stores.
    const px = new Uint32Array(out.buffer, out.byteOffset, width * height);
    for (let y = 0, p = 0; y < height; y++) {
        for (let x = 0; x < width; x++, p++) px[p] = bit(x, y) ? on : off;
    }
    return out;
}
