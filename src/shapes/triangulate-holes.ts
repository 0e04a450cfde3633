// Holes: spliced in where they touch the joined ring at a vertex, else joined to it by a bridge to the left
// (Eberly), leftmost first.
import { bridgeOf, filter, locallyInside, markShared, R, ring, split, track } from './triangulate-ring.js';

// Points numbered (vertices at the same point share a number): `pointOf` per vertex, and `count` per point how
// many vertices are there.
export function numberPoints(xy: ArrayLike<number>, n: number): { pointOf: Int32Array; count: number[] } {
    const byPoint = new Int32Array(n);
    for (let i = 0; i < n; i++) byPoint[i] = i;
    byPoint.sort((i, j) => xy[2 * i] - xy[2 * j] || xy[2 * i + 1] - xy[2 * j + 1]);
    const pointOf = new Int32Array(n),
        count: number[] = [];
    for (let k = 0; k < n; k++) {
        const i = byPoint[k],
            j = byPoint[k - 1];
        if (k > 0 && xy[2 * i] === xy[2 * j] && xy[2 * i + 1] === xy[2 * j + 1]) count[(pointOf[i] = pointOf[j])]++;
        else {
            pointOf[i] = count.length;
            count.push(1);
        }
    }
    return { pointOf, count };
}

// Joins every hole (rings 1.. of `rings`) into the outer ring at `outer`; returns a node of the joined ring.
// Holes that touch the outer ring (or a hole already joined) at a vertex are spliced in at that vertex,
// into the pass of the ring whose inside holds the hole's edges: a bridge elsewhere would leave two
// passes through the point with overlapping insides, and ears cut across the hole. The others get a
// bridge to the left (Eberly), leftmost first.
export function joinHoles(
    xy: ArrayLike<number>,
    rings: ArrayLike<number>,
    outer: number,
    pointOf: Int32Array,
    count: number[]
): number {
    const point = (p: number): number => pointOf[R.I[p]];
    // The joined ring's nodes at each point.
    const at: (number[] | undefined)[] = new Array(count.length);
    const add = (p: number): void => {
        const list = at[point(p)];
        if (list) {
            list.push(p);
            for (const q of list) R.T[q] = 1;
        } else at[point(p)] = [p];
        R.touched?.push(p);
    };
    const index = (start: number): void => {
        let p = start;
        do {
            add(p);
            p = R.N[p];
        } while (p !== start);
    };
    const live = (p: number): boolean => R.N[R.P[p]] === p && R.P[R.N[p]] === p;
    index(outer);
    const { holes, shared, holesAt } = collectHoles(xy, rings, pointOf, count);
    const lefts = holes.map(h0 => {
        let left = h0;
        for (let p = R.N[h0]; p !== h0; p = R.N[p])
            if (R.X[p] < R.X[left] || (R.X[p] === R.X[left] && R.Y[p] < R.Y[left])) left = p;
        return left;
    });
    // the order in which holes get a bridge to the left (Eberly): leftmost first, then topmost, then in order
    const leftOrder = holes
        .map((_, j) => j)
        .sort((j, k) => R.X[lefts[j]] - R.X[lefts[k]] || R.Y[lefts[j]] - R.Y[lefts[k]] || j - k);
    const pending = new Uint8Array(holes.length).fill(1),
        queued = new Uint8Array(holes.length).fill(1);
    // Holes to look at again (every one at first), smallest index first: a min-heap.
    const heap = holes.map((_, j) => j);
    // A hole is looked at again only when the joined ring changed at one of its points: links of a
    // node there changed, or a node was added there.
    const requeue = (): void => {
        for (const p of R.touched!) {
            for (const j of holesAt[point(p)] ?? [])
                if (pending[j] && !queued[j]) {
                    queued[j] = 1;
                    heapPush(heap, j);
                }
        }
        R.touched!.length = 0;
    };
    const join = (o: number, h: number): void => {
        index(h);
        const rev = split(o, h);
        add(rev);
        add(R.N[rev]);
        filter(rev, R.N[rev]);
        outer = filter(o, R.N[o]);
        requeue();
    };
    track([]);
    try {
        for (let next = 0; ;) {
            // The first hole in order that touches the joined ring where a splice fits is spliced in, until none does.
            while (heap.length) {
                const j = heapPop(heap);
                queued[j] = 0;
                if (!pending[j]) continue;
                for (const h of shared[j]) {
                    const o = at[point(h)]?.find(o => live(o) && locallyInside(o, R.N[h]) && locallyInside(o, R.P[h]));
                    if (o !== undefined) {
                        pending[j] = 0;
                        join(o, h);
                        break;
                    }
                }
            }
            // the leftmost hole left gets a bridge to the left (Eberly)
            while (next < leftOrder.length && !pending[leftOrder[next]]) next++;
            if (next === leftOrder.length) break;
            const j = leftOrder[next],
                h = lefts[j];
            pending[j] = 0;
            let b = bridgeOf(h, outer);
            if (b < 0) continue;
            // of several passes through the bridge's end, the one whose inside the bridge leaves by
            if (!locallyInside(b, h)) b = at[point(b)]?.find(o => live(o) && locallyInside(o, h)) ?? b;
            join(b, h);
        }
    } finally {
        track(null);
    }
    return outer;
}

// The holes' rings (rings 1.. of `rings`, empty ones left out), in order: per hole a node, its nodes at shared
// points (the only ones a splice can use), and per shared point the holes through it.
function collectHoles(
    xy: ArrayLike<number>,
    rings: ArrayLike<number>,
    pointOf: Int32Array,
    count: number[]
): { holes: number[]; shared: number[][]; holesAt: number[][] } {
    const holes: number[] = [],
        shared: number[][] = [],
        holesAt: number[][] = [];
    for (let k = 1; k < rings.length - 1; k++) {
        const h0 = markShared(ring(xy, rings[k], rings[k + 1], false), pointOf, count);
        if (h0 < 0) continue;
        const j = holes.length,
            mine: number[] = [];
        let h = h0;
        do {
            if (R.T[h]) {
                mine.push(h);
                (holesAt[pointOf[R.I[h]]] ??= []).push(j);
            }
            h = R.N[h];
        } while (h !== h0);
        holes.push(h0);
        shared.push(mine);
    }
    return { holes, shared, holesAt };
}

// Adds j to the min-heap `heap`.
function heapPush(heap: number[], j: number): void {
    let i = heap.length;
    heap.push(j);
    while (i > 0 && heap[(i - 1) >> 1] > j) {
        heap[i] = heap[(i - 1) >> 1];
        i = (i - 1) >> 1;
    }
    heap[i] = j;
}

// Takes the smallest entry off the min-heap `heap` (not empty).
function heapPop(heap: number[]): number {
    const top = heap[0],
        last = heap.pop()!;
    if (heap.length) {
        let i = 0;
        for (;;) {
            let c = 2 * i + 1;
            if (c >= heap.length) break;
            if (c + 1 < heap.length && heap[c + 1] < heap[c]) c++;
            if (heap[c] >= last) break;
            heap[i] = heap[c];
            i = c;
        }
        heap[i] = last;
    }
    return top;
}
