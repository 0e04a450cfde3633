// Topology-preserving Douglas–Peucker on traced rings. Kept vertices are a subset of the exact ones, so
// every simplified vertex lies on the exact boundary; every dropped vertex lies within `tolerance` of the
// segment that replaces it. Vertices shared by two rings are always kept. A shortcut is refined (its
// chain split at the farthest vertex and simplified again) while it touches another segment, crosses
// another ring at a shared vertex, passes over a vertex of another ring, or flips its ring: at worst a
// ring goes back to its exact edges, which satisfy all of these.
//
// Vertices are indices into the traced `xy`; `keep[v]` is 1 for the vertices kept so far, and the
// shortcut (segment) from kept vertex v to the next kept vertex of its ring is named by v.
import type { Traced } from './trace.js';

/** Simplified copy of traced rings; every vertex within `tolerance` of the exact boundary both ways. */
export function simplify(t: Traced, tolerance: number): Traced {
    const { xy, start, rings, shared } = t,
        nv = start[rings];
    const keep = new Uint8Array(nv),
        ringOf = new Int32Array(nv);
    const tol2 = tolerance * tolerance;
    for (let r = 0; r < rings; r++) simplifyRing(xy, start, shared, keep, ringOf, r, tol2);
    const grid = makeGrid(xy, nv, tolerance);
    const stamp = new Int32Array(nv).fill(-1);
    const bad = new Uint8Array(nv); // shortcut starting at v must be refined
    for (;;) {
        indexSegments(xy, start, keep, ringOf, grid);
        bad.fill(0);
        // Shortcuts refined in the last round are new segments: every pair is compared again.
        stamp.fill(-1);
        markClashes(xy, start, keep, ringOf, grid, stamp, bad);
        markCrossings(xy, start, shared, keep, ringOf, grid, bad);
        markFlips(xy, start, t.area2, keep, ringOf, bad);
        if (!refineMarked(xy, start, keep, ringOf, bad, tol2)) break;
    }
    return keptRings(t, keep);
}

// ---- rings -------------------------------------------------------------------------------------

// Ring-relative index arithmetic: vertex i + d within ring r.
function step(start: Int32Array, r: number, i: number, d: number): number {
    const s = start[r],
        n = start[r + 1] - s;
    return s + ((((i - s + d) % n) + n) % n);
}

function nextKept(start: Int32Array, keep: Uint8Array, r: number, i: number): number {
    let k = step(start, r, i, 1);
    while (!keep[k]) k = step(start, r, k, 1);
    return k;
}

function prevKept(start: Int32Array, keep: Uint8Array, r: number, i: number): number {
    let k = step(start, r, i, -1);
    while (!keep[k]) k = step(start, r, k, -1);
    return k;
}

// Squared distance from vertex k to segment ab.
function dist2(xy: Int32Array, k: number, a: number, b: number): number {
    const ax = xy[2 * a],
        ay = xy[2 * a + 1],
        dx = xy[2 * b] - ax,
        dy = xy[2 * b + 1] - ay,
        px = xy[2 * k] - ax,
        py = xy[2 * k + 1] - ay;
    const l2 = dx * dx + dy * dy;
    let u = l2 > 0 ? (px * dx + py * dy) / l2 : 0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    const ex = px - u * dx,
        ey = py - u * dy;
    return ex * ex + ey * ey;
}

// The vertex of ring r strictly between a and b farthest from segment ab (the first of equals), or -1 for none.
function farthest(xy: Int32Array, start: Int32Array, r: number, a: number, b: number): number {
    let best = -1,
        d = -1;
    for (let k = step(start, r, a, 1); k !== b; k = step(start, r, k, 1)) {
        const e = dist2(xy, k, a, b);
        if (e > d) {
            d = e;
            best = k;
        }
    }
    return best;
}

