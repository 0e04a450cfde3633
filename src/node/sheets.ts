// Frame layouts of sprite sheets: uniform grids, TexturePacker JSON (hash and array) and Aseprite JSON.
import type { HitBox, TagDirection } from '../core/atlas-frame.js';
import { checkInt, describe, must, mustBe, outOfRange } from '../base/check.js';
import { checkObject } from '../base/check-types.js';
import { MAX_SHEET_BOXES, MAX_SHEET_FRAMES, MAX_SHEET_SLICES } from '../base/limits.js';

/** One frame of a sheet: where it lies in the sheet image and where it belongs in the untrimmed sprite frame. */
export interface SheetFrame {
    name: string;
    /** The frame's rectangle in the sheet image as stored (for a rotated frame, its rotated footprint). */
    x: number;
    y: number;
    width: number;
    height: number;
    /** Stored turned 90° clockwise in the sheet (TexturePacker `rotated`); it is turned back when masks are built. */
    rotated: boolean;
    /** Offset of the stored (trimmed) pixels inside the untrimmed frame (`spriteSourceSize.x`, `.y`). */
    offsetX: number;
    offsetY: number;
    /** Untrimmed frame size (`sourceSize`). */
    sourceWidth: number;
    sourceHeight: number;
    /** Display time in milliseconds (Aseprite `duration`); 0 when unknown. */
    duration: number;
    /** Named hit-boxes (Aseprite slices) in untrimmed frame coordinates. */
    boxes: HitBox[];
}

/** An animation tag over sheet frames `from..to` (inclusive, indices into the sheet's frames). */
export interface SheetTag {
    name: string;
    from: number;
    to: number;
    direction: TagDirection;
}

/** A parsed sheet description. */
export interface SheetLayout {
    /** The image file named by the JSON (`meta.image`), relative to the JSON file; undefined for grids. */
    image?: string;
    frames: SheetFrame[];
    tags: SheetTag[];
}

/** Options of {@link gridFrames}. */
export interface GridOptions {
    frameWidth: number;
    frameHeight: number;
    /** Pixels around the whole grid. @default 0 */
    margin?: number;
    /** Pixels between neighbouring frames. @default 0 */
    spacing?: number;
    /** Frame name template: `{name}` (the sheet's name), `{index}`, `{row}`, `{col}`. @default '{name}/{index}' */
    names?: string;
    /** Number of frames to take, row by row (for a last row that is not full). @default every whole cell */
    count?: number;
}

/** The frames of a uniform grid sheet of `imageWidth` × `imageHeight`, row by row, named from `options.names`. */
export function gridFrames(name: string, imageWidth: number, imageHeight: number, options: GridOptions): SheetFrame[] {
    checkObject('grid options', options);
    const fw = checkInt('grid frameWidth', options.frameWidth, 1, 2 ** 30);
    const fh = checkInt('grid frameHeight', options.frameHeight, 1, 2 ** 30);
    const margin = checkInt('grid margin', options.margin ?? 0, 0, 2 ** 30);
    const spacing = checkInt('grid spacing', options.spacing ?? 0, 0, 2 ** 30);
    const template = options.names ?? '{name}/{index}';
    if (
        typeof template !== 'string' ||
        (!template.includes('{index}') && !(template.includes('{row}') && template.includes('{col}')))
    ) {
        const rule = 'contain {index} (or both {row} and {col}) so that names are unique';
        throw new Error(must('grid names template', rule, describe(template)));
    }
    const cols = Math.floor((imageWidth - 2 * margin + spacing) / (fw + spacing));
    const rows = Math.floor((imageHeight - 2 * margin + spacing) / (fh + spacing));
    if (cols <= 0 || rows <= 0) {
        throw new Error(
            `A ${fw}x${fh} grid (margin ${margin}, spacing ${spacing}) does not fit even one frame in the ${imageWidth}x${imageHeight} image ${JSON.stringify(name)}.`
        );
    }
    const count = options.count === undefined ? cols * rows : checkInt('grid count', options.count, 1, cols * rows);
    const frames: SheetFrame[] = [];
    for (let i = 0; i < count; i++) {
        const row = Math.floor(i / cols),
            col = i % cols;
        frames.push({
            name: template
                .replace(/\{name\}/g, name)
                .replace(/\{index\}/g, String(i))
                .replace(/\{row\}/g, String(row))
                .replace(/\{col\}/g, String(col)),
            x: margin + col * (fw + spacing),
            y: margin + row * (fh + spacing),
            width: fw,
            height: fh,
            rotated: false,
            offsetX: 0,
            offsetY: 0,
            sourceWidth: fw,
            sourceHeight: fh,
            duration: 0,
            boxes: []
        });
    }
    return frames;
}

