// Exact pixel-edge boundaries of a mask, traced from the packed words a row boundary at a time.
//
// Horizontal boundary spans at row boundary y are runs of `below & ~above` (top edges, travelled +x)
// and `above & ~below` (bottom edges, travelled −x), found 32 pixels at a time with ctz. Every span
// end is a 90° corner; a vertical run of edges in column x joins two span ends, so one open node per
// column links them as the sweep goes down. No per-pixel marching: the work is per word plus per corner.
//
// Connectivity: set pixels are 4-connected (pixels that touch only at a corner are separate
// polygons) and clear pixels 8-connected. At such a corner (a saddle) each span keeps to its own
// pixel. A ring that passes a saddle twice is split there, so every ring is simple; two rings may
// share that one vertex (a hole touching its outer ring, or two polygons touching at a corner).

/** Rings of a mask: flat vertices in pixel-corner coordinates, outer rings clockwise on screen (A > 0, y down). */
export interface Traced {
    /** Vertices of every ring, `[x0, y0, x1, y1, …]`. */
    xy: Int32Array;
    /** Ring r has vertices `start[r] .. start[r + 1] - 1` (vertex indices, not array indices). */
    start: Int32Array;
    /** 4-connected component (0-based, row-major order of its first pixel) each ring bounds. */
    label: Int32Array;
    /** Twice the signed area of each ring (exact: integer coordinates). */
    area2: Float64Array;
    /** Per vertex, 1 where two rings share the vertex (a saddle corner). */
    shared: Uint8Array;
    /** Number of rings. */
    rings: number;
    /** Number of 4-connected components (polygons). */
    components: number;
}

