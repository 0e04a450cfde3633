// World.raycast's search: the bodies changed since the grid was built, then the grid cells along the segment
// in order, each body's mask cast with the walk of rays/ray-walk.ts, then the layers that can cast rays.
import type { RasterRayHit, RayHit } from '../rays/ray.js';
import { checkRay } from '../rays/ray.js';
import { acquire, release, type RayState } from '../rays/ray-state.js';
import { before, cast } from '../rays/ray-walk.js';
import type { Mask } from '../core/mask.js';
import { wordsOf } from '../kernels/mask-words.js';
import type { Body } from './body.js';
import type { Boxes } from './grid.js';
import type { WorldState } from './state.js';

/** A {@link RayHit} in a World, in world pixels: `body` is the body (or layer handle) hit. */
export interface WorldRayHit<T = unknown> extends RayHit {
    body: Body<T>;
}

// Per slot: the ray that last considered the body, and the token of the last grid cell query (Grid.query's
// `seen`, which must not share tokens with the World's own queries).
let mark = new Int32Array(64),
    seen = new Int32Array(64),
    qbuf = new Int32Array(64),
    rayToken = 0,
    cellToken = 0;
// The search in progress: the World's arrays, the filter and segment, and the nearest hit so far.
interface Search {
    boxes: Boxes;
    masks: readonly (Mask | null)[];
    cat: Int32Array;
    bodies: readonly (Body<unknown> | null)[];
    f: number;
    x0: number;
    y0: number;
    x1: number;
    y1: number;
    best: Body<unknown> | null;
    px: number;
    py: number;
    x: number;
    y: number;
    d: number;
    nx: number;
    ny: number;
}
const NONE: readonly never[] = [],
    NO_CAT = new Int32Array(0);
const NO_BOXES: Boxes = {
    x0: new Float64Array(0),
    y0: new Float64Array(0),
    x1: new Float64Array(0),
    y1: new Float64Array(0)
};
const SEARCH: Search = {
    boxes: NO_BOXES,
    masks: NONE,
    cat: NO_CAT,
    bodies: NONE,
    f: 0,
    x0: 0,
    y0: 0,
    x1: 0,
    y1: 0,
    best: null,
    px: 0,
    py: 0,
    x: 0,
    y: 0,
    d: Infinity,
    nx: 0,
    ny: 0
};
const LAYER_HIT: RasterRayHit = { px: 0, py: 0, x: 0, y: 0, distance: 0, nx: 0, ny: 0, id: -1 };
// A World search in progress: its slot marks are shared, so a layer's raycast may not start another.
let searching = false;

// Casts into body slot s unless it was considered already, is filtered out or removed; keeps the nearest hit.
function consider(st: RayState, q: Search, s: number): void {
    if (mark[s] === rayToken) return;
    mark[s] = rayToken;
    const b = q.bodies[s];
    if (!b || b.slot < 0 || (q.cat[s] & q.f) === 0) return;
    const m = q.masks[s] as Mask;
    st.words[0] = wordsOf(m);
    if (!cast(st, m.width, m.height, q.boxes.x0[s], q.boxes.y0[s], q.x0, q.y0, q.x1, q.y1)) return;
    if (st.d < q.d || (st.d === q.d && b.id < (q.best as Body<unknown>).id)) {
        q.best = b;
        q.px = st.px;
        q.py = st.py;
        q.x = st.x;
        q.y = st.y;
        q.d = st.d;
        q.nx = st.nx;
        q.ny = st.ny;
    }
}

/**
 * @internal World.raycast's search over the World's state (read only): bodies changed since the grid was
 * built, then the grid cells along the segment in order until a cell starts beyond the nearest hit (or every
 * slot when the segment crosses more cells than there are bodies), then the layers with `raycast`.
 */
