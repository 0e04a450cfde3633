// The World: its public API over bodies stored in typed arrays by slot, the step and its begin/stay/end events.
// Slot upkeep is in world-slots.ts, the grid's upkeep in world-grid.ts, detection in pairs.ts, events in
// events.ts, queries in query.ts, contacts and sweeps in contact.ts.
import { Body, type BodyOptions, type Filter, type LayerOptions, type Pair } from './body.js';
import { checkBits, checkInt, coord, describe } from '../base/check.js';
import { contactInto, sweepInto, type Contact, type SweepHit } from './contact.js';
import { PairEvents, type PairListener, type WorldEvent } from './events.js';
import { Grid } from './grid.js';
import type { CollisionLayer } from '../layers/layer.js';
import { detectPairs, PairList } from './pairs.js';
import { Mask, type Point } from '../core/mask.js';
import { checkMask, queryMaskInto, queryPointInto, queryRectInto } from './query.js';
import type { ThreadPool } from '../threads/pool.js';
import type { CollisionRaster } from '../raster/raster.js';
import { checkTransform, TransformCache, type Transform } from '../core/transform.js';
import { castWorld, type WorldRayHit } from '../rays/ray.js';
import { refreshGrid } from './cells.js';
import { growSlots, placeSlot, touchSlot } from './slots.js';

export { Body, type BodyOptions, type Filter, type LayerOptions, type Pair } from './body.js';
export type { Contact, SweepHit } from './contact.js';
export type { PairListener, WorldEvent } from './events.js';

/** Options of the {@link World} constructor. */
export interface WorldOptions {
    /** Grid cell side in pixels, a power of two; by default the power of two at or above the mean body side, chosen at each rebuild. */
    cellSize?: number;
    /** Rotation steps per turn for transformed bodies (angles snap to the nearest step). @default 256 */
    angleSteps?: number;
    /**
     * Worker threads that share the narrow phase of large steps (see {@link ThreadPool}); the pairs and
     * events are the same with or without them. @default null
     */
    threads?: ThreadPool | null;
}

/**
 * Many moving sprites with pixel-exact collisions: a uniform-grid broad phase rebuilt per detection,
 * every colliding pair once, begin/stay/end events, contacts, queries, sweeps and static layers.
 *
 * @example
 * const world = new World();
 * const ship = world.add({ x: 10, y: 20, mask: shipMask, data: 'ship' });
 * world.on('begin', (a, b) => console.log(a.data, 'hit', b.data));
 * world.move(ship, 12.5, 20);
 * world.step();
 */
export class World<T = unknown> {
    /** @internal Raw positions by slot. */
    posX = new Float64Array(64);
    /** @internal */
    posY = new Float64Array(64);
    /** @internal Untransformed masks by slot. */
    source: (Mask | null)[] = [];

    /** @internal */
    readonly grid = new Grid();
    /** @internal */
    readonly transforms: TransformCache;
    /** @internal */
    readonly fixedCell: number;
    /** @internal */
    cap = 64;
    /** @internal */
    used = 0;
    /** @internal */
    nextId = 1;
    /** @internal */
    live = 0;
    /** @internal */
    boxes = { x0: new Float64Array(64), y0: new Float64Array(64), x1: new Float64Array(64), y1: new Float64Array(64) };
    /** @internal */
    offX = new Int32Array(64);
    /** @internal */
    offY = new Int32Array(64);
    /** @internal */
    cat = new Int32Array(64);
    /** @internal */
    colw = new Int32Array(64);
    /** @internal */
    grp = new Int32Array(64);
    /** @internal */
    rank = new Int32Array(64);
    /** @internal */
    seen = new Int32Array(64);
    /** @internal */
    qbuf = new Int32Array(64);
    /** @internal */
    moved = new Uint8Array(64);
    /** @internal */
    masks: (Mask | null)[] = [];
    // Transform per slot (not hot: read when placing a mask).
    /** @internal */
    tf: Required<Transform>[] = [];
    /** @internal */
    bodies: (Body<T> | null)[] = [];
    /** @internal */
    free: number[] = [];
    /** @internal */
    pendingFree: number[] = [];
    /** @internal */
    order = new Int32Array(64);
    /** @internal */
    orderCount = 0;
    /** @internal */
    ranksDirty = false;
    /** @internal Live bodies by rank (id order). */
    byRank: Body<T>[] = [];
    /** @internal */
    list = new Int32Array(64);
    /** @internal Bounds of the boxes at the last grid build: x0, y0, x1, y1. */
    bounds = [0, 0, 0, 0];
    /** @internal */
    movedList = new Int32Array(64);
    /** @internal */
    movedCount = 0;
    /** @internal */
    gridValid = false;
    /** @internal */
    removedSinceBuild = false;
    /** @internal */
    token = 0;
    /** @internal */
    pairList = new PairList();
    // Narrow phase results per candidate pair (the batch itself is the grid's pairs), and the last step's estimated words.
    /** @internal */
    batchHits = new Uint8Array(1024);
    /** @internal */
    lastWork = 0;
    /** @internal */
    pool: ThreadPool | null = null;
    /** @internal */
    layers: Body<T>[] = [];
    /** @internal */
    layerCat: number[] = [];
    /** @internal */
    layerColw: number[] = [];
    /** @internal Per layer its bounds at the last detection (pairs.ts). */
    layerBox = new Float64Array(8);
    /** @internal */
    hitA: Body<T>[] = [];
    /** @internal */
    hitB: Body<T>[] = [];
    /** @internal */
    hitCount = 0;
    /** @internal */
    events = new PairEvents<T>();

