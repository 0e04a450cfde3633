// A World's restore in two steps: readWorld parses and checks every byte of a snapshot into a decoded record
// (the tables' reused Columns) and changes nothing in the World; applyWorld installs that record and cannot
// fail. So a snapshot that is wrong anywhere throws before anything changes (the all-or-nothing guarantee).
// Reading flushes pending slot bookkeeping and fills the transform cache, as queries do: nothing a caller sees.
import { SnapshotReader, sumBytes } from '../base/snapshot-bytes.js';
import { describe, wrongType } from '../base/check.js';
import { MAX_COORD } from '../base/limits.js';
import { checkTransform } from '../core/transform.js';
import { Body, comparePairs } from './body.js';
import { growSlots, placeSlot, touchSlot } from './slots.js';
import { ONE_WAY, type WorldState } from './state.js';
import {
    type Columns,
    FLIP_X,
    FLIP_Y,
    flushOrder,
    HEADER_BYTES,
    MAGIC,
    SLOT_BYTES,
    type SnapshotTables,
    SUM_BYTES,
    VERSION
} from './world-snapshot.js';

/**
 * @internal Makes the state what `bytes` (a snapshot of this World) says; throws before changing anything when they are
 * not.
 */
export function restoreWorld<T>(st: WorldState<T>, t: SnapshotTables<T>, bytes: Uint8Array): void {
    applyWorld(st, readWorld(st, t, bytes));
}

/**
 * @internal The snapshot `bytes` of this World, parsed and checked into the tables' decoded record;
 * changes nothing.
 */
export function readWorld<T>(st: WorldState<T>, t: SnapshotTables<T>, bytes: Uint8Array): Columns<T> {
    if (!(bytes instanceof Uint8Array))
        throw wrongType(`restore() needs the Uint8Array that snapshot() returned, got ${describe(bytes)}.`);
    const head = new SnapshotReader(bytes, 'world.restore()');
    if (bytes.length < 8 || head.u32() !== MAGIC)
        throw new Error('world.restore(): these bytes are not a World snapshot (they do not start with its tag).');
    const version = head.u32();
    if (version !== VERSION)
        throw new Error(`world.restore(): the snapshot has version ${version}; this hitmask reads version ${VERSION}.`);
    // The checksum first: after it, a field that is wrong was written so on purpose (or by another World).
    const end = bytes.length - SUM_BYTES;
    if (
        end < HEADER_BYTES ||
        sumBytes(bytes, end) !== new DataView(bytes.buffer, bytes.byteOffset).getUint32(end, true)
    )
        throw new Error(
            "world.restore(): the snapshot's checksum does not match its bytes; it is corrupt or truncated."
        );
    const r = new SnapshotReader(bytes.subarray(0, end), 'world.restore()');
    r.seek(8);
    if (r.u32() !== t.idLo || r.u32() !== t.idHi)
        throw new Error(
            "world.restore(): the snapshot was taken by another World (its identity is not this World's); " +
                "a World restores only its own snapshots (its masks are named by this World's table)."
        );
    const nextId = r.f64();
    // Counts the bytes cannot hold are corrupt, refused before allocating.
    const most = Math.floor(bytes.length / SLOT_BYTES);
    const n = r.count('the body count', most),
        used = r.count('the slot count', most),
        nl = r.count('the layer count', Math.floor(bytes.length / 20));
    const nt = r.count('the transform count', n),
        np = r.count('the pair count', Math.floor(bytes.length / 8));
    if (n > used) throw new Error(`world.restore(): ${n} bodies in ${used} slots; the snapshot is corrupt.`);
    // Ids only grow: no snapshot of this World holds a next id past the largest one its snapshots wrote.
    if (!(Number.isSafeInteger(nextId) && nextId >= 1 && nextId <= t.topId))
        throw new Error(
            `world.restore(): the next id is ${nextId}, but this World's snapshots wrote next ids 1..${t.topId}; ` +
                'the snapshot is corrupt or forged.'
        );
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
    // slots once pending removals are flushed, so a typed compare tells).
    flushOrder(st);
    const masks = t.masks,
        idOf = st.idOf,
        now = st.used;
    // In the same pass, positions within ±2^50 (as add() and move() take them), whichever path, and the live
    // bodies with a transform.
    const ident = st.tfIdentity;
    let same = true,
        turned = 0;
    for (let s = 0; s < used; s++) {
        const id = ids[s];
        if (same && (s < now ? idOf[s] : -1) !== id) same = false;
        else if (same && id !== -1) turned += 1 - ident[s];
        if (id !== -1 && !(Math.abs(px[s]) <= MAX_COORD && Math.abs(py[s]) <= MAX_COORD))
            throw new Error(`world.restore(): body ${id} is at (${px[s]}, ${py[s]}); the snapshot is corrupt.`);
    }
    for (let s = used; same && s < now; s++) if (idOf[s] !== -1) same = false;
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
    }
    // Only positions differ when every other column is the live one (no number the bytes carry is trusted to say
    // so: a forged one would make later honest restores skip masks and filters).
    const moved = same && unmoved(st, c, used, turned);
    if (moved && n > 0 && !(nextId > idOf[st.order[st.orderCount - 1]]))
        throw new Error(`world.restore(): the next id ${nextId} is not past every body's; the snapshot is corrupt.`);
    if (!moved) checkSlots(c, used, n, nextId);
    // The id order (read only when the slots are laid out anew) names each live slot once: ids rising, so all distinct.
    for (let k = 0; !same && k < n; k++) {
        const s = order[k];
        if (!(s >= 0 && s < used && ids[s] !== -1 && (k === 0 || ids[s] > ids[order[k - 1]])))
            throw new Error(
                'world.restore(): the id order is not the bodies in rising id order; the snapshot is corrupt.'
            );
    }
    for (let i = 0; !moved && i < nt; i++) {
        const s = tfSlot[i],
            f = tfFlags[i];
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
    readLayers(st, t, c, r, nl, nextId);
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
    const bodies = c.bodies,
        layers = c.layers;
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
    // In pair order, each once, a body first and the lower id first (what the next step's begin/stay/end merge relies
    // on).
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
    c.nextId = nextId;
    c.used = used;
    c.count = n;
    c.same = same;
    c.moved = moved;
    return c;
}

