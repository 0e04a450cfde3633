// Objects of Tiled's object layers as masks in map pixels: shapes by the pixel-centre rule, tile objects as their
// tile's solid pixels stretched to the object's size, flipped and rotated about the object's anchor.
import { Mask } from '../core/mask.js';
import { drawShape, shapeBox, shapeOf } from './tiled-shapes.js';
import { FLIP_H, FLIP_V, solidAt, type TileSolid } from './tiled-tiles.js';

type Json = Record<string, unknown>;

/** A tile object's tile: its solid pixels under the map's rule and its tileset's anchor. */
export interface ObjectTile {
    solid: TileSolid | null;
    alignment: string;
}

// Where an object's (x, y) lies on its rectangle, as fractions of its width and height, per alignment.
const ANCHOR: Record<string, [number, number]> = {
    topleft: [0, 0],
    top: [0.5, 0],
    topright: [1, 0],
    left: [0, 0.5],
    center: [0.5, 0.5],
    right: [1, 0.5],
    bottomleft: [0, 1],
    bottom: [0.5, 1],
    bottomright: [1, 1]
};

/**
 * The mask of object `o` (its frame moved by the layer offset (lx, ly)) and its top-left, or `null` for a point or
 * a text. `tile` resolves a tile object's gid; `maxPixels` bounds the mask, `tooBig` words the refusal.
 */
export function objectMask(
    o: Json,
    lx: number,
    ly: number,
    where: string,
    tile: (gid: number) => ObjectTile,
    maxPixels: number,
    tooBig: (w: number, h: number) => Error
): { x: number; y: number; mask: Mask } | null {
    if (o.gid !== undefined) return tileObjectMask(o, lx, ly, where, tile, maxPixels, tooBig);
    const s = shapeOf(o, where);
    if (!s) return null;
    s.x += lx;
    s.y += ly;
    const [x0, y0, x1, y1] = shapeBox(s);
    if ((x1 - x0) * (y1 - y0) > maxPixels) throw tooBig(x1 - x0, y1 - y0);
    const mask = new Mask(x1 - x0, y1 - y0);
    drawShape(s, mask, x0, y0);
    return { x: x0, y: y0, mask };
}

function tileObjectMask(
    o: Json,
    lx: number,
    ly: number,
    where: string,
    tile: (gid: number) => ObjectTile,
    maxPixels: number,
    tooBig: (w: number, h: number) => Error
): { x: number; y: number; mask: Mask } {
    const gid = o.gid as number;
    if (typeof gid !== 'number' || !Number.isInteger(gid) || gid < 0 || gid > 0xffffffff)
        throw new Error(`${where}: the tile object's gid is ${JSON.stringify(gid)}, expected an integer gid.`);
    const { solid, alignment } = tile(gid);
    const fin = (v: unknown, name: string, dflt: number): number => {
        if (v === undefined) return dflt;
        if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > 2 ** 40)
            throw new Error(`${where}: ${name} is ${JSON.stringify(v)}, expected a finite number.`);
        return v;
    };
    const W = solid?.width ?? 0,
        H = solid?.height ?? 0;
    const w = fin(o.width, 'width', W),
        h = fin(o.height, 'height', H);
    const x = fin(o.x, 'x', 0) + lx,
        y = fin(o.y, 'y', 0) + ly;
    const deg = fin(o.rotation, 'rotation', 0),
        rad = (deg * Math.PI) / 180;
    const q = deg % 90 === 0 ? (((deg / 90) % 4) + 4) % 4 : -1;
    const c = q >= 0 ? [1, 0, -1, 0][q] : Math.cos(rad),
        s = q >= 0 ? [0, 1, 0, -1][q] : Math.sin(rad);
    const [fx, fy] = ANCHOR[alignment] ?? ANCHOR.bottomleft;
    // The object's rectangle in its own frame (before rotation about (x, y)).
    const u0 = -fx * w,
        v0 = -fy * h;
    let X0 = Infinity,
        Y0 = Infinity,
        X1 = -Infinity,
        Y1 = -Infinity;
    for (const [u, v] of [
        [u0, v0],
        [u0 + w, v0],
        [u0, v0 + h],
        [u0 + w, v0 + h]
    ]) {
        const px = x + u * c - v * s,
            py = y + u * s + v * c;
        X0 = Math.min(X0, px);
        X1 = Math.max(X1, px);
        Y0 = Math.min(Y0, py);
        Y1 = Math.max(Y1, py);
    }
    const mx = Math.floor(X0),
        my = Math.floor(Y0),
        mw = Math.ceil(X1) - mx,
        mh = Math.ceil(Y1) - my;
    if (mw * mh > maxPixels) throw tooBig(mw, mh);
    const mask = new Mask(mw, mh);
    if (!solid || w <= 0 || h <= 0) return { x: mx, y: my, mask };
    const fh = (gid & FLIP_H) >>> 0 !== 0,
        fv = (gid & FLIP_V) >>> 0 !== 0;
    for (let j = 0; j < mh; j++) {
        for (let i = 0; i < mw; i++) {
            // The pixel centre in the object's frame, then in the tile's own pixels.
            const dx = mx + i + 0.5 - x,
                dy = my + j + 0.5 - y;
            const u = dx * c + dy * s - u0,
                v = -dx * s + dy * c - v0;
            if (u < 0 || v < 0 || u >= w || v >= h) continue;
            let tu = (u * W) / w,
                tv = (v * H) / h;
            if (fh) tu = W - tu;
            if (fv) tv = H - tv;
            if (solidAt(solid, tu, tv)) mask.set(i, j);
        }
    }
    return { x: mx, y: my, mask };
}
