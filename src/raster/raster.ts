// CollisionRaster: a playfield of bit planes (layers) that masks are stamped into, erased from and queried
// against, and RasterView, its CollisionLayer face for a World. The id store is in ids.ts, its options in
// raster-options.ts, the plane kernels in kernels/ (raster-planes.ts, raster-ids.ts, kernels.ts), the 0.3 names
// in raster-deprecated.ts; the argument checks are base/'s.
import { checkCoord, checkInt, checkSize, typeError } from '../base/check.js';
import { checkOptions } from '../base/check-types.js';
import type { CollisionLayer } from '../layers/layer.js';
import { clip, JS, newClip, pick, pickFor, type Clip } from '../kernels/kernels.js';
import { ANY, AREA, FIRST, queryPlanes } from '../kernels/raster-planes.js';
import { checkMask, keepAlive, Mask, type Point, type Rect } from '../core/mask.js';
import { RasterIds } from './ids.js';
import { layersOf } from './raster-options.js';
import type {
    EraseOptions,
    RasterOptions,
    RasterQueryOptions,
    StampManyOptions,
    StampOptions
} from './raster-options.js';
import { CollisionRasterNames, RasterViewNames } from './raster-deprecated.js';
import { checkId, checkLayer, checkLayers, checkPoints } from '../base/check-raster.js';
import { castPlanes, type RasterRayHit } from '../rays/ray.js';
import { MAX_LAYERS } from '../base/limits.js';
import { isDeltaBytes, RasterHistory } from './raster-history.js';
import type { RasterChanges, RasterWatcher } from './changes.js';

export type {
    EraseOptions,
    RasterOptions,
    RasterQueryOptions,
    StampManyOptions,
    StampOptions
} from './raster-options.js';

// Clip scratch of the raster's calls (each fills it, then passes it to the kernel).
const C: Clip = newClip();
// A 1x1 set mask, an id list and a layer set: raycast reads the hit pixel's first id through queryMask.
let RAY_PIXEL: Mask | null = null;
const RAY_IDS: number[] = [];
const RAY_SET: RasterQueryOptions = { layers: 0 };
const NO_POINT: Point = { x: 0, y: 0 };

/**
 * A playfield-sized set of bit planes (layers) that sprites are stamped into and tested against:
 * the screen-buffer collision test of 8-bit games, without its blind spots. The cost of a test
 * depends on the tested mask's size, not on how many objects were stamped.
 *
 * Stamps that carry an id also record, per pixel, every id stamped there since the pixel was last
 * empty, so {@link queryMask} can say exactly which objects lie under a mask (see the README for the rules).
 *
 * @example
 * const raster = new CollisionRaster(320, 200, { layers: 2 });
 * const bullets = { layers: 1 << BULLETS };
 * raster.clear(BULLETS);
 * raster.stampMany(shot, bulletXs, bulletYs, { ids: bulletIds, layer: BULLETS });
 * if (raster.overlaps(player, px, py, bullets)) hitBy = raster.queryMask(player, px, py, bullets);
 */
export class CollisionRaster extends CollisionRasterNames {
    /** Width in pixels. */
    readonly width: number;
    /** Height in pixels. */
    readonly height: number;
    /** Number of layers. */
    readonly layerCount: number;
    /** The layer set holding every layer (`2^layerCount − 1`), the default of every query. */
    readonly allLayers: number;

