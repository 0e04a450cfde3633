// PNG and APNG containers: one walk over the chunks checks lengths, CRCs, the header and the animation
// structure before any pixel is decoded; rasters (the default image, each APNG frame) are inflated with
// an output limit, then decoded: a still PNG's by pngjs, an APNG frame's here (decodeFrameRaster).
import { inflateSync } from 'node:zlib';
import { createRequire } from 'node:module';
import type { PNG } from 'pngjs';
import { crc32 } from '../base/crc32.js';
import type { RGBAImage } from './image.js';

/** One APNG frame: its rectangle on the canvas, timing, disposal and compressed data. */
export interface ApngFrame {
    x: number;
    y: number;
    width: number;
    height: number;
    /** Milliseconds. */
    delay: number;
    /** 0 none, 1 background (clear to transparent), 2 previous. */
    dispose: number;
    /** 0 source (replace), 1 over (alpha-blend). */
    blend: number;
    /** zlib stream, in pieces: IDAT payloads, or fdAT payloads without their sequence numbers. */
    data: Uint8Array[];
}

/** What the chunk walk found. */
export interface PngInfo {
    width: number;
    height: number;
    depth: number;
    colorType: number;
    interlaced: boolean;
    plte: Uint8Array | null;
    trns: Uint8Array | null;
    /** The default image's zlib stream, in pieces. */
    idat: Uint8Array[];
    /** Animation frames in order; empty for a still PNG. */
    frames: ApngFrame[];
    /**
     * Whether the default image is the first animation frame (its fcTL comes before IDAT) rather than hidden from the
     * animation.
     */
    defaultIsFrame: boolean;
    /** Length of the PNG proper, up to the end of IEND: bytes after it are ignored, as browsers do. */
    end: number;
}

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const CRITICAL = ['IHDR', 'PLTE', 'IDAT', 'IEND'];
// Largest output chunk of an inflate.
const INFLATE_CHUNK = 1 << 20;
const PASSES = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2]
];

/**
 * Walks every chunk of a PNG or APNG, checking lengths, CRCs, the header and the animation chunks' order and sequence
 * numbers.
 */
