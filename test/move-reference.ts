// The rules of moveAndSlide (docs/movement.md), written as they read: one layer test per pixel step. The
// oracle that src/movement/move-and-slide.ts must equal on every input, fast paths included.
import type { CollisionLayer } from '../src/index.js';
import type { Mask } from '../src/index.js';
import type { MoveResult } from '../src/index.js';

/** The per-pixel reference; also counts the layer tests it makes (the cost a fast path is measured against). */
export function referenceMove(
    solid: CollisionLayer,
    mask: Mask,
    x: number,
    y: number,
    dx: number,
    dy: number,
    options: { stepUp?: number; snapDown?: number; oneWay?: CollisionLayer | null; dropThrough?: boolean } = {},
    counter?: { tests: number }
): MoveResult {
    const stepUp = options.stepUp ?? 0,
        snapDown = options.snapDown ?? 0,
        oneWay = options.dropThrough === true ? null : (options.oneWay ?? null);
    const P = (px: number, py: number) => {
        if (counter) counter.tests++;
        return solid.overlaps(mask, px, py);
    };
    const O = (px: number, py: number) => {
        if (oneWay === null) return false;
        if (counter) counter.tests++;
        return oneWay.overlaps(mask, px, py);
    };
    const ground = (px: number, py: number) => P(px, py + 1) || (O(px, py + 1) && !O(px, py));
    let px = Math.floor(x),
        py = Math.floor(y);
    const floorBefore = ground(px, py);
    // 1. Horizontal. B(q): the next column is blocked at row q (solid, or one-way pixels entered from outside
    // them by a mover that stood on ground when the move began).
    const n = Math.floor(x + dx) - px,
        s = Math.sign(n);
    let onWall = false;
    for (let i = 0; i < Math.abs(n); i++) {
        const inside = floorBefore && O(px, py);
        const B = (q: number) => P(px + s, q) || (floorBefore && !inside && O(px + s, q));
        if (!B(py)) {
            px += s;
            continue;
        }
        let k = 1;
        while (k <= stepUp && B(py - k)) k++;
        if (k <= stepUp) {
            px += s;
            py -= k;
            y -= k;
            continue;
        }
        // Nothing free of both: one-way pixels never stop the move (walked into); solid is climbed alone.
        if (!P(px + s, py)) {
            px += s;
            continue;
        }
        k = 1;
        while (k <= stepUp && P(px + s, py - k)) k++;
        if (k <= stepUp) {
            px += s;
            py -= k;
            y -= k;
            continue;
        }
        onWall = true;
        break;
    }
    x = onWall ? px : x + dx;
    // 2. Snap.
    if (snapDown > 0 && floorBefore && dy >= 0 && !ground(px, py)) {
        for (let k = 1; k <= snapDown; k++) {
            if (ground(px, py + k)) {
                py += k;
                y += k;
                break;
            }
        }
    }
    // 3. Vertical.
    const m = Math.floor(y + dy) - py,
        t = Math.sign(m);
    let stopped = false;
    for (let i = 0; i < Math.abs(m); i++) {
        if (t > 0 ? ground(px, py) : P(px, py - 1)) {
            stopped = true;
            break;
        }
        py += t;
    }
    y = stopped ? py : y + dy;
    // 4. Contacts.
    const onSolid = P(px, py + 1),
        onFloor = ground(px, py);
    return { x, y, onFloor, onCeiling: P(px, py - 1), onWall, floor: onSolid ? solid : onFloor ? oneWay : null };
}