export function castWorld<T>(
    w: WorldState<T>,
    f: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    out: WorldRayHit<T>
): boolean {
    checkRay(x0, y0, x1, y1, out);
    const { grid, boxes, masks, cat, bodies, used, movedList: moved, movedCount, layers, layerCat } = w;
    if (mark.length < used) {
        mark = new Int32Array(Math.max(used, 2 * mark.length));
        seen = new Int32Array(mark.length);
        qbuf = new Int32Array(mark.length);
    }
    if (searching)
        throw new Error(
            "world.raycast(): a CollisionLayer's raycast cast a World ray during another World ray; cast it afterwards."
        );
    if (++rayToken >= 2 ** 30) {
        mark.fill(0);
        rayToken = 1;
    }
    // One Search object for every call (searches never nest): raycast allocates nothing.
    const q = SEARCH;
    q.boxes = boxes;
    q.masks = masks;
    q.cat = cat;
    q.bodies = bodies as unknown as readonly (Body<unknown> | null)[];
    q.f = f;
    q.x0 = x0;
    q.y0 = y0;
    q.x1 = x1;
    q.y1 = y1;
    q.best = null;
    q.d = Infinity;
    const st = acquire();
    st.k = 1;
    searching = true;
    try {
        for (let k = 0; k < movedCount; k++) consider(st, q, moved[k]);
        const n = grid.smallCount + grid.largeCount;
        if (n > 0) {
            const cs = grid.cellSize,
                dx = x1 - x0,
                dy = y1 - y0;
            let cx = Math.floor(x0 / cs),
                cy = Math.floor(y0 / cs);
            const ex = Math.floor(x1 / cs),
                ey = Math.floor(y1 / cs);
            let nx = Math.abs(ex - cx),
                ny = Math.abs(ey - cy);
            if (!(nx + ny < n)) {
                // More cells than bodies (a long or far segment): every slot, as Grid.query does.
                for (let s = 0; s < used; s++) consider(st, q, s);
            } else {
                // 4-connected over the cells in the order the segment enters them (on a tie, the axis crossing in the
                // positive direction first: its new cell already holds the crossing point), so no cell it touches is
                // missed.
                const len = Math.hypot(dx, dy);
                let xt = dx > 0 ? ((cx + 1) * cs - x0) / dx : dx < 0 ? (cx * cs - x0) / dx : Infinity;
                let yt = dy > 0 ? ((cy + 1) * cs - y0) / dy : dy < 0 ? (cy * cs - y0) / dy : Infinity;
                const xo = dx < 0 ? 1 : 0,
                    yo = dy < 0 ? 1 : 0;
                let t = 0;
                for (;;) {
                    // Bodies not met yet lie in cells entered from here on: none can be nearer than this cell's entry.
                    if (q.best !== null && t * len > q.d * (1 + 1e-9) + 1e-9) break;
                    if (++cellToken >= 2 ** 30) {
                        seen.fill(0);
                        cellToken = 1;
                    }
                    const nq = grid.query(cx * cs, cy * cs, (cx + 1) * cs, (cy + 1) * cs, seen, cellToken, qbuf);
                    for (let k = 0; k < nq; k++) consider(st, q, qbuf[k]);
                    if (nx === 0 && ny === 0) break;
                    if (nx > 0 && (ny === 0 || before(xt, xo, yt, yo) || (xt === yt && xo === yo))) {
                        t = xt;
                        nx--;
                        if (dx > 0) {
                            cx++;
                            xt = ((cx + 1) * cs - x0) / dx;
                        } else {
                            cx--;
                            xt = (cx * cs - x0) / dx;
                        }
                    } else {
                        t = yt;
                        ny--;
                        if (dy > 0) {
                            cy++;
                            yt = ((cy + 1) * cs - y0) / dy;
                        } else {
                            cy--;
                            yt = (cy * cs - y0) / dy;
                        }
                    }
                }
            }
        }
        // Layers after bodies: on equal distances a body wins, then the lower id (layers are in id order).
        for (let l = 0; l < layers.length; l++) {
            const layer = layers[l].layer;
            if ((layerCat[l] & f) === 0 || !layer || typeof layer.raycast !== 'function') continue;
            if (layer.raycast(x0, y0, x1, y1, LAYER_HIT) !== null && LAYER_HIT.distance < q.d) {
                q.best = layers[l] as unknown as Body<unknown>;
                q.px = LAYER_HIT.px;
                q.py = LAYER_HIT.py;
                q.x = LAYER_HIT.x;
                q.y = LAYER_HIT.y;
                q.d = LAYER_HIT.distance;
                q.nx = LAYER_HIT.nx;
                q.ny = LAYER_HIT.ny;
            }
        }
    } finally {
        searching = false;
        release(st);
    }
    const best = q.best;
    // Drop the World's arrays: the search object outlives the call.
    q.boxes = NO_BOXES;
    q.masks = NONE;
    q.bodies = NONE;
    q.cat = NO_CAT;
    q.best = null;
    if (best === null) return false;
    out.px = q.px;
    out.py = q.py;
    out.x = q.x;
    out.y = q.y;
    out.distance = q.d;
    out.nx = q.nx;
    out.ny = q.ny;
    out.body = best as Body<T>;
    return true;
}
