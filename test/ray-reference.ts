// The naive ray oracle: for every set pixel, the slab entry of the segment into its square; the smallest wins.
// Written as plainly as possible from the rules in docs/rays.md, with the same crossing expression
// t = (b − x0) / dx as the library (exact ties must come out as ties on both sides). Test oracle only.
import type { RayHit } from '../src/index.js';

/** A hit with the slot it was entered at: (t, 0) is t itself, (t, 1) just after t. */
export interface RefHit extends RayHit {
    t: number;
    open: number;
}

function before(t1: number, o1: number, t2: number, o2: number): boolean {
    return t1 < t2 || (t1 === t2 && o1 < o2);
}

/**
 * The first pixel (i, j) with `set(i, j)` (0 ≤ i < w, 0 ≤ j < h; world pixel (ox + i, oy + j)) that the
 * segment from (x0, y0) to (x1, y1) enters, or null.
 */
export function refCast(
    set: (i: number, j: number) => boolean,
    w: number,
    h: number,
    ox: number,
    oy: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number
): RefHit | null {
    const dx = x1 - x0,
        dy = y1 - y0;
    let best: RefHit | null = null;
    for (let j = 0; j < h; j++) {
        for (let i = 0; i < w; i++) {
            if (!set(i, j)) continue;
            const X = ox + i,
                Y = oy + j;
            // Lower and upper slot of each axis; the segment itself is [(0, 0), (1, 1)).
            let lt = 0,
                lo = 0,
                ut = 1,
                uo = 1,
                ltx = -Infinity,
                lox = 0,
                lty = -Infinity,
                loy = 0;
            if (dx > 0) {
                ltx = (X - x0) / dx;
                lox = 0;
                const u = (X + 1 - x0) / dx;
                if (before(u, 0, ut, uo)) {
                    ut = u;
                    uo = 0;
                }
            } else if (dx < 0) {
                ltx = (X + 1 - x0) / dx;
                lox = 1;
                const u = (X - x0) / dx;
                if (before(u, 1, ut, uo)) {
                    ut = u;
                    uo = 1;
                }
            } else if (!(X <= x0 && x0 < X + 1)) continue;
            if (dy > 0) {
                lty = (Y - y0) / dy;
                loy = 0;
                const u = (Y + 1 - y0) / dy;
                if (before(u, 0, ut, uo)) {
                    ut = u;
                    uo = 0;
                }
            } else if (dy < 0) {
                lty = (Y + 1 - y0) / dy;
                loy = 1;
                const u = (Y - y0) / dy;
                if (before(u, 1, ut, uo)) {
                    ut = u;
                    uo = 1;
                }
            } else if (!(Y <= y0 && y0 < Y + 1)) continue;
            if (before(lt, lo, ltx, lox)) {
                lt = ltx;
                lo = lox;
            }
            if (before(lt, lo, lty, loy)) {
                lt = lty;
                lo = loy;
            }
            if (!before(lt, lo, ut, uo)) continue;
            if (best && !before(lt, lo, best.t, best.open)) continue;
            const start = lt === 0 && lo === 0;
            const fx = !start && ltx === lt && lox === lo,
                fy = !start && lty === lt && loy === lo;
            let x: number,
                y: number,
                nx = 0,
                ny = 0;
            if (start) {
                x = x0;
                y = y0;
            } else {
                x = fx ? (dx > 0 ? X : X + 1) : Math.min(Math.max(x0 + lt * dx, X), X + 1);
                y = fy ? (dy > 0 ? Y : Y + 1) : Math.min(Math.max(y0 + lt * dy, Y), Y + 1);
                // A corner: the faster axis's face; x on a tie.
                if (fx && (!fy || Math.abs(dx) >= Math.abs(dy))) nx = dx > 0 ? -1 : 1;
                else ny = dy > 0 ? -1 : 1;
            }
            best = { px: X, py: Y, x, y, distance: Math.hypot(x - x0, y - y0), nx, ny, t: lt, open: lo };
        }
    }
    return best;
}

/** The RayHit fields of a hit (drops the slot, and anything else the object carries). */
export function fields(h: RayHit | null): RayHit | null {
    return h && { px: h.px, py: h.py, x: h.x, y: h.y, distance: h.distance, nx: h.nx, ny: h.ny };
}

/**
 * Seeded segments of every kind around a w × h box at (ox, oy): random floats, integers and halves (exact
 * corners and edges), axis-aligned, 45° through pixel corners, zero-length, long ones overshooting the box,
 * and starts inside the pixels `inside` lists.
 */
export function segments(
    rnd: () => number,
    w: number,
    h: number,
    ox: number,
    oy: number,
    n: number,
    inside: [number, number][] = []
): [number, number, number, number][] {
    const out: [number, number, number, number][] = [];
    const X = () => ox - 6 + rnd() * (w + 12),
        Y = () => oy - 6 + rnd() * (h + 12);
    for (let k = 0; k < n; k++) {
        let x0 = X(),
            y0 = Y(),
            x1 = X(),
            y1 = Y();
        switch (k % 9) {
            case 1:
                x0 = Math.round(x0);
                y0 = Math.round(y0);
                x1 = Math.round(x1);
                y1 = Math.round(y1);
                break;
            case 2:
                x0 = Math.round(2 * x0) / 2;
                y0 = Math.round(2 * y0) / 2;
                x1 = Math.round(2 * x1) / 2;
                y1 = Math.round(2 * y1) / 2;
                break;
            case 3:
                if (rnd() < 0.5) y1 = y0;
                else x1 = x0;
                if (rnd() < 0.5) {
                    x0 = Math.round(x0);
                    y0 = Math.round(y0);
                    x1 = Math.round(x1);
                    y1 = Math.round(y1);
                }
                break;
            case 4: {
                // 45° from a pixel corner: through a corner at every pixel.
                x0 = Math.round(x0);
                y0 = Math.round(y0);
                const d = Math.round(rnd() * (w + h)),
                    sx = rnd() < 0.5 ? 1 : -1,
                    sy = rnd() < 0.5 ? 1 : -1;
                x1 = x0 + sx * d;
                y1 = y0 + sy * d;
                break;
            }
            case 5:
                x1 = x0;
                y1 = y0;
                if (rnd() < 0.5) {
                    x0 = x1 = Math.round(x0);
                }
                break;
            case 6: {
                // Long: from outside, overshooting far beyond the box.
                const th = rnd() * 2 * Math.PI,
                    L = 10 * (w + h + 10);
                x1 = x0 + L * Math.cos(th);
                y1 = y0 + L * Math.sin(th);
                x0 -= L * Math.cos(th);
                y0 -= L * Math.sin(th);
                break;
            }
            case 7:
                if (inside.length > 0) {
                    const [i, j] = inside[Math.floor(rnd() * inside.length)];
                    x0 = ox + i + rnd();
                    y0 = oy + j + rnd();
                }
                break;
            case 8: {
                // Slopes p/q from integer points: exact corner crossings along the way.
                x0 = Math.round(x0);
                y0 = Math.round(y0);
                const p = Math.round(rnd() * 6) - 3,
                    q = Math.round(rnd() * 6) - 3,
                    m = 1 + Math.round(rnd() * 12);
                x1 = x0 + m * p;
                y1 = y0 + m * q;
                break;
            }
        }
        out.push([x0, y0, x1, y1]);
    }
    return out;
}
