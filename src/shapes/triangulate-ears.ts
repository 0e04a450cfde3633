// Ear clipping: ears cut greedily, looked for among the nodes near each ear (the z-order list), then two
// repair passes (cure local self-intersections, split the ring along a valid diagonal).
import {
    area,
    dropped,
    equals,
    filter,
    I,
    N,
    NZ,
    P,
    PZ,
    remove,
    split,
    X,
    Y,
    Z,
    zIndex,
    zOrder
} from './triangulate-ring.js';

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
export function locallyInside(a: number, b: number): boolean {
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

export function clip(ear: number, out: number[], pass: number): void {
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
