// The dense grid's cells, kept from one build to the next: per bucket its count and its entries (slots), with room
// to grow in place; per slot the cells it was put in. A build moves only the bodies that changed cells (at 1k
// sprites moving 3 px a step, about 5% of them), where rewriting every entry each build cost a third of a step.

import { grow, growCopy } from '../base/grow.js';

// Room for more entries left in each bucket at a layout: ROOM + half its count.
const ROOM = 2;

/** @internal A dense grid of cols × rows buckets from cell (gx0, gy0), updated in place between builds. */
export class DenseCells {
    /** Cell of bucket 0, and the grid's size in cells. */
    gx0 = 0;
    gy0 = 0;
    cols = 0;
    rows = 0;
    /** Bucket b holds cnt[b] slots at entries[start[b]…]. */
    start = new Int32Array(1024);
    cnt = new Int32Array(0);
    entries = new Int32Array(1024);
    /** A bit per bucket holding two entries or more: the only ones with pairs, read in bucket order. */
    multi = new Int32Array(32);
    // Per bucket, room for entries from start[b]; the free room at the end of entries starts at tail.
    private cap = new Int32Array(1024);
    private tail = 0;
    // Whether the entries ran out of room during this build: they are then laid out afresh.
    private overflow = false;
    // Per slot, the cells it was put in (top-left bucket, and spans: columns − 1 | rows − 1 << 4), valid where
    // cep[slot] === epoch; the slots put in by the last build.
    private cb0 = new Int32Array(0);
    private cspan = new Int32Array(0);
    private cep = new Int32Array(0);
    private epoch = 2;
    private counted = new Int32Array(0);
    private countedN = 0;
    // Whether the counts describe the geometry above, and its cell size.
    private valid = false;
    private cellSize = 0;

    /** Forgets the geometry: the next update starts from scratch. */
    reset(): void {
        this.valid = false;
    }

    /**
     * Puts the `ns` slots of `small` (increasing) into their cells and returns the bucket count. Keeps the last
     * geometry while it holds every box (cells ncx0..ncx1 × ncy0..ncy1) and is at most twice the `need`; else a
     * new one, a cell wider on each side where `room` allows (bodies at the edges then cross less often).
     */
    update(
        small: Int32Array,
        ns: number,
        x0: Float64Array,
        y0: Float64Array,
        x1: Float64Array,
        y1: Float64Array,
        inv: number,
        cellSize: number,
        ncx0: number,
        ncy0: number,
        ncx1: number,
        ncy1: number,
        need: number,
        room: number
    ): number {
        const top = small[ns - 1];
        if (this.cep.length <= top) {
            this.cb0 = growCopy(this.cb0, top + 1);
            this.cspan = growCopy(this.cspan, top + 1);
            this.cep = growCopy(this.cep, top + 1);
        }
        // Until a bucket overflows the free room, entries are edited in place; after that (or with a new
        // geometry) only the counts are kept, and the entries are laid out afresh at the end.
        this.overflow = false;
        if (!(
            this.valid &&
            cellSize === this.cellSize &&
            ncx0 >= this.gx0 &&
            ncy0 >= this.gy0 &&
            ncx1 < this.gx0 + this.cols &&
            ncy1 < this.gy0 + this.rows &&
            this.cols * this.rows <= 2 * need
        )) {
            const pad = (ncx1 - ncx0 + 3) * (ncy1 - ncy0 + 3) <= room ? 1 : 0;
            this.gx0 = ncx0 - pad;
            this.gy0 = ncy0 - pad;
            this.cols = ncx1 - ncx0 + 1 + 2 * pad;
            this.rows = ncy1 - ncy0 + 1 + 2 * pad;
            this.cellSize = cellSize;
            this.valid = true;
            // A new epoch: no slot is in a cell any more.
            if ((this.epoch += 2) >= 2 ** 30) {
                this.cep.fill(0);
                this.epoch = 2;
            }
            const nb = this.cols * this.rows;
            if (this.cnt.length < nb) this.cnt = new Int32Array(grow(nb));
            this.cnt.fill(0, 0, nb);
            this.countedN = 0;
            this.overflow = true;
        }
        const { gx0, gy0, cols, cb0, cspan, cep } = this;
        // cep[slot] is E where the last build put the slot in cells; N once this build has seen it.
        const E = this.epoch,
            N = E + 1;
        let fresh = 0;
        for (let k = 0; k < ns; k++) {
            const i = small[k];
            const cx0 = Math.floor(x0[i] * inv),
                cy0 = Math.floor(y0[i] * inv);
            const b0 = (cy0 - gy0) * cols + (cx0 - gx0),
                span = (Math.floor((x1[i] - 1) * inv) - cx0) | ((Math.floor((y1[i] - 1) * inv) - cy0) << 4);
            if (cep[i] === E) {
                cep[i] = N;
                if (cb0[i] === b0 && cspan[i] === span) continue;
                this.leave(i, cb0[i], cspan[i]);
            } else {
                cep[i] = N;
                fresh++;
            }
            this.enter(i, (cb0[i] = b0), (cspan[i] = span));
        }
        // Slots put in by the last build and not listed now (removed, emptied, grown large): none when every
        // listed slot was put in before and the count is the same.
        if (fresh > 0 || ns !== this.countedN) {
            const counted = this.counted;
            for (let k = 0; k < this.countedN; k++) {
                const s = counted[k];
                if (cep[s] === E) {
                    this.leave(s, cb0[s], cspan[s]);
                    cep[s] = 0;
                }
            }
            if (counted.length < ns) this.counted = new Int32Array(grow(ns));
            this.counted.set(small.subarray(0, ns));
            this.countedN = ns;
        }
        this.epoch = N;
        if (this.overflow) this.layout(small, ns);
        return cols * this.rows;
    }

