// The walk: the first set pixel of a mask's planes a segment enters, by slots and 32 × 32 blocks.
//
// Semantics (docs/rays.md): the segment P(t) = (x0, y0) + t·(dx, dy), t ∈ [0, 1], touches pixel (⌊x⌋, ⌊y⌋) at
// each of its points, the flooring of Mask.get. Pixel (i, j) is the half-open square [i, i+1) × [j, j+1).
// Along one axis the segment is in column i from the crossing of one boundary to the crossing of the next;
// the crossing of boundary b is at t = (b − x0) / dx, always this exact expression (a correctly rounded
// quotient), so exact geometric ties (a ray through a pixel corner) stay exact ties. A crossing in the
// positive direction takes effect at t (x = b is already in the new column); one in the negative direction
// just after t (x = b is still in the old one). We order such moments as slots (t, open): (t, 0) is t itself,
// (t, 1) is "just after t". A pixel is entered at the largest lower bound of its two axes' slot intervals.
// That one rule gives: a ray along y = j runs in row j; a ray through a corner point (i, j) touches pixel
// (i, j), the pixel whose top-left corner that is, and steps diagonally past the other side pixel.
//
// Speed: the walk goes by blocks of one strip × 32 rows. Before walking a block pixel by pixel it tests
// the words of the rectangle the ray can touch in it (a mostly horizontal ray: 1–2 words for 32 pixels; a
// mostly vertical one: up to 32 words, no division each) and jumps to the block's exit when they are clear.
import { clamp, clipFar, near } from './ray-clip.js';
import type { RayState } from './ray-state.js';

// Whether slot (t1, o1) comes before slot (t2, o2).
/** @internal */
export function before(t1: number, o1: number, t2: number, o2: number): boolean {
    return t1 < t2 || (t1 === t2 && o1 < o2);
}

// Index of the cell (of `size` pixels, cells from boundary o, n of them) the axis a + t·d is in at slot (t, open).
/** @internal */
export function cellOf(a: number, d: number, o: number, size: number, n: number, t: number, open: number): number {
    if (d === 0) return Math.floor((Math.floor(a) - o) / size);
    let i = Math.floor((a + t * d - o) / size);
    if (i < 0) i = 0;
    else if (i > n - 1) i = n - 1;
    if (d > 0) {
        // The last cell whose start (o + i·size − a) / d is at or before t.
        while (i + 1 < n && (o + (i + 1) * size - a) / d <= t) i++;
        while (i > 0 && (o + i * size - a) / d > t) i--;
    } else {
        // Cell i is entered just after its right boundary's crossing and left just after its left one's.
        for (;;) {
            const u = (o + i * size - a) / d;
            if (i > 0 && (t > u || (t === u && open === 1))) i--;
            else break;
        }
        for (;;) {
            const l = (o + (i + 1) * size - a) / d;
            if (i + 1 < n && (t < l || (t === l && open === 0))) i++;
            else break;
        }
    }
    return i;
}

// The first set pixel of the planes in st.words (W × H, top-left at world pixel (ox, oy)) on the segment, into
// st; the distance is measured from the segment's start. Far segments are clipped first.
/** @internal */
export function cast(
    st: RayState,
    W: number,
    H: number,
    ox: number,
    oy: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number
): boolean {
    if (W === 0 || H === 0) return false;
    if (near(W, H, ox, oy, x0, y0, x1, y1)) return walk(st, W, H, ox, oy, x0, y0, x1, y1, x0, y0);
    return clipFar(st, W, H, ox, oy, x0, y0, x1, y1) && walk(st, W, H, ox, oy, st.cx0, st.cy0, st.cx1, st.cy1, x0, y0);
}

// The slots during which the segment x0 + t·dx, y0 + t·dy is in the W × H box at (ox, oy), into st: from
// (lt, lo) to before (ut, uo); false when it never is.
/** @internal */
export function inBox(
    st: RayState,
    W: number,
    H: number,
    ox: number,
    oy: number,
    x0: number,
    y0: number,
    dx: number,
    dy: number
): boolean {
    let lt = 0,
        lo = 0,
        ut = 1,
        uo = 1;
    if (dx > 0) {
        const a = (ox - x0) / dx,
            b = (ox + W - x0) / dx;
        if (a > lt) lt = a;
        if (b <= ut) {
            ut = b;
            uo = 0;
        }
    } else if (dx < 0) {
        const a = (ox + W - x0) / dx,
            b = (ox - x0) / dx;
        if (a >= lt) {
            lt = a;
            lo = 1;
        }
        if (b < ut) {
            ut = b;
            uo = 1;
        }
    } else if (!(x0 >= ox && x0 < ox + W)) return false;
    if (dy > 0) {
        const a = (oy - y0) / dy,
            b = (oy + H - y0) / dy;
        if (a > lt) {
            lt = a;
            lo = 0;
        }
        if (before(b, 0, ut, uo)) {
            ut = b;
            uo = 0;
        }
    } else if (dy < 0) {
        const a = (oy + H - y0) / dy,
            b = (oy - y0) / dy;
        if (before(lt, lo, a, 1)) {
            lt = a;
            lo = 1;
        }
        if (b < ut) {
            ut = b;
            uo = 1;
        }
    } else if (!(y0 >= oy && y0 < oy + H)) return false;
    st.lt = lt;
    st.lo = lo;
    st.ut = ut;
    st.uo = uo;
    return before(lt, lo, ut, uo);
}

