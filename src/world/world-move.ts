// World.moveAndSlide: a body moved by the rules of movement/move-and-slide.ts against everything it collides with (the
// other bodies its filter accepts and its layers; one-way bodies and layers hold it only from above), then the bodies
// that stood on it carried by the same pixels. The World's solids are seen through two CollisionLayer views
// over the state, reconfigured for each call, so a game loop allocates nothing.
import type { Point, Rect } from '../base/types.js';
import { checkMask, type Mask } from '../core/mask.js';
import type { CollisionLayer } from '../layers/layer.js';
import { slideMask, type MoveResult } from '../movement/move-and-slide.js';
import type { Body } from './body.js';
import { gridCandidates } from './cells.js';
import { touchSlot } from './slots.js';
import { ONE_WAY, type WorldState } from './state.js';

/** Options of `World.moveAndSlide`. */
export interface WorldMoveOptions {
    /** Height in px the body may climb at each horizontal pixel: an integer ≥ 0, default 0. */
    stepUp?: number;
    /** Distance in px the body is pulled down onto ground after its horizontal move: an integer ≥ 0, default 0. */
    snapDown?: number;
    /** Whether bodies standing on this one move with it (moving platforms, elevators). @default true */
    carry?: boolean;
    /**
     * Drop through one-way bodies and layers for this move ("down + jump"): they are left out of it, so a body
     * standing on one falls into it, and later moves, starting inside it, are not held by it. @default false
     */
    dropThrough?: boolean;
}

/** Where `World.moveAndSlide` left the body: its position as given to `world.move`, and its contacts. */
export interface WorldMoveResult<T = unknown> {
    x: number;
    y: number;
    onFloor: boolean;
    onCeiling: boolean;
    onWall: boolean;
    /** The body or layer the body stands on (the lowest id where several are under it), or `null` in the air. */
    floor: Body<T> | null;
}

/**
 * @internal The World's solids for one mover: bodies its filter accepts and its solid layers, or its one-way layers.
 */
class Solids<T> implements CollisionLayer {
    st: WorldState<T> | null = null;
    mover = -1;
    ignore = -1;
    /** Bodies left out besides `ignore`: the riders of a carrying mover (they move with it). */
    skip: readonly Body<T>[] = NONE;
    oneWay = false;
    #found: Body<T>[] = [];

    constructor(oneWay: boolean) {
        this.oneWay = oneWay;
    }

    // Calls fn for each solid under the box of `mask` at (x, y) until it returns true.
    #each(
        mask: Mask,
        x: number,
        y: number,
        fn: (m: Mask | null, b: Body<T>, bx: number, by: number) => boolean
    ): boolean {
        const st = this.st as WorldState<T>,
            s = this.mover,
            cat = st.cat[s],
            colw = st.colw[s],
            grp = st.grp[s];
        if (!this.oneWay || st.oneWayBodies > 0) {
            const n = gridCandidates(st, x, y, x + mask.width, y + mask.height, colw, this.#found),
                want = this.oneWay ? ONE_WAY : 0;
            for (let k = 0; k < n; k++) {
                const b = this.#found[k],
                    j = b.slot;
                if (
                    j === s ||
                    j === this.ignore ||
                    (st.colw[j] & cat) === 0 ||
                    (grp !== 0 && st.grp[j] === grp) ||
                    (st.flags[j] & ONE_WAY) !== want
                )
                    continue;
                if (this.skip.length > 0 && this.skip.indexOf(b) >= 0) continue;
                if (fn(st.masks[j], b, st.boxes.x0[j], st.boxes.y0[j])) return true;
            }
        }
        for (let l = 0; l < st.layers.length; l++) {
            if (st.layerOneWay[l] !== this.oneWay || (st.layerCat[l] & colw) === 0 || (cat & st.layerColw[l]) === 0)
                continue;
            if (fn(null, st.layers[l], 0, 0)) return true;
        }
        return false;
    }

    overlaps(mask: Mask, x: number, y: number): boolean {
        // The hot call of a move (every step and sweep asks it): written out, no callback.
        const st = this.st as WorldState<T>,
            s = this.mover,
            cat = st.cat[s],
            colw = st.colw[s],
            grp = st.grp[s];
        if (!this.oneWay || st.oneWayBodies > 0) {
            const n = gridCandidates(st, x, y, x + mask.width, y + mask.height, colw, this.#found),
                { x0, y0 } = st.boxes,
                want = this.oneWay ? ONE_WAY : 0;
            for (let k = 0; k < n; k++) {
                const j = this.#found[k].slot;
                if (
                    j === s ||
                    j === this.ignore ||
                    (st.colw[j] & cat) === 0 ||
                    (grp !== 0 && st.grp[j] === grp) ||
                    (st.flags[j] & ONE_WAY) !== want
                )
                    continue;
                if (this.skip.length > 0 && this.skip.indexOf(this.#found[k]) >= 0) continue;
                if (mask.overlaps(st.masks[j] as Mask, x0[j] - x, y0[j] - y)) return true;
            }
        }
        for (let l = 0; l < st.layers.length; l++) {
            if (st.layerOneWay[l] !== this.oneWay || (st.layerCat[l] & colw) === 0 || (cat & st.layerColw[l]) === 0)
                continue;
            if ((st.layers[l].layer as CollisionLayer).overlaps(mask, x, y)) return true;
        }
        return false;
    }

    overlapArea(mask: Mask, x: number, y: number): number {
        let area = 0;
        this.#each(mask, x, y, (m, b) => {
            area +=
                m === null
                    ? (b.layer as CollisionLayer).overlapArea(mask, x, y)
                    : mask.overlapArea(m, bxOf(this, b) - x, byOf(this, b) - y);
            return false;
        });
        return area;
    }

    overlap(mask: Mask, x: number, y: number, out?: Point): Point | null {
        let best: Point | null = null;
        const p = { x: 0, y: 0 };
        this.#each(mask, x, y, (m, b) => {
            const hit =
                m === null
                    ? (b.layer as CollisionLayer).overlap(mask, x, y, p)
                    : mask.overlap(m, bxOf(this, b) - x, byOf(this, b) - y, p);
            if (hit !== null) {
                const hx = m === null ? hit.x : hit.x + x,
                    hy = m === null ? hit.y : hit.y + y;
                if (best === null || hy < best.y || (hy === best.y && hx < best.x)) best = { x: hx, y: hy };
            }
            return false;
        });
        if (best === null) return null;
        const r = out ?? { x: 0, y: 0 };
        r.x = (best as Point).x;
        r.y = (best as Point).y;
        return r;
    }

    hitTest(x: number, y: number): boolean {
        return this.#each(DOT, Math.floor(x), Math.floor(y), (m, b) =>
            m === null
                ? (b.layer as CollisionLayer).hitTest(x, y)
                : m.get(Math.floor(x) - bxOf(this, b), Math.floor(y) - byOf(this, b))
        );
    }

    bounds(): Rect | null {
        return { x: -Infinity, y: -Infinity, width: Infinity, height: Infinity };
    }

    /** The first body (by id; bodies before layers) under `mask` at (x, y), or null. */
    first(mask: Mask, x: number, y: number): Body<T> | null {
        let hit: Body<T> | null = null;
        this.#each(mask, x, y, (m, b) => {
            if (
                m === null
                    ? (b.layer as CollisionLayer).overlaps(mask, x, y)
                    : mask.overlaps(m, bxOf(this, b) - x, byOf(this, b) - y)
            ) {
                hit = b;
                return true;
            }
            return false;
        });
        return hit;
    }
}

