// Ear clipping with hole bridging on doubly linked rings held in typed arrays. The algorithm is
// earcut's (mapbox/earcut, ISC): holes are joined to the outer ring by bridges found with a ray cast
// to the left (Eberly), ears are cut greedily, and two repair passes handle self-touching input.
// As in earcut, the ear test looks only at the nodes near the ear, through a list of the ring's nodes
// in z-order (Morton order of their quantised coordinates); the holes waiting to be joined are
// looked at again only where the joined ring changed. Without these, a polygon of thousands of
// holes (a noisy mask) takes time quadratic in its vertices.

// Node fields: coordinates, source vertex index, ring links.
let X = new Float64Array(0),
    Y = new Float64Array(0);
let I = new Int32Array(0),
    N = new Int32Array(0),
    P = new Int32Array(0);
// 1 where another node of the ring has the same point (a vertex two rings share): kept when flat.
let T = new Uint8Array(0);
// 1 where filter found the node to stay and its links have not changed since: filter passes it unchecked.
let C = new Uint8Array(0);
// z-order key and z-order list links (-1: none) of the ring being clipped.
let Z = new Int32Array(0),
    PZ = new Int32Array(0),
    NZ = new Int32Array(0);
let used = 0,
    dropped = 0;
// Quantisation of the polygon's bounding box for z-order keys: (x − zx) · zs in 0..32767.
let zx = 0,
    zy = 0,
    zs = 0;
// While holes are joined: nodes whose links changed (their points' pending holes are looked at again).
let touched: number[] | null = null;

// Grows the node arrays (kept between calls) to hold n nodes.
function reserve(n: number): void {
    if (X.length >= n) return;
    n = Math.max(n, 2 * X.length);
    const x = new Float64Array(n),
        y = new Float64Array(n),
        t = new Uint8Array(n),
        c = new Uint8Array(n);
    const grow = (a: Int32Array) => {
        const b = new Int32Array(n);
        b.set(a);
        return b;
    };
    x.set(X);
    y.set(Y);
    t.set(T);
    c.set(C);
    X = x;
    Y = y;
    T = t;
    C = c;
    I = grow(I);
    N = grow(N);
    P = grow(P);
    Z = grow(Z);
    PZ = grow(PZ);
    NZ = grow(NZ);
}

function insert(i: number, x: number, y: number, last: number): number {
    if (used === X.length) reserve(used + 64);
    const p = used++;
    I[p] = i;
    X[p] = x;
    Y[p] = y;
    T[p] = 0;
    C[p] = 0;
    PZ[p] = -1;
    NZ[p] = -1;
    if (last < 0) {
        P[p] = p;
        N[p] = p;
    } else {
        C[last] = C[N[last]] = 0;
        N[p] = N[last];
        P[p] = last;
        P[N[last]] = p;
        N[last] = p;
    }
    return p;
}

function remove(p: number): void {
    N[P[p]] = N[p];
    P[N[p]] = P[p];
    C[P[p]] = C[N[p]] = 0;
    if (PZ[p] >= 0) NZ[PZ[p]] = NZ[p];
    if (NZ[p] >= 0) PZ[NZ[p]] = PZ[p];
    if (touched) touched.push(P[p], p, N[p]);
}

// Morton code of a point: the bits of its quantised x and y interleaved, so that a box's points have codes
// between those of its corners.
function zOrder(x: number, y: number): number {
    let a = ((x - zx) * zs) | 0,
        b = ((y - zy) * zs) | 0;
    a = (a | (a << 8)) & 0x00ff00ff;
    a = (a | (a << 4)) & 0x0f0f0f0f;
    a = (a | (a << 2)) & 0x33333333;
    a = (a | (a << 1)) & 0x55555555;
    b = (b | (b << 8)) & 0x00ff00ff;
    b = (b | (b << 4)) & 0x0f0f0f0f;
    b = (b | (b << 2)) & 0x33333333;
    b = (b | (b << 1)) & 0x55555555;
    return a | (b << 1);
}

// Links the ring's nodes, and only them, in z-order.
function zIndex(start: number): void {
    let n = 0,
        p = start;
    do {
        Z[p] = zOrder(X[p], Y[p]);
        n++;
        p = N[p];
    } while (p !== start);
    const order = new Int32Array(n);
    for (let k = 0; k < n; k++, p = N[p]) order[k] = p;
    order.sort((u, v) => Z[u] - Z[v]);
    for (let k = 0; k < n; k++) {
        PZ[order[k]] = k > 0 ? order[k - 1] : -1;
        NZ[order[k]] = k + 1 < n ? order[k + 1] : -1;
    }
}

