// The 0.3 names of CollisionRaster's and RasterView's queries, kept until 0.5.0: each warns once, then calls its
// 0.4 name. The classes extend these, so deleting this file (and the two `extends`) removes them all.
import { deprecated } from '../base/deprecate.js';
import type { Mask, Point } from '../core/mask.js';
import type { RasterQueryOptions } from './raster-options.js';

// What the aliases call: the 0.4 queries of a raster.
interface RasterQueries {
    overlaps(mask: Mask, x: number, y: number, options?: RasterQueryOptions): boolean;
    overlap(mask: Mask, x: number, y: number, options?: RasterQueryOptions, out?: Point): Point | null;
    hitTest(x: number, y: number, options?: RasterQueryOptions): boolean;
    queryMask(mask: Mask, x: number, y: number, options?: RasterQueryOptions, out?: number[]): number[];
}

// What the view's aliases call: the 0.4 queries of a view.
interface ViewQueries {
    overlaps(mask: Mask, x: number, y: number): boolean;
    overlap(mask: Mask, x: number, y: number, out?: Point): Point | null;
    hitTest(x: number, y: number): boolean;
    queryMask(mask: Mask, x: number, y: number, out?: number[]): number[];
}

// A 0.3 positional layer set as the options object of its 0.4 call (one, reused: the old calls allocate nothing).
const SET: RasterQueryOptions = { layers: undefined };
function set(layers: number | undefined): RasterQueryOptions {
    SET.layers = layers;
    return SET;
}

/** The 0.3 names of {@link CollisionRaster}'s queries (deprecated, removed in 0.5.0). */
export class CollisionRasterNames {
    /** @deprecated Use `overlaps(mask, x, y, { layers })` (0.3's name; removed in 0.5.0). */
    test(mask: Mask, x: number, y: number, layers?: number): boolean {
        deprecated('CollisionRaster.test', 'CollisionRaster.overlaps(mask, x, y, { layers })');
        return (this as unknown as RasterQueries).overlaps(mask, x, y, set(layers));
    }

    /** @deprecated Use `overlap(mask, x, y, { layers }, out)` (0.3's name; removed in 0.5.0). */
    hitPoint(mask: Mask, x: number, y: number, layers?: number, out?: Point): Point | null {
        deprecated('CollisionRaster.hitPoint', 'CollisionRaster.overlap(mask, x, y, { layers }, out)');
        return (this as unknown as RasterQueries).overlap(mask, x, y, set(layers), out);
    }

    /** @deprecated Use `hitTest(x, y, { layers })` (0.3's name; removed in 0.5.0). */
    testPixel(x: number, y: number, layers?: number): boolean {
        deprecated('CollisionRaster.testPixel', 'CollisionRaster.hitTest(x, y, { layers })');
        return (this as unknown as RasterQueries).hitTest(x, y, set(layers));
    }

    /** @deprecated Use `queryMask(mask, x, y, { layers }, out)` (0.3's name; removed in 0.5.0). */
    hits(mask: Mask, x: number, y: number, layers?: number, out?: number[]): number[] {
        deprecated('CollisionRaster.hits', 'CollisionRaster.queryMask(mask, x, y, { layers }, out)');
        return (this as unknown as RasterQueries).queryMask(mask, x, y, set(layers), out);
    }
}

/** The 0.3 names of {@link RasterView}'s queries (deprecated, removed in 0.5.0). */
export class RasterViewNames {
    /** @deprecated Use `overlaps` (0.3's name; removed in 0.5.0). */
    test(mask: Mask, x: number, y: number): boolean {
        deprecated('RasterView.test', 'RasterView.overlaps');
        return (this as unknown as ViewQueries).overlaps(mask, x, y);
    }

    /** @deprecated Use `overlap` (0.3's name; removed in 0.5.0). */
    hitPoint(mask: Mask, x: number, y: number, out?: Point): Point | null {
        deprecated('RasterView.hitPoint', 'RasterView.overlap');
        return (this as unknown as ViewQueries).overlap(mask, x, y, out);
    }

    /** @deprecated Use `hitTest` (0.3's name; removed in 0.5.0). */
    testPixel(x: number, y: number): boolean {
        deprecated('RasterView.testPixel', 'RasterView.hitTest');
        return (this as unknown as ViewQueries).hitTest(x, y);
    }

    /** @deprecated Use `queryMask` (0.3's name; removed in 0.5.0). */
    hits(mask: Mask, x: number, y: number, out?: number[]): number[] {
        deprecated('RasterView.hits', 'RasterView.queryMask');
        return (this as unknown as ViewQueries).queryMask(mask, x, y, out);
    }
}