    /** @internal */
    private readonly planes: Mask[] = [];
    // Per layer bounding box of everything stamped since the last clear, so clear() only zeroes that.
    /** @internal */
    private readonly dirtyX0: Int32Array;
    /** @internal */
    private readonly dirtyY0: Int32Array;
    /** @internal */
    private readonly dirtyX1: Int32Array;
    /** @internal */
    private readonly dirtyY1: Int32Array;
    // Scratch: the planes of the selected layers.
    /** @internal */
    private readonly sel: Mask[] = [];
    // Which ids were stamped where (ids.ts).
    /** @internal */
    private readonly ids: RasterIds;
    // The snapshots' bookkeeping (raster-history.ts), and its tiles changed since the last snapshot or restore and
    // stamped since each layer's last clear, which every write marks.
    /** @internal */
    private readonly history: RasterHistory;
    /** @internal */
    private readonly changes: RasterChanges;
    /** @internal */
    private readonly stamped: RasterChanges;
    /** Creates an empty raster of `width` × `height` pixels with `options.layers` bit planes. */
    constructor(width: number, height: number, options: RasterOptions = {}) {
        super();
        checkSize('CollisionRaster width', width);
        checkSize('CollisionRaster height', height);
        checkOptions('options', options, '{ layers: 2 }');
        const n = checkInt('layers', options.layers ?? 1, 1, MAX_LAYERS);
        this.width = width;
        this.height = height;
        this.layerCount = n;
        this.allLayers = n === 32 ? 0xffffffff : (1 << n) - 1;
        for (let i = 0; i < n; i++) {
            const plane = new Mask(width, height);
            keepAlive(
                plane,
                `This Mask is plane ${i} of a CollisionRaster, which keeps using it: dispose() would break the raster. Clear it with raster.clear(${i}) instead; the raster's memory returns once the raster is no longer referenced.`
            );
            this.planes.push(plane);
        }
        this.ids = new RasterIds(n, width, height);
        this.dirtyX0 = new Int32Array(n).fill(width);
        this.dirtyY0 = new Int32Array(n).fill(height);
        this.dirtyX1 = new Int32Array(n);
        this.dirtyY1 = new Int32Array(n);
        this.history = new RasterHistory({
            width,
            height,
            layerCount: n,
            planes: this.planes,
            dirtyX0: this.dirtyX0,
            dirtyY0: this.dirtyY0,
            dirtyX1: this.dirtyX1,
            dirtyY1: this.dirtyY1,
            ids: this.ids
        });
        this.changes = this.history.changes;
        this.stamped = this.history.stamped;
    }

    /**
     * The raster's state as bytes: every layer's stamped box, the set pixels in it and their ids (docs/raster.md,
     * "Snapshots"). With an `out` large enough, written into it and a view of its start returned, allocating nothing.
     */
    snapshot(out?: Uint8Array): Uint8Array {
        if (out !== undefined && !(out instanceof Uint8Array)) throw typeError('out', 'a Uint8Array', out);
        return this.history.snapshot(out);
    }

    /**
     * The changes since the last {@link snapshot}, `snapshotChanges` or {@link restore}, as bytes that {@link restore}
     * applies to the raster in that state only (docs/raster.md, "Deltas"); a full snapshot instead when there was
     * none or when it would copy no more. `out` as in {@link snapshot}.
     */
    snapshotChanges(out?: Uint8Array): Uint8Array {
        if (out !== undefined && !(out instanceof Uint8Array)) throw typeError('out', 'a Uint8Array', out);
        return this.history.snapshotChanges(out);
    }

    /**
     * Puts the raster back in the state `bytes` saved: a {@link snapshot} of a raster of this size and layer count, or a
     * {@link snapshotChanges} delta when the raster is in the state of the snapshot taken just before it and unwritten
     * since. Bad bytes, and a delta for another state, throw an Error and change nothing.
     */
    restore(bytes: Uint8Array): this {
        this.history.restore(bytes, l => this.clearLayer(l));
        return this;
    }

    /**
     * Whether `bytes` are a delta from {@link snapshotChanges}, which restores only onto its base, rather than a full
     * snapshot, which restores from any state (`snapshotChanges` returns one when there is no base or a delta would
     * be no smaller): a rollback ring can treat those as keyframes.
     */
    static isDelta(bytes: Uint8Array): boolean {
        if (!(bytes instanceof Uint8Array))
            throw typeError('bytes', 'a Uint8Array from snapshot() or snapshotChanges()', bytes);
        return isDeltaBytes(bytes);
    }

    /** A 32-bit hash of the raster's state, the same on every machine and kernel path: the last 4 bytes of {@link snapshot}, little-endian. */
    hash(): number {
        return this.history.hash();
    }

