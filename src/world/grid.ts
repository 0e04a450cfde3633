// Broad phase: a flat uniform grid over the bodies' boxes, updated every frame. For thousands of
// similar-sized moving sprites it beats sort-and-sweep, a packed R-tree rebuilt per frame and a dynamic AABB
// tree (docs/performance.md has the figures). The dense grid (grid-dense.ts) keeps its
// cells between builds and moves only the bodies that changed cells; the hashed one is counted and
// filled afresh each build, O(n).
//
// Each body's box goes into every cell it touches; a pair is reported only from the cell holding the
// top-left corner of the two boxes' intersection (the reference-point rule), so every pair comes out
// exactly once with no hash set. Bodies much larger than a cell go to a separate list so one boss
// does not fill thousands of cells. When the occupied area is sparse or the coordinates are huge,
// cells are hashed into a table of about 4 buckets per body instead of a dense array; the rule still
// holds because a body is put into each bucket at most once and the reference cell's bucket is unique.

import { DenseCells } from './grid-dense.js';
import { outOfRange } from '../base/check.js';
import { grow, growCopy } from '../base/grow.js';
import { MAX_PAIRS } from '../base/limits.js';

/** A body wider or taller than this many cells goes to the large list instead of the grid. */
const LARGE_CELLS = 4;

/** Boxes of the bodies, indexed by slot: half-open [x0, x1) × [y0, y1) in world pixels. */
export interface Boxes {
    x0: Float64Array;
    y0: Float64Array;
    x1: Float64Array;
    y1: Float64Array;
}

/** A uniform grid over axis-aligned boxes that lists each overlapping pair of boxes once. */
export class Grid {
    /** Cell side in pixels (a power of two, so cell coordinates are exact for any coordinate); 0 before a build. */
    cellSize = 0;
    /** Whether the last build used a dense array of cells (false: a hashed table). */
    dense = true;
    /** Number of bodies in the grid's cells, and in the large list. */
    smallCount = 0;
    largeCount = 0;
    /**
     * Candidate pairs written by {@link collectPairs}, four numbers each: slots a and b, and b's box
     * corner minus a's (dx, dy): the World's batch for the narrow phase as it is.
     */
    pairs = new Int32Array(4096);
    /** Estimated narrow-phase work of the last {@link collectPairs}: intersection rows × 32-bit words, summed. */
    work = 0;

    /** Buckets of the last build (dense: cells of its geometry; hashed: table size; 0 with no small body). */
    get bucketCount(): number {
        return this.buckets;
    }

    private inv = 1 / 64;
    private buckets = 0;
    private start = new Int32Array(1025);
    private stamp = new Int32Array(1024);
    private entries = new Int32Array(1024);
    // The small bodies: the caller's list itself when every body is small, else smallBuf.
    private small: Int32Array = new Int32Array(0);
    private smallBuf = new Int32Array(1024);
    private large = new Int32Array(64);
    private boxes: Boxes | null = null;
    // The dense grid's cells, kept between builds (grid-dense.ts).
    private cells = new DenseCells();

