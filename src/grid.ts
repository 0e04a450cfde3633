// Broad phase: a flat uniform grid rebuilt every frame with a counting sort into cells.
// Measured for thousands of similar-sized moving sprites (research §1.5, Node 20, 24–40 px sprites):
// 0.13 / 0.66 / 3.4 / 8.2 ms at 1k / 5k / 20k / 50k, against 11.5 ms for sort-and-sweep, 26 ms for a
// Flatbush rebuild and 231 ms for a dynamic AABB tree at 20k. Rebuilding costs O(n), so moving every
// body every frame is the cheap case, not the worst one. The dense grid keeps its per-cell counts
// between builds and recounts only the bodies that changed cells (issue 12: 10k sprites 1.68 → 1.25 ms
// per step with the other changes of that issue); the entries are still written afresh each build.
//
// Each body's box goes into every cell it touches; a pair is reported only from the cell holding the
// top-left corner of the two boxes' intersection (the reference-point rule), so every pair comes out
// exactly once with no hash set. Bodies much larger than a cell go to a separate list so one boss
// does not fill thousands of cells. When the occupied area is sparse or the coordinates are huge,
// cells are hashed into a table of about 4 buckets per body instead of a dense array; the rule still
// holds because a body is put into each bucket at most once and the reference cell's bucket is unique.

/** A body wider or taller than this many cells goes to the large list instead of the grid. */
const LARGE_CELLS = 4;

/** Most candidate pairs (bodies whose boxes overlap) one detection collects: 2^24. */
export const MAX_PAIRS = 2 ** 24;

/** Boxes of the bodies, indexed by slot: half-open [x0, x1) × [y0, y1) in world pixels. */
export interface Boxes {
    x0: Float64Array;
    y0: Float64Array;
    x1: Float64Array;
    y1: Float64Array;
}

/** A uniform grid over axis-aligned boxes that lists each overlapping pair of boxes once. */
export class Grid {
    /** Cell side in pixels (a power of two, so cell coordinates are exact for any coordinate). */
    cellSize = 64;
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

    private inv = 1 / 64;
    private gx0 = 0;
    private gy0 = 0;
    private cols = 0;
    private rows = 0;
    private buckets = 0;
    private start = new Int32Array(1025);
    private stamp = new Int32Array(1024);
    private entries = new Int32Array(1024);
    // The small bodies: the caller's list itself when every body is small, else smallBuf.
    private small: Int32Array = new Int32Array(0);
    private smallBuf = new Int32Array(1024);
    private large = new Int32Array(64);
    private boxes: Boxes | null = null;
    // Dense-grid counts kept between builds, so that a build recounts only the bodies that changed cells
    // (at 100k bodies, counting every body's cells was a fifth of a step, most of it cache misses on the
    // counters): per slot, the cells counted for it (top-left bucket, and spans: columns − 1 | rows − 1 << 4),
    // valid where cep[slot] === epoch; entries per bucket; the small list counted.
    private cb0 = new Int32Array(0);
    private cspan = new Int32Array(0);
    private cep = new Int32Array(0);
    private epoch = 2;
    private cnt = new Int32Array(0);
    private counted = new Int32Array(0);
    private countedN = 0;
    private total = 0;
    // Whether cnt and the per-slot cells describe the current dense geometry, and its cell size.
    private counting = false;
    private countCell = 0;
    // The dense grid's buckets holding two entries or more (the only ones with pairs), or -1: scan them all.
    private multi = new Int32Array(1024);
    private multiCount = -1;