export function scanPng(b: Uint8Array): PngInfo {
    const dv = new DataView(b.buffer, b.byteOffset, b.length);
    const type = (p: number) => String.fromCharCode(b[p], b[p + 1], b[p + 2], b[p + 3]);
    const info: PngInfo = {
        width: 0,
        height: 0,
        depth: 0,
        colorType: 0,
        interlaced: false,
        plte: null,
        trns: null,
        idat: [],
        frames: [],
        defaultIsFrame: false,
        end: 0
    };
    let p = 8,
        sawEnd = false,
        declared = 0,
        seq = 0;
    // The frame whose data the next IDAT or fdAT chunks carry; `idatDone` once another chunk follows the IDATs.
    let open: ApngFrame | null = null,
        idatDone = false;
    const sequence = (at: number, t: string) => {
        const n = dv.getUint32(at);
        if (n !== seq) throw new Error(`APNG is corrupt: ${t} at byte ${p} has sequence number ${n}, expected ${seq}.`);
        seq++;
    };
    while (p < b.length) {
        if (p + 12 > b.length) throw new Error(`PNG is truncated: chunk header at byte ${p} is cut off.`);
        const len = dv.getUint32(p);
        const t = type(p + 4);
        if (len > 0x7fffffff || p + 12 + len > b.length)
            throw new Error(
                `PNG is truncated or corrupt: chunk ${JSON.stringify(t)} at byte ${p} declares ${len} bytes, past the end of the ${b.length}-byte file.`
            );
        if (crc32(b, p + 4, p + 8 + len) !== dv.getUint32(p + 8 + len))
            throw new Error(`PNG is corrupt: chunk ${JSON.stringify(t)} at byte ${p} fails its CRC check.`);
        const d = p + 8,
            data = b.subarray(d, d + len);
        for (let k = 4; k < 8; k++) {
            const c = b[p + k] | 0x20;
            if (c < 0x61 || c > 0x7a)
                throw new Error(
                    `PNG is corrupt: chunk type ${JSON.stringify(t)} at byte ${p} is not four ASCII letters.`
                );
        }
        // An unknown critical chunk (upper-case first letter) changes the image in a way we cannot know: refuse it, as
        // libpng does.
        if (p > 8 && !(b[p + 4] & 0x20) && (t === 'IHDR' || !CRITICAL.includes(t)))
            throw new Error(
                `PNG is corrupt: unknown critical chunk ${JSON.stringify(t)} at byte ${p}${t === 'IHDR' ? ' (a second IHDR)' : ''}.`
            );
        if (p === 8) {
            if (t !== 'IHDR' || len !== 13)
                throw new Error(
                    `PNG is corrupt: first chunk is ${JSON.stringify(t)} (${len} bytes), expected a 13-byte IHDR.`
                );
            readHeader(dv, d, info);
        } else if (t === 'IEND') {
            sawEnd = true;
            info.end = p + 12 + len;
            break;
        } else if (t === 'IDAT') {
            if (idatDone) throw new Error(`PNG is corrupt: IDAT at byte ${p} does not follow the other IDAT chunks.`);
            if (info.colorType === 3 && !info.plte)
                throw new Error('PNG is corrupt: palette image has no PLTE chunk before its data.');
            info.idat.push(data);
            if (open) addPiece(open, data);
        } else if (info.idat.length > 0) {
            idatDone = true;
        }
        if (t === 'PLTE' || t === 'tRNS') {
            if (info.idat.length > 0) throw new Error(`PNG is corrupt: ${t} at byte ${p} comes after the image data.`);
            if ((t === 'PLTE' ? info.plte : info.trns) !== null)
                throw new Error(`PNG is corrupt: a second ${t} chunk at byte ${p}.`);
            readColours(t, p, data, info);
        } else if (t === 'acTL') {
            if (len !== 8 || declared > 0 || info.idat.length > 0)
                throw new Error(
                    `APNG is corrupt: acTL at byte ${p} must come once, before the image data, with 8 bytes (got ${len}).`
                );
            declared = dv.getUint32(d);
            if (declared === 0) throw new Error('APNG is corrupt: acTL declares 0 frames.');
        } else if (t === 'fcTL') {
            if (declared === 0) throw new Error(`APNG is corrupt: fcTL at byte ${p} comes before any acTL chunk.`);
            if (len !== 26) throw new Error(`APNG is corrupt: fcTL at byte ${p} has ${len} bytes, expected 26.`);
            sequence(d, t);
            if (open && open.data.length === 0)
                throw new Error(
                    `APNG is corrupt: frame ${info.frames.length - 1} has no image data before the next fcTL.`
                );
            open = readFrameControl(dv, d, info);
            info.frames.push(open);
            if (info.idat.length === 0) info.defaultIsFrame = true;
        } else if (t === 'fdAT') {
            if (len < 4) throw new Error(`APNG is corrupt: fdAT at byte ${p} is shorter than 4 bytes.`);
            sequence(d, t);
            if (!open || info.idat.length === 0 || (info.defaultIsFrame && info.frames.length === 1)) {
                throw new Error(
                    `APNG is corrupt: fdAT at byte ${p} belongs to no frame (it must follow an fcTL after the image data).`
                );
            }
            addPiece(open, data.subarray(4));
        }
        p += 12 + len;
    }
    if (info.width === 0) throw new Error('PNG is truncated: it has no IHDR chunk.');
    if (!sawEnd) throw new Error('PNG is truncated: it ends before its IEND chunk.');
    if (info.idat.length === 0) throw new Error('PNG is corrupt: it has no IDAT image data.');
    if (declared > 0) {
        if (info.frames.length !== declared)
            throw new Error(
                `APNG is corrupt: acTL declares ${declared} frames but ${info.frames.length} fcTL chunks follow.`
            );
        const empty = info.frames.findIndex(f => f.data.length === 0);
        if (empty >= 0) throw new Error(`APNG is corrupt: frame ${empty} has no image data (no fdAT chunk).`);
    }
    return info;
}

// IHDR's fields (its 13 bytes at d), checked.
function readHeader(dv: DataView, d: number, info: PngInfo): void {
    const width = dv.getUint32(d),
        height = dv.getUint32(d + 4),
        depth = dv.getUint8(d + 8),
        colorType = dv.getUint8(d + 9);
    if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff)
        throw new Error(`PNG is corrupt: size ${width}x${height} is invalid.`);
    if (!DEPTHS[colorType]?.includes(depth))
        throw new Error(`PNG is corrupt: colour type ${colorType} with bit depth ${depth} is not a valid combination.`);
    if (dv.getUint8(d + 10) !== 0 || dv.getUint8(d + 11) !== 0 || dv.getUint8(d + 12) > 1)
        throw new Error('PNG is corrupt: unknown compression, filter or interlace method in IHDR.');
    Object.assign(info, { width, height, depth, colorType, interlaced: dv.getUint8(d + 12) === 1 });
}

