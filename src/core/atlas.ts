import { checkInt, checkSize, describe, must, outOfRange, typeError, wrongType } from '../base/check.js';
import { checkObject, checkOneOf, checkString } from '../base/check-types.js';
import { checkPieces, checkPolygons } from '../base/check-shapes.js';
import { crc32 } from '../base/crc32.js';
import { checkMask, Mask } from './mask.js';
import type { Polygon } from '../base/types.js';
import {
    BOX,
    DIRECTIONS,
    FRAME,
    HEADER,
    I32,
    LITTLE,
    MAGIC,
    pad4,
    POLY_FRAME,
    POLY_HEAD,
    TAG,
    TRAILER,
    U32,
    VERTEX
} from './atlas-format.js';
import type { AtlasFrame, AtlasTag, HitBox, TagDirection } from './atlas-frame.js';
import { read } from './atlas-read.js';

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
    /**
     * Polygons to store with the frame (see {@link AtlasFrame.polygons}); rings of ≥ 3 vertices, finite coordinates.
     */
    polygons?: readonly Polygon[];
    /**
     * Convex pieces to store with the frame (see {@link AtlasFrame.pieces}); rings of ≥ 3 vertices, finite coordinates.
     */
    pieces?: readonly (readonly number[])[];
}

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

    /**
     * Serialises the atlas in the hitmask binary format (docs/format.md): version 2 when a frame has polygons or
     * pieces, else version 1.
     */
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
