// Contacts and sweeps of World bodies: normals and push-out on plain overlap functions, so bodies and
// layers share one implementation. Everything here runs on request (one contact, one sweep), never inside the pair
// loop.
import { Body, byId } from './body.js';
import { coord, outOfRange } from '../base/check.js';
import { MAX_SWEEP } from '../base/limits.js';
import type { CollisionLayer } from '../layers/layer.js';
import { boundingRect, eachSet } from '../core/shape.js';
import type { Mask, Point, Rect } from '../core/mask.js';
import { slotOf, type WorldState } from './state.js';
import { gridCandidates } from './cells.js';

/** A unit normal and an integer push-out vector, written by {@link estimateNormal} and {@link pushOut}. */
export interface NormalOut {
    normalX: number;
    normalY: number;
    pushX: number;
    pushY: number;
}

/**
 * pygame's finite-difference normal: g = (area(+1, 0) − area(−1, 0), area(0, +1) − area(0, −1)) for
 * the moving side shifted by one pixel; the normal is −g normalised (the way the overlap shrinks).
 * When g is zero (symmetric overlap) it falls back to (fx, fy) normalised, then to (0, −1) (up).
 */
export function estimateNormal(area: (dx: number, dy: number) => number, fx: number, fy: number, out: NormalOut): void {
    let nx = area(-1, 0) - area(1, 0),
        ny = area(0, -1) - area(0, 1);
    if (nx === 0 && ny === 0) {
        nx = fx;
        ny = fy;
    }
    const len = Math.hypot(nx, ny);
    if (len === 0) {
        out.normalX = 0;
        out.normalY = -1;
        return;
    }
    out.normalX = nx / len;
    out.normalY = ny / len;
}

/**
 * The smallest integer t ≥ 1 whose translation (round(t·nx), round(t·ny)) makes `overlaps` false,
 * written to out.pushX/pushY; `limit` bounds t (any t past both boxes' combined size separates).
 * A linear scan rather than exponential-then-binary search: overlaps are a few pixels deep in play,
 * where both cost about the same number of early-exit tests, and the scan is also exact for concave
 * masks, which overlap again further along (bisection would then return a larger t).
 */
export function pushOut(
    overlaps: (dx: number, dy: number) => boolean,
    nx: number,
    ny: number,
    limit: number,
    out: NormalOut
): void {
    let px = 0,
        py = 0;
    for (let t = 1; t <= limit; t++) {
        const x = Math.round(t * nx) || 0,
            y = Math.round(t * ny) || 0;
        if (x === px && y === py) continue;
        px = x;
        py = y;
        if (!overlaps(x, y)) break;
    }
    out.pushX = px;
    out.pushY = py;
}

/** Contact details of two overlapping bodies, in world pixels; the push and normal move `a` out of `b`. */
export interface Contact extends NormalOut {
    /** First overlapping pixel in row-major order (top row first, then leftmost). */
    x: number;
    y: number;
    /** Number of overlapping pixels. */
    area: number;
    /** Bounding box of the overlapping pixels. */
    box: Rect;
}

/** Result of `World.sweep`. */
export interface SweepHit<T = unknown> {
    /** The body (or layer) hit first. */
    body: Body<T>;
    /** Body position (floored) at first contact. */
    x: number;
    y: number;
    /** Last position before contact: where to put the mover so it touches nothing. */
    freeX: number;
    freeY: number;
    /** Fraction of the path walked, 0 < t ≤ 1. */
    t: number;
}