// Runs of set pixels per row, labelled by 4-connected component (run-based union-find).
function labelRuns4(
    words: Uint32Array,
    width: number,
    height: number
): { x0: Int32Array; x1: Int32Array; rowStart: Int32Array; label: Int32Array; components: number } {
    const strips = (width + 31) >>> 5;
    let cap = 256,
        n = 0;
    let x0 = new Int32Array(cap),
        x1 = new Int32Array(cap);
    const rowStart = new Int32Array(height + 1);
    for (let y = 0; y < height; y++) {
        rowStart[y] = n;
        let open = -1;
        for (let s = 0; s < strips; s++) {
            const w = words[s * height + y] | 0,
                base = s << 5;
            // Transitions of the row's bits: a run starts or ends at each set bit of w ^ (w << 1 | carry).
            let e = w ^ ((w << 1) | (open >= 0 ? 1 : 0));
            while (e !== 0) {
                const bit = e & -e,
                    x = base + 31 - Math.clz32(bit);
                e ^= bit;
                if (open < 0) {
                    open = x;
                    continue;
                }
                if (n === cap) {
                    cap *= 2;
                    const a = new Int32Array(cap),
                        b = new Int32Array(cap);
                    a.set(x0);
                    b.set(x1);
                    x0 = a;
                    x1 = b;
                }
                x0[n] = open;
                x1[n++] = x;
                open = -1;
            }
        }
        if (open >= 0) {
            if (n === cap) {
                cap *= 2;
                const a = new Int32Array(cap),
                    b = new Int32Array(cap);
                a.set(x0);
                b.set(x1);
                x0 = a;
                x1 = b;
            }
            x0[n] = open;
            x1[n++] = width;
        }
    }
    rowStart[height] = n;
    const parent = new Int32Array(n);
    for (let i = 0; i < n; i++) parent[i] = i;
    const find = (i: number): number => {
        while (parent[i] !== i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    };
    for (let y = 1; y < height; y++) {
        let p = rowStart[y - 1],
            c = rowStart[y];
        const pe = rowStart[y],
            ce = rowStart[y + 1];
        while (p < pe && c < ce) {
            // 4-connectivity: runs touch only when they share a pixel edge (strict overlap).
            if (x0[c] < x1[p] && x0[p] < x1[c]) {
                const rp = find(p),
                    rc = find(c);
                if (rp < rc) parent[rc] = rp;
                else if (rc < rp) parent[rp] = rc;
            }
            if (x1[p] < x1[c]) p++;
            else c++;
        }
    }
    const label = new Int32Array(n);
    let components = 0;
    for (let r = 0; r < n; r++) {
        const root = find(r);
        label[r] = root === r ? components++ : label[root];
    }
    return { x0, x1, rowStart, label, components };
}

/** Traces every ring of the mask held in `words` (strip layout). */
export function trace(words: Uint32Array, width: number, height: number): Traced {
    const corners = sweep(words, width, height);
    const walk = walkRings(corners);
    return emitRings(corners, walk, labelRuns4(words, width, height));
}

// The corners of the boundary, each linked to the next corner of its walk (`next`). A saddle's two corners at one
// point are each other's `twin` (-1 elsewhere).
interface Corners {
    nodes: number;
    nx: Int32Array;
    ny: Int32Array;
    next: Int32Array;
    twin: Int32Array;
    /** 1 where the corner ends a span (in its direction of travel), 0 where it starts one. */
    isEnd: Uint8Array;
    saddles: number;
}

// The sweep down the row boundaries: every span end becomes a corner, linked along its span at once, and to the
// next corner down its column (a vertical edge) when the sweep reaches that one.
function sweep(words: Uint32Array, width: number, height: number): Corners {
    const strips = (width + 31) >>> 5;
    let cap = 1024,
        nodes = 0;
    let nx = new Int32Array(cap),
        ny = new Int32Array(cap),
        next = new Int32Array(cap),
        twin = new Int32Array(cap);
    let isEnd = new Uint8Array(cap);
    const col = new Int32Array(width + 1).fill(-1);

    const node = (x: number, y: number, end: number): number => {
        if (nodes === cap) {
            cap *= 2;
            const a = new Int32Array(cap),
                b = new Int32Array(cap),
                c = new Int32Array(cap),
                d = new Int32Array(cap),
                e = new Uint8Array(cap);
            a.set(nx);
            b.set(ny);
            c.set(next);
            d.set(twin);
            e.set(isEnd);
            nx = a;
            ny = b;
            next = c;
            twin = d;
            isEnd = e;
        }
        nx[nodes] = x;
        ny[nodes] = y;
        isEnd[nodes] = end;
        twin[nodes] = -1;
        return nodes++;
    };
    // Joins two span ends by the vertical edges between them: the travel-end of one span leads to the travel-start of
    // the other.
    const linkV = (a: number, b: number): void => {
        if (isEnd[a]) next[a] = b;
        else next[b] = a;
    };

    let saddles = 0;
    for (let y = 0; y <= height; y++) {
        let carryT = 0,
            carryB = 0,
            openT = -1,
            openB = -1;
        for (let s = 0; s <= strips; s++) {
            let t = 0,
                b = 0,
                et: number,
                eb: number;
            if (s < strips) {
                const i = s * height + y;
                const up = y > 0 ? words[i - 1] | 0 : 0,
                    dn = y < height ? words[i] | 0 : 0;
                t = dn & ~up;
                b = up & ~dn;
                et = t ^ ((t << 1) | carryT);
                eb = b ^ ((b << 1) | carryB);
                carryT = t >>> 31;
                carryB = b >>> 31;
            } else {
                // Spans still open past the last strip end at x = 32 * strips (= width, as padding bits are zero).
                et = carryT;
                eb = carryB;
            }
            let e = et | eb;
            const base = s << 5;
            while (e !== 0) {
                const bit = e & -e,
                    x = base + 31 - Math.clz32(bit);
                e ^= bit;
                let tn = -1,
                    bn = -1;
                if (et & bit) {
                    if (t & bit) {
                        tn = node(x, y, 0);
                        openT = tn;
                    } // a top span starts (travels +x)
                    else {
                        tn = node(x, y, 1);
                        next[openT] = tn;
                    }
                }
                if (eb & bit) {
                    if (b & bit) {
                        bn = node(x, y, 1);
                        openB = bn;
                    } // a bottom span's left end is where it arrives (travels −x)
                    else {
                        bn = node(x, y, 0);
                        next[bn] = openB;
                    }
                }
                if (tn >= 0 && bn >= 0) {
                    // Saddle: each span keeps to its own pixel, the bottom span's above, the top span's below.
                    linkV(col[x], bn);
                    col[x] = tn;
                    twin[tn] = bn;
                    twin[bn] = tn;
                    saddles++;
                } else {
                    const n = tn >= 0 ? tn : bn;
                    if (col[x] >= 0) {
                        linkV(col[x], n);
                        col[x] = -1;
                    } else col[x] = n;
                }
            }
        }
    }
    return { nodes, nx, ny, next, twin, isEnd, saddles };
}

// The closed walks through the corners, in sweep order: walk r is order[firsts[r] .. firsts[r] + lens[r] - 1],
// starting at its top-left corner (the left end of a span); `pinched` where it passes a saddle twice.
interface Walks {
    order: Int32Array;
    firsts: number[];
    lens: number[];
    pinched: Uint8Array;
}

function walkRings({ nodes, next, twin, saddles }: Corners): Walks {
    const ringOf = new Int32Array(nodes).fill(-1);
    const order = new Int32Array(nodes);
    const firsts: number[] = [],
        lens: number[] = [];
    let k = 0;
    for (let n0 = 0; n0 < nodes; n0++) {
        if (ringOf[n0] >= 0) continue;
        const r = firsts.length,
            k0 = k;
        let n = n0;
        do {
            ringOf[n] = r;
            order[k++] = n;
            n = next[n];
        } while (n !== n0);
        firsts.push(k0);
        lens.push(k - k0);
    }
    const pinched = new Uint8Array(firsts.length);
    if (saddles > 0) {
        for (let n = 0; n < nodes; n++) if (twin[n] > n && ringOf[n] === ringOf[twin[n]]) pinched[ringOf[n]] = 1;
    }
    return { order, firsts, lens, pinched };
}

// The rings: each walk, split where it is pinched, with the component its first corner bounds (from the runs).
function emitRings(
    { nodes, nx, ny, twin, isEnd, saddles }: Corners,
    { order, firsts, lens, pinched }: Walks,
    runs: ReturnType<typeof labelRuns4>
): Traced {
    const labelAt = (x: number, y: number): number => {
        let lo = runs.rowStart[y],
            hi = runs.rowStart[y + 1] - 1;
        while (lo < hi) {
            const mid = (lo + hi + 1) >> 1;
            if (runs.x0[mid] <= x) lo = mid;
            else hi = mid - 1;
        }
        return runs.label[lo];
    };

    const xy = new Int32Array(nodes * 2),
        shared = new Uint8Array(nodes);
    const start: number[] = [0],
        label: number[] = [],
        area2: number[] = [];
    let v = 0;
    const emit = (list: Int32Array | number[], from: number, to: number, lab: number): void => {
        let a = 0;
        const v0 = v;
        for (let i = from; i < to; i++) {
            const n = list[i];
            xy[2 * v] = nx[n];
            xy[2 * v + 1] = ny[n];
            shared[v] = twin[n] >= 0 ? 1 : 0;
            v++;
        }
        for (let i = v0, j = v - 1; i < v; j = i++) a += xy[2 * j] * xy[2 * i + 1] - xy[2 * i] * xy[2 * j + 1];
        start.push(v);
        label.push(lab);
        area2.push(a);
    };
    const stack: number[] = [];
    const pos = new Int32Array(saddles > 0 ? nodes : 0).fill(-1);
    for (let r = 0; r < firsts.length; r++) {
        const k0 = firsts[r],
            k1 = k0 + lens[r],
            n0 = order[k0];
        const lab = isEnd[n0] ? labelAt(nx[n0], ny[n0] - 1) : labelAt(nx[n0], ny[n0]);
        if (!pinched[r]) {
            emit(order, k0, k1, lab);
            continue;
        }
        // Splits the closed walk at each vertex it passes twice: the loop since the first pass becomes a ring of its
        // own.
        stack.length = 0;
        for (let i = k0; i < k1; i++) {
            const n = order[i],
                tw = twin[n];
            if (tw >= 0 && pos[tw] >= 0) {
                const p = pos[tw];
                for (let j = p; j < stack.length; j++) pos[stack[j]] = -1;
                emit(stack, p, stack.length, lab);
                stack.length = p;
            }
            pos[n] = stack.length;
            stack.push(n);
        }
        for (const n of stack) pos[n] = -1;
        emit(stack, 0, stack.length, lab);
    }
    return {
        xy,
        start: Int32Array.from(start),
        label: Int32Array.from(label),
        area2: Float64Array.from(area2),
        shared,
        rings: label.length,
        components: runs.components
    };
}
