// The triangulation's rings and every loop that walks them many times: nodes in typed arrays kept between calls,
// doubly linked into rings and, while a ring is clipped, into a z-order list; the edits on them (insert, remove,
// filter, split), the ear clipping, and the bridge search of the holes. They share one file because a call or a
// variable read across modules becomes a getter call under module transforms (tsx, CommonJS test runners):
// with the ears and the bridges in files of their own, triangulation ran 6-7x slower there.

// The node arrays and counters, in one object that only this file replaces fields of; triangulate-holes.ts and
// triangulate.ts read them through it (once per ring or hole, not per ear).
/** @internal */
export const R = {
    // Node fields: coordinates, source vertex index, ring links.
    X: new Float64Array(0),
    Y: new Float64Array(0),
    I: new Int32Array(0),
    N: new Int32Array(0),
    P: new Int32Array(0),
    // 1 where another node of the ring has the same point (a vertex two rings share): kept when flat.
    T: new Uint8Array(0),
    // 1 where filter found the node to stay and its links have not changed since: filter passes it unchecked.
    C: new Uint8Array(0),
    // z-order key and z-order list links (-1: none) of the ring being clipped.
    Z: new Int32Array(0),
    PZ: new Int32Array(0),
    NZ: new Int32Array(0),
    used: 0,
    dropped: 0,
    // Quantisation of the polygon's bounding box for z-order keys: (x − zx) · zs in 0..32767.
    zx: 0,
    zy: 0,
    zs: 0,
    // While holes are joined: nodes whose links changed (their points' pending holes are looked at again).
    touched: null as number[] | null
};

// Grows the node arrays (kept between calls) to hold n nodes.
function reserve(n: number): void {
    if (R.X.length >= n) return;
    n = Math.max(n, 2 * R.X.length);
    const x = new Float64Array(n),
        y = new Float64Array(n),
        t = new Uint8Array(n),
        c = new Uint8Array(n);
    const grow = (a: Int32Array) => {
        const b = new Int32Array(n);
        b.set(a);
        return b;
    };
    x.set(R.X);
    y.set(R.Y);
    t.set(R.T);
    c.set(R.C);
    R.X = x;
    R.Y = y;
    R.T = t;
    R.C = c;
    R.I = grow(R.I);
    R.N = grow(R.N);
    R.P = grow(R.P);
    R.Z = grow(R.Z);
    R.PZ = grow(R.PZ);
    R.NZ = grow(R.NZ);
}

// Empties the node arrays, grown to hold n nodes.
export function reset(n: number): void {
    reserve(n);
    R.used = 0;
}

// Starts (a list) or stops (null) recording the nodes whose links change.
export function track(list: number[] | null): void {
    R.touched = list;
}

function insert(i: number, x: number, y: number, last: number): number {
    if (R.used === R.X.length) reserve(R.used + 64);
    const p = R.used++;
    R.I[p] = i;
    R.X[p] = x;
    R.Y[p] = y;
    R.T[p] = 0;
    R.C[p] = 0;
    R.PZ[p] = -1;
    R.NZ[p] = -1;
    if (last < 0) {
        R.P[p] = p;
        R.N[p] = p;
    } else {
        R.C[last] = R.C[R.N[last]] = 0;
        R.N[p] = R.N[last];
        R.P[p] = last;
        R.P[R.N[last]] = p;
        R.N[last] = p;
    }
    return p;
}

export function remove(p: number): void {
    R.N[R.P[p]] = R.N[p];
    R.P[R.N[p]] = R.P[p];
    R.C[R.P[p]] = R.C[R.N[p]] = 0;
    if (R.PZ[p] >= 0) R.NZ[R.PZ[p]] = R.NZ[p];
    if (R.NZ[p] >= 0) R.PZ[R.NZ[p]] = R.PZ[p];
    if (R.touched) R.touched.push(R.P[p], p, R.N[p]);
}

// Morton code of a point: the bits of its quantised x and y interleaved, so that a box's points have codes
// between those of its corners.
export function zOrder(x: number, y: number): number {
    let a = ((x - R.zx) * R.zs) | 0,
        b = ((y - R.zy) * R.zs) | 0;
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
        R.Z[p] = zOrder(R.X[p], R.Y[p]);
        n++;
        p = R.N[p];
    } while (p !== start);
    const order = new Int32Array(n);
    for (let k = 0; k < n; k++, p = R.N[p]) order[k] = p;
    order.sort((u, v) => R.Z[u] - R.Z[v]);
    for (let k = 0; k < n; k++) {
        R.PZ[order[k]] = k > 0 ? order[k - 1] : -1;
        R.NZ[order[k]] = k + 1 < n ? order[k + 1] : -1;
    }
}

