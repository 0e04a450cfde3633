import { checkInt, checkSize, describe, MAX_SIDE } from './check.js';
import { crc32 } from './crc32.js';
import { Mask } from './mask.js';
import { wasmOn } from './wasm/simd.js';

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
}

/** Current version of the binary atlas format (see docs/format.md). */
export const ATLAS_VERSION = 1;

const MAGIC = [0x48, 0x4d, 0x53, 0x4b]; // "HMSK"
const HEADER = 32, FRAME = 32, TAG = 16, BOX = 24, TRAILER = 4;
const DIRECTIONS: readonly TagDirection[] = ['forward', 'reverse', 'pingpong', 'pingpong_reverse'];
const I32 = 2 ** 31, U32 = 2 ** 32 - 1;
const LITTLE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Named collision masks with frame metadata (trim offsets, durations, animation tags, hit-boxes),
 * stored in one compact little-endian binary file that loads without decoding images.
 */
export class MaskAtlas {
    private readonly list: AtlasFrame[] = [];
    private readonly byName = new Map<string, AtlasFrame>();
    private readonly tagList: AtlasTag[] = [];

    /**
     * Loads an atlas written by {@link toBytes} (or the `hitmask build` CLI). Every byte is validated
     * (magic, version, sizes, CRC-32); a damaged file throws. With the WebAssembly kernels (the default
     * where SIMD exists) each mask is copied once into WebAssembly memory; with the JS kernels the masks
     * share memory with `bytes` when its words section is 4-byte aligned: clone a mask before changing it.
     * @example const atlas = MaskAtlas.from(new Uint8Array(await (await fetch('masks.hitmask')).arrayBuffer()));
     */
    static from(bytes: Uint8Array | ArrayBuffer): MaskAtlas {
        if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
        if (!(bytes instanceof Uint8Array)) throw new TypeError(`bytes must be a Uint8Array or ArrayBuffer, got ${describe(bytes)}.`);
        const { frames, tags } = read(bytes);
        const atlas = new MaskAtlas();
        for (const f of frames) atlas.push(f);
        atlas.tagList.push(...tags);
        return atlas;
    }

    /** Adds a frame; names must be unique and non-empty. Returns this atlas. */
    add(name: string, mask: Mask, options: AddFrameOptions = {}): this {
        checkName('frame name', name);
        if (this.byName.has(name)) throw new Error(`The atlas already has a frame named ${describe(name)}; frame names must be unique.`);
        if (!(mask instanceof Mask)) throw new TypeError(`mask must be a Mask, got ${describe(mask)}.`);
        const boxes = (options.boxes ?? []).map((b, i) => checkBox(b, `boxes[${i}]`));
        this.push({
            name, index: this.list.length, mask,
            x: checkInt('x', options.x ?? 0, -I32, I32 - 1),
            y: checkInt('y', options.y ?? 0, -I32, I32 - 1),
            sourceWidth: checkSize('sourceWidth', options.sourceWidth ?? mask.width),
            sourceHeight: checkSize('sourceHeight', options.sourceHeight ?? mask.height),
            duration: checkInt('duration', options.duration ?? 0, 0, U32),
            boxes
        });
        return this;
    }

    /** Adds an animation tag over frames `from..to` (inclusive indices of frames already added). Returns this atlas. */
    addTag(name: string, from: number, to: number, direction: TagDirection = 'forward'): this {
        checkName('tag name', name);
        const n = this.list.length;
        if (n === 0) throw new RangeError(`Tag ${describe(name)} needs frames; add frames before tags.`);
        checkInt('tag from', from, 0, n - 1);
        checkInt('tag to', to, from, n - 1);
        if (!DIRECTIONS.includes(direction)) throw new RangeError(`tag direction must be one of ${DIRECTIONS.join(', ')}, got ${describe(direction)}.`);
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
        const some = this.list.slice(0, 5).map(g => JSON.stringify(g.name)).join(', ');
        throw new Error(`No frame named ${describe(name)} in the atlas; it has ${this.list.length} frame(s)${some ? `: ${some}${this.list.length > 5 ? ', …' : ''}` : ''}.`);
    }

