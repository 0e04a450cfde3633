// Reads the binary atlas format (docs/format.md) into frames and tags: every byte is checked before any mask is made.
import { MAX_SIDE } from '../base/check.js';
import { crc32 } from '../base/crc32.js';
import type { Polygon } from '../base/types.js';
import { wasmOn } from '../kernels/memory.js';
import {
    BOX,
    DIRECTIONS,
    FRAME,
    HEADER,
    LITTLE,
    MAGIC,
    pad4,
    POLY_FRAME,
    POLY_HEAD,
    TAG,
    TRAILER,
    VERTEX
} from './atlas-format.js';
import type { AtlasFrame, AtlasTag, HitBox } from './atlas-frame.js';
import { Mask } from './mask.js';

function corrupt(msg: string): Error {
    return new Error(`Corrupt hitmask atlas: ${msg}.`);
}

function hex(bytes: Uint8Array, start: number, n: number): string {
    return Array.from(bytes.subarray(start, start + n), b => b.toString(16).padStart(2, '0').toUpperCase()).join(' ');
}

// The header's counts and where the sections start, once {@link readHeader} has checked them against the bytes.
interface Layout {
    dv: DataView;
    version: number;
    /** Frames, tags, boxes, string bytes, words. */
    F: number;
    T: number;
    B: number;
    S: number;
    W: number;
    wordsAt: number;
    polyAt: number;
}

// A frame's record before its mask is built.
interface RawFrame {
    name: string;
    width: number;
    height: number;
    x: number;
    y: number;
    sw: number;
    sh: number;
    duration: number;
    boxes: HitBox[];
}

// Validates every field before building anything; any inconsistency throws, so a damaged file never yields a wrong
// mask.
export function read(bytes: Uint8Array): { frames: AtlasFrame[]; tags: AtlasTag[] } {
    const at = readHeader(bytes),
        { F, T, B, S, wordsAt } = at;
    const shapes = at.version === 1 ? null : readPolygons(at.dv, at.polyAt, bytes.length - TRAILER, F);
    const names = new Names(bytes, HEADER + FRAME * F + TAG * T + BOX * B, S);
    const raws = readFrames(at, names);
    const tags = readTags(at, names);
    readBoxes(at, names, raws);
    if (names.at !== names.end) throw corrupt(`names use ${names.at - (names.end - S)} of the ${S} string bytes`);
    for (let p = names.end; p < wordsAt; p++)
        if (bytes[p] !== 0) throw corrupt(`string padding byte at ${p} is not zero`);
    const masks = readMasks(bytes, at, raws);
    const frames = raws.map((r, i): AtlasFrame => {
        const frame: AtlasFrame = {
            name: r.name,
            index: i,
            mask: masks[i],
            x: r.x,
            y: r.y,
            sourceWidth: r.sw,
            sourceHeight: r.sh,
            duration: r.duration,
            boxes: r.boxes
        };
        const s = shapes?.[i];
        return s === undefined || (s.polygons === undefined && s.pieces === undefined)
            ? frame
            : {
                  ...frame,
                  ...(s.polygons === undefined ? {} : { polygons: s.polygons }),
                  ...(s.pieces === undefined ? {} : { pieces: s.pieces })
              };
    });
    return { frames, tags };
}

