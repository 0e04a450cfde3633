// Moving a mask against collision layers one pixel at a time, as Celeste and TowerFall move their actors:
// horizontal steps (climbing up to stepUp px at each), a snap down onto the ground, then vertical steps
// that stop at the first pixel of contact. No safe margin, no seams between tiles, no tunnelling at any
// speed. The rules, exactly, are in docs/movement.md; test/move-reference.ts is their per-pixel oracle.
//
// A long free run (a fall, a jump, a dash) is not tested pixel by pixel: the mask is swept along the axis
// (ORed with itself shifted by 1, 2, 4, … px; one draw each) and the free distance found by binary lifting,
// one layer test per power of two. A 600 px fall is ten tests of tall masks instead of 600 of the mask.
import { coord, checkFinite, checkPixels, outOfRange, typeError } from '../base/check.js';
import { MAX_COORD } from '../base/limits.js';
import { asLayer, type CollisionLayer } from '../layers/layer.js';
import { checkBoolean, checkObject } from '../base/check-types.js';
import { checkMask, Mask } from '../core/mask.js';
import { sameWords, wordsOf } from '../kernels/mask-words.js';

/** Options of {@link moveAndSlide}. */
export interface MoveOptions {
    /** Height in px the mover may climb at each horizontal pixel (stairs, slopes): an integer ≥ 0, default 0. */
    stepUp?: number;
    /**
     * Distance in px the mover is pulled down after its horizontal move to keep to the ground (down slopes and
     * steps), when it stood on ground before and `dy ≥ 0`: an integer ≥ 0, default 0.
     */
    snapDown?: number;
    /** One-way platforms: they hold a mover that comes down onto them and let it pass sideways and upward. */
    oneWay?: CollisionLayer | null;
    /**
     * Drop through one-way platforms for this move ("down + jump"): `oneWay` is left out of it, so a mover
     * standing on one falls into it, and the next moves, starting inside it, are not held by it. Default false.
     */
    dropThrough?: boolean;
}

/** Where {@link moveAndSlide} left the mover, and what it touches there. */
export interface MoveResult {
    /** New left of the mask (fractions kept, except on an axis where a contact stopped it: then an integer). */
    x: number;
    /** New top of the mask. */
    y: number;
    /** Standing on ground: solid one pixel below, or a one-way platform entered one pixel below. */
    onFloor: boolean;
    /** Solid one pixel above. */
    onCeiling: boolean;
    /** The horizontal move was stopped by solid that `stepUp` could not climb. */
    onWall: boolean;
    /** The layer the mover stands on: `solid` where solid is below, else the one-way layer; `null` in the air. */
    floor: CollisionLayer | null;
}

// Longest move along one axis in one call: each pixel step may be tested, and a step count must stay exact.
const MAX_STEPS = 2 ** 20;
// Runs shorter than this are stepped pixel by pixel: building swept masks costs more than a few tests.
const SWEEP_FROM = 12;
// Longest sweep built (2^10 px); longer runs go in chunks of it, so a swept mask stays small.
const MAX_LEVEL = 10;

/**
 * Moves `mask` (top-left at x, y) by (dx, dy) against `solidLayer`, stepping over bumps up to `stepUp` px and
 * snapping down up to `snapDown` px onto ground, with one-way platforms from `options.oneWay`; returns the
 * new position and its contacts (written into `out` when given). Rules: docs/movement.md.
 */
export function moveAndSlide(
    solidLayer: CollisionLayer,
    mask: Mask,
    x: number,
    y: number,
    dx: number,
    dy: number,
    options?: MoveOptions,
    out?: MoveResult
): MoveResult {
    // A 0.3-style layer (test instead of overlaps) gets its new name once, warning; the same object is used.
    const solid = asLayer(solidLayer, 'solid', false);
    checkMask(mask, 'mask');
    // Positions within ±2^50, as a World's: beyond that x + dx is no longer exact and a move would silently vanish.
    coord('x', x);
    coord('y', y);
    if (options !== undefined) checkObject('options', options);
    const stepUp = steps('stepUp', options?.stepUp),
        snapDown = steps('snapDown', options?.snapDown);
    const dropThrough = options?.dropThrough;
    if (dropThrough !== undefined) checkBoolean('dropThrough', dropThrough);
    const oneWayLayer = options?.oneWay ?? null,
        oneWay = oneWayLayer === null ? null : asLayer(oneWayLayer, 'oneWay', false);
    if (out !== undefined && (out === null || typeof out !== 'object'))
        throw typeError('out', 'a MoveResult object to fill', out);
    const r = slideMask(
        solid,
        dropThrough === true ? null : oneWay,
        mask,
        x,
        y,
        dx,
        dy,
        stepUp,
        snapDown,
        0,
        0,
        out ?? ({} as MoveResult)
    );
    // floor names the objects given (asLayer may have wrapped a frozen 0.3 layer).
    r.floor = r.floor === solid ? solidLayer : r.floor === null ? null : oneWayLayer;
    return r;
}

