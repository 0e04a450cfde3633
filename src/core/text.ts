// Masks as rows of `#` and `.`: fixtures, tests and debugging.
import { describe } from '../base/check.js';
import { Mask } from './mask.js';

// Longest toText(): 2^27 characters (an 11,000² mask), a quarter of V8's string limit.
const MAX_TEXT = 2 ** 27;

/** Parses rows of `#` (set) and `.` (clear); blank lines and surrounding spaces are ignored. */
export function maskFromText(text: string): Mask {
    if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describe(text)}.`);
    const rows = text.split('\n').map(r => r.trim()).filter(r => r.length > 0);
    const width = rows.length ? rows[0].length : 0;
    for (let y = 0; y < rows.length; y++) {
        if (rows[y].length !== width) throw new Error(`Mask text row ${y} is ${rows[y].length} characters wide, expected ${width}.`);
    }
    const m = new Mask(width, rows.length), words = m.words;
    for (let y = 0; y < rows.length; y++) {
        const row = rows[y];
        for (let x = 0; x < width; x++) {
            const c = row[x];
            if (c === '#') words[(x >>> 5) * m.height + y] |= 1 << (x & 31);
            else if (c !== '.') throw new Error(`Mask text has ${JSON.stringify(c)} at row ${y}, column ${x}; expected "#" or ".".`);
        }
    }
    return m;
}

/** Rows of `#` and `.` joined by newlines; a RangeError past 2^27 characters. */
export function maskToText(m: Mask): string {
    const { width, height } = m, chars = Math.max(0, (width + 1) * height - 1);
    // A string past V8's limit (2^29 − 24 characters), or an array of a row string per row of a very
    // tall mask, aborts the process instead of throwing: refuse early, well below both.
    if (chars > MAX_TEXT) {
        throw new RangeError(`Mask ${width}x${height} as text is ${chars} characters, more than the ${MAX_TEXT} allowed; crop() a part of it first.`);
    }
    // One byte per character, decoded once: no per-row strings.
    const bytes = new Uint8Array(chars), words = m.words;
    for (let y = 0, p = 0; y < height; y++, p++) {
        for (let x = 0; x < width; x++, p++) bytes[p] = (words[(x >>> 5) * height + y] >>> (x & 31)) & 1 ? 35 : 46;
        if (p < chars) bytes[p] = 10;
    }
    return new TextDecoder('latin1').decode(bytes);
}