// Magic, version, flags, length, CRC-32 and the section sizes.
function readHeader(bytes: Uint8Array): Layout {
    const len = bytes.length;
    if (len < HEADER + TRAILER)
        throw corrupt(`${len} bytes is too short (truncated?); a hitmask atlas has at least ${HEADER + TRAILER}`);
    for (let i = 0; i < 4; i++) {
        if (bytes[i] !== MAGIC[i])
            throw new Error(
                `Not a hitmask atlas: it starts with bytes ${hex(bytes, 0, 4)}, expected ${hex(Uint8Array.from(MAGIC), 0, 4)} ("HMSK").`
            );
    }
    const dv = new DataView(bytes.buffer, bytes.byteOffset, len);
    const u32 = (p: number) => dv.getUint32(p, true);
    const version = dv.getUint16(4, true);
    if (version !== 1 && version !== 2)
        throw new Error(`Got a v${version} hitmask atlas, expected v1 or v2; rebuild it with this version of hitmask.`);
    if (dv.getUint16(6, true) !== 0) throw corrupt(`header flags are ${dv.getUint16(6, true)}, expected 0`);
    const byteLength = u32(8);
    if (byteLength !== len)
        throw corrupt(`header says ${byteLength} bytes but got ${len} (truncated, or extra bytes appended)`);
    const stored = u32(len - 4),
        actual = crc32(bytes, 0, len - 4);
    if (stored !== actual)
        throw corrupt(
            `CRC-32 is ${actual.toString(16).padStart(8, '0')}, the file says ${stored.toString(16).padStart(8, '0')} (damaged bytes)`
        );
    const F = u32(12),
        T = u32(16),
        B = u32(20),
        S = u32(24),
        W = u32(28);
    // Doubles: these products cannot overflow, so a huge count is caught here rather than wrapping.
    const wordsAt = HEADER + FRAME * F + TAG * T + BOX * B + pad4(S);
    const polyAt = wordsAt + 4 * W;
    // Version 2: a polygons section between the words and the trailer, at least its header and frame records.
    const least = version === 1 ? 0 : POLY_HEAD + POLY_FRAME * F;
    if (version === 1 ? polyAt + TRAILER !== len : polyAt + least + TRAILER > len) {
        throw corrupt(
            `section sizes (${F} frames, ${T} tags, ${B} boxes, ${S} string bytes, ${W} words${version === 1 ? '' : ', the polygons section'}) add up to ${version === 1 ? '' : 'at least '}${polyAt + least + TRAILER} bytes, not ${len}`
        );
    }
    return { dv, version, F, T, B, S, W, wordsAt, polyAt };
}

// The string section, read in order by the frames, tags and boxes: `at` is the next name's first byte.
class Names {
    at: number;
    readonly end: number;
    // ignoreBOM keeps a leading U+FEFF (the default drops it, and a name of only U+FEFF loaded as ""); writers refuse
    // it.
    private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

    constructor(
        private readonly bytes: Uint8Array,
        at: number,
        size: number
    ) {
        this.at = at;
        this.end = at + size;
    }

    // The next name, `n` bytes long, of `what` (for the messages).
    next(n: number, what: string): string {
        if (n === 0) throw corrupt(`${what} has an empty name`);
        if (this.at + n > this.end) throw corrupt(`${what} name runs past the string section`);
        let s: string;
        try {
            s = this.decoder.decode(this.bytes.subarray(this.at, this.at + n));
        } catch {
            throw corrupt(`${what} name is not valid UTF-8`);
        }
        if (s.charCodeAt(0) === 0xfeff)
            throw corrupt(`${what} name starts with U+FEFF (a byte order mark), which names may not`);
        this.at += n;
        return s;
    }
}

function side(v: number, what: string): number {
    if (v > MAX_SIDE) throw corrupt(`${what} is ${v}, more than ${MAX_SIDE}`);
    return v;
}

// The frame records: names unique, sizes within limits, and exactly the words the header declares.
function readFrames({ dv, F, W }: Layout, names: Names): RawFrame[] {
    const u32 = (p: number) => dv.getUint32(p, true),
        i32 = (p: number) => dv.getInt32(p, true);
    const raws: RawFrame[] = [];
    const seen = new Set<string>();
    let words = 0;
    for (let i = 0, p = HEADER; i < F; i++, p += FRAME) {
        const what = `frame ${i}`;
        const width = side(u32(p + 4), `${what} width`),
            height = side(u32(p + 8), `${what} height`);
        const r: RawFrame = {
            name: names.next(u32(p), what),
            width,
            height,
            x: i32(p + 12),
            y: i32(p + 16),
            sw: side(u32(p + 20), `${what} source width`),
            sh: side(u32(p + 24), `${what} source height`),
            duration: u32(p + 28),
            boxes: []
        };
        if (seen.has(r.name)) throw corrupt(`frame name ${JSON.stringify(r.name)} appears twice`);
        seen.add(r.name);
        words += ((width + 31) >>> 5) * height;
        if (words > W) throw corrupt(`frames need more than the ${W} words the header declares`);
        raws.push(r);
    }
    if (words !== W) throw corrupt(`frames need ${words} words but the header declares ${W}`);
    return raws;
}

