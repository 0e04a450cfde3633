// A tileset's tiles as masks: each tile's pixels (its rectangle of the tileset image, or its own image) or its
// collision-editor shapes, and the masks of a gid's flips, made once per distinct gid.
import { Mask } from '../core/mask.js';
import { drawShape, shapeContains, shapeOf, type TiledShape } from './tiled-shapes.js';
import type { TiledImageData, TiledSolid, TiledTileInfo } from './tiled-types.js';

type Json = Record<string, unknown>;

/** Gid flag bits: horizontal, vertical and anti-diagonal flips, and the hexagonal 120° rotation (cleared). */
export const FLIP_H = 0x80000000,
    FLIP_V = 0x40000000,
    FLIP_D = 0x20000000,
    GID_MASK = 0x0fffffff;

/** One tile of a tileset: where its pixels come from and its shapes. */
export interface TileEntry {
    id: number;
    /** The image its pixels are cut from (the tileset's, or the tile's own), `null` until loaded. */
    image: string | null;
    /** Its rectangle in that image. */
    sx: number;
    sy: number;
    width: number;
    height: number;
    /** Collision-editor shapes; points dropped. */
    shapes: TiledShape[];
    class: string;
    properties: Record<string, unknown>;
}

/** A tileset as the builder uses it. */
export interface Tileset {
    firstgid: number;
    name: string;
    /** The file that holds it (the map's name for an embedded one), for messages. */
    file: string;
    /** Its file's folder relative to the map's ('' for an embedded one): the images it names are relative to it. */
    folder: string;
    tileWidth: number;
    tileHeight: number;
    offsetX: number;
    offsetY: number;
    /** Tile objects' anchor: 'bottomleft', 'topleft', … ('unspecified' is bottom-left on orthogonal maps). */
    alignment: string;
    /** Tiles drawn at the map's grid size ('grid') instead of their own ('tile'). */
    gridSize: boolean;
    /** The transparent colour 0xRRGGBB, or −1. */
    trans: number;
    /** Highest local id + 1. */
    count: number;
    tiles: Map<number, TileEntry>;
    /** The tileset image's tile grid (image tilesets); `null` for an image collection. */
    grid: { image: string; columns: number; margin: number; spacing: number } | null;
    properties: Record<string, unknown>;
}

/** A tile's pixels and shapes at its own size, before flips, under one `solid` rule. */
export interface TileSolid {
    width: number;
    height: number;
    /** Its mask at its own size: its pixels, or its shapes drawn. */
    mask: Mask;
    /** The containment shapes when the mask is made from shapes (exact when a tile object stretches it). */
    shapes: TiledShape[] | null;
}

/** Properties of a JSON object: Tiled's list of { name, type, value }, or the plain object older maps hold. */
export function propertiesOf(v: unknown): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (Array.isArray(v)) {
        for (const p of v as Json[]) {
            if (p === null || typeof p !== 'object' || typeof p.name !== 'string') continue;
            out[p.name] = p.type === 'class' ? propertiesOf(p.value) : p.value;
        }
    } else if (v !== null && typeof v === 'object') Object.assign(out, v);
    return out;
}

/** The tile shapes of a JSON tile's `objectgroup`. */
export function tileShapes(tile: Json, where: string): TiledShape[] {
    const og = tile.objectgroup as Json | undefined;
    if (og === undefined || og === null || typeof og !== 'object' || !Array.isArray(og.objects)) return [];
    const out: TiledShape[] = [];
    for (const o of og.objects as Json[]) {
        if (o === null || typeof o !== 'object') continue;
        const s = shapeOf(o, `${where}, tile shape ${JSON.stringify(o.id ?? '?')}`);
        if (s) out.push(s);
    }
    return out;
}

