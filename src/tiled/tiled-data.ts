// Tile layer data as Tiled writes it (CSV text, a JSON array, base64 plain, zlib, gzip or zstd) decoded into gids,
// with the size known before anything is inflated: a forged stream cannot make more than the layer holds.
import { Unzlib, Gunzip } from 'fflate';
import { Decompress } from 'fzstd';

// Compressed input is fed this many bytes at a time, so one push inflates at most ~1,032x that (16 MiB: deflate's
// ceiling; a zstd block is at most 128 KiB) before the running total is compared with the size the layer allows.
const SLICE = 16384;

const LITTLE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

const B64 = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;

/** Bytes of base64 text (whitespace skipped, `=` padding optional); corrupt text throws an Error saying where. */
export function decodeBase64(text: string, where: string): Uint8Array {
    const out = new Uint8Array(Math.ceil((text.length * 3) / 4));
    let n = 0,
        acc = 0,
        bits = 0,
        pad = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 32 || c === 10 || c === 13 || c === 9) continue;
        if (c === 61) {
            pad++;
            continue;
        }
        const v = c < 128 ? B64[c] : -1;
        if (v < 0 || pad > 0)
            throw new Error(`${where}: the base64 data holds ${JSON.stringify(text[i])} at ${i}; it is corrupt.`);
        acc = (acc << 6) | v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (acc >> bits) & 255;
        }
    }
    if (bits >= 6 || pad > 2) throw new Error(`${where}: the base64 data is truncated (${text.length} characters).`);
    return out.subarray(0, n);
}

/**
 * The bytes `data` inflates to under `compression` ('' for none), which must be exactly `expected` bytes: more
 * stops the inflater at once, fewer or a broken stream throws an Error naming `where`.
 */
export function inflate(data: Uint8Array, compression: string, expected: number, where: string): Uint8Array {
    if (compression === '') return data;
    const out = new Uint8Array(expected);
    let n = 0,
        over = false;
    const take = (chunk: Uint8Array): void => {
        if (over) return;
        if (n + chunk.length > expected) {
            over = true;
            return;
        }
        out.set(chunk, n);
        n += chunk.length;
    };
    let stream: { push(chunk: Uint8Array, final?: boolean): void };
    if (compression === 'zlib') stream = new Unzlib(take);
    else if (compression === 'gzip') stream = new Gunzip(take);
    else if (compression === 'zstd') stream = new Decompress(take);
    else
        throw new Error(
            `${where}: compression ${JSON.stringify(compression)} is not one Tiled writes; expected zlib, gzip or zstd.`
        );
    try {
        for (let i = 0; i < data.length && !over; i += SLICE)
            stream.push(data.subarray(i, Math.min(data.length, i + SLICE)), i + SLICE >= data.length);
        if (data.length === 0) stream.push(data, true);
    } catch (e) {
        throw new Error(`${where}: the ${compression} data is corrupt or truncated (${(e as Error).message}).`, {
            cause: e
        });
    }
    if (over || n !== expected) {
        const got = over ? `more than ${expected}` : `${n}`;
        throw new Error(`${where}: the ${compression} data inflates to ${got} bytes, expected ${expected}.`);
    }
    return out;
}

/** Gids of `count` cells from little-endian 32-bit words. */
export function gidsFromBytes(bytes: Uint8Array, count: number, where: string): Uint32Array {
    if (bytes.length !== count * 4)
        throw new Error(`${where}: the data holds ${bytes.length} bytes, expected ${count * 4} for ${count} cells.`);
    // Every runtime hitmask runs on is little-endian, as the data is: one copy of the bytes (8x the loop below).
    // Aligned bytes are ours (inflated or decoded for this layer): viewed in place, else copied once.
    if (LITTLE)
        return bytes.byteOffset % 4 === 0
            ? new Uint32Array(bytes.buffer, bytes.byteOffset, count)
            : new Uint32Array(bytes.slice().buffer, 0, count);
    const out = new Uint32Array(count);
    for (let i = 0, j = 0; i < count; i++, j += 4)
        out[i] = (bytes[j] | (bytes[j + 1] << 8) | (bytes[j + 2] << 16) | (bytes[j + 3] << 24)) >>> 0;
    return out;
}