    /** The live bit plane of `layer` as a Mask, for reading (debug drawing, `count()`); write through the raster or `clear()` may miss pixels. */
    plane(layer = 0): Mask {
        return this.planes[checkLayer(layer, this.layerCount)];
    }

    /** A {@link CollisionLayer} view of the layers in the set `layers` (e.g. `1 << TERRAIN | 1 << ENEMIES`), for a World. */
    view(layers: number = this.allLayers): RasterView {
        return new RasterView(this, checkLayers(layers, this.allLayers, this.layerCount));
    }

    /** A {@link CollisionLayer} view of the single layer `index`. */
    layer(index: number): RasterView {
        return new RasterView(this, 1 << checkLayer(index, this.layerCount));
    }

    /**
     * ORs `mask` into layer `options.layer` (default 0) with its top-left at (x, y), clipped to the raster.
     * With `options.id` (0..2^31−1), every pixel it sets remembers that id for {@link queryMask}.
     */
    stamp(mask: Mask, x: number, y: number, options: StampOptions = {}): this {
        checkMask(mask, 'mask');
        x = checkCoord('x', x);
        y = checkCoord('y', y);
        checkOptions('options', options, '{ id, layer }');
        const id = options.id ?? -1,
            layer = options.layer ?? 0;
        checkId(id);
        checkLayer(layer, this.layerCount);
        this.changes.touched = true;
        this.put(mask, x, y, id, layer);
        return this;
    }

    /**
     * Stamps one mask at many positions (bullets sharing a sprite): copy i at (xs[i], ys[i]) with id
     * `options.ids[i]` when given. Checks everything first, so a bad value leaves the raster unchanged.
     */
    stampMany(mask: Mask, xs: ArrayLike<number>, ys: ArrayLike<number>, options: StampManyOptions = {}): this {
        checkMask(mask, 'mask');
        checkOptions('options', options, '{ ids, layer }');
        const ids = options.ids,
            layer = options.layer ?? 0;
        checkPoints(xs, ys, ids);
        checkLayer(layer, this.layerCount);
        // The id plane is created (and may refuse a huge raster) before anything is stamped.
        if (ids !== undefined && this.ids.heads[layer] === null)
            for (let i = 0; i < ids.length; i++)
                if (ids[i] >= 0) {
                    this.ids.plane(layer);
                    break;
                }
        this.changes.touched = true;
        for (let i = 0, n = xs.length; i < n; i++)
            this.put(mask, Math.floor(xs[i]), Math.floor(ys[i]), ids === undefined ? -1 : ids[i], layer);
        return this;
    }

    // The stamp kernel; arguments already checked, x and y integers.
    /** @internal */
    private put(mask: Mask, x: number, y: number, id: number, layer: number): void {
        const c = C,
            plane = this.planes[layer];
        if (mask === plane) {
            // A plane stamped onto itself stamps the plane as it was (as Mask.draw onto itself).
            const copy = mask.clone();
            this.put(copy, x, y, id, layer);
            copy.dispose();
            return;
        }
        if (!clip(this.width, this.height, mask.width, mask.height, x, y, c)) return;
        this.grow(layer, c.x0, c.y0, c.x1, c.y1);
        this.changes.mark(layer, c.x0, c.y0, c.x1, c.y1, 2);
        this.stamped.mark(layer, c.x0, c.y0, c.x1, c.y1, 2);
        const heads = id >= 0 ? this.ids.plane(layer) : this.ids.heads[layer];
        // Anonymous stamps on a layer without ids are Mask.draw's kernel: 0.33x the JS time for 1,000 32² stamps,
        // 0.14x for 100 256² ones (bench/raster.bench.ts).
        if (heads === null) {
            pick(plane, mask, c).or(plane, mask, c);
            return;
        }
        this.ids.stamp(plane, mask, x, y, c, id, layer, heads);
    }