/**
 * The pixels a grid leaves in no frame at the right and at the bottom of a `width` × `height` image (past the last
 * whole column and row, and their margin): 0 and 0 when the grid fills it exactly. `options` as checked by
 * {@link gridFrames}.
 */
export function gridLeftover(width: number, height: number, options: GridOptions): { right: number; bottom: number } {
    const margin = options.margin ?? 0,
        spacing = options.spacing ?? 0;
    const left = (size: number, frame: number) => {
        const n = Math.floor((size - 2 * margin + spacing) / (frame + spacing));
        return Math.max(0, size - (2 * margin + n * frame + (n - 1) * spacing));
    };
    return { right: left(width, options.frameWidth), bottom: left(height, options.frameHeight) };
}

/**
 * Parses TexturePacker JSON (hash or array) or Aseprite JSON (hash or array, with `frameTags` and `slices`); `label`
 * names the file in errors.
 */
export function parseSheetJson(json: unknown, label = 'atlas JSON'): SheetLayout {
    if (typeof json === 'string') {
        try {
            json = JSON.parse(json);
        } catch (e) {
            throw new Error(`${label} is not valid JSON: ${(e as Error).message}.`, { cause: e });
        }
    }
    const root = obj(json, label);
    // Counted before a frame is made: each frame costs a mask in a build.
    const count = entryCount(root.frames);
    if (count > MAX_SHEET_FRAMES)
        throw outOfRange(
            `${label} lists ${count} frames, more than the ${MAX_SHEET_FRAMES} one sheet JSON may have ` +
                '(limits.sheetFrames); split it into several sheets.'
        );
    const list = frameEntries(root.frames);
    if (!list)
        throw new Error(
            `${label} has no "frames" object or array (got ${describe(root.frames)}); expected TexturePacker or Aseprite JSON.`
        );
    const frames = list.map(({ key, at, value }) => {
        const what = `${label}: ${at}`;
        const o = obj(value, what);
        return frame(key ?? str(o.filename, `${what}.filename`), o, what);
    });
    const meta = root.meta == null ? {} : obj(root.meta, `${label}: meta`);
    const image = meta.image === undefined ? undefined : str(meta.image, `${label}: meta.image`);
    const tags: SheetTag[] = [];
    if (meta.frameTags !== undefined) {
        arr(meta.frameTags, `${label}: meta.frameTags`).forEach((t, i) => {
            const what = `${label}: meta.frameTags[${i}]`;
            const o = obj(t, what);
            const from = int(o.from, `${what}.from`, 0, frames.length - 1);
            const to = int(o.to, `${what}.to`, from, frames.length - 1);
            const direction = (o.direction ?? 'forward') as TagDirection;
            if (!['forward', 'reverse', 'pingpong', 'pingpong_reverse'].includes(direction)) {
                const directions = 'forward, reverse, pingpong or pingpong_reverse';
                throw new Error(mustBe(`${what}.direction`, directions, o.direction));
            }
            tags.push({ name: str(o.name, `${what}.name`), from, to, direction });
        });
    }
    if (meta.slices !== undefined) sliceBoxes(arr(meta.slices, `${label}: meta.slices`), frames, label);
    return image === undefined ? { frames, tags } : { image, frames, tags };
}

// An Aseprite slice: its name and its keys, each a box from its frame on, sorted by frame.
interface Slice {
    name: string;
    keys: { frame: number; box: HitBox }[];
}