// A PLTE or tRNS chunk (`data`, at byte p), checked against the header and the other one. APNG frames are decoded
// from the header, PLTE and tRNS alone: both must be exactly what the default image uses.
function readColours(t: string, p: number, data: Uint8Array, info: PngInfo): void {
    const len = data.length;
    if (t === 'PLTE') {
        if (len === 0 || len % 3 !== 0 || len > 768 || info.trns)
            throw new Error(
                `PNG is corrupt: PLTE at byte ${p} has ${len} bytes${info.trns ? ' and follows tRNS' : ''}; expected 3 to 768, a multiple of 3, before tRNS.`
            );
        info.plte = data;
    } else if (info.colorType < 4) {
        // A grey key (2 bytes), an RGB key (6), or alphas for at most the palette's entries. Types 4 and 6 have
        // alpha channels; their tRNS is ignored, as libpng and pngjs do.
        const ok =
            info.colorType === 3
                ? info.plte !== null && len <= info.plte.length / 3
                : len === (info.colorType === 0 ? 2 : 6);
        if (!ok)
            throw new Error(
                `PNG is corrupt: tRNS at byte ${p} has ${len} bytes, which colour type ${info.colorType}${info.colorType === 3 ? ` with ${(info.plte?.length ?? 0) / 3} palette entries` : ''} does not allow.`
            );
        info.trns = data;
    }
}

// The frame an fcTL chunk (its 26 bytes at d, after the sequence number) starts, checked against the canvas.
function readFrameControl(dv: DataView, d: number, info: PngInfo): ApngFrame {
    const i = info.frames.length;
    const width = dv.getUint32(d + 4),
        height = dv.getUint32(d + 8),
        x = dv.getUint32(d + 12),
        y = dv.getUint32(d + 16);
    const num = dv.getUint16(d + 20),
        den = dv.getUint16(d + 22),
        dispose = dv.getUint8(d + 24),
        blend = dv.getUint8(d + 25);
    if (width === 0 || height === 0 || x + width > info.width || y + height > info.height) {
        throw new Error(
            `APNG is corrupt: frame ${i} is ${width}x${height} at (${x}, ${y}), outside the ${info.width}x${info.height} canvas.`
        );
    }
    if (dispose > 2 || blend > 1)
        throw new Error(
            `APNG is corrupt: frame ${i} has dispose op ${dispose} and blend op ${blend}, expected 0..2 and 0..1.`
        );
    // The default image's own fcTL (one before IDAT) must cover the canvas.
    if (info.idat.length === 0 && (i > 0 || x !== 0 || y !== 0 || width !== info.width || height !== info.height)) {
        throw new Error(
            'APNG is corrupt: the frame before the image data is not the first or does not cover the whole canvas.'
        );
    }
    // A zero denominator means 1/100 s; delays are kept in whole milliseconds.
    return { x, y, width, height, delay: Math.round((num * 1000) / (den || 100)), dispose, blend, data: [] };
}

// Adds a piece of zlib data to a frame. Most frames have one piece: an array of one, where push would reserve 17
// slots (150 bytes), which an animation of 100,000 small frames keeps until its last frame is decoded.
function addPiece(f: ApngFrame, piece: Uint8Array): void {
    if (f.data.length === 0) f.data = [piece];
    else f.data.push(piece);
}

// The non-empty passes of a width × height raster as [pass, x0, y0, dx, dy, w, h]: pass p's pixels are
// (x0 + i dx, y0 + j dy) for i < w, j < h. A raster that is not interlaced is one pass, the whole image.
function rasterPasses(interlaced: boolean, width: number, height: number): number[][] {
    const passes = interlaced ? PASSES : [[0, 0, 1, 1]];
    return passes
        .map(([x0, y0, dx, dy], pass) => [
            pass,
            x0,
            y0,
            dx,
            dy,
            Math.ceil((width - x0) / dx),
            Math.ceil((height - y0) / dy)
        ])
        .filter(q => q[5] > 0 && q[6] > 0);
}

// Decompressed size of a width × height raster, with one filter byte per row (per pass when interlaced).
function inflatedSize(info: PngInfo, width: number, height: number): number {
    const bits = CHANNELS[info.colorType] * info.depth;
    return rasterPasses(info.interlaced, width, height).reduce(
        (n, q) => n + q[6] * (1 + Math.ceil((q[5] * bits) / 8)),
        0
    );
}

/**
 * Decodes the default image of a still PNG to RGBA: the whole `file` goes to pngjs, after its data is inflated here
 * first with a limit (inflateRaster), since pngjs inflates without one (interlaced data) and accepts short data
 * silently.
 */
