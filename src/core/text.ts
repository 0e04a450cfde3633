// Masks as rows of `#` and `.`: fixtures, tests and debugging. Works on words, not masks: mask.ts imports it.
import { outOfRange, typeError } from '../base/check.js';

// Longest toText(): 2^27 characters (an 11,000² mask), a quarter of V8's string limit.
const MAX_TEXT = 2 ** 27;

/** The rows of a mask's text, trimmed, blank lines dropped; throws unless they are equally wide rows of `#` and `.`. */
export function textRows(text: string): string[] {
    // Written out, not checkString: import { Mask } stays within its 12 KB.
    if (typeof text !== 'string') throw typeError('text', 'a string', text);
    const rows = text
        .split('\n')
        .map(r => r.trim())
        .filter(r => r.length > 0);
    const width = rows.length ? rows[0].length : 0;
    for (let y = 0; y < rows.length; y++) {
        if (rows[y].length !== width)
            throw new Error(`Mask text row ${y} is ${rows[y].length} characters wide, expected ${width}.`);
    }
    for (let y = 0; y < rows.length; y++) {
        const row = rows[y];
        for (let x = 0; x < width; x++) {
            const c = row[x];
            if (c !== '#' && c !== '.')
                throw new Error(`Mask text has ${JSON.stringify(c)} at row ${y}, column ${x}; expected "#" or ".".`);
        }
    }
    return rows;
}

/**
 * Sets the bits of `words` (strip layout, `rows.length` high, zeroed) where `rows` (checked by {@link textRows}) have
 * `#`.
 */
export function textToWords(rows: readonly string[], words: Uint32Array): void {
    const height = rows.length;
    for (let y = 0; y < height; y++) {
        const row = rows[y];
        for (let x = 0; x < row.length; x++) if (row[x] === '#') words[(x >>> 5) * height + y] |= 1 << (x & 31);
    }
}

/** Rows of `#` and `.` joined by newlines; a RangeError past 2^27 characters. */
export function wordsToText(words: Uint32Array, width: number, height: number): string {
    const chars = Math.max(0, (width + 1) * height - 1);
    // A string past V8's limit (2^29 − 24 characters), or an array of a row string per row of a very
    // tall mask, aborts the process instead of throwing: refuse early, well below both.
    if (chars > MAX_TEXT) {
        throw outOfRange(
            `Mask ${width}x${height} as text is ${chars} characters, more than the ${MAX_TEXT} allowed; crop() a part of it first.`
        );
    }
    // One byte per character, decoded once: no per-row strings.
    const bytes = new Uint8Array(chars);
    for (let y = 0, p = 0; y < height; y++, p++) {
        for (let x = 0; x < width; x++, p++) bytes[p] = (words[(x >>> 5) * height + y] >>> (x & 31)) & 1 ? 35 : 46;
        if (p < chars) bytes[p] = 10;
    }
    return new TextDecoder('latin1').decode(bytes);
}