    /**
     * Rebuilds the grid from the `n` slots in `list`, in increasing slot order (the list is kept, unchanged,
     * until the next build); `cellSize` must be a power of two. The caller may pass what it measured in its
     * own pass over the bodies: the largest box side, and the bounds of all boxes; when no body is large
     * this spares a pass over the boxes.
     */
    build(
        list: Int32Array,
        n: number,
        boxes: Boxes,
        cellSize: number,
        maxSide = Infinity,
        bounds: readonly number[] = []
    ): void {
        const { x0, y0, x1, y1 } = boxes;
        this.boxes = boxes;
        this.cellSize = cellSize;
        const inv = (this.inv = 1 / cellSize),
            limit = LARGE_CELLS * cellSize;
        let small: Int32Array;
        let ns = 0,
            nl = 0;
        let minX = Infinity,
            minY = Infinity,
            maxX = -Infinity,
            maxY = -Infinity;
        if (maxSide <= limit && bounds.length === 4) {
            small = list;
            ns = n;
            [minX, minY, maxX, maxY] = bounds;
        } else {
            if (this.smallBuf.length < n) this.smallBuf = new Int32Array(grow(n));
            small = this.smallBuf;
        }
        this.small = small;
        for (let k = small === list ? n : 0; k < n; k++) {
            const i = list[k];
            const ax = x0[i],
                ay = y0[i],
                bx = x1[i],
                by = y1[i];
            if (bx - ax > limit || by - ay > limit) {
                if (nl === this.large.length) this.large = growCopy(this.large, nl + 1);
                this.large[nl++] = i;
                continue;
            }
            small[ns++] = i;
            if (ax < minX) minX = ax;
            if (ay < minY) minY = ay;
            if (bx > maxX) maxX = bx;
            if (by > maxY) maxY = by;
        }
        this.smallCount = ns;
        this.largeCount = nl;
        if (ns === 0) {
            this.buckets = 0;
            return;
        }

        const ncx0 = Math.floor(minX * inv),
            ncy0 = Math.floor(minY * inv);
        const ncx1 = Math.floor((maxX - 1) * inv),
            ncy1 = Math.floor((maxY - 1) * inv);
        // Dense while the grid has at most 16 cells per body: clearing 16n counters is cheaper than
        // hashing. Beyond that (sparse worlds, far-apart clusters, huge coordinates) hash the cells.
        const need = (ncx1 - ncx0 + 1) * (ncy1 - ncy0 + 1),
            room = Math.max(1024, 16 * ns);
        if (!(need <= room)) {
            this.cells.reset();
            this.buildHashed(small, ns, x0, y0, x1, y1);
            return;
        }
        this.dense = true;
        this.buckets = this.cells.update(small, ns, x0, y0, x1, y1, inv, cellSize, ncx0, ncy0, ncx1, ncy1, need, room);
    }

    // The hashed grid: about 4 buckets per body, counted and filled from scratch.
    private buildHashed(
        small: Int32Array,
        ns: number,
        x0: Float64Array,
        y0: Float64Array,
        x1: Float64Array,
        y1: Float64Array
    ): void {
        const inv = this.inv;
        this.dense = false;
        const buckets = (this.buckets = pow2(4 * ns));
        const hmask = buckets - 1;
        if (this.start.length < buckets + 2) this.start = new Int32Array(grow(buckets + 2));
        if (this.stamp.length < buckets) this.stamp = new Int32Array(grow(buckets));
        const start = this.start,
            stamp = this.stamp;
        start.fill(0, 0, buckets + 2);
        stamp.fill(-1, 0, buckets);

        // Pass 1: count entries per bucket, into start[b + 2], so that the scatter (start[b + 1] its cursor)
        // leaves start[b] at bucket b's first entry without a pass to shift the cursors back. A body may
        // touch two cells that share a bucket; the stamp keeps it to one entry there (2i in this pass,
        // 2i + 1 in the next).
        let total = 0;
        for (let k = 0; k < ns; k++) {
            const i = small[k];
            const cx0 = Math.floor(x0[i] * inv),
                cx1 = Math.floor((x1[i] - 1) * inv);
            const cy0 = Math.floor(y0[i] * inv),
                cy1 = Math.floor((y1[i] - 1) * inv);
            for (let cy = cy0; cy <= cy1; cy++) {
                for (let cx = cx0; cx <= cx1; cx++) {
                    const b = hash(cx, cy) & hmask;
                    if (stamp[b] === 2 * i) continue;
                    stamp[b] = 2 * i;
                    start[b + 2]++;
                    total++;
                }
            }
        }
        for (let b = 2; b <= buckets; b++) start[b] += start[b - 1];
        if (this.entries.length < total) this.entries = new Int32Array(grow(total));
        const entries = this.entries;
        // Pass 2: scatter.
        for (let k = 0; k < ns; k++) {
            const i = small[k];
            const cx0 = Math.floor(x0[i] * inv),
                cx1 = Math.floor((x1[i] - 1) * inv);
            const cy0 = Math.floor(y0[i] * inv),
                cy1 = Math.floor((y1[i] - 1) * inv);
            for (let cy = cy0; cy <= cy1; cy++) {
                for (let cx = cx0; cx <= cx1; cx++) {
                    const b = hash(cx, cy) & hmask;
                    if (stamp[b] === 2 * i + 1) continue;
                    stamp[b] = 2 * i + 1;
                    entries[start[b + 1]++] = i;
                }
            }
        }
    }

