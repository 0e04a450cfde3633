// A still PNG straight to its threshold mask: the scanlines are inflated once (with the same output limit as
// every raster), unfiltered in place and turned into mask bits row by row, without expanding pixels to RGBA.
// The bits are those of pngjs's RGBA (16-bit samples scaled, palette alphas from tRNS, a grey or RGB tRNS
// key compared with the raw samples) thresholded by Mask.fromRGBA: alpha > threshold.
import { checkInt } from '../base/check.js';
import { Budget } from './image.js';
import { inflateRaster, PNG_SIGNATURE, scanPng, unfilter, type PngInfo } from './png.js';

const PASSES = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2]
];
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** A still PNG's mask as packed words (the Mask strip layout), before it becomes a Mask. */
export interface MaskWords {
    width: number;
    height: number;
    words: Uint32Array;
}

/**
 * The threshold mask of a still PNG's bytes, as words from `alloc` (zeroed, `ceil(width / 32) * height` of them),
 * charged to a `maxBytes` budget as its RGBA would be; null for a file that is not a still PNG (GIF, APNG).
 */
export function stillPngMask(
    bytes: Uint8Array,
    threshold: number,
    maxBytes: number,
    alloc: (width: number, height: number) => Uint32Array
): MaskWords | null {
    const budget = new Budget(maxBytes);
    if (!(bytes.length >= 8 && PNG_SIGNATURE.every((v, i) => bytes[i] === v))) return null;
    const info = scanPng(bytes);
    if (info.frames.length > 0) return null;
    budget.image(info.width, info.height);
    const t = checkInt('threshold', threshold, 0, 255);
    const raw = inflateRaster(info, info.width, info.height, info.idat, 'PNG');
    const words = alloc(info.width, info.height);
    pngMaskInto(info, raw, t, words, 'PNG');
    return { width: info.width, height: info.height, words };
}

/**
 * Sets the bits (alpha > `threshold`) of a still PNG's default image, from its inflated scanlines `raw` (changed:
 * unfiltered in place), in zeroed `words`.
 */
export function pngMaskInto(info: PngInfo, raw: Uint8Array, threshold: number, words: Uint32Array, what = 'PNG'): void {
    const { width, height, colorType, depth } = info;
    const bits = CHANNELS[colorType] * depth,
        bpp = Math.max(1, bits >> 3);
    // An 8-bit alpha a is solid where a > threshold; pngjs scales a 16-bit sample v to round(v / 257), above threshold
    // from 257 t + 129.
    const t = threshold,
        cut16 = 257 * t + 129,
        opaque = 255 > t ? 1 : 0;
    // Palette: 1 solid, 0 clear, 2 not in the palette (an error, as in pngjs).
    let lut: Uint8Array | null = null;
    if (colorType === 3) {
        const plte = info.plte as Uint8Array,
            trns = info.trns;
        lut = new Uint8Array(256).fill(2);
        for (let i = 0; i < plte.length / 3; i++)
            lut[i] = (trns !== null && i < trns.length ? trns[i] : 255) > t ? 1 : 0;
    }
    const trns = info.trns,
        key0 = trns && colorType !== 3 ? (trns[0] << 8) | trns[1] : -1;
    const key1 = trns && colorType === 2 ? (trns[2] << 8) | trns[3] : -1,
        key2 = trns && colorType === 2 ? (trns[4] << 8) | trns[5] : -1;
    // Grey and RGB without a key, or with the threshold at 255, are one value everywhere: only the filter types need
    // checking.
    const constant = (colorType === 0 || colorType === 2) && (trns === null || opaque === 0);
    const max = (1 << depth) - 1;
    // Filters work on each byte of a pixel separately: with an alpha channel only its bytes need unfiltering.
    const c0 = colorType === 6 || colorType === 4 ? bpp - (depth >> 3) : 0;
    let pos = 0;
    const passes = info.interlaced ? PASSES : [[0, 0, 1, 1]];
    for (let pass = 0; pass < passes.length; pass++) {
        const [x0, y0, dx, dy] = passes[pass];
        const w = Math.ceil((width - x0) / dx),
            h = Math.ceil((height - y0) / dy);
        if (w <= 0 || h <= 0) continue;
        const rowBytes = Math.ceil((w * bits) / 8);
        for (let j = 0, y = y0; j < h; j++, y += dy) {
            const f = raw[pos],
                o = pos + 1,
                p = j > 0 ? o - rowBytes - 1 : -1;
            if (f > 4)
                throw new Error(
                    `${what} is corrupt: scanline ${j}${info.interlaced ? ` of interlace pass ${pass + 1}` : ''} has filter type ${f}, expected 0..4.`
                );
            pos = o + rowBytes;
            if (constant) {
                if (opaque) fill(words, height, y, x0, dx, w);
                continue;
            }
            if (f !== 0) for (let c = c0; c < bpp; c++) unfilter(raw, f, o + c, p < 0 ? -1 : p + c, rowBytes - c, bpp);
            if (colorType === 6 || colorType === 4) {
                if (depth === 8) alpha8(raw, o + bpp - 1, bpp, w, t, words, height, y, x0, dx);
                else alpha16(raw, o + bpp - 2, bpp, w, cut16, words, height, y, x0, dx);
            } else if (colorType === 3) {
                const bad = palette(raw, o, depth, w, lut as Uint8Array, words, height, y, x0, dx);
                if (bad >= 0) {
                    const v =
                        depth === 8
                            ? raw[o + bad]
                            : (raw[o + ((bad * depth) >> 3)] >> (8 - depth - ((bad * depth) & 7))) & max;
                    throw new Error(
                        `${what} is corrupt: palette index ${v} at (${x0 + bad * dx}, ${y}) is not in its ${(info.plte as Uint8Array).length / 3}-entry palette.`
                    );
                }
            } else if (colorType === 0) {
                greyKey(raw, o, depth, w, key0, words, height, y, x0, dx);
            } else {
                rgbKey(raw, o, depth, w, key0, key1, key2, words, height, y, x0, dx);
            }
        }
    }
}