    /** Clears the pixels of layer `options.layer` (default 0) under `mask`'s set pixels (AND NOT), its top-left at (x, y): craters in terrain. Erased pixels lose their ids. */
    erase(mask: Mask, x: number, y: number, options: EraseOptions = {}): this {
        checkMask(mask, 'mask');
        x = checkCoord('x', x);
        y = checkCoord('y', y);
        checkOptions('options', options, '{ layer }');
        const layer = options.layer ?? 0;
        checkLayer(layer, this.layerCount);
        // Ids live in chains that are only read where the bit is set, so clearing bits is enough.
        this.changes.touched = true;
        if (clip(this.width, this.height, mask.width, mask.height, x, y, C))
            this.changes.mark(layer, C.x0, C.y0, C.x1, C.y1, 1);
        this.planes[layer].erase(mask, x, y);
        return this;
    }

    /** Sets pixel (x, y) of layer `options.layer` (a bullet), with an optional `options.id`; outside the raster it does nothing. */
    stampPixel(x: number, y: number, options: StampOptions = {}): this {
        x = checkCoord('x', x);
        y = checkCoord('y', y);
        checkOptions('options', options, '{ id, layer }');
        const id = options.id ?? -1,
            layer = options.layer ?? 0;
        checkId(id);
        checkLayer(layer, this.layerCount);
        this.changes.touched = true;
        if (x < 0 || y < 0 || x >= this.width || y >= this.height) return this;
        this.grow(layer, x, y, x + 1, y + 1);
        this.changes.markPixel(layer, x, y, 2);
        this.stamped.markPixel(layer, x, y, 2);
        this.setPixel(layer, x, y, id, id >= 0 ? this.ids.plane(layer) : this.ids.heads[layer]);
        return this;
    }

    /** Clears pixel (x, y) of `layer` and its ids; outside the raster it does nothing. */
    erasePixel(x: number, y: number, options: EraseOptions = {}): this {
        x = checkCoord('x', x);
        y = checkCoord('y', y);
        checkOptions('options', options, '{ layer }');
        const layer = options.layer ?? 0;
        checkLayer(layer, this.layerCount);
        this.changes.touched = true;
        if (x < 0 || y < 0 || x >= this.width || y >= this.height) return this;
        this.changes.markPixel(layer, x, y, 1);
        this.planes[layer].words[(x >>> 5) * this.height + y] &= ~(1 << (x & 31));
        return this;
    }

    /**
     * Stamps many single pixels at once: point i is (xs[i], ys[i]) with id `options.ids[i]` when given.
     * Every value is checked before anything is stamped, so a bad point leaves the raster unchanged.
     */
    stampPoints(xs: ArrayLike<number>, ys: ArrayLike<number>, options: StampManyOptions = {}): this {
        checkOptions('options', options, '{ ids, layer }');
        const ids = options.ids,
            layer = options.layer ?? 0;
        checkPoints(xs, ys, ids);
        checkLayer(layer, this.layerCount);
        const n = xs.length;
        const A = this.planes[layer].words,
            H = this.height,
            W = this.width;
        let heads = this.ids.heads[layer];
        if (ids !== undefined && heads === null)
            for (let i = 0; i < n && heads === null; i++) if (ids[i] >= 0) heads = this.ids.plane(layer);
        let minX = W,
            minY = H,
            maxX = -1,
            maxY = -1;
        const changes = this.changes,
            stamped = this.stamped;
        changes.touched = true;
        for (let i = 0; i < n; i++) {
            const fx = Math.floor(xs[i]),
                fy = Math.floor(ys[i]);
            if (!(fx >= 0 && fy >= 0 && fx < W && fy < H)) continue;
            changes.markPixel(layer, fx, fy, 2);
            stamped.markPixel(layer, fx, fy, 2);
            if (fx < minX) minX = fx;
            if (fx > maxX) maxX = fx;
            if (fy < minY) minY = fy;
            if (fy > maxY) maxY = fy;
            if (heads === null) A[(fx >>> 5) * H + fy] |= 1 << (fx & 31);
            else this.setPixel(layer, fx, fy, ids === undefined ? -1 : ids[i], heads);
        }
        if (maxX >= 0) this.grow(layer, minX, minY, maxX + 1, maxY + 1);
        return this;
    }

