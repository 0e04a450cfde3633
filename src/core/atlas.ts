import { checkInt, checkSize, describe, MAX_SIDE, must, outOfRange, typeError, wrongType } from '../base/check.js';
import { checkObject, checkOneOf, checkString } from '../base/check-types.js';
import { checkPieces, checkPolygons } from '../base/check-shapes.js';
import { crc32 } from '../base/crc32.js';
import { checkMask, Mask } from './mask.js';
import type { Polygon } from '../base/types.js';
import { wasmOn } from '../kernels/memory.js';

/** Playback direction of an animation tag (Aseprite's names). */
export type TagDirection = 'forward' | 'reverse' | 'pingpong' | 'pingpong_reverse';

/** A named rectangle on one frame (an Aseprite slice), in the frame's untrimmed coordinates. */
export interface HitBox {
    readonly name: string;
    readonly x: number;
    readonly y: number;
    readonly width: number;
    readonly height: number;
}

/** A named run of frames `from..to` (inclusive indices into {@link MaskAtlas.frames}). */
export interface AtlasTag {
    readonly name: string;
    readonly from: number;
    readonly to: number;
    readonly direction: TagDirection;
}

/** One frame of a {@link MaskAtlas}: its mask and where that mask sits in the untrimmed sprite frame. */
export interface AtlasFrame {
    readonly name: string;
    /** Position in {@link MaskAtlas.frames}. */
    readonly index: number;
    readonly mask: Mask;
    /** Offset of the mask's top-left inside the untrimmed frame (the trim offset). */
    readonly x: number;
    readonly y: number;
    /** Size of the untrimmed frame. */
    readonly sourceWidth: number;
    readonly sourceHeight: number;
    /** Display time in milliseconds; 0 when unknown. */
    readonly duration: number;
    readonly boxes: readonly HitBox[];
    /**
     * Polygons of the mask (outer ring + holes, flat `[x0, y0, x1, y1, …]` rings in the mask's pixel-corner
     * coordinates, as `toPolygons` of `hitmask/shapes` makes them), when stored (`hitmask build --polygons`).
     */
    readonly polygons?: readonly Polygon[];
    /** Convex pieces (flat rings, same coordinates), when stored. */
    readonly pieces?: readonly (readonly number[])[];
}

/** Options of {@link MaskAtlas.add}. */
export interface AddFrameOptions {
    /** Offset of the mask inside the untrimmed frame. @default 0 */
    x?: number;
    /** @default 0 */
    y?: number;
    /** Untrimmed frame width. @default mask.width */
    sourceWidth?: number;
    /** Untrimmed frame height. @default mask.height */
    sourceHeight?: number;
    /** Display time in milliseconds. @default 0 */
    duration?: number;
    /** Named hit-boxes in untrimmed frame coordinates. @default [] */
    boxes?: readonly HitBox[];
    /** Polygons to store with the frame (see {@link AtlasFrame.polygons}); rings of ≥ 3 vertices, finite coordinates. */
    polygons?: readonly Polygon[];
    /** Convex pieces to store with the frame (see {@link AtlasFrame.pieces}); rings of ≥ 3 vertices, finite coordinates. */
    pieces?: readonly (readonly number[])[];
}

const MAGIC = [0x48, 0x4d, 0x53, 0x4b]; // "HMSK"
const HEADER = 32,
    FRAME = 32,
    TAG = 16,
    BOX = 24,
    TRAILER = 4;
// Version 2's polygons section: its header (polygons, rings, vertices), a record per frame, 8-byte coordinates.
const POLY_HEAD = 12,
    POLY_FRAME = 12,
    VERTEX = 16;
const DIRECTIONS: readonly TagDirection[] = ['forward', 'reverse', 'pingpong', 'pingpong_reverse'];
const I32 = 2 ** 31,
    U32 = 2 ** 32 - 1;
const LITTLE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Named collision masks with frame metadata (trim offsets, durations, animation tags, hit-boxes),
 * stored in one compact little-endian binary file that loads without decoding images.
 */
export class MaskAtlas {
    /**
     * Newest version of the binary atlas format (see docs/format.md). {@link toBytes} writes version 2 only
     * when a frame has polygons or pieces, and version 1 otherwise; {@link from} reads both.
     */
    static readonly VERSION = 2;