    // A body's cells (top-left bucket b0, spans as in cspan) gain slot i: counted, and appended to each
    // bucket's entries while they are kept.
    private enter(i: number, b0: number, span: number): void {
        const { cnt, start, cap, entries, cols, multi } = this;
        const nx = span & 15,
            ny = span >> 4;
        for (let r = 0, b = b0; r <= ny; r++, b += cols) {
            for (let c = b; c <= b + nx; c++) {
                const n = cnt[c]++;
                if (this.overflow || (n >= cap[c] && !this.relocate(c, n))) continue;
                entries[start[c] + n] = i;
                if (n === 1) multi[c >> 5] |= 1 << c;
            }
        }
    }

    // A body's cells lose slot i: uncounted, and swapped out of each bucket's entries while they are kept.
    private leave(i: number, b0: number, span: number): void {
        const { cnt, start, entries, cols, multi } = this;
        const nx = span & 15,
            ny = span >> 4;
        for (let r = 0, b = b0; r <= ny; r++, b += cols) {
            for (let c = b; c <= b + nx; c++) {
                const n = --cnt[c];
                if (this.overflow) continue;
                // Bounded by the last entry (which is i when no earlier one is).
                let p = start[c];
                const last = p + n;
                while (p < last && entries[p] !== i) p++;
                entries[p] = entries[last];
                if (n === 1) multi[c >> 5] &= ~(1 << c);
            }
        }
    }

    // Moves full bucket b's n entries to the free room at the end, with twice the room; false (a layout to
    // come) when the free room is used up. A layout at every full bucket came every 13 steps at 1k sprites
    // and every 3 at 100k; with relocation, 3 in 2,000 steps at 1k and 1 in 200 at 10k.
    private relocate(b: number, n: number): boolean {
        const room = 2 * n + ROOM,
            at = this.tail;
        if (at + room > this.entries.length) {
            this.overflow = true;
            return false;
        }
        this.entries.copyWithin(at, this.start[b], this.start[b] + n);
        this.start[b] = at;
        this.cap[b] = room;
        this.tail = at + room;
        return true;
    }

    // Lays the entries out afresh from the counts, in bucket order with room in every bucket and, after them,
    // free room (half as much) for buckets that fill up; sets the bits of the buckets with two entries or more.
    private layout(small: Int32Array, ns: number): void {
        const { cnt, cols, cb0, cspan } = this,
            buckets = cols * this.rows,
            words = (buckets + 31) >> 5;
        if (this.start.length < buckets) this.start = new Int32Array(grow(buckets));
        if (this.cap.length < buckets) this.cap = new Int32Array(grow(buckets));
        if (this.multi.length < words) this.multi = new Int32Array(grow(words));
        const { start, cap, multi } = this;
        multi.fill(0, 0, words);
        let acc = 0;
        for (let b = 0; b < buckets; b++) {
            const c = cnt[b];
            start[b] = acc;
            acc += cap[b] = c + ROOM + (c >> 1);
            if (c > 1) multi[b >> 5] |= 1 << b;
            cnt[b] = 0;
        }
        this.tail = acc;
        if (this.entries.length < acc + (acc >> 1)) this.entries = new Int32Array(acc + (acc >> 1) + 1024);
        const entries = this.entries;
        for (let k = 0; k < ns; k++) {
            const i = small[k],
                span = cspan[i],
                nx = span & 15,
                ny = span >> 4;
            for (let r = 0, b = cb0[i]; r <= ny; r++, b += cols)
                for (let c = b; c <= b + nx; c++) entries[start[c] + cnt[c]++] = i;
        }
        this.overflow = false;
    }
}
