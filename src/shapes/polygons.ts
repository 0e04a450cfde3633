// toPolygons: a mask's exact (or simplified) outlines as polygons with holes.
import { checkNonNegative } from '../base/check.js';
import { checkObject } from '../base/check-types.js';
import { checkMask, type Mask } from '../core/mask.js';
import { wordsOf } from '../kernels/mask-words.js';
import { simplify } from './simplify.js';
import { trace, type Traced } from './trace.js';
import type { Polygon } from '../base/types.js';

export type { Polygon };

/** Options of {@link toPolygons}. */
export interface PolygonOptions {
    /**
     * Largest distance in pixels between the exact boundary and the returned rings, both ways; 0 for the exact pixel
     * edges. @default 0
     */
    tolerance?: number;
}

/**
 * The outlines of the mask's set pixels as polygons, one per 4-connected group of pixels, in row-major
 * order of each group's first pixel. At `tolerance` 0 the rings follow the pixel edges exactly (no
 * collinear vertices): a pixel centre is inside the rings (even-odd) exactly when its bit is set.
 */
export function toPolygons(mask: Mask, options: PolygonOptions = {}): Polygon[] {
    checkMask(mask, 'mask');
    checkObject('options', options);
    const tolerance = checkNonNegative('tolerance', options.tolerance ?? 0, 'a finite number >= 0 (pixels)');
    if (mask.width === 0 || mask.height === 0) return [];
    let t: Traced = trace(wordsOf(mask), mask.width, mask.height);
    if (tolerance > 0) t = simplify(t, tolerance);
    return assemble(t);
}

/** @internal Rings grouped by component: each 4-connected component has one outer ring (A > 0) and any number of holes. */
export function assemble(t: Traced): Polygon[] {
    const polys: Polygon[] = new Array(t.components);
    for (let c = 0; c < t.components; c++) polys[c] = { outer: [], holes: [] };
    const { xy, start } = t;
    for (let r = 0; r < t.rings; r++) {
        const ring: number[] = new Array((start[r + 1] - start[r]) * 2);
        for (let i = 2 * start[r], j = 0; i < 2 * start[r + 1]; i++) ring[j++] = xy[i];
        if (t.area2[r] > 0) polys[t.label[r]].outer = ring;
        else polys[t.label[r]].holes.push(ring);
    }
    return polys;
}