// Twice the signed area of triangle pqr, negative where pqr turns the way the outer ring does.
export function area(p: number, q: number, r: number): number {
    return (R.Y[q] - R.Y[p]) * (R.X[r] - R.X[q]) - (R.X[q] - R.X[p]) * (R.Y[r] - R.Y[q]);
}

export const equals = (a: number, b: number): boolean => R.X[a] === R.X[b] && R.Y[a] === R.Y[b];

// A ring of source vertices start..end-1 with A > 0 for the outer ring (positive) and A < 0 for holes.
export function ring(xy: ArrayLike<number>, start: number, end: number, positive: boolean): number {
    let a = 0;
    for (let i = start, j = end - 1; i < end; j = i++) a += xy[2 * j] * xy[2 * i + 1] - xy[2 * i] * xy[2 * j + 1];
    let last = -1;
    if (positive === a > 0) for (let i = start; i < end; i++) last = insert(i, xy[2 * i], xy[2 * i + 1], last);
    else for (let i = end - 1; i >= start; i--) last = insert(i, xy[2 * i], xy[2 * i + 1], last);
    if (last >= 0 && equals(last, R.N[last])) {
        remove(last);
        last = R.N[last];
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
        const a = R.P[p],
            b = R.N[p];
        if (
            !R.C[p] &&
            (equals(p, b) ||
                (area(a, p, b) === 0 &&
                    !(R.T[p] && (R.X[a] - R.X[p]) * (R.X[b] - R.X[p]) + (R.Y[a] - R.Y[p]) * (R.Y[b] - R.Y[p]) < 0)))
        ) {
            remove(p);
            R.dropped++;
            p = end = R.P[p];
            if (p === R.N[p]) break;
            again = true;
        } else {
            // it stays until its links change (marking it T only ever keeps more)
            R.C[p] = 1;
            p = R.N[p];
        }
    } while (again || p !== end);
    return end;
}

// Joins a to b by a two-way bridge; returns the copy of b on the far side.
export function split(a: number, b: number): number {
    const a2 = insert(R.I[a], R.X[a], R.Y[a], -1),
        b2 = insert(R.I[b], R.X[b], R.Y[b], -1),
        an = R.N[a],
        bp = R.P[b];
    R.N[a] = b;
    R.P[b] = a;
    R.N[a2] = an;
    R.P[an] = a2;
    R.N[b2] = a2;
    R.P[a2] = b2;
    R.N[bp] = b2;
    R.P[b2] = bp;
    R.C[a] = R.C[b] = R.C[an] = R.C[bp] = 0;
    if (R.touched) R.touched.push(a, b, an, bp);
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
    R.zx = x0;
    R.zy = y0;
    R.zs = x1 - x0 > 0 || y1 - y0 > 0 ? 32767 / Math.max(x1 - x0, y1 - y0) : 0;
}

// Ear clipping: ears cut greedily, looked for among the nodes near each ear (the z-order list), then two
// repair passes (cure local self-intersections, split the ring along a valid diagonal).

export function pointInTriangle(
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
    for (const q of [R.P[p], R.N[p]]) if (sign(area(k, u, q)) === s && sign(area(k, q, w)) === s) return true;
    // (u - k) + (w - k) points strictly into the ear's angle (less than 180°)
    const px = R.X[p],
        py = R.Y[p],
        dx = px + R.X[u] - R.X[k] + R.X[w] - R.X[k],
        dy = py + R.Y[u] - R.Y[k] + R.Y[w] - R.Y[k];
    const a = R.P[p],
        b = R.N[p];
    return area(a, p, b) < 0
        ? turn(px, py, dx, dy, R.X[b], R.Y[b]) > 0 && turn(px, py, R.X[a], R.Y[a], dx, dy) > 0
        : turn(px, py, dx, dy, R.X[a], R.Y[a]) < 0 || turn(px, py, R.X[b], R.Y[b], dx, dy) < 0;
}