    /**
     * Rebuilds the grid from the `n` slots in `list`, in increasing slot order (the list is kept, unchanged,
     * until the next build); `cellSize` must be a power of two. The caller may pass what it measured in its
     * own pass over the bodies: the largest box side, and the bounds of all boxes; when no body is large
     * this spares a pass over the boxes.
     */
    build(list: Int32Array, n: number, boxes: Boxes, cellSize: number, maxSide = Infinity, bounds: readonly number[] = []): void {
        const { x0, y0, x1, y1 } = boxes;
        this.boxes = boxes;
        this.cellSize = cellSize;
        const inv = this.inv = 1 / cellSize, limit = LARGE_CELLS * cellSize;
        let small: Int32Array;
        let ns = 0, nl = 0;
        let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
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
            const ax = x0[i], ay = y0[i], bx = x1[i], by = y1[i];
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
        if (ns === 0) { this.buckets = 0; return; }

        const ncx0 = Math.floor(minX * inv), ncy0 = Math.floor(minY * inv);
        const ncx1 = Math.floor((maxX - 1) * inv), ncy1 = Math.floor((maxY - 1) * inv);
        // Dense while the grid has at most 16 cells per body: clearing 16n counters is cheaper than
        // hashing. Beyond that (sparse worlds, far-apart clusters, huge coordinates) hash the cells.
        const need = (ncx1 - ncx0 + 1) * (ncy1 - ncy0 + 1), room = Math.max(1024, 16 * ns);
        if (!(need <= room)) {
            this.counting = false;
            this.buildHashed(small, ns, x0, y0, x1, y1);
            return;
        }
        this.dense = true;
        this.buildDense(small, ns, x0, y0, x1, y1, cellSize, ncx0, ncy0, ncx1, ncy1, need, room);
    }

    // The dense grid: keeps the last geometry while it holds every box and is at most twice the size needed,
    // so only bodies that changed cells (or came, or left) change the counts; otherwise a new geometry, a
    // cell wider on each side where room allows (bodies at the edges then cross less often), and a recount.
    private buildDense(small: Int32Array, ns: number, x0: Float64Array, y0: Float64Array, x1: Float64Array, y1: Float64Array,
        cellSize: number, ncx0: number, ncy0: number, ncx1: number, ncy1: number, need: number, room: number): void {
        const inv = this.inv;
        if (this.cep.length <= small[ns - 1]) {
            this.cb0 = growCopy(this.cb0, small[ns - 1] + 1);
            this.cspan = growCopy(this.cspan, small[ns - 1] + 1);
            this.cep = growCopy(this.cep, small[ns - 1] + 1);
        }
        if (!(this.counting && cellSize === this.countCell && ncx0 >= this.gx0 && ncy0 >= this.gy0 &&
            ncx1 < this.gx0 + this.cols && ncy1 < this.gy0 + this.rows && this.cols * this.rows <= 2 * need)) {
            const pad = (ncx1 - ncx0 + 3) * (ncy1 - ncy0 + 3) <= room ? 1 : 0;
            this.gx0 = ncx0 - pad;
            this.gy0 = ncy0 - pad;
            this.cols = ncx1 - ncx0 + 1 + 2 * pad;
            this.rows = ncy1 - ncy0 + 1 + 2 * pad;
            this.countCell = cellSize;
            this.counting = true;
            // A new epoch: no slot's cells count any more.
            if ((this.epoch += 2) >= 2 ** 30) { this.cep.fill(0); this.epoch = 2; }
            const nb = this.cols * this.rows;
            if (this.cnt.length < nb) this.cnt = new Int32Array(grow(nb));
            this.cnt.fill(0, 0, nb);
            this.total = 0;
            this.countedN = 0;
        }
        const { gx0, gy0, cols, cb0, cspan, cep, cnt } = this;
        // cep[slot] is E where the slot's cells were counted by the last build; N once this build has seen it.
        const E = this.epoch, N = E + 1, buckets = this.buckets = cols * this.rows;
        let total = this.total;
        for (let k = 0; k < ns; k++) {
            const i = small[k];
            const cx0 = Math.floor(x0[i] * inv), cy0 = Math.floor(y0[i] * inv);
            const b0 = (cy0 - gy0) * cols + (cx0 - gx0), span = (Math.floor((x1[i] - 1) * inv) - cx0) | (Math.floor((y1[i] - 1) * inv) - cy0) << 4;
            if (cep[i] === E) {
                cep[i] = N;
                if (cb0[i] === b0 && cspan[i] === span) continue;
                total -= bump(cnt, cb0[i], cspan[i], cols, -1);
            }
            total += bump(cnt, cb0[i] = b0, cspan[i] = span, cols, 1);
            cep[i] = N;
        }
        // Slots counted last time and not listed now (removed, emptied, grown large).
        const counted = this.counted;
        for (let k = 0; k < this.countedN; k++) {
            const s = counted[k];
            if (cep[s] === E) { total -= bump(cnt, cb0[s], cspan[s], cols, -1); cep[s] = 0; }
        }
        this.epoch = N;
        this.total = total;
        if (counted.length < ns) this.counted = new Int32Array(grow(ns));
        this.counted.set(small.subarray(0, ns));
        this.countedN = ns;

        // start[b + 1] = first entry of bucket b: the scatter's cursor, which leaves start[b] at bucket b's
        // first entry (and start[buckets] = total) with no pass to shift the cursors back.
        if (this.start.length < buckets + 2) this.start = new Int32Array(grow(buckets + 2));
        const start = this.start;
        start[0] = 0;
        if (this.multi.length <= total >> 1) this.multi = new Int32Array(grow((total >> 1) + 1));
        const multi = this.multi;
        let nm = 0;
        for (let b = 0, acc = 0; b < buckets; b++) {
            const c = cnt[b];
            start[b + 1] = acc;
            acc += c;
            if (c > 1) multi[nm++] = b;
        }
        this.multiCount = nm;
        if (this.entries.length < total) this.entries = new Int32Array(grow(total));
        const entries = this.entries;
        for (let k = 0; k < ns; k++) {
            const i = small[k], span = cspan[i];
            for (let r = 0, b = cb0[i] + 1; r <= span >> 4; r++, b += cols) for (let c = 0; c <= (span & 15); c++) entries[start[b + c]++] = i;
        }
    }