/**
 * @internal The move of {@link moveAndSlide} on checked layers, mask and step counts (the World's moves call it).
 * The result is refused (a RangeError, `r` untouched) when x − offX or y − offY would end beyond ±2^50: the
 * position its caller keeps is the mask's top-left minus that offset. `r.floor` is `solid` or `oneWay`.
 */
export function slideMask(
    solid: CollisionLayer,
    oneWay: CollisionLayer | null,
    mask: Mask,
    x: number,
    y: number,
    dx: number,
    dy: number,
    stepUp: number,
    snapDown: number,
    offX: number,
    offY: number,
    r: MoveResult
): MoveResult {
    checkFinite('dx', dx);
    checkFinite('dy', dy);
    const x0 = x,
        y0 = y;
    let px = Math.floor(x),
        py = Math.floor(y);
    const n = Math.floor(x + dx) - px;
    if (Math.abs(n) > MAX_STEPS || Math.abs(Math.floor(y + dy) - py) > MAX_STEPS) {
        throw outOfRange(
            `moveAndSlide(): a move of (${dx}, ${dy}) is more than the ${MAX_STEPS} pixel steps allowed on an axis; move in shorter segments.`
        );
    }
    // Swept masks only for long runs (most calls of a walking crowd never look them up).
    let sweeps: Sweeps | null = null;
    // What is under the mover at (gx, gy): bit 0 solid one pixel below, bit 1 ground (see groundBits). The
    // same position is asked up to four times in a call (before, after the horizontal move, before the
    // first vertical step, at the end); asking once cut a walking crowd's layer tests by a third.
    let gx = px,
        gy = py,
        g = groundBits(solid, oneWay, mask, px, py);
    const standing = (g & GROUND) !== 0,
        floorBefore = snapDown > 0 && dy >= 0 && standing;

    // 1. Horizontal: free runs at once, then pixel steps with climbing where solid blocks. One-way platforms
    // never stop the move; for a mover that stood on ground when the move began and is not inside one, they
    // are climbed as solid is (walking along a bumpy one-way surface), else walked into.
    let onWall = false;
    const s = n < 0 ? -1 : 1,
        climbsOneWay = standing && oneWay !== null;
    // Whether the mask overlaps a one-way platform at (px, py); kept up to date only where climbsOneWay. Ground
    // that is not solid is a one-way platform entered one pixel below, so not entered here (see groundBits).
    let inside =
        climbsOneWay && n !== 0 && (g & SOLID_BELOW) !== 0 && (oneWay as CollisionLayer).overlaps(mask, px, py);
    for (let left = Math.abs(n); left > 0;) {
        // One-way pixels block a free run where they would be climbed; inside one, steps go pixel by pixel.
        const ow = climbsOneWay && !inside ? oneWay : null;
        if (left >= SWEEP_FROM && !inside) {
            const free = (sweeps ??= Sweeps.of(mask)).freeRun(solid, ow, px, py, s, 0, left);
            px += s * free;
            left -= free;
            if (left === 0) break;
        }
        const wall = solid.overlaps(mask, px + s, py);
        if (!wall && (ow === null || !ow.overlaps(mask, px + s, py))) {
            px += s;
            left--;
            if (inside) inside = (oneWay as CollisionLayer).overlaps(mask, px, py);
            continue;
        }
        let k = 1;
        while (
            k <= stepUp &&
            (solid.overlaps(mask, px + s, py - k) || (ow !== null && ow.overlaps(mask, px + s, py - k)))
        )
            k++;
        if (k > stepUp && ow !== null) {
            // Nothing free of both within stepUp: a one-way platform is walked into, not a wall; solid is
            // climbed as without one (the mover then ends inside the platform).
            k = 0;
            if (wall) {
                k = 1;
                while (k <= stepUp && solid.overlaps(mask, px + s, py - k)) k++;
            }
            if (k <= stepUp) inside = true;
        }
        if (k > stepUp) {
            onWall = true;
            break;
        }
        px += s;
        py -= k;
        y -= k;
        left--;
        if (inside && ow === null) inside = (oneWay as CollisionLayer).overlaps(mask, px, py);
    }
    x = onWall ? px : x + dx;

    // 2. Snap down onto ground within snapDown px, if the mover stood on ground and is not moving up.
    if (floorBefore) {
        if (gx !== px || gy !== py) {
            gx = px;
            gy = py;
            g = groundBits(solid, oneWay, mask, px, py);
        }
        for (let k = 1; k <= snapDown && (g & GROUND) === 0; k++) {
            const below = groundBits(solid, oneWay, mask, px, py + k);
            if ((below & GROUND) !== 0) {
                py += k;
                y += k;
                gy = py;
                g = below;
            }
        }
    }

    // 3. Vertical: down stops on ground (solid, or a one-way platform entered from above), up on solid.
    const m = Math.floor(y + dy) - py,
        t = m < 0 ? -1 : 1;
    let stopped = false;
    for (let left = Math.abs(m); left > 0;) {
        // Inside a one-way platform the step rule depends on leaving it: pixel by pixel (platforms are thin).
        if (left >= SWEEP_FROM && (t < 0 || oneWay === null || !oneWay.overlaps(mask, px, py))) {
            const free = (sweeps ??= Sweeps.of(mask)).freeRun(solid, t > 0 ? oneWay : null, px, py, 0, t, left);
            py += t * free;
            left -= free;
            if (left === 0) break;
        }
        if (t > 0 && (gx !== px || gy !== py)) {
            gx = px;
            gy = py;
            g = groundBits(solid, oneWay, mask, px, py);
        }
        if (t > 0 ? (g & GROUND) !== 0 : solid.overlaps(mask, px, py - 1)) {
            stopped = true;
            break;
        }
        py += t;
        left--;
    }
    y = stopped ? py : y + dy;

    // Positions stay within ±2^50 (a World keeps only those, and refuses a snapshot holding others): a move
    // ending beyond is refused before anything is written.
    if (Math.abs(x - offX) > MAX_COORD || Math.abs(y - offY) > MAX_COORD) {
        throw outOfRange(
            `moveAndSlide(): a move of (${dx}, ${dy}) from (${x0 - offX}, ${y0 - offY}) would end at (${x - offX}, ${y - offY}), beyond ±2^50 (limits.coord); nothing moved.`
        );
    }
    if (gx !== px || gy !== py) g = groundBits(solid, oneWay, mask, px, py);
    r.x = x;
    r.y = y;
    r.onFloor = (g & GROUND) !== 0;
    r.onCeiling = solid.overlaps(mask, px, py - 1);
    r.onWall = onWall;
    r.floor = (g & SOLID_BELOW) !== 0 ? solid : r.onFloor ? oneWay : null;
    return r;
}

