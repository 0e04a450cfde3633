// A World state's snapshot, restore and hash.
//
// A snapshot is the state as it lies in memory: each per-slot column (id, position, mask id, filter, flags)
// copied whole for the slots in use, the id order, the transforms that are not the identity, the layers with
// their filters, and the previous step's pairs (what begin/stay/end compare against) by slot. Copying columns
// instead of gathering bodies in id order made a 10,000-body snapshot 4x cheaper, and a restore into the same
// slots (the usual rollback) compares and sets each slot in one pass. Free slots are copied too and ignored.
//
// The hash is canonical instead: bodies in id order, masks named by their pixels, pairs by body ids, no slot
// numbers and no World serial, so two Worlds that went through different slot histories to the same bodies
// hash equal, in every process and engine.
import {
    SnapshotReader,
    SnapshotWriter,
    hashBytes,
    hashEnd,
    hashF64,
    hashStart,
    hashWord
} from '../base/snapshot-bytes.js';
import { describe } from '../base/check.js';
import { MAX_COORD } from '../base/limits.js';
import { checkTransform } from '../core/transform.js';
import type { Mask } from '../core/mask.js';
import { wordsOf } from '../kernels/mask-words.js';
import { Body, comparePairs } from './body.js';
import { flushSlots, growSlots, placeSlot, touchSlot } from './slots.js';
import { ONE_WAY, type WorldState } from './state.js';

const MAGIC = 0x53574d48; // 'HMWS'
const VERSION = 2;
// Per body: identity transform unless flagged (then angle, scaleX, scaleY and the flips follow).
const FLIP_X = 1,
    FLIP_Y = 2;
// Bytes a slot takes at least (id, x, y: 8 each; mask, category, collidesWith, group, flags: 4 each).
const SLOT_BYTES = 44;

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
    /** Reused by hash(): its masks' content names. */
    readonly contentIds = new Map<Mask, number>();
    scratch = new Int32Array(64);
    #cols: Columns<T> | null = null;

    /** Scratch columns for a restore of `slots` slots, `tfs` transforms and `pairs` pairs (reused: a game restores every frame). */
    columns(slots: number, tfs: number, pairs: number): Columns<T> {
        const c = (this.#cols ??= new Columns<T>(64));
        c.fit(slots, tfs, pairs);
        return c;
    }
}

/** @internal The columns a restore reads into before it changes anything, grown as needed and reused. */
class Columns<T> {
    ids!: Float64Array;
    px!: Float64Array;
    py!: Float64Array;
    maskIds!: Int32Array;
    cat!: Int32Array;
    colw!: Int32Array;
    grp!: Int32Array;
    flags!: Int32Array;
    order!: Int32Array;
    tfSlot = new Int32Array(16);
    tfFlags = new Int32Array(16);
    tfAngle = new Float64Array(16);
    tfSX = new Float64Array(16);
    tfSY = new Float64Array(16);
    pairs = new Int32Array(32);
    /** This restore's transform count and the World's mask table. */
    tfCount = 0;
    masks: readonly Mask[] = [];
    /** The pairs' bodies, and the bodies of a restore that lays the slots out afresh. */
    pa: Body<T>[] = [];
    pb: Body<T>[] = [];
    bodies: (Body<T> | null)[] = [];
    /** The snapshot's layers and their filters. */
    layers: Body<T>[] = [];
    layerCat: number[] = [];
    layerColw: number[] = [];
    layerOneWay: boolean[] = [];
    #checked = new Uint8Array(16);
    #n = 0;

    constructor(n: number) {
        this.#alloc(n);
    }