    // The hashed grid: about 4 buckets per body, counted and filled from scratch.
    private buildHashed(small: Int32Array, ns: number, x0: Float64Array, y0: Float64Array, x1: Float64Array, y1: Float64Array): void {
        const inv = this.inv;
        this.dense = false;
        this.cols = 0;
        this.rows = 0;
        const buckets = this.buckets = pow2(4 * ns);
        const hmask = buckets - 1;
        this.multiCount = -1;
        if (this.start.length < buckets + 2) this.start = new Int32Array(grow(buckets + 2));
        if (this.stamp.length < buckets) this.stamp = new Int32Array(grow(buckets));
        const start = this.start, stamp = this.stamp;
        start.fill(0, 0, buckets + 2);
        stamp.fill(-1, 0, buckets);

        // Pass 1: count entries per bucket, into start[b + 2], so that the scatter (start[b + 1] its cursor)
        // leaves start[b] at bucket b's first entry without a pass to shift the cursors back. A body may
        // touch two cells that share a bucket; the stamp keeps it to one entry there (2i in this pass,
        // 2i + 1 in the next).
        let total = 0;
        for (let k = 0; k < ns; k++) {
            const i = small[k];
            const cx0 = Math.floor(x0[i] * inv), cx1 = Math.floor((x1[i] - 1) * inv);
            const cy0 = Math.floor(y0[i] * inv), cy1 = Math.floor((y1[i] - 1) * inv);
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
            const cx0 = Math.floor(x0[i] * inv), cx1 = Math.floor((x1[i] - 1) * inv);
            const cy0 = Math.floor(y0[i] * inv), cy1 = Math.floor((y1[i] - 1) * inv);
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
            throw new RangeError(`World.step(): more than ${MAX_PAIRS} pairs of bodies whose boxes overlap and whose filters let them collide (the limit); spread the bodies out, or split them into Worlds.`);
        }
        const b = new Int32Array(Math.min(grow(np + 4), 4 * MAX_PAIRS));
        b.set(this.pairs);
        return b;
    }