    // Room for more pairs; past MAX_PAIRS a RangeError, before the arrays (pairs here, then the World's
    // batch and sort keys: about 32 bytes a pair) exhaust memory. 20,000 bodies on one spot make 2e8
    // pairs: that took 100 s and 10 GB, then a fatal error.
    private growPairs(np: number): Int32Array<ArrayBuffer> {
        if (np >> 2 >= MAX_PAIRS) {
            throw outOfRange(
                `World.step(): more than ${MAX_PAIRS} pairs of bodies whose boxes overlap and whose filters let them collide (the limit); spread the bodies out, or split them into Worlds.`
            );
        }
        const b = new Int32Array(Math.min(grow(np + 4), 4 * MAX_PAIRS));
        b.set(this.pairs);
        return b;
    }

    // Appends the pair (i, j) at pairs[np] for the large-body paths (the small-body loop inlines it); returns the new
    // np.
    private pushPair(
        np: number,
        i: number,
        j: number,
        x0: Float64Array,
        y0: Float64Array,
        x1: Float64Array,
        y1: Float64Array
    ): number {
        if (np + 4 > this.pairs.length) this.pairs = this.growPairs(np);
        const pairs = this.pairs;
        pairs[np] = i;
        pairs[np + 1] = j;
        pairs[np + 2] = x0[j] - x0[i];
        pairs[np + 3] = y0[j] - y0[i];
        const ow = Math.min(x1[i], x1[j]) - Math.max(x0[i], x0[j]),
            oh = Math.min(y1[i], y1[j]) - Math.max(y0[i], y0[j]);
        this.work += oh * ((ow + 63) >> 5);
        return np + 4;
    }

