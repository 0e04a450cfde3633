// A World state's grid upkeep: the grid rebuilt from the live bodies when stale, and candidate lookup from the last
// grid plus the bodies changed since, so queries between steps cost O(cells + changes), not a rebuild.
import { sortById, type Body } from './body.js';
import type { WorldState } from './state.js';

/** @internal Rebuilds the grid from every live body with a category and a non-empty box, unless nothing changed. */
export function rebuildGrid<T>(w: WorldState<T>): void {
    if (w.gridValid && w.movedCount === 0 && !w.removedSinceBuild) return;
    const { cat, list, moved, movedList } = w;
    const { x0, y0, x1, y1 } = w.boxes;
    // Only listed slots are flagged (touchSlot); clearing those spares a pass over every slot.
    for (let k = 0; k < w.movedCount; k++) moved[movedList[k]] = 0;
    let n = 0,
        sum = 0,
        maxSide = 0;
    let minX = Infinity,
        minY = Infinity,
        maxX = -Infinity,
        maxY = -Infinity;
    for (let s = 0; s < w.used; s++) {
        // cat[s] is 0 for removed bodies and free slots (remove() clears it): no need to read the Body objects.
        const ax = x0[s],
            ay = y0[s],
            bx = x1[s],
            by = y1[s];
        if (cat[s] === 0 || bx <= ax || by <= ay) continue;
        list[n++] = s;
        const side = bx - ax > by - ay ? bx - ax : by - ay;
        sum += side;
        if (side > maxSide) maxSide = side;
        // The bounds and largest side let the grid skip its own pass when no body is large.
        if (ax < minX) minX = ax;
        if (ay < minY) minY = ay;
        if (bx > maxX) maxX = bx;
        if (by > maxY) maxY = by;
    }
    const cell =
        w.fixedCell !== 0
            ? w.fixedCell
            : autoCell(w.grid.cellSize, n, n > 0 ? sum / n : 8, (maxX - minX) * (maxY - minY));
    const b = w.bounds;
    b[0] = minX;
    b[1] = minY;
    b[2] = maxX;
    b[3] = maxY;
    w.grid.build(list, n, w.boxes, cell, maxSide, b);
    w.movedCount = 0;
    w.gridValid = true;
    w.removedSinceBuild = false;
}

/**
 * @internal The grid's cell side when the World's options name none, from the live bodies: `n` of them with mean
 * side `mean` (the longer side of each box) whose boxes span `area` square pixels together, and the last build's
 * side `prev` (0 before the first). The aim is about one cell per body, between one and four mean sides: cells as
 * small as the bodies made 14 buckets per body in a sparse world (1.4 million at 100,000 bodies), edited at
 * random addresses each step, which cost more than the extra box tests of larger cells (docs/performance.md);
 * past four mean sides, bodies packed in a cluster would crowd a cell. The side is a power of two at or above the
 * mean side, the target rounded to the nearest power of two. The previous side is kept while the target stays
 * within 40% of the range that rounds to it (and the mean side within 40% of it), so a world whose bounds hover
 * at a boundary does not lay its cells out anew each step. Which pairs are found never depends on the side.
 */
export function autoCell(prev: number, n: number, mean: number, area: number): number {
    let want = Math.sqrt(area / Math.max(n, 1));
    if (!(want <= 4 * mean)) want = 4 * mean;
    let cell = 8;
    while (cell < mean && cell < 2 ** 24) cell *= 2;
    while (want > cell * Math.SQRT2 && cell < 2 ** 24) cell *= 2;
    const keep =
        prev !== 0 && prev * 1.4 >= mean && want > (prev / Math.SQRT2) * 0.6 && want <= prev * Math.SQRT2 * 1.4;
    return keep ? prev : cell;
}

/**
 * @internal Makes the grid usable for a query: rebuilt when invalid or once more than an eighth of the
 * bodies changed since it was built (the changed ones are otherwise scanned one by one).
 */
export function refreshGrid<T>(w: WorldState<T>): void {
    if (!w.gridValid || w.movedCount > Math.max(64, w.live >> 3)) rebuildGrid(w);
}

/**
 * @internal Live bodies with (category & f) ≠ 0 whose boxes meet [qx0, qx1) × [qy0, qy1), sorted by id, into
 * out; returns their count. Uses the last grid plus the bodies changed since (removed ones are skipped by their flag).
 */
export function gridCandidates<T>(
    w: WorldState<T>,
    qx0: number,
    qy0: number,
    qx1: number,
    qy1: number,
    f: number,
    out: Body<T>[]
): number {
    refreshGrid(w);
    const { x0, y0, x1, y1 } = w.boxes;
    const { cat, bodies, seen, movedList, qbuf } = w;
    let token = ++w.token;
    if (token >= 2 ** 30) {
        seen.fill(0);
        token = w.token = 1;
    }
    const found = w.grid.query(qx0, qy0, qx1, qy1, seen, token, qbuf);
    let n = 0;
    for (let k = 0; k < found; k++) {
        const s = qbuf[k],
            b = bodies[s];
        seen[s] = token;
        if (b && b.slot >= 0 && (cat[s] & f) !== 0) out[n++] = b;
    }
    for (let k = 0; k < w.movedCount; k++) {
        const s = movedList[k],
            b = bodies[s];
        if (seen[s] === token || !b || b.slot < 0 || (cat[s] & f) === 0) continue;
        seen[s] = token;
        if (x0[s] < qx1 && y0[s] < qy1 && x1[s] > qx0 && y1[s] > qy0) out[n++] = b;
    }
    out.length = n;
    sortById(out, n);
    return n;
}
