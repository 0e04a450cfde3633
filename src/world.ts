import { checkCoord, checkInt, checkSize, describe } from './check.js';
import { estimateNormal, pushOut, type NormalOut } from './contact.js';
import { Grid, growCopy } from './grid.js';
import type { CollisionLayer } from './layer.js';
import { overlapsBatch } from './kernels.js';
import { Mask, type Point, type Rect } from './mask.js';
import { ThreadPool } from './threads.js';
import { checkTransform, TransformCache, type Transform } from './transform.js';
import { castWorld, type WorldRayHit } from './ray.js';

/** Largest |x| or |y| of a body position: 2^50, so boxes and offsets stay exact integers in doubles. */
export const MAX_COORD = 2 ** 50;

/** Longest sweep, in pixel steps (|dx| + |dy|): each step is tested, so a sweep costs up to that many tests. */
export const MAX_SWEEP = 2 ** 20;

/** A per-body collision callback: `self` is the body it is registered on. */
export type HitCallback<T> = (self: Body<T>, other: Body<T>) => void;

/** A world-level pair listener; `a` and `b` follow the pair order of {@link World.collisions}. */
export type PairListener<T> = (a: Body<T>, b: Body<T>) => void;

/** Pair events: `begin` on the first step a pair overlaps, `stay` on later ones, `end` on the first step it does not. */
export type WorldEvent = 'begin' | 'stay' | 'end';

/** Options of {@link World.add}. */
export interface BodyOptions<T = unknown> extends Transform {
    /** Left of the untransformed mask; floored when placing the mask. */
    x: number;
    /** Top of the untransformed mask; floored when placing the mask. */
    y: number;
    /** Collision mask (shared freely between bodies). */
    mask: Mask;
    /** Category bits; 0 makes the body decorative (skipped by pairs and queries at no cost). @default 1 */
    category?: number;
    /** Categories this body collides with; both bodies must accept each other (Box2D). @default 0xffffffff */
    collidesWith?: number;
    /** Bodies with the same non-zero group never collide with each other. @default 0 */
    group?: number;
    /** Anything the game wants to find from the body. */
    data?: T;
    /** Called on the first step this body overlaps `other`. */
    onBegin?: HitCallback<T>;
    /** Called on every later step it still overlaps `other`. */
    onStay?: HitCallback<T>;
    /** Called on the first step it no longer overlaps `other`. */
    onEnd?: HitCallback<T>;
}

/** Options of {@link World.addLayer}. */
export interface LayerOptions<T = unknown> {
    /** @default 1 */
    category?: number;
    /** @default 0xffffffff */
    collidesWith?: number;
    data?: T;
}

/** Filter changes for {@link World.setFilter}; omitted fields keep their value. */
export interface Filter {
    category?: number;
    collidesWith?: number;
    group?: number;
}

/** One colliding pair: `a` was added before `b`; a layer is always `b`. */
export interface Pair<T = unknown> {
    a: Body<T>;
    b: Body<T>;
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

/** Result of {@link World.sweep}. */
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

/** A body in a {@link World}: a light handle; its state lives in the world's typed arrays. */
export class Body<T = unknown> {
    /** Unique, increasing in the order bodies and layers were added; never reused. */
    readonly id: number;
    /** The layer this handle stands for, or `null` for a sprite body. */
    readonly layer: CollisionLayer | null;
    /** The game's own data. */
    data: T;
    /** Called on the first step this body overlaps another. */
    onBegin: HitCallback<T> | null = null;
    /** Called on each later step the overlap lasts. */
    onStay: HitCallback<T> | null = null;
    /** Called on the first step the overlap is gone. */
    onEnd: HitCallback<T> | null = null;
    /** @internal Slot in the world's arrays (layer index for layers); −1 once removed. */
    slot: number;
    /** @internal */
    declare readonly world: World<T>;

    /** @internal Use {@link World.add} or {@link World.addLayer}. */
    constructor(world: World<T>, id: number, slot: number, data: T, layer: CollisionLayer | null) {
        // Not enumerable, so logging a body shows the body rather than its whole world.
        Object.defineProperty(this, 'world', { value: world });
        this.id = id;
        this.slot = slot;
        this.data = data;
        this.layer = layer;
    }

    /** Whether the body was removed from its world. */
    get removed(): boolean { return this.slot < 0; }
    /** Position as given (not floored); 0 for layers. */
    get x(): number { return this.layer || this.slot < 0 ? 0 : this.world.posX[this.slot]; }
    get y(): number { return this.layer || this.slot < 0 ? 0 : this.world.posY[this.slot]; }
    /** The untransformed mask, or `null` for a layer. */
    get mask(): Mask | null { return this.layer || this.slot < 0 ? null : this.world.source[this.slot]; }