function readTags({ dv, F, T }: Layout, names: Names): AtlasTag[] {
    const u32 = (p: number) => dv.getUint32(p, true);
    const tags: AtlasTag[] = [];
    for (let i = 0, p = HEADER + FRAME * F; i < T; i++, p += TAG) {
        const what = `tag ${i}`;
        const n = names.next(u32(p), what),
            from = u32(p + 4),
            to = u32(p + 8),
            dir = u32(p + 12);
        if (!(from <= to && to < F)) throw corrupt(`${what} covers frames ${from}..${to}, outside 0..${F - 1}`);
        if (dir >= DIRECTIONS.length)
            throw corrupt(`${what} direction is ${dir}, expected 0..${DIRECTIONS.length - 1}`);
        tags.push({ name: n, from, to, direction: DIRECTIONS[dir] });
    }
    return tags;
}

// The hit-boxes, sorted by frame, into their frames' records.
function readBoxes({ dv, F, T, B }: Layout, names: Names, raws: RawFrame[]): void {
    const u32 = (p: number) => dv.getUint32(p, true),
        i32 = (p: number) => dv.getInt32(p, true);
    let lastFrame = 0;
    for (let i = 0, p = HEADER + FRAME * F + TAG * T; i < B; i++, p += BOX) {
        const what = `box ${i}`;
        const n = names.next(u32(p), what),
            frame = u32(p + 4);
        if (frame >= F || frame < lastFrame)
            throw corrupt(
                `${what} belongs to frame ${frame}, out of order (boxes are sorted by frame, each below ${F})`
            );
        lastFrame = frame;
        raws[frame].boxes.push({
            name: n,
            x: i32(p + 8),
            y: i32(p + 12),
            width: side(u32(p + 16), `${what} width`),
            height: side(u32(p + 20), `${what} height`)
        });
    }
}

// The masks never keep a view of `bytes`: a caller that transfers or reuses its buffer would empty or
// change them. Aligned little-endian words are read through a view, then copied in one call (here for
// the JS kernels, below into WebAssembly memory).
function readMasks(bytes: Uint8Array, { dv, W, wordsAt }: Layout, raws: readonly RawFrame[]): Mask[] {
    let all: Uint32Array;
    if (LITTLE && (bytes.byteOffset + wordsAt) % 4 === 0) {
        all = new Uint32Array(bytes.buffer, bytes.byteOffset + wordsAt, W);
        if (!wasmOn) all = all.slice();
    } else {
        all = new Uint32Array(W);
        for (let i = 0; i < W; i++) all[i] = dv.getUint32(wordsAt + 4 * i, true);
    }
    const masks: Mask[] = [];
    let w = 0;
    for (let i = 0; i < raws.length; i++) {
        const r = raws[i],
            n = ((r.width + 31) >>> 5) * r.height;
        let mask: Mask;
        try {
            mask = Mask.fromWords(r.width, r.height, all.subarray(w, w + n));
        } catch (e) {
            throw corrupt(`frame ${i} (${JSON.stringify(r.name)}): ${(e as Error).message}`);
        }
        // With the WebAssembly kernels, one copy into WebAssembly memory at load: kernels (and worker
        // threads) only run on masks there, so a zero-copy JS view would take the JS kernels on every call.
        if (wasmOn && n > 0) {
            const view = mask;
            mask = view.clone();
            view.dispose();
        }
        w += n;
        masks.push(mask);
    }
    return masks;
}