// Douglas–Peucker on the chain strictly between kept vertices a and b of ring r.
function dp(xy: Int32Array, start: Int32Array, keep: Uint8Array, tol2: number, r: number, a: number, b: number): void {
    const stack = [a, b];
    while (stack.length) {
        const j = stack.pop()!,
            i = stack.pop()!;
        if (step(start, r, i, 1) === j) continue;
        const k = farthest(xy, start, r, i, j);
        if (dist2(xy, k, i, j) > tol2) {
            keep[k] = 1;
            stack.push(i, k, k, j);
        }
    }
}

// The first simplification of ring r, on its own: its shared vertices, its first vertex and the one farthest
// from it are kept, the chains between them simplified, and at least a triangle kept.
function simplifyRing(
    xy: Int32Array,
    start: Int32Array,
    shared: Uint8Array,
    keep: Uint8Array,
    ringOf: Int32Array,
    r: number,
    tol2: number
): void {
    const s = start[r],
        e = start[r + 1];
    for (let v = s; v < e; v++) {
        ringOf[v] = r;
        if (shared[v]) keep[v] = 1;
    }
    keep[s] = 1;
    let far = s,
        d = -1;
    for (let v = s + 1; v < e; v++) {
        const dd = (xy[2 * v] - xy[2 * s]) ** 2 + (xy[2 * v + 1] - xy[2 * s + 1]) ** 2;
        if (dd > d) {
            d = dd;
            far = v;
        }
    }
    keep[far] = 1;
    for (let v = s, a = s; ;) {
        const b = nextKept(start, keep, r, v);
        dp(xy, start, keep, tol2, r, a, b);
        if (b === s) break;
        v = a = b;
    }
    // at least a triangle: the vertex farthest from the line through the two kept ones
    let count = 0;
    for (let v = s; v < e; v++) count += keep[v];
    if (count < 3) {
        const k1 = farthest(xy, start, r, s, far),
            k2 = farthest(xy, start, r, far, s);
        keep[k2 < 0 || (k1 >= 0 && dist2(xy, k1, s, far) >= dist2(xy, k2, far, s)) ? k1 : k2] = 1;
    }
}

// Splits the shortcut of every marked vertex at its chain's farthest vertex and simplifies both halves again;
// returns whether any was marked.
function refineMarked(
    xy: Int32Array,
    start: Int32Array,
    keep: Uint8Array,
    ringOf: Int32Array,
    bad: Uint8Array,
    tol2: number
): boolean {
    let any = false;
    for (let v = 0; v < bad.length; v++) {
        if (!bad[v]) continue;
        any = true;
        const r = ringOf[v],
            w = nextKept(start, keep, r, v),
            k = farthest(xy, start, r, v, w);
        keep[k] = 1;
        dp(xy, start, keep, tol2, r, v, k);
        dp(xy, start, keep, tol2, r, k, w);
    }
    return any;
}

// Marks the shortcut starting at kept vertex v for refinement, unless it is an exact edge already.
function mark(start: Int32Array, keep: Uint8Array, ringOf: Int32Array, bad: Uint8Array, v: number): void {
    if (step(start, ringOf[v], v, 1) !== nextKept(start, keep, ringOf[v], v)) bad[v] = 1;
}

// The simplified rings: the kept vertices in ring order, with their areas recomputed.
function keptRings(t: Traced, keep: Uint8Array): Traced {
    const { xy, start, rings, shared } = t,
        nv = start[rings];
    let n = 0;
    for (let v = 0; v < nv; v++) n += keep[v];
    const out = new Int32Array(2 * n),
        sh = new Uint8Array(n),
        st = new Int32Array(rings + 1),
        area2 = new Float64Array(rings);
    let k = 0;
    for (let r = 0; r < rings; r++) {
        st[r] = k;
        for (let v = start[r]; v < start[r + 1]; v++) {
            if (!keep[v]) continue;
            out[2 * k] = xy[2 * v];
            out[2 * k + 1] = xy[2 * v + 1];
            sh[k] = shared[v];
            k++;
        }
        let a = 0;
        for (let i = st[r], j = k - 1; i < k; j = i++) a += out[2 * j] * out[2 * i + 1] - out[2 * i] * out[2 * j + 1];
        area2[r] = a;
    }
    st[rings] = k;
    return { xy: out, start: st, label: t.label, area2, shared: sh, rings, components: t.components };
}