    /** `<Body id>`. */
    toString(): string { return `<Body ${this.id}>`; }
}

const EVENTS: readonly WorldEvent[] = ['begin', 'stay', 'end'];

// Pair order: by a.id, then bodies before layers, then by b.id.
interface Ordered { readonly id: number; readonly layer: CollisionLayer | null }

function comparePairs(a1: Ordered, b1: Ordered, a2: Ordered, b2: Ordered): number {
    return a1.id - a2.id || (b1.layer ? 1 : 0) - (b2.layer ? 1 : 0) || b1.id - b2.id;
}

function byId(p: Ordered, q: Ordered): number {
    return (p.layer ? 1 : 0) - (q.layer ? 1 : 0) || p.id - q.id;
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

    private readonly grid = new Grid();
    private readonly transforms: TransformCache;
    private readonly fixedCell: number;
    private cap = 64;
    private used = 0;
    private nextId = 1;
    private live = 0;
    private boxes = { x0: new Float64Array(64), y0: new Float64Array(64), x1: new Float64Array(64), y1: new Float64Array(64) };
    private offX = new Int32Array(64);
    private offY = new Int32Array(64);
    private cat = new Int32Array(64);
    private colw = new Int32Array(64);
    private grp = new Int32Array(64);
    private rank = new Int32Array(64);
    private seen = new Int32Array(64);
    private qbuf = new Int32Array(64);
    private moved = new Uint8Array(64);
    private masks: (Mask | null)[] = [];
    // Transform per slot (not hot: read when placing a mask).
    private tf: Required<Transform>[] = [];
    private bodies: (Body<T> | null)[] = [];
    private free: number[] = [];
    private pendingFree: number[] = [];
    private order = new Int32Array(64);
    private orderCount = 0;
    private ranksDirty = false;
    private list = new Int32Array(64);
    private movedList = new Int32Array(64);
    private movedCount = 0;
    private gridValid = false;
    private removedSinceBuild = false;
    private token = 0;
    private keys = new Float64Array(1024);
    // Narrow phase batch: (slot a, slot b, dx, dy) per candidate pair, the results, and the last step's estimated words.
    private batch = new Int32Array(4096);
    private batchHits = new Uint8Array(1024);
    private lastWork = 0;
    private pool: ThreadPool | null = null;
    private layers: Body<T>[] = [];
    private layerCat: number[] = [];
    private layerColw: number[] = [];
    private hitA: Body<T>[] = [];
    private hitB: Body<T>[] = [];
    private hitCount = 0;
    private prevA: Body<T>[] = [];
    private prevB: Body<T>[] = [];
    private prevCount = 0;
    private dispatching = false;
    private thrown: unknown[] = [];
    private listeners: Record<WorldEvent, PairListener<T>[]> = { begin: [], stay: [], end: [] };
    private rectMask = new Mask(0, 0);
    private scratch: Body<T>[] = [];
    private point: Point = { x: 0, y: 0 };

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
        if (pool !== null && !(pool instanceof ThreadPool)) throw new TypeError(`threads must be a ThreadPool or null, got ${describe(pool)}.`);
        this.pool = pool;
    }

    /** Number of live bodies (layers not counted). */
    get size(): number { return this.live; }