    #alloc(n: number): void {
        this.#n = n;
        this.ids = new Float64Array(n);
        this.px = new Float64Array(n);
        this.py = new Float64Array(n);
        this.maskIds = new Int32Array(n);
        this.cat = new Int32Array(n);
        this.colw = new Int32Array(n);
        this.grp = new Int32Array(n);
        this.flags = new Int32Array(n);
        this.order = new Int32Array(n);
    }

    fit(slots: number, tfs: number, pairs: number): void {
        if (slots > this.#n) this.#alloc(Math.max(slots, 2 * this.#n));
        if (tfs > this.tfSlot.length) {
            const m = Math.max(tfs, 2 * this.tfSlot.length);
            this.tfSlot = new Int32Array(m);
            this.tfFlags = new Int32Array(m);
            this.tfAngle = new Float64Array(m);
            this.tfSX = new Float64Array(m);
            this.tfSY = new Float64Array(m);
        }
        if (2 * pairs > this.pairs.length) this.pairs = new Int32Array(Math.max(2 * pairs, 2 * this.pairs.length));
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

function flushOrder<T>(st: WorldState<T>): void {
    if (st.pendingFree.length > 0 || st.ranksDirty) flushSlots(st);
}

// The previous step's pairs whose bodies are all still there (a pair with a removed body is silent forever).
function livePairs<T>(st: WorldState<T>): number {
    const pa = st.events.prevA,
        pb = st.events.prevB;
    let np = 0;
    for (let k = 0; k < pa.length; k++) if (pa[k].slot >= 0 && pb[k].slot >= 0) np++;
    return np;
}

/** @internal The snapshot bytes of the state: a new array, or `out` when it is large enough (its start returned). */
export function snapshotWorld<T>(st: WorldState<T>, t: SnapshotTables<T>, out?: Uint8Array): Uint8Array {
    if (out !== undefined && !(out instanceof Uint8Array))
        throw new TypeError(`out must be a Uint8Array, got ${describe(out)}.`);
    flushOrder(st);
    const used = st.used,
        n = st.orderCount,
        idOf = st.idOf,
        ids = st.snapMask,
        ident = st.tfIdentity,
        layers = st.layers;
    // Name new masks, remember new handles, count the transforms: one pass over the slots.
    let nt = 0,
        added = false;
    for (let s = 0; s < used; s++) {
        if (idOf[s] < 0) continue;
        if (ids[s] < 0) ids[s] = maskId(t, st.source[s] as Mask);
        if (st.snapSeen[s] === 0) {
            st.snapSeen[s] = 1;
            remember(t, st.bodies[s] as Body<T>);
            added = true;
        }
        nt += 1 - ident[s];
    }
    for (const l of layers) remember(t, l);
    if (added) prune(t, n + layers.length);
    const np = livePairs(st);
    // Straight into `out` when it surely holds the bytes (an `out` too small is left alone).
    const most = 72 + used * SLOT_BYTES + 4 * n + 32 * nt + 20 * layers.length + 8 * np;
    const w = t.writer.reset(out !== undefined && out.length >= most ? out : undefined);
    w.u32(MAGIC)
        .u32(VERSION)
        .u32(t.serial)
        .f64(st.nextId)
        .u32(n)
        .u32(used)
        .u32(layers.length)
        .u32(nt)
        .u32(np)
        .f64(st.epoch);
    w.f64col(idOf, used).f64col(st.posX, used).f64col(st.posY, used);
    w.i32s(ids, used).i32s(st.cat, used).i32s(st.colw, used).i32s(st.grp, used).i32s(st.flags, used).i32s(st.order, n);
    for (let s = 0; s < used; s++) {
        if (ident[s] === 1 || idOf[s] < 0) continue;
        const tf = st.tf[s];
        w.u32(s)
            .u32((tf.flipX ? FLIP_X : 0) | (tf.flipY ? FLIP_Y : 0))
            .f64(tf.angle)
            .f64(tf.scaleX)
            .f64(tf.scaleY);
    }
    for (let l = 0; l < layers.length; l++)
        w.f64(layers[l].id)
            .i32(st.layerCat[l])
            .i32(st.layerColw[l])
            .u32(st.layerOneWay[l] ? 1 : 0);
    // Pairs by slot; a layer as −1 − its index.
    const pa = st.events.prevA,
        pb = st.events.prevB;
    for (let k = 0; k < pa.length; k++) {
        const a = pa[k],
            b = pb[k];
        if (a.slot >= 0 && b.slot >= 0)
            w.i32(a.layer === null ? a.slot : -1 - a.slot).i32(b.layer === null ? b.slot : -1 - b.slot);
    }
    return w.bytes(out);
}

/**
 * @internal A hash of the state, the same in every process and engine for the same bodies, masks and pairs: the
 * hash of canonical bytes (the header, then each column in id order 8-byte aligned, the transforms, layers and
 * pairs), fed value by value instead of written out.
 */
export function hashWorld<T>(st: WorldState<T>, t: SnapshotTables<T>): number {
    flushOrder(st);
    const n = st.orderCount,
        order = st.order,
        layers = st.layers,
        ident = st.tfIdentity,
        contentIds = t.contentIds;
    let nt = 0;
    for (let k = 0; k < n; k++) nt += 1 - ident[order[k]];
    const np = livePairs(st),
        odd = n & 1;
    // The bytes' length comes first: a 28-byte header, then the columns (a 4-byte pad before each column that
    // follows an odd count of 4-byte values), transforms, layers and pairs.
    const length =
        32 +
        8 * n +
        4 * n +
        4 * odd +
        16 * n +
        4 * (4 * n + 4 * odd) -
        4 * odd +
        4 +
        32 * nt +
        20 * layers.length +
        4 +
        16 * np;
    // The hash's bytes have their own version: a snapshot's layout may change without changing any hash.
    let h = hashF64(hashWord(hashWord(hashWord(hashStart(length), MAGIC), 1), 0), st.nextId);
    h = hashWord(hashWord(hashWord(h, n), layers.length), 0);
    for (let k = 0; k < n; k++) h = hashF64(h, st.idOf[order[k]]);
    contentIds.clear();
    for (let k = 0; k < n; k++) h = hashWord(h, contentId(contentIds, st.source[order[k]] as Mask));
    if (odd) h = hashWord(h, 0);
    const px = st.posX,
        py = st.posY;
    for (let k = 0; k < n; k++) h = hashF64(h, px[order[k]]);
    for (let k = 0; k < n; k++) h = hashF64(h, py[order[k]]);
    h = hashColumn(h, st.cat, order, n);
    h = hashColumn(odd ? hashWord(h, 0) : h, st.colw, order, n);
    h = hashColumn(odd ? hashWord(h, 0) : h, st.grp, order, n);
    h = hashColumn(odd ? hashWord(h, 0) : h, st.flags, order, n);
    h = hashWord(h, nt);
    for (let k = 0; k < n; k++) {
        if (ident[order[k]] === 1) continue;
        const tf = st.tf[order[k]];
        h = hashF64(
            hashF64(
                hashF64(hashWord(hashWord(h, k), (tf.flipX ? FLIP_X : 0) | (tf.flipY ? FLIP_Y : 0)), tf.angle),
                tf.scaleX
            ),
            tf.scaleY
        );
    }
    for (let l = 0; l < layers.length; l++)
        h = hashWord(
            hashWord(hashWord(hashF64(h, layers[l].id), st.layerCat[l]), st.layerColw[l]),
            st.layerOneWay[l] ? 1 : 0
        );
    const pa = st.events.prevA,
        pb = st.events.prevB;
    h = hashWord(h, np);
    for (let k = 0; k < pa.length; k++)
        if (pa[k].slot >= 0 && pb[k].slot >= 0) h = hashF64(hashF64(h, pa[k].id), pb[k].id);
    return hashEnd(h);
}

// The hash state after col[order[0..n)] as 32-bit words.
function hashColumn(h: number, col: Int32Array, order: Int32Array, n: number): number {
    for (let k = 0; k < n; k++) h = hashWord(h, col[order[k]]);
    return h;
}

// A mask's name in a hash: its size and words, hashed once per hash() call.
function contentId(ids: Map<Mask, number>, m: Mask): number {
    let id = ids.get(m);
    if (id === undefined) {
        const words = wordsOf(m),
            bytes = new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
        id = (hashBytes(bytes) ^ Math.imul(m.width, 0x9e3779b1) ^ Math.imul(m.height, 0x85ebca6b)) >>> 0;
        ids.set(m, id);
    }
    return id;
}

/** @internal Makes the state what `bytes` (a snapshot of this World) says; throws before changing anything when they are not. */
export function restoreWorld<T>(st: WorldState<T>, t: SnapshotTables<T>, bytes: Uint8Array): void {
    if (!(bytes instanceof Uint8Array))
        throw new TypeError(`restore() needs the Uint8Array that snapshot() returned, got ${describe(bytes)}.`);
    const r = new SnapshotReader(bytes, 'world.restore()');
    if (bytes.length < 8 || r.u32() !== MAGIC)
        throw new Error('world.restore(): these bytes are not a World snapshot (they do not start with its tag).');
    const version = r.u32();
    if (version !== VERSION)
        throw new Error(`world.restore(): the snapshot has version ${version}; this hitmask reads version ${VERSION}.`);
    if (r.u32() !== t.serial)
        throw new Error(
            "world.restore(): the snapshot was taken by another World; a World restores only its own snapshots (its masks are named by this World's table)."
        );
    const nextId = r.f64();
    // Counts the bytes cannot hold are corrupt, refused before allocating.
    const most = Math.floor(bytes.length / SLOT_BYTES);
    const n = r.count('the body count', most),
        used = r.count('the slot count', most),
        nl = r.count('the layer count', Math.floor(bytes.length / 20));
    const nt = r.count('the transform count', n),
        np = r.count('the pair count', Math.floor(bytes.length / 8));
    const epoch = r.f64();
    if (n > used) throw new Error(`world.restore(): ${n} bodies in ${used} slots; the snapshot is corrupt.`);
    const c = t.columns(used, nt, np),
        { ids, px, py, maskIds, cat, colw, grp, flags, order } = c;
    r.columnF64(ids, used);
    r.columnF64(px, used);
    r.columnF64(py, used);
    r.i32s(maskIds, used);
    r.i32s(cat, used);
    r.i32s(colw, used);
    r.i32s(grp, used);
    r.i32s(flags, used);
    r.i32s(order, n);
    // Whether those are the World's live bodies now, each in the slot it was saved from (idOf is −1 in free
    // slots once pending removals are flushed, so a typed compare tells); with the same epoch too, nothing but
    // positions differs, and the other columns are not read.
    flushOrder(st);
    const masks = t.masks,
        idOf = st.idOf,
        now = st.used;
    // In the same pass, positions within ±2^50 (as add() and move() take them), whichever path.
    let same = true;
    for (let s = 0; s < used; s++) {
        const id = ids[s];
        if (same && (s < now ? idOf[s] : -1) !== id) same = false;
        if (id !== -1 && !(Math.abs(px[s]) <= MAX_COORD && Math.abs(py[s]) <= MAX_COORD))
            throw new Error(`world.restore(): body ${id} is at (${px[s]}, ${py[s]}); the snapshot is corrupt.`);
    }
    for (let s = used; same && s < now; s++) if (idOf[s] !== -1) same = false;
    const moved = same && epoch === st.epoch;
    if (!(Number.isSafeInteger(nextId) && nextId >= 1))
        throw new Error(`world.restore(): the next id is ${nextId}; the snapshot is corrupt.`);
    if (moved && n > 0 && !(nextId > idOf[st.order[st.orderCount - 1]]))
        throw new Error(`world.restore(): the next id ${nextId} is not past every body's; the snapshot is corrupt.`);
    if (!moved) {
        // Each slot holds a body (an id ≥ 1, below the next id) or is free (−1); each mask of the table is checked once.
        const checked = c.checked(masks.length);
        let live = 0;
        for (let s = 0; s < used; s++) {
            const id = ids[s];
            if (id === -1) continue;
            if (!(id >= 1 && id < nextId && Number.isInteger(id)))
                throw new Error(`world.restore(): slot ${s} holds body id ${id}; the snapshot is corrupt.`);
            live++;
            if ((flags[s] & ~ONE_WAY) !== 0)
                throw new Error(`world.restore(): body ${id} has flags ${flags[s]}; the snapshot is corrupt.`);
            const m = maskIds[s] >>> 0;
            if (m >= masks.length)
                throw new Error(
                    `world.restore(): body ${id} names mask ${m}, which this World never saved; restore snapshots into the World that took them.`
                );
            if (checked[m] !== 0) continue;
            checked[m] = 1;
            if (masks[m].disposed)
                throw new Error(
                    `world.restore(): body ${id}'s mask (${masks[m]}) was disposed since the snapshot; keep masks alive while snapshots may be restored.`
                );
        }
        if (live !== n)
            throw new Error(`world.restore(): ${live} slots hold bodies but the snapshot counts ${n}; it is corrupt.`);
    }
    // The id order (read only when the slots are laid out anew) names each live slot once: ids rising, so all distinct.
    for (let k = 0; !same && k < n; k++) {
        const s = order[k];
        if (!(s >= 0 && s < used && ids[s] !== -1 && (k === 0 || ids[s] > ids[order[k - 1]])))
            throw new Error(
                'world.restore(): the id order is not the bodies in rising id order; the snapshot is corrupt.'
            );
    }
    const { tfSlot, tfFlags, tfAngle, tfSX, tfSY } = c;
    c.tfCount = nt;
    c.masks = masks;
    for (let i = 0; i < nt; i++) {
        const s = r.u32(),
            f = r.u32();
        tfAngle[i] = r.f64();
        tfSX[i] = r.f64();
        tfSY[i] = r.f64();
        if (s >= used || ids[s] === -1 || (i > 0 && s <= tfSlot[i - 1]) || f > (FLIP_X | FLIP_Y))
            throw new Error(`world.restore(): transform ${i} is for slot ${s}; the snapshot is corrupt.`);
        tfSlot[i] = s;
        tfFlags[i] = f;
        if (moved) continue;
        // Placed now, before anything changes: a transform no mask can take (a scale too large, not finite) is
        // refused here instead of half way through the restore. The cache keeps the result for placeSlot.
        try {
            checkTransform(tfAngle[i], tfSX[i], tfSY[i]);
            st.transforms.get(masks[maskIds[s]], tfAngle[i], tfSX[i], tfSY[i], (f & FLIP_X) !== 0, (f & FLIP_Y) !== 0);
        } catch (e) {
            throw new Error(
                `world.restore(): body ${ids[s]}'s transform cannot be applied (${e instanceof Error ? e.message : String(e)}); the snapshot is corrupt.`,
                { cause: e }
            );
        }
    }
    const { layers, layerCat, layerColw, layerOneWay } = c;
    layers.length = layerCat.length = layerColw.length = layerOneWay.length = 0;
    for (let l = 0; l < nl; l++) {
        const id = r.f64(),
            lc = r.i32(),
            cw = r.i32(),
            ow = r.u32();
        if (ow > 1) throw new Error(`world.restore(): layer ${id} has flags ${ow}; the snapshot is corrupt.`);
        layerOneWay.push(ow === 1);
        const h = handleOf(st, t, id);
        if (h === null || h.layer === null)
            throw new Error(
                `world.restore(): layer ${id} of the snapshot is gone (its handle was dropped after it was removed); keep layer handles while snapshots may be restored.`
            );
        layers.push(h);
        layerCat.push(lc);
        layerColw.push(cw);
    }
    const pairs = c.pairs;
    r.i32s(pairs, 2 * np);
    r.end();
    for (let k = 0; k < 2 * np; k++) {
        const v = pairs[k];
        if (v >= 0 ? v >= used || ids[v] === -1 : -1 - v >= nl)
            throw new Error(
                'world.restore(): a pair names a body that is not in the snapshot; the snapshot is corrupt.'
            );
    }

    // Everything is read. Restoring into the bodies the World holds now (the usual rollback) updates their
    // slots in place and leaves the grid to its usual upkeep; otherwise the slots are laid out as saved.
    const bodies = c.bodies;
    if (!same) {
        bodies.length = used;
        for (let s = 0; s < used; s++) {
            if (ids[s] === -1) {
                bodies[s] = null;
                continue;
            }
            const h = handleOf(st, t, ids[s]);
            if (h !== null && h.layer !== null)
                throw new Error(`world.restore(): body ${ids[s]} is a layer here; the snapshot is corrupt.`);
            bodies[s] = h ?? new Body<T>(st, ids[s], -1, undefined as T, null);
        }
    }
    const pa = c.pa,
        pb = c.pb;
    pa.length = pb.length = np;
    for (let k = 0; k < 2 * np; k++) {
        const v = pairs[k],
            b = v < 0 ? layers[-1 - v] : ((same ? st.bodies[v] : bodies[v]) as Body<T>);
        if ((k & 1) === 0) pa[k >> 1] = b;
        else pb[k >> 1] = b;
    }
    // In pair order, each once, a body first and the lower id first (what the next step's begin/stay/end merge relies on).
    for (let k = 0; k < np; k++) {
        if (
            pa[k].layer !== null ||
            (pb[k].layer === null && pa[k].id >= pb[k].id) ||
            (k > 0 && comparePairs(pa[k - 1], pb[k - 1], pa[k], pb[k]) >= 0)
        ) {
            pa.length = pb.length = 0;
            throw new Error(`world.restore(): pair ${k} is out of pair order; the snapshot is corrupt.`);
        }
    }

    // Everything read and checked: now the state changes.
    if (moved) movePositions(st, c, used);
    else {
        if (same) updateSlots(st, c, used);
        else {
            layOutSlots(st, c, used, n);
            bodies.length = 0;
        }
        let oneWay = 0;
        const stFlags = st.flags;
        for (let s = 0; s < used; s++)
            if (ids[s] !== -1) {
                stFlags[s] = flags[s];
                oneWay += flags[s] & ONE_WAY;
            }
        st.oneWayBodies = oneWay;
        // The bodies are now as they were at the snapshot's epoch, which names them.
        st.epoch = epoch;
    }
    // The layers: their filters set in place when they are the same layers (a game's usual restore), else replaced.
    const oldLayers = st.layers;
    if (oldLayers.length === nl && oldLayers.every((l, i) => l === layers[i])) {
        for (let l = 0; l < nl; l++) {
            st.layerCat[l] = layerCat[l];
            st.layerColw[l] = layerColw[l];
            st.layerOneWay[l] = layerOneWay[l];
        }
    } else {
        for (const l of oldLayers) l.slot = -1;
        for (let l = 0; l < nl; l++) layers[l].slot = l;
        st.layers = layers.slice();
        st.layerCat = layerCat.slice();
        st.layerColw = layerColw.slice();
        st.layerOneWay = layerOneWay.slice();
        st.ranksDirty = true;
    }
    st.nextId = nextId;
    st.events.setPrev(pa, pb);
    pa.length = pb.length = 0;
    flushOrder(st);
}

function sameTransform<T>(
    a: { angle: number; scaleX: number; scaleY: number; flipX: boolean; flipY: boolean },
    c: Columns<T>,
    i: number
): boolean {
    return (
        a.angle === c.tfAngle[i] &&
        a.scaleX === c.tfSX[i] &&
        a.scaleY === c.tfSY[i] &&
        a.flipX === ((c.tfFlags[i] & FLIP_X) !== 0) &&
        a.flipY === ((c.tfFlags[i] & FLIP_Y) !== 0)
    );
}

function transformOf<T>(
    c: Columns<T>,
    i: number
): { angle: number; scaleX: number; scaleY: number; flipX: boolean; flipY: boolean } {
    return i < 0
        ? { angle: 0, scaleX: 1, scaleY: 1, flipX: false, flipY: false }
        : {
              angle: c.tfAngle[i],
              scaleX: c.tfSX[i],
              scaleY: c.tfSY[i],
              flipX: (c.tfFlags[i] & FLIP_X) !== 0,
              flipY: (c.tfFlags[i] & FLIP_Y) !== 0
          };
}

// The same bodies in the same slots with the same masks, transforms, filters and flags: positions set back, a
// slot whose box moved marked for the grid.
function movePositions<T>(st: WorldState<T>, c: Columns<T>, used: number): void {
    const { x0, y0, x1, y1 } = st.boxes,
        { ids, px, py } = c,
        posX = st.posX,
        posY = st.posY,
        offX = st.offX,
        offY = st.offY;
    for (let s = 0; s < used; s++) {
        if (ids[s] === -1) continue;
        const x = px[s],
            y = py[s],
            still = x === posX[s] && y === posY[s];
        posX[s] = x;
        posY[s] = y;
        if (still) continue;
        const nx = Math.floor(x) + offX[s],
            ny = Math.floor(y) + offY[s];
        if (nx !== x0[s] || ny !== y0[s]) {
            x1[s] += nx - x0[s];
            y1[s] += ny - y0[s];
            x0[s] = nx;
            y0[s] = ny;
            touchSlot(st, s);
        }
    }
}

// The same bodies in the same slots: positions, filters, masks and transforms set back; a slot whose mask or
// transform changed is placed anew, one whose box moved is marked for the grid, the rest cost a compare.
function updateSlots<T>(st: WorldState<T>, c: Columns<T>, used: number): void {
    const { x0, y0, x1, y1 } = st.boxes,
        { ids, px, py, maskIds, cat, colw, grp, tfSlot } = c;
    const posX = st.posX,
        posY = st.posY,
        sCat = st.cat,
        sColw = st.colw,
        sGrp = st.grp,
        source = st.source,
        ident = st.tfIdentity,
        offX = st.offX,
        offY = st.offY;
    const masks = c.masks,
        nt = c.tfCount;
    let ti = 0;
    for (let s = 0; s < used; s++) {
        if (ids[s] === -1) continue;
        const x = px[s],
            y = py[s];
        posX[s] = x;
        posY[s] = y;
        let touched = sCat[s] !== cat[s] || sColw[s] !== colw[s] || sGrp[s] !== grp[s];
        sCat[s] = cat[s];
        sColw[s] = colw[s];
        sGrp[s] = grp[s];
        const tf = ti < nt && tfSlot[ti] === s ? ti++ : -1;
        const m = masks[maskIds[s]];
        if (source[s] !== m || (tf < 0 ? ident[s] !== 1 : !sameTransform(st.tf[s], c, tf))) {
            source[s] = m;
            st.tf[s] = transformOf(c, tf);
            placeSlot(st, s);
            continue;
        }
        const nx = Math.floor(x) + offX[s],
            ny = Math.floor(y) + offY[s];
        if (nx !== x0[s] || ny !== y0[s]) {
            x1[s] += nx - x0[s];
            y1[s] += ny - y0[s];
            x0[s] = nx;
            y0[s] = ny;
            touched = true;
        }
        if (touched) touchSlot(st, s);
    }
}

// Other bodies: the slots laid out as saved (free ones free), live handles not in the snapshot removed, the
// grid rebuilt at the next detection.
function layOutSlots<T>(st: WorldState<T>, c: Columns<T>, used: number, n: number): void {
    const bodies = c.bodies as (Body<T> | null)[],
        keep = new Set(bodies);
    for (let k = 0; k < st.orderCount; k++) {
        // Live handles not in the snapshot are removed (no events, as for every restore).
        const b = st.bodies[st.order[k]];
        if (b && !keep.has(b)) b.slot = -1;
    }
    let cap = st.cap;
    while (cap < used) cap *= 2;
    if (cap !== st.cap) growSlots(st, cap);
    const { ids, px, py, maskIds, cat, colw, grp, order } = c;
    st.bodies.length = st.source.length = st.masks.length = st.tf.length = 0;
    st.free.length = 0;
    st.pendingFree.length = 0;
    st.cat.fill(0);
    st.colw.fill(0);
    st.idOf.fill(-1);
    st.flags.fill(0);
    st.posX.set(px.subarray(0, used));
    st.posY.set(py.subarray(0, used));
    st.cat.set(cat.subarray(0, used));
    st.colw.set(colw.subarray(0, used));
    st.grp.set(grp.subarray(0, used));
    let ti = 0;
    for (let s = 0; s < used; s++) {
        const b = bodies[s];
        st.bodies[s] = b;
        if (b === null) {
            st.source[s] = st.masks[s] = null;
            st.cat[s] = st.colw[s] = 0;
            continue;
        }
        b.slot = s;
        st.idOf[s] = ids[s];
        st.snapSeen[s] = 1;
        st.source[s] = c.masks[maskIds[s]];
        st.tf[s] = transformOf(c, ti < c.tfCount && c.tfSlot[ti] === s ? ti++ : -1);
    }
    // Free slots are taken lowest first (add() pops the list).
    for (let s = used - 1; s >= 0; s--) if (bodies[s] === null) st.free.push(s);
    st.order.set(order.subarray(0, n));
    st.used = used;
    st.live = n;
    st.orderCount = n;
    st.gridValid = false;
    st.movedCount = 0;
    st.moved.fill(0);
    st.removedSinceBuild = true;
    for (let s = 0; s < used; s++) if (bodies[s] !== null) placeSlot(st, s);
    st.ranksDirty = true;
}

// The handle of body or layer `id`: live now, or remembered from a snapshot and not collected; null otherwise.
function handleOf<T>(st: WorldState<T>, t: SnapshotTables<T>, id: number): Body<T> | null {
    const b = t.handles.get(id)?.deref();
    return b !== undefined && b.state === st ? b : null;
}
