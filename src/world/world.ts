// The World: the public face over a WorldState (state.ts). Slot upkeep is in slots.ts, the grid's upkeep in
// cells.ts, detection in pairs.ts, events in events.ts, queries in world-query.ts, contacts and sweeps in
// contact.ts, the ray search in world-ray.ts, snapshots and hashes in world-snapshot.ts, restores in
// world-restore.ts; each takes the state.
import {
    checkBits,
    checkInt,
    checkPixels,
    coord,
    describe,
    mustBe,
    outOfRange,
    typeError,
    wrongType
} from '../base/check.js';
import { checkArray, checkBoolean, checkObject } from '../base/check-types.js';
import { checkMask, type Mask } from '../core/mask.js';
import { checkTransform, type Transform } from '../core/transform.js';
import { asLayer, type CollisionLayer } from '../layers/layer.js';
import type { CollisionRaster } from '../raster/raster.js';
import type { ThreadPool } from '../threads/pool.js';
import { Body, type BodyOptions, type Filter, type LayerOptions, type Pair } from './body.js';
import { refreshGrid } from './cells.js';
import { contactInto, sweepInto, type Contact, type SweepHit } from './contact.js';
import type { BodyListener, PairListener, WorldEvent } from './events.js';
import { detectPairs } from './pairs.js';
import { filterOf, queryMaskInto, queryPointInto, queryRectInto, type QueryOptions } from './world-query.js';
import { castWorld, type WorldRayHit } from './world-ray.js';
import { growSlots, placeSlot, touchSlot } from './slots.js';
import { moveBody, Movers, type WorldMoveOptions, type WorldMoveResult } from './world-move.js';
import { restoreWorld } from './world-restore.js';
import { hashWorld, snapshotWorld, SnapshotTables } from './world-snapshot.js';
import { isLayerOf, ONE_WAY, slotOf, WorldState } from './state.js';

export { Body, type BodyOptions, type Filter, type LayerOptions, type Pair } from './body.js';
export type { Contact, SweepHit } from './contact.js';
export type { BodyListener, PairListener, WorldEvent } from './events.js';
export type { WorldRayHit } from './world-ray.js';
export type { QueryOptions } from './world-query.js';
export type { WorldMoveOptions, WorldMoveResult } from './world-move.js';

/** Options of the {@link World} constructor. */
export interface WorldOptions {
    /**
     * Grid cell side in pixels, a power of two; by default the power of two at or above the mean body side, chosen at
     * each rebuild.
     */
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
    // Everything the World holds; not enumerable, so logging a World shows no typed arrays.
    readonly #st: WorldState<T>;
    // The mask table and remembered handles of snapshots, made by the first snapshot.
    #snap: SnapshotTables<T> | null = null;
    // The solids views and scratch of moveAndSlide, made by its first call.
    #movers: Movers<T> | null = null;

    constructor(options: WorldOptions = {}) {
        checkObject('options', options);
        const cs = options.cellSize;
        if (cs !== undefined) {
            checkInt('cellSize', cs, 1, 2 ** 24);
            if ((cs & (cs - 1)) !== 0)
                throw outOfRange(mustBe('cellSize', 'a power of two', cs, `; try ${2 ** Math.ceil(Math.log2(cs))}`));
        }
        this.#st = new WorldState<T>(cs ?? 0, options.angleSteps ?? 256);
        this.threads = options.threads ?? null;
    }

    /** Worker threads sharing the narrow phase, or null; may be changed between steps. */
    get threads(): ThreadPool | null {
        return this.#st.pool;
    }
    set threads(pool: ThreadPool | null) {
        // Duck-typed, not instanceof: the World must not pull the worker code into bundles without threads.
        if (
            pool !== null &&
            (typeof pool !== 'object' ||
                typeof (pool as Partial<ThreadPool>).run !== 'function' ||
                typeof (pool as Partial<ThreadPool>).wake !== 'function')
        ) {
            throw typeError('threads', "a ThreadPool (from 'hitmask/threads') or null", pool);
        }
        this.#st.pool = pool;
    }

    /** Number of live bodies (layers not counted). */
    get size(): number {
        return this.#st.live;
    }