    /** Number of pairs found by the last {@link step}, {@link collisions} or {@link collisionsInto}. */
    get pairCount(): number { return this.hitCount; }

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
            if (this.used === this.cap) this.growTo(this.cap * 2);
            s = this.used++;
        }
        const body = new Body<T>(this, this.nextId++, s, options.data as T, null);
        body.onBegin = options.onBegin ?? null;
        body.onStay = options.onStay ?? null;
        body.onEnd = options.onEnd ?? null;
        this.bodies[s] = body;
        this.source[s] = options.mask;
        this.posX[s] = x;
        this.posY[s] = y;
        this.cat[s] = category;
        this.colw[s] = collidesWith;
        this.grp[s] = group;
        this.tf[s] = { angle, scaleX, scaleY, flipX: !!options.flipX, flipY: !!options.flipY };
        this.moved[s] = 0;
        this.place(s);
        this.order[this.orderCount++] = s;
        this.ranksDirty = true;
        this.live++;
        return body;
    }

    /** Adds a static layer (a tile map, a collision raster) that bodies collide with; its pairs have the layer as `b`. */
    addLayer(layer: CollisionLayer, options: LayerOptions<T> = {}): Body<T> {
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
        this.touch(s);
    }

    /** Replaces a body's mask (e.g. the next animation frame), keeping its position and transform. */
    setMask(body: Body<T>, mask: Mask): void {
        const s = this.slotOf(body, 'setMask');
        checkMask(mask);
        this.source[s] = mask;
        this.place(s);
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
        this.place(s);
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
        this.touch(s);
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

    /** Registers a pair listener; listeners run in registration order, before the bodies' own callbacks. */
    on(event: WorldEvent, listener: PairListener<T>): this {
        this.checkEvent(event, listener);
        this.listeners[event].push(listener);
        return this;
    }

    /** Removes a listener registered with {@link on}. */
    off(event: WorldEvent, listener: PairListener<T>): this {
        this.checkEvent(event, listener);
        const list = this.listeners[event], i = list.indexOf(listener);
        if (i >= 0) list.splice(i, 1);
        return this;
    }

    /**
     * Detects the colliding pairs and fires the events; returns the pair count (read the pairs with
     * {@link pairA}/{@link pairB}). Events follow the pair order, merged with the previous step's pairs:
     * for each pair, world listeners, then `a`'s callback, then `b`'s. Changes made by callbacks: removals
     * take effect at once (a removed body is skipped by every later event of this step); adds, moves,
     * mask, transform and filter changes take effect at the next detection. A callback that throws does
     * not stop the step: every event is still delivered and the pairs committed, then step() rethrows
     * the error (an AggregateError when several threw), so begin/stay/end stay balanced.
     */
    step(): number {
        const n = this.detect();
        const { hitA, hitB, prevA, prevB, prevCount } = this;
        this.dispatching = true;
        try {
            let i = 0, j = 0;
            while (i < prevCount || j < n) {
                const c = i === prevCount ? 1 : j === n ? -1 : comparePairs(prevA[i], prevB[i], hitA[j], hitB[j]);
                if (c < 0) { this.emit('end', prevA[i], prevB[i]); i++; }
                else if (c > 0) { this.emit('begin', hitA[j], hitB[j]); j++; }
                else { this.emit('stay', hitA[j], hitB[j]); i++; j++; }
            }
        } finally {
            this.dispatching = false;
        }
        for (let k = 0; k < n; k++) { prevA[k] = hitA[k]; prevB[k] = hitB[k]; }
        prevA.length = prevB.length = this.prevCount = n;
        // Errors from callbacks surface only now, with every event of the step delivered and the pairs
        // committed, so begin/stay/end stay balanced whatever user code throws.
        if (this.thrown.length > 0) {
            const thrown = this.thrown;
            this.thrown = [];
            throw thrown.length === 1 ? thrown[0] : new AggregateError(thrown, `${thrown.length} collision callbacks threw during World.step(); see .errors.`);
        }
        return n;
    }

    /** The pairs of bodies (and body–layer pairs) whose masks overlap now, each unordered pair once; fires no events. */
    collisions(): Pair<T>[] {
        const n = this.detect(), out: Pair<T>[] = [];
        for (let k = 0; k < n; k++) out.push({ a: this.hitA[k], b: this.hitB[k] });
        return out;
    }

    /** Allocation-free {@link collisions}: writes a0, b0, a1, b1, … into `out` (truncated to fit) and returns the pair count. */
    collisionsInto(out: Body<T>[]): number {
        if (!Array.isArray(out)) throw new TypeError(`out must be an array, got ${describe(out)}.`);
        const n = this.detect();
        for (let k = 0; k < n; k++) { out[2 * k] = this.hitA[k]; out[2 * k + 1] = this.hitB[k]; }
        out.length = 2 * n;
        return n;
    }

    /** Body `a` of pair `i` of the last detection (0 ≤ i < {@link pairCount}). */
    pairA(i: number): Body<T> {
        return this.hitA[this.checkPair(i)];
    }

    /** Body `b` of pair `i` of the last detection. */
    pairB(i: number): Body<T> {
        return this.hitB[this.checkPair(i)];
    }

    /** Bodies (and layers) with a set pixel at (x, y) (floored), sorted by id, layers last; `filter` selects categories. */
    queryPoint(x: number, y: number, filter = 0xffffffff): Body<T>[] {
        const out: Body<T>[] = [];
        this.queryPointInto(x, y, out, filter);
        return out;
    }

    /** Allocation-free {@link queryPoint}: overwrites `out` and returns the count. */
    queryPointInto(x: number, y: number, out: Body<T>[], filter = 0xffffffff): number {
        const px = checkCoord('x', x), py = checkCoord('y', y);
        checkOut(out);
        const f = checkBits('filter', filter);
        const n = this.candidates(px, py, px + 1, py + 1, f, out);
        let m = 0;
        const { x0, y0 } = this.boxes;
        for (let k = 0; k < n; k++) {
            const b = out[k], s = b.slot, mask = this.masks[s] as Mask;
            if (mask.get(px - x0[s], py - y0[s])) out[m++] = b;
        }
        for (let l = 0; l < this.layers.length; l++) {
            if ((this.layerCat[l] & f) !== 0 && this.layers[l].layer?.testPixel(px, py)) out[m++] = this.layers[l];
        }
        return finish(out, m);
    }

    /** Bodies (and layers) with a set pixel inside the rectangle; sorted by id, layers last. */
    queryRect(x: number, y: number, width: number, height: number, filter = 0xffffffff): Body<T>[] {
        const out: Body<T>[] = [];
        this.queryRectInto(x, y, width, height, out, filter);
        return out;
    }

    /** Allocation-free {@link queryRect}: overwrites `out` and returns the count. */
    queryRectInto(x: number, y: number, width: number, height: number, out: Body<T>[], filter = 0xffffffff): number {
        const rx = checkCoord('x', x), ry = checkCoord('y', y);
        checkSize('width', width);
        checkSize('height', height);
        checkOut(out);
        const f = checkBits('filter', filter);
        if (width === 0 || height === 0) return finish(out, 0);
        const n = this.candidates(rx, ry, rx + width, ry + height, f, out);
        let m = 0;
        const { x0, y0 } = this.boxes;
        for (let k = 0; k < n; k++) {
            const b = out[k], s = b.slot;
            if (anyInRect(this.masks[s] as Mask, rx - x0[s], ry - y0[s], rx + width - x0[s], ry + height - y0[s])) out[m++] = b;
        }
        if (this.layers.length > 0) {
            let rect = this.rectMask;
            for (let l = 0; l < this.layers.length; l++) {
                if ((this.layerCat[l] & f) === 0) continue;
                if (rect.width !== width || rect.height !== height) rect = this.rectMask = new Mask(width, height, true);
                if (this.layers[l].layer?.test(rect, rx, ry)) out[m++] = this.layers[l];
            }
        }
        return finish(out, m);
    }

    /** Bodies (and layers) whose masks overlap `mask` placed with its top-left at (x, y) (floored). */
    queryMask(mask: Mask, x: number, y: number, filter = 0xffffffff): Body<T>[] {
        const out: Body<T>[] = [];
        this.queryMaskInto(mask, x, y, out, filter);
        return out;
    }

    /** Allocation-free {@link queryMask}: overwrites `out` and returns the count. */
    queryMaskInto(mask: Mask, x: number, y: number, out: Body<T>[], filter = 0xffffffff): number {
        checkMask(mask);
        const mx = checkCoord('x', x), my = checkCoord('y', y);
        checkOut(out);
        const f = checkBits('filter', filter);
        if (mask.width === 0 || mask.height === 0) return finish(out, 0);
        const n = this.candidates(mx, my, mx + mask.width, my + mask.height, f, out);
        let m = 0;
        const { x0, y0 } = this.boxes;
        for (let k = 0; k < n; k++) {
            const b = out[k], s = b.slot;
            if (mask.overlaps(this.masks[s] as Mask, x0[s] - mx, y0[s] - my)) out[m++] = b;
        }
        for (let l = 0; l < this.layers.length; l++) {
            if ((this.layerCat[l] & f) !== 0 && this.layers[l].layer?.test(mask, mx, my)) out[m++] = this.layers[l];
        }
        return finish(out, m);
    }

    /**
     * Contact details of `a` against body or layer `b` at their current positions (filters ignored), or
     * `null` when they do not overlap. The normal and push-out move `a` out of `b`: the push is the
     * smallest integer step along the normal after which they no longer overlap.
     */
    contact(a: Body<T>, b: Body<T>): Contact | null {
        const out: Contact = { x: 0, y: 0, area: 0, box: { x: 0, y: 0, width: 0, height: 0 }, normalX: 0, normalY: 0, pushX: 0, pushY: 0 };
        return this.contactInto(a, b, out) ? out : null;
    }

    /** Allocation-free {@link contact}: fills `out` and returns whether they overlap. */
    contactInto(a: Body<T>, b: Body<T>, out: Contact): boolean {
        const sa = this.slotOf(a, 'contact');
        if (!(b instanceof Body) || b.world !== this || b.slot < 0) this.slotOf(b, 'contact');
        if (a === b) throw new Error(`contact() needs two different bodies, got ${a} twice.`);
        const { x0, y0, x1, y1 } = this.boxes;
        const ma = this.masks[sa] as Mask, ax = x0[sa], ay = y0[sa];
        let area: (dx: number, dy: number) => number, overlaps: (dx: number, dy: number) => boolean;
        let fx: number, fy: number, limit: number;
        const p = this.point;
        if (b.layer) {
            const layer = b.layer;
            if (!layer.test(ma, ax, ay)) return false;
            const hit = layer.hitPoint(ma, ax, ay) as Point;
            p.x = hit.x; p.y = hit.y;
            area = (dx, dy) => layer.overlapArea(ma, ax + dx, ay + dy);
            overlaps = (dx, dy) => layer.test(ma, ax + dx, ay + dy);
            // A layer has no centre: fall back to pushing up, out of the ground.
            fx = 0; fy = 0;
            limit = 2 * (ma.width + ma.height) + 2;
            let bx0 = Infinity, by0 = Infinity, bx1 = -Infinity, by1 = -Infinity;
            ma.forEachSet((x, y) => {
                if (!layer.testPixel(ax + x, ay + y)) return;
                if (ax + x < bx0) bx0 = ax + x;
                if (ay + y < by0) by0 = ay + y;
                if (ax + x + 1 > bx1) bx1 = ax + x + 1;
                if (ay + y + 1 > by1) by1 = ay + y + 1;
            });
            out.box.x = bx0; out.box.y = by0; out.box.width = bx1 - bx0; out.box.height = by1 - by0;
        } else {
            const sb = b.slot, mb = this.masks[sb] as Mask, dx = x0[sb] - ax, dy = y0[sb] - ay;
            if (!ma.overlapInto(mb, dx, dy, p)) return false;
            p.x += ax; p.y += ay;
            area = (ex, ey) => ma.overlapArea(mb, dx - ex, dy - ey);
            overlaps = (ex, ey) => ma.overlaps(mb, dx - ex, dy - ey);
            fx = (x0[sa] + x1[sa]) - (x0[sb] + x1[sb]);
            fy = (y0[sa] + y1[sa]) - (y0[sb] + y1[sb]);
            limit = 2 * (ma.width + mb.width + ma.height + mb.height) + 2;
            const r = ma.overlapMask(mb, dx, dy).boundingRect() as Rect;
            out.box.x = r.x + ax; out.box.y = r.y + ay; out.box.width = r.width; out.box.height = r.height;
        }
        out.x = p.x;
        out.y = p.y;
        out.area = area(0, 0);
        estimateNormal(area, fx, fy, out);
        pushOut(overlaps, out.normalX, out.normalY, limit, out);
        return true;
    }

    /**
     * Walks `body` from its position to (toX, toY) one pixel at a time (a 4-connected line, so no
     * configuration is skipped) and returns the first body or layer it would overlap, or `null`.
     * Filters apply as for pairs; bodies it already overlaps at the start are ignored. The body is not moved.
     */
    sweep(body: Body<T>, toX: number, toY: number): SweepHit<T> | null {
        const out = { body, x: 0, y: 0, freeX: 0, freeY: 0, t: 0 };
        return this.sweepInto(body, toX, toY, out) ? out : null;
    }

    /** Allocation-free {@link sweep}: fills `out` and returns whether something was hit. */
    sweepInto(body: Body<T>, toX: number, toY: number, out: SweepHit<T>): boolean {
        const s = this.slotOf(body, 'sweep');
        const tx = coord('toX', toX), ty = coord('toY', toY);
        const { x0, y0, x1, y1 } = this.boxes;
        const mask = this.masks[s] as Mask, w = mask.width, h = mask.height;
        const sx = x0[s], sy = y0[s], ex = Math.floor(tx) + this.offX[s], ey = Math.floor(ty) + this.offY[s];
        if (Math.abs(ex - sx) + Math.abs(ey - sy) > MAX_SWEEP) {
            throw new RangeError(`sweep(): the path from (${sx - this.offX[s]}, ${sy - this.offY[s]}) to (${Math.floor(tx)}, ${Math.floor(ty)}) is ${Math.abs(ex - sx) + Math.abs(ey - sy)} pixel steps, more than the ${MAX_SWEEP} allowed (each step is tested); sweep in shorter segments.`);
        }
        if (w === 0 || h === 0 || this.cat[s] === 0 || (ex === sx && ey === sy)) return false;
        const cat = this.cat[s], colw = this.colw[s], grp = this.grp[s];
        // Candidates: compatible bodies whose boxes meet the swept box and that the mover does not overlap yet.
        const cands = this.scratch;
        const n = this.candidates(Math.min(sx, ex), Math.min(sy, ey), Math.max(sx, ex) + w, Math.max(sy, ey) + h, 0xffffffff, cands);
        let m = 0;
        for (let k = 0; k < n; k++) {
            const c = cands[k], j = c.slot;
            if (c === body || (this.cat[j] & colw) === 0 || (cat & this.colw[j]) === 0 || (grp !== 0 && grp === this.grp[j])) continue;
            if (mask.overlaps(this.masks[j] as Mask, x0[j] - sx, y0[j] - sy)) continue;
            cands[m++] = c;
        }
        for (let l = 0; l < this.layers.length; l++) {
            const layer = this.layers[l].layer as CollisionLayer;
            if ((this.layerCat[l] & colw) === 0 || (cat & this.layerColw[l]) === 0 || layer.test(mask, sx, sy)) continue;
            cands[m++] = this.layers[l];
        }
        cands.length = m;
        if (m === 0) return false;
        const dx = ex - sx, dy = ey - sy, nx = Math.abs(dx), ny = Math.abs(dy), stepX = Math.sign(dx), stepY = Math.sign(dy);
        let x = sx, y = sy, ix = 0, iy = 0;
        for (let k = 1, total = nx + ny; k <= total; k++) {
            const px = x, py = y;
            // Step along the axis whose next crossing comes first: (ix + ½)/nx < (iy + ½)/ny.
            if (ny === 0 || (nx !== 0 && (2 * ix + 1) * ny < (2 * iy + 1) * nx)) { x += stepX; ix++; } else { y += stepY; iy++; }
            let hit: Body<T> | null = null;
            for (let c = 0; c < m; c++) {
                const cand = cands[c];
                if (cand.layer) {
                    if (cand.layer.test(mask, x, y)) { hit = pick(hit, cand); }
                    continue;
                }
                const j = cand.slot;
                if (x0[j] >= x + w || y0[j] >= y + h || x1[j] <= x || y1[j] <= y) continue;
                if (mask.overlaps(this.masks[j] as Mask, x0[j] - x, y0[j] - y)) hit = pick(hit, cand);
            }
            if (hit) {
                out.body = hit;
                out.x = x - this.offX[s]; out.y = y - this.offY[s];
                out.freeX = px - this.offX[s]; out.freeY = py - this.offY[s];
                out.t = k / total;
                return true;
            }
        }
        return false;
    }

    /**
     * The nearest body or layer pixel the segment from (x0, y0) to (x1, y1) enters, in world pixels, with the
     * `body` hit, or `null` (rules: docs/rays.md). Walks the grid cells along the segment; `filter` selects categories.
     */
    raycast(x0: number, y0: number, x1: number, y1: number, filter = 0xffffffff): WorldRayHit<T> | null {
        const out = { px: 0, py: 0, x: 0, y: 0, distance: 0, nx: 0, ny: 0, body: null as unknown as Body<T> };
        return this.raycastInto(x0, y0, x1, y1, out, filter) ? out : null;
    }

    /** Allocation-free {@link raycast}: fills `out` and returns whether something was hit. */
    raycastInto(x0: number, y0: number, x1: number, y1: number, out: WorldRayHit<T>, filter = 0xffffffff): boolean {
        const f = checkBits('filter', filter);
        if (!this.gridValid || this.movedCount > Math.max(64, this.live >> 3)) this.rebuild();
        return castWorld(this.grid, this.boxes, this.masks, this.cat, this.bodies, this.used, this.movedList, this.movedCount,
            this.layers, this.layerCat, f, x0, y0, x1, y1, out);
    }

    /** Drops cached transformed masks (they are rebuilt on demand). */
    clearTransformCache(): void {
        this.transforms.clear();
    }

    // --- internals -------------------------------------------------------------------------------

    // Detection: flush removals, rebuild the grid, filter + narrow phase, sort pairs by (a.id, b).
    private detect(): number {
        if (this.dispatching) throw new Error('step(), collisions() and collisionsInto() cannot run inside a collision callback; defer the call until step() returns.');
        const pool = this.pool;
        // Wake the workers now so they poll, not sleep, when the batch comes after the broad phase.
        if (pool !== null && this.lastWork >= pool.minWords) pool.wake();
        this.flush();
        this.rebuild();
        const { grid, cat, colw, grp, masks, rank, layers, layerCat, layerColw } = this;
        const { x0, y0, x1, y1 } = this.boxes;
        const np = grid.collectPairs(cat, colw, grp), P = grid.pairs;
        const N = this.orderCount, R = N + layers.length;
        let keys: Float64Array = this.keys, nk = 0;
        // Candidates that pass the filters go through one batched test (a single WebAssembly call, optionally
        // split across threads; one overlaps() each with the JS kernels): with WebAssembly the call and the
        // clip are not paid per pair (0.70-0.82x the time of one overlaps() per pair, bench:simd).
        let B = this.batch, nb = 0, work = 0;
        for (let k = 0; k < np; k++) {
            const i = P[2 * k], j = P[2 * k + 1];
            if (4 * nb + 4 > B.length) B = this.batch = growCopy(B, 4 * nb + 4);
            B[4 * nb] = i; B[4 * nb + 1] = j; B[4 * nb + 2] = x0[j] - x0[i]; B[4 * nb + 3] = y0[j] - y0[i];
            nb++;
            const ow = Math.min(x1[i], x1[j]) - Math.max(x0[i], x0[j]), oh = Math.min(y1[i], y1[j]) - Math.max(y0[i], y0[j]);
            work += oh * ((ow + 63) >> 5);
        }
        if (this.batchHits.length < nb) this.batchHits = new Uint8Array(Math.max(nb, 2 * this.batchHits.length));
        const H = this.batchHits;
        if (nb > 0) overlapsBatch(masks, B, H, nb, pool, work);
        this.lastWork = work;
        for (let k = 0; k < nb; k++) {
            if (H[k] === 0) continue;
            const ri = rank[B[4 * k]], rj = rank[B[4 * k + 1]];
            if (nk === keys.length) keys = this.growKeys();
            keys[nk++] = ri < rj ? ri * R + rj : rj * R + ri;
        }
        if (layers.length > 0) {
            const { list } = this, n = this.grid.smallCount + this.grid.largeCount;
            for (let k = 0; k < n; k++) {
                const i = list[k];
                for (let l = 0; l < layers.length; l++) {
                    if ((cat[i] & layerColw[l]) === 0 || (layerCat[l] & colw[i]) === 0) continue;
                    if (!(layers[l].layer as CollisionLayer).test(masks[i] as Mask, x0[i], y0[i])) continue;
                    if (nk === keys.length) keys = this.growKeys();
                    keys[nk++] = rank[i] * R + N + l;
                }
            }
        }
        keys.subarray(0, nk).sort();
        const { hitA, hitB, order, bodies } = this;
        for (let k = 0; k < nk; k++) {
            const key = keys[k], ra = Math.floor(key / R), rb = key - ra * R;
            hitA[k] = bodies[order[ra]] as Body<T>;
            hitB[k] = rb < N ? bodies[order[rb]] as Body<T> : layers[rb - N];
        }
        hitA.length = hitB.length = this.hitCount = nk;
        return nk;
    }

    // Recycles removed slots and refreshes ranks (position in id order) for the pair sort keys.
    private flush(): void {
        if (this.pendingFree.length > 0) {
            for (const s of this.pendingFree) {
                this.bodies[s] = null;
                this.source[s] = null;
                this.masks[s] = null;
                this.free.push(s);
            }
            this.pendingFree.length = 0;
            let m = 0;
            const order = this.order;
            for (let k = 0; k < this.orderCount; k++) if (this.bodies[order[k]]) order[m++] = order[k];
            this.orderCount = m;
        }
        if (this.ranksDirty) {
            const { order, rank } = this;
            for (let k = 0; k < this.orderCount; k++) rank[order[k]] = k;
            this.ranksDirty = false;
        }
    }

    // Rebuilds the grid from every live body with a category and a non-empty box.
    private rebuild(): void {
        if (this.gridValid && this.movedCount === 0 && !this.removedSinceBuild) return;
        const { cat, bodies, list, moved } = this;
        const { x0, y0, x1, y1 } = this.boxes;
        let n = 0, sum = 0;
        for (let s = 0; s < this.used; s++) {
            moved[s] = 0;
            const b = bodies[s];
            if (!b || b.slot < 0 || cat[s] === 0 || x1[s] <= x0[s] || y1[s] <= y0[s]) continue;
            list[n++] = s;
            sum += Math.max(x1[s] - x0[s], y1[s] - y0[s]);
        }
        let cell = this.fixedCell;
        if (cell === 0) {
            cell = 8;
            const mean = n > 0 ? sum / n : 8;
            while (cell < mean && cell < 2 ** 24) cell *= 2;
        }
        this.grid.build(list, n, this.boxes, cell);
        this.movedCount = 0;
        this.gridValid = true;
        this.removedSinceBuild = false;
    }

    // Live bodies with (category & filter) ≠ 0 whose boxes meet [qx0, qx1) × [qy0, qy1), sorted by id, into out.
    // Uses the last grid plus the bodies changed since (removed ones are skipped by their flag), and
    // rebuilds once more than an eighth of the bodies changed, so a query costs O(cells + changes).
    private candidates(qx0: number, qy0: number, qx1: number, qy1: number, f: number, out: Body<T>[]): number {
        if (!this.gridValid || this.movedCount > Math.max(64, this.live >> 3)) this.rebuild();
        const { x0, y0, x1, y1 } = this.boxes;
        const { cat, bodies, seen, movedList, qbuf } = this;
        let token = ++this.token;
        if (token >= 2 ** 30) { seen.fill(0); token = this.token = 1; }
        const found = this.grid.query(qx0, qy0, qx1, qy1, seen, token, qbuf);
        let n = 0;
        for (let k = 0; k < found; k++) {
            const s = qbuf[k], b = bodies[s];
            seen[s] = token;
            if (b && b.slot >= 0 && (cat[s] & f) !== 0) out[n++] = b;
        }
        for (let k = 0; k < this.movedCount; k++) {
            const s = movedList[k], b = bodies[s];
            if (seen[s] === token || !b || b.slot < 0 || (cat[s] & f) === 0) continue;
            seen[s] = token;
            if (x0[s] < qx1 && y0[s] < qy1 && x1[s] > qx0 && y1[s] > qy0) out[n++] = b;
        }
        out.length = n;
        sortById(out, n);
        return n;
    }

    // Recomputes the transformed mask, offset and box of slot s.
    private place(s: number): void {
        const t = this.tf[s];
        const p = this.transforms.get(this.source[s] as Mask, t.angle, t.scaleX, t.scaleY, t.flipX, t.flipY);
        this.masks[s] = p.mask;
        this.offX[s] = p.x;
        this.offY[s] = p.y;
        const b = this.boxes;
        b.x0[s] = Math.floor(this.posX[s]) + p.x;
        b.y0[s] = Math.floor(this.posY[s]) + p.y;
        b.x1[s] = b.x0[s] + p.mask.width;
        b.y1[s] = b.y0[s] + p.mask.height;
        this.touch(s);
    }

    // Marks slot s as changed since the grid was built.
    private touch(s: number): void {
        if (!this.gridValid || this.moved[s]) return;
        this.moved[s] = 1;
        this.movedList[this.movedCount++] = s;
    }

    private emit(event: WorldEvent, a: Body<T>, b: Body<T>): void {
        const list = this.listeners[event];
        for (let k = 0; k < list.length; k++) {
            if (a.slot < 0 || b.slot < 0) return;
            this.call(list[k], a, b);
        }
        if (a.slot < 0 || b.slot < 0) return;
        const fa = event === 'begin' ? a.onBegin : event === 'stay' ? a.onStay : a.onEnd;
        if (fa) this.call(fa, a, b);
        if (a.slot < 0 || b.slot < 0) return;
        const fb = event === 'begin' ? b.onBegin : event === 'stay' ? b.onStay : b.onEnd;
        if (fb) this.call(fb, b, a);
    }

    // Runs a user callback; what it throws is kept and rethrown by step() once the step is complete.
    private call(fn: (a: Body<T>, b: Body<T>) => void, a: Body<T>, b: Body<T>): void {
        try {
            fn(a, b);
        } catch (e) {
            this.thrown.push(e);
        }
    }

    private slotOf(body: Body<T>, method: string): number {
        if (!(body instanceof Body)) throw new TypeError(`${method}() needs a Body returned by world.add(), got ${describe(body)}.`);
        if (body.world !== this) throw new Error(`${method}(): ${body} belongs to another World.`);
        if (body.slot < 0) throw new Error(`${method}(): ${body} was removed from this World; add it again with world.add().`);
        if (body.layer) throw new TypeError(`${method}(): ${body} is a layer; only bodies added with world.add() can be used here.`);
        return body.slot;
    }

    private checkPair(i: number): number {
        return checkInt('pair index', i, 0, this.hitCount - 1);
    }

    private checkEvent(event: WorldEvent, listener: PairListener<T>): void {
        if (!EVENTS.includes(event)) throw new Error(`Unknown event ${describe(event)}; expected "begin", "stay" or "end".`);
        if (typeof listener !== 'function') throw new TypeError(`listener must be a function, got ${describe(listener)}.`);
    }

    private growKeys(): Float64Array<ArrayBuffer> {
        const k = new Float64Array(this.keys.length * 2);
        k.set(this.keys);
        return (this.keys = k);
    }

    private growTo(cap: number): void {
        const f64 = (a: Float64Array) => { const b = new Float64Array(cap); b.set(a); return b; };
        const i32 = (a: Int32Array) => { const b = new Int32Array(cap); b.set(a); return b; };
        this.posX = f64(this.posX); this.posY = f64(this.posY);
        const b = this.boxes;
        this.boxes = { x0: f64(b.x0), y0: f64(b.y0), x1: f64(b.x1), y1: f64(b.y1) };
        this.offX = i32(this.offX); this.offY = i32(this.offY);
        this.cat = i32(this.cat); this.colw = i32(this.colw); this.grp = i32(this.grp);
        this.rank = i32(this.rank); this.seen = i32(this.seen); this.qbuf = i32(this.qbuf);
        this.order = i32(this.order); this.list = i32(this.list); this.movedList = i32(this.movedList);
        const m = new Uint8Array(cap); m.set(this.moved); this.moved = m;
        this.cap = cap;
        // The grid reads the boxes arrays it was built with; those were just replaced.
        this.gridValid = false;
    }
}