export function decodeRaster(
    info: PngInfo,
    width: number,
    height: number,
    pieces: Uint8Array[],
    what: string,
    file: Uint8Array
): RGBAImage {
    inflateRaster(info, width, height, pieces, what);
    const source = file.subarray(0, info.end);
    let png: PNG;
    try {
        png = pngjs().sync.read(Buffer.from(source.buffer, source.byteOffset, source.length));
    } catch (e) {
        throw new Error(`${what} is corrupt: ${(e as Error).message}.`, { cause: e });
    }
    const data = png.data;
    if (png.width !== width || png.height !== height || data.length !== width * height * 4) {
        throw new Error(
            `${what} is corrupt: decoded ${png.width}x${png.height} (${data.length} bytes) for a ${width}x${height} image.`
        );
    }
    return { width, height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/**
 * Decodes one APNG frame of `width` × `height` from its zlib pieces to RGBA, the bytes pngjs gives for the same
 * raster in a still PNG: inflated with a limit (inflateRaster), unfiltered in place and expanded here. A frame
 * costs its own pixels and one inflate; through pngjs each cost a still PNG written, parsed and inflated again,
 * which for an animation of many tiny frames was almost all of the work.
 */
export function decodeFrameRaster(
    info: PngInfo,
    width: number,
    height: number,
    pieces: Uint8Array[],
    what: string
): RGBAImage {
    const raw = inflateRaster(info, width, height, pieces, what);
    const { colorType, depth, plte, trns } = info;
    const channels = CHANNELS[colorType],
        bits = channels * depth,
        bpp = Math.max(1, bits >> 3);
    const data = new Uint8Array(width * height * 4);
    // A grey or RGB tRNS key (scanPng keeps tRNS only for types 0, 2 and 3), compared with the samples before
    // scaling, as pngjs does; -1 where there is none.
    const key = trns && colorType !== 3 ? trns : null,
        entries = plte ? plte.length / 3 : 0;
    const k0 = key ? (key[0] << 8) | key[1] : -1,
        k1 = key && colorType === 2 ? (key[2] << 8) | key[3] : -1,
        k2 = key && colorType === 2 ? (key[4] << 8) | key[5] : -1;
    let o = 1;
    for (const [pass, x0, y0, dx, dy, w, h] of rasterPasses(info.interlaced, width, height)) {
        const rowBytes = Math.ceil((w * bits) / 8);
        // Scanline j of the pass starts at o, after its filter type; scanline j - 1 starts rowBytes + 1 bytes earlier.
        for (let j = 0, y = y0; j < h; j++, y += dy, o += rowBytes + 1) {
            const f = raw[o - 1];
            if (f > 4)
                throw new Error(
                    `${what} is corrupt: scanline ${j}${info.interlaced ? ` of interlace pass ${pass + 1}` : ''} has filter type ${f}, expected 0..4.`
                );
            if (f !== 0)
                for (let c = 0; c < bpp; c++)
                    unfilter(raw, f, o + c, j > 0 ? o - rowBytes - 1 + c : -1, rowBytes - c, bpp);
            for (let i = 0, x = x0, k = 0; i < w; i++, x += dx, k += channels) {
                const d = (y * width + x) * 4,
                    s0 = sample(raw, o, k, depth);
                if (colorType === 3) {
                    if (s0 >= entries)
                        throw new Error(
                            `${what} is corrupt: palette index ${s0} at (${x}, ${y}) is not in its ${entries}-entry palette.`
                        );
                    const q = 3 * s0,
                        p = plte as Uint8Array;
                    data[d] = p[q];
                    data[d + 1] = p[q + 1];
                    data[d + 2] = p[q + 2];
                    data[d + 3] = trns && s0 < trns.length ? trns[s0] : 255;
                } else if (colorType === 0 || colorType === 4) {
                    if (s0 === k0) continue;
                    data[d] = data[d + 1] = data[d + 2] = scale(s0, depth);
                    data[d + 3] = colorType === 4 ? scale(sample(raw, o, k + 1, depth), depth) : 255;
                } else {
                    const s1 = sample(raw, o, k + 1, depth),
                        s2 = sample(raw, o, k + 2, depth);
                    if (s0 === k0 && s1 === k1 && s2 === k2) continue;
                    data[d] = scale(s0, depth);
                    data[d + 1] = scale(s1, depth);
                    data[d + 2] = scale(s2, depth);
                    data[d + 3] = colorType === 6 ? scale(sample(raw, o, k + 3, depth), depth) : 255;
                }
            }
        }
    }
    return { width, height, data };
}

// Sample k of the scanline at o, packed big-endian at `depth` bits.
function sample(raw: Uint8Array, o: number, k: number, depth: number): number {
    if (depth === 8) return raw[o + k];
    if (depth === 16) return (raw[o + 2 * k] << 8) | raw[o + 2 * k + 1];
    return (raw[o + ((k * depth) >> 3)] >> (8 - depth - ((k * depth) & 7))) & ((1 << depth) - 1);
}

// A sample scaled to 8 bits as pngjs scales it: floor(v × 255 / max + 0.5).
function scale(v: number, depth: number): number {
    return depth === 8 ? v : Math.floor((v * 255) / (2 ** depth - 1) + 0.5);
}

// Reverses filter type f (1..4) in place on the bytes o, o + bpp, o + 2 bpp, … (n bytes from o: one byte of
// every pixel; filters never mix a pixel's bytes); the previous row's same bytes (already unfiltered) are at p, or p <
// 0 for none.
/** @internal */
export function unfilter(raw: Uint8Array, f: number, o: number, p: number, n: number, bpp: number): void {
    if (f === 1) {
        for (let i = bpp, a = raw[o]; i < n; i += bpp) raw[o + i] = a = (raw[o + i] + a) & 255;
    } else if (f === 2) {
        if (p >= 0) for (let i = 0; i < n; i += bpp) raw[o + i] += raw[p + i];
    } else if (f === 3) {
        if (p >= 0) {
            for (let i = 0, a = 0; i < n; i += bpp) raw[o + i] = a = (raw[o + i] + ((a + raw[p + i]) >> 1)) & 255;
        } else {
            for (let i = bpp, a = raw[o]; i < n; i += bpp) raw[o + i] = a = (raw[o + i] + (a >> 1)) & 255;
        }
    } else if (p >= 0) {
        for (let i = 0, a = 0, c = 0; i < n; i += bpp) {
            const b = raw[p + i];
            let pa = b - c,
                pb = a - c,
                pc = pa + pb;
            if (pa < 0) pa = -pa;
            if (pb < 0) pb = -pb;
            if (pc < 0) pc = -pc;
            raw[o + i] = a = (raw[o + i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255;
            c = b;
        }
    } else {
        // Paeth with no row above predicts from the left byte alone.
        for (let i = bpp, a = raw[o]; i < n; i += bpp) raw[o + i] = a = (raw[o + i] + a) & 255;
    }
}

/**
 * Inflates one raster's zlib pieces with zlib stopping at the size a `width` × `height` raster needs (a zlib bomb
 * fails at that size, fast), and checks that the data is exactly that long, the filtered scanlines, and that
 * nothing follows the zlib stream.
 */
export function inflateRaster(
    info: PngInfo,
    width: number,
    height: number,
    pieces: Uint8Array[],
    what: string
): Buffer {
    const expected = inflatedSize(info, width, height);
    const zlib = pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
    let raw: Buffer, read: number;
    try {
        // Output chunks no larger than the raster: a tiny APNG frame allocates a few bytes, not zlib's default 16 KiB;
        // a raster of up to 1 MiB in one chunk, with no copy of chunks into one buffer (a sprite folder: 20% less
        // inflate time). `info` gives the engine too, which counts the input bytes the stream used.
        const out = inflateSync(zlib, {
            maxOutputLength: Math.max(1, expected),
            chunkSize: Math.max(64, Math.min(expected, INFLATE_CHUNK)),
            info: true
        }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
        raw = out.buffer;
        read = out.engine.bytesWritten;
    } catch (e) {
        const err = e as NodeJS.ErrnoException;
        if (err.code === 'ERR_BUFFER_TOO_LARGE' || /larger than/i.test(err.message)) {
            throw new Error(
                `${what} is corrupt: its image data inflates to more than the ${expected} bytes a ${width}x${height} image needs.`,
                { cause: e }
            );
        }
        throw new Error(`${what} is corrupt: its image data does not inflate (${err.message}).`, { cause: e });
    }
    if (raw.length !== expected)
        throw new Error(
            `${what} is truncated or corrupt: its image data inflates to ${raw.length} bytes, expected ${expected}.`
        );
    // zlib stops at the end of the stream; pngjs refuses data after it (a repeated IDAT), and so do we, on every path.
    if (read !== zlib.length)
        throw new Error(
            `${what} is corrupt: its image data has ${zlib.length - read} bytes after the end of its zlib stream.`
        );
    return raw;
}

// pngjs, loaded on first use: a build whose PNGs all go straight to masks never needs it.
let pngjsModule: typeof PNG | null = null;
function pngjs(): typeof PNG {
    pngjsModule ??= (createRequire(import.meta.url)('pngjs') as { PNG: typeof PNG }).PNG;
    return pngjsModule;
}