    /** Adds a body; see {@link BodyOptions}. */
    add(options: BodyOptions<T>): Body<T> {
        if (options == null || typeof options !== 'object')
            throw wrongType(`add() needs an options object { x, y, mask }, got ${describe(options)}.`);
        this.#outsideMove('add');
        const x = coord('x', options.x),
            y = coord('y', options.y);
        checkMask(options.mask, 'mask');
        const category = checkBits('category', options.category ?? 1);
        const collidesWith = checkBits('collidesWith', options.collidesWith ?? 0xffffffff);
        const group = checkInt('group', options.group ?? 0, -(2 ** 31), 2 ** 31 - 1);
        const angle = options.angle ?? 0,
            scaleX = options.scaleX ?? 1,
            scaleY = options.scaleY ?? 1;
        checkTransform(angle, scaleX, scaleY);
        // Placed before anything changes: a transform past limits.transformPixels throws here (the cache keeps it).
        this.#st.transforms.get(options.mask, angle, scaleX, scaleY, !!options.flipX, !!options.flipY);
        if (options.oneWay !== undefined) checkBoolean('oneWay', options.oneWay);
        const oneWay = options.oneWay === true;
        let s: number;
        if (this.#st.free.length > 0) s = this.#st.free.pop() as number;
        else {
            if (this.#st.used === this.#st.cap) growSlots(this.#st, this.#st.cap * 2);
            s = this.#st.used++;
        }
        const body = new Body<T>(this.#st, this.#st.nextId++, s, options.data as T, null);
        this.#st.bodies[s] = body;
        this.#st.source[s] = options.mask;
        this.#st.posX[s] = x;
        this.#st.posY[s] = y;
        this.#st.cat[s] = category;
        this.#st.colw[s] = collidesWith;
        this.#st.grp[s] = group;
        this.#st.tf[s] = { angle, scaleX, scaleY, flipX: !!options.flipX, flipY: !!options.flipY };
        this.#st.moved[s] = 0;
        this.#st.snapSeen[s] = 0;
        this.#st.idOf[s] = body.id;
        this.#st.flags[s] = oneWay ? ONE_WAY : 0;
        if (oneWay) this.#st.oneWayBodies++;
        placeSlot(this.#st, s);
        this.#st.order[this.#st.orderCount++] = s;
        this.#st.ranksDirty = true;
        this.#st.live++;
        return body;
    }

    /**
     * Adds a static layer (a tile map, a collision raster) that bodies collide with; its pairs have the layer as `b`.
     */
    addLayer(layer: CollisionLayer | CollisionRaster, options: LayerOptions<T> = {}): Body<T> {
        // A raster's queries take a layer set; the World talks to a view of all its layers. Duck-typed, so
        // a World without rasters does not bundle the raster (4 KB gzipped). A 0.3-style layer (test, hitPoint,
        // testPixel) gets the new names once, warning; the handle's `layer` is still the object given.
        this.#outsideMove('addLayer');
        const l = asLayer(isRaster(layer) ? layer.view() : layer, 'layer', true);
        const body = new Body<T>(this.#st, this.#st.nextId++, this.#st.layers.length, options.data as T, l);
        this.#st.layers.push(body);
        this.#st.layerCat.push(checkBits('category', options.category ?? 1));
        this.#st.layerColw.push(checkBits('collidesWith', options.collidesWith ?? 0xffffffff));
        if (options.oneWay !== undefined) checkBoolean('oneWay', options.oneWay);
        this.#st.layerOneWay.push(options.oneWay === true);
        this.#st.ranksDirty = true;
        return body;
    }

    /** Moves a body; the mask goes to (⌊x⌋, ⌊y⌋) (plus the transform's offset). */
    move(body: Body<T>, x: number, y: number): void {
        const s = slotOf(this.#st, body, 'move');
        this.#outsideMove('move');
        x = coord('x', x);
        y = coord('y', y);
        this.#st.posX[s] = x;
        this.#st.posY[s] = y;
        const nx = Math.floor(x) + this.#st.offX[s],
            ny = Math.floor(y) + this.#st.offY[s];
        const b = this.#st.boxes;
        b.x1[s] += nx - b.x0[s];
        b.y1[s] += ny - b.y0[s];
        b.x0[s] = nx;
        b.y0[s] = ny;
        touchSlot(this.#st, s);
    }

    /**
     * Replaces a body's mask (e.g. the next animation frame), keeping its position and transform. Setting the
     * mask it already has tells the World that its pixels changed: a rotated, scaled or flipped body's copy is made
     * anew.
     */
    setMask(body: Body<T>, mask: Mask): void {
        const s = slotOf(this.#st, body, 'setMask');
        this.#outsideMove('setMask');
        checkMask(mask, 'mask');
        // The cached transforms of an edited mask would still hold its old pixels.
        if (this.#st.source[s] === mask) this.#st.transforms.forget(mask);
        const t = this.#st.tf[s]; // placed before anything changes, as in add()
        this.#st.transforms.get(mask, t.angle, t.scaleX, t.scaleY, t.flipX, t.flipY);
        this.#st.source[s] = mask;
        placeSlot(this.#st, s);
    }

    /** Changes a body's rotation, scale or flips; omitted fields keep their value. */
    setTransform(body: Body<T>, transform: Transform): void {
        const s = slotOf(this.#st, body, 'setTransform');
        this.#outsideMove('setTransform');
        checkObject('transform', transform);
        const old = this.#st.tf[s];
        const t = {
            angle: transform.angle ?? old.angle,
            scaleX: transform.scaleX ?? old.scaleX,
            scaleY: transform.scaleY ?? old.scaleY,
            flipX: transform.flipX ?? old.flipX,
            flipY: transform.flipY ?? old.flipY
        };
        checkTransform(t.angle, t.scaleX, t.scaleY);
        this.#st.transforms.get(this.#st.source[s] as Mask, t.angle, t.scaleX, t.scaleY, t.flipX, t.flipY); // as add()
        this.#st.tf[s] = t;
        placeSlot(this.#st, s);
    }

    /** A body's transform (angle as given, before quantisation). */
    getTransform(body: Body<T>): Required<Transform> {
        return { ...this.#st.tf[slotOf(this.#st, body, 'getTransform')] };
    }

    /** The mask actually tested for a body (transformed) and its top-left in world pixels. */
    placedMask(body: Body<T>): { mask: Mask; x: number; y: number } {
        const s = slotOf(this.#st, body, 'placedMask');
        return { mask: this.#st.masks[s] as Mask, x: this.#st.boxes.x0[s], y: this.#st.boxes.y0[s] };
    }

    /** Changes a body's (or layer's) filter; omitted fields keep their value. */
    setFilter(body: Body<T>, filter: Filter): void {
        checkObject('filter', filter);
        this.#outsideMove('setFilter');
        if (isLayerOf(this.#st, body)) {
            if (filter.group !== undefined)
                throw wrongType('Layers have no group; set category and collidesWith only.');
            if (filter.category !== undefined) this.#st.layerCat[body.slot] = checkBits('category', filter.category);
            if (filter.collidesWith !== undefined)
                this.#st.layerColw[body.slot] = checkBits('collidesWith', filter.collidesWith);
            return;
        }
        const s = slotOf(this.#st, body, 'setFilter');
        const category = filter.category === undefined ? this.#st.cat[s] : checkBits('category', filter.category);
        const collidesWith =
            filter.collidesWith === undefined ? this.#st.colw[s] : checkBits('collidesWith', filter.collidesWith);
        const group =
            filter.group === undefined ? this.#st.grp[s] : checkInt('group', filter.group, -(2 ** 31), 2 ** 31 - 1);
        this.#st.cat[s] = category;
        this.#st.colw[s] = collidesWith;
        this.#st.grp[s] = group;
        touchSlot(this.#st, s);
    }

    /** A body's filter. */
    getFilter(body: Body<T>): Required<Filter> {
        if (isLayerOf(this.#st, body)) {
            return {
                category: this.#st.layerCat[body.slot] >>> 0,
                collidesWith: this.#st.layerColw[body.slot] >>> 0,
                group: 0
            };
        }
        const s = slotOf(this.#st, body, 'getFilter');
        return { category: this.#st.cat[s] >>> 0, collidesWith: this.#st.colw[s] >>> 0, group: this.#st.grp[s] };
    }

    /**
     * Removes a body or layer. It takes effect at once: it is never reported again, not even by the
     * rest of a step whose callbacks are running, and its pairs end without an `end` event.
     */
    remove(body: Body<T>): void {
        this.#outsideMove('remove');
        if (isLayerOf(this.#st, body)) {
            const i = body.slot;
            this.#st.layers.splice(i, 1);
            this.#st.layerCat.splice(i, 1);
            this.#st.layerColw.splice(i, 1);
            this.#st.layerOneWay.splice(i, 1);
            for (let k = i; k < this.#st.layers.length; k++) this.#st.layers[k].slot = k;
            body.slot = -1;
            this.#st.ranksDirty = true;
            return;
        }
        const s = slotOf(this.#st, body, 'remove');
        body.slot = -1;
        // The slot is recycled only at the next detection, so pairs already listed in this step can never
        // be confused with a body added by a callback.
        this.#st.pendingFree.push(s);
        this.#st.cat[s] = 0;
        this.#st.colw[s] = 0;
        if ((this.#st.flags[s] & ONE_WAY) !== 0) {
            this.#st.flags[s] = 0;
            this.#st.oneWayBodies--;
        }
        this.#st.live--;
        this.#st.removedSinceBuild = true;
        this.#st.ranksDirty = true;
    }

    /** Whether `body` is a live body or layer of this world. */
    has(body: Body<T>): boolean {
        return body instanceof Body && body.state === this.#st && body.slot >= 0;
    }

    /**
     * Registers a pair listener for `begin`, `stay` or `end`, called `(a, b)` in pair order; or, with a body (or
     * layer) of this World, a listener of that body only, called `(body, other)` for each pair it is in. For each
     * pair: the World's listeners, then `a`'s, then `b`'s, each in registration order (docs/world.md).
     */
    on(event: WorldEvent, listener: PairListener<T>): this;
    on(event: WorldEvent, body: Body<T>, listener: BodyListener<T>): this;
    on(event: WorldEvent, x: PairListener<T> | Body<T>, listener?: BodyListener<T>): this {
        if (listener === undefined && !(x instanceof Body)) this.#st.events.on(event, x);
        else this.#st.events.onBody(event, this.#ownBody(x, 'on'), listener as BodyListener<T>);
        return this;
    }

    /** Removes a listener registered with {@link on} (with the same body, for a body's listener). */
    off(event: WorldEvent, listener: PairListener<T>): this;
    off(event: WorldEvent, body: Body<T>, listener: BodyListener<T>): this;
    off(event: WorldEvent, x: PairListener<T> | Body<T>, listener?: BodyListener<T>): this {
        if (listener === undefined && !(x instanceof Body)) this.#st.events.off(event, x);
        else this.#st.events.offBody(event, this.#ownBody(x, 'off'), listener as BodyListener<T>);
        return this;
    }

    // A body or layer handle of this World, removed or not (a restore may bring it back with its listeners).
    #ownBody(body: unknown, method: string): Body<T> {
        if (!(body instanceof Body))
            throw wrongType(
                `${method}(event, body, listener) needs a Body from world.add() or world.addLayer(), ` +
                    `got ${describe(body)}.`
            );
        if (body.state !== this.#st) throw new Error(`${method}(): ${body} belongs to another World.`);
        return body;
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
        const n = this.#detect('step');
        this.#st.events.dispatch(this.#st.hitA, this.#st.hitB, n);
        return n;
    }

    /**
     * The pairs of bodies (and body–layer pairs) overlapping now, each unordered pair once, sorted by `a.id`
     * then `b` (layers after bodies); detects without firing events (layers and masks may have changed in
     * place, so it always detects). With `out`, its Pair objects are reused and its length set.
     */
    collisions(out?: Pair<T>[]): Pair<T>[] {
        if (out === undefined) out = [];
        else checkArray('out', out, 'an array of pairs');
        const n = this.#detect('collisions');
        const { hitA, hitB } = this.#st;
        for (let k = 0; k < n; k++) {
            const p = out[k];
            if (p !== undefined && p !== null && typeof p === 'object') {
                p.a = hitA[k];
                p.b = hitB[k];
            } else out[k] = { a: hitA[k], b: hitB[k] };
        }
        out.length = n;
        return out;
    }

    /**
     * Bodies (and layers) with a set pixel at (x, y) (floored), sorted by id, layers last; `options.filter` selects
     * categories. With `out`, the array is refilled and returned.
     */
    queryPoint(x: number, y: number, options?: QueryOptions, out?: Body<T>[]): Body<T>[] {
        const f = filterOf(options, 'queryPoint');
        if (out === undefined) out = [];
        else checkOut(out);
        queryPointInto(this.#st, x, y, out, f);
        return out;
    }

    /** Bodies (and layers) with a set pixel inside the rectangle; sorted by id, layers last. */
    queryRect(x: number, y: number, width: number, height: number, options?: QueryOptions, out?: Body<T>[]): Body<T>[] {
        const f = filterOf(options, 'queryRect');
        if (out === undefined) out = [];
        else checkOut(out);
        queryRectInto(this.#st, x, y, width, height, out, f);
        return out;
    }

    /** Bodies (and layers) whose masks overlap `mask` placed with its top-left at (x, y) (floored). */
    queryMask(mask: Mask, x: number, y: number, options?: QueryOptions, out?: Body<T>[]): Body<T>[] {
        const f = filterOf(options, 'queryMask');
        if (out === undefined) out = [];
        else checkOut(out);
        queryMaskInto(this.#st, mask, x, y, out, f);
        return out;
    }

    /**
     * Contact details of `a` against body or layer `b` at their current positions (filters ignored), or
     * `null` when they do not overlap. The normal and push-out move `a` out of `b`: the push is the
     * smallest integer step along the normal after which they no longer overlap. With `out`, written there.
     */
    contact(a: Body<T>, b: Body<T>, out?: Contact): Contact | null {
        if (out === undefined)
            out = {
                x: 0,
                y: 0,
                area: 0,
                box: { x: 0, y: 0, width: 0, height: 0 },
                normalX: 0,
                normalY: 0,
                pushX: 0,
                pushY: 0
            };
        else if (out === null || typeof out !== 'object' || out.box === null || typeof out.box !== 'object')
            throw typeError('out', 'a Contact object with a box', out);
        return contactInto(this.#st, a, b, out) ? out : null;
    }

    /**
     * Walks `body` from its position to (toX, toY) one pixel at a time (a 4-connected line, so no
     * configuration is skipped) and returns the first body or layer it would overlap, or `null`.
     * Filters apply as for pairs; bodies it already overlaps at the start are ignored. The body is not
     * moved. With `out`, written there.
     */
    sweep(body: Body<T>, toX: number, toY: number, out?: SweepHit<T>): SweepHit<T> | null {
        if (out === undefined) out = { body, x: 0, y: 0, freeX: 0, freeY: 0, t: 0 };
        else checkObject('out', out, 'a SweepHit object');
        return sweepInto(this.#st, body, toX, toY, out) ? out : null;
    }

    /**
     * The nearest body or layer pixel the segment from (x0, y0) to (x1, y1) enters, in world pixels, with the
     * `body` hit, or `null` (rules: docs/rays.md). Walks the grid cells along the segment; `options.filter` selects
     * categories. With `out`, written there.
     */
    raycast(
        x0: number,
        y0: number,
        x1: number,
        y1: number,
        options?: QueryOptions,
        out?: WorldRayHit<T>
    ): WorldRayHit<T> | null {
        const f = checkBits('filter', filterOf(options, 'raycast'));
        if (out === undefined)
            out = { px: 0, py: 0, x: 0, y: 0, distance: 0, nx: 0, ny: 0, body: null as unknown as Body<T> };
        else checkObject('out', out, 'a WorldRayHit object');
        refreshGrid(this.#st);
        return castWorld(this.#st, f, x0, y0, x1, y1, out) ? out : null;
    }

    /**
     * Moves `body` by (dx, dy) with the rules of {@link moveAndSlide} (docs/movement.md) against the layers and the
     * bodies its filter collides with (one-way layers hold it only from above), then carries the bodies that stood
     * on it by the pixels it moved (moving platforms; `carry: false` does not). The body's position is set as
     * `world.move` would; pairs and events come at the next step. With `out`, the result is written there.
     */
    moveAndSlide(
        body: Body<T>,
        dx: number,
        dy: number,
        options: WorldMoveOptions = {},
        out?: WorldMoveResult<T>
    ): WorldMoveResult<T> {
        const s = slotOf(this.#st, body, 'moveAndSlide');
        checkObject('options', options);
        if (options.carry !== undefined) checkBoolean('carry', options.carry);
        if (options.dropThrough !== undefined) checkBoolean('dropThrough', options.dropThrough);
        if (out !== undefined) checkObject('out', out, 'a WorldMoveResult object to fill');
        const stepUp = options.stepUp ?? 0,
            snapDown = options.snapDown ?? 0;
        for (const [name, v] of [
            ['stepUp', stepUp],
            ['snapDown', snapDown]
        ] as const) {
            checkPixels(name, v, 2 ** 20);
        }
        this.#outsideListeners('moveAndSlide');
        return moveBody(
            this.#st,
            (this.#movers ??= new Movers<T>()),
            s,
            dx,
            dy,
            stepUp,
            snapDown,
            options.carry !== false,
            options.dropThrough === true,
            out ?? { x: 0, y: 0, onFloor: false, onCeiling: false, onWall: false, floor: null }
        );
    }

    /**
     * The World's state as bytes (docs/rollback.md): live bodies with positions, masks, filters and transforms,
     * layers with their filters, and the pairs the next step's events compare against. Masks are named by an id
     * in this World's table, so the bytes restore into this World. With `out` large enough, written there.
     */
    snapshot(out?: Uint8Array): Uint8Array {
        this.#outsideListeners('snapshot');
        return snapshotWorld(this.#st, (this.#snap ??= new SnapshotTables<T>()), out);
    }

    /**
     * Makes the World what `bytes` (from this World's {@link snapshot}) says, firing no events: bodies added since
     * are removed, bodies removed since come back (the same handles while you keep them; new ones, without `data`,
     * if you dropped them). Corrupt or foreign bytes throw an Error and change nothing.
     */
    restore(bytes: Uint8Array): this {
        this.#outsideListeners('restore');
        restoreWorld(this.#st, (this.#snap ??= new SnapshotTables<T>()), bytes);
        return this;
    }

    /**
     * A 32-bit hash of the state a snapshot holds, naming masks by their pixels: equal in every process and engine for
     * equal Worlds.
     */
    hash(): number {
        this.#outsideListeners('hash');
        return hashWorld(this.#st, (this.#snap ??= new SnapshotTables<T>()));
    }

    #outsideListeners(method: string): void {
        if (this.#st.events.dispatching)
            throw new Error(`${method}() cannot run inside a collision listener; call it after step() returns.`);
        this.#outsideMove(method);
    }

    // A layer's overlaps() runs inside moveAndSlide: changing the World there would change the bodies and the
    // scratch the move is reading. Refused as calls inside a listener are (queries, which only read, may run).
    #outsideMove(method: string): void {
        if (this.#st.moving)
            throw new Error(
                `${method}() cannot run inside a layer's overlaps() during moveAndSlide(); call it after moveAndSlide() returns.`
            );
    }

    /** Drops cached transformed masks (they are rebuilt on demand). */
    clearTransformCache(): void {
        this.#outsideMove('clearTransformCache');
        this.#st.transforms.clear();
    }

    // Detection: flush removals, rebuild the grid, filter + narrow phase, pair order (pairs.ts).
    #detect(method: string): number {
        if (this.#st.events.dispatching)
            throw new Error(
                'step() and collisions() cannot run inside a collision listener; defer the call until step() returns.'
            );
        this.#outsideMove(method);
        return detectPairs(this.#st);
    }
}

function checkOut(out: unknown): void {
    checkArray('out', out);
}

function isRaster(layer: unknown): layer is CollisionRaster {
    return (
        layer !== null &&
        typeof layer === 'object' &&
        typeof (layer as CollisionRaster).view === 'function' &&
        typeof (layer as CollisionRaster).layerCount === 'number' &&
        typeof (layer as CollisionRaster).stamp === 'function'
    );
}