// Insertion sort for the usual handful of results; Array#sort (which may allocate) beyond that.
function sortById<T>(out: Body<T>[], n: number): void {
    if (n > 32) { out.sort(byId); return; }
    for (let i = 1; i < n; i++) {
        const b = out[i];
        let j = i - 1;
        while (j >= 0 && byId(out[j], b) > 0) { out[j + 1] = out[j]; j--; }
        out[j + 1] = b;
    }
}

function pick<T>(current: Body<T> | null, cand: Body<T>): Body<T> {
    return current === null || byId(cand, current) < 0 ? cand : current;
}

function finish<T>(out: Body<T>[], n: number): number {
    out.length = n;
    return n;
}

// Whether mask has a set pixel in [x0, x1) × [y0, y1) (mask coordinates, clipped).
function anyInRect(mask: Mask, x0: number, y0: number, x1: number, y1: number): boolean {
    x0 = Math.max(0, x0); y0 = Math.max(0, y0);
    x1 = Math.min(mask.width, x1); y1 = Math.min(mask.height, y1);
    if (x0 >= x1 || y0 >= y1) return false;
    const { words, height } = mask;
    for (let s = x0 >>> 5, last = (x1 - 1) >>> 5; s <= last; s++) {
        const lo = s === x0 >>> 5 ? x0 & 31 : 0, hi = s === last ? ((x1 - 1) & 31) + 1 : 32;
        const bits = ((0xffffffff >>> (32 - (hi - lo))) << lo) | 0;
        for (let y = y0, i = s * height + y0; y < y1; y++, i++) if ((words[i] & bits) !== 0) return true;
    }
    return false;
}

function coord(name: string, v: unknown): number {
    if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > MAX_COORD) {
        throw new RangeError(`${name} must be a finite number within ±2^50, got ${describe(v)}.`);
    }
    return v;
}

function checkBits(name: string, v: unknown): number {
    return checkInt(name, v, 0, 0xffffffff) | 0;
}

function checkMask(m: unknown): asserts m is Mask {
    if (!(m instanceof Mask)) throw new TypeError(`mask must be a Mask, got ${describe(m)}.`);
}

function checkOut(out: unknown): void {
    if (!Array.isArray(out)) throw new TypeError(`out must be an array, got ${describe(out)}.`);
}
