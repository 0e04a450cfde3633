// GIF decoding: omggif parses the container (screen, frames, palettes, transparency, delays, disposal);
// the LZW step is ours because omggif's can loop forever on crafted codes and only console.logs on short data.
// omggif hands a frame without a Graphic Control Extension the last one it read: each frame's own is looked
// for here (ownControl), and a frame without one gets the specification's defaults, as browsers give it.
import { GifReader } from 'omggif';
import type { Budget, ImageFrame } from './image.js';

/** Logical screen size of a GIF, from its header. */
export function gifScreen(b: Uint8Array): { width: number; height: number } {
    if (b.length < 13) throw new Error(`GIF is truncated: ${b.length} bytes, shorter than its 13-byte header.`);
    const width = b[6] | (b[7] << 8),
        height = b[8] | (b[9] << 8);
    if (width === 0 || height === 0) throw new Error(`GIF is corrupt: its screen is ${width}x${height}.`);
    return { width, height };
}

/**
 * Decodes a GIF's frames (only the first when `first`), composited on the screen with disposal honoured.
 * `budget` is charged for every canvas returned before any is allocated, and for each frame's pixels
 * outside the screen before that frame is decoded (a 1x1 GIF may declare 16000x16000 frames).
 */
export function decodeGif(b: Uint8Array, budget: Budget, first: boolean): ImageFrame[] {
    const { width, height } = gifScreen(b);
    let reader: GifReader;
    try {
        reader = new GifReader(b);
    } catch (e) {
        // omggif reads past the end as undefined: a block size fails its check ("Invalid block size"), a block
        // label fails in its own message (a TypeError reading 'toString'). Both mean the file was cut.
        if (e instanceof TypeError || (e as Error).message === 'Invalid block size')
            throw new Error(`GIF is truncated: a block runs past the end of the ${b.length}-byte file.`, { cause: e });
        throw new Error(`GIF is truncated or corrupt: ${(e as Error).message}`, { cause: e });
    }
    const count = first ? Math.min(1, reader.numFrames()) : reader.numFrames();
    // Without its trailer byte (3B) the file was cut before its first image.
    if (count === 0 && b[b.length - 1] !== 0x3b)
        throw new Error(`GIF is truncated: its ${b.length} bytes end before the first image frame.`);
    if (count === 0) throw new Error('GIF is corrupt: it has no image frames.');
    budget.image(width, height, count);
    const frames: ImageFrame[] = [];
    let canvas: Uint8Array = new Uint8Array(width * height * 4);
    // Disposal 3 restores the canvas as it was before the frame was drawn: kept only while such a frame shows.
    let saved: Uint8Array | null = null;
    const table = lzwTable();
    for (let i = 0; i < count; i++) {
        const f = frameInfo(b, reader, i);
        const visible = Math.max(0, Math.min(f.width, width - f.x)) * Math.max(0, Math.min(f.height, height - f.y));
        const outside = f.width * f.height - visible;
        if (outside > 0)
            budget.pixels(
                outside,
                `GIF frame ${i} is ${f.width}x${f.height} at (${f.x}, ${f.y}) on a ${width}x${height} screen: it decodes ${outside} pixels outside the screen`
            );
        // Disposal 4 is restore-previous too: some encoders wrote 4 for it, and Chromium and Firefox read it so.
        const restore = f.disposal === 3 || f.disposal === 4;
        if (restore) saved = canvas.slice();
        drawFrame(b, f, i, canvas, width, height, table);
        frames.push({ width, height, data: canvas, delay: f.delay * 10 });
        if (i === count - 1) break;
        canvas = canvas.slice();
        // Disposal 2: clear the frame's rectangle to transparent (what browsers do); 3 and 4: restore what was below
        // it.
        if (f.disposal === 2) clearRect(canvas, width, height, f.x, f.y, f.width, f.height);
        else if (restore && saved) canvas = saved;
        saved = null;
    }
    return frames;
}

function clearRect(c: Uint8Array, w: number, h: number, x0: number, y0: number, fw: number, fh: number): void {
    const x1 = Math.min(w, x0 + fw),
        y1 = Math.min(h, y0 + fh);
    for (let y = y0; y < y1; y++) c.fill(0, (y * w + x0) * 4, (y * w + x1) * 4);
}

type Frame = ReturnType<GifReader['frameInfo']>;

// Frame i as omggif read it, with no transparency, delay 0 and disposal 0 ("unspecified") unless a Graphic
// Control Extension of its own comes between the previous frame (or the screen's header) and its descriptor.
function frameInfo(b: Uint8Array, reader: GifReader, i: number): Frame {
    const f = reader.frameInfo(i);
    const prev = i > 0 ? reader.frameInfo(i - 1) : null;
    const from = prev ? prev.data_offset + prev.data_length : 13 + (b[10] & 0x80 ? 3 << ((b[10] & 7) + 1) : 0);
    const descriptor = f.data_offset - 10 - (f.has_local_palette ? 3 * (f.palette_size ?? 0) : 0);
    return ownControl(b, from, descriptor) ? f : { ...f, transparent_index: null, delay: 0, disposal: 0 };
}

