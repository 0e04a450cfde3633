// Rays: the first set pixel a segment enters, in a mask, a raster's planes or a tile map; the World's search
// (world/world-ray.ts) casts into its bodies with the same walk.
// The walk itself is rays/ray-walk.ts.
import { checkNumber } from '../base/check.js';
import { checkObject } from '../base/check-types.js';
import { checkMask, type Mask } from '../core/mask.js';
import { clipFar, near } from './ray-clip.js';
import { acquire, release, type RayState } from './ray-state.js';
import { before, cast, cellOf, inBox, walk } from './ray-walk.js';
import { wordsOf } from '../kernels/mask-words.js';

/** Where a segment first enters a set pixel; see docs/rays.md for the rules. */
export interface RayHit {
    /** The pixel hit (column). */
    px: number;
    /** The pixel hit (row). */
    py: number;
    /** Where the segment enters that pixel: on its boundary, or the start when the start lies in it. */
    x: number;
    y: number;
    /** Euclidean distance from the segment's start to (x, y). */
    distance: number;
    /** Unit normal of the face entered, axis-aligned; (0, 0) when the segment starts inside the pixel. */
    nx: number;
    ny: number;
}

/**
 * A {@link RayHit} on a raster: `id` is the newest id stamped on the pixel in the lowest selected layer that has one
 * there, −1 when none.
 */
export interface RasterRayHit extends RayHit {
    id: number;
}

/** @internal A fresh hit object for the allocating forms. */
export function newRayHit(): RayHit {
    return { px: 0, py: 0, x: 0, y: 0, distance: 0, nx: 0, ny: 0 };
}

function write(st: RayState, out: RayHit): void {
    out.px = st.px;
    out.py = st.py;
    out.x = st.x;
    out.y = st.y;
    out.distance = st.d;
    out.nx = st.nx;
    out.ny = st.ny;
}

/** @internal Throws unless the four coordinates are finite numbers and `out` is an object. */
export function checkRay(x0: unknown, y0: unknown, x1: unknown, y1: unknown, out: unknown): void {
    checkNumber('x0', x0);
    checkNumber('y0', y0);
    checkNumber('x1', x1);
    checkNumber('y1', y1);
    checkObject('out', out, 'a RayHit object { px, py, x, y, distance, nx, ny }');
}

/**
 * The first set pixel of `mask` the segment from (x0, y0) to (x1, y1) enters, or `null` (rules: docs/rays.md); with
 * `out`, written there.
 */
export function raycast(mask: Mask, x0: number, y0: number, x1: number, y1: number, out?: RayHit): RayHit | null {
    checkMask(mask, 'mask');
    if (out === undefined) out = newRayHit();
    else checkObject('out', out, 'a RayHit object');
    return castMask(mask, x0, y0, x1, y1, out) ? out : null;
}

/** @internal raycast, without the mask check. */
export function castMask(mask: Mask, x0: number, y0: number, x1: number, y1: number, out: RayHit): boolean {
    checkRay(x0, y0, x1, y1, out);
    const st = acquire();
    st.words[0] = wordsOf(mask);
    st.k = 1;
    try {
        if (!cast(st, mask.width, mask.height, 0, 0, x0, y0, x1, y1)) return false;
        write(st, out);
        return true;
    } finally {
        release(st);
    }
}

/** @internal CollisionRaster.raycast: into the OR of `count` planes of one size (a raster's layers). */
export function castPlanes(
    planes: readonly Mask[],
    count: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    out: RayHit
): boolean {
    checkRay(x0, y0, x1, y1, out);
    const m = planes[0],
        st = acquire();
    for (let p = 0; p < count; p++) st.words[p] = wordsOf(planes[p]);
    st.k = count;
    try {
        if (!cast(st, m.width, m.height, 0, 0, x0, y0, x1, y1)) return false;
        write(st, out);
        return true;
    } finally {
        release(st);
    }
}

/**
 * @internal TileMap.raycast: walks the tiles the segment crosses, in order, and casts into the first ones with a mask.
 */
export function castTiles(
    tw: number,
    th: number,
    columns: number,
    rows: number,
    cells: Int32Array,
    tiles: readonly (Mask | null)[],
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    out: RayHit
): boolean {
    checkRay(x0, y0, x1, y1, out);
    const MW = columns * tw,
        MH = rows * th,
        sx = x0,
        sy = y0;
    if (MW === 0 || MH === 0) return false;
    const st = acquire();
    try {
        return walkTiles(st, tw, th, columns, rows, cells, tiles, MW, MH, sx, sy, x0, y0, x1, y1, out);
    } finally {
        release(st);
    }
}

// castTiles' walk over the map (MW × MH px) with its state.
function walkTiles(
    st: RayState,
    tw: number,
    th: number,
    columns: number,
    rows: number,
    cells: Int32Array,
    tiles: readonly (Mask | null)[],
    MW: number,
    MH: number,
    sx: number,
    sy: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    out: RayHit
): boolean {
    if (!near(MW, MH, 0, 0, x0, y0, x1, y1)) {
        if (!clipFar(st, MW, MH, 0, 0, x0, y0, x1, y1)) return false;
        x0 = st.cx0;
        y0 = st.cy0;
        x1 = st.cx1;
        y1 = st.cy1;
    }
    const dx = x1 - x0,
        dy = y1 - y0;
    // The map's slots, as walk() computes the box's; tile boundaries are c·tw and r·th.
    if (!inBox(st, MW, MH, 0, 0, x0, y0, dx, dy)) return false;
    let lt = st.lt,
        lo = st.lo;
    const ut = st.ut,
        uo = st.uo;
    let c = cellOf(x0, dx, 0, tw, columns, lt, lo),
        r = cellOf(y0, dy, 0, th, rows, lt, lo);
    const xo = dx < 0 ? 1 : 0,
        yo = dy < 0 ? 1 : 0;
    let xt = dx > 0 ? ((c + 1) * tw - x0) / dx : dx < 0 ? (c * tw - x0) / dx : Infinity;
    let yt = dy > 0 ? ((r + 1) * th - y0) / dy : dy < 0 ? (r * th - y0) / dy : Infinity;
    st.k = 1;
    for (;;) {
        const t = cells[r * columns + c],
            tile = t >= 0 ? tiles[t] : null;
        // Tiles are visited in the order the segment enters them, so the first hit is the nearest.
        if (tile) {
            st.words[0] = wordsOf(tile);
            if (walk(st, tw, th, c * tw, r * th, x0, y0, x1, y1, sx, sy)) {
                write(st, out);
                return true;
            }
        }
        const sxFirst = before(xt, xo, yt, yo),
            syFirst = before(yt, yo, xt, xo);
        if (sxFirst || !syFirst) {
            lt = xt;
            lo = xo;
            if (dx > 0) {
                c++;
                xt = ((c + 1) * tw - x0) / dx;
            } else if (dx < 0) {
                c--;
                xt = (c * tw - x0) / dx;
            }
        }
        if (syFirst || !sxFirst) {
            lt = yt;
            lo = yo;
            if (dy > 0) {
                r++;
                yt = ((r + 1) * th - y0) / dy;
            } else if (dy < 0) {
                r--;
                yt = (r * th - y0) / dy;
            }
        }
        if (!before(lt, lo, ut, uo)) return false;
    }
}
