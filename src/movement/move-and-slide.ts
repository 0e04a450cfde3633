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
// The boxes a small move starts with: moves of up to BOX_COLS px across (BOX_COLS + 1 columns of positions) and
// BOX_ROWS rows, for masks of at most BOX_WORDS words (a 64x64 mask is 128), where a layer test costs more than
// the words it reads.
const BOX_COLS = 4,
    BOX_ROWS = 12,
    BOX_WORDS = 128;

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
    // Swept masks: for long runs, and for the two guesses a small move of a small mask starts with (below).
    let sweeps: Sweeps | null = null;
    // A small move of a small mask is mostly one of two cases, each answered by one test of a box (the mask ORed
    // over a rectangle of positions, kept per mask), where a layer test costs far more than the words it reads:
    // - in the air: nothing solid (or one-way) over the columns from the start to the end of the horizontal run
    //   and the rows from one above the start and the end to one below them, which holds every position the
    //   rules test (each step, the floor and ceiling at the end) and the one under the start: the mover did
    //   not stand on ground (no snap), moves freely and touches nothing;
    // - walking on flat ground (without one-way platforms): every horizontal step free at the same row, and the
    //   row above its end free (its onCeiling); the rules go on from there.
    // A guess that fails tells nothing and costs one test; the rules then run from the start.
    let stripFree = false;
    if (n >= -BOX_COLS && n <= BOX_COLS && mask.strips * mask.height <= BOX_WORDS && mask.width * mask.height > 0) {
        const m0 = Math.floor(y + dy) - py,
            top = m0 < 0 ? py + m0 - 1 : py - 1,
            rows = (m0 < 0 ? -m0 : m0) + 3;
        if (rows <= BOX_ROWS) {
            const cols = n < 0 ? -n : n,
                left = n < 0 ? px + n : px;
            sweeps = Sweeps.of(mask);
            if (
                !sweeps.boxHits(solid, cols, rows - 1, left, top) &&
                (oneWay === null || !sweeps.boxHits(oneWay, cols, rows - 1, left, top))
            ) {
                x += dx;
                y += dy;
                if (Math.abs(x - offX) > MAX_COORD || Math.abs(y - offY) > MAX_COORD)
                    throw beyond(x0 - offX, y0 - offY, dx, dy, x - offX, y - offY);
                r.x = x;
                r.y = y;
                r.onFloor = r.onCeiling = r.onWall = false;
                r.floor = null;
                return r;
            }
            stripFree =
                n !== 0 && oneWay === null && !sweeps.boxHits(solid, cols - 1, 1, left + (n < 0 ? 0 : 1), py - 1);
        }
    }
    // What is under the mover at (gx, gy) (bit 0 solid one pixel below, bit 1 ground: see groundBits; −1 not
    // asked). The same position comes up several times in a call (after the horizontal move, before the first
    // vertical step, at the end), and a climb or a stopped fall tells it without a test.
    let gx = px,
        gy = py,
        g = -1;
    // What the tests made so far tell of the solid at the mover's position: `here`, free (every step goes to a
    // position tested free; the start is never tested), and `ceil`, one pixel above: 0 free, 1 solid, −1 not
    // known. A move that ends after a fall or a snap of two pixels, or one below a free position, knows its
    // onCeiling without a test.
    let here = false,
        ceil = -1;
    // Ground at the start: asked first only where the horizontal move depends on it (one-way platforms); else
    // only where a snap needs it, after the move, when the ground there is not already known.
    let standing = false;
    if (oneWay !== null) {
        g = groundBits(solid, oneWay, mask, px, py);
        standing = (g & GROUND) !== 0;
    }
    const px0 = px,
        py0 = py;

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
    if (stripFree) {
        px += n;
        here = true;
        ceil = 0;
    }
    for (let left = stripFree ? 0 : Math.abs(n); left > 0;) {
        // One-way pixels block a free run where they would be climbed; inside one, steps go pixel by pixel.
        const ow = climbsOneWay && !inside ? oneWay : null;
        // Whether solid is known to block the next position: a free run ends where its next position is blocked
        // (binary lifting's last test), by solid where no one-way layer was tested with it.
        let blocked = false;
        if (left >= SWEEP_FROM && !inside) {
            const free = (sweeps ??= Sweeps.of(mask)).freeRun(solid, ow, px, py, s, 0, left);
            if (free > 0) {
                px += s * free;
                left -= free;
                here = true;
                ceil = -1;
                if (left === 0) break;
            }
            blocked = ow === null;
        }
        const wall = blocked || solid.overlaps(mask, px + s, py);
        if (!wall && (ow === null || !ow.overlaps(mask, px + s, py))) {
            px += s;
            left--;
            here = true;
            ceil = -1;
            if (inside) inside = (oneWay as CollisionLayer).overlaps(mask, px, py);
            continue;
        }
        // under: solid blocks the position below the one climbed to (then the mover stands on solid there).
        let k = 1,
            under = wall;
        while (k <= stepUp) {
            const hit = solid.overlaps(mask, px + s, py - k);
            if (!hit && (ow === null || !ow.overlaps(mask, px + s, py - k))) break;
            under = hit;
            k++;
        }
        if (k > stepUp && ow !== null) {
            // Nothing free of both within stepUp: a one-way platform is walked into, not a wall; solid is
            // climbed as without one (the mover then ends inside the platform).
            k = 0;
            under = false;
            if (wall) {
                k = 1;
                under = true;
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
        here = true;
        ceil = -1;
        if (under) {
            gx = px;
            gy = py;
            g = SOLID_BELOW | GROUND;
        }
        if (inside && ow === null) inside = (oneWay as CollisionLayer).overlaps(mask, px, py);
    }
    x = onWall ? px : x + dx;

    // 2. Snap down onto ground within snapDown px, if the mover stood on ground and is not moving up. The
    // ground before the move is asked only where the ground after it is missing.
    if (snapDown > 0 && dy >= 0) {
        if (g < 0 || gx !== px || gy !== py) {
            gx = px;
            gy = py;
            g = groundBits(solid, oneWay, mask, px, py);
        }
        if ((g & GROUND) === 0 && oneWay === null && (px !== px0 || py !== py0))
            standing = (groundBits(solid, null, mask, px0, py0) & GROUND) !== 0;
        // Each k passed is a free position (no solid one pixel below the one before it).
        for (let k = 1; standing && k <= snapDown && (g & GROUND) === 0; k++) {
            const below = groundBits(solid, oneWay, mask, px, py + k);
            if ((below & GROUND) !== 0) {
                py += k;
                y += k;
                gy = py;
                g = below;
                ceil = k >= 2 || here ? 0 : -1;
                here = true;
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
            const b = t > 0 ? oneWay : null,
                free = (sweeps ??= Sweeps.of(mask)).freeRun(solid, b, px, py, 0, t, left);
            if (free > 0) {
                py += t * free;
                left -= free;
                ceil = t < 0 ? -1 : free >= 2 || here ? 0 : -1;
                here = true;
                if (left === 0) break;
            }
            // The run ended on a blocked position: solid, where the one-way layer was not tested with it.
            if (b === null) {
                if (t < 0) ceil = 1;
                else {
                    gx = px;
                    gy = py;
                    g = SOLID_BELOW | GROUND;
                }
            }
        }
        if (t > 0) {
            if (g < 0 || gx !== px || gy !== py) {
                gx = px;
                gy = py;
                g = groundBits(solid, oneWay, mask, px, py);
            }
            if ((g & GROUND) !== 0) {
                stopped = true;
                break;
            }
            // No solid one pixel below: the position stepped to is free.
            ceil = here ? 0 : -1;
            here = true;
        } else {
            if (ceil < 0) ceil = solid.overlaps(mask, px, py - 1) ? 1 : 0;
            if (ceil === 1) {
                stopped = true;
                break;
            }
            here = true;
            ceil = -1;
        }
        py += t;
        left--;
    }
    y = stopped ? py : y + dy;

    // Positions stay within ±2^50 (a World keeps only those, and refuses a snapshot holding others): a move
    // ending beyond is refused before anything is written.
    if (Math.abs(x - offX) > MAX_COORD || Math.abs(y - offY) > MAX_COORD)
        throw beyond(x0 - offX, y0 - offY, dx, dy, x - offX, y - offY);
    if (g < 0 || gx !== px || gy !== py) g = groundBits(solid, oneWay, mask, px, py);
    r.x = x;
    r.y = y;
    r.onFloor = (g & GROUND) !== 0;
    r.onCeiling = ceil < 0 ? solid.overlaps(mask, px, py - 1) : ceil === 1;
    r.onWall = onWall;
    r.floor = (g & SOLID_BELOW) !== 0 ? solid : r.onFloor ? oneWay : null;
    return r;
}

// The error of a move that would end beyond ±2^50 (limits.coord), in the caller's coordinates.
function beyond(x0: number, y0: number, dx: number, dy: number, x: number, y: number): RangeError {
    return outOfRange(
        `moveAndSlide(): a move of (${dx}, ${dy}) from (${x0}, ${y0}) would end at (${x}, ${y}), beyond ±2^50 (limits.coord); nothing moved.`
    );
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
    // The boxes of small moves, by a * BOX_ROWS + b: the mask ORed over a + 1 columns and b + 1 rows.
    #box: (Mask | undefined)[] = [];
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
        for (const m of this.#box) m?.dispose();
        this.#box.length = 0;
    }

    /** Whether `layer` is solid under the mask ORed over positions (x..x + a, y..y + b) (a ≤ BOX_COLS, b < BOX_ROWS). */
    boxHits(layer: CollisionLayer, a: number, b: number, x: number, y: number): boolean {
        const i = a * BOX_ROWS + b;
        let box = this.#box[i];
        if (box === undefined) {
            // Rows first, then the columns of the rows: a + b + 2 draws.
            const mask = this.#mask,
                row = new Mask(mask.width + a, mask.height);
            for (let k = 0; k <= a; k++) row.draw(mask, k, 0);
            box = new Mask(row.width, mask.height + b);
            for (let k = 0; k <= b; k++) box.draw(row, 0, k);
            row.dispose();
            while (this.#box.length < i) this.#box.push(undefined);
            this.#box[i] = box;
        }
        this.#busy++;
        try {
            return layer.overlaps(box, x, y);
        } finally {
            if (--this.#busy === 0 && this.#retired) this.#drop();
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
