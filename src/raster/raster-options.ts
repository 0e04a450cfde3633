// CollisionRaster's option objects, and the layer set a query's options name. The checks of ids, points, layer
// indices and layer sets are base/check-raster.ts's.
import { checkObject } from '../base/check-types.js';
import { deprecated } from '../base/deprecate.js';

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
    checkObject('options', options, 'an object like { layers: 1 << 2 }');
    return options.layers ?? all;
}