// Each of these sets the bits of row y's solid pixels x0, x0 + dx, … (w of them); a row's words start cleared.
// With dx = 1 they write whole words: pixel x = 0 is bit 0 of strip 0.

function alpha8(
    raw: Uint8Array,
    q: number,
    step: number,
    w: number,
    t: number,
    words: Uint32Array,
    height: number,
    y: number,
    x0: number,
    dx: number
): void {
    if (dx === 1) {
        for (let x = 0, at = y; x < w; at += height) {
            let word = 0;
            const end = Math.min(w, x + 32);
            for (let b = 0; x < end; b++, x++, q += step) if (raw[q] > t) word |= 1 << b;
            words[at] = word;
        }
    } else {
        for (let i = 0, x = x0; i < w; i++, x += dx, q += step)
            if (raw[q] > t) words[(x >>> 5) * height + y] |= 1 << (x & 31);
    }
}

function alpha16(
    raw: Uint8Array,
    q: number,
    step: number,
    w: number,
    cut: number,
    words: Uint32Array,
    height: number,
    y: number,
    x0: number,
    dx: number
): void {
    for (let i = 0, x = x0; i < w; i++, x += dx, q += step)
        if (((raw[q] << 8) | raw[q + 1]) >= cut) words[(x >>> 5) * height + y] |= 1 << (x & 31);
}

// Returns the index in the row of a pixel whose palette index is not in the palette, or -1.
function palette(
    raw: Uint8Array,
    o: number,
    depth: number,
    w: number,
    lut: Uint8Array,
    words: Uint32Array,
    height: number,
    y: number,
    x0: number,
    dx: number
): number {
    const max = (1 << depth) - 1;
    for (let i = 0, x = x0; i < w; i++, x += dx) {
        const v = depth === 8 ? raw[o + i] : (raw[o + ((i * depth) >> 3)] >> (8 - depth - ((i * depth) & 7))) & max;
        const s = lut[v];
        if (s === 1) words[(x >>> 5) * height + y] |= 1 << (x & 31);
        else if (s === 2) return i;
    }
    return -1;
}

function greyKey(
    raw: Uint8Array,
    o: number,
    depth: number,
    w: number,
    key: number,
    words: Uint32Array,
    height: number,
    y: number,
    x0: number,
    dx: number
): void {
    const max = (1 << depth) - 1;
    for (let i = 0, x = x0; i < w; i++, x += dx) {
        const v =
            depth === 16
                ? (raw[o + 2 * i] << 8) | raw[o + 2 * i + 1]
                : depth === 8
                  ? raw[o + i]
                  : (raw[o + ((i * depth) >> 3)] >> (8 - depth - ((i * depth) & 7))) & max;
        if (v !== key) words[(x >>> 5) * height + y] |= 1 << (x & 31);
    }
}

function rgbKey(
    raw: Uint8Array,
    o: number,
    depth: number,
    w: number,
    k0: number,
    k1: number,
    k2: number,
    words: Uint32Array,
    height: number,
    y: number,
    x0: number,
    dx: number
): void {
    if (depth === 16) {
        for (let i = 0, x = x0, q = o; i < w; i++, x += dx, q += 6) {
            if (
                ((raw[q] << 8) | raw[q + 1]) !== k0 ||
                ((raw[q + 2] << 8) | raw[q + 3]) !== k1 ||
                ((raw[q + 4] << 8) | raw[q + 5]) !== k2
            )
                words[(x >>> 5) * height + y] |= 1 << (x & 31);
        }
    } else {
        for (let i = 0, x = x0, q = o; i < w; i++, x += dx, q += 3) {
            if (raw[q] !== k0 || raw[q + 1] !== k1 || raw[q + 2] !== k2) words[(x >>> 5) * height + y] |= 1 << (x & 31);
        }
    }
}

// Sets pixels x0, x0 + dx, … (w of them) of row y.
function fill(words: Uint32Array, height: number, y: number, x0: number, dx: number, w: number): void {
    for (let i = 0, x = x0; i < w; i++, x += dx) words[(x >>> 5) * height + y] |= 1 << (x & 31);
}
