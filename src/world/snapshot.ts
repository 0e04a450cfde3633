// A World state's snapshot, restore and hash. A snapshot is canonical: the live bodies in id order with their
// positions, masks (by id in the World's mask table), filters and transforms, the layers with their filters,
// and the previous step's pairs (what begin/stay/end compare against). Slot numbers, the grid and the caches are
// not saved: they never change an answer, and a restore rebuilds them. Two Worlds that went through different
// slot histories to the same bodies therefore write the same bytes and the same hash.
import { SnapshotReader, SnapshotWriter, hashBytes } from '../base/snapshot.js';
import { describe } from '../base/check.js';
import type { Mask } from '../core/mask.js';
import { Body } from './body.js';
import { flushSlots, growSlots, placeSlot, touchSlot } from './slots.js';
import { ONE_WAY, type WorldState } from './state.js';

const MAGIC = 0x53574d48; // 'HMWS'
const VERSION = 1;
// Per body: identity transform unless flagged (then angle, scaleX, scaleY and the flips follow).
const FLIP_X = 1, FLIP_Y = 2;

// Tells one World's tables from another's in this process: a snapshot restores only into the World that took it.
let serials = 0;

/** @internal What a World keeps so snapshots can name masks and revive body handles. */
export class SnapshotTables<T> {
    /** This World's number among the Worlds that took snapshots in this process (written into its snapshots). */
    readonly serial = ++serials;
    /** Masks by snapshot id, in the order they were first saved; kept alive so any snapshot can be restored. */
    readonly masks: Mask[] = [];
    readonly maskIds = new Map<Mask, number>();
    /** Handles of bodies and layers that were in a snapshot, by id (weakly: a dropped handle is made anew). */
    readonly handles = new Map<number, WeakRef<Body<T>>>();
    /** Reused by snapshot() and hash(). */
    readonly writer = new SnapshotWriter();
    scratch = new Int32Array(64);
    #cols: Columns | null = null;

    /** Scratch columns for a restore of `n` bodies (reused: a game restores every frame). */
    columns(n: number): Columns {
        if (this.#cols === null || this.#cols.ids.length < n) this.#cols = new Columns(Math.max(n, 64, 2 * (this.#cols?.ids.length ?? 0)));
        return this.#cols;
    }
}

/** @internal The columns a restore reads into before it changes anything. */
class Columns {
    readonly ids: Float64Array; readonly px: Float64Array; readonly py: Float64Array;
    readonly maskIds: Int32Array; readonly slots: Int32Array; readonly cat: Int32Array; readonly colw: Int32Array; readonly grp: Int32Array; readonly flags: Int32Array;
    #checked = new Uint8Array(16);
    constructor(n: number) {
        this.ids = new Float64Array(n); this.px = new Float64Array(n); this.py = new Float64Array(n);
        this.maskIds = new Int32Array(n); this.slots = new Int32Array(n); this.cat = new Int32Array(n); this.colw = new Int32Array(n); this.grp = new Int32Array(n); this.flags = new Int32Array(n);
    }