// Whether the planes' words from..to (rows of one strip) are clear in bits c0..c1: the OR of the rows, four
// words a step, a quarter of the time of one test a row.
function blockClear(
    WORDS: readonly Uint32Array[],
    k: number,
    from: number,
    to: number,
    c0: number,
    c1: number
): boolean {
    let acc = 0;
    for (let p = 0; p < k; p++) {
        const A = WORDS[p];
        let r = from;
        for (; r + 3 <= to; r += 4) acc |= A[r] | A[r + 1] | A[r + 2] | A[r + 3];
        for (; r <= to; r++) acc |= A[r];
    }
    return (acc & ((0xffffffff >>> (31 - c1 + c0)) << c0)) === 0;
}

// The walk itself (see the file comment); writes the hit into st; the distance is measured from (sx, sy).
/** @internal */
export function walk(
    st: RayState,
    W: number,
    H: number,
    ox: number,
    oy: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    sx: number,
    sy: number
): boolean {
    const dx = x1 - x0,
        dy = y1 - y0,
        WORDS = st.words,
        W0 = WORDS[0],
        k = st.k;
    if (!inBox(st, W, H, ox, oy, x0, y0, dx, dy)) return false;
    let lt = st.lt,
        lo = st.lo;
    const ut = st.ut,
        uo = st.uo;

    // The cell at slot (lt, lo), whether each axis was crossed right then, and each axis's next crossing.
    let i = cellOf(x0, dx, ox, 1, W, lt, lo),
        j = cellOf(y0, dy, oy, 1, H, lt, lo),
        fx = 0,
        fy = 0;
    let xt = Infinity,
        xo = 0,
        yt = Infinity,
        yo = 0;
    if (dx > 0) {
        xt = (ox + i + 1 - x0) / dx;
        if (lo === 0 && (ox + i - x0) / dx === lt) fx = 1;
    } else if (dx < 0) {
        xt = (ox + i - x0) / dx;
        xo = 1;
        if (lo === 1 && (ox + i + 1 - x0) / dx === lt) fx = 1;
    }
    if (dy > 0) {
        yt = (oy + j + 1 - y0) / dy;
        if (lo === 0 && (oy + j - y0) / dy === lt) fy = 1;
    } else if (dy < 0) {
        yt = (oy + j - y0) / dy;
        yo = 1;
        if (lo === 1 && (oy + j + 1 - y0) / dy === lt) fy = 1;
    }
    // The crossings out of the current strip (sxt, sxo) and 32-row band (byt, byo), kept while they stay the same.
    // (256-row bands for steep rays measured no faster: the row loads dominate, not the block setup.)
    let strip = -1,
        band = -1,
        sxt = Infinity,
        sxo = 0,
        byt = Infinity,
        byo = 0;
    for (;;) {
        if (dx !== 0 && i >> 5 !== strip) {
            strip = i >> 5;
            sxt = (ox + (dx > 0 ? Math.min((strip + 1) << 5, W) : strip << 5) - x0) / dx;
            sxo = xo;
        }
        if (dy !== 0 && j >> 5 !== band) {
            band = j >> 5;
            byt = (oy + (dy > 0 ? Math.min((band + 1) << 5, H) : band << 5) - y0) / dy;
            byo = yo;
        }
        // The block's exit (et, eo): out of this strip or band, or the end.
        let et = ut,
            eo = uo;
        if (before(sxt, sxo, et, eo)) {
            et = sxt;
            eo = sxo;
        }
        if (before(byt, byo, et, eo)) {
            et = byt;
            eo = byo;
        }
        // The rectangle of cells the ray can visit before the exit: the position there, ±1 px for rounding.
        let c0 = i,
            c1 = i,
            r0 = j,
            r1 = j;
        const s = i >> 5,
            b0 = (j >> 5) << 5;
        if (dx !== 0) {
            const e = Math.floor(x0 + et * dx) - ox;
            if (dx > 0) c1 = Math.min(Math.min((s << 5) + 31, W - 1), Math.max(i, e + 1));
            else c0 = Math.max(s << 5, Math.min(i, e - 1));
        }
        if (dy !== 0) {
            const e = Math.floor(y0 + et * dy) - oy;
            if (dy > 0) r1 = Math.min(Math.min(b0 + 31, H - 1), Math.max(j, e + 1));
            else r0 = Math.max(b0, Math.min(j, e - 1));
        }
        if (blockClear(WORDS, k, s * H + r0, s * H + r1, c0 & 31, c1 & 31)) {
            // Nothing to hit in this block: go to the cell at its exit. An axis whose next crossing is the exit
            // steps once; one crossing later stays; one crossing earlier (several cells on) is found from scratch.
            if (!before(et, eo, ut, uo)) return false;
            lt = et;
            lo = eo;
            if (before(xt, xo, et, eo)) {
                i = cellOf(x0, dx, ox, 1, W, lt, lo);
                if (dx > 0) {
                    xt = (ox + i + 1 - x0) / dx;
                    fx = lo === 0 && (ox + i - x0) / dx === lt ? 1 : 0;
                } else {
                    xt = (ox + i - x0) / dx;
                    fx = lo === 1 && (ox + i + 1 - x0) / dx === lt ? 1 : 0;
                }
            } else if (xt === et && xo === eo) {
                fx = 1;
                if (dx > 0) {
                    i++;
                    xt = (ox + i + 1 - x0) / dx;
                } else {
                    i--;
                    xt = (ox + i - x0) / dx;
                }
            } else fx = 0;
            if (before(yt, yo, et, eo)) {
                j = cellOf(y0, dy, oy, 1, H, lt, lo);
                if (dy > 0) {
                    yt = (oy + j + 1 - y0) / dy;
                    fy = lo === 0 && (oy + j - y0) / dy === lt ? 1 : 0;
                } else {
                    yt = (oy + j - y0) / dy;
                    fy = lo === 1 && (oy + j + 1 - y0) / dy === lt ? 1 : 0;
                }
            } else if (yt === et && yo === eo) {
                fy = 1;
                if (dy > 0) {
                    j++;
                    yt = (oy + j + 1 - y0) / dy;
                } else {
                    j--;
                    yt = (oy + j - y0) / dy;
                }
            } else fy = 0;
            continue;
        }
        // Pixel by pixel through the block.
        for (;;) {
            const idx = (i >>> 5) * H + j;
            let w = W0[idx];
            for (let p = 1; p < k; p++) w |= WORDS[p][idx];
            if (((w >>> (i & 31)) & 1) !== 0) {
                record(st, ox, oy, i, j, lt, lo, fx, fy, x0, y0, dx, dy, sx, sy);
                return true;
            }
            if (before(xt, xo, yt, yo)) {
                lt = xt;
                lo = xo;
                fx = 1;
                fy = 0;
                if (dx > 0) {
                    i++;
                    xt = (ox + i + 1 - x0) / dx;
                } else {
                    i--;
                    xt = (ox + i - x0) / dx;
                }
            } else if (before(yt, yo, xt, xo)) {
                lt = yt;
                lo = yo;
                fx = 0;
                fy = 1;
                if (dy > 0) {
                    j++;
                    yt = (oy + j + 1 - y0) / dy;
                } else {
                    j--;
                    yt = (oy + j - y0) / dy;
                }
            } else {
                // Both at once: through a corner, diagonally (the side pixels are never entered).
                lt = xt;
                lo = xo;
                fx = 1;
                fy = 1;
                if (lt === Infinity) return false;
                if (dx > 0) {
                    i++;
                    xt = (ox + i + 1 - x0) / dx;
                } else {
                    i--;
                    xt = (ox + i - x0) / dx;
                }
                if (dy > 0) {
                    j++;
                    yt = (oy + j + 1 - y0) / dy;
                } else {
                    j--;
                    yt = (oy + j - y0) / dy;
                }
            }
            if (!before(lt, lo, ut, uo)) return false;
            if (!before(lt, lo, et, eo)) break;
        }
    }
}

// Writes the hit at cell (i, j), entered at slot (t, open) across the axes flagged fx / fy, into st.
function record(
    st: RayState,
    ox: number,
    oy: number,
    i: number,
    j: number,
    t: number,
    open: number,
    fx: number,
    fy: number,
    x0: number,
    y0: number,
    dx: number,
    dy: number,
    sx: number,
    sy: number
): void {
    st.px = ox + i;
    st.py = oy + j;
    st.nx = 0;
    st.ny = 0;
    if (t === 0 && open === 0) {
        st.x = x0;
        st.y = y0;
    } else {
        st.x = fx ? (dx > 0 ? ox + i : ox + i + 1) : clamp(x0 + t * dx, ox + i, ox + i + 1);
        st.y = fy ? (dy > 0 ? oy + j : oy + j + 1) : clamp(y0 + t * dy, oy + j, oy + j + 1);
        // Through a corner both faces are crossed: the normal is the face of the faster axis (x on a tie).
        if (fx && (!fy || Math.abs(dx) >= Math.abs(dy))) st.nx = dx > 0 ? -1 : 1;
        else st.ny = dy > 0 ? -1 : 1;
    }
    st.d = Math.hypot(st.x - sx, st.y - sy);
}