// Twice the signed area of triangle pqr, negative where pqr turns the way the outer ring does.
function area(p: number, q: number, r: number): number {
    return (Y[q] - Y[p]) * (X[r] - X[q]) - (X[q] - X[p]) * (Y[r] - Y[q]);
}

const equals = (a: number, b: number): boolean => X[a] === X[b] && Y[a] === Y[b];

// A ring of source vertices start..end-1 with A > 0 for the outer ring (positive) and A < 0 for holes.
function ring(xy: ArrayLike<number>, start: number, end: number, positive: boolean): number {
    let a = 0;
    for (let i = start, j = end - 1; i < end; j = i++) a += xy[2 * j] * xy[2 * i + 1] - xy[2 * i] * xy[2 * j + 1];
    let last = -1;
    if (positive === a > 0) for (let i = start; i < end; i++) last = insert(i, xy[2 * i], xy[2 * i + 1], last);
    else for (let i = end - 1; i >= start; i--) last = insert(i, xy[2 * i], xy[2 * i + 1], last);
    if (last >= 0 && equals(last, N[last])) {
        remove(last);
        last = N[last];
    }
    return last;
}

// Drops repeated and collinear vertices (zero-area spikes included) from start up to end. A straight
// pass through a point the ring passes again stays: the ray cast and the ear test need that vertex.
function filter(start: number, end = start): number {
    let p = start,
        again: boolean;
    do {
        again = false;
        const a = P[p],
            b = N[p];
        if (
            !C[p] &&
            (equals(p, b) ||
                (area(a, p, b) === 0 && !(T[p] && (X[a] - X[p]) * (X[b] - X[p]) + (Y[a] - Y[p]) * (Y[b] - Y[p]) < 0)))
        ) {
            remove(p);
            dropped++;
            p = end = P[p];
            if (p === N[p]) break;
            again = true;
        } else {
            // it stays until its links change (marking it T only ever keeps more)
            C[p] = 1;
            p = N[p];
        }
    } while (again || p !== end);
    return end;
}

function pointInTriangle(
    ax: number,
    ay: number,
    bx: number,
    by: number,
    cx: number,
    cy: number,
    px: number,
    py: number
): boolean {
    return (
        (cx - px) * (ay - py) >= (ax - px) * (cy - py) &&
        (ax - px) * (by - py) >= (bx - px) * (ay - py) &&
        (bx - px) * (cy - py) >= (cx - px) * (by - py)
    );
}

const turn = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number =>
    (by - ay) * (cx - bx) - (bx - ax) * (cy - by);

// Whether the ring's second pass p through corner k of the ear (other corners u, w) overlaps the ear:
// an edge of p runs strictly into the ear's angle at k, or the ring's inside at p holds a direction inside that angle.
function entersCorner(k: number, u: number, w: number, p: number): boolean {
    const s = sign(area(k, u, w));
    for (const q of [P[p], N[p]]) if (sign(area(k, u, q)) === s && sign(area(k, q, w)) === s) return true;
    // (u - k) + (w - k) points strictly into the ear's angle (less than 180°)
    const px = X[p],
        py = Y[p],
        dx = px + X[u] - X[k] + X[w] - X[k],
        dy = py + Y[u] - Y[k] + Y[w] - Y[k];
    const a = P[p],
        b = N[p];
    return area(a, p, b) < 0
        ? turn(px, py, dx, dy, X[b], Y[b]) > 0 && turn(px, py, X[a], Y[a], dx, dy) > 0
        : turn(px, py, dx, dy, X[a], Y[a]) < 0 || turn(px, py, X[b], Y[b], dx, dy) < 0;
}

function isEar(ear: number): boolean {
    const a = P[ear],
        c = N[ear];
    if (area(a, ear, c) >= 0) return false; // reflex or flat
    const x0 = Math.min(X[a], X[ear], X[c]),
        y0 = Math.min(Y[a], Y[ear], Y[c]),
        x1 = Math.max(X[a], X[ear], X[c]),
        y1 = Math.max(Y[a], Y[ear], Y[c]);
    // Every other node of the ring inside the ear's bounding box is within these z-order keys of the ear.
    const z0 = zOrder(x0, y0),
        z1 = zOrder(x1, y1);
    for (let p = PZ[ear]; p >= 0 && Z[p] >= z0; p = PZ[p]) if (p !== a && p !== c && blocks(ear, p)) return false;
    for (let p = NZ[ear]; p >= 0 && Z[p] <= z1; p = NZ[p]) if (p !== a && p !== c && blocks(ear, p)) return false;
    return true;
}