    /** Empties `layer`, or every layer when none is given. Only the area stamped since the last clear is zeroed. */
    clear(layer?: number): this {
        if (layer !== undefined) checkLayer(layer, this.layerCount);
        this.changes.touched = true;
        for (let i = layer ?? 0, end = layer ?? this.layerCount - 1; i <= end; i++) {
            this.history.cleared(i);
            this.clearLayer(i);
        }
        return this;
    }

    /** Whether a set pixel of `mask`, its top-left at (x, y), lies on a set pixel of a layer in `options.layers`. */
    overlaps(mask: Mask, x: number, y: number, options?: RasterQueryOptions): boolean {
        return this.query(mask, x, y, layersOf(options, this.allLayers, 'overlaps'), ANY) !== 0;
    }

    /**
     * The first pixel (row-major) where `mask` at (x, y) meets a layer in `options.layers`, in raster coordinates,
     * or `null`; with `out`, written there.
     */
    overlap(mask: Mask, x: number, y: number, options?: RasterQueryOptions, out?: Point): Point | null {
        if (out === undefined) out = { x: 0, y: 0 };
        else if (out === null || typeof out !== 'object') throw typeError('out', 'a { x, y } object', out);
        const row = this.query(mask, x, y, layersOf(options, this.allLayers, 'overlap'), FIRST, out);
        if (row < 0) return null;
        out.y = row;
        return out;
    }

    /** Number of set pixels of `mask` at (x, y) lying on a set pixel of a layer in `options.layers` (each once). */
    overlapArea(mask: Mask, x: number, y: number, options?: RasterQueryOptions): number {
        return this.query(mask, x, y, layersOf(options, this.allLayers, 'overlapArea'), AREA);
    }

    /** Whether pixel (x, y) is set in a layer of `options.layers` (coordinates floored; outside the raster: false). */
    hitTest(x: number, y: number, options?: RasterQueryOptions): boolean {
        x = checkCoord('x', x);
        y = checkCoord('y', y);
        const k = this.select(layersOf(options, this.allLayers, 'hitTest'));
        if (x < 0 || y < 0 || x >= this.width || y >= this.height) return false;
        const i = (x >>> 5) * this.height + y,
            bit = 1 << (x & 31),
            sel = this.sel;
        for (let j = 0; j < k; j++) if ((sel[j].words[i] & bit) !== 0) return true;
        return false;
    }

    /**
     * The ids stamped under `mask`'s set pixels at (x, y) in the layers `options.layers`, each once: every id
     * stamped onto such a pixel since it was last empty. Order: by first pixel found (row-major), then
     * layer, then newest stamp first. With `out`, the array is refilled and returned.
     */
    queryMask(mask: Mask, x: number, y: number, options?: RasterQueryOptions, out?: number[]): number[] {
        checkMask(mask, 'mask');
        x = checkCoord('x', x);
        y = checkCoord('y', y);
        if (out === undefined) out = [];
        else if (!Array.isArray(out)) throw typeError('out', 'an array', out);
        const layers = checkLayers(layersOf(options, this.allLayers, 'queryMask'), this.allLayers, this.layerCount);
        const inside = clip(this.width, this.height, mask.width, mask.height, x, y, C);
        const n = inside ? this.ids.collect(this.planes, layers, mask, x, y, C) : 0;
        return this.ids.take(out, n);
    }

    /**
     * The first pixel the segment from (x0, y0) to (x1, y1) enters that is set in a layer of `options.layers`, or
     * `null` (rules: docs/rays.md); `id` is what {@link queryMask} lists first for that pixel, or −1. With `out`,
     * written there.
     */
    raycast(
        x0: number,
        y0: number,
        x1: number,
        y1: number,
        options?: RasterQueryOptions,
        out?: RasterRayHit
    ): RasterRayHit | null {
        if (out === undefined) out = { px: 0, py: 0, x: 0, y: 0, distance: 0, nx: 0, ny: 0, id: -1 };
        else if (out === null || typeof out !== 'object') throw typeError('out', 'a RasterRayHit object', out);
        const layers = layersOf(options, this.allLayers, 'raycast');
        const k = this.select(layers);
        if (!castPlanes(this.sel, k, x0, y0, x1, y1, out)) return null;
        RAY_PIXEL ??= new Mask(1, 1, true);
        RAY_SET.layers = layers;
        this.queryMask(RAY_PIXEL, out.px, out.py, RAY_SET, RAY_IDS);
        out.id = RAY_IDS.length > 0 ? RAY_IDS[0] : -1;
        return out;
    }