const DOT = { width: 1, height: 1 } as Mask;
const NONE: readonly never[] = [];
const bxOf = <T>(v: Solids<T>, b: Body<T>): number => (v.st as WorldState<T>).boxes.x0[b.slot];
const byOf = <T>(v: Solids<T>, b: Body<T>): number => (v.st as WorldState<T>).boxes.y0[b.slot];

/** @internal Reused views and scratch of a World's moves. */
export class Movers<T> {
    readonly solid = new Solids<T>(false);
    readonly oneWay = new Solids<T>(true);
    readonly result: MoveResult = { x: 0, y: 0, onFloor: false, onCeiling: false, onWall: false, floor: null };
    readonly carried: WorldMoveResult<T> = { x: 0, y: 0, onFloor: false, onCeiling: false, onWall: false, floor: null };
    riders: Body<T>[] = [];
    // Positions before a move with riders (mover first, then each rider: x, y), put back if any part throws.
    undo = new Float64Array(16);
}

/**
 * @internal Moves the body in slot s by (dx, dy) as `World.moveAndSlide` says; fills and returns `out`. All or
 * nothing: where a layer throws, or a rider would leave ±2^50, the mover and its riders are put back and the
 * error rethrown. `st.moving` is set meanwhile: the World refuses its mutators from a layer's overlaps().
 */
export function moveBody<T>(
    st: WorldState<T>,
    mv: Movers<T>,
    s: number,
    dx: number,
    dy: number,
    stepUp: number,
    snapDown: number,
    carry: boolean,
    dropThrough: boolean,
    out: WorldMoveResult<T>
): WorldMoveResult<T> {
    const x0 = st.boxes.x0[s],
        y0 = st.boxes.y0[s];
    // Riders: bodies the mover holds up now (they would touch it one pixel lower, and do not overlap it).
    const riders = carry ? ridersOf(st, mv, s) : mv.riders;
    if (!carry) riders.length = 0;
    const n = riders.length;
    if (mv.undo.length < 2 * n + 2) mv.undo = new Float64Array(4 * n + 4);
    const undo = mv.undo;
    undo[0] = st.posX[s];
    undo[1] = st.posY[s];
    for (let k = 0; k < n; k++) {
        undo[2 * k + 2] = st.posX[riders[k].slot];
        undo[2 * k + 3] = st.posY[riders[k].slot];
    }
    st.moving = true;
    try {
        // The mover passes through its riders (they move with it), then each rider moves by what it moved,
        // against everything but the mover (they were on it).
        mv.solid.skip = riders;
        moveOne(st, mv, s, -1, dx, dy, stepUp, snapDown, dropThrough, out);
        mv.solid.skip = NONE;
        const mx = st.boxes.x0[s] - x0,
            my = st.boxes.y0[s] - y0;
        if (mx !== 0 || my !== 0)
            for (let k = 0; k < n; k++) moveOne(st, mv, riders[k].slot, s, mx, my, 0, 0, false, mv.carried);
    } catch (e) {
        // A layer's overlaps() may throw (user code): nothing stays half moved.
        place(st, s, undo[0], undo[1]);
        for (let k = 0; k < n; k++) place(st, riders[k].slot, undo[2 * k + 2], undo[2 * k + 3]);
        throw e;
    } finally {
        st.moving = false;
        mv.solid.skip = NONE;
        aim(mv.solid, null, -1, -1);
        aim(mv.oneWay, null, -1, -1);
        riders.length = 0;
    }
    return out;
}