/** Gids of `count` cells from CSV text (Tiled writes rows ending in commas and newlines). */
export function gidsFromCSV(text: string, count: number, where: string): Uint32Array {
    const out = new Uint32Array(count);
    let n = 0,
        v = 0,
        digits = 0,
        value = false; // a value was read since the last comma
    for (let i = 0; i <= text.length; i++) {
        const c = i < text.length ? text.charCodeAt(i) : 10;
        if (c >= 48 && c <= 57) {
            if (value && digits === 0) throw new Error(`${where}: the CSV data lacks a comma before character ${i}.`);
            v = v * 10 + c - 48;
            digits++;
            if (v > 0xffffffff)
                throw new Error(`${where}: the CSV data holds a number past 2^32 - 1 near character ${i}.`);
            continue;
        }
        if (c === 44 || c === 10 || c === 13 || c === 32 || c === 9) {
            if (digits > 0) {
                if (n === count) throw new Error(`${where}: the CSV data holds more than ${count} cells.`);
                out[n++] = v;
                value = true;
            }
            if (c === 44) {
                if (!value) throw new Error(`${where}: the CSV data has an empty value at character ${i}.`);
                value = false;
            }
            v = 0;
            digits = 0;
            continue;
        }
        throw new Error(`${where}: the CSV data holds ${JSON.stringify(text[i])} at character ${i}; expected digits.`);
    }
    if (n !== count) throw new Error(`${where}: the CSV data holds ${n} cells, expected ${count}.`);
    return out;
}

/** Gids of `count` cells from a JSON array of numbers. */
export function gidsFromArray(data: readonly unknown[], count: number, where: string): Uint32Array {
    if (data.length !== count) throw new Error(`${where}: the data holds ${data.length} cells, expected ${count}.`);
    const out = new Uint32Array(count);
    for (let i = 0; i < count; i++) {
        const v = data[i];
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff)
            throw new Error(`${where}: cell ${i} holds ${JSON.stringify(v)}, expected a gid (an integer 0..2^32 - 1).`);
        out[i] = v;
    }
    return out;
}

/** How base64 text and compressed bytes are decoded: in JavaScript anywhere, natively where the runtime can. */
export interface Codec {
    base64(text: string, where: string): Uint8Array;
    /** As {@link inflate}: exactly `expected` bytes or an Error. */
    inflate(data: Uint8Array, compression: string, expected: number, where: string): Uint8Array;
}

/** The codec of every runtime: this file's base64 decoder, fflate and fzstd. */
export const JS_CODEC: Codec = { base64: decodeBase64, inflate };

/**
 * Gids of a layer's or chunk's `data` in JSON form: an array, or base64 text with `compression`.
 */
export function decodeData(
    data: unknown,
    encoding: unknown,
    compression: unknown,
    count: number,
    where: string,
    codec: Codec = JS_CODEC
): Uint32Array {
    if (Array.isArray(data)) return gidsFromArray(data, count, where);
    if (typeof data !== 'string')
        throw new Error(`${where}: the layer data is ${typeof data}, expected an array of gids or base64 text.`);
    if (encoding === 'csv') return gidsFromCSV(data, count, where);
    if (encoding !== 'base64')
        throw new Error(`${where}: the layer data is text with encoding ${JSON.stringify(encoding)}, expected base64.`);
    const comp = compression === undefined || compression === null ? '' : String(compression);
    const bytes = codec.base64(data, where);
    return gidsFromBytes(comp === '' ? bytes : codec.inflate(bytes, comp, count * 4, where), count, where);
}