    /** A zeroed flag per mask of the table. */
    checked(n: number): Uint8Array {
        if (this.#checked.length < n) this.#checked = new Uint8Array(Math.max(n, 2 * this.#checked.length));
        else this.#checked.fill(0, 0, n);
        return this.#checked;
    }
}

function maskId<T>(t: SnapshotTables<T>, m: Mask): number {
    let id = t.maskIds.get(m);
    if (id === undefined) {
        id = t.masks.length;
        t.masks.push(m);
        t.maskIds.set(m, id);
    }
    return id;
}

function remember<T>(t: SnapshotTables<T>, b: Body<T>): void {
    if (t.handles.get(b.id)?.deref() !== b) t.handles.set(b.id, new WeakRef(b));
}

// Drops the entries of handles that were collected, once the table has grown well past the live ones.
function prune<T>(t: SnapshotTables<T>, live: number): void {
    if (t.handles.size <= 2 * live + 1024) return;
    for (const [id, ref] of t.handles) if (ref.deref() === undefined) t.handles.delete(id);
}

// The live bodies' slots in id order (order[] also holds removed slots until the next detection).
function liveSlots<T>(st: WorldState<T>): number {
    flushOrder(st);
    return st.orderCount;
}

function flushOrder<T>(st: WorldState<T>): void {
    if (st.pendingFree.length > 0 || st.ranksDirty) flushSlots(st);
}

/**
 * @internal Writes the state into `w`, bodies in id order. With `contentIds`, canonically for {@link hashWorld}: masks
 * named by a hash of their size and words (the same in every process), no slot numbers, no World serial. Otherwise
 * for restore: masks by their id in the mask table, and each body's slot, so a restore into the same bodies is
 * an update in place.
 */
function writeWorld<T>(st: WorldState<T>, t: SnapshotTables<T>, w: SnapshotWriter, contentIds: Map<Mask, number> | null): void {
    const n = liveSlots(st), order = st.order, layers = st.layers;
    w.reset().u32(MAGIC).u32(VERSION).u32(contentIds === null ? t.serial : 0).f64(st.nextId).u32(n).u32(layers.length);
    w.gatherF64(st.idOf, order, n);
    if (contentIds === null) {
        const ids = st.snapMask;
        for (let k = 0; k < n; k++) { const s = order[k]; if (ids[s] < 0) ids[s] = maskId(t, st.source[s] as Mask); }
        w.gatherI32(ids, order, n);
        w.align8().i32s(order, n);
    } else {
        if (t.scratch.length < n) t.scratch = new Int32Array(Math.max(n, 2 * t.scratch.length));
        const ids = t.scratch;
        for (let k = 0; k < n; k++) ids[k] = contentId(contentIds, st.source[order[k]] as Mask);
        w.align8().i32s(ids, n);
    }
    w.gatherF64(st.posX, order, n).gatherF64(st.posY, order, n);
    w.gatherI32(st.cat, order, n).gatherI32(st.colw, order, n).gatherI32(st.grp, order, n).gatherI32(st.flags, order, n);
    // Transforms: only the bodies whose transform is not the identity, by their index in id order.
    const ident = st.tfIdentity;
    let nt = 0;
    for (let k = 0; k < n; k++) nt += 1 - ident[order[k]];
    w.u32(nt);
    for (let k = 0; k < n; k++) {
        if (ident[order[k]] === 1) continue;
        const tf = st.tf[order[k]];
        w.u32(k).u32((tf.flipX ? FLIP_X : 0) | (tf.flipY ? FLIP_Y : 0)).f64(tf.angle).f64(tf.scaleX).f64(tf.scaleY);
    }
    for (let l = 0; l < layers.length; l++) w.f64(layers[l].id).i32(st.layerCat[l]).i32(st.layerColw[l]).u32(st.layerOneWay[l] ? 1 : 0);
    // The previous step's pairs whose bodies are all still there (a pair with a removed body is silent forever).
    const pa = st.events.prevA, pb = st.events.prevB;
    let np = 0;
    for (let k = 0; k < pa.length; k++) if (pa[k].slot >= 0 && pb[k].slot >= 0) np++;
    w.u32(np);
    for (let k = 0; k < pa.length; k++) if (pa[k].slot >= 0 && pb[k].slot >= 0) w.f64(pa[k].id).f64(pb[k].id);
}

// A mask's name in a hash: its size and words, hashed once per hash() call.
function contentId(ids: Map<Mask, number>, m: Mask): number {
    let id = ids.get(m);
    if (id === undefined) {
        const words = m.words, bytes = new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
        id = (hashBytes(bytes) ^ Math.imul(m.width, 0x9e3779b1) ^ Math.imul(m.height, 0x85ebca6b)) >>> 0;
        ids.set(m, id);
    }
    return id;
}

/** @internal The snapshot bytes of the state: a new array, or `out` when it is large enough (its start returned). */
export function snapshotWorld<T>(st: WorldState<T>, t: SnapshotTables<T>, out?: Uint8Array): Uint8Array {
    if (out !== undefined && !(out instanceof Uint8Array)) throw new TypeError(`out must be a Uint8Array, got ${describe(out)}.`);
    writeWorld(st, t, t.writer, null);
    let added = false;
    for (let k = 0; k < st.orderCount; k++) {
        const s = st.order[k];
        if (st.snapSeen[s] === 0) { st.snapSeen[s] = 1; remember(t, st.bodies[s] as Body<T>); added = true; }
    }
    for (const l of st.layers) remember(t, l);
    if (added) prune(t, st.orderCount + st.layers.length);
    return t.writer.bytes(out);
}

/** @internal A hash of the state, the same in every process and engine for the same bodies, masks and pairs. */
export function hashWorld<T>(st: WorldState<T>, t: SnapshotTables<T>): number {
    writeWorld(st, t, t.writer, new Map());
    return t.writer.hash();
}

/** @internal Makes the state what `bytes` (a snapshot of this World) says; throws before changing anything when they are not. */
export function restoreWorld<T>(st: WorldState<T>, t: SnapshotTables<T>, bytes: Uint8Array): void {
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`restore() needs the Uint8Array that snapshot() returned, got ${describe(bytes)}.`);
    const r = new SnapshotReader(bytes, 'world.restore()');
    if (bytes.length < 8 || r.u32() !== MAGIC) throw new Error('world.restore(): these bytes are not a World snapshot (they do not start with its tag).');
    const version = r.u32();
    if (version !== VERSION) throw new Error(`world.restore(): the snapshot has version ${version}; this hitmask reads version ${VERSION}.`);
    if (r.u32() !== t.serial) throw new Error('world.restore(): the snapshot was taken by another World; a World restores only its own snapshots (its masks are named by this World\'s table).');
    const nextId = r.f64();
    // Each body takes at least 44 bytes: a count the bytes cannot hold is corrupt, refused before allocating.
    const n = r.count('the body count', Math.floor(bytes.length / 44)), nl = r.count('the layer count', Math.floor(bytes.length / 20));
    const c = t.columns(n), { ids, maskIds, slots, px, py, cat, colw, grp, flags } = c;
    r.columnF64(ids, n);
    r.columnI32(maskIds, n);
    r.align8();
    r.i32s(slots, n);
    // Each mask of the table is checked once (bodies share a few masks).
    const masks = t.masks, checked = c.checked(masks.length);
    for (let k = 0; k < n; k++) {
        const id = maskIds[k] >>> 0;
        if (id >= masks.length) throw new Error(`world.restore(): body ${ids[k]} names mask ${id}, which this World never saved; restore snapshots into the World that took them.`);
        if (checked[id] !== 0) continue;
        checked[id] = 1;
        if (masks[id].disposed) throw new Error(`world.restore(): body ${ids[k]}'s mask (${masks[id]}) was disposed since the snapshot; keep masks alive while snapshots may be restored.`);
    }
    r.columnF64(px, n); r.columnF64(py, n);
    r.columnI32(cat, n); r.columnI32(colw, n); r.columnI32(grp, n); r.columnI32(flags, n);
    for (let k = 0; k < n; k++) if ((flags[k] & ~ONE_WAY) !== 0) throw new Error(`world.restore(): body ${ids[k]} has flags ${flags[k]}; the snapshot is corrupt.`);
    const nt = r.count('the transform count', n), tfs: Tf[] = [];
    for (let i = 0; i < nt; i++) {
        const k = r.u32(), f = r.u32(), angle = r.f64(), scaleX = r.f64(), scaleY = r.f64();
        if (k >= n || (i > 0 && k <= tfs[i - 1].k)) throw new Error(`world.restore(): transform ${i} is for body index ${k}; the snapshot is corrupt.`);
        tfs.push({ k, angle, scaleX, scaleY, flipX: (f & FLIP_X) !== 0, flipY: (f & FLIP_Y) !== 0 });
    }
    const layers: Body<T>[] = [], layerCat: number[] = [], layerColw: number[] = [], layerOneWay: boolean[] = [];
    for (let l = 0; l < nl; l++) {
        const id = r.f64(), c = r.i32(), cw = r.i32(), ow = r.u32();
        if (ow > 1) throw new Error(`world.restore(): layer ${id} has flags ${ow}; the snapshot is corrupt.`);
        layerOneWay.push(ow === 1);
        const h = handleOf(st, t, id);
        if (h === null || h.layer === null) throw new Error(`world.restore(): layer ${id} of the snapshot is gone (its handle was dropped after it was removed); keep layer handles while snapshots may be restored.`);
        layers.push(h); layerCat.push(c); layerColw.push(cw);
    }
    const np = r.count('the pair count', Math.floor(bytes.length / 16)), pairIds = new Float64Array(2 * np);
    for (let k = 0; k < 2 * np; k++) pairIds[k] = r.f64();
    r.end();
    for (let k = 1; k < n; k++) if (!(ids[k] > ids[k - 1])) throw new Error('world.restore(): body ids are out of order; the snapshot is corrupt.');
    if (n > 0 && !(nextId > ids[n - 1])) throw new Error('world.restore(): the next id is not past every body id; the snapshot is corrupt.');

