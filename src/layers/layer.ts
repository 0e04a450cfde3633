import type { Mask, Point, Rect } from '../core/mask.js';
import type { RayHit } from '../rays/ray.js';

/**
 * A static or bulk collision layer that a World can test bodies against without one body per
 * object: tile maps and collision rasters implement it. Coordinates are the layer's (= world) pixels.
 */
export interface CollisionLayer {
    /** Whether a set pixel of `mask`, its top-left at (x, y), lies on a solid pixel of the layer. */
    test(mask: Mask, x: number, y: number): boolean;
    /** Number of set pixels of `mask` at (x, y) that lie on solid pixels of the layer. */
    overlapArea(mask: Mask, x: number, y: number): number;
    /** The first such pixel in row-major order, in layer coordinates, or `null`; with `out`, written there. */
    hitPoint(mask: Mask, x: number, y: number, out?: Point): Point | null;
    /** Whether the layer is solid at pixel (x, y) (coordinates floored; outside the layer: false). */
    testPixel(x: number, y: number): boolean;
    /**
     * Optional: the first solid pixel the segment from (x0, y0) to (x1, y1) enters, or `null` (rules:
     * docs/rays.md); with `out`, written there. `World.raycast` skips layers without it.
     */
    raycast?(x0: number, y0: number, x1: number, y1: number, out?: RayHit): RayHit | null;
    /**
     * Optional: a rectangle holding every solid pixel (it may hold more), or `null` when none is. A World asks
     * once per step and tests only the bodies whose boxes meet it.
     */
    bounds?(): Rect | null;
}
