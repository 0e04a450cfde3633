// The public decoding entry points: format detection, file loading, the decode budget, error labels.
import { checkInt, typeError } from '../base/check.js';
import { checkObject } from '../base/check-types.js';
import { decodeApng } from './apng.js';
import { decodeGif, gifScreen } from './gif.js';
import { Budget, DEFAULT_MAX_BYTES, type ImageFrame, type RGBAImage } from './image.js';
import { Mask } from '../core/mask.js';
import { touchWords, wordsOf } from '../kernels/mask-words.js';
import { decodeRaster, PNG_SIGNATURE, scanPng } from './png.js';
import { readInput } from './read.js';
import { stillPngMask } from './pngmask.js';

export { DEFAULT_MAX_BYTES, type ImageFrame, type RGBAImage } from './image.js';

/** Options of {@link readImage} and {@link readFrames}. */
export interface DecodeOptions {
    /**
     * Largest decoded size accepted for one file, in bytes of RGBA: all frames together, plus GIF pixels decoded
     * outside the screen; checked before each allocation. A file read from a path may not be larger either (checked
     * while it is read). @default 268435456 (256 MiB)
     */
    maxBytes?: number;
}

/** Decodes a PNG or GIF file (path or bytes) to RGBA; for an animation, its first frame (a PNG's default image). */
export async function readImage(source: string | Uint8Array, options: DecodeOptions = {}): Promise<RGBAImage> {
    const { bytes, label } = await load(source, options);
    return withLabel(label, () => decodeImage(bytes, options));
}

/**
 * Decodes every frame of an animated GIF or APNG (path or bytes), each composited on the full canvas; a still image
 * gives one frame.
 */
export async function readFrames(source: string | Uint8Array, options: DecodeOptions = {}): Promise<ImageFrame[]> {
    const { bytes, label } = await load(source, options);
    return withLabel(label, () => decodeFrames(bytes, options));
}

/** Synchronous {@link readImage} on bytes already in memory; for an APNG, its default image. */
export function decodeImage(bytes: Uint8Array, options: DecodeOptions = {}): RGBAImage {
    const budget = new Budget(maxBytes(options));
    if (isPng(bytes)) {
        const info = scanPng(bytes);
        budget.image(info.width, info.height);
        return decodeRaster(info, info.width, info.height, info.idat, 'PNG', bytes);
    }
    if (isGif(bytes)) {
        const [f] = decodeGif(bytes, budget, true);
        return { width: f.width, height: f.height, data: f.data };
    }
    throw unknownFormat(bytes);
}

/**
 * Synchronous {@link readFrames} on bytes already in memory; an APNG whose default image is not a frame gives only its
 * frames.
 */
export function decodeFrames(bytes: Uint8Array, options: DecodeOptions = {}): ImageFrame[] {
    const budget = new Budget(maxBytes(options));
    if (isPng(bytes)) {
        const info = scanPng(bytes);
        if (info.frames.length > 0) return decodeApng(info, budget);
        budget.image(info.width, info.height);
        return [{ ...decodeRaster(info, info.width, info.height, info.idat, 'PNG', bytes), delay: 0 }];
    }
    if (isGif(bytes)) return decodeGif(bytes, budget, false);
    throw unknownFormat(bytes);
}

/**
 * The mask (alpha > `threshold`) of a still PNG, straight from its scanlines, bit-identical to thresholding
 * {@link decodeImage}'s RGBA and charged to the same budget; null for any other file (GIF, APNG), which must go
 * through RGBA.
 */
export function decodePngMask(bytes: Uint8Array, threshold: number, options: DecodeOptions = {}): Mask | null {
    const limit = maxBytes(options);
    if (!(bytes instanceof Uint8Array)) throw unknownFormat(bytes);
    let mask: Mask | null = null;
    stillPngMask(bytes, threshold, limit, (width, height) => wordsOf((mask = new Mask(width, height))));
    // The callback's mask was written after it was made: it is told so (the content-box rule of core/mask.ts).
    const made = mask as Mask | null;
    if (made !== null) touchWords(made);
    return made;
}

/** Width and height from an image header (PNG or GIF) without decoding it. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } {
    if (isPng(bytes)) {
        const { width, height } = scanPng(bytes);
        return { width, height };
    }
    if (isGif(bytes)) return gifScreen(bytes);
    throw unknownFormat(bytes);
}

// A path is read under the decode budget (no file larger than its pixels may be) and may name a device or FIFO
// (e.g. /dev/stdin): what the caller names explicitly is read, up to the budget.
async function load(
    source: string | Uint8Array,
    options: DecodeOptions
): Promise<{ bytes: Uint8Array; label: string }> {
    if (source instanceof Uint8Array) return { bytes: source, label: '' };
    if (typeof source !== 'string') throw typeError('source', 'a file path or a Uint8Array', source);
    return { bytes: await readInput(source, maxBytes(options), 'image'), label: source };
}

function withLabel<T>(label: string, fn: () => T): T {
    try {
        return fn();
    } catch (e) {
        if (label && e instanceof Error) e.message = `${label}: ${e.message}`;
        throw e;
    }
}

function maxBytes(options: DecodeOptions): number {
    checkObject('options', options);
    return checkInt('maxBytes', options.maxBytes ?? DEFAULT_MAX_BYTES, 0, Number.MAX_SAFE_INTEGER);
}

function isPng(b: Uint8Array): boolean {
    return b.length >= 8 && PNG_SIGNATURE.every((v, i) => b[i] === v);
}

function isGif(b: Uint8Array): boolean {
    return (
        b.length >= 6 &&
        b[0] === 0x47 &&
        b[1] === 0x49 &&
        b[2] === 0x46 &&
        b[3] === 0x38 &&
        (b[4] === 0x37 || b[4] === 0x39) &&
        b[5] === 0x61
    );
}

function unknownFormat(b: Uint8Array): Error {
    if (!(b instanceof Uint8Array)) return typeError('bytes', 'a Uint8Array', b);
    const head = Array.from(b.subarray(0, 8), v => v.toString(16).padStart(2, '0')).join(' ');
    return new Error(`Unsupported image format (first bytes: ${head || 'none'}); expected a PNG or GIF file.`);
}