// Gives the frames the boxes of Aseprite's `meta.slices`: a key holds from its frame until the next key's frame.
// Every slice is read and its boxes counted before any frame gets one, and a frame gets the key's own box
// object (shared by the frames the key covers, not copied per frame).
function sliceBoxes(list: unknown[], frames: SheetFrame[], label: string): void {
    const refuse = (got: string, max: number, limit: string): RangeError =>
        outOfRange(
            `${label}: meta.slices ${got}, more than the ${max} one sheet JSON may have (limits.${limit}); ` +
                'give fewer slices or keys, or split the sprite into several sheets.'
        );
    if (list.length > MAX_SHEET_SLICES) throw refuse(`lists ${list.length} slices`, MAX_SHEET_SLICES, 'sheetSlices');
    const tooMany = (n: number) =>
        refuse(
            `give at least ${n} hit-boxes (each key, and each slice's box on every frame from its first key on)`,
            MAX_SHEET_BOXES,
            'sheetBoxes'
        );
    const slices: Slice[] = [];
    let boxes = 0;
    list.forEach((s, i) => {
        const what = `${label}: meta.slices[${i}]`;
        const o = obj(s, what);
        const name = str(o.name, `${what}.name`);
        const raw = arr(o.keys, `${what}.keys`);
        if (boxes + raw.length > MAX_SHEET_BOXES) throw tooMany(boxes + raw.length);
        const keys = raw
            .map((k, j) => {
                const ko = obj(k, `${what}.keys[${j}]`);
                const b = obj(ko.bounds, `${what}.keys[${j}].bounds`);
                return {
                    frame: int(ko.frame, `${what}.keys[${j}].frame`, 0, 2 ** 31),
                    box: {
                        name,
                        x: int(b.x, `${what}.keys[${j}].bounds.x`),
                        y: int(b.y, `${what}.keys[${j}].bounds.y`),
                        width: int(b.w, `${what}.keys[${j}].bounds.w`, 0),
                        height: int(b.h, `${what}.keys[${j}].bounds.h`, 0)
                    }
                };
            })
            .sort((a, b) => a.frame - b.frame);
        // The keys, and every frame from the first key on: each holds one box of this slice.
        boxes += keys.length + (keys.length > 0 ? Math.max(0, frames.length - keys[0].frame) : 0);
        if (boxes > MAX_SHEET_BOXES) throw tooMany(boxes);
        slices.push({ name, keys });
    });
    for (const { keys } of slices)
        for (let k = 0; k < keys.length; k++) {
            const end = Math.min(frames.length, k + 1 < keys.length ? keys[k + 1].frame : frames.length);
            for (let f = keys[k].frame; f < end; f++) frames[f].boxes.push(keys[k].box);
        }
}

// How many entries a layout's "frames" has (an array, or a hash counted without listing it); 0 when neither.
function entryCount(list: unknown): number {
    if (Array.isArray(list)) return list.length;
    if (list == null || typeof list !== 'object') return 0;
    let n = 0;
    for (const key in list) if (Object.hasOwn(list, key)) n++;
    return n;
}

/**
 * @internal Why parsed JSON found in a folder or by a glob is not a sheet layout, or null when it is one. A layout
 * has "frames" whose entries hold `frame: {x, y, w, h}` rectangles (one such entry is enough, so that a mistake in
 * another stays an error), or empty "frames" beside a "meta" object. Other JSON with "frames", such as what
 * `hitmask polygons` writes, is not one.
 */
export function notSheetLayout(json: unknown): string | null {
    const not = 'so not a TexturePacker or Aseprite sheet';
    const root = isObject(json) ? json : {};
    const list = frameEntries(root.frames);
    if (!list) return `no "frames", ${not}`;
    if (list.length === 0) return isObject(root.meta) ? null : `an empty "frames" and no "meta", ${not}`;
    if (
        list.some(
            ({ value }) =>
                isObject(value) &&
                isObject(value.frame) &&
                ['x', 'y', 'w', 'h'].every(k => k in (value.frame as object))
        )
    )
        return null;
    return `${list[0].at} has no "frame": {x, y, w, h} rectangle, ${not}`;
}