// Whether the snapshot's masks, filters, flags and transforms are the live bodies' own (the snapshot holds the
// live bodies in their slots, `turned` of them with a transform). Whole columns are compared, free slots too, one
// tight loop each (about 1 ns a value): a free slot that differs only costs the full path. A slot whose mask the
// World has not named since it last changed (snapMask −1) counts as changed.
function unmoved<T>(st: WorldState<T>, c: Columns<T>, used: number, turned: number): boolean {
    const nt = c.tfCount;
    if (
        nt !== turned ||
        !equalI32(c.maskIds, st.snapMask, used) ||
        !equalI32(c.cat, st.cat, used) ||
        !equalI32(c.colw, st.colw, used) ||
        !equalI32(c.grp, st.grp, used) ||
        !equalI32(c.flags, st.flags, used)
    )
        return false;
    for (let i = 0; i < nt; i++) {
        const s = c.tfSlot[i];
        if (st.tfIdentity[s] === 1 || !sameTransform(st.tf[s], c, i)) return false;
    }
    return true;
}

function equalI32(a: Int32Array, b: Int32Array, n: number): boolean {
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
    return true;
}

// Each slot holds a body (an id ≥ 1, below the next id) or is free (−1), with known flags and a mask this World
// saved and has not disposed (each mask of the table checked once); the live slots are as many as the count.
function checkSlots<T>(c: Columns<T>, used: number, n: number, nextId: number): void {
    const { ids, maskIds, flags, masks } = c,
        checked = c.checked(masks.length);
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

// The layers and their filters, into the record: each a live or remembered layer handle of this World, in rising
// id order as a World lists them (layers are only appended, with new ids, or removed), so none twice.
function readLayers<T>(
    st: WorldState<T>,
    t: SnapshotTables<T>,
    c: Columns<T>,
    r: SnapshotReader,
    nl: number,
    nextId: number
): void {
    const { layers, layerCat, layerColw, layerOneWay } = c;
    layers.length = layerCat.length = layerColw.length = layerOneWay.length = 0;
    for (let l = 0; l < nl; l++) {
        const id = r.f64(),
            lc = r.i32(),
            cw = r.i32(),
            ow = r.u32();
        if (ow > 1) throw new Error(`world.restore(): layer ${id} has flags ${ow}; the snapshot is corrupt.`);
        if (!(id < nextId) || (l > 0 && !(id > layers[l - 1].id))) {
            const how = l > 0 && id === layers[l - 1].id ? 'twice' : 'out of order';
            throw new Error(
                `world.restore(): layer ${id} is listed ${how} ` +
                    `(a World lists its layers once each, in rising id order, below the next id ${nextId}); ` +
                    'the snapshot is corrupt.'
            );
        }
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
}

/** @internal Makes the state what a record of {@link readWorld} says; cannot fail. */
export function applyWorld<T>(st: WorldState<T>, c: Columns<T>): void {
    const { ids, flags, layers, layerCat, layerColw, layerOneWay, bodies, pa, pb } = c;
    const { nextId, used, count: n, same, moved } = c,
        nl = layers.length;
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
            // Its mask's name in the table is known: the next restore of these bodies compares it.
            st.snapMask[s] = maskIds[s];
            continue;
        }
        st.snapMask[s] = maskIds[s];
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
    for (let s = 0; s < used; s++)
        if (bodies[s] !== null) {
            placeSlot(st, s);
            st.snapMask[s] = maskIds[s];
        }
    st.ranksDirty = true;
}

// The handle of body or layer `id`: live now, or remembered from a snapshot and not collected; null otherwise.
function handleOf<T>(st: WorldState<T>, t: SnapshotTables<T>, id: number): Body<T> | null {
    const b = t.handles.get(id)?.deref();
    return b !== undefined && b.state === st ? b : null;
}
