// The triangulation's rings: nodes in typed arrays kept between calls, doubly linked into rings and, while
// a ring is clipped, into a z-order list; the edits on them (insert, remove, filter, split) and the geometry
// every step reads (area, equals). The other triangulate-*.ts files read the arrays through live bindings
// (imports) and only this file assigns them: reset() and track() set what they may not.

// Node fields: coordinates, source vertex index, ring links.
export let X = new Float64Array(0),
    Y = new Float64Array(0);
export let I = new Int32Array(0),
    N = new Int32Array(0),
    P = new Int32Array(0);
// 1 where another node of the ring has the same point (a vertex two rings share): kept when flat.
export let T = new Uint8Array(0);
// 1 where filter found the node to stay and its links have not changed since: filter passes it unchecked.
let C = new Uint8Array(0);
// z-order key and z-order list links (-1: none) of the ring being clipped.
export let Z = new Int32Array(0),
    PZ = new Int32Array(0),
    NZ = new Int32Array(0);
let used = 0;
export let dropped = 0;
// Quantisation of the polygon's bounding box for z-order keys: (x − zx) · zs in 0..32767.
let zx = 0,
    zy = 0,
    zs = 0;
// While holes are joined: nodes whose links changed (their points' pending holes are looked at again).
export let touched: number[] | null = null;

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

// Empties the node arrays, grown to hold n nodes.
export function reset(n: number): void {
    reserve(n);
    used = 0;
}

// Starts (a list) or stops (null) recording the nodes whose links change.
export function track(list: number[] | null): void {
    touched = list;
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

export function remove(p: number): void {
    N[P[p]] = N[p];
    P[N[p]] = P[p];
    C[P[p]] = C[N[p]] = 0;
    if (PZ[p] >= 0) NZ[PZ[p]] = NZ[p];
    if (NZ[p] >= 0) PZ[NZ[p]] = PZ[p];
    if (touched) touched.push(P[p], p, N[p]);
}

// Morton code of a point: the bits of its quantised x and y interleaved, so that a box's points have codes
// between those of its corners.
export function zOrder(x: number, y: number): number {
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
export function zIndex(start: number): void {
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
export function area(p: number, q: number, r: number): number {
    return (Y[q] - Y[p]) * (X[r] - X[q]) - (X[q] - X[p]) * (Y[r] - Y[q]);
}

export const equals = (a: number, b: number): boolean => X[a] === X[b] && Y[a] === Y[b];

// A ring of source vertices start..end-1 with A > 0 for the outer ring (positive) and A < 0 for holes.
export function ring(xy: ArrayLike<number>, start: number, end: number, positive: boolean): number {
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
export function filter(start: number, end = start): number {
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

// Joins a to b by a two-way bridge; returns the copy of b on the far side.
export function split(a: number, b: number): number {
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

// The quantisation of the z-order keys: the bounding box of the first n vertices of xy.
export function zOrderBox(xy: ArrayLike<number>, n: number): void {
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
