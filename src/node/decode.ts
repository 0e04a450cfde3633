import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import type UPNG from 'upng-js';
import { crc32 } from '../crc32.js';
import { checkInt, describe } from '../check.js';
import { decodeGif, gifScreen } from './gif.js';
import { checkBudget, DEFAULT_MAX_BYTES, type ImageFrame, type RGBAImage } from './image.js';

export { DEFAULT_MAX_BYTES, type ImageFrame, type RGBAImage } from './image.js';

/** Options of {@link readImage} and {@link readFrames}. */
export interface DecodeOptions {
    /** Largest decoded size accepted, in bytes of RGBA (all frames together); checked from the header before decoding. @default 268435456 (256 MiB) */
    maxBytes?: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Decodes a PNG or GIF file (path or bytes) to RGBA; for an animation, its first frame (a PNG's default image). */
export async function readImage(source: string | Uint8Array, options: DecodeOptions = {}): Promise<RGBAImage> {
    const { bytes, label } = await load(source);
    return withLabel(label, () => decodeImage(bytes, options));
}

/** Decodes every frame of an animated GIF or APNG (path or bytes), each composited on the full canvas; a still image gives one frame. */
export async function readFrames(source: string | Uint8Array, options: DecodeOptions = {}): Promise<ImageFrame[]> {
    const { bytes, label } = await load(source);
    return withLabel(label, () => decodeFrames(bytes, options));
}

/** Synchronous {@link readImage} on bytes already in memory. */
export function decodeImage(bytes: Uint8Array, options: DecodeOptions = {}): RGBAImage {
    const budget = maxBytes(options);
    if (isPng(bytes)) {
        const info = scanPng(bytes);
        checkBudget(info.width, info.height, 1, budget);
        return decodePng(bytes, info);
    }
    if (isGif(bytes)) {
        const [f] = decodeGif(bytes, budget, true);
        return { width: f.width, height: f.height, data: f.data };
    }
    throw unknownFormat(bytes);
}

/** Synchronous {@link readFrames} on bytes already in memory. */
export function decodeFrames(bytes: Uint8Array, options: DecodeOptions = {}): ImageFrame[] {
    const budget = maxBytes(options);
    if (isPng(bytes)) {
        const info = scanPng(bytes);
        if (info.frames === 0) {
            checkBudget(info.width, info.height, 1, budget);
            return [{ ...decodePng(bytes, info), delay: 0 }];
        }
        checkBudget(info.width, info.height, info.frames, budget);
        return decodeApng(bytes, info);
    }
    if (isGif(bytes)) return decodeGif(bytes, budget, false);
    throw unknownFormat(bytes);
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

async function load(source: string | Uint8Array): Promise<{ bytes: Uint8Array; label: string }> {
    if (source instanceof Uint8Array) return { bytes: source, label: '' };
    if (typeof source !== 'string') throw new TypeError(`source must be a file path or a Uint8Array, got ${describe(source)}.`);
    try {
        return { bytes: await readFile(source), label: source };
    } catch (e) {
        const err = e as NodeJS.ErrnoException;
        throw new Error(`Cannot read image ${JSON.stringify(source)}: ${err.code === 'ENOENT' ? 'no such file' : err.message}.`, { cause: e });
    }
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
    if (options == null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${describe(options)}.`);
    return checkInt('maxBytes', options.maxBytes ?? DEFAULT_MAX_BYTES, 0, Number.MAX_SAFE_INTEGER);
}

function isPng(b: Uint8Array): boolean {
    return b.length >= 8 && PNG_SIGNATURE.every((v, i) => b[i] === v);
}

function isGif(b: Uint8Array): boolean {
    return b.length >= 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38 && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61;
}

function unknownFormat(b: Uint8Array): Error {
    if (!(b instanceof Uint8Array)) return new TypeError(`bytes must be a Uint8Array, got ${describe(b)}.`);
    const head = Array.from(b.subarray(0, 8), v => v.toString(16).padStart(2, '0')).join(' ');
    return new Error(`Unsupported image format (first bytes: ${head || 'none'}); expected a PNG or GIF file.`);
}

interface PngInfo {
    width: number;
    height: number;
    depth: number;
    colorType: number;
    interlaced: boolean;
    /** Frame count from acTL; 0 for a still PNG. */
    frames: number;
    /** Concatenated IDAT payloads' total length. */
    idat: Uint8Array[];
}

const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

// Walks every chunk, checking lengths, CRCs and the header, before any decoder sees the file:
// truncation and damaged bytes are reported here with a position, and the decoders only get sound files.
function scanPng(b: Uint8Array): PngInfo {
    const dv = new DataView(b.buffer, b.byteOffset, b.length);
    const type = (p: number) => String.fromCharCode(b[p], b[p + 1], b[p + 2], b[p + 3]);
    let p = 8, width = 0, height = 0, depth = 0, colorType = 0, interlaced = false, frames = 0;
    let sawEnd = false, sawPalette = false, fctlBeforeIdat = false, fctl = 0;
    const idat: Uint8Array[] = [];
    while (p < b.length) {
        if (p + 12 > b.length) throw new Error(`PNG is truncated: chunk header at byte ${p} is cut off.`);
        const len = dv.getUint32(p);
        const t = type(p + 4);
        if (len > 0x7fffffff || p + 12 + len > b.length) throw new Error(`PNG is truncated or corrupt: chunk ${JSON.stringify(t)} at byte ${p} declares ${len} bytes, past the end of the ${b.length}-byte file.`);
        if (crc32(b, p + 4, p + 8 + len) !== dv.getUint32(p + 8 + len)) throw new Error(`PNG is corrupt: chunk ${JSON.stringify(t)} at byte ${p} fails its CRC check.`);
        const d = p + 8;
        if (p === 8) {
            if (t !== 'IHDR' || len !== 13) throw new Error(`PNG is corrupt: first chunk is ${JSON.stringify(t)} (${len} bytes), expected a 13-byte IHDR.`);
            width = dv.getUint32(d); height = dv.getUint32(d + 4); depth = b[d + 8]; colorType = b[d + 9];
            if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) throw new Error(`PNG is corrupt: size ${width}x${height} is invalid.`);
            if (!DEPTHS[colorType]?.includes(depth)) throw new Error(`PNG is corrupt: colour type ${colorType} with bit depth ${depth} is not a valid combination.`);
            if (b[d + 10] !== 0 || b[d + 11] !== 0 || b[d + 12] > 1) throw new Error('PNG is corrupt: unknown compression, filter or interlace method in IHDR.');
            interlaced = b[d + 12] === 1;
        } else if (t === 'IEND') {
            sawEnd = true;
            break;
        } else if (t === 'PLTE') {
            sawPalette = true;
        } else if (t === 'IDAT') {
            if (colorType === 3 && !sawPalette) throw new Error('PNG is corrupt: palette image has no PLTE chunk before its data.');
            if (idat.length === 0 && fctl > 0) fctlBeforeIdat = true;
            idat.push(b.subarray(d, d + len));
        } else if (t === 'acTL' && len === 8) {
            frames = dv.getUint32(d);
            if (frames === 0) throw new Error('APNG is corrupt: acTL declares 0 frames.');
        } else if (t === 'fcTL') {
            if (len !== 26) throw new Error(`APNG is corrupt: fcTL at byte ${p} has ${len} bytes, expected 26.`);
            const fw = dv.getUint32(d + 4), fh = dv.getUint32(d + 8), fx = dv.getUint32(d + 12), fy = dv.getUint32(d + 16);
            if (fw === 0 || fh === 0 || fx + fw > width || fy + fh > height) {
                throw new Error(`APNG is corrupt: frame ${fctl} is ${fw}x${fh} at (${fx}, ${fy}), outside the ${width}x${height} canvas.`);
            }
            if (fctl === 0 && (fx !== 0 || fy !== 0 || fw !== width || fh !== height)) throw new Error('APNG is corrupt: its first frame must cover the whole canvas.');
            fctl++;
        } else if (t === 'fdAT' && len < 4) {
            throw new Error(`APNG is corrupt: fdAT at byte ${p} is shorter than 4 bytes.`);
        }
        p += 12 + len;
    }
    if (width === 0) throw new Error('PNG is truncated: it has no IHDR chunk.');
    if (!sawEnd) throw new Error('PNG is truncated: it ends before its IEND chunk.');
    if (idat.length === 0) throw new Error('PNG is corrupt: it has no IDAT image data.');
    if (frames > 0) {
        if (fctl !== frames) throw new Error(`APNG is corrupt: acTL declares ${frames} frames but ${fctl} fcTL chunks follow.`);
        // UPNG treats the default image as frame 0; an APNG whose default image is not part of the animation would come out shifted.
        if (!fctlBeforeIdat) throw new Error('APNG whose default image is not an animation frame is not supported; re-export it with the first frame as the default image.');
    }
    return { width, height, depth, colorType, interlaced, frames, idat };
}

// Decompressed size of the image data, with one filter byte per row (per pass when interlaced).
function inflatedSize(info: PngInfo): number {
    const bits = CHANNELS[info.colorType] * info.depth;
    const row = (w: number) => 1 + Math.ceil(w * bits / 8);
    if (!info.interlaced) return info.height * row(info.width);
    const passes = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]];
    let n = 0;
    for (const [x0, y0, dx, dy] of passes) {
        const w = Math.ceil((info.width - x0) / dx), h = Math.ceil((info.height - y0) / dy);
        if (w > 0 && h > 0) n += h * row(w);
    }
    return n;
}

function decodePng(bytes: Uint8Array, info: PngInfo): RGBAImage {
    // pngjs inflates interlaced data without a size limit and accepts short data silently, so check the
    // inflated size first, with zlib stopping at the expected size (a zip bomb fails here, fast).
    const expected = inflatedSize(info);
    let raw: Buffer;
    try {
        raw = inflateSync(Buffer.concat(info.idat), { maxOutputLength: expected });
    } catch (e) {
        const msg = (e as Error).message;
        if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || /larger than/i.test(msg)) {
            throw new Error(`PNG is corrupt: its image data inflates to more than the ${expected} bytes a ${info.width}x${info.height} image needs.`, { cause: e });
        }
        throw new Error(`PNG is corrupt: its image data does not inflate (${msg}).`, { cause: e });
    }
    if (raw.length !== expected) throw new Error(`PNG is truncated or corrupt: its image data inflates to ${raw.length} bytes, expected ${expected}.`);
    let png: PNG;
    try {
        png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    } catch (e) {
        throw new Error(`PNG is corrupt: ${(e as Error).message}.`, { cause: e });
    }
    const data = png.data;
    if (png.width !== info.width || png.height !== info.height || data.length !== info.width * info.height * 4) {
        throw new Error(`PNG is corrupt: decoded ${png.width}x${png.height} (${data.length} bytes) for a ${info.width}x${info.height} image.`);
    }
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

// Loaded on first use: most inputs are still images, and the CLI starts faster without it.
let upng: typeof UPNG | null = null;

function decodeApng(bytes: Uint8Array, info: PngInfo): ImageFrame[] {
    const UPNG = upng ??= createRequire(import.meta.url)('upng-js') as typeof import('upng-js');
    let frames: ArrayBuffer[], decoded: UPNG.Image;
    try {
        decoded = UPNG.decode(bytes.slice().buffer);
        frames = UPNG.toRGBA8(decoded);
    } catch (e) {
        // pako throws strings, not Errors.
        throw new Error(`APNG is corrupt: ${e instanceof Error ? e.message : String(e)}.`, { cause: e });
    }
    const n = info.width * info.height * 4;
    if (frames.length !== info.frames) throw new Error(`APNG is corrupt: decoded ${frames.length} frames, expected ${info.frames}.`);
    return frames.map((buf, i) => {
        if (buf.byteLength !== n) throw new Error(`APNG is corrupt: frame ${i} decoded to ${buf.byteLength} bytes, expected ${n}.`);
        return { width: info.width, height: info.height, data: new Uint8Array(buf), delay: decoded.frames[i]?.delay ?? 0 };
    });
}