// Whether node p of the ring (not a corner of the ear) keeps the ear from being cut.
function blocks(ear: number, p: number): boolean {
    const a = P[ear],
        c = N[ear];
    const ax = X[a],
        bx = X[ear],
        cx = X[c],
        ay = Y[a],
        by = Y[ear],
        cy = Y[c],
        x = X[p],
        y = Y[p];
    if (x < Math.min(ax, bx, cx) || x > Math.max(ax, bx, cx) || y < Math.min(ay, by, cy) || y > Math.max(ay, by, cy))
        return false;
    // A second pass through a corner (a bridge end, or a vertex two rings share) must stay out of the ear.
    if (x === ax && y === ay) return entersCorner(a, ear, c, p);
    if (x === bx && y === by) return entersCorner(ear, c, a, p);
    if (x === cx && y === cy) return entersCorner(c, a, ear, p);
    // Only a reflex vertex can lie inside an ear of a simple ring.
    return pointInTriangle(ax, ay, bx, by, cx, cy, x, y) && area(P[p], p, N[p]) >= 0;
}

const sign = (v: number): number => (v > 0 ? 1 : v < 0 ? -1 : 0);
const onSegment = (p: number, q: number, r: number): boolean =>
    X[q] <= Math.max(X[p], X[r]) &&
    X[q] >= Math.min(X[p], X[r]) &&
    Y[q] <= Math.max(Y[p], Y[r]) &&
    Y[q] >= Math.min(Y[p], Y[r]);

function intersects(p1: number, q1: number, p2: number, q2: number): boolean {
    const o1 = sign(area(p1, q1, p2)),
        o2 = sign(area(p1, q1, q2)),
        o3 = sign(area(p2, q2, p1)),
        o4 = sign(area(p2, q2, q1));
    return (
        (o1 !== o2 && o3 !== o4) ||
        (o1 === 0 && onSegment(p1, p2, q1)) ||
        (o2 === 0 && onSegment(p1, q2, q1)) ||
        (o3 === 0 && onSegment(p2, p1, q2)) ||
        (o4 === 0 && onSegment(p2, q1, q2))
    );
}

function intersectsRing(a: number, b: number): boolean {
    let p = a;
    do {
        const q = N[p];
        if (I[p] !== I[a] && I[q] !== I[a] && I[p] !== I[b] && I[q] !== I[b] && intersects(p, q, a, b)) return true;
        p = q;
    } while (p !== a);
    return false;
}

// Whether the diagonal from a toward b starts inside the ring at a.
function locallyInside(a: number, b: number): boolean {
    return area(P[a], a, N[a]) < 0
        ? area(a, b, N[a]) >= 0 && area(a, P[a], b) >= 0
        : area(a, b, P[a]) < 0 || area(a, N[a], b) < 0;
}

function middleInside(a: number, b: number): boolean {
    let p = a,
        inside = false;
    const px = (X[a] + X[b]) / 2,
        py = (Y[a] + Y[b]) / 2;
    do {
        const q = N[p];
        if (Y[p] > py !== Y[q] > py && Y[q] !== Y[p] && px < ((X[q] - X[p]) * (py - Y[p])) / (Y[q] - Y[p]) + X[p])
            inside = !inside;
        p = q;
    } while (p !== a);
    return inside;
}

function isValidDiagonal(a: number, b: number): boolean {
    return (
        I[N[a]] !== I[b] &&
        I[P[a]] !== I[b] &&
        !intersectsRing(a, b) &&
        ((locallyInside(a, b) &&
            locallyInside(b, a) &&
            middleInside(a, b) &&
            (area(P[a], a, P[b]) !== 0 || area(a, P[b], b) !== 0)) ||
            (equals(a, b) && area(P[a], a, N[a]) > 0 && area(P[b], b, N[b]) > 0))
    );
}

// Joins a to b by a two-way bridge; returns the copy of b on the far side.
function split(a: number, b: number): number {
    const a2 = insert(I[a], X[a], Y[a], -1),
        b2 = insert(I[b], X[b], Y[b], -1),
        an = N[a],
        bp = P[b];
    N[a] = b;
    P[b] = a;
    N[a2] = an;
    P[an] = a2;
    N[b2] = a2;
    P[a2] = b2;
    N[bp] = b2;
    P[b2] = bp;
    C[a] = C[b] = C[an] = C[bp] = 0;
    if (touched) touched.push(a, b, an, bp);
    return b2;
}