function isEar(ear: number): boolean {
    const a = R.P[ear],
        c = R.N[ear];
    if (area(a, ear, c) >= 0) return false; // reflex or flat
    const x0 = Math.min(R.X[a], R.X[ear], R.X[c]),
        y0 = Math.min(R.Y[a], R.Y[ear], R.Y[c]),
        x1 = Math.max(R.X[a], R.X[ear], R.X[c]),
        y1 = Math.max(R.Y[a], R.Y[ear], R.Y[c]);
    // Every other node of the ring inside the ear's bounding box is within these z-order keys of the ear.
    const z0 = zOrder(x0, y0),
        z1 = zOrder(x1, y1);
    for (let p = R.PZ[ear]; p >= 0 && R.Z[p] >= z0; p = R.PZ[p]) if (p !== a && p !== c && blocks(ear, p)) return false;
    for (let p = R.NZ[ear]; p >= 0 && R.Z[p] <= z1; p = R.NZ[p]) if (p !== a && p !== c && blocks(ear, p)) return false;
    return true;
}

// Whether node p of the ring (not a corner of the ear) keeps the ear from being cut.
function blocks(ear: number, p: number): boolean {
    const a = R.P[ear],
        c = R.N[ear];
    const ax = R.X[a],
        bx = R.X[ear],
        cx = R.X[c],
        ay = R.Y[a],
        by = R.Y[ear],
        cy = R.Y[c],
        x = R.X[p],
        y = R.Y[p];
    if (x < Math.min(ax, bx, cx) || x > Math.max(ax, bx, cx) || y < Math.min(ay, by, cy) || y > Math.max(ay, by, cy))
        return false;
    // A second pass through a corner (a bridge end, or a vertex two rings share) must stay out of the ear.
    if (x === ax && y === ay) return entersCorner(a, ear, c, p);
    if (x === bx && y === by) return entersCorner(ear, c, a, p);
    if (x === cx && y === cy) return entersCorner(c, a, ear, p);
    // Only a reflex vertex can lie inside an ear of a simple ring.
    return pointInTriangle(ax, ay, bx, by, cx, cy, x, y) && area(R.P[p], p, R.N[p]) >= 0;
}

const sign = (v: number): number => (v > 0 ? 1 : v < 0 ? -1 : 0);
const onSegment = (p: number, q: number, r: number): boolean =>
    R.X[q] <= Math.max(R.X[p], R.X[r]) &&
    R.X[q] >= Math.min(R.X[p], R.X[r]) &&
    R.Y[q] <= Math.max(R.Y[p], R.Y[r]) &&
    R.Y[q] >= Math.min(R.Y[p], R.Y[r]);

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
        const q = R.N[p];
        if (R.I[p] !== R.I[a] && R.I[q] !== R.I[a] && R.I[p] !== R.I[b] && R.I[q] !== R.I[b] && intersects(p, q, a, b))
            return true;
        p = q;
    } while (p !== a);
    return false;
}

// Whether the diagonal from a toward b starts inside the ring at a.
export function locallyInside(a: number, b: number): boolean {
    return area(R.P[a], a, R.N[a]) < 0
        ? area(a, b, R.N[a]) >= 0 && area(a, R.P[a], b) >= 0
        : area(a, b, R.P[a]) < 0 || area(a, R.N[a], b) < 0;
}

function middleInside(a: number, b: number): boolean {
    let p = a,
        inside = false;
    const px = (R.X[a] + R.X[b]) / 2,
        py = (R.Y[a] + R.Y[b]) / 2;
    do {
        const q = R.N[p];
        if (
            R.Y[p] > py !== R.Y[q] > py &&
            R.Y[q] !== R.Y[p] &&
            px < ((R.X[q] - R.X[p]) * (py - R.Y[p])) / (R.Y[q] - R.Y[p]) + R.X[p]
        )
            inside = !inside;
        p = q;
    } while (p !== a);
    return inside;
}

function isValidDiagonal(a: number, b: number): boolean {
    return (
        R.I[R.N[a]] !== R.I[b] &&
        R.I[R.P[a]] !== R.I[b] &&
        !intersectsRing(a, b) &&
        ((locallyInside(a, b) &&
            locallyInside(b, a) &&
            middleInside(a, b) &&
            (area(R.P[a], a, R.P[b]) !== 0 || area(a, R.P[b], b) !== 0)) ||
            (equals(a, b) && area(R.P[a], a, R.N[a]) > 0 && area(R.P[b], b, R.N[b]) > 0))
    );
}