const SOLID_BELOW = 1,
    GROUND = 2;

// Under the mask at (x, y): SOLID_BELOW where solid is one pixel below; GROUND there, or where a one-way
// platform is entered one pixel below (overlapping it there, not at (x, y)).
function groundBits(solid: CollisionLayer, oneWay: CollisionLayer | null, mask: Mask, x: number, y: number): number {
    if (solid.overlaps(mask, x, y + 1)) return SOLID_BELOW | GROUND;
    return oneWay !== null && oneWay.overlaps(mask, x, y + 1) && !oneWay.overlaps(mask, x, y) ? GROUND : 0;
}

// The mask swept along one axis: level j is the union of the mask shifted by 0..2^j − 1 px, built on first
// use from level j − 1. Kept between calls per mask (walkers share a few masks and fall every few frames),
// with a copy of the mask's words to notice edits: comparing them costs far less than building a level.
class Sweeps {
    #mask: Mask;
    #words: Uint32Array;
    #h: Mask[] = [];
    #v: Mask[] = [];
    // freeRun() calls under way (re-entered through a layer), and whether these sweeps were replaced.
    #busy = 0;
    #retired = false;

    constructor(mask: Mask) {
        this.#mask = mask;
        this.#words = wordsOf(mask).slice();
    }

    /**
     * The cached sweeps of `mask`, rebuilt when its pixels changed since they were made; the stale ones are
     * disposed at once (a loop of long falls of an edited mask, as a rollback replay makes, would otherwise hold
     * their WebAssembly memory until garbage collection, and reach its ceiling first).
     */
    static of(mask: Mask): Sweeps {
        let s = cache.get(mask);
        if (s === undefined || !s.#fresh()) {
            if (s !== undefined) s.#retire();
            else {
                reap();
                owners.push(new WeakRef(mask));
            }
            cache.set(mask, (s = new Sweeps(mask)));
        }
        return s;
    }

