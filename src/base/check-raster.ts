// Argument checks of CollisionRaster: stamp ids, point arrays, layer indices and layer sets (options objects:
// checkOptions of check-types.ts; masks: checkMask of core/mask.ts). Each throws with the value got and what
// was expected; none changes anything.
import { checkFinite, rangeError } from './check.js';
import { checkArrayLike } from './check-types.js';
import { MAX_ID } from './limits.js';

/** @internal Throws unless `id` is a stamp id (0..MAX_ID) or −1. */
export function checkId(id: unknown, name = 'id'): void {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < -1 || id > MAX_ID) {
        throw rangeError(name, `an integer in 0..${MAX_ID}, or -1 for no id`, id);
    }
}

/** @internal Throws unless xs, ys (and ids when given) are same-length arrays of finite numbers (and valid ids). */
export function checkPoints(xs: ArrayLike<number>, ys: ArrayLike<number>, ids: ArrayLike<number> | undefined): void {
    checkArrayLike('xs', xs);
    checkArrayLike('ys', ys);
    const n = xs.length;
    if (ys.length !== n) throw new RangeError(`ys has length ${ys.length}, expected ${n} (the length of xs).`);
    if (ids !== undefined) {
        checkArrayLike('ids', ids);
        if (ids.length !== n) throw new RangeError(`ids has length ${ids.length}, expected ${n} (the length of xs).`);
    }
    for (let i = 0; i < n; i++) {
        checkFinite(`xs[${i}]`, xs[i]);
        checkFinite(`ys[${i}]`, ys[i]);
        if (ids !== undefined) checkId(ids[i], `ids[${i}]`);
    }
}

// "this raster has 1 layer" / "… 3 layers"
const has = (count: number): string => `this raster has ${count} layer${count === 1 ? '' : 's'}`;

/** @internal Returns `layer` when it is a layer index of a raster with `count` layers; throws otherwise. */
export function checkLayer(layer: number, count: number): number {
    if (typeof layer !== 'number' || !Number.isInteger(layer) || layer < 0 || layer >= count) {
        throw rangeError('layer', `an integer in 0..${count - 1} (${has(count)})`, layer);
    }
    return layer;
}

/**
 * @internal Returns `layers` as an unsigned set when it is a non-empty subset of `all` (a raster with `count`
 * layers); throws otherwise.
 */
export function checkLayers(layers: number, all: number, count: number): number {
    if (
        typeof layers !== 'number' ||
        !Number.isInteger(layers) ||
        layers < -(2 ** 31) ||
        layers > 0xffffffff ||
        layers >>> 0 === 0 ||
        ((layers >>> 0) & ~all) !== 0
    ) {
        const set = `a non-empty set of layer bits within ${all >>> 0} (e.g. 1 << 0 | 1 << 2; ${has(count)})`;
        throw rangeError('layers', set, layers);
    }
    return layers >>> 0;
}
