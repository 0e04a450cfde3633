// CollisionRaster's option objects and its argument checks: option objects, ids, point arrays, layer indices and
// layer sets (masks: checkMask of core/mask.ts). Each throws with the value got and what was expected; none changes
// anything.
import { describe } from '../base/check.js';
import { deprecated } from '../base/deprecate.js';
import { MAX_ID } from '../base/limits.js';

/** Options of {@link CollisionRaster}. */
export interface RasterOptions {
    /** Number of independent bit planes (1..32), addressed by index 0..layers−1. @default 1 */
    layers?: number;
}

/** Where {@link CollisionRaster.stamp} and {@link CollisionRaster.stampPixel} write. */
export interface StampOptions {
    /**
     * Id remembered by every pixel the stamp sets, for {@link CollisionRaster.queryMask} (0..2^31−1); −1 for none.
     * @default -1
     */
    id?: number;
    /** Layer index (0..layerCount−1). @default 0 */
    layer?: number;
}

/** Where {@link CollisionRaster.erase} and {@link CollisionRaster.erasePixel} clear. */
export interface EraseOptions {
    /** Layer index (0..layerCount−1). @default 0 */
    layer?: number;
}

/** Where {@link CollisionRaster.stampMany} and {@link CollisionRaster.stampPoints} write. */
export interface StampManyOptions {
    /** Id of each copy (same length as the positions), for {@link CollisionRaster.queryMask}; none when absent. */
    ids?: ArrayLike<number>;
    /** Layer index (0..layerCount−1). @default 0 */
    layer?: number;
}

/** Which layers a query of a {@link CollisionRaster} reads. */
export interface RasterQueryOptions {
    /**
     * The layer set (bits: `1 << TERRAIN | 1 << ENEMIES`); every layer when absent. A loop can make the object once
     * and pass it to every call: a query reads this one field and allocates nothing.
     */
    layers?: number;
}

/**
 * @internal The layer set `options` names (`all` when absent; checked by the caller). A number, 0.3's positional
 * layer set, warns once per method and is the set.
 */
export function layersOf(options: RasterQueryOptions | number | undefined, all: number, method: string): number {
    if (options === undefined) return all;
    if (typeof options === 'number') {
        deprecated(`CollisionRaster.${method}(…, layers)`, `CollisionRaster.${method}(…, { layers })`);
        return options;
    }
    if (options === null || typeof options !== 'object')
        throw new TypeError(`options must be an object like { layers: 1 << 2 }, got ${describe(options)}.`);
    return options.layers ?? all;
}

/** @internal Throws unless `options` is a plain options object (`shape` names its fields in the message). */
export function checkOptions(options: unknown, shape: string): void {
    // An array here is 0.1's positional ids (stampMany(mask, xs, ys, ids)): refused, not stamped without them.
    if (options === null || typeof options !== 'object' || Array.isArray(options) || ArrayBuffer.isView(options)) {
        throw new TypeError(`options must be an object like ${shape}, got ${describe(options)}.`);
    }
}

/** @internal Throws unless `id` is a stamp id (0..MAX_ID) or −1. */
export function checkId(id: unknown, name = 'id'): void {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < -1 || id > MAX_ID) {
        throw new RangeError(`${name} must be an integer in 0..${MAX_ID}, or -1 for no id, got ${describe(id)}.`);
    }
}

/** @internal Throws unless xs, ys (and ids when given) are same-length arrays of finite numbers (and valid ids). */
export function checkPoints(xs: ArrayLike<number>, ys: ArrayLike<number>, ids: ArrayLike<number> | undefined): void {
    checkArray('xs', xs);
    checkArray('ys', ys);
    const n = xs.length;
    if (ys.length !== n) throw new RangeError(`ys has length ${ys.length}, expected ${n} (the length of xs).`);
    if (ids !== undefined) {
        checkArray('ids', ids);
        if (ids.length !== n) throw new RangeError(`ids has length ${ids.length}, expected ${n} (the length of xs).`);
    }
    for (let i = 0; i < n; i++) {
        const x = xs[i],
            y = ys[i];
        // x - x is 0 exactly for finite numbers: one test rejects NaN, ±Infinity and non-numbers.
        if (typeof x !== 'number' || x - x !== 0)
            throw new RangeError(`xs[${i}] must be a finite number, got ${describe(x)}.`);
        if (typeof y !== 'number' || y - y !== 0)
            throw new RangeError(`ys[${i}] must be a finite number, got ${describe(y)}.`);
        if (ids !== undefined) checkId(ids[i], `ids[${i}]`);
    }
}

/** @internal Returns `layer` when it is a layer index of a raster with `count` layers; throws otherwise. */
export function checkLayer(layer: number, count: number): number {
    if (typeof layer !== 'number' || !Number.isInteger(layer) || layer < 0 || layer >= count) {
        throw new RangeError(
            `layer must be an integer in 0..${count - 1} (this raster has ${count} layer${count === 1 ? '' : 's'}), got ${describe(layer)}.`
        );
    }
    return layer;
}

/** @internal Returns `layers` as an unsigned set when it is a non-empty subset of `all` (a raster with `count` layers); throws otherwise. */
export function checkLayers(layers: number, all: number, count: number): number {
    if (
        typeof layers !== 'number' ||
        !Number.isInteger(layers) ||
        layers < -(2 ** 31) ||
        layers > 0xffffffff ||
        layers >>> 0 === 0 ||
        ((layers >>> 0) & ~all) !== 0
    ) {
        throw new RangeError(
            `layers must be a non-empty set of layer bits within ${all >>> 0} (e.g. 1 << 0 | 1 << 2; this raster has ${count} layer${count === 1 ? '' : 's'}), got ${describe(layers)}.`
        );
    }
    return layers >>> 0;
}

function checkArray(name: string, a: unknown): void {
    if (a == null || typeof a !== 'object' || typeof (a as ArrayLike<number>).length !== 'number') {
        throw new TypeError(`${name} must be an array or typed array of numbers, got ${describe(a)}.`);
    }
}