    /** The frames of the first tag named `name`, in index order; throws if there is no such tag. */
    tagFrames(name: string): AtlasFrame[] {
        const t = this.tagList.find(g => g.name === name);
        if (!t) throw new Error(`No tag named ${describe(name)} in the atlas; tags: ${this.tagList.map(g => JSON.stringify(g.name)).join(', ') || 'none'}.`);
        return this.list.slice(t.from, t.to + 1);
    }

    /** A new mask of frame `name` at its untrimmed size, the trimmed mask drawn at its offset. */
    untrimmed(name: string): Mask {
        const f = this.frame(name);
        return new Mask(f.sourceWidth, f.sourceHeight).draw(f.mask, f.x, f.y);
    }

    /** Serialises the atlas in the hitmask binary format (docs/format.md). */
    toBytes(): Uint8Array {
        const enc = new TextEncoder();
        const names: Uint8Array[] = [];
        const boxes: { frame: number; box: HitBox }[] = [];
        for (const f of this.list) for (const box of f.boxes) boxes.push({ frame: f.index, box });
        for (const f of this.list) names.push(enc.encode(f.name));
        for (const t of this.tagList) names.push(enc.encode(t.name));
        for (const b of boxes) names.push(enc.encode(b.box.name));
        let stringBytes = 0, wordCount = 0;
        for (const s of names) stringBytes += s.length;
        for (const f of this.list) wordCount += f.mask.words.length;
        const F = this.list.length, T = this.tagList.length, B = boxes.length;
        const wordsAt = HEADER + FRAME * F + TAG * T + BOX * B + pad4(stringBytes);
        const byteLength = wordsAt + 4 * wordCount + TRAILER;
        if (byteLength > U32) throw new RangeError(`The atlas would be ${byteLength} bytes, more than the format's 4 GiB limit; split it.`);
        const out = new Uint8Array(byteLength);
        const dv = new DataView(out.buffer);
        out.set(MAGIC, 0);
        dv.setUint16(4, ATLAS_VERSION, true);
        dv.setUint16(6, 0, true);
        const head = [byteLength, F, T, B, stringBytes, wordCount];
        for (let i = 0; i < head.length; i++) dv.setUint32(8 + 4 * i, head[i], true);
        let p = HEADER, s = 0;
        for (const f of this.list) {
            const row = [names[s++].length, f.mask.width, f.mask.height, f.x, f.y, f.sourceWidth, f.sourceHeight, f.duration];
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
        for (const n of names) { out.set(n, p); p += n.length; }
        p = wordsAt;
        if (LITTLE) {
            const words = new Uint32Array(out.buffer, wordsAt, wordCount);
            let w = 0;
            for (const f of this.list) { words.set(f.mask.words, w); w += f.mask.words.length; }
        } else {
            for (const f of this.list) for (const word of f.mask.words) { dv.setUint32(p, word, true); p += 4; }
        }
        dv.setUint32(byteLength - 4, crc32(out, 0, byteLength - 4), true);
        return out;
    }

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
    if (typeof name !== 'string' || name.length === 0) throw new TypeError(`${what} must be a non-empty string, got ${describe(name)}.`);
    if (name.charCodeAt(0) === 0xfeff) throw new TypeError(`${what} must not start with U+FEFF (a byte order mark, dropped by UTF-8 readers), got ${JSON.stringify(name.length > 40 ? name.slice(0, 40) + '…' : name)}; remove it.`);
    for (let i = 0; i < name.length; i++) {
        const c = name.charCodeAt(i);
        if (c < 0xd800 || c > 0xdfff) continue;
        if (c <= 0xdbff && i + 1 < name.length) {
            const d = name.charCodeAt(i + 1);
            if (d >= 0xdc00 && d <= 0xdfff) { i++; continue; }
        }
        throw new TypeError(`${what} has a lone surrogate (U+${c.toString(16).toUpperCase()} at index ${i}), which UTF-8 cannot store; fix the string ${describe(name)}.`);
    }
}

function checkBox(b: HitBox, what: string): HitBox {
    if (b == null || typeof b !== 'object') throw new TypeError(`${what} must be a { name, x, y, width, height } object, got ${describe(b)}.`);
    checkName(`${what}.name`, b.name);
    return {
        name: b.name,
        x: checkInt(`${what}.x`, b.x, -I32, I32 - 1),
        y: checkInt(`${what}.y`, b.y, -I32, I32 - 1),
        width: checkSize(`${what}.width`, b.width),
        height: checkSize(`${what}.height`, b.height)
    };
}

function corrupt(msg: string): Error {
    return new Error(`Corrupt hitmask atlas: ${msg}.`);
}

function hex(bytes: Uint8Array, start: number, n: number): string {
    return Array.from(bytes.subarray(start, start + n), b => b.toString(16).padStart(2, '0').toUpperCase()).join(' ');
}

// Validates every field before building anything; any inconsistency throws, so a damaged file never yields a wrong mask.
function read(bytes: Uint8Array): { frames: AtlasFrame[]; tags: AtlasTag[] } {
    const len = bytes.length;
    if (len < HEADER + TRAILER) throw corrupt(`${len} bytes is too short (truncated?); a hitmask atlas has at least ${HEADER + TRAILER}`);
    for (let i = 0; i < 4; i++) {
        if (bytes[i] !== MAGIC[i]) throw new Error(`Not a hitmask atlas: it starts with bytes ${hex(bytes, 0, 4)}, expected ${hex(Uint8Array.from(MAGIC), 0, 4)} ("HMSK").`);
    }
    const dv = new DataView(bytes.buffer, bytes.byteOffset, len);
    const u32 = (p: number) => dv.getUint32(p, true);
    const version = dv.getUint16(4, true);
    if (version !== ATLAS_VERSION) throw new Error(`Got a v${version} hitmask atlas, expected v${ATLAS_VERSION}; rebuild it with this version of hitmask.`);
    if (dv.getUint16(6, true) !== 0) throw corrupt(`header flags are ${dv.getUint16(6, true)}, expected 0`);
    const byteLength = u32(8);
    if (byteLength !== len) throw corrupt(`header says ${byteLength} bytes but got ${len} (truncated, or extra bytes appended)`);
    const stored = u32(len - 4), actual = crc32(bytes, 0, len - 4);
    if (stored !== actual) throw corrupt(`CRC-32 is ${actual.toString(16).padStart(8, '0')}, the file says ${stored.toString(16).padStart(8, '0')} (damaged bytes)`);
    const F = u32(12), T = u32(16), B = u32(20), S = u32(24), W = u32(28);
    // Doubles: these products cannot overflow, so a huge count is caught here rather than wrapping.
    const wordsAt = HEADER + FRAME * F + TAG * T + BOX * B + pad4(S);
    if (wordsAt + 4 * W + TRAILER !== len) {
        throw corrupt(`section sizes (${F} frames, ${T} tags, ${B} boxes, ${S} string bytes, ${W} words) add up to ${wordsAt + 4 * W + TRAILER} bytes, not ${len}`);
    }
    // ignoreBOM keeps a leading U+FEFF (the default drops it, and a name of only U+FEFF loaded as ""); writers refuse it.
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    let sp = HEADER + FRAME * F + TAG * T + BOX * B;
    const stringsEnd = sp + S;
    const name = (n: number, what: string): string => {
        if (n === 0) throw corrupt(`${what} has an empty name`);
        if (sp + n > stringsEnd) throw corrupt(`${what} name runs past the string section`);
        let s: string;
        try { s = decoder.decode(bytes.subarray(sp, sp + n)); } catch { throw corrupt(`${what} name is not valid UTF-8`); }
        if (s.charCodeAt(0) === 0xfeff) throw corrupt(`${what} name starts with U+FEFF (a byte order mark), which names may not`);
        sp += n;
        return s;
    };
    const i32 = (p: number) => dv.getInt32(p, true);
    const side = (v: number, what: string) => {
        if (v > MAX_SIDE) throw corrupt(`${what} is ${v}, more than ${MAX_SIDE}`);
        return v;
    };

    // Frames: metadata first, words after the strings.
    interface Raw { name: string; width: number; height: number; x: number; y: number; sw: number; sh: number; duration: number; boxes: HitBox[] }
    const raws: Raw[] = [];
    const seen = new Set<string>();
    let words = 0;
    for (let i = 0, p = HEADER; i < F; i++, p += FRAME) {
        const what = `frame ${i}`;
        const width = side(u32(p + 4), `${what} width`), height = side(u32(p + 8), `${what} height`);
        const r: Raw = {
            name: name(u32(p), what), width, height, x: i32(p + 12), y: i32(p + 16),
            sw: side(u32(p + 20), `${what} source width`), sh: side(u32(p + 24), `${what} source height`),
            duration: u32(p + 28), boxes: []
        };
        if (seen.has(r.name)) throw corrupt(`frame name ${JSON.stringify(r.name)} appears twice`);
        seen.add(r.name);
        words += ((width + 31) >>> 5) * height;
        if (words > W) throw corrupt(`frames need more than the ${W} words the header declares`);
        raws.push(r);
    }
    if (words !== W) throw corrupt(`frames need ${words} words but the header declares ${W}`);
    const tags: AtlasTag[] = [];
    for (let i = 0, p = HEADER + FRAME * F; i < T; i++, p += TAG) {
        const what = `tag ${i}`;
        const n = name(u32(p), what), from = u32(p + 4), to = u32(p + 8), dir = u32(p + 12);
        if (!(from <= to && to < F)) throw corrupt(`${what} covers frames ${from}..${to}, outside 0..${F - 1}`);
        if (dir >= DIRECTIONS.length) throw corrupt(`${what} direction is ${dir}, expected 0..${DIRECTIONS.length - 1}`);
        tags.push({ name: n, from, to, direction: DIRECTIONS[dir] });
    }
    let lastFrame = 0;
    for (let i = 0, p = HEADER + FRAME * F + TAG * T; i < B; i++, p += BOX) {
        const what = `box ${i}`;
        const n = name(u32(p), what), frame = u32(p + 4);
        if (frame >= F || frame < lastFrame) throw corrupt(`${what} belongs to frame ${frame}; boxes must be sorted by frame and below ${F}`);
        lastFrame = frame;
        raws[frame].boxes.push({ name: n, x: i32(p + 8), y: i32(p + 12), width: side(u32(p + 16), `${what} width`), height: side(u32(p + 20), `${what} height`) });
    }
    if (sp !== stringsEnd) throw corrupt(`names use ${sp - (stringsEnd - S)} of the ${S} string bytes`);
    for (let p = stringsEnd; p < wordsAt; p++) if (bytes[p] !== 0) throw corrupt(`string padding byte at ${p} is not zero`);

    // Zero-copy view when the platform is little-endian and the words are 4-byte aligned; one copy otherwise.
    let all: Uint32Array;
    if (LITTLE && (bytes.byteOffset + wordsAt) % 4 === 0) {
        all = new Uint32Array(bytes.buffer, bytes.byteOffset + wordsAt, W);
    } else {
        all = new Uint32Array(W);
        for (let i = 0; i < W; i++) all[i] = u32(wordsAt + 4 * i);
    }
    const frames: AtlasFrame[] = [];
    let w = 0;
    for (let i = 0; i < F; i++) {
        const r = raws[i], n = ((r.width + 31) >>> 5) * r.height;
        let mask: Mask;
        try { mask = Mask.fromWords(r.width, r.height, all.subarray(w, w + n)); } catch (e) { throw corrupt(`frame ${i} (${JSON.stringify(r.name)}): ${(e as Error).message}`); }
        // With the WebAssembly kernels, one copy into WebAssembly memory at load: kernels (and worker
        // threads) only run on masks there, so a zero-copy JS view would take the JS kernels on every call.
        if (wasmOn && n > 0) {
            const view = mask;
            mask = view.clone();
            view.dispose();
        }
        w += n;
        frames.push({ name: r.name, index: i, mask, x: r.x, y: r.y, sourceWidth: r.sw, sourceHeight: r.sh, duration: r.duration, boxes: r.boxes });
    }
    return { frames, tags };
}
