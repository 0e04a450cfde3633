// Contact helpers on plain overlap functions, so bodies and layers share one implementation.
// Everything here runs on request (one contact, one sweep), never inside the pair loop.

/** A unit normal and an integer push-out vector, written by {@link estimateNormal} and {@link pushOut}. */
export interface NormalOut {
    normalX: number;
    normalY: number;
    pushX: number;
    pushY: number;
}

/**
 * pygame's finite-difference normal: g = (area(+1, 0) − area(−1, 0), area(0, +1) − area(0, −1)) for
 * the moving side shifted by one pixel; the normal is −g normalised (the way the overlap shrinks).
 * When g is zero (symmetric overlap) it falls back to (fx, fy) normalised, then to (0, −1) (up).
 */
export function estimateNormal(area: (dx: number, dy: number) => number, fx: number, fy: number, out: NormalOut): void {
    let nx = area(-1, 0) - area(1, 0), ny = area(0, -1) - area(0, 1);
    if (nx === 0 && ny === 0) { nx = fx; ny = fy; }
    const len = Math.hypot(nx, ny);
    if (len === 0) { out.normalX = 0; out.normalY = -1; return; }
    out.normalX = nx / len;
    out.normalY = ny / len;
}

/**
 * The smallest integer t ≥ 1 whose translation (round(t·nx), round(t·ny)) makes `overlaps` false,
 * written to out.pushX/pushY; `limit` bounds t (any t past both boxes' combined size separates).
 * A linear scan rather than exponential-then-binary search: overlaps are a few pixels deep in play,
 * where both cost about the same number of early-exit tests, and the scan is also exact for concave
 * masks, which overlap again further along (bisection would then return a larger t).
 */
export function pushOut(overlaps: (dx: number, dy: number) => boolean, nx: number, ny: number, limit: number, out: NormalOut): void {
    let px = 0, py = 0;
    for (let t = 1; t <= limit; t++) {
        const x = Math.round(t * nx) || 0, y = Math.round(t * ny) || 0;
        if (x === px && y === py) continue;
        px = x; py = y;
        if (!overlaps(x, y)) break;
    }
    out.pushX = px;
    out.pushY = py;
}