    /** @internal */
    rectMask = new Mask(0, 0);
    /** @internal */
    scratch: Body<T>[] = [];
    /** @internal */
    point: Point = { x: 0, y: 0 };

    constructor(options: WorldOptions = {}) {
        if (options == null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${describe(options)}.`);
        const cs = options.cellSize;
        if (cs !== undefined) {
            checkInt('cellSize', cs, 1, 2 ** 24);
            if ((cs & (cs - 1)) !== 0) throw new RangeError(`cellSize must be a power of two, got ${cs}; try ${2 ** Math.ceil(Math.log2(cs))}.`);
        }
        this.fixedCell = cs ?? 0;
        this.transforms = new TransformCache(options.angleSteps ?? 256);
        this.threads = options.threads ?? null;
    }

    /** Worker threads sharing the narrow phase, or null; may be changed between steps. */
    get threads(): ThreadPool | null { return this.pool; }
    set threads(pool: ThreadPool | null) {
        // Duck-typed, not instanceof: the World must not pull the worker code into bundles without threads.
        if (pool !== null && (typeof pool !== 'object' || typeof (pool as Partial<ThreadPool>).run !== 'function' || typeof (pool as Partial<ThreadPool>).wake !== 'function')) {
            throw new TypeError(`threads must be a ThreadPool (from 'hitmask/threads') or null, got ${describe(pool)}.`);
        }
        this.pool = pool;
    }

    /** Number of live bodies (layers not counted). */
    get size(): number { return this.live; }

    /** Adds a body; see {@link BodyOptions}. */
    add(options: BodyOptions<T>): Body<T> {
        if (options == null || typeof options !== 'object') throw new TypeError(`add() needs an options object { x, y, mask }, got ${describe(options)}.`);
        const x = coord('x', options.x), y = coord('y', options.y);
        checkMask(options.mask);
        const category = checkBits('category', options.category ?? 1);
        const collidesWith = checkBits('collidesWith', options.collidesWith ?? 0xffffffff);
        const group = checkInt('group', options.group ?? 0, -(2 ** 31), 2 ** 31 - 1);
        const angle = options.angle ?? 0, scaleX = options.scaleX ?? 1, scaleY = options.scaleY ?? 1;
        checkTransform(angle, scaleX, scaleY);
        let s: number;
        if (this.free.length > 0) s = this.free.pop() as number;
        else {
            if (this.used === this.cap) growSlots(this, this.cap * 2);
            s = this.used++;
        }
        const body = new Body<T>(this, this.nextId++, s, options.data as T, null);
        this.bodies[s] = body;
        this.source[s] = options.mask;
        this.posX[s] = x;
        this.posY[s] = y;
        this.cat[s] = category;
        this.colw[s] = collidesWith;
        this.grp[s] = group;
        this.tf[s] = { angle, scaleX, scaleY, flipX: !!options.flipX, flipY: !!options.flipY };
        this.moved[s] = 0;
        placeSlot(this, s);
        this.order[this.orderCount++] = s;
        this.ranksDirty = true;
        this.live++;
        return body;
    }

    /** Adds a static layer (a tile map, a collision raster) that bodies collide with; its pairs have the layer as `b`. */
    addLayer(layer: CollisionLayer | CollisionRaster, options: LayerOptions<T> = {}): Body<T> {
        // A raster's queries take a layer set; the World talks to a view of all its layers. Duck-typed, so
        // a World without rasters does not bundle the raster (4 KB gzipped).
        if (isRaster(layer)) layer = layer.view();
        if (layer == null || typeof layer !== 'object' || typeof layer.test !== 'function' || typeof layer.overlapArea !== 'function' ||
            typeof layer.hitPoint !== 'function' || typeof layer.testPixel !== 'function') {
            throw new TypeError(`layer must implement CollisionLayer (test, overlapArea, hitPoint, testPixel), got ${describe(layer)}.`);
        }
        const body = new Body<T>(this, this.nextId++, this.layers.length, options.data as T, layer);
        this.layers.push(body);
        this.layerCat.push(checkBits('category', options.category ?? 1));
        this.layerColw.push(checkBits('collidesWith', options.collidesWith ?? 0xffffffff));
        this.ranksDirty = true;
        return body;
    }

    /** Moves a body; the mask goes to (⌊x⌋, ⌊y⌋) (plus the transform's offset). */
    move(body: Body<T>, x: number, y: number): void {
        const s = this.slotOf(body, 'move');
        x = coord('x', x);
        y = coord('y', y);
        this.posX[s] = x;
        this.posY[s] = y;
        const nx = Math.floor(x) + this.offX[s], ny = Math.floor(y) + this.offY[s];
        const b = this.boxes;
        b.x1[s] += nx - b.x0[s];
        b.y1[s] += ny - b.y0[s];
        b.x0[s] = nx;
        b.y0[s] = ny;
        touchSlot(this, s);
    }

    /** Replaces a body's mask (e.g. the next animation frame), keeping its position and transform. */
    setMask(body: Body<T>, mask: Mask): void {
        const s = this.slotOf(body, 'setMask');
        checkMask(mask);
        this.source[s] = mask;
        placeSlot(this, s);
    }

    /** Changes a body's rotation, scale or flips; omitted fields keep their value. */
    setTransform(body: Body<T>, transform: Transform): void {
        const s = this.slotOf(body, 'setTransform');
        if (transform == null || typeof transform !== 'object') throw new TypeError(`transform must be an object, got ${describe(transform)}.`);
        const old = this.tf[s];
        const t = {
            angle: transform.angle ?? old.angle, scaleX: transform.scaleX ?? old.scaleX, scaleY: transform.scaleY ?? old.scaleY,
            flipX: transform.flipX ?? old.flipX, flipY: transform.flipY ?? old.flipY
        };
        checkTransform(t.angle, t.scaleX, t.scaleY);
        this.tf[s] = t;
        placeSlot(this, s);
    }

    /** A body's transform (angle as given, before quantisation). */
    getTransform(body: Body<T>): Required<Transform> {
        return { ...this.tf[this.slotOf(body, 'getTransform')] };
    }

    /** The mask actually tested for a body (transformed) and its top-left in world pixels. */
    placedMask(body: Body<T>): { mask: Mask; x: number; y: number } {
        const s = this.slotOf(body, 'placedMask');
        return { mask: this.masks[s] as Mask, x: this.boxes.x0[s], y: this.boxes.y0[s] };
    }

    /** Changes a body's (or layer's) filter; omitted fields keep their value. */
    setFilter(body: Body<T>, filter: Filter): void {
        if (filter == null || typeof filter !== 'object') throw new TypeError(`filter must be an object, got ${describe(filter)}.`);
        if (body instanceof Body && body.layer && body.world === this && body.slot >= 0) {
            if (filter.group !== undefined) throw new TypeError('Layers have no group; set category and collidesWith only.');
            if (filter.category !== undefined) this.layerCat[body.slot] = checkBits('category', filter.category);
            if (filter.collidesWith !== undefined) this.layerColw[body.slot] = checkBits('collidesWith', filter.collidesWith);
            return;
        }
        const s = this.slotOf(body, 'setFilter');
        const category = filter.category === undefined ? this.cat[s] : checkBits('category', filter.category);
        const collidesWith = filter.collidesWith === undefined ? this.colw[s] : checkBits('collidesWith', filter.collidesWith);
        const group = filter.group === undefined ? this.grp[s] : checkInt('group', filter.group, -(2 ** 31), 2 ** 31 - 1);
        this.cat[s] = category;
        this.colw[s] = collidesWith;
        this.grp[s] = group;
        touchSlot(this, s);
    }

    /** A body's filter. */
    getFilter(body: Body<T>): Required<Filter> {
        if (body instanceof Body && body.layer && body.world === this && body.slot >= 0) {
            return { category: this.layerCat[body.slot] >>> 0, collidesWith: this.layerColw[body.slot] >>> 0, group: 0 };
        }
        const s = this.slotOf(body, 'getFilter');
        return { category: this.cat[s] >>> 0, collidesWith: this.colw[s] >>> 0, group: this.grp[s] };
    }

    /**
     * Removes a body or layer. It takes effect at once: it is never reported again, not even by the
     * rest of a step whose callbacks are running, and its pairs end without an `end` event.
     */
    remove(body: Body<T>): void {
        if (body instanceof Body && body.layer && body.world === this && body.slot >= 0) {
            const i = body.slot;
            this.layers.splice(i, 1);
            this.layerCat.splice(i, 1);
            this.layerColw.splice(i, 1);
            for (let k = i; k < this.layers.length; k++) this.layers[k].slot = k;
            body.slot = -1;
            this.ranksDirty = true;
            return;
        }
        const s = this.slotOf(body, 'remove');
        body.slot = -1;
        // The slot is recycled only at the next detection, so pairs already listed in this step can never
        // be confused with a body added by a callback.
        this.pendingFree.push(s);
        this.cat[s] = 0;
        this.colw[s] = 0;
        this.live--;
        this.removedSinceBuild = true;
        this.ranksDirty = true;
    }

    /** Whether `body` is a live body or layer of this world. */
    has(body: Body<T>): boolean {
        return body instanceof Body && body.world === this && body.slot >= 0;
    }

    /** Registers a pair listener for `begin`, `stay` or `end`; listeners run in registration order. */
    on(event: WorldEvent, listener: PairListener<T>): this {
        this.events.on(event, listener);
        return this;
    }

    /** Removes a listener registered with {@link on}. */
    off(event: WorldEvent, listener: PairListener<T>): this {
        this.events.off(event, listener);
        return this;
    }

    /**
     * Detects the colliding pairs and fires the events; returns the pair count (read the pairs with
     * {@link collisions}). Events follow the pair order, merged with the previous step's pairs; for each
     * pair, the listeners run in registration order. Changes made by listeners: removals
     * take effect at once (a removed body is skipped by every later event of this step); adds, moves,
     * mask, transform and filter changes take effect at the next detection. A callback that throws does
     * not stop the step: every event is still delivered and the pairs committed, then step() rethrows
     * the error (an AggregateError when several threw), so begin/stay/end stay balanced.
     */
    step(): number {
        const n = this.detect();
        this.events.dispatch(this.hitA, this.hitB, n);
        return n;
    }

    /**
     * The pairs of bodies (and body–layer pairs) overlapping now, each unordered pair once, sorted by `a.id`
     * then `b` (layers after bodies); detects without firing events (layers and masks may have changed in
     * place, so it always detects). With `out`, its Pair objects are reused and its length set.
     */
    collisions(out?: Pair<T>[]): Pair<T>[] {
        if (out === undefined) out = [];
        else if (!Array.isArray(out)) throw new TypeError(`out must be an array of pairs, got ${describe(out)}.`);
        const n = this.detect();
        const { hitA, hitB } = this;
        for (let k = 0; k < n; k++) {
            const p = out[k];
            if (p !== undefined && p !== null && typeof p === 'object') { p.a = hitA[k]; p.b = hitB[k]; }
            else out[k] = { a: hitA[k], b: hitB[k] };
        }
        out.length = n;
        return out;
    }

    /** Bodies (and layers) with a set pixel at (x, y) (floored), sorted by id, layers last; `filter` selects categories. */
    queryPoint(x: number, y: number, filter = 0xffffffff, out?: Body<T>[]): Body<T>[] {
        if (out === undefined) out = [];
        else checkOut(out);
        queryPointInto(this, x, y, out, filter);
        return out;
    }

    /** Bodies (and layers) with a set pixel inside the rectangle; sorted by id, layers last. */
    queryRect(x: number, y: number, width: number, height: number, filter = 0xffffffff, out?: Body<T>[]): Body<T>[] {
        if (out === undefined) out = [];
        else checkOut(out);
        queryRectInto(this, x, y, width, height, out, filter);
        return out;
    }

    /** Bodies (and layers) whose masks overlap `mask` placed with its top-left at (x, y) (floored). */
    queryMask(mask: Mask, x: number, y: number, filter = 0xffffffff, out?: Body<T>[]): Body<T>[] {
        if (out === undefined) out = [];
        else checkOut(out);
        queryMaskInto(this, mask, x, y, out, filter);
        return out;
    }

    /**
     * Contact details of `a` against body or layer `b` at their current positions (filters ignored), or
     * `null` when they do not overlap. The normal and push-out move `a` out of `b`: the push is the
     * smallest integer step along the normal after which they no longer overlap. With `out`, written there.
     */
    contact(a: Body<T>, b: Body<T>, out?: Contact): Contact | null {
        if (out === undefined) out = { x: 0, y: 0, area: 0, box: { x: 0, y: 0, width: 0, height: 0 }, normalX: 0, normalY: 0, pushX: 0, pushY: 0 };
        else if (out === null || typeof out !== 'object' || out.box === null || typeof out.box !== 'object') throw new TypeError(`out must be a Contact object with a box, got ${describe(out)}.`);
        return contactInto(this, a, b, out) ? out : null;
    }

    /**
     * Walks `body` from its position to (toX, toY) one pixel at a time (a 4-connected line, so no
     * configuration is skipped) and returns the first body or layer it would overlap, or `null`.
     * Filters apply as for pairs; bodies it already overlaps at the start are ignored. The body is not
     * moved. With `out`, written there.
     */
    sweep(body: Body<T>, toX: number, toY: number, out?: SweepHit<T>): SweepHit<T> | null {
        if (out === undefined) out = { body, x: 0, y: 0, freeX: 0, freeY: 0, t: 0 };
        else if (out === null || typeof out !== 'object') throw new TypeError(`out must be a SweepHit object, got ${describe(out)}.`);
        return sweepInto(this, body, toX, toY, out) ? out : null;
    }

    /**
     * The nearest body or layer pixel the segment from (x0, y0) to (x1, y1) enters, in world pixels, with the
     * `body` hit, or `null` (rules: docs/rays.md). Walks the grid cells along the segment; `filter` selects
     * categories. With `out`, written there.
     */
    raycast(x0: number, y0: number, x1: number, y1: number, filter = 0xffffffff, out?: WorldRayHit<T>): WorldRayHit<T> | null {
        const f = checkBits('filter', filter);
        if (out === undefined) out = { px: 0, py: 0, x: 0, y: 0, distance: 0, nx: 0, ny: 0, body: null as unknown as Body<T> };
        else if (out === null || typeof out !== 'object') throw new TypeError(`out must be a WorldRayHit object, got ${describe(out)}.`);
        refreshGrid(this);
        return castWorld(this.grid, this.boxes, this.masks, this.cat, this.bodies, this.used, this.movedList, this.movedCount,
            this.layers, this.layerCat, f, x0, y0, x1, y1, out) ? out : null;
    }

    /** Drops cached transformed masks (they are rebuilt on demand). */
    clearTransformCache(): void {
        this.transforms.clear();
    }

    // --- internals -------------------------------------------------------------------------------

    // Detection: flush removals, rebuild the grid, filter + narrow phase, pair order (pairs.ts).
    /** @internal */
    detect(): number {
        if (this.events.dispatching) throw new Error('step() and collisions() cannot run inside a collision listener; defer the call until step() returns.');
        return detectPairs(this);
    }

    /** @internal */
    slotOf(body: Body<T>, method: string): number {
        if (!(body instanceof Body)) throw new TypeError(`${method}() needs a Body returned by world.add(), got ${describe(body)}.`);
        if (body.world !== this) throw new Error(`${method}(): ${body} belongs to another World.`);
        if (body.slot < 0) throw new Error(`${method}(): ${body} was removed from this World; add it again with world.add().`);
        if (body.layer) throw new TypeError(`${method}(): ${body} is a layer; only bodies added with world.add() can be used here.`);
        return body.slot;
    }
}

function checkOut(out: unknown): void {
    if (!Array.isArray(out)) throw new TypeError(`out must be an array, got ${describe(out)}.`);
}

function isRaster(layer: unknown): layer is CollisionRaster {
    return layer !== null && typeof layer === 'object' && typeof (layer as CollisionRaster).view === 'function' &&
        typeof (layer as CollisionRaster).layerCount === 'number' && typeof (layer as CollisionRaster).stamp === 'function';
}