// Version 2's polygons section in [at, end): every count is checked against the bytes that are there before
// anything is allocated for it, so a hostile file costs memory in proportion to its length.
function readPolygons(
    dv: DataView,
    at: number,
    end: number,
    F: number
): { polygons?: Polygon[]; pieces?: number[][] }[] {
    const u32 = (p: number) => dv.getUint32(p, true);
    const P = u32(at),
        R = u32(at + 4),
        V = u32(at + 8);
    const size = POLY_HEAD + POLY_FRAME * F + 4 * P + 4 * R + VERTEX * V;
    if (at + size !== end)
        throw corrupt(
            `polygons section sizes (${P} polygons, ${R} rings, ${V} vertices, ${F} frames) add up to ${size} bytes, but ${end - at} are there`
        );
    interface Counts {
        flags: number;
        polygons: number;
        pieces: number;
    }
    const counts: Counts[] = [];
    let polys = 0,
        any = false;
    for (let i = 0, p = at + POLY_HEAD; i < F; i++, p += POLY_FRAME) {
        const c: Counts = { flags: u32(p), polygons: u32(p + 4), pieces: u32(p + 8) };
        if (c.flags > 3) throw corrupt(`frame ${i} polygons flags are ${c.flags}, expected 0..3`);
        if (!(c.flags & 1) && c.polygons !== 0)
            throw corrupt(`frame ${i} has no polygons but a polygon count of ${c.polygons}`);
        if (!(c.flags & 2) && c.pieces !== 0)
            throw corrupt(`frame ${i} has no pieces but a piece count of ${c.pieces}`);
        if (c.flags !== 0) any = true;
        polys += c.polygons;
        if (polys > P) throw corrupt(`frames have more than the ${P} polygons the polygons section declares`);
        counts.push(c);
    }
    if (polys !== P) throw corrupt(`frames have ${polys} polygons but the polygons section declares ${P}`);
    // A version 2 file is only written when some frame has polygons or pieces (version 1 otherwise).
    if (!any) throw corrupt('no frame has polygons or pieces, so the file should be version 1');
    const holesAt = at + POLY_HEAD + POLY_FRAME * F,
        ringsAt = holesAt + 4 * P,
        coordsAt = ringsAt + 4 * R;
    let rings = 0;
    for (let i = 0; i < P; i++) {
        rings += 1 + u32(holesAt + 4 * i);
        if (rings > R) throw corrupt(`polygons have more than the ${R} rings the polygons section declares`);
    }
    for (const c of counts) rings += c.pieces;
    if (rings !== R) throw corrupt(`polygons and pieces have ${rings} rings but the polygons section declares ${R}`);
    let vertices = 0;
    for (let i = 0; i < R; i++) {
        const n = u32(ringsAt + 4 * i);
        if (n < 3) throw corrupt(`ring ${i} has ${n} vertices, fewer than 3`);
        vertices += n;
        if (vertices > V) throw corrupt(`rings have more than the ${V} vertices the polygons section declares`);
    }
    if (vertices !== V) throw corrupt(`rings have ${vertices} vertices but the polygons section declares ${V}`);
    let ring = 0,
        c = coordsAt;
    const next = (): number[] => {
        const n = 2 * u32(ringsAt + 4 * ring);
        const out = new Array<number>(n);
        for (let k = 0; k < n; k++, c += 8) {
            const v = dv.getFloat64(c, true);
            if (!Number.isFinite(v)) throw corrupt(`ring ${ring} coordinate ${k} is ${v}, not a finite number`);
            out[k] = v;
        }
        ring++;
        return out;
    };
    let hole = 0;
    return counts.map(f => {
        const out: { polygons?: Polygon[]; pieces?: number[][] } = {};
        if (f.flags & 1) {
            out.polygons = [];
            for (let k = 0; k < f.polygons; k++) {
                const h = u32(holesAt + 4 * hole++);
                const outer = next();
                const holes: number[][] = [];
                for (let j = 0; j < h; j++) holes.push(next());
                out.polygons.push({ outer, holes });
            }
        }
        if (f.flags & 2) {
            out.pieces = [];
            for (let k = 0; k < f.pieces; k++) out.pieces.push(next());
        }
        return out;
    });
}