    /** @internal */
    private readonly list: AtlasFrame[] = [];
    /** @internal */
    private readonly byName = new Map<string, AtlasFrame>();
    /** @internal */
    private readonly tagList: AtlasTag[] = [];

    /**
     * Loads an atlas written by {@link toBytes} (or the `hitmask build` CLI). Every byte is validated
     * (magic, version, sizes, CRC-32); a damaged file throws. With the WebAssembly kernels (the default
     * where SIMD exists) each mask is copied once into WebAssembly memory, with the JS kernels into one
     * array of the atlas's own: changing `bytes` or transferring its buffer later leaves the atlas as it was.
     * @example const atlas = MaskAtlas.from(new Uint8Array(await (await fetch('masks.hitmask')).arrayBuffer()));
     */
    static from(bytes: Uint8Array | ArrayBuffer): MaskAtlas {
        if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
        if (!(bytes instanceof Uint8Array)) throw typeError('bytes', 'a Uint8Array or ArrayBuffer', bytes);
        const { frames, tags } = read(bytes);
        const atlas = new MaskAtlas();
        for (const f of frames) atlas.push(f);
        atlas.tagList.push(...tags);
        return atlas;
    }

    /** Adds a frame; names must be unique and non-empty. Returns this atlas. */
    add(name: string, mask: Mask, options: AddFrameOptions = {}): this {
        checkName('frame name', name);
        if (this.byName.has(name))
            throw new Error(`The atlas already has a frame named ${describe(name)}; give each frame its own name.`);
        checkMask(mask, 'mask');
        const boxes = (options.boxes ?? []).map((b, i) => checkBox(b, `boxes[${i}]`));
        const frame: AtlasFrame = {
            name,
            index: this.list.length,
            mask,
            x: checkInt('x', options.x ?? 0, -I32, I32 - 1),
            y: checkInt('y', options.y ?? 0, -I32, I32 - 1),
            sourceWidth: checkSize('sourceWidth', options.sourceWidth ?? mask.width),
            sourceHeight: checkSize('sourceHeight', options.sourceHeight ?? mask.height),
            duration: checkInt('duration', options.duration ?? 0, 0, U32),
            boxes
        };
        // Copies of the rings, checked: the caller may change its arrays afterwards.
        const polygons =
            options.polygons === undefined ? undefined : copyPolygons(checkPolygons('polygons', options.polygons));
        const pieces = options.pieces === undefined ? undefined : copyRings(checkPieces('pieces', options.pieces));
        this.push(
            polygons === undefined && pieces === undefined
                ? frame
                : {
                      ...frame,
                      ...(polygons === undefined ? {} : { polygons }),
                      ...(pieces === undefined ? {} : { pieces })
                  }
        );
        return this;
    }

    /** Adds an animation tag over frames `from..to` (inclusive indices of frames already added). Returns this atlas. */
    addTag(name: string, from: number, to: number, direction: TagDirection = 'forward'): this {
        checkName('tag name', name);
        const n = this.list.length;
        if (n === 0) throw outOfRange(`Tag ${describe(name)} needs frames; add frames before tags.`);
        checkInt('tag from', from, 0, n - 1);
        checkInt('tag to', to, from, n - 1);
        checkOneOf('tag direction', direction, DIRECTIONS);
        this.tagList.push({ name, from, to, direction });
        return this;
    }

    /** Frame names in order. */
    get names(): string[] {
        return this.list.map(f => f.name);
    }

    /** Frames in order. */
    get frames(): readonly AtlasFrame[] {
        return this.list;
    }

    /** Animation tags in order. */
    get tags(): readonly AtlasTag[] {
        return this.tagList;
    }

    /** Number of frames. */
    get size(): number {
        return this.list.length;
    }

    /** Whether a frame named `name` exists. */
    has(name: string): boolean {
        return this.byName.has(name);
    }

    /** The mask of frame `name` (its top-left sits at the frame's `x`, `y` in the untrimmed frame). */
    get(name: string): Mask {
        return this.frame(name).mask;
    }

    /** Frame `name` with its metadata; throws if there is none. */
    frame(name: string): AtlasFrame {
        const f = this.byName.get(name);
        if (f) return f;
        const some = this.list
            .slice(0, 5)
            .map(g => JSON.stringify(g.name))
            .join(', ');
        throw new Error(
            `No frame named ${describe(name)} in the atlas; it has ${this.list.length} frame(s)${some ? `: ${some}${this.list.length > 5 ? ', …' : ''}` : ''}.`
        );
    }