    /** Disposes the swept masks of a mask its owner disposed (see reap). */
    static forget(mask: Mask): void {
        const s = cache.get(mask);
        if (s === undefined) return;
        cache.delete(mask);
        s.#retire();
    }

    // Disposes the swept masks once no freeRun() reads them: a layer's overlaps() may re-enter moveAndSlide
    // with the mask edited, replacing these sweeps while a run of them is still testing one.
    #retire(): void {
        this.#retired = true;
        if (this.#busy === 0) this.#drop();
    }

    #drop(): void {
        for (const list of [this.#h, this.#v]) {
            // Level 0 is the mask itself.
            for (let j = 1; j < list.length; j++) list[j].dispose();
            list.length = 0;
        }
    }

    #fresh(): boolean {
        return sameWords(this.#mask, this.#words);
    }

    #level(vertical: boolean, j: number): Mask {
        const list = vertical ? this.#v : this.#h;
        if (list.length === 0) list.push(this.#mask);
        while (list.length <= j) {
            const prev = list[list.length - 1],
                shift = 1 << (list.length - 1);
            const next = vertical
                ? new Mask(prev.width, prev.height + shift)
                : new Mask(prev.width + shift, prev.height);
            next.draw(prev, 0, 0);
            if (vertical) next.draw(prev, 0, shift);
            else next.draw(prev, shift, 0);
            list.push(next);
        }
        return list[j];
    }

    /**
     * How many pixel steps from (x, y) in direction (sx, sy) (one of them ±1, the other 0) are free of
     * `a` and `b` (b may be null), up to `most`: the largest f ≤ most with every position 1..f free.
     */
    freeRun(
        a: CollisionLayer,
        b: CollisionLayer | null,
        x: number,
        y: number,
        sx: number,
        sy: number,
        most: number
    ): number {
        this.#busy++;
        try {
            return this.#run(a, b, x, y, sx, sy, most);
        } finally {
            if (--this.#busy === 0 && this.#retired) this.#drop();
        }
    }

    #run(
        a: CollisionLayer,
        b: CollisionLayer | null,
        x: number,
        y: number,
        sx: number,
        sy: number,
        most: number
    ): number {
        const vertical = sy !== 0,
            s = vertical ? sy : sx;
        let done = 0;
        while (done < most) {
            const chunk = Math.min(most - done, (2 << MAX_LEVEL) - 1);
            let top = 0;
            while ((2 << top) - 1 < chunk) top++;
            // Binary lifting: add 2^j steps while the 2^j positions after those known free are free too.
            let f = 0;
            for (let j = top; j >= 0; j--) {
                const len = 1 << j;
                if (f + len > chunk) continue;
                const swept = this.#level(vertical, j);
                // The swept mask covers positions first..first + len − 1 along the axis.
                const first = s > 0 ? done + f + 1 : -(done + f + len);
                const qx = vertical ? x : x + first,
                    qy = vertical ? y + first : y;
                if (a.overlaps(swept, qx, qy) || (b !== null && b.overlaps(swept, qx, qy))) continue;
                f += len;
            }
            done += f;
            if (f < chunk) break;
        }
        return done;
    }
}

const cache = new WeakMap<Mask, Sweeps>();

// The masks with cached sweeps, a few checked for disposal each time sweeps are made for a new mask: a loop of
// new masks, each fallen once and disposed, frees their swept masks as it goes, not at garbage collection.
const owners: WeakRef<Mask>[] = [];
let cursor = 0;

function reap(): void {
    for (let k = 0; k < 4 && owners.length > 0; k++) {
        if (cursor >= owners.length) cursor = 0;
        const m = owners[cursor].deref();
        if (m !== undefined && !m.disposed) {
            cursor++;
            continue;
        }
        if (m !== undefined) Sweeps.forget(m);
        owners[cursor] = owners[owners.length - 1];
        owners.pop();
    }
}

function steps(name: string, v: unknown): number {
    return v === undefined ? 0 : checkPixels(name, v, MAX_STEPS);
}