function cureLocalIntersections(start: number, out: number[]): number {
    let p = start;
    do {
        const a = P[p],
            b = N[N[p]];
        if (!equals(a, b) && intersects(a, p, N[p], b) && locallyInside(a, b) && locallyInside(b, a)) {
            out.push(I[a], I[p], I[b]);
            remove(p);
            remove(N[p]);
            p = start = b;
        }
        p = N[p];
    } while (p !== start);
    return filter(p);
}

function splitEarcut(start: number, out: number[]): void {
    let a = start;
    do {
        for (let b = N[N[a]]; b !== P[a]; b = N[b]) {
            if (I[a] !== I[b] && isValidDiagonal(a, b)) {
                let c = split(a, b);
                a = filter(a, N[a]);
                c = filter(c, N[c]);
                clip(a, out, 0);
                clip(c, out, 0);
                return;
            }
        }
        a = N[a];
    } while (a !== start);
}

function clip(ear: number, out: number[], pass: number): void {
    if (pass === 0) zIndex(ear);
    let stop = ear;
    while (P[ear] !== N[ear]) {
        const prev = P[ear],
            next = N[ear];
        if (isEar(ear)) {
            out.push(I[prev], I[ear], I[next]);
            remove(ear);
            // skipping the next vertex gives fewer slivers
            ear = N[next];
            stop = ear;
            continue;
        }
        ear = next;
        if (ear === stop) {
            if (pass === 0) clip(filter(ear), out, 1);
            else if (pass === 1) clip(cureLocalIntersections(filter(ear), out), out, 2);
            else {
                // Cutting ears can leave spikes and repeated vertices behind: drop them and start over before splitting.
                const before = dropped;
                ear = filter(ear);
                if (dropped !== before) clip(ear, out, 0);
                else splitEarcut(ear, out);
            }
            break;
        }
    }
}

function bridgeOf(hole: number, outer: number): number {
    const hx = X[hole],
        hy = Y[hole];
    let p = outer,
        qx = -Infinity,
        m = -1;
    // the nearest edge left of the hole's leftmost vertex; its left end is the candidate, or the vertex hit
    if (equals(hole, p)) return p;
    do {
        const q = N[p];
        if (equals(hole, q)) return q;
        if (hy <= Y[p] && hy >= Y[q] && Y[q] !== Y[p]) {
            const x = X[p] + ((hy - Y[p]) * (X[q] - X[p])) / (Y[q] - Y[p]);
            if (x <= hx && x > qx) {
                qx = x;
                m = X[p] < X[q] ? p : q;
                if (x === hx) return m;
            }
        }
        p = q;
    } while (p !== outer);
    if (m < 0) return -1;
    // a reflex vertex inside the triangle (hole, hit, candidate) blocks it: take the one nearest the ray
    const stop = m,
        mx = X[m],
        my = Y[m];
    let tanMin = Infinity;
    p = m;
    do {
        if (
            hx >= X[p] &&
            X[p] >= mx &&
            hx !== X[p] &&
            pointInTriangle(hy < my ? hx : qx, hy, mx, my, hy < my ? qx : hx, hy, X[p], Y[p])
        ) {
            const tan = Math.abs(hy - Y[p]) / (hx - X[p]);
            if (
                locallyInside(p, hole) &&
                (tan < tanMin ||
                    (tan === tanMin &&
                        (X[p] > X[m] || (X[p] === X[m] && area(P[m], m, P[p]) < 0 && area(N[p], m, N[m]) < 0))))
            ) {
                m = p;
                tanMin = tan;
            }
        }
        p = N[p];
    } while (p !== stop);
    return m;
}

/**
 * Triangles (source vertex indices, outer-ring orientation) of the polygon whose rings are vertices
 * `rings[k] .. rings[k + 1] - 1` of `xy`: ring 0 the outer ring, the others holes.
 */
export function triangulate(xy: ArrayLike<number>, rings: ArrayLike<number>): number[] {
    const nr = rings.length - 1,
        n = rings[nr];
    reserve(n + 2 * nr + 2);
    used = 0;
    const out: number[] = [];
    zOrderBox(xy, n);
    const { pointOf, count } = numberPoints(xy, n);
    const outer = markShared(ring(xy, rings[0], rings[1], true), pointOf, count);
    if (outer < 0 || N[outer] === P[outer]) return out;
    clip(joinHoles(xy, rings, outer, pointOf, count), out, 0);
    return out;
}