// The bodies standing on slot s: their filters make s solid for them, they do not overlap it, and one pixel
// lower they would. In id order, into mv.riders.
function ridersOf<T>(st: WorldState<T>, mv: Movers<T>, s: number): Body<T>[] {
    const out = mv.riders,
        m = st.masks[s] as Mask,
        x = st.boxes.x0[s],
        y = st.boxes.y0[s];
    out.length = 0;
    const found: Body<T>[] = st.scratch;
    const n = gridCandidates(st, x, y - 1, x + m.width, y + m.height, 0xffffffff, found);
    for (let k = 0; k < n; k++) {
        const b = found[k],
            j = b.slot;
        if (
            j === s ||
            (st.colw[j] & st.cat[s]) === 0 ||
            (st.cat[j] & st.colw[s]) === 0 ||
            (st.grp[s] !== 0 && st.grp[j] === st.grp[s])
        )
            continue;
        const rm = st.masks[j] as Mask,
            rx = st.boxes.x0[j],
            ry = st.boxes.y0[j];
        if (!rm.overlaps(m, x - rx, y - ry) && rm.overlaps(m, x - rx, y - ry - 1)) out.push(b);
    }
    return out;
}

// One body's move against the World, `ignore` (a slot, or −1) left out of its solids; the body is moved.
function moveOne<T>(
    st: WorldState<T>,
    mv: Movers<T>,
    s: number,
    ignore: number,
    dx: number,
    dy: number,
    stepUp: number,
    snapDown: number,
    dropThrough: boolean,
    out: WorldMoveResult<T>
): void {
    aim(mv.solid, st, s, ignore);
    aim(mv.oneWay, st, s, ignore);
    const ox = st.offX[s],
        oy = st.offY[s],
        mask = st.masks[s] as Mask;
    // The placed mask's top-left is floor(x) + offX: moved as the float x + offX, its floor moves with it. The
    // position kept (x, y) must stay within ±2^50: slideMask refuses a move ending beyond, before it is kept.
    const oneWay = dropThrough || !hasOneWay(st) ? null : mv.oneWay;
    // The body's mask (its own, when untransformed) may have been disposed by the game since it was set.
    checkMask(mask, 'mask');
    const r = slideMask(
        mv.solid,
        oneWay,
        mask,
        st.posX[s] + ox,
        st.posY[s] + oy,
        dx,
        dy,
        stepUp,
        snapDown,
        ox,
        oy,
        mv.result
    );
    const x = r.x - ox,
        y = r.y - oy;
    place(st, s, x, y);
    const nx = st.boxes.x0[s],
        ny = st.boxes.y0[s];
    out.x = x;
    out.y = y;
    out.onFloor = r.onFloor;
    out.onCeiling = r.onCeiling;
    out.onWall = r.onWall;
    out.floor = !r.onFloor
        ? null
        : r.floor === mv.solid
          ? mv.solid.first(mask, nx, ny + 1)
          : mv.oneWay.first(mask, nx, ny + 1);
    aim(mv.solid, null, -1, -1);
    aim(mv.oneWay, null, -1, -1);
}

// Sets slot s's position to (x, y) as world.move does: its box follows the floored position.
function place<T>(st: WorldState<T>, s: number, x: number, y: number): void {
    st.posX[s] = x;
    st.posY[s] = y;
    const nx = Math.floor(x) + st.offX[s],
        ny = Math.floor(y) + st.offY[s],
        b = st.boxes;
    if (nx !== b.x0[s] || ny !== b.y0[s]) {
        b.x1[s] += nx - b.x0[s];
        b.y1[s] += ny - b.y0[s];
        b.x0[s] = nx;
        b.y0[s] = ny;
        touchSlot(st, s);
    }
}

function aim<T>(v: Solids<T>, st: WorldState<T> | null, s: number, ignore: number): void {
    v.st = st;
    v.mover = s;
    v.ignore = ignore;
}

function hasOneWay<T>(st: WorldState<T>): boolean {
    if (st.oneWayBodies > 0) return true;
    for (let l = 0; l < st.layerOneWay.length; l++) if (st.layerOneWay[l]) return true;
    return false;
}
