// Conversions between masks and RGBA pixels: alpha threshold, colour key, and back for debug drawing.
import { checkInt, checkSize, describe } from '../base/check.js';
import { JS, pickFor } from '../kernels/kernels.js';
import { checkMask, getBit, Mask, UNZEROED, type RGBAData } from './mask.js';

/** Options of {@link Mask.fromRGBA}. */
export interface ThresholdOptions {
    /** A pixel is solid where its alpha is strictly greater than this (0..255). @default 127 */
    threshold?: number;
}

/** Options of {@link Mask.fromColorKey}. */
export interface ColorKeyOptions {
    /** A pixel is solid where some channel differs from the key by more than this (0..255). @default 0 */
    tolerance?: number;
}

/** A colour key: `0xRRGGBB` or `[r, g, b]`. */
export type ColorKey = number | readonly [number, number, number];

/** Colours of {@link toRGBA}, `0xRRGGBBAA`. */
export interface RGBAColors {
    /** Colour of set pixels. @default 0xffffffff */
    onColor?: number;
    /** Colour of clear pixels. @default 0x00000000 */
    offColor?: number;
}

/** A mask where alpha > `threshold` (pygame's rule). */
export function fromRGBA(data: RGBAData, width: number, height: number, options: ThresholdOptions): Mask {
    checkRGBA(data, width, height);
    if (options == null || typeof options !== 'object') throw new TypeError(`options must be an object like { threshold }, got ${describe(options)}.`);
    const t = checkInt('threshold', options.threshold ?? 127, 0, 255);
    return fromPixels(data, width, height, 0, 0, t);
}

/** A mask where some RGB channel differs from `key` by more than `tolerance`; alpha is ignored. */
export function fromColorKey(data: RGBAData, width: number, height: number, key: ColorKey, options: ColorKeyOptions): Mask {
    checkRGBA(data, width, height);
    let kr: number, kg: number, kb: number;
    if (typeof key === 'number') {
        checkInt('color key', key, 0, 0xffffff);
        kr = key >>> 16; kg = (key >>> 8) & 255; kb = key & 255;
    } else if (Array.isArray(key) && key.length === 3) {
        kr = checkInt('color key red', key[0], 0, 255);
        kg = checkInt('color key green', key[1], 0, 255);
        kb = checkInt('color key blue', key[2], 0, 255);
    } else {
        throw new TypeError(`color key must be 0xRRGGBB or [r, g, b], got ${describe(key)}.`);
    }
    if (options == null || typeof options !== 'object') throw new TypeError(`options must be an object like { tolerance }, got ${describe(options)}.`);
    const tol = checkInt('tolerance', options.tolerance ?? 0, 0, 255);
    return fromPixels(data, width, height, 1, kr | (kg << 8) | (kb << 16), tol);
}

// fromRGBA (op 0, threshold t) and fromColorKey (op 1, key 0xBBGGRR, tolerance t): the kernel writes
// every word. WebAssembly from wasmMinWords full words of pixels (break-even: 16x16 px ran 0.96x the
// JS time, 8x8 1.3x, 32x16 0.58x); JS when the WebAssembly kernel has no scratch memory left.
function fromPixels(data: RGBAData, width: number, height: number, op: number, key: number, t: number): Mask {
    const m = new Mask(width, height, UNZEROED);
    if (m.strips * height === 0) return m;
    if (!pickFor(m, null, width * height >> 5).rgba(m, data, op, key, t)) JS.rgba(m, data, op, key, t);
    return m;
}

function checkRGBA(data: unknown, width: number, height: number): void {
    checkSize('width', width);
    checkSize('height', height);
    if (!(data instanceof Uint8Array || data instanceof Uint8ClampedArray)) {
        throw new TypeError(`data must be a Uint8Array or Uint8ClampedArray of RGBA pixels, got ${describe(data)}.`);
    }
    if (data.length !== width * height * 4) {
        throw new RangeError(`data has length ${data.length}, expected ${width * height * 4} (${width}x${height} pixels, 4 bytes each).`);
    }
}

/**
 * RGBA pixels of `mask` for debug drawing (e.g. `new ImageData(toRGBA(mask), w, h)`): `onColor` where set,
 * `offColor` elsewhere, both `0xRRGGBBAA`; written into `out` (length width·height·4) when given.
 */
export function toRGBA(mask: Mask, options: RGBAColors = {}, out?: Uint8ClampedArray | Uint8Array): Uint8ClampedArray | Uint8Array {
    checkMask(mask, 'mask');
    const m = mask;
    // An array or number here is 0.1's trailing colours (toRGBA(on, off, out)): refused, not read as defaults.
    if (options == null || typeof options !== 'object' || Array.isArray(options) || ArrayBuffer.isView(options)) throw new TypeError(`options must be an object like { onColor, offColor }, got ${describe(options)}.`);
    const onColor = checkInt('onColor', options.onColor ?? 0xffffffff, 0, 0xffffffff);
    const offColor = checkInt('offColor', options.offColor ?? 0x00000000, 0, 0xffffffff);
    const { width, height } = m;
    const n = width * height * 4;
    if (out === undefined) {
        // The engine's own limit on one array (2^32 bytes in V8 today, less in some browsers), said our way.
        try {
            out = new Uint8ClampedArray(n);
        } catch (e) {
            throw new RangeError(`toRGBA(): a ${width}x${height} mask needs ${n} bytes of RGBA, more than this JavaScript engine allocates in one array; convert it in tiles (crop(mask, x, y, w, h) for each).`, { cause: e });
        }
    }
    else if (!(out instanceof Uint8ClampedArray || out instanceof Uint8Array) || out.length !== n) {
        throw new RangeError(`out must be a Uint8ClampedArray or Uint8Array of length ${n}, got ${describe(out)}.`);
    }
    const le = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
    const swap = (c: number) => le ? (((c & 0xff) << 24) | ((c & 0xff00) << 8) | ((c >>> 8) & 0xff00) | (c >>> 24)) >>> 0 : c;
    const on = swap(onColor), off = swap(offColor);
    if (out.byteOffset % 4 !== 0) {
        for (let y = 0, p = 0; y < height; y++) {
            for (let x = 0; x < width; x++, p += 4) {
                const c = getBit(m, x, y) ? onColor : offColor;
                out[p] = c >>> 24; out[p + 1] = (c >>> 16) & 255; out[p + 2] = (c >>> 8) & 255; out[p + 3] = c & 255;
            }
        }
        return out;
    }
    // One 32-bit store per pixel in the platform's byte order instead of four byte stores.
    const px = new Uint32Array(out.buffer, out.byteOffset, width * height);
    for (let y = 0, p = 0; y < height; y++) {
        for (let x = 0; x < width; x++, p++) px[p] = getBit(m, x, y) ? on : off;
    }
    return out;
}