// ---- geometry (exact: integer coordinates) -----------------------------------------------------

const sgn = (v: number): number => (v > 0 ? 1 : v < 0 ? -1 : 0);

function orient(xy: Int32Array, a: number, b: number, c: number): number {
    return sgn(
        (xy[2 * b] - xy[2 * a]) * (xy[2 * c + 1] - xy[2 * a + 1]) -
            (xy[2 * b + 1] - xy[2 * a + 1]) * (xy[2 * c] - xy[2 * a])
    );
}

// Whether c lies in the bounding box of segment ab.
function on(xy: Int32Array, a: number, b: number, c: number): boolean {
    const ax = xy[2 * a],
        ay = xy[2 * a + 1],
        bx = xy[2 * b],
        by = xy[2 * b + 1],
        cx = xy[2 * c],
        cy = xy[2 * c + 1];
    return Math.min(ax, bx) <= cx && cx <= Math.max(ax, bx) && Math.min(ay, by) <= cy && cy <= Math.max(ay, by);
}

function same(xy: Int32Array, a: number, b: number): boolean {
    return xy[2 * a] === xy[2 * b] && xy[2 * a + 1] === xy[2 * b + 1];
}

// Whether closed segments ab and cd meet anywhere but at one common endpoint (without overlapping beyond it).
function clash(xy: Int32Array, a: number, b: number, c: number, d: number): boolean {
    const o1 = orient(xy, a, b, c),
        o2 = orient(xy, a, b, d),
        o3 = orient(xy, c, d, a),
        o4 = orient(xy, c, d, b);
    const touch =
        (o1 * o2 < 0 && o3 * o4 < 0) ||
        (o1 === 0 && on(xy, a, b, c)) ||
        (o2 === 0 && on(xy, a, b, d)) ||
        (o3 === 0 && on(xy, c, d, a)) ||
        (o4 === 0 && on(xy, c, d, b));
    if (!touch) return false;
    let p = -1,
        q = -1,
        u = -1;
    if (same(xy, a, c)) {
        p = a;
        q = b;
        u = d;
    } else if (same(xy, a, d)) {
        p = a;
        q = b;
        u = c;
    } else if (same(xy, b, c)) {
        p = b;
        q = a;
        u = d;
    } else if (same(xy, b, d)) {
        p = b;
        q = a;
        u = c;
    }
    if (p < 0) return true;
    if ((same(xy, a, c) && same(xy, b, d)) || (same(xy, a, d) && same(xy, b, c))) return true;
    const qx = xy[2 * q] - xy[2 * p],
        qy = xy[2 * q + 1] - xy[2 * p + 1],
        ux = xy[2 * u] - xy[2 * p],
        uy = xy[2 * u + 1] - xy[2 * p + 1];
    return qx * uy - qy * ux === 0 && qx * ux + qy * uy > 0;
}

// Whether point v is strictly inside the region between ring r's chain a..b and the shortcut, or on the shortcut.
function over(xy: Int32Array, start: Int32Array, r: number, a: number, b: number, v: number): boolean {
    if (same(xy, v, a) || same(xy, v, b)) return false;
    if (orient(xy, a, b, v) === 0 && on(xy, a, b, v)) return true;
    const px = xy[2 * v],
        py = xy[2 * v + 1];
    let inside = false;
    for (let i = a; ;) {
        const j = i === b ? a : step(start, r, i, 1);
        const yi = xy[2 * i + 1],
            yj = xy[2 * j + 1];
        if (yi > py !== yj > py && px < xy[2 * i] + ((py - yi) * (xy[2 * j] - xy[2 * i])) / (yj - yi)) inside = !inside;
        if (i === b) break;
        i = j;
    }
    return inside;
}

