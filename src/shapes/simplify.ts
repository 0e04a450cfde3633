// Topology-preserving Douglas–Peucker on traced rings. Kept vertices are a subset of the exact ones, so
// every simplified vertex lies on the exact boundary; every dropped vertex lies within `tolerance` of the
// segment that replaces it. Vertices shared by two rings are always kept. A shortcut is refined (its
// chain split at the farthest vertex and simplified again) while it touches another segment, crosses
// another ring at a shared vertex, passes over a vertex of another ring, or flips its ring: at worst a
// ring goes back to its exact edges, which satisfy all of these.
import type { Traced } from './trace.js';

/** Simplified copy of traced rings; every vertex within `tolerance` of the exact boundary both ways. */
export function simplify(t: Traced, tolerance: number): Traced {
    const { xy, start, rings, shared } = t, nv = start[rings];
    const keep = new Uint8Array(nv), ringOf = new Int32Array(nv);
    const tol2 = tolerance * tolerance;
    const X = (v: number): number => xy[2 * v], Y = (v: number): number => xy[2 * v + 1];

    // Squared distance from vertex k to segment ab.
    const dist2 = (k: number, a: number, b: number): number => {
        const ax = X(a), ay = Y(a), dx = X(b) - ax, dy = Y(b) - ay, px = X(k) - ax, py = Y(k) - ay;
        const l2 = dx * dx + dy * dy;
        let u = l2 > 0 ? (px * dx + py * dy) / l2 : 0;
        u = u < 0 ? 0 : u > 1 ? 1 : u;
        const ex = px - u * dx, ey = py - u * dy;
        return ex * ex + ey * ey;
    };
    // Ring-relative index arithmetic: vertex i + d within ring r.
    const step = (r: number, i: number, d: number): number => {
        const s = start[r], n = start[r + 1] - s;
        return s + ((i - s + d) % n + n) % n;
    };
    const farthest = (r: number, a: number, b: number): number => {
        let best = -1, d = -1;
        for (let k = step(r, a, 1); k !== b; k = step(r, k, 1)) {
            const e = dist2(k, a, b);
            if (e > d) { d = e; best = k; }
        }
        return best;
    };
    // Douglas–Peucker on the chain strictly between kept vertices a and b of ring r.
    const dp = (r: number, a: number, b: number): void => {
        const stack = [a, b];
        while (stack.length) {
            const j = stack.pop()!, i = stack.pop()!;
            if (step(r, i, 1) === j) continue;
            const k = farthest(r, i, j);
            if (dist2(k, i, j) > tol2) { keep[k] = 1; stack.push(i, k, k, j); }
        }
    };
    const nextKept = (r: number, i: number): number => {
        let k = step(r, i, 1);
        while (!keep[k]) k = step(r, k, 1);
        return k;
    };
    const prevKept = (r: number, i: number): number => {
        let k = step(r, i, -1);
        while (!keep[k]) k = step(r, k, -1);
        return k;
    };

    for (let r = 0; r < rings; r++) {
        const s = start[r], e = start[r + 1];
        for (let v = s; v < e; v++) { ringOf[v] = r; if (shared[v]) keep[v] = 1; }
        keep[s] = 1;
        let far = s, d = -1;
        for (let v = s + 1; v < e; v++) {
            const dd = (X(v) - X(s)) ** 2 + (Y(v) - Y(s)) ** 2;
            if (dd > d) { d = dd; far = v; }
        }
        keep[far] = 1;
        for (let v = s, a = s; ; ) {
            const b = nextKept(r, v);
            dp(r, a, b);
            if (b === s) break;
            v = a = b;
        }
        // at least a triangle: the vertex farthest from the line through the two kept ones
        let count = 0;
        for (let v = s; v < e; v++) count += keep[v];
        if (count < 3) {
            const k1 = farthest(r, s, far), k2 = farthest(r, far, s);
            keep[k2 < 0 || (k1 >= 0 && dist2(k1, s, far) >= dist2(k2, far, s)) ? k1 : k2] = 1;
        }
    }

    // Uniform grid over the mask for segments and exact vertices.
    let W = 0, H = 0;
    for (let v = 0; v < nv; v++) { W = Math.max(W, X(v)); H = Math.max(H, Y(v)); }
    const cell = Math.max(8, Math.ceil(4 * tolerance)), gw = Math.floor(W / cell) + 1, gh = Math.floor(H / cell) + 1;
    const vcells: number[][] = Array.from({ length: gw * gh }, () => []);
    for (let v = 0; v < nv; v++) vcells[Math.floor(Y(v) / cell) * gw + Math.floor(X(v) / cell)].push(v);

    const sgn = (v: number): number => (v > 0 ? 1 : v < 0 ? -1 : 0);
    const orient = (a: number, b: number, c: number): number => sgn((X(b) - X(a)) * (Y(c) - Y(a)) - (Y(b) - Y(a)) * (X(c) - X(a)));
    const on = (a: number, b: number, c: number): boolean =>
        Math.min(X(a), X(b)) <= X(c) && X(c) <= Math.max(X(a), X(b)) && Math.min(Y(a), Y(b)) <= Y(c) && Y(c) <= Math.max(Y(a), Y(b));
    const same = (a: number, b: number): boolean => X(a) === X(b) && Y(a) === Y(b);
    // Whether closed segments ab and cd meet anywhere but at one common endpoint (without overlapping beyond it).
    const clash = (a: number, b: number, c: number, d: number): boolean => {
        const o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
        const touch = (o1 * o2 < 0 && o3 * o4 < 0) || (o1 === 0 && on(a, b, c)) || (o2 === 0 && on(a, b, d)) ||
            (o3 === 0 && on(c, d, a)) || (o4 === 0 && on(c, d, b));
        if (!touch) return false;
        let p = -1, q = -1, u = -1;
        if (same(a, c)) { p = a; q = b; u = d; } else if (same(a, d)) { p = a; q = b; u = c; } else if (same(b, c)) { p = b; q = a; u = d; } else if (same(b, d)) { p = b; q = a; u = c; }
        if (p < 0) return true;
        if ((same(a, c) && same(b, d)) || (same(a, d) && same(b, c))) return true;
        const qx = X(q) - X(p), qy = Y(q) - Y(p), ux = X(u) - X(p), uy = Y(u) - Y(p);
        return qx * uy - qy * ux === 0 && qx * ux + qy * uy > 0;
    };
    // Whether point v is strictly inside the region between ring r's chain a..b and the shortcut, or on the shortcut.
    const over = (r: number, a: number, b: number, v: number): boolean => {
        if (same(v, a) || same(v, b)) return false;
        if (orient(a, b, v) === 0 && on(a, b, v)) return true;
        const px = X(v), py = Y(v);
        let inside = false;
        for (let i = a; ; ) {
            const j = i === b ? a : step(r, i, 1);
            const yi = Y(i), yj = Y(j);
            if ((yi > py) !== (yj > py) && px < X(i) + (py - yi) * (X(j) - X(i)) / (yj - yi)) inside = !inside;
            if (i === b) break;
            i = j;
        }
        return inside;
    };

    const segCells: number[][] = Array.from({ length: gw * gh }, () => []);
    const stamp = new Int32Array(nv).fill(-1);
    const bad = new Uint8Array(nv); // shortcut starting at v must be refined
    for (let round = 0; ; round++) {
        for (const c of segCells) c.length = 0;
        // segments are named by their first vertex
        for (let v = 0; v < nv; v++) {
            if (!keep[v]) continue;
            const w = nextKept(ringOf[v], v);
            const x0 = Math.floor(Math.min(X(v), X(w)) / cell), x1 = Math.floor(Math.max(X(v), X(w)) / cell);
            const y0 = Math.floor(Math.min(Y(v), Y(w)) / cell), y1 = Math.floor(Math.max(Y(v), Y(w)) / cell);
            for (let gy = y0; gy <= y1; gy++) for (let gx = x0; gx <= x1; gx++) segCells[gy * gw + gx].push(v);
        }
        bad.fill(0);
        let any = false;
        const mark = (v: number): void => {
            if (step(ringOf[v], v, 1) !== nextKept(ringOf[v], v)) { bad[v] = 1; any = true; }
        };
        for (let v = 0; v < nv; v++) {
            if (!keep[v]) continue;
            const r = ringOf[v], w = nextKept(r, v), exact = step(r, v, 1) === w;
            const x0 = Math.floor(Math.min(X(v), X(w)) / cell), x1 = Math.floor(Math.max(X(v), X(w)) / cell);
            const y0 = Math.floor(Math.min(Y(v), Y(w)) / cell), y1 = Math.floor(Math.max(Y(v), Y(w)) / cell);
            for (let gy = y0; gy <= y1; gy++) for (let gx = x0; gx <= x1; gx++) {
                for (const o of segCells[gy * gw + gx]) {
                    if (o <= v || stamp[o] === v) continue;
                    stamp[o] = v;
                    const p = nextKept(ringOf[o], o);
                    if (clash(v, w, o, p)) { mark(v); mark(o); }
                }
            }
            if (exact) continue;
            // passes over a vertex of another ring: the chain's bounding box holds the region
            let bx0 = X(v), bx1 = X(v), by0 = Y(v), by1 = Y(v);
            for (let k = step(r, v, 1); ; k = step(r, k, 1)) {
                bx0 = Math.min(bx0, X(k)); bx1 = Math.max(bx1, X(k)); by0 = Math.min(by0, Y(k)); by1 = Math.max(by1, Y(k));
                if (k === w) break;
            }
            search: for (let gy = Math.floor(by0 / cell); gy <= Math.floor(by1 / cell); gy++) for (let gx = Math.floor(bx0 / cell); gx <= Math.floor(bx1 / cell); gx++) {
                for (const u of vcells[gy * gw + gx]) {
                    if (ringOf[u] !== r && X(u) >= bx0 && X(u) <= bx1 && Y(u) >= by0 && Y(u) <= by1 && over(r, v, w, u)) { mark(v); break search; }
                }
            }
        }
        // rings through a shared vertex must not cross there
        for (let v = 0; v < nv; v++) {
            if (!shared[v]) continue;
            // its twin: the vertex of another ring at the same point (in the vertex grid's cell)
            for (const u of vcells[Math.floor(Y(v) / cell) * gw + Math.floor(X(v) / cell)]) {
                if (u <= v || !same(u, v)) continue;
                const a1 = prevKept(ringOf[v], v), a2 = nextKept(ringOf[v], v), b1 = prevKept(ringOf[u], u), b2 = nextKept(ringOf[u], u);
                if (inSector(v, a2, a1, b1) !== inSector(v, a2, a1, b2)) { mark(a1); mark(v); mark(b1); mark(u); }
            }
        }
        // a ring keeps its orientation
        for (let r = 0; r < rings; r++) {
            let a = 0;
            for (let v = start[r]; v < start[r + 1]; v++) {
                if (!keep[v]) continue;
                const w = nextKept(r, v);
                a += X(v) * Y(w) - X(w) * Y(v);
            }
            if (sgn(a) !== sgn(t.area2[r])) for (let v = start[r]; v < start[r + 1]; v++) if (keep[v]) mark(v);
        }
        if (!any) break;
        for (let v = 0; v < nv; v++) {
            if (!bad[v]) continue;
            const r = ringOf[v], w = nextKept(r, v), k = farthest(r, v, w);
            keep[k] = 1;
            dp(r, v, k);
            dp(r, k, w);
        }
    }

    // Whether direction v→q lies strictly inside the angle swept from v→a to v→b (exact: integer cross products).
    function inSector(v: number, a: number, b: number, q: number): boolean {
        const cr = (p: number, o: number): number => (X(p) - X(v)) * (Y(o) - Y(v)) - (Y(p) - Y(v)) * (X(o) - X(v));
        const ab = cr(a, b);
        if (ab > 0) return cr(a, q) > 0 && cr(q, b) > 0;
        if (ab < 0) return !(cr(b, q) >= 0 && cr(q, a) >= 0);
        return cr(a, q) > 0; // a and b opposite: a half-plane
    }

    let n = 0;
    for (let v = 0; v < nv; v++) n += keep[v];
    const out = new Int32Array(2 * n), sh = new Uint8Array(n), st = new Int32Array(rings + 1), area2 = new Float64Array(rings);
    let k = 0;
    for (let r = 0; r < rings; r++) {
        st[r] = k;
        for (let v = start[r]; v < start[r + 1]; v++) {
            if (!keep[v]) continue;
            out[2 * k] = X(v); out[2 * k + 1] = Y(v); sh[k] = shared[v]; k++;
        }
        let a = 0;
        for (let i = st[r], j = k - 1; i < k; j = i++) a += out[2 * j] * out[2 * i + 1] - out[2 * i] * out[2 * j + 1];
        area2[r] = a;
    }
    st[rings] = k;
    return { xy: out, start: st, label: t.label, area2, shared: sh, rings, components: t.components };
}
