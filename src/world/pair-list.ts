// A World step's pair list in pair order (rank of a, then rank of b) without a comparison sort: ranks are dense
// (0..R−1), so a counting sort on a's rank puts each body's pairs in one bucket, and an insertion sort orders
// the handful of partners inside it, O(pairs + bodies).
import { growCopy } from '../base/grow.js';

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
        const n = this.n,
            A = this.a,
            B = this.b;
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
                while (j >= start && B[j] > v) {
                    B[j + 1] = B[j];
                    j--;
                }
                B[j + 1] = v;
            }
            start = end;
        }
    }
}