// Whether direction v→q lies strictly inside the angle swept from v→a to v→b (exact: integer cross products).
function inSector(xy: Int32Array, v: number, a: number, b: number, q: number): boolean {
    const vx = xy[2 * v],
        vy = xy[2 * v + 1];
    const cr = (p: number, o: number): number =>
        (xy[2 * p] - vx) * (xy[2 * o + 1] - vy) - (xy[2 * p + 1] - vy) * (xy[2 * o] - vx);
    const ab = cr(a, b);
    if (ab > 0) return cr(a, q) > 0 && cr(q, b) > 0;
    if (ab < 0) return !(cr(b, q) >= 0 && cr(q, a) >= 0);
    return cr(a, q) > 0; // a and b opposite: a half-plane
}

// ---- the checks of each refinement round -------------------------------------------------------

// Uniform grid over the mask: square cells of `cell` pixels, gw × gh of them, each listing the exact vertices
// in it and the kept segments (by first vertex) whose bounding boxes touch it.
interface Grid {
    cell: number;
    gw: number;
    vertices: number[][];
    segments: number[][];
}

function makeGrid(xy: Int32Array, nv: number, tolerance: number): Grid {
    let W = 0,
        H = 0;
    for (let v = 0; v < nv; v++) {
        W = Math.max(W, xy[2 * v]);
        H = Math.max(H, xy[2 * v + 1]);
    }
    const cell = Math.max(8, Math.ceil(4 * tolerance)),
        gw = Math.floor(W / cell) + 1,
        gh = Math.floor(H / cell) + 1;
    const vertices: number[][] = Array.from({ length: gw * gh }, () => []);
    for (let v = 0; v < nv; v++) vertices[Math.floor(xy[2 * v + 1] / cell) * gw + Math.floor(xy[2 * v] / cell)].push(v);
    return { cell, gw, vertices, segments: Array.from({ length: gw * gh }, () => []) };
}

// Lists every kept segment in the grid cells its bounding box touches.
function indexSegments(xy: Int32Array, start: Int32Array, keep: Uint8Array, ringOf: Int32Array, grid: Grid): void {
    const { cell, gw, segments } = grid;
    for (const c of segments) c.length = 0;
    for (let v = 0; v < ringOf.length; v++) {
        if (!keep[v]) continue;
        const w = nextKept(start, keep, ringOf[v], v);
        const x0 = Math.floor(Math.min(xy[2 * v], xy[2 * w]) / cell),
            x1 = Math.floor(Math.max(xy[2 * v], xy[2 * w]) / cell);
        const y0 = Math.floor(Math.min(xy[2 * v + 1], xy[2 * w + 1]) / cell),
            y1 = Math.floor(Math.max(xy[2 * v + 1], xy[2 * w + 1]) / cell);
        for (let gy = y0; gy <= y1; gy++) for (let gx = x0; gx <= x1; gx++) segments[gy * gw + gx].push(v);
    }
}

// Marks segments that clash with another segment (both of them), and shortcuts that pass over a vertex of
// another ring. `stamp[o]` is the last segment o was compared with in this round.
function markClashes(
    xy: Int32Array,
    start: Int32Array,
    keep: Uint8Array,
    ringOf: Int32Array,
    grid: Grid,
    stamp: Int32Array,
    bad: Uint8Array
): void {
    const { cell, gw, segments } = grid;
    for (let v = 0; v < ringOf.length; v++) {
        if (!keep[v]) continue;
        const r = ringOf[v],
            w = nextKept(start, keep, r, v),
            exact = step(start, r, v, 1) === w;
        const x0 = Math.floor(Math.min(xy[2 * v], xy[2 * w]) / cell),
            x1 = Math.floor(Math.max(xy[2 * v], xy[2 * w]) / cell);
        const y0 = Math.floor(Math.min(xy[2 * v + 1], xy[2 * w + 1]) / cell),
            y1 = Math.floor(Math.max(xy[2 * v + 1], xy[2 * w + 1]) / cell);
        for (let gy = y0; gy <= y1; gy++)
            for (let gx = x0; gx <= x1; gx++) {
                for (const o of segments[gy * gw + gx]) {
                    if (o <= v || stamp[o] === v) continue;
                    stamp[o] = v;
                    const p = nextKept(start, keep, ringOf[o], o);
                    if (clash(xy, v, w, o, p)) {
                        mark(start, keep, ringOf, bad, v);
                        mark(start, keep, ringOf, bad, o);
                    }
                }
            }
        if (!exact && passesOver(xy, start, ringOf, grid, r, v, w)) mark(start, keep, ringOf, bad, v);
    }
}

