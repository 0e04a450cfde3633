// World queries: bodies and layers under a point, a rectangle or a mask, sorted by id, layers last.
import { checkBits, checkCoord, checkSize, typeError } from '../base/check.js';
import type { Body } from './body.js';
import { checkMask, Mask } from '../core/mask.js';
import type { WorldState } from './state.js';
import { gridCandidates } from './cells.js';
import { deprecated } from '../base/deprecate.js';

/** Which bodies and layers a World query or ray finds. */
export interface QueryOptions {
    /**
     * Category bits: a body or layer is found when its `category` shares a bit with them; every one when absent.
     * A loop can make the object once and pass it to every call: a query reads this one field and allocates nothing.
     */
    filter?: number;
}

/**
 * @internal The filter `options` names (all categories when absent; checked by the caller). A number, 0.3's
 * positional filter, warns once per method and is the filter.
 */
export function filterOf(options: QueryOptions | number | undefined, method: string): number {
    if (options === undefined) return 0xffffffff;
    if (typeof options === 'number') {
        deprecated(`World.${method}(…, filter)`, `World.${method}(…, { filter })`);
        return options;
    }
    if (options === null || typeof options !== 'object')
        throw typeError('options', 'an object like { filter: 0b10 }', options);
    return options.filter ?? 0xffffffff;
}

/** @internal */
export function queryPointInto<T>(w: WorldState<T>, x: number, y: number, out: Body<T>[], filter = 0xffffffff): number {
    const px = checkCoord('x', x),
        py = checkCoord('y', y);
    const f = checkBits('filter', filter);
    const n = gridCandidates(w, px, py, px + 1, py + 1, f, out);
    let m = 0;
    const { x0, y0 } = w.boxes;
    for (let k = 0; k < n; k++) {
        const b = out[k],
            s = b.slot,
            mask = w.masks[s] as Mask;
        if (mask.get(px - x0[s], py - y0[s])) out[m++] = b;
    }
    for (let l = 0; l < w.layers.length; l++) {
        if ((w.layerCat[l] & f) !== 0 && w.layers[l].layer?.hitTest(px, py)) out[m++] = w.layers[l];
    }
    return finish(out, m);
}
/** @internal */
export function queryRectInto<T>(
    w: WorldState<T>,
    x: number,
    y: number,
    width: number,
    height: number,
    out: Body<T>[],
    filter = 0xffffffff
): number {
    const rx = checkCoord('x', x),
        ry = checkCoord('y', y);
    checkSize('width', width);
    checkSize('height', height);
    const f = checkBits('filter', filter);
    if (width === 0 || height === 0) return finish(out, 0);
    const n = gridCandidates(w, rx, ry, rx + width, ry + height, f, out);
    let m = 0;
    const { x0, y0 } = w.boxes;
    for (let k = 0; k < n; k++) {
        const b = out[k],
            s = b.slot;
        if (anyInRect(w.masks[s] as Mask, rx - x0[s], ry - y0[s], rx + width - x0[s], ry + height - y0[s]))
            out[m++] = b;
    }
    if (w.layers.length > 0) {
        let rect = w.rectMask;
        for (let l = 0; l < w.layers.length; l++) {
            if ((w.layerCat[l] & f) === 0) continue;
            if (rect.width !== width || rect.height !== height) rect = w.rectMask = new Mask(width, height, true);
            if (w.layers[l].layer?.overlaps(rect, rx, ry)) out[m++] = w.layers[l];
        }
    }
    return finish(out, m);
}
/** @internal */
export function queryMaskInto<T>(
    w: WorldState<T>,
    mask: Mask,
    x: number,
    y: number,
    out: Body<T>[],
    filter = 0xffffffff
): number {
    checkMask(mask, 'mask');
    const mx = checkCoord('x', x),
        my = checkCoord('y', y);
    const f = checkBits('filter', filter);
    if (mask.width === 0 || mask.height === 0) return finish(out, 0);
    const n = gridCandidates(w, mx, my, mx + mask.width, my + mask.height, f, out);
    let m = 0;
    const { x0, y0 } = w.boxes;
    for (let k = 0; k < n; k++) {
        const b = out[k],
            s = b.slot;
        if (mask.overlaps(w.masks[s] as Mask, x0[s] - mx, y0[s] - my)) out[m++] = b;
    }
    for (let l = 0; l < w.layers.length; l++) {
        if ((w.layerCat[l] & f) !== 0 && w.layers[l].layer?.overlaps(mask, mx, my)) out[m++] = w.layers[l];
    }
    return finish(out, m);
}

function finish<T>(out: Body<T>[], n: number): number {
    out.length = n;
    return n;
}

// Whether mask has a set pixel in [x0, x1) × [y0, y1) (mask coordinates, clipped).
function anyInRect(mask: Mask, x0: number, y0: number, x1: number, y1: number): boolean {
    x0 = Math.max(0, x0);
    y0 = Math.max(0, y0);
    x1 = Math.min(mask.width, x1);
    y1 = Math.min(mask.height, y1);
    if (x0 >= x1 || y0 >= y1) return false;
    const { words, height } = mask;
    for (let s = x0 >>> 5, last = (x1 - 1) >>> 5; s <= last; s++) {
        const lo = s === x0 >>> 5 ? x0 & 31 : 0,
            hi = s === last ? ((x1 - 1) & 31) + 1 : 32;
        const bits = ((0xffffffff >>> (32 - (hi - lo))) << lo) | 0;
        for (let y = y0, i = s * height + y0; y < y1; y++, i++) if ((words[i] & bits) !== 0) return true;
    }
    return false;
}