// The quantisation of the z-order keys: the bounding box of the first n vertices of xy.
function zOrderBox(xy: ArrayLike<number>, n: number): void {
    let x0 = Infinity,
        y0 = Infinity,
        x1 = -Infinity,
        y1 = -Infinity;
    for (let i = 0; i < n; i++) {
        x0 = Math.min(x0, xy[2 * i]);
        x1 = Math.max(x1, xy[2 * i]);
        y0 = Math.min(y0, xy[2 * i + 1]);
        y1 = Math.max(y1, xy[2 * i + 1]);
    }
    zx = x0;
    zy = y0;
    zs = x1 - x0 > 0 || y1 - y0 > 0 ? 32767 / Math.max(x1 - x0, y1 - y0) : 0;
}

// Points numbered (vertices at the same point share a number): `pointOf` per vertex, and `count` per point how
// many vertices are there.
function numberPoints(xy: ArrayLike<number>, n: number): { pointOf: Int32Array; count: number[] } {
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

// Marks (T) the nodes of the ring at `start` (if any) at points where rings touch, before any filtering can
// drop a straight pass through one; returns `start`.
function markShared(start: number, pointOf: Int32Array, count: number[]): number {
    if (start >= 0) {
        let p = start;
        do {
            if (count[pointOf[I[p]]] > 1) T[p] = 1;
            p = N[p];
        } while (p !== start);
    }
    return start;
}

// Joins every hole (rings 1.. of `rings`) into the outer ring at `outer`; returns a node of the joined ring.
// Holes that touch the outer ring (or a hole already joined) at a vertex are spliced in at that vertex,
// into the pass of the ring whose inside holds the hole's edges: a bridge elsewhere would leave two
// passes through the point with overlapping insides, and ears cut across the hole. The others get a
// bridge to the left (Eberly), leftmost first.
function joinHoles(
    xy: ArrayLike<number>,
    rings: ArrayLike<number>,
    outer: number,
    pointOf: Int32Array,
    count: number[]
): number {
    const point = (p: number): number => pointOf[I[p]];
    // The joined ring's nodes at each point.
    const at: (number[] | undefined)[] = new Array(count.length);
    const add = (p: number): void => {
        const list = at[point(p)];
        if (list) {
            list.push(p);
            for (const q of list) T[q] = 1;
        } else at[point(p)] = [p];
        touched?.push(p);
    };
    const index = (start: number): void => {
        let p = start;
        do {
            add(p);
            p = N[p];
        } while (p !== start);
    };
    const live = (p: number): boolean => N[P[p]] === p && P[N[p]] === p;
    index(outer);
    const { holes, shared, holesAt } = collectHoles(xy, rings, pointOf, count);
    const lefts = holes.map(h0 => {
        let left = h0;
        for (let p = N[h0]; p !== h0; p = N[p]) if (X[p] < X[left] || (X[p] === X[left] && Y[p] < Y[left])) left = p;
        return left;
    });
    // the order in which holes get a bridge to the left (Eberly): leftmost first, then topmost, then in order
    const leftOrder = holes
        .map((_, j) => j)
        .sort((j, k) => X[lefts[j]] - X[lefts[k]] || Y[lefts[j]] - Y[lefts[k]] || j - k);
    const pending = new Uint8Array(holes.length).fill(1),
        queued = new Uint8Array(holes.length).fill(1);
    // Holes to look at again (every one at first), smallest index first: a min-heap.
    const heap = holes.map((_, j) => j);
    // A hole is looked at again only when the joined ring changed at one of its points: links of a
    // node there changed, or a node was added there.
    const requeue = (): void => {
        for (const p of touched!) {
            for (const j of holesAt[point(p)] ?? [])
                if (pending[j] && !queued[j]) {
                    queued[j] = 1;
                    heapPush(heap, j);
                }
        }
        touched!.length = 0;
    };
    const join = (o: number, h: number): void => {
        index(h);
        const rev = split(o, h);
        add(rev);
        add(N[rev]);
        filter(rev, N[rev]);
        outer = filter(o, N[o]);
        requeue();
    };
    touched = [];
    try {
        for (let next = 0; ;) {
            // The first hole in order that touches the joined ring where a splice fits is spliced in, until none does.
            while (heap.length) {
                const j = heapPop(heap);
                queued[j] = 0;
                if (!pending[j]) continue;
                for (const h of shared[j]) {
                    const o = at[point(h)]?.find(o => live(o) && locallyInside(o, N[h]) && locallyInside(o, P[h]));
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
        touched = null;
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
            if (T[h]) {
                mine.push(h);
                (holesAt[pointOf[I[h]]] ??= []).push(j);
            }
            h = N[h];
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
