// Shape analysis of a mask: bounding boxes, centroid and orientation, outline, connected components. Free
// functions, not Mask methods, so that a bundle pulls only the ones it calls.
import { bitIndexSum, bitRange, ctz, msb, popcnt } from '../base/bits.js';
import { checkCoord, checkInt, outOfRange } from '../base/check.js';
import { checkFunction } from '../base/check-types.js';
import { labelRuns, traceOutline } from './components.js';
import type { Point, Rect } from '../base/types.js';
import { checkMask, getBit, Mask } from './mask.js';

/** The smallest rectangle holding every set pixel of `mask`, or `null` for an empty mask. */
export function boundingRect(mask: Mask): Rect | null {
    checkMask(mask, 'mask');
    const { words, height, strips } = mask;
    let minY = height,
        maxY = -1,
        minX = -1,
        maxX = -1;
    for (let s = 0; s < strips; s++) {
        let col = 0;
        for (let y = 0, i = s * height; y < height; y++, i++) {
            const w = words[i];
            if (w !== 0) {
                col |= w;
                if (y < minY) minY = y;
                if (y > maxY) maxY = y;
            }
        }
        if (col !== 0) {
            if (minX < 0) minX = (s << 5) + ctz(col);
            maxX = (s << 5) + msb(col);
        }
    }
    return maxY < 0 ? null : { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

/**
 * One bounding rectangle per 8-connected component of `mask`, in the row-major order of each component's first pixel.
 */
export function boundingRects(mask: Mask): Rect[] {
    checkMask(mask, 'mask');
    const m = mask;
    const runs = labelRuns(m._words, m.width, m.height);
    const rects: Rect[] = [];
    const maxX: number[] = [];
    for (let r = 0; r < runs.count; r++) {
        const c = runs.label[r],
            x0 = runs.x0[r],
            x1 = runs.x1[r],
            y = runs.y[r];
        if (c === rects.length) {
            rects.push({ x: x0, y, width: 0, height: 0 });
            maxX.push(x1);
        }
        const rect = rects[c];
        if (x0 < rect.x) rect.x = x0;
        if (x1 > maxX[c]) maxX[c] = x1;
        rect.height = y - rect.y + 1;
    }
    for (let c = 0; c < rects.length; c++) rects[c].width = maxX[c] - rects[c].x;
    return rects;
}

/**
 * Mean position of the set pixels as floats (pixel (x, y) counts as (x, y); add 0.5 for pixel centres), or `null` when
 * empty.
 */
export function centroid(mask: Mask): Point | null {
    checkMask(mask, 'mask');
    const m = mask;
    const { words, height, strips } = m;
    let n = 0,
        sx = 0,
        sy = 0;
    for (let s = 0; s < strips; s++) {
        for (let y = 0, i = s * height; y < height; y++, i++) {
            const w = words[i];
            if (w === 0) continue;
            const c = popcnt(w);
            n += c;
            sx += c * (s << 5) + bitIndexSum(w);
            sy += c * y;
        }
    }
    return n === 0 ? null : { x: sx / n, y: sy / n };
}

/**
 * Orientation of the set pixels in degrees, from second-order central moments (pygame's formula,
 * in floating point): 0 for horizontal, −45 for a `\` diagonal, +45 for `/`; 0 when empty.
 */
export function angle(mask: Mask): number {
    const c = centroid(mask),
        m = mask;
    if (!c) return 0;
    let m20 = 0,
        m02 = 0,
        m11 = 0;
    eachSet(m, (x, y) => {
        const ex = x - c.x,
            ey = y - c.y;
        m20 += ex * ex;
        m02 += ey * ey;
        m11 += ex * ey;
    });
    const a = (-0.5 * Math.atan2(2 * m11, m20 - m02) * 180) / Math.PI;
    return a === 0 ? 0 : a; // no -0
}

/** Calls `fn(x, y)` for every set pixel of `mask`, strip by strip (not row-major). */
export function forEachSet(mask: Mask, fn: (x: number, y: number) => void): void {
    checkMask(mask, 'mask');
    checkFunction('fn', fn, 'a function (x, y) => void');
    eachSet(mask, fn);
}

/** @internal forEachSet, unchecked. */
export function eachSet(m: Mask, fn: (x: number, y: number) => void): void {
    const { words, height, strips } = m;
    for (let s = 0; s < strips; s++) {
        for (let y = 0, i = s * height; y < height; y++, i++) {
            let w = words[i] | 0;
            while (w !== 0) {
                fn((s << 5) + ctz(w), y);
                w &= w - 1;
            }
        }
    }
}

/**
 * Boundary pixels of `mask`'s first 8-connected component in row-major order, traced clockwise on
 * screen from its first pixel, which is repeated at the end (pygame's Moore-neighbour tracing).
 * Holes and other components are ignored; `every = n` keeps every n-th point. Empty mask: `[]`.
 */
export function outline(mask: Mask, every = 1): Point[] {
    checkMask(mask, 'mask');
    const m = mask;
    checkInt('every', every, 1, 2 ** 31 - 1);
    const first = firstSet(m);
    if (!first) return [];
    const flat = traceOutline((x, y) => x >= 0 && y >= 0 && x < m.width && y < m.height && getBit(m, x, y), first);
    const pts: Point[] = [];
    for (let i = 0; i < flat.length / 2; i += every) pts.push({ x: flat[2 * i], y: flat[2 * i + 1] });
    return pts;
}

/**
 * The 8-connected component of `mask` containing pixel (x, y) as a mask of its size (empty if that pixel is
 * clear); without a position, the largest component (ties: the one whose first pixel comes first in row-major order).
 */
export function connectedComponent(mask: Mask, x?: number, y?: number): Mask {
    checkMask(mask, 'mask');
    const m = mask;
    const out = new Mask(m.width, m.height);
    const runs = labelRuns(m._words, m.width, m.height);
    if (runs.count === 0) {
        if (x !== undefined || y !== undefined) checkInside(m, x, y);
        return out;
    }
    let target: number;
    if (x === undefined && y === undefined) {
        const area = new Float64Array(runs.components);
        for (let r = 0; r < runs.count; r++) area[runs.label[r]] += runs.x1[r] - runs.x0[r];
        target = 0;
        for (let c = 1; c < area.length; c++) if (area[c] > area[target]) target = c;
    } else {
        const [px, py] = checkInside(m, x, y);
        if (!getBit(m, px, py)) return out;
        target = -1;
        for (let r = 0; r < runs.count && target < 0; r++) {
            if (runs.y[r] === py && runs.x0[r] <= px && px < runs.x1[r]) target = runs.label[r];
        }
    }
    for (let r = 0; r < runs.count; r++) if (runs.label[r] === target) setRun(out, runs.x0[r], runs.x1[r], runs.y[r]);
    return out;
}

/**
 * Every 8-connected component of `mask` with at least `minArea` pixels, as masks of its size, in the row-major
 * order of their first pixels (pygame's `connected_components(minimum)`).
 */
export function connectedComponents(mask: Mask, minArea = 0): Mask[] {
    checkMask(mask, 'mask');
    const m = mask;
    checkInt('minArea', minArea, -(2 ** 53), 2 ** 53);
    const runs = labelRuns(m._words, m.width, m.height);
    const area = new Float64Array(runs.components);
    for (let r = 0; r < runs.count; r++) area[runs.label[r]] += runs.x1[r] - runs.x0[r];
    const masks: (Mask | null)[] = [];
    for (let c = 0; c < runs.components; c++) masks.push(area[c] >= minArea ? new Mask(m.width, m.height) : null);
    for (let r = 0; r < runs.count; r++) {
        const c = masks[runs.label[r]];
        if (c) setRun(c, runs.x0[r], runs.x1[r], runs.y[r]);
    }
    return masks.filter((m): m is Mask => m !== null);
}

// Sets pixels x0..x1-1 of row y.
function setRun(m: Mask, x0: number, x1: number, y: number): void {
    const h = m.height,
        words = m._words;
    for (let s = x0 >>> 5, last = (x1 - 1) >>> 5; s <= last; s++) {
        const lo = s === x0 >>> 5 ? x0 & 31 : 0;
        const hi = s === last ? ((x1 - 1) & 31) + 1 : 32;
        words[s * h + y] |= bitRange(lo, hi);
    }
}

// First set pixel in row-major order.
function firstSet(m: Mask): Point | null {
    const { words, height, strips } = m;
    let bestY = height,
        bestX = 0;
    for (let s = 0; s < strips; s++) {
        for (let y = 0, i = s * height; y < bestY; y++, i++) {
            if (words[i] !== 0) {
                bestY = y;
                bestX = (s << 5) + ctz(words[i]);
                break;
            }
        }
    }
    return bestY === height ? null : { x: bestX, y: bestY };
}

function checkInside(m: Mask, x: number | undefined, y: number | undefined): [number, number] {
    const px = checkCoord('x', x),
        py = checkCoord('y', y);
    if (px < 0 || py < 0 || px >= m.width || py >= m.height) {
        throw outOfRange(`Pixel (${px}, ${py}) is outside the ${m.width}x${m.height} mask.`);
    }
    return [px, py];
}