// The entries of a layout's "frames" (an array, or a hash keyed by frame name), each with where it is for
// errors; null when "frames" is neither.
function frameEntries(list: unknown): { key?: string; at: string; value: unknown }[] | null {
    if (Array.isArray(list)) return list.map((value: unknown, i) => ({ at: `frames[${i}]`, value }));
    if (list == null || typeof list !== 'object') return null;
    return Object.entries(list).map(([key, value]) => ({ key, at: `frames[${JSON.stringify(key)}]`, value }));
}

function frame(name: string, o: Record<string, unknown>, what: string): SheetFrame {
    if (name.length === 0) throw new Error(`${what} has an empty name.`);
    if (o.frame === undefined) {
        // The JSON `hitmask polygons` writes has "frames" too, with polygons in place of rectangles.
        const traced = Array.isArray(o.polygons)
            ? ' (this is the JSON `hitmask polygons` writes: pass the images it was traced from)'
            : '';
        throw new Error(
            `${what} has no "frame": {x, y, w, h} rectangle; expected TexturePacker or Aseprite JSON${traced}.`
        );
    }
    const r = obj(o.frame, `${what}.frame`);
    const x = int(r.x, `${what}.frame.x`, 0),
        y = int(r.y, `${what}.frame.y`, 0);
    const w = int(r.w, `${what}.frame.w`, 0),
        h = int(r.h, `${what}.frame.h`, 0);
    const rotated = o.rotated === undefined ? false : bool(o.rotated, `${what}.rotated`);
    // spriteSourceSize is where the trimmed pixels sit in the untrimmed frame; absent means untrimmed.
    const sss = o.spriteSourceSize === undefined ? { x: 0, y: 0 } : obj(o.spriteSourceSize, `${what}.spriteSourceSize`);
    const ss = o.sourceSize === undefined ? { w, h } : obj(o.sourceSize, `${what}.sourceSize`);
    const offsetX = int(sss.x, `${what}.spriteSourceSize.x`),
        offsetY = int(sss.y, `${what}.spriteSourceSize.y`);
    const sourceWidth = int(ss.w, `${what}.sourceSize.w`, 0),
        sourceHeight = int(ss.h, `${what}.sourceSize.h`, 0);
    // The trimmed pixels (frame.w × frame.h, unrotated) must lie inside the untrimmed frame: offsets of 2e9 or −9
    // were taken as they were and gave masks outside their own frame.
    if (offsetX < 0 || offsetY < 0 || offsetX + w > sourceWidth || offsetY + h > sourceHeight) {
        throw new Error(
            `${what} (frame ${JSON.stringify(name)}): its trimmed pixels, ${w}x${h} at ${offsetX},${offsetY} ` +
                `(spriteSourceSize.x, .y), do not lie inside its sourceSize ${sourceWidth}x${sourceHeight}; ` +
                'expected offsets of 0 or more with the pixels ending within sourceSize.'
        );
    }
    const duration = o.duration === undefined ? 0 : int(o.duration, `${what}.duration`, 0);
    // TexturePacker gives a rotated frame's unrotated size in frame.w/h; in the sheet it occupies h × w.
    return {
        name,
        x,
        y,
        width: rotated ? h : w,
        height: rotated ? w : h,
        rotated,
        offsetX,
        offsetY,
        sourceWidth,
        sourceHeight,
        duration,
        boxes: []
    };
}

function isObject(v: unknown): v is Record<string, unknown> {
    return v != null && typeof v === 'object' && !Array.isArray(v);
}

function obj(v: unknown, what: string): Record<string, unknown> {
    if (!isObject(v)) throw new Error(mustBe(what, 'an object', v));
    return v;
}

function arr(v: unknown, what: string): unknown[] {
    if (!Array.isArray(v)) throw new Error(mustBe(what, 'an array', v));
    return v;
}

function str(v: unknown, what: string): string {
    if (typeof v !== 'string') throw new Error(mustBe(what, 'a string', v));
    return v;
}

function bool(v: unknown, what: string): boolean {
    if (typeof v !== 'boolean') throw new Error(mustBe(what, 'true or false', v));
    return v;
}

function int(v: unknown, what: string, min = -(2 ** 31), max = 2 ** 31 - 1): number {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
        throw new Error(mustBe(what, `an integer in ${min}..${max}`, v));
    return v;
}