    /** The frames of the first tag named `name`, in index order; throws if there is no such tag. */
    tagFrames(name: string): AtlasFrame[] {
        const t = this.tagList.find(g => g.name === name);
        if (!t)
            throw new Error(
                `No tag named ${describe(name)} in the atlas; tags: ${this.tagList.map(g => JSON.stringify(g.name)).join(', ') || 'none'}.`
            );
        return this.list.slice(t.from, t.to + 1);
    }

    /** A new mask of frame `name` at its untrimmed size, the trimmed mask drawn at its offset. */
    untrimmed(name: string): Mask {
        const f = this.frame(name);
        return new Mask(f.sourceWidth, f.sourceHeight).draw(f.mask, f.x, f.y);
    }

    /** Serialises the atlas in the hitmask binary format (docs/format.md): version 2 when a frame has polygons or pieces, else version 1. */
    toBytes(): Uint8Array {
        const enc = new TextEncoder();
        const names: Uint8Array[] = [];
        const boxes: { frame: number; box: HitBox }[] = [];
        for (const f of this.list) for (const box of f.boxes) boxes.push({ frame: f.index, box });
        for (const f of this.list) names.push(enc.encode(f.name));
        for (const t of this.tagList) names.push(enc.encode(t.name));
        for (const b of boxes) names.push(enc.encode(b.box.name));
        let stringBytes = 0,
            wordCount = 0;
        for (const s of names) stringBytes += s.length;
        for (const f of this.list) wordCount += f.mask._words.length;
        const F = this.list.length,
            T = this.tagList.length,
            B = boxes.length;
        const wordsAt = HEADER + FRAME * F + TAG * T + BOX * B + pad4(stringBytes);
        const v2 = this.list.some(f => f.polygons !== undefined || f.pieces !== undefined);
        let polyCount = 0,
            ringCount = 0,
            vertexCount = 0;
        if (v2) {
            for (const f of this.list) {
                for (const p of f.polygons ?? []) {
                    polyCount++;
                    ringCount += 1 + p.holes.length;
                    vertexCount += p.outer.length / 2;
                    for (const h of p.holes) vertexCount += h.length / 2;
                }
                for (const r of f.pieces ?? []) {
                    ringCount++;
                    vertexCount += r.length / 2;
                }
            }
        }
        const polyAt = wordsAt + 4 * wordCount;
        const polyBytes = v2 ? POLY_HEAD + POLY_FRAME * F + 4 * polyCount + 4 * ringCount + VERTEX * vertexCount : 0;
        const byteLength = polyAt + polyBytes + TRAILER;
        if (byteLength > U32)
            throw outOfRange(`The atlas would be ${byteLength} bytes, more than the format's 4 GiB limit; split it.`);
        const out = new Uint8Array(byteLength);
        const dv = new DataView(out.buffer);
        out.set(MAGIC, 0);
        dv.setUint16(4, v2 ? 2 : 1, true);
        dv.setUint16(6, 0, true);
        const head = [byteLength, F, T, B, stringBytes, wordCount];
        for (let i = 0; i < head.length; i++) dv.setUint32(8 + 4 * i, head[i], true);
        let p = HEADER,
            s = 0;
        for (const f of this.list) {
            const row = [
                names[s++].length,
                f.mask.width,
                f.mask.height,
                f.x,
                f.y,
                f.sourceWidth,
                f.sourceHeight,
                f.duration
            ];
            for (let i = 0; i < row.length; i++, p += 4) dv.setUint32(p, row[i] >>> 0, true);
        }
        for (const t of this.tagList) {
            const row = [names[s++].length, t.from, t.to, DIRECTIONS.indexOf(t.direction)];
            for (let i = 0; i < row.length; i++, p += 4) dv.setUint32(p, row[i], true);
        }
        for (const { frame, box } of boxes) {
            const row = [names[s++].length, frame, box.x, box.y, box.width, box.height];
            for (let i = 0; i < row.length; i++, p += 4) dv.setUint32(p, row[i] >>> 0, true);
        }
        for (const n of names) {
            out.set(n, p);
            p += n.length;
        }
        p = wordsAt;
        if (LITTLE) {
            const words = new Uint32Array(out.buffer, wordsAt, wordCount);
            let w = 0;
            for (const f of this.list) {
                words.set(f.mask._words, w);
                w += f.mask._words.length;
            }
        } else {
            for (const f of this.list)
                for (const word of f.mask._words) {
                    dv.setUint32(p, word, true);
                    p += 4;
                }
        }
        if (v2) {
            p = polyAt;
            for (const v of [polyCount, ringCount, vertexCount]) {
                dv.setUint32(p, v, true);
                p += 4;
            }
            for (const f of this.list) {
                const flags = (f.polygons !== undefined ? 1 : 0) | (f.pieces !== undefined ? 2 : 0);
                for (const v of [flags, f.polygons?.length ?? 0, f.pieces?.length ?? 0]) {
                    dv.setUint32(p, v, true);
                    p += 4;
                }
            }
            const rings: (readonly number[])[] = [];
            for (const f of this.list) {
                for (const poly of f.polygons ?? []) {
                    dv.setUint32(p, poly.holes.length, true);
                    p += 4;
                    rings.push(poly.outer, ...poly.holes);
                }
                for (const r of f.pieces ?? []) rings.push(r);
            }
            for (const r of rings) {
                dv.setUint32(p, r.length / 2, true);
                p += 4;
            }
            for (const r of rings)
                for (const c of r) {
                    dv.setFloat64(p, c, true);
                    p += 8;
                }
        }
        dv.setUint32(byteLength - 4, crc32(out, 0, byteLength - 4), true);
        return out;
    }

