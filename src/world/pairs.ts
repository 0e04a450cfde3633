// A World step's pair detection, and its pair list in pair order (rank of a, then rank of b) without a comparison sort.
// Ranks are dense (0..R−1), so a counting sort on a's rank puts each body's pairs in one bucket, and an
// insertion sort orders the handful of partners inside it: O(pairs + bodies). It replaced a Float64Array
// sort of a·R + b keys, which was about 10% of a step (issue 12).
import type { Body } from './body.js';
import { describe } from '../base/check.js';
import { growCopy } from '../base/grow.js';
import { overlapsBatch } from '../kernels/kernels.js';
import type { CollisionLayer } from '../layers/layer.js';
import type { Mask } from '../core/mask.js';
import type { World } from './world.js';
import { rebuildGrid } from './cells.js';
import { flushSlots } from './slots.js';

/** @internal Pairs as (rank a, rank b) with a < b, sorted by {@link sort}. */
export class PairList {
    /** Rank of a, per pair (sorted after {@link sort}). */
    a = new Int32Array(1024);
    /** Rank of b, per pair (sorted after {@link sort}). */
    b = new Int32Array(1024);
    /** Number of pairs. */
    n = 0;
    #count = new Int32Array(64);
    #tmpB = new Int32Array(1024);

    /** Empties the list. */
    clear(): void {
        this.n = 0;
    }

    /** Appends the pair (ra, rb), ra < rb. */
    push(ra: number, rb: number): void {
        const n = this.n;
        if (n === this.a.length) {
            this.a = growCopy(this.a, 2 * n);
            this.b = growCopy(this.b, 2 * n);
        }
        this.a[n] = ra;
        this.b[n] = rb;
        this.n = n + 1;
    }

    /** Sorts the pairs by (a, b); every rank is below `ranks`. */
    sort(ranks: number): void {
        const n = this.n, A = this.a, B = this.b;
        if (n < 2) return;
        let count = this.#count;
        if (count.length < ranks + 1) count = this.#count = new Int32Array(Math.max(ranks + 1, 2 * count.length));
        else count.fill(0, 0, ranks + 1);
        if (this.#tmpB.length < n) this.#tmpB = new Int32Array(Math.max(n, 2 * this.#tmpB.length));
        const tb = this.#tmpB;
        for (let k = 0; k < n; k++) count[A[k] + 1]++;
        for (let r = 0; r < ranks; r++) count[r + 1] += count[r];
        // Scatter b into its a-bucket (count[r] is now the start of bucket r, advanced as it fills).
        for (let k = 0; k < n; k++) tb[count[A[k]]++] = B[k];
        // After the scatter count[r] is the end of bucket r; walk the buckets and rebuild A beside B.
        let start = 0;
        for (let r = 0; r < ranks && start < n; r++) {
            const end = count[r];
            for (let k = start; k < end; k++) {
                A[k] = r;
                const v = tb[k];
                let j = k - 1;
                while (j >= start && B[j] > v) { B[j + 1] = B[j]; j--; }
                B[j + 1] = v;
            }
            start = end;
        }
    }
}

/**
 * @internal A World's detection: removals flushed, the grid rebuilt, candidate pairs from the grid (filters
 * applied there), one batched narrow-phase test, body–layer tests, then the pairs in pair order into
 * w.hitA/w.hitB; returns their count.
 */
export function detectPairs<T>(w: World<T>): number {
    const pool = w.pool;
    // Wake the workers now so they poll, not sleep, when the batch comes after the broad phase.
    if (pool !== null && w.lastWork >= pool.minWords) pool.wake();
    flushSlots(w);
    rebuildGrid(w);
    const { grid, cat, colw, grp, masks, rank, layers, layerCat, layerColw } = w;
    const { x0, y0 } = w.boxes;
    // The grid writes each candidate that passes the filters as (slot a, slot b, dx, dy): the batch itself.
    const nb = grid.collectPairs(cat, colw, grp), B = grid.pairs, work = grid.work;
    const N = w.orderCount, R = N + layers.length, pl = w.pairList;
    pl.clear();
    // Candidates go through one batched test (a single WebAssembly call, optionally split across threads;
    // one overlaps() each with the JS kernels): with WebAssembly the call and the clip are not paid per
    // pair (0.70-0.82x the time of one overlaps() per pair, bench:simd).
    if (w.batchHits.length < nb) w.batchHits = new Uint8Array(Math.max(nb, 2 * w.batchHits.length));
    const H = w.batchHits;
    if (nb > 0) overlapsBatch(masks, B, H, nb, pool, work);
    w.lastWork = work;
    for (let k = 0; k < nb; k++) {
        if (H[k] === 0) continue;
        const ri = rank[B[4 * k]], rj = rank[B[4 * k + 1]];
        if (ri < rj) pl.push(ri, rj); else pl.push(rj, ri);
    }
    if (layers.length > 0) {
        const { list } = w, n = w.grid.smallCount + w.grid.largeCount, { x1, y1 } = w.boxes;
        // Each layer's bounds, asked once: bodies outside are not tested. The demo's stress scene made 20,000 raster
        // tests a step, most far from the terrain: both World steps 3.7-4.0 → 2.8 ms (bench:stress).
        const LB = w.layerBox = layerBounds(layers, w.layerBox);
        for (let k = 0; k < n; k++) {
            const i = list[k];
            for (let l = 0; l < layers.length; l++) {
                if ((cat[i] & layerColw[l]) === 0 || (layerCat[l] & colw[i]) === 0) continue;
                if (x0[i] >= LB[4 * l + 2] || y0[i] >= LB[4 * l + 3] || x1[i] <= LB[4 * l] || y1[i] <= LB[4 * l + 1]) continue;
                if (!(layers[l].layer as CollisionLayer).test(masks[i] as Mask, x0[i], y0[i])) continue;
                pl.push(rank[i], N + l);
            }
        }
    }
    pl.sort(R);
    const { hitA, hitB, byRank } = w, PA = pl.a, PB = pl.b, nk = pl.n;
    for (let k = 0; k < nk; k++) {
        const ra = PA[k], rb = PB[k];
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
        const layer = layers[l].layer as CollisionLayer, r = typeof layer.bounds === 'function' ? layer.bounds() : undefined;
        if (r === undefined) { out[4 * l] = out[4 * l + 1] = -Infinity; out[4 * l + 2] = out[4 * l + 3] = Infinity; }
        else if (r === null) { out[4 * l] = out[4 * l + 1] = Infinity; out[4 * l + 2] = out[4 * l + 3] = -Infinity; }
        else {
            if (typeof r !== 'object') throw new TypeError(`layer ${layers[l]}: bounds() must return { x, y, width, height } or null, got ${describe(r)}.`);
            const { x, y, width, height } = r;
            if (!(Number.isFinite(x) && Number.isFinite(y) && width >= 0 && height >= 0 && Number.isFinite(width) && Number.isFinite(height))) {
                throw new RangeError(`layer ${layers[l]}: bounds() must return finite x, y and a width and height ≥ 0, got { x: ${x}, y: ${y}, width: ${width}, height: ${height} }.`);
            }
            out[4 * l] = x; out[4 * l + 1] = y; out[4 * l + 2] = x + width; out[4 * l + 3] = y + height;
        }
    }
    return out;
}
