// A World step's pair detection: candidates from the grid, one batched narrow-phase test, body–layer tests,
// then the pairs in pair order (pair-list.ts).
import type { Body } from './body.js';
import { describe, must, outOfRange, wrongType } from '../base/check.js';
import { overlapsBatch } from '../kernels/kernels.js';
import type { CollisionLayer } from '../layers/layer.js';
import type { Mask } from '../core/mask.js';
import type { WorldState } from './state.js';
import { rebuildGrid } from './cells.js';
import { flushSlots } from './slots.js';

/**
 * @internal A World's detection: removals flushed, the grid rebuilt, candidate pairs from the grid (filters
 * applied there), one batched narrow-phase test, body–layer tests, then the pairs in pair order into
 * w.hitA/w.hitB; returns their count.
 */
export function detectPairs<T>(w: WorldState<T>): number {
    const pool = w.pool;
    // Wake the workers now so they poll, not sleep, when the batch comes after the broad phase.
    if (pool !== null && w.lastWork >= pool.minWords) pool.wake();
    flushSlots(w);
    rebuildGrid(w);
    const { grid, cat, colw, grp, masks, rank, layers, layerCat, layerColw } = w;
    const { x0, y0 } = w.boxes;
    // The grid writes each candidate that passes the filters as (slot a, slot b, dx, dy): the batch itself.
    const nb = grid.collectPairs(cat, colw, grp),
        B = grid.pairs,
        work = grid.work;
    const N = w.orderCount,
        R = N + layers.length,
        pl = w.pairList;
    pl.clear();
    // Candidates go through one batched test (a single WebAssembly call, optionally split across threads;
    // one overlaps() each with the JS kernels): with WebAssembly the call and the clip are not paid per
    // pair (0.70-0.82x the time of one overlaps() per pair, npm run bench -- simd).
    if (w.batchHits.length < nb) w.batchHits = new Uint8Array(Math.max(nb, 2 * w.batchHits.length));
    const H = w.batchHits;
    if (nb > 0) overlapsBatch(masks, B, H, nb, pool, work);
    w.lastWork = work;
    for (let k = 0; k < nb; k++) {
        if (H[k] === 0) continue;
        const ri = rank[B[4 * k]],
            rj = rank[B[4 * k + 1]];
        if (ri < rj) pl.push(ri, rj);
        else pl.push(rj, ri);
    }
    if (layers.length > 0) {
        const { list } = w,
            n = w.grid.smallCount + w.grid.largeCount,
            { x1, y1 } = w.boxes;
        // Each layer's bounds, asked once: bodies outside are not tested (the demo's stress scene made 20,000
        // raster tests a step, most far from the terrain).
        const LB = (w.layerBox = layerBounds(layers, w.layerBox));
        for (let k = 0; k < n; k++) {
            const i = list[k];
            for (let l = 0; l < layers.length; l++) {
                if ((cat[i] & layerColw[l]) === 0 || (layerCat[l] & colw[i]) === 0) continue;
                if (x0[i] >= LB[4 * l + 2] || y0[i] >= LB[4 * l + 3] || x1[i] <= LB[4 * l] || y1[i] <= LB[4 * l + 1])
                    continue;
                if (!(layers[l].layer as CollisionLayer).overlaps(masks[i] as Mask, x0[i], y0[i])) continue;
                pl.push(rank[i], N + l);
            }
        }
    }
    pl.sort(R);
    const { hitA, hitB, byRank } = w,
        PA = pl.a,
        PB = pl.b,
        nk = pl.n;
    for (let k = 0; k < nk; k++) {
        const ra = PA[k],
            rb = PB[k];
        hitA[k] = byRank[ra];
        hitB[k] = rb < N ? byRank[rb] : layers[rb - N];
    }
    hitA.length = hitB.length = w.hitCount = nk;
    return nk;
}

// Per layer four numbers (x0, y0, x1, y1): its bounds() where it has them (empty when null), else everything.
function layerBounds<T>(layers: readonly Body<T>[], out: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
    if (out.length < 4 * layers.length) out = new Float64Array(8 * layers.length);
    for (let l = 0; l < layers.length; l++) {
        const layer = layers[l].layer as CollisionLayer,
            r = typeof layer.bounds === 'function' ? layer.bounds() : undefined;
        if (r === undefined) {
            out[4 * l] = out[4 * l + 1] = -Infinity;
            out[4 * l + 2] = out[4 * l + 3] = Infinity;
        } else if (r === null) {
            out[4 * l] = out[4 * l + 1] = Infinity;
            out[4 * l + 2] = out[4 * l + 3] = -Infinity;
        } else {
            if (typeof r !== 'object')
                throw wrongType(
                    must(`layer ${layers[l]}: bounds()`, 'return { x, y, width, height } or null', describe(r))
                );
            const { x, y, width, height } = r;
            if (!(
                Number.isFinite(x) &&
                Number.isFinite(y) &&
                width >= 0 &&
                height >= 0 &&
                Number.isFinite(width) &&
                Number.isFinite(height)
            )) {
                const got = `{ x: ${x}, y: ${y}, width: ${width}, height: ${height} }`;
                throw outOfRange(
                    must(`layer ${layers[l]}: bounds()`, 'return finite x, y and a width and height ≥ 0', got)
                );
            }
            out[4 * l] = x;
            out[4 * l + 1] = y;
            out[4 * l + 2] = x + width;
            out[4 * l + 3] = y + height;
        }
    }
    return out;
}