    /** `<CollisionRaster WxH, N layers>`. */
    override toString(): string {
        return `<CollisionRaster ${this.width}x${this.height}, ${this.layerCount} layer${this.layerCount === 1 ? '' : 's'}>`;
    }

    // A query of `mask` at (x, y) against the planes of `layers` (see queryPlanes); one plane takes
    // Mask.overlaps/overlapArea/overlap's faster kernels. WebAssembly: 0.10-0.12x the JS time for
    // tests and areas of a 256² mask over 2-3 layers.
    /** @internal */
    private query(mask: Mask, x: number, y: number, layers: number, op: number, out: Point = NO_POINT): number {
        checkMask(mask, 'mask');
        x = checkCoord('x', x);
        y = checkCoord('y', y);
        const k = this.select(layers);
        if (!clip(this.width, this.height, mask.width, mask.height, x, y, C)) return op === FIRST ? -1 : 0;
        const planes = this.sel,
            kern = pick(planes[0], mask, C);
        if (k === 1 && op === ANY) return kern.any(planes[0], mask, C) ? 1 : 0;
        if (k === 1 && op === AREA) return kern.area(planes[0], mask, C);
        if (k === 1 && op === FIRST) return kern.first(planes[0], mask, C, out) ? out.y : -1;
        return queryPlanes(planes, k, mask, C, op, out, kern !== JS);
    }

    /**
     * @internal Calls `watcher(layer, x0, y0, x1, y1)` with a box holding every pixel each later write may change
     * (stamps, erases, clears, restores), until the returned function is called: how TerrainChunks (hitmask/shapes)
     * learns which chunks to rebuild without comparing pixels.
     */
    watch(watcher: RasterWatcher): () => void {
        return this.changes.watch(watcher);
    }

    /** @internal The box of everything stamped on `layers` since their last clear (it holds every set pixel), or null. */
    stampedBounds(layers: number): Rect | null {
        let x0 = this.width,
            y0 = this.height,
            x1 = 0,
            y1 = 0;
        for (let bits = layers >>> 0; bits !== 0; bits &= bits - 1) {
            const l = 31 - Math.clz32(bits & -bits);
            if (l >= this.layerCount) break;
            x0 = Math.min(x0, this.dirtyX0[l]);
            y0 = Math.min(y0, this.dirtyY0[l]);
            x1 = Math.max(x1, this.dirtyX1[l]);
            y1 = Math.max(y1, this.dirtyY1[l]);
        }
        return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
    }

    // Sets one in-bounds pixel with the id rules of stamp().
    /** @internal */
    private setPixel(layer: number, x: number, y: number, id: number, heads: Int32Array | null): void {
        const A = this.planes[layer].words,
            i = (x >>> 5) * this.height + y,
            bit = 1 << (x & 31);
        const was = (A[i] & bit) !== 0;
        A[i] |= bit;
        if (heads === null) return;
        const p = y * this.width + x;
        if (!was) heads[p] = id;
        else if (id >= 0) this.ids.add(layer, heads, p, id);
    }

    /** @internal */
    private grow(layer: number, x0: number, y0: number, x1: number, y1: number): void {
        if (x0 < this.dirtyX0[layer]) this.dirtyX0[layer] = x0;
        if (y0 < this.dirtyY0[layer]) this.dirtyY0[layer] = y0;
        if (x1 > this.dirtyX1[layer]) this.dirtyX1[layer] = x1;
        if (y1 > this.dirtyY1[layer]) this.dirtyY1[layer] = y1;
    }