// Whether the extension blocks from p up to `end` hold a Graphic Control Extension. Each block is 21, a label and
// sub-blocks up to a zero length (a GCE is 21 F9 04 … 00); omggif has already walked the same bytes.
function ownControl(b: Uint8Array, p: number, end: number): boolean {
    while (p < end && b[p] === 0x21) {
        if (b[p + 1] === 0xf9) return true;
        p += 2;
        for (let n = b[p++]; n > 0; n = b[p++]) p += n;
    }
    return false;
}

function drawFrame(
    b: Uint8Array,
    f: Frame,
    i: number,
    canvas: Uint8Array,
    width: number,
    height: number,
    table: LzwTable
): void {
    if (f.palette_offset === null || f.palette_size === null)
        throw new Error(`GIF is corrupt: frame ${i} has no colour table.`);
    const n = f.width * f.height;
    const indices = new Uint8Array(n);
    const got = lzw(b, f.data_offset, indices, table);
    if (got < n) throw new Error(`GIF is truncated or corrupt: frame ${i} has ${got} of its ${n} pixels.`);
    const pal = f.palette_offset,
        size = f.palette_size,
        trans = f.transparent_index ?? -1;
    // Interlaced rows come in four passes: every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
    const rows: number[] = [];
    if (f.interlaced) {
        for (const [start, step] of [
            [0, 8],
            [4, 8],
            [2, 4],
            [1, 2]
        ])
            for (let r = start; r < f.height; r += step) rows.push(r);
    } else {
        for (let r = 0; r < f.height; r++) rows.push(r);
    }
    // Pixels outside the logical screen are dropped, as browsers do.
    const xEnd = Math.min(f.width, width - f.x);
    for (let k = 0; k < rows.length; k++) {
        const y = f.y + rows[k];
        if (y >= height) continue;
        let src = k * f.width,
            dst = (y * width + f.x) * 4;
        for (let x = 0; x < xEnd; x++, src++, dst += 4) {
            const c = indices[src];
            if (c === trans) continue;
            if (c >= size)
                throw new Error(`GIF is corrupt: frame ${i} uses colour ${c}, past its ${size}-colour table.`);
            const q = pal + 3 * c;
            canvas[dst] = b[q];
            canvas[dst + 1] = b[q + 1];
            canvas[dst + 2] = b[q + 2];
            canvas[dst + 3] = 255;
        }
    }
}

// The LZW string table: entry c is its prefix entry's string plus suffix[c]; head[c] is its first index, length[c]
// its length. One table serves every frame of a file (24 KiB each would be most of a tiny frame's cost): entries
// below the clear code are reset per frame, and an entry above is written before any code reads it.
interface LzwTable {
    prefix: Uint16Array;
    suffix: Uint8Array;
    head: Uint8Array;
    length: Uint16Array;
}

function lzwTable(): LzwTable {
    return {
        prefix: new Uint16Array(4096),
        suffix: new Uint8Array(4096),
        head: new Uint8Array(4096),
        length: new Uint16Array(4096)
    };
}

// GIF's variable-width LZW. Every code either extends the table by one entry whose prefix is an
// older entry, or is rejected, so decoding always terminates; returns the number of indices written.
function lzw(b: Uint8Array, p: number, out: Uint8Array, t: LzwTable): number {
    const minSize = b[p++];
    if (!(minSize >= 1 && minSize <= 11))
        throw new Error(`GIF is corrupt: LZW minimum code size is ${minSize}, expected 1..11.`);
    const clear = 1 << minSize,
        eoi = clear + 1,
        n = out.length;
    const { prefix, suffix, head, length } = t;
    for (let c = 0; c < clear; c++) {
        suffix[c] = c;
        head[c] = c;
        length[c] = 1;
    }
    let size = minSize + 1,
        mask = (1 << size) - 1,
        next = eoi + 1,
        prev = -1;
    let bits = 0,
        nbits = 0,
        op = 0,
        block = 0;
    while (op < n) {
        while (nbits < size) {
            if (block === 0) {
                block = b[p++];
                if (block === undefined) throw new Error('GIF is truncated: image data sub-blocks run past the end.');
                if (block === 0) return Math.min(op, n);
            }
            bits |= b[p++] << nbits;
            nbits += 8;
            block--;
        }
        const c = bits & mask;
        bits >>>= size;
        nbits -= size;
        if (c === clear) {
            size = minSize + 1;
            mask = (1 << size) - 1;
            next = eoi + 1;
            prev = -1;
            continue;
        }
        if (c === eoi) break;
        if (prev === -1) {
            if (c >= clear) throw new Error(`GIF is corrupt: LZW code ${c} where a colour index was expected.`);
        } else if (c > next || (c === next && next >= 4096)) {
            throw new Error(`GIF is corrupt: LZW code ${c} is not in the table (next is ${next}).`);
        } else if (next < 4096) {
            // New entry: prev's string plus the first index of c's string (of prev's, when c is the entry being made).
            prefix[next] = prev;
            suffix[next] = head[c === next ? prev : c];
            head[next] = head[prev];
            length[next] = length[prev] + 1;
            next++;
            if (next === mask + 1 && size < 12) {
                size++;
                mask = (1 << size) - 1;
            }
        }
        // Write c's string backwards from its end; indices past the frame are dropped (browsers ignore extra data).
        let k = c;
        for (let q = op + length[c] - 1; q >= op; q--) {
            if (q < n) out[q] = suffix[k];
            k = prefix[k];
        }
        op += length[c];
        prev = c;
    }
    return Math.min(op, n);
}