function cureLocalIntersections(start: number, out: number[]): number {
    let p = start;
    do {
        const a = R.P[p],
            b = R.N[R.N[p]];
        if (!equals(a, b) && intersects(a, p, R.N[p], b) && locallyInside(a, b) && locallyInside(b, a)) {
            out.push(R.I[a], R.I[p], R.I[b]);
            remove(p);
            remove(R.N[p]);
            p = start = b;
        }
        p = R.N[p];
    } while (p !== start);
    return filter(p);
}

function splitEarcut(start: number, out: number[]): void {
    let a = start;
    do {
        for (let b = R.N[R.N[a]]; b !== R.P[a]; b = R.N[b]) {
            if (R.I[a] !== R.I[b] && isValidDiagonal(a, b)) {
                let c = split(a, b);
                a = filter(a, R.N[a]);
                c = filter(c, R.N[c]);
                clip(a, out, 0);
                clip(c, out, 0);
                return;
            }
        }
        a = R.N[a];
    } while (a !== start);
}

export function clip(ear: number, out: number[], pass: number): void {
    if (pass === 0) zIndex(ear);
    let stop = ear;
    while (R.P[ear] !== R.N[ear]) {
        const prev = R.P[ear],
            next = R.N[ear];
        if (isEar(ear)) {
            out.push(R.I[prev], R.I[ear], R.I[next]);
            remove(ear);
            // skipping the next vertex gives fewer slivers
            ear = R.N[next];
            stop = ear;
            continue;
        }
        ear = next;
        if (ear === stop) {
            if (pass === 0) clip(filter(ear), out, 1);
            else if (pass === 1) clip(cureLocalIntersections(filter(ear), out), out, 2);
            else {
                // Cutting ears can leave spikes and repeated vertices behind: drop them and start over before
                // splitting.
                const before = R.dropped;
                ear = filter(ear);
                if (R.dropped !== before) clip(ear, out, 0);
                else splitEarcut(ear, out);
            }
            break;
        }
    }
}

// The end of the bridge to the left (Eberly) from a hole's leftmost node `hole` into the ring at `outer`, or -1.
export function bridgeOf(hole: number, outer: number): number {
    const hx = R.X[hole],
        hy = R.Y[hole];
    let p = outer,
        qx = -Infinity,
        m = -1;
    // the nearest edge left of the hole's leftmost vertex; its left end is the candidate, or the vertex hit
    if (equals(hole, p)) return p;
    do {
        const q = R.N[p];
        if (equals(hole, q)) return q;
        if (hy <= R.Y[p] && hy >= R.Y[q] && R.Y[q] !== R.Y[p]) {
            const x = R.X[p] + ((hy - R.Y[p]) * (R.X[q] - R.X[p])) / (R.Y[q] - R.Y[p]);
            if (x <= hx && x > qx) {
                qx = x;
                m = R.X[p] < R.X[q] ? p : q;
                if (x === hx) return m;
            }
        }
        p = q;
    } while (p !== outer);
    if (m < 0) return -1;
    // a reflex vertex inside the triangle (hole, hit, candidate) blocks it: take the one nearest the ray
    const stop = m,
        mx = R.X[m],
        my = R.Y[m];
    let tanMin = Infinity;
    p = m;
    do {
        if (
            hx >= R.X[p] &&
            R.X[p] >= mx &&
            hx !== R.X[p] &&
            pointInTriangle(hy < my ? hx : qx, hy, mx, my, hy < my ? qx : hx, hy, R.X[p], R.Y[p])
        ) {
            const tan = Math.abs(hy - R.Y[p]) / (hx - R.X[p]);
            if (
                locallyInside(p, hole) &&
                (tan < tanMin ||
                    (tan === tanMin &&
                        (R.X[p] > R.X[m] ||
                            (R.X[p] === R.X[m] && area(R.P[m], m, R.P[p]) < 0 && area(R.N[p], m, R.N[m]) < 0))))
            ) {
                m = p;
                tanMin = tan;
            }
        }
        p = R.N[p];
    } while (p !== stop);
    return m;
}

// Marks (T) the nodes of the ring at `start` (if any) at points where rings touch, before any filtering can
// drop a straight pass through one; returns `start`.
export function markShared(start: number, pointOf: Int32Array, count: number[]): number {
    if (start >= 0) {
        let p = start;
        do {
            if (count[pointOf[R.I[p]]] > 1) R.T[p] = 1;
            p = R.N[p];
        } while (p !== start);
    }
    return start;
}
