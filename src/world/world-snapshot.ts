// A World state's snapshot and hash (its restore: world-restore.ts).
//
// A snapshot is the state as it lies in memory: each per-slot column (id, position, mask id, filter, flags)
// copied whole for the slots in use, the id order, the transforms that are not the identity, the layers with
// their filters, and the previous step's pairs (what begin/stay/end compare against) by slot. Copying columns
// instead of gathering bodies in id order made a 10,000-body snapshot 4x cheaper, and a restore into the same
// slots (the usual rollback) compares and sets each slot in one pass. Free slots are copied too and ignored.
// The header names the World that wrote the bytes by a random 64-bit identity (drawn once per World, so bytes
// from another World, in this process or another, are refused), and the last 4 bytes are the checksum of all
// the bytes before them (sumBytes): any change confined to one 32-bit word, every single-bit flip included, is
// refused.
//
// The hash is canonical instead: bodies in id order, masks named by their pixels, pairs by body ids, no slot
// numbers and no World identity, so two Worlds that went through different slot histories to the same bodies
// hash equal, in every process and engine.
import { SnapshotWriter, hashBytes, hashEnd, hashF64, hashStart, hashWord } from '../base/snapshot-bytes.js';
import { checkBytes } from '../base/check-types.js';
import type { Mask } from '../core/mask.js';
import type { Body } from './body.js';
import { flushSlots } from './slots.js';
import type { WorldState } from './state.js';
import { wordsOf } from '../kernels/mask-words.js';

export const MAGIC = 0x53574d48; // 'HMWS'
export const VERSION = 3;
// Per body: identity transform unless flagged (then angle, scaleX, scaleY and the flips follow).
export const FLIP_X = 1,
    FLIP_Y = 2;
// Bytes a slot takes at least (id, x, y: 8 each; mask, category, collidesWith, group, flags: 4 each).
export const SLOT_BYTES = 44;
// The header (tag, version, identity, next id, five counts) and the checksum after everything.
export const HEADER_BYTES = 44,
    SUM_BYTES = 4;

// A random 32-bit word: from the platform's cryptographic source where there is one (every current browser, Node 19
// and later), else Math.random. Unpredictable is not needed, only different between Worlds.
function randomWord(): number {
    const c = (globalThis as { crypto?: { getRandomValues?(a: Uint32Array): Uint32Array } }).crypto;
    if (c?.getRandomValues !== undefined) return c.getRandomValues(new Uint32Array(1))[0];
    return (Math.random() * 2 ** 32) >>> 0;
}

/** @internal What a World keeps so snapshots can name masks and revive body handles. */
export class SnapshotTables<T> {
    /**
     * This World's identity, 64 random bits written into its snapshots: a restore refuses bytes from any other World,
     * in this process or another (a per-process counter let a snapshot from another process through).
     */
    readonly idLo = randomWord();
    readonly idHi = randomWord();
    /** The largest next id a snapshot of this World wrote: no honest snapshot names a larger one. */
    topId = 0;
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

    /**
     * Scratch columns for a restore of `slots` slots, `tfs` transforms and `pairs` pairs (reused: a game restores every
     * frame).
     */
    columns(slots: number, tfs: number, pairs: number): Columns<T> {
        const c = (this.#cols ??= new Columns<T>(64));
        c.fit(slots, tfs, pairs);
        return c;
    }
}

/**
 * @internal A decoded snapshot: the columns and counts a restore reads into before it changes anything
 * (world-restore.ts), grown as needed and reused.
 */
export class Columns<T> {
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
    /** The snapshot's next id, slot count and body count. */
    nextId = 0;
    used = 0;
    count = 0;
    /**
     * Whether the snapshot holds the World's live bodies in their slots now (same), with the same masks, transforms,
     * filters and flags too (moved: only positions differ, compared column by column).
     */
    same = false;
    moved = false;
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

/** @internal Flushes pending slot frees and rank updates, so the slots and the id order are current. */
export function flushOrder<T>(st: WorldState<T>): void {
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
    if (out !== undefined) checkBytes('out', out);
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
    const most = HEADER_BYTES + 8 + used * SLOT_BYTES + 4 * n + 32 * nt + 20 * layers.length + 8 * np;
    if (st.nextId > t.topId) t.topId = st.nextId;
    const w = t.writer.reset(out !== undefined && out.length >= most ? out : undefined);
    w.u32(MAGIC)
        .u32(VERSION)
        .u32(t.idLo)
        .u32(t.idHi)
        .f64(st.nextId)
        .u32(n)
        .u32(used)
        .u32(layers.length)
        .u32(nt)
        .u32(np);
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
    w.u32(w.sum());
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
