// Argument checks of CollisionRaster: option objects, ids, point arrays, layer indices and layer sets (masks:
// checkMask of core/mask.ts). Each throws with the value got and what was expected; none changes anything.
import { describe } from '../base/check.js';
import { MAX_ID } from '../base/limits.js';

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