    // Appends the pair (i, j) at pairs[np] for the large-body paths (the small-body loop inlines it); returns the new np.
    private pushPair(np: number, i: number, j: number, x0: Float64Array, y0: Float64Array, x1: Float64Array, y1: Float64Array): number {
        if (np + 4 > this.pairs.length) this.pairs = this.growPairs(np);
        const pairs = this.pairs;
        pairs[np] = i; pairs[np + 1] = j; pairs[np + 2] = x0[j] - x0[i]; pairs[np + 3] = y0[j] - y0[i];
        const ow = Math.min(x1[i], x1[j]) - Math.max(x0[i], x0[j]), oh = Math.min(y1[i], y1[j]) - Math.max(y0[i], y0[j]);
        this.work += oh * ((ow + 63) >> 5);
        return np + 4;
    }

    /**
     * Lists every pair of boxes that overlap (half-open) exactly once into {@link pairs}, skipping pairs
     * the filter drops (`cat[i] & colw[j]` and `cat[j] & colw[i]` both non-zero, and not the same
     * non-zero group), with their offsets and the work estimate ({@link work}); returns the pair count. The
     * offsets and work come from the box data this loop already holds: computed later from the slot
     * arrays, they were a cache miss per read at 100k bodies (issue 12). Filtering here, before a pair is written, took the demo's
     * 10,000-sprite stress step from 8.9 to 3.9 ms (the filter before the box test: 7.5 ms after it): most of
     * its candidate pairs are bullets that ignore each other.
     */
    collectPairs(cat: Int32Array, colw: Int32Array, grp: Int32Array): number {
        const boxes = this.boxes;
        if (!boxes) return 0;
        const { x0, y0, x1, y1 } = boxes;
        const { start, entries, buckets, dense, inv, gx0, gy0, cols, multi, multiCount } = this;
        const hmask = buckets - 1;
        let pairs = this.pairs, np = 0, work = 0;
        for (let t = 0, nt = multiCount < 0 ? buckets : multiCount; t < nt; t++) {
            const b = multiCount < 0 ? t : multi[t];
            const s = start[b], e = start[b + 1];
            if (e - s < 2) continue;
            for (let p = s; p < e - 1; p++) {
                const i = entries[p];
                const ax0 = x0[i], ay0 = y0[i], ax1 = x1[i], ay1 = y1[i], ci = cat[i], wi = colw[i], gi = grp[i];
                for (let q = p + 1; q < e; q++) {
                    const j = entries[q];
                    // The filter first: in crowded cells most pairs are bodies that ignore each other.
                    if ((ci & colw[j]) === 0 || (cat[j] & wi) === 0 || (gi !== 0 && gi === grp[j])) continue;
                    const bx0 = x0[j], by0 = y0[j], bx1 = x1[j], by1 = y1[j];
                    if (bx0 >= ax1 || by0 >= ay1 || bx1 <= ax0 || by1 <= ay0) continue;
                    // Reference point: the intersection's top-left corner; report only from its cell.
                    const rx = bx0 > ax0 ? bx0 : ax0, ry = by0 > ay0 ? by0 : ay0;
                    const rcx = Math.floor(rx * inv), rcy = Math.floor(ry * inv);
                    const rb = dense ? (rcy - gy0) * cols + (rcx - gx0) : hash(rcx, rcy) & hmask;
                    if (rb !== b) continue;
                    if (np + 4 > pairs.length) pairs = this.pairs = this.growPairs(np);
                    pairs[np] = i; pairs[np + 1] = j; pairs[np + 2] = bx0 - ax0; pairs[np + 3] = by0 - ay0;
                    np += 4;
                    work += ((by1 < ay1 ? by1 : ay1) - ry) * ((((bx1 < ax1 ? bx1 : ax1) - rx) + 63) >> 5);
                }
            }
        }
        this.work = work;
        // Large bodies: against the small bodies in the cells they cover, or by a linear scan when
        // they cover more cells than there are small bodies; then against each other.
        const { large, largeCount, small, smallCount } = this;
        for (let l = 0; l < largeCount; l++) {
            const i = large[l];
            const ax0 = x0[i], ay0 = y0[i], ax1 = x1[i], ay1 = y1[i], ci = cat[i], wi = colw[i], gi = grp[i];
            for (let m = l + 1; m < largeCount; m++) {
                const j = large[m];
                if (x0[j] >= ax1 || y0[j] >= ay1 || x1[j] <= ax0 || y1[j] <= ay0) continue;
                if ((ci & colw[j]) === 0 || (cat[j] & wi) === 0 || (gi !== 0 && gi === grp[j])) continue;
                np = this.pushPair(np, i, j, x0, y0, x1, y1);
            }
            if (smallCount > 0) {
                let cx0 = Math.floor(ax0 * inv), cx1 = Math.floor((ax1 - 1) * inv);
                let cy0 = Math.floor(ay0 * inv), cy1 = Math.floor((ay1 - 1) * inv);
                if (dense) {
                    cx0 = Math.max(cx0, gx0); cy0 = Math.max(cy0, gy0);
                    cx1 = Math.min(cx1, gx0 + cols - 1); cy1 = Math.min(cy1, gy0 + this.rows - 1);
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
                        for (let p = start[b], e = start[b + 1]; p < e; p++) {
                            const j = entries[p];
                            const bx0 = x0[j], by0 = y0[j];
                            if (bx0 >= ax1 || by0 >= ay1 || x1[j] <= ax0 || y1[j] <= ay0) continue;
                            if ((ci & colw[j]) === 0 || (cat[j] & wi) === 0 || (gi !== 0 && gi === grp[j])) continue;
                            // The reference cell is unique, so this visit is the one to report from.
                            if (Math.floor((bx0 > ax0 ? bx0 : ax0) * inv) !== cx || Math.floor((by0 > ay0 ? by0 : ay0) * inv) !== cy) continue;
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
    query(qx0: number, qy0: number, qx1: number, qy1: number, seen: Int32Array, token: number, out: Int32Array): number {
        const boxes = this.boxes;
        if (!boxes || qx1 <= qx0 || qy1 <= qy0) return 0;
        const { x0, y0, x1, y1 } = boxes;
        const { start, entries, dense, inv, gx0, gy0, cols, small, smallCount, large, largeCount } = this;
        let n = 0;
        for (let l = 0; l < largeCount; l++) {
            const j = large[l];
            if (x0[j] < qx1 && y0[j] < qy1 && x1[j] > qx0 && y1[j] > qy0) out[n++] = j;
        }
        if (smallCount === 0) return n;
        let cx0 = Math.floor(qx0 * inv), cx1 = Math.floor((qx1 - 1) * inv);
        let cy0 = Math.floor(qy0 * inv), cy1 = Math.floor((qy1 - 1) * inv);
        if (dense) {
            cx0 = Math.max(cx0, gx0); cy0 = Math.max(cy0, gy0);
            cx1 = Math.min(cx1, gx0 + cols - 1); cy1 = Math.min(cy1, gy0 + this.rows - 1);
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
                for (let p = start[b], e = start[b + 1]; p < e; p++) {
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

// Adds d (±1) to the counts of a body's cells (top-left bucket b0, spans as in Grid.cspan); returns how many cells.
function bump(cnt: Int32Array, b0: number, span: number, cols: number, d: number): number {
    const nx = span & 15, ny = span >> 4;
    for (let r = 0, b = b0; r <= ny; r++, b += cols) for (let c = 0; c <= nx; c++) cnt[b + c] += d;
    return (nx + 1) * (ny + 1);
}

function pow2(n: number): number {
    let p = 1024;
    while (p < n) p *= 2;
    return p;
}

function grow(n: number): number {
    return Math.max(1024, Math.ceil(n * 1.5));
}

export function growCopy(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
    const b = new Int32Array(grow(n));
    b.set(a);
    return b;
}