/** The solid rule `solid` gives a tile. */
export function solidOf(solid: TiledSolid | undefined, ts: Tileset, tile: TileEntry | undefined, id: number) {
    if (solid === undefined || typeof solid === 'string') return solid ?? 'auto';
    const info: TiledTileInfo = {
        gid: ts.firstgid + id,
        id,
        tileset: ts.name,
        class: tile?.class ?? '',
        properties: tile?.properties ?? {}
    };
    return solid(info);
}

/**
 * A tile's mask at its own size under `rule` ('auto': its shapes where it has any, else its pixels). `image` gives
 * the decoded image a name refers to; `threshold` is the alpha a solid pixel exceeds.
 */
export function tileSolid(
    ts: Tileset,
    tile: TileEntry,
    rule: 'auto' | 'alpha' | 'shapes',
    threshold: number,
    image: (name: string) => TiledImageData
): TileSolid {
    const { width, height } = tile;
    const mask = new Mask(width, height);
    if (rule === 'shapes' || (rule === 'auto' && tile.shapes.length > 0)) {
        for (const s of tile.shapes) drawShape(s, mask, 0, 0);
        return { width, height, mask, shapes: tile.shapes };
    }
    if (tile.image === null) return { width, height, mask, shapes: null };
    const img = image(tile.image);
    const data = img.data,
        W = img.width,
        trans = ts.trans;
    if (tile.sx + width > img.width || tile.sy + height > img.height)
        throw new Error(
            `${ts.file}: tile ${tile.id} of tileset "${ts.name}" lies at ${tile.sx},${tile.sy} (${width}x${height}) ` +
                `outside its ${img.width}x${img.height} image "${tile.image}".`
        );
    for (let y = 0; y < height; y++) {
        let k = ((tile.sy + y) * W + tile.sx) * 4;
        for (let x = 0; x < width; x++, k += 4) {
            if (data[k + 3] <= threshold) continue;
            if (trans >= 0 && ((data[k] << 16) | (data[k + 1] << 8) | data[k + 2]) === trans) continue;
            mask.set(x, y);
        }
    }
    return { width, height, mask, shapes: null };
}

/** Whether tile point (u, v) (in its own pixels, before flips) is solid under `t`'s rule. */
export function solidAt(t: TileSolid, u: number, v: number): boolean {
    if (u < 0 || v < 0 || u >= t.width || v >= t.height) return false;
    if (t.shapes === null) return t.mask.get(Math.floor(u), Math.floor(v));
    for (const s of t.shapes) if (s.kind !== 'polyline' && shapeContains(s, u, v)) return true;
    // Polylines have no inside: their pixels at the tile's own size.
    return t.shapes.some(s => s.kind === 'polyline') && t.mask.get(Math.floor(u), Math.floor(v));
}

/**
 * The mask a cell draws for a tile under the gid's flip bits, `w` x `h` before the anti-diagonal flip swaps them
 * (the tile's size, or the grid's for a tileset drawn at grid size). Flips are exact pixel permutations.
 */
export function flippedMask(t: TileSolid, flags: number, w: number, h: number): Mask {
    const d = (flags & FLIP_D) !== 0,
        fh = (flags & FLIP_H) !== 0,
        fv = (flags & FLIP_V) !== 0;
    if (!d && !fh && !fv && w === t.width && h === t.height) return t.mask.clone();
    const W = d ? h : w,
        H = d ? w : h;
    const out = new Mask(W, H);
    const stretch = w !== t.width || h !== t.height;
    for (let j = 0; j < H; j++) {
        for (let i = 0; i < W; i++) {
            // Undo the flips in the reverse of Tiled's order: vertical, horizontal, then the diagonal.
            const a = fh ? W - 1 - i : i,
                b = fv ? H - 1 - j : j;
            const x = d ? b : a,
                y = d ? a : b;
            const on = stretch ? solidAt(t, ((x + 0.5) * t.width) / w, ((y + 0.5) * t.height) / h) : t.mask.get(x, y);
            if (on) out.set(i, j);
        }
    }
    return out;
}