    /** @internal */
    private clearLayer(layer: number): void {
        const x0 = this.dirtyX0[layer],
            y0 = this.dirtyY0[layer],
            x1 = this.dirtyX1[layer],
            y1 = this.dirtyY1[layer];
        const H = this.height;
        // Id chains need no clearing: they are read only where a bit is set, and a stamp that sets a bit restarts its chain.
        // Zeroing only the stamped box saves the full fill (about 1.6 µs for a 1920x1080 plane) when little was stamped.
        this.ids.entCount[layer] = 0;
        if (x1 <= x0 || y1 <= y0) return;
        // Planes in WebAssembly memory are zeroed by fill32 (memory.fill, a memset): 1.7 µs for a whole
        // 1920x1080 plane, as TypedArray.fill on the JS heap, where TypedArray.fill on shared memory took 17.7 µs.
        const plane = this.planes[layer],
            k = pickFor(plane, null, plane.strips * H);
        if (y1 - y0 > H >> 1) {
            const i = (x0 >> 5) * H;
            k.fill(plane, i, (((x1 - 1) >> 5) + 1) * H, 0);
        } else {
            for (let s = x0 >> 5, sEnd = (x1 - 1) >> 5; s <= sEnd; s++) k.fill(plane, s * H + y0, s * H + y1, 0);
        }
        this.dirtyX0[layer] = this.width;
        this.dirtyY0[layer] = this.height;
        this.dirtyX1[layer] = 0;
        this.dirtyY1[layer] = 0;
    }

    // Validates a layer set and puts the selected planes' words into this.sel; returns how many.
    /** @internal */
    private select(layers: number): number {
        checkLayers(layers, this.allLayers, this.layerCount);
        let k = 0;
        for (let bits = layers >>> 0; bits !== 0; bits &= bits - 1)
            this.sel[k++] = this.planes[31 - Math.clz32(bits & -bits)];
        return k;
    }
}

/** A {@link CollisionLayer} view of a set of a raster's layers; it follows later stamps and clears. */
export class RasterView extends RasterViewNames implements CollisionLayer {
    // The options every query passes: made once, so a call allocates nothing.
    /** @internal */
    private readonly set: RasterQueryOptions;
    /** Creates a view; prefer {@link CollisionRaster.view} or {@link CollisionRaster.layer}. */
    constructor(
        readonly raster: CollisionRaster,
        readonly layers: number
    ) {
        super();
        if (!(raster instanceof CollisionRaster)) throw typeError('raster', 'a CollisionRaster', raster);
        this.set = { layers };
        raster.hitTest(0, 0, this.set); // validates the layer set
    }

    /** Whether a set pixel of `mask` at (x, y) lies on these layers. */
    overlaps(mask: Mask, x: number, y: number): boolean {
        return this.raster.overlaps(mask, x, y, this.set);
    }

    /** The first such pixel in row-major order, or `null`; with `out`, written there. */
    overlap(mask: Mask, x: number, y: number, out?: Point): Point | null {
        return this.raster.overlap(mask, x, y, this.set, out);
    }

    /** Number of set pixels of `mask` at (x, y) on these layers. */
    overlapArea(mask: Mask, x: number, y: number): number {
        return this.raster.overlapArea(mask, x, y, this.set);
    }

    /** Whether pixel (x, y) is set on these layers. */
    hitTest(x: number, y: number): boolean {
        return this.raster.hitTest(x, y, this.set);
    }

    /** The box of everything stamped on these layers since they were last cleared (it holds every set pixel), or `null`. */
    bounds(): Rect | null {
        return this.raster.stampedBounds(this.layers);
    }

    /** The ids under `mask` at (x, y) on these layers; see {@link CollisionRaster.queryMask}. */
    queryMask(mask: Mask, x: number, y: number, out?: number[]): number[] {
        return this.raster.queryMask(mask, x, y, this.set, out);
    }

    /** The first pixel of these layers the segment enters, with its id, or `null`; see {@link CollisionRaster.raycast}. */
    raycast(x0: number, y0: number, x1: number, y1: number, out?: RasterRayHit): RasterRayHit | null {
        return this.raster.raycast(x0, y0, x1, y1, this.set, out);
    }
}
