// A World state's slot upkeep: growing the per-slot typed arrays, placing a slot's transformed mask and
// box, marking changed slots for the grid, and recycling removed slots (with the id-order ranks) at detection.
import type { Body } from './body.js';
import type { Mask } from '../core/mask.js';
import type { WorldState } from './state.js';

/** @internal Recomputes the transformed mask, offset and box of slot s. */
export function placeSlot<T>(w: WorldState<T>, s: number): void {
    const t = w.tf[s];
    const p = w.transforms.get(w.source[s] as Mask, t.angle, t.scaleX, t.scaleY, t.flipX, t.flipY);
    w.masks[s] = p.mask;
    w.snapMask[s] = -1;
    w.tfIdentity[s] = t.angle === 0 && t.scaleX === 1 && t.scaleY === 1 && !t.flipX && !t.flipY ? 1 : 0;
    w.offX[s] = p.x;
    w.offY[s] = p.y;
    const b = w.boxes;
    b.x0[s] = Math.floor(w.posX[s]) + p.x;
    b.y0[s] = Math.floor(w.posY[s]) + p.y;
    b.x1[s] = b.x0[s] + p.mask.width;
    b.y1[s] = b.y0[s] + p.mask.height;
    touchSlot(w, s);
}

/** @internal Marks slot s as changed since the grid was built. */
export function touchSlot<T>(w: WorldState<T>, s: number): void {
    if (!w.gridValid || w.moved[s]) return;
    w.moved[s] = 1;
    w.movedList[w.movedCount++] = s;
}

/** @internal Recycles removed slots and refreshes ranks (position in id order) for the pair sort keys. */
export function flushSlots<T>(w: WorldState<T>): void {
    if (w.pendingFree.length > 0) {
        for (const s of w.pendingFree) {
            w.bodies[s] = null;
            w.idOf[s] = -1;
            w.source[s] = null;
            w.masks[s] = null;
            w.free.push(s);
        }
        w.pendingFree.length = 0;
        let m = 0;
        const order = w.order;
        for (let k = 0; k < w.orderCount; k++) if (w.bodies[order[k]]) order[m++] = order[k];
        w.orderCount = m;
    }
    if (w.ranksDirty) {
        // byRank too: the step's pairs, sorted by rank, read their bodies from it in one lookup.
        const { order, rank, byRank, bodies } = w;
        for (let k = 0; k < w.orderCount; k++) {
            rank[order[k]] = k;
            byRank[k] = bodies[order[k]] as Body<T>;
        }
        byRank.length = w.orderCount;
        w.ranksDirty = false;
    }
}

/** @internal Grows every per-slot array to `cap` slots, keeping their contents. */
export function growSlots<T>(w: WorldState<T>, cap: number): void {
    const f64 = (a: Float64Array) => {
        const b = new Float64Array(cap);
        b.set(a);
        return b;
    };
    const i32 = (a: Int32Array) => {
        const b = new Int32Array(cap);
        b.set(a);
        return b;
    };
    w.posX = f64(w.posX);
    w.posY = f64(w.posY);
    w.idOf = f64(w.idOf);
    const b = w.boxes;
    w.boxes = { x0: f64(b.x0), y0: f64(b.y0), x1: f64(b.x1), y1: f64(b.y1) };
    w.offX = i32(w.offX);
    w.offY = i32(w.offY);
    w.cat = i32(w.cat);
    w.colw = i32(w.colw);
    w.grp = i32(w.grp);
    w.rank = i32(w.rank);
    w.seen = i32(w.seen);
    w.qbuf = i32(w.qbuf);
    w.order = i32(w.order);
    w.list = i32(w.list);
    w.movedList = i32(w.movedList);
    const m = new Uint8Array(cap);
    m.set(w.moved);
    w.moved = m;
    w.snapMask = i32(w.snapMask);
    w.flags = i32(w.flags);
    const ident = new Uint8Array(cap);
    ident.set(w.tfIdentity);
    w.tfIdentity = ident;
    const seen = new Uint8Array(cap);
    seen.set(w.snapSeen);
    w.snapSeen = seen;
    w.cap = cap;
    // The grid reads the boxes arrays it was built with; those were just replaced.
    w.gridValid = false;
}