/** @internal World.contact: fills `out`, returns whether `a` and `b` overlap. */
export function contactInto<T>(w: WorldState<T>, a: Body<T>, b: Body<T>, out: Contact): boolean {
    const sa = slotOf(w, a, 'contact');
    if (!(b instanceof Body) || b.state !== w || b.slot < 0) slotOf(w, b, 'contact');
    if (a === b) throw new Error(`contact() needs two different bodies, got ${a} twice.`);
    const { x0, y0, x1, y1 } = w.boxes;
    const ma = w.masks[sa] as Mask,
        ax = x0[sa],
        ay = y0[sa];
    let area: (dx: number, dy: number) => number, overlaps: (dx: number, dy: number) => boolean;
    let fx: number, fy: number, limit: number;
    const p = w.point;
    if (b.layer) {
        const layer = b.layer;
        if (!layer.overlaps(ma, ax, ay)) return false;
        const hit = layer.overlap(ma, ax, ay) as Point;
        p.x = hit.x;
        p.y = hit.y;
        area = (dx, dy) => layer.overlapArea(ma, ax + dx, ay + dy);
        overlaps = (dx, dy) => layer.overlaps(ma, ax + dx, ay + dy);
        // A layer has no centre: fall back to pushing up, out of the ground.
        fx = 0;
        fy = 0;
        limit = 2 * (ma.width + ma.height) + 2;
        let bx0 = Infinity,
            by0 = Infinity,
            bx1 = -Infinity,
            by1 = -Infinity;
        eachSet(ma, (x, y) => {
            if (!layer.hitTest(ax + x, ay + y)) return;
            if (ax + x < bx0) bx0 = ax + x;
            if (ay + y < by0) by0 = ay + y;
            if (ax + x + 1 > bx1) bx1 = ax + x + 1;
            if (ay + y + 1 > by1) by1 = ay + y + 1;
        });
        out.box.x = bx0;
        out.box.y = by0;
        out.box.width = bx1 - bx0;
        out.box.height = by1 - by0;
    } else {
        const sb = b.slot,
            mb = w.masks[sb] as Mask,
            dx = x0[sb] - ax,
            dy = y0[sb] - ay;
        if (!ma.overlap(mb, dx, dy, p)) return false;
        p.x += ax;
        p.y += ay;
        area = (ex, ey) => ma.overlapArea(mb, dx - ex, dy - ey);
        overlaps = (ex, ey) => ma.overlaps(mb, dx - ex, dy - ey);
        fx = x0[sa] + x1[sa] - (x0[sb] + x1[sb]);
        fy = y0[sa] + y1[sa] - (y0[sb] + y1[sb]);
        limit = 2 * (ma.width + mb.width + ma.height + mb.height) + 2;
        const r = boundingRect(ma.overlapMask(mb, dx, dy)) as Rect;
        out.box.x = r.x + ax;
        out.box.y = r.y + ay;
        out.box.width = r.width;
        out.box.height = r.height;
    }
    out.x = p.x;
    out.y = p.y;
    out.area = area(0, 0);
    estimateNormal(area, fx, fy, out);
    pushOut(overlaps, out.normalX, out.normalY, limit, out);
    return true;
}
/** @internal World.sweep: fills `out`, returns whether something was hit. */
export function sweepInto<T>(world: WorldState<T>, body: Body<T>, toX: number, toY: number, out: SweepHit<T>): boolean {
    const s = slotOf(world, body, 'sweep');
    const tx = coord('toX', toX),
        ty = coord('toY', toY);
    const { x0, y0, x1, y1 } = world.boxes;
    const mask = world.masks[s] as Mask,
        w = mask.width,
        h = mask.height;
    const sx = x0[s],
        sy = y0[s],
        ex = Math.floor(tx) + world.offX[s],
        ey = Math.floor(ty) + world.offY[s];
    if (Math.abs(ex - sx) + Math.abs(ey - sy) > MAX_SWEEP) {
        throw outOfRange(
            `sweep(): the path from (${sx - world.offX[s]}, ${sy - world.offY[s]}) to (${Math.floor(tx)}, ${Math.floor(ty)}) is ${Math.abs(ex - sx) + Math.abs(ey - sy)} pixel steps, more than the ${MAX_SWEEP} allowed (each step is tested); sweep in shorter segments.`
        );
    }
    if (w === 0 || h === 0 || world.cat[s] === 0 || (ex === sx && ey === sy)) return false;
    const cat = world.cat[s],
        colw = world.colw[s],
        grp = world.grp[s];
    // Candidates: compatible bodies whose boxes meet the swept box and that the mover does not overlap yet.
    const cands = world.scratch;
    const n = gridCandidates(
        world,
        Math.min(sx, ex),
        Math.min(sy, ey),
        Math.max(sx, ex) + w,
        Math.max(sy, ey) + h,
        0xffffffff,
        cands
    );
    let m = 0;
    for (let k = 0; k < n; k++) {
        const c = cands[k],
            j = c.slot;
        if (
            c === body ||
            (world.cat[j] & colw) === 0 ||
            (cat & world.colw[j]) === 0 ||
            (grp !== 0 && grp === world.grp[j])
        )
            continue;
        if (mask.overlaps(world.masks[j] as Mask, x0[j] - sx, y0[j] - sy)) continue;
        cands[m++] = c;
    }
    for (let l = 0; l < world.layers.length; l++) {
        const layer = world.layers[l].layer as CollisionLayer;
        if ((world.layerCat[l] & colw) === 0 || (cat & world.layerColw[l]) === 0 || layer.overlaps(mask, sx, sy))
            continue;
        cands[m++] = world.layers[l];
    }
    cands.length = m;
    if (m === 0) return false;
    const dx = ex - sx,
        dy = ey - sy,
        nx = Math.abs(dx),
        ny = Math.abs(dy),
        stepX = Math.sign(dx),
        stepY = Math.sign(dy);
    let x = sx,
        y = sy,
        ix = 0,
        iy = 0;
    for (let k = 1, total = nx + ny; k <= total; k++) {
        const px = x,
            py = y;
        // Step along the axis whose next crossing comes first: (ix + ½)/nx < (iy + ½)/ny.
        if (ny === 0 || (nx !== 0 && (2 * ix + 1) * ny < (2 * iy + 1) * nx)) {
            x += stepX;
            ix++;
        } else {
            y += stepY;
            iy++;
        }
        let hit: Body<T> | null = null;
        for (let c = 0; c < m; c++) {
            const cand = cands[c];
            if (cand.layer) {
                if (cand.layer.overlaps(mask, x, y)) {
                    hit = pick(hit, cand);
                }
                continue;
            }
            const j = cand.slot;
            if (x0[j] >= x + w || y0[j] >= y + h || x1[j] <= x || y1[j] <= y) continue;
            if (mask.overlaps(world.masks[j] as Mask, x0[j] - x, y0[j] - y)) hit = pick(hit, cand);
        }
        if (hit) {
            out.body = hit;
            out.x = x - world.offX[s];
            out.y = y - world.offY[s];
            out.freeX = px - world.offX[s];
            out.freeY = py - world.offY[s];
            out.t = k / total;
            return true;
        }
    }
    return false;
}

function pick<T>(current: Body<T> | null, cand: Body<T>): Body<T> {
    return current === null || byId(cand, current) < 0 ? cand : current;
}