    /**
     * Lists every pair of boxes that overlap (half-open) exactly once into {@link pairs}, skipping pairs
     * the filter drops (`cat[i] & colw[j]` and `cat[j] & colw[i]` both non-zero, and not the same
     * non-zero group), with their offsets and the work estimate ({@link work}); returns the pair count. The
     * offsets and work come from the box data this loop already holds: computed later from the slot
     * arrays, they were a cache miss per read at 100k bodies. Filtering here, before a pair is written (and before
     * the box test), makes the demo's 10,000-sprite stress step about twice as fast: most of its candidate pairs
     * are bullets that ignore each other.
     */
    collectPairs(cat: Int32Array, colw: Int32Array, grp: Int32Array): number {
        const boxes = this.boxes;
        if (!boxes) return 0;
        const { x0, y0, x1, y1 } = boxes;
        const { buckets, dense, inv, cells } = this,
            { gx0, gy0, cols, rows, multi, cnt } = cells;
        // Dense: the cells' arrays; hashed: the grid's own.
        const start = dense ? cells.start : this.start,
            entries = dense ? cells.entries : this.entries;
        const hmask = buckets - 1;
        let pairs = this.pairs,
            np = 0,
            work = 0;
        // Dense buckets hold cnt[b] entries from start[b] (with room after them); hashed ones end at start[b + 1].
        // Dense: the buckets whose bit is set in multi, in bucket order; hashed: every bucket.
        for (let t = 0, nt = this.smallCount === 0 ? 0 : dense ? (buckets + 31) >> 5 : buckets; t < nt; t++) {
            for (let bits = dense ? multi[t] : 1; bits !== 0; bits &= bits - 1) {
                const b = dense ? (t << 5) | (31 - Math.clz32(bits & -bits)) : t;
                const s = start[b],
                    e = dense ? s + cnt[b] : start[b + 1];
                if (e - s < 2) continue;
                for (let p = s; p < e - 1; p++) {
                    const i = entries[p];
                    const ax0 = x0[i],
                        ay0 = y0[i],
                        ax1 = x1[i],
                        ay1 = y1[i],
                        ci = cat[i],
                        wi = colw[i],
                        gi = grp[i];
                    for (let q = p + 1; q < e; q++) {
                        const j = entries[q];
                        // The filter first: in crowded cells most pairs are bodies that ignore each other.
                        if ((ci & colw[j]) === 0 || (cat[j] & wi) === 0 || (gi !== 0 && gi === grp[j])) continue;
                        const bx0 = x0[j],
                            by0 = y0[j],
                            bx1 = x1[j],
                            by1 = y1[j];
                        if (bx0 >= ax1 || by0 >= ay1 || bx1 <= ax0 || by1 <= ay0) continue;
                        // Reference point: the intersection's top-left corner; report only from its cell.
                        const rx = bx0 > ax0 ? bx0 : ax0,
                            ry = by0 > ay0 ? by0 : ay0;
                        const rcx = Math.floor(rx * inv),
                            rcy = Math.floor(ry * inv);
                        const rb = dense ? (rcy - gy0) * cols + (rcx - gx0) : hash(rcx, rcy) & hmask;
                        if (rb !== b) continue;
                        if (np + 4 > pairs.length) pairs = this.pairs = this.growPairs(np);
                        pairs[np] = i;
                        pairs[np + 1] = j;
                        pairs[np + 2] = bx0 - ax0;
                        pairs[np + 3] = by0 - ay0;
                        np += 4;
                        work += ((by1 < ay1 ? by1 : ay1) - ry) * (((bx1 < ax1 ? bx1 : ax1) - rx + 63) >> 5);
                    }
                }
            }
        }
        this.work = work;
        // Large bodies: against the small bodies in the cells they cover, or by a linear scan when
        // they cover more cells than there are small bodies; then against each other.
        const { large, largeCount, small, smallCount } = this;
        for (let l = 0; l < largeCount; l++) {
            const i = large[l];
            const ax0 = x0[i],
                ay0 = y0[i],
                ax1 = x1[i],
                ay1 = y1[i],
                ci = cat[i],
                wi = colw[i],
                gi = grp[i];
            for (let m = l + 1; m < largeCount; m++) {
                const j = large[m];
                if (x0[j] >= ax1 || y0[j] >= ay1 || x1[j] <= ax0 || y1[j] <= ay0) continue;
                if ((ci & colw[j]) === 0 || (cat[j] & wi) === 0 || (gi !== 0 && gi === grp[j])) continue;
                np = this.pushPair(np, i, j, x0, y0, x1, y1);
            }
            if (smallCount > 0) {
                let cx0 = Math.floor(ax0 * inv),
                    cx1 = Math.floor((ax1 - 1) * inv);
                let cy0 = Math.floor(ay0 * inv),
                    cy1 = Math.floor((ay1 - 1) * inv);
                if (dense) {
                    cx0 = Math.max(cx0, gx0);
                    cy0 = Math.max(cy0, gy0);
                    cx1 = Math.min(cx1, gx0 + cols - 1);
                    cy1 = Math.min(cy1, gy0 + rows - 1);
                }
                if (cx1 < cx0 || cy1 < cy0) continue;
                if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > smallCount) {
                    for (let k = 0; k < smallCount; k++) {
                        const j = small[k];
                        if (x0[j] >= ax1 || y0[j] >= ay1 || x1[j] <= ax0 || y1[j] <= ay0) continue;
                        if ((ci & colw[j]) === 0 || (cat[j] & wi) === 0 || (gi !== 0 && gi === grp[j])) continue;
                        np = this.pushPair(np, i, j, x0, y0, x1, y1);
                    }
                    continue;
                }
                for (let cy = cy0; cy <= cy1; cy++) {
                    for (let cx = cx0; cx <= cx1; cx++) {
                        const b = dense ? (cy - gy0) * cols + (cx - gx0) : hash(cx, cy) & hmask;
                        for (let p = start[b], e = dense ? p + cnt[b] : start[b + 1]; p < e; p++) {
                            const j = entries[p];
                            const bx0 = x0[j],
                                by0 = y0[j];
                            if (bx0 >= ax1 || by0 >= ay1 || x1[j] <= ax0 || y1[j] <= ay0) continue;
                            if ((ci & colw[j]) === 0 || (cat[j] & wi) === 0 || (gi !== 0 && gi === grp[j])) continue;
                            // The reference cell is unique, so this visit is the one to report from.
                            if (
                                Math.floor((bx0 > ax0 ? bx0 : ax0) * inv) !== cx ||
                                Math.floor((by0 > ay0 ? by0 : ay0) * inv) !== cy
                            )
                                continue;
                            np = this.pushPair(np, i, j, x0, y0, x1, y1);
                        }
                    }
                }
            }
        }
        return np >> 2;
    }

    /**
     * Writes into `out` the slot of every body whose box overlaps [qx0, qx1) × [qy0, qy1), each once,
     * and returns the count; `seen` (indexed by slot) with a fresh `token` skips bodies met in several
     * cells. `out` must hold as many entries as there are bodies in the grid.
     */
    query(
        qx0: number,
        qy0: number,
        qx1: number,
        qy1: number,
        seen: Int32Array,
        token: number,
        out: Int32Array
    ): number {
        const boxes = this.boxes;
        if (!boxes || qx1 <= qx0 || qy1 <= qy0) return 0;
        const { x0, y0, x1, y1 } = boxes;
        const { dense, inv, cells, small, smallCount, large, largeCount } = this,
            { gx0, gy0, cols, rows, cnt } = cells;
        const start = dense ? cells.start : this.start,
            entries = dense ? cells.entries : this.entries;
        let n = 0;
        for (let l = 0; l < largeCount; l++) {
            const j = large[l];
            if (x0[j] < qx1 && y0[j] < qy1 && x1[j] > qx0 && y1[j] > qy0) out[n++] = j;
        }
        if (smallCount === 0) return n;
        let cx0 = Math.floor(qx0 * inv),
            cx1 = Math.floor((qx1 - 1) * inv);
        let cy0 = Math.floor(qy0 * inv),
            cy1 = Math.floor((qy1 - 1) * inv);
        if (dense) {
            cx0 = Math.max(cx0, gx0);
            cy0 = Math.max(cy0, gy0);
            cx1 = Math.min(cx1, gx0 + cols - 1);
            cy1 = Math.min(cy1, gy0 + rows - 1);
        }
        if (cx1 < cx0 || cy1 < cy0) return n;
        if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > smallCount) {
            for (let k = 0; k < smallCount; k++) {
                const j = small[k];
                if (x0[j] < qx1 && y0[j] < qy1 && x1[j] > qx0 && y1[j] > qy0) out[n++] = j;
            }
            return n;
        }
        const hmask = this.buckets - 1;
        for (let cy = cy0; cy <= cy1; cy++) {
            for (let cx = cx0; cx <= cx1; cx++) {
                const b = dense ? (cy - gy0) * cols + (cx - gx0) : hash(cx, cy) & hmask;
                for (let p = start[b], e = dense ? p + cnt[b] : start[b + 1]; p < e; p++) {
                    const j = entries[p];
                    if (seen[j] === token) continue;
                    seen[j] = token;
                    if (x0[j] < qx1 && y0[j] < qy1 && x1[j] > qx0 && y1[j] > qy0) out[n++] = j;
                }
            }
        }
        return n;
    }
}

// Cell coordinates may exceed int32 (coordinates up to 2^50): `| 0` keeps their low 32 bits, which
// is deterministic; distinct cells that collide only share a bucket and cost time, never correctness.
function hash(cx: number, cy: number): number {
    let h = Math.imul(cx | 0, 0x9e3779b1) ^ Math.imul(cy | 0, 0x85ebca77);
    h ^= h >>> 15;
    return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 12);
}

function pow2(n: number): number {
    let p = 1024;
    while (p < n) p *= 2;
    return p;
}
