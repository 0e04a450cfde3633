// The CollisionLayer contract of static terrain, and the one place a layer written against 0.3's names (test,
// hitPoint, testPixel) is adapted to it: World.addLayer and moveAndSlide pass what they are given through
// asLayer once, so the hot path only ever calls the new names.
import { deprecated } from '../base/deprecate.js';
import { typeError } from '../base/check.js';
import type { Mask, Point, Rect } from '../core/mask.js';
import type { RayHit } from '../rays/ray.js';

/**
 * A static or bulk collision layer that a World can test bodies against without one body per
 * object: tile maps and collision rasters implement it. Coordinates are the layer's (= world) pixels.
 */
export interface CollisionLayer {
    /** Whether a set pixel of `mask`, its top-left at (x, y), lies on a solid pixel of the layer. */
    overlaps(mask: Mask, x: number, y: number): boolean;
    /** The first such pixel in row-major order, in layer coordinates, or `null`; with `out`, written there. */
    overlap(mask: Mask, x: number, y: number, out?: Point): Point | null;
    /** Number of set pixels of `mask` at (x, y) that lie on solid pixels of the layer. */
    overlapArea(mask: Mask, x: number, y: number): number;
    /** Whether the layer is solid at pixel (x, y) (coordinates floored; outside the layer: false). */
    hitTest(x: number, y: number): boolean;
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

// Each 0.4 name of CollisionLayer and its 0.3 name.
const RENAMED = [
    ['overlaps', 'test'],
    ['overlap', 'hitPoint'],
    ['hitTest', 'testPixel']
] as const;

/**
 * @internal Returns `layer` as a CollisionLayer, or throws a TypeError naming `name`: one with `overlaps`, or with
 * all four query methods when `all` (a World's layers; a move calls only `overlaps`). A layer with a 0.3 name
 * instead of a 0.4 one (`test` for `overlaps`…) warns once per name and gets the 0.4 name as a hidden own property
 * holding the old method, so the layer stays the same object (`pair.b.layer === map` holds) and later calls cost
 * nothing extra. A frozen one cannot take properties: an object inheriting from it takes them.
 */
export function asLayer(layer: unknown, name: string, all: boolean): CollisionLayer {
    let l = layer as Record<string, unknown>;
    // A 0.4 layer passed to a move, the case of every call in a game loop: one type check, nothing else.
    if (!all && l !== null && typeof l === 'object' && typeof l.overlaps === 'function') return l as never;
    const needs = all ? ['overlaps', 'overlap', 'overlapArea', 'hitTest'] : ['overlaps'];
    if (l !== null && typeof l === 'object') {
        for (const [now, old] of RENAMED) {
            if (typeof l[now] === 'function' || typeof l[old] !== 'function') continue;
            deprecated(`CollisionLayer.${old}`, `CollisionLayer.${now}`);
            if (!Object.isExtensible(l)) l = Object.create(l) as Record<string, unknown>;
            // Not enumerable: a copy made with `{ ...layer, test }` must not carry the old `test` as `overlaps`.
            Object.defineProperty(l, now, { value: l[old], writable: true, configurable: true });
        }
        if (needs.every(n => typeof l[n] === 'function')) return l as never;
    }
    throw typeError(name, `a CollisionLayer (an object with ${needs.join(', ')})`, layer);
}