// Whether the shortcut v→w of ring r passes over a vertex of another ring: the chain's bounding box holds the region.
function passesOver(
    xy: Int32Array,
    start: Int32Array,
    ringOf: Int32Array,
    grid: Grid,
    r: number,
    v: number,
    w: number
): boolean {
    const { cell, gw, vertices } = grid;
    let bx0 = xy[2 * v],
        bx1 = xy[2 * v],
        by0 = xy[2 * v + 1],
        by1 = xy[2 * v + 1];
    for (let k = step(start, r, v, 1); ; k = step(start, r, k, 1)) {
        bx0 = Math.min(bx0, xy[2 * k]);
        bx1 = Math.max(bx1, xy[2 * k]);
        by0 = Math.min(by0, xy[2 * k + 1]);
        by1 = Math.max(by1, xy[2 * k + 1]);
        if (k === w) break;
    }
    for (let gy = Math.floor(by0 / cell); gy <= Math.floor(by1 / cell); gy++)
        for (let gx = Math.floor(bx0 / cell); gx <= Math.floor(bx1 / cell); gx++) {
            for (const u of vertices[gy * gw + gx]) {
                const ux = xy[2 * u],
                    uy = xy[2 * u + 1];
                if (ringOf[u] !== r && ux >= bx0 && ux <= bx1 && uy >= by0 && uy <= by1 && over(xy, start, r, v, w, u))
                    return true;
            }
        }
    return false;
}

// Rings through a shared vertex must not cross there: marks the shortcuts on both sides of both rings where they do.
function markCrossings(
    xy: Int32Array,
    start: Int32Array,
    shared: Uint8Array,
    keep: Uint8Array,
    ringOf: Int32Array,
    grid: Grid,
    bad: Uint8Array
): void {
    const { cell, gw, vertices } = grid;
    for (let v = 0; v < ringOf.length; v++) {
        if (!shared[v]) continue;
        // its twin: the vertex of another ring at the same point (in the vertex grid's cell)
        for (const u of vertices[Math.floor(xy[2 * v + 1] / cell) * gw + Math.floor(xy[2 * v] / cell)]) {
            if (u <= v || !same(xy, u, v)) continue;
            const a1 = prevKept(start, keep, ringOf[v], v),
                a2 = nextKept(start, keep, ringOf[v], v);
            const b1 = prevKept(start, keep, ringOf[u], u),
                b2 = nextKept(start, keep, ringOf[u], u);
            if (inSector(xy, v, a2, a1, b1) !== inSector(xy, v, a2, a1, b2)) {
                mark(start, keep, ringOf, bad, a1);
                mark(start, keep, ringOf, bad, v);
                mark(start, keep, ringOf, bad, b1);
                mark(start, keep, ringOf, bad, u);
            }
        }
    }
}

// A ring keeps its orientation: marks every shortcut of a ring whose kept vertices turn the other way.
function markFlips(
    xy: Int32Array,
    start: Int32Array,
    area2: Float64Array,
    keep: Uint8Array,
    ringOf: Int32Array,
    bad: Uint8Array
): void {
    for (let r = 0; r < area2.length; r++) {
        let a = 0;
        for (let v = start[r]; v < start[r + 1]; v++) {
            if (!keep[v]) continue;
            const w = nextKept(start, keep, r, v);
            a += xy[2 * v] * xy[2 * w + 1] - xy[2 * w] * xy[2 * v + 1];
        }
        if (sgn(a) !== sgn(area2[r]))
            for (let v = start[r]; v < start[r + 1]; v++) if (keep[v]) mark(start, keep, ringOf, bad, v);
    }
}