    // Everything is read. Restoring into the bodies the World holds now (the usual rollback) updates their
    // slots in place and leaves the grid to its usual upkeep; otherwise the slots are laid out afresh.
    flushOrder(st);
    const same = sameBodies(st, ids, slots, n);
    const bodies: Body<T>[] = same ? [] : new Array(n);
    if (!same) {
        for (let k = 0; k < n; k++) {
            const h = handleOf(st, t, ids[k]);
            if (h !== null && h.layer !== null) throw new Error(`world.restore(): body ${ids[k]} is a layer here; the snapshot is corrupt.`);
            bodies[k] = h ?? new Body<T>(st, ids[k], -1, undefined as T, null);
        }
    }
    const pa: Body<T>[] = new Array(np), pb: Body<T>[] = new Array(np);
    for (let k = 0; k < 2 * np; k++) {
        const id = pairIds[k], i = indexOfId(ids, n, id);
        const b = i >= 0 ? (same ? st.bodies[slots[i]] as Body<T> : bodies[i]) : layerOfId(layers, id);
        if (b === null) throw new Error('world.restore(): a pair names a body that is not in the snapshot; the snapshot is corrupt.');
        if ((k & 1) === 0) pa[k >> 1] = b; else pb[k >> 1] = b;
    }

    // Everything read and checked: now the state changes.
    if (same) updateSlots(st, slots, masks, maskIds, px, py, cat, colw, grp, tfs, n);
    else layOutSlots(st, bodies, masks, maskIds, px, py, cat, colw, grp, tfs, n);
    let oneWay = 0;
    for (let k = 0; k < n; k++) { const slot = same ? slots[k] : k; st.flags[slot] = flags[k]; oneWay += flags[k] & ONE_WAY; }
    st.oneWayBodies = oneWay;
    const oldLayers = st.layers;
    for (const l of oldLayers) l.slot = -1;
    for (let l = 0; l < nl; l++) layers[l].slot = l;
    st.layers = layers; st.layerCat = layerCat; st.layerColw = layerColw; st.layerOneWay = layerOneWay;
    if (oldLayers.length !== layers.length || oldLayers.some((l, i) => l !== layers[i])) st.ranksDirty = true;
    st.nextId = nextId;
    st.events.setPrev(pa, pb);
    flushOrder(st);
}

// Pairs name bodies by id: found by binary search in the snapshot's sorted ids, layers by a scan.
function indexOfId(ids: Float64Array, n: number, id: number): number {
    let lo = 0, hi = n - 1;
    while (lo <= hi) {
        const mid = (lo + hi) >> 1, v = ids[mid];
        if (v === id) return mid;
        if (v < id) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
}

function layerOfId<T>(layers: readonly Body<T>[], id: number): Body<T> | null {
    for (const l of layers) if (l.id === id) return l;
    return null;
}

type Tf = { k: number; angle: number; scaleX: number; scaleY: number; flipX: boolean; flipY: boolean };

function sameTransform(a: Omit<Tf, 'k'>, b: Tf): boolean {
    return a.angle === b.angle && a.scaleX === b.scaleX && a.scaleY === b.scaleY && a.flipX === b.flipX && a.flipY === b.flipY;
}

// Whether the snapshot's bodies are the World's live bodies now, each in the slot it was saved from.
function sameBodies<T>(st: WorldState<T>, ids: Float64Array, slots: Int32Array, n: number): boolean {
    if (n !== st.orderCount) return false;
    // idOf is −1 in free slots and pending removals are flushed, so a typed compare tells a live body.
    const idOf = st.idOf, used = st.used;
    for (let k = 0; k < n; k++) {
        const s = slots[k];
        if (s < 0 || s >= used || idOf[s] !== ids[k]) return false;
    }
    return true;
}

// The same bodies in the same slots: positions, filters, masks and transforms set back; a slot whose mask or
// transform changed is placed anew, one whose box moved is marked for the grid, the rest cost a compare.
function updateSlots<T>(st: WorldState<T>, slots: Int32Array, masks: readonly Mask[], maskIds: Int32Array, px: Float64Array, py: Float64Array,
    cat: Int32Array, colw: Int32Array, grp: Int32Array, tfs: readonly Tf[], n: number): void {
    const { x0, y0, x1, y1 } = st.boxes;
    let ti = 0;
    for (let k = 0; k < n; k++) {
        const s = slots[k], tf = ti < tfs.length && tfs[ti].k === k ? tfs[ti++] : null;
        st.posX[s] = px[k]; st.posY[s] = py[k];
        let touched = st.cat[s] !== cat[k] || st.colw[s] !== colw[k] || st.grp[s] !== grp[k];
        st.cat[s] = cat[k]; st.colw[s] = colw[k]; st.grp[s] = grp[k];
        const sameTf = tf === null ? st.tfIdentity[s] === 1 : sameTransform(st.tf[s], tf);
        const m = masks[maskIds[k]];
        if (st.source[s] !== m || !sameTf) {
            st.source[s] = m;
            if (!sameTf) st.tf[s] = tf === null ? { angle: 0, scaleX: 1, scaleY: 1, flipX: false, flipY: false }
                : { angle: tf.angle, scaleX: tf.scaleX, scaleY: tf.scaleY, flipX: tf.flipX, flipY: tf.flipY };
            placeSlot(st, s);
            continue;
        }
        const nx = Math.floor(px[k]) + st.offX[s], ny = Math.floor(py[k]) + st.offY[s];
        if (nx !== x0[s] || ny !== y0[s]) {
            x1[s] += nx - x0[s]; y1[s] += ny - y0[s];
            x0[s] = nx; y0[s] = ny;
            touched = true;
        }
        if (touched) touchSlot(st, s);
    }
}

// Other bodies: slots 0..n−1 in id order, every other slot free, the grid rebuilt at the next detection.
function layOutSlots<T>(st: WorldState<T>, bodies: readonly Body<T>[], masks: readonly Mask[], maskIds: Int32Array, px: Float64Array, py: Float64Array,
    cat: Int32Array, colw: Int32Array, grp: Int32Array, tfs: readonly Tf[], n: number): void {
    const keep = new Set(bodies);
    for (let k = 0; k < st.orderCount; k++) {
        // Live handles not in the snapshot are removed (no events, as for every restore).
        const b = st.bodies[st.order[k]];
        if (b && !keep.has(b)) b.slot = -1;
    }
    let cap = st.cap;
    while (cap < n) cap *= 2;
    if (cap !== st.cap) growSlots(st, cap);
    st.bodies.length = st.source.length = st.masks.length = st.tf.length = 0;
    st.free.length = 0;
    st.pendingFree.length = 0;
    st.cat.fill(0); st.colw.fill(0); st.idOf.fill(-1); st.flags.fill(0);
    st.posX.set(px.subarray(0, n)); st.posY.set(py.subarray(0, n));
    st.cat.set(cat.subarray(0, n)); st.colw.set(colw.subarray(0, n)); st.grp.set(grp.subarray(0, n));
    let ti = 0;
    for (let k = 0; k < n; k++) {
        const b = bodies[k];
        b.slot = k;
        st.bodies[k] = b;
        st.idOf[k] = b.id;
        st.snapSeen[k] = 1;
        st.source[k] = masks[maskIds[k]];
        const tf = ti < tfs.length && tfs[ti].k === k ? tfs[ti++] : null;
        st.tf[k] = tf === null ? { angle: 0, scaleX: 1, scaleY: 1, flipX: false, flipY: false }
            : { angle: tf.angle, scaleX: tf.scaleX, scaleY: tf.scaleY, flipX: tf.flipX, flipY: tf.flipY };
        st.order[k] = k;
    }
    st.used = n;
    st.live = n;
    st.orderCount = n;
    st.gridValid = false;
    st.movedCount = 0;
    st.moved.fill(0);
    st.removedSinceBuild = true;
    for (let k = 0; k < n; k++) placeSlot(st, k);
    st.ranksDirty = true;
}

// The handle of body or layer `id`: live now, or remembered from a snapshot and not collected; null otherwise.
function handleOf<T>(st: WorldState<T>, t: SnapshotTables<T>, id: number): Body<T> | null {
    const b = t.handles.get(id)?.deref();
    return b !== undefined && b.state === st ? b : null;
}