    /** @internal */
    private push(f: AtlasFrame): void {
        this.list.push(f);
        this.byName.set(f.name, f);
    }
}

// In doubles: `(n + 3) & ~3` wraps for n ≥ 2^31, and a file declaring 2^32 - 1 string bytes then passed the size check.
function pad4(n: number): number {
    return Math.ceil(n / 4) * 4;
}

// A name must come back from the file as it went in: UTF-8 cannot hold a lone surrogate (TextEncoder writes
// U+FFFD), and a leading U+FEFF is a byte order mark to UTF-8 readers; either gave a file that loads other names.
function checkName(what: string, name: unknown): asserts name is string {
    checkString(what, name, true);
    if (name.charCodeAt(0) === 0xfeff)
        throw wrongType(
            must(
                what,
                'not start with U+FEFF (a byte order mark, dropped by UTF-8 readers)',
                describe(name),
                '; remove it'
            )
        );
    for (let i = 0; i < name.length; i++) {
        const c = name.charCodeAt(i);
        if (c < 0xd800 || c > 0xdfff) continue;
        if (c <= 0xdbff && i + 1 < name.length) {
            const d = name.charCodeAt(i + 1);
            if (d >= 0xdc00 && d <= 0xdfff) {
                i++;
                continue;
            }
        }
        throw wrongType(
            `${what} has a lone surrogate (U+${c.toString(16).toUpperCase()} at index ${i}), which UTF-8 cannot store; fix the string ${describe(name)}.`
        );
    }
}

function checkBox(b: HitBox, what: string): HitBox {
    checkObject(what, b, 'a { name, x, y, width, height } object');
    checkName(`${what}.name`, b.name);
    return {
        name: b.name,
        x: checkInt(`${what}.x`, b.x, -I32, I32 - 1),
        y: checkInt(`${what}.y`, b.y, -I32, I32 - 1),
        width: checkSize(`${what}.width`, b.width),
        height: checkSize(`${what}.height`, b.height)
    };
}

function copyRings(rings: readonly number[][]): number[][] {
    return rings.map(r => r.slice());
}

function copyPolygons(polygons: readonly Polygon[]): Polygon[] {
    return polygons.map(p => ({ outer: p.outer.slice(), holes: copyRings(p.holes) }));
}

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

// Validates every field before building anything; any inconsistency throws, so a damaged file never yields a wrong mask.
function read(bytes: Uint8Array): { frames: AtlasFrame[]; tags: AtlasTag[] } {
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
    // ignoreBOM keeps a leading U+FEFF (the default drops it, and a name of only U+FEFF loaded as ""); writers refuse it.
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
