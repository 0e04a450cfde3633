// A CollisionRaster's snapshot bytes: what decides its future answers, written so that two rasters in the same
// state give the same bytes (so the checksum at the end is the state's hash). Per layer: its stamped box, the plane
// words inside that box (every set pixel lies in it; the words outside are zero), and, when the layer has ids,
// the ids of each set pixel in storage order, run-length coded (a bullet's pixels share one id: 1,000 9x18 shots
// take about 2,000 runs instead of 130,000 values). Stale ids (under cleared pixels) and the id pool's layout
// are left out: they are never read. Restore checks every byte before it writes anything. A delta (writeChanges)
// names the snapshot it follows (its base's checksum) and holds per layer its box and id flag, then either the
// whole layer as above or the changed tiles (changes.ts) as runs of rows of one strip, each with its ids.
import { popcnt } from '../base/bits.js';
import { checkBytes } from '../base/check-types.js';
import { MAX_ID } from '../base/limits.js';
import { hashBytes, SnapshotReader, type SnapshotWriter } from '../base/snapshot-bytes.js';
import type { Mask } from '../core/mask.js';
import { MAX_ID_PIXELS, type RasterIds } from './ids.js';
import { TILE_ROWS, TILE_SHIFT, type RasterChanges } from './changes.js';

/** @internal The tag the bytes start with ("HMRS", little-endian) and the format version after it. */
export const RASTER_MAGIC = 0x53524d48,
    RASTER_VERSION = 1;
/** @internal The tag a delta snapshot (writeChanges) starts with ("HMRD"). */
export const DELTA_MAGIC = 0x44524d48;
// The kinds of a delta's layer section: the whole layer as a full snapshot has it, or its changed tiles.
const WHOLE = 1,
    TILES = 0;
/** @internal Plane words restore has written, counted for the tests (work done, not time). */
export const restoreWork = { words: 0 };

/** @internal What a snapshot reads and writes of a CollisionRaster (its arrays, shared, not copied). */
export interface RasterState {
    readonly width: number;
    readonly height: number;
    readonly layerCount: number;
    readonly planes: readonly Mask[];
    readonly dirtyX0: Int32Array;
    readonly dirtyY0: Int32Array;
    readonly dirtyX1: Int32Array;
    readonly dirtyY1: Int32Array;
    readonly ids: RasterIds;
}

const WHAT = 'CollisionRaster.restore';
// Whether typed arrays are little-endian here, so saved words can be read through an Int32Array view.
const LE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
// The id section being written (writeRaster), kept between calls.
let SCRATCH: Int32Array = new Int32Array(0);
// A layer section's header, as read; and each layer's section kind in the delta being written.
interface Header {
    x0: number;
    y0: number;
    x1: number;
    y1: number;
    flags: number;
    empty: boolean;
}
const HDR: Header = { x0: 0, y0: 0, x1: 0, y1: 0, flags: 0, empty: true };
const MODES = new Int32Array(32);

function grow(a: Int32Array, min: number): Int32Array {
    const b: Int32Array = new Int32Array(Math.max(min, 2 * a.length));
    b.set(a);
    return b;
}

/** @internal Writes the raster's state, then the hash of the bytes before it; returns that hash. */
export function writeRaster(out: SnapshotWriter, s: RasterState): number {
    const W = s.width,
        H = s.height;
    out.u32(RASTER_MAGIC).u32(RASTER_VERSION).u32(W).u32(H).u32(s.layerCount);
    for (let l = 0; l < s.layerCount; l++) writeLayer(out, s, l);
    const hash = out.hash();
    out.u32(hash);
    return hash;
}

// Writes layer l's section: its stamped box, id flag, the plane words in the box and the ids of its set pixels.
function writeLayer(out: SnapshotWriter, s: RasterState, l: number): void {
    const x0 = s.dirtyX0[l],
        y0 = s.dirtyY0[l],
        x1 = s.dirtyX1[l],
        y1 = s.dirtyY1[l];
    const heads = s.ids.heads[l];
    out.i32(x0)
        .i32(y0)
        .i32(x1)
        .i32(y1)
        .u32(heads === null ? 0 : 1);
    if (x1 <= x0 || y1 <= y0) return;
    const A = s.planes[l].words,
        rows = y1 - y0,
        H = s.height;
    for (let st = x0 >> 5, sEnd = (x1 - 1) >> 5; st <= sEnd; st++) out.i32s(A, rows, st * H + y0);
    if (heads === null) return;
    const k = gather(A, heads, s.ids.entId[l], s.ids.entNext[l], s.ids.entCount[l], s.width, H, x0, y0, x1, y1);
    out.u32(k).i32s(SCRATCH, k);
}

// Writes into SCRATCH the ids of the set pixels of words A in the box, in storage order (strip by strip, row by row,
// bit by bit), as entries: `v c`, c >= 1 pixels with the lone id v (−1: none), or `−L id…`, one pixel with L >= 2 ids,
// newest first; returns how many values. A word adds at most 3 values a pixel plus its lists, which the pool bounds.
function gather(
    A: Uint32Array,
    heads: Int32Array,
    ids: Int32Array,
    next: Int32Array,
    pool: number,
    W: number,
    H: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number
): number {
    // The open run is `id` repeated `n` times (n = 0: none), stored at S[k], S[k + 1] when it ends.
    let S = SCRATCH,
        k = 0,
        id = -2,
        n = 0;
    for (let st = x0 >> 5, sEnd = (x1 - 1) >> 5; st <= sEnd; st++) {
        for (let y = y0, ai = st * H + y0; y < y1; y++, ai++) {
            let v = A[ai] | 0;
            if (v === 0) continue;
            if (k + 100 + pool > S.length) S = SCRATCH = grow(S, k + 100 + pool);
            const p0 = y * W + (st << 5);
            if (v === -1 && n > 0) {
                // A full word inside a run (terrain): 32 compares, no bit walk.
                let j = 0;
                while (j < 32 && heads[p0 + j] === id) j++;
                if (j === 32) {
                    n += 32;
                    continue;
                }
            }
            for (; v !== 0; v &= v - 1) {
                const h = heads[p0 + 31 - Math.clz32(v & -v)];
                if (h === id && n > 0) {
                    n++;
                    continue;
                }
                if (n > 0) {
                    S[k] = id;
                    S[k + 1] = n;
                    k += 2;
                    n = 0;
                }
                if (h >= -1) {
                    id = h;
                    n = 1;
                    continue;
                }
                const at = k++;
                for (let e = -2 - h; e >= 0; e = next[e]) S[k++] = ids[e];
                S[at] = at + 1 - k;
            }
        }
    }
    if (n > 0) {
        S[k] = id;
        S[k + 1] = n;
        k += 2;
    }
    return k;
}

/**
 * @internal Restores `bytes` (from {@link writeRaster} or {@link writeChanges}) into the raster: checks everything
 * first (an Error naming what is wrong leaves the raster unchanged), then writes the saved state, clearing each
 * layer it rewrites whole with `clear`. A delta is refused unless the raster is at its base: `at` says whether
 * it is (0), has no snapshot yet (1) or was written since (2), `tag` which snapshot it is at. Returns the new tag.
 */
export function readRaster(bytes: Uint8Array, s: RasterState, clear: (layer: number) => void, tag = 0, at = 1): number {
    checkBytes(`${WHAT}: bytes`, bytes, 'a Uint8Array from CollisionRaster.snapshot()');
    const r = new SnapshotReader(bytes, WHAT);
    const magic = r.u32();
    if (magic !== RASTER_MAGIC && magic !== DELTA_MAGIC)
        throw new Error(
            `${WHAT}: the bytes do not start with the raster snapshot tag "HMRS" or "HMRD"; they are not a CollisionRaster snapshot.`
        );
    const version = r.u32();
    if (version !== RASTER_VERSION)
        throw new Error(`${WHAT}: the snapshot has format version ${version}, expected ${RASTER_VERSION}.`);
    const W = r.u32(),
        H = r.u32(),
        L = r.u32();
    if (W !== s.width || H !== s.height || L !== s.layerCount) {
        throw new Error(
            `${WHAT}: the snapshot is of a ${W}x${H} raster with ${L} layer${L === 1 ? '' : 's'}, this raster is ${s.width}x${s.height} with ${s.layerCount} layer${s.layerCount === 1 ? '' : 's'}.`
        );
    }
    const sum = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(bytes.length - 4, true);
    if (hashBytes(bytes, bytes.length - 4) !== sum)
        throw new Error(`${WHAT}: the snapshot's checksum does not match its bytes; it is corrupt or truncated.`);
    const delta = magic === DELTA_MAGIC;
    if (delta) {
        const base = r.u32();
        if (at !== 0 || base !== tag) {
            const where =
                at === 1
                    ? 'this raster has taken or restored no snapshot yet'
                    : at === 2
                      ? 'this raster was written since its last snapshot or restore'
                      : `this raster is at the snapshot tagged ${tag}`;
            throw new Error(
                `${WHAT}: the delta snapshot applies only to the state of the snapshot tagged ${base} (the one taken just before it), but ${where}; restore that snapshot first.`
            );
        }
    }
    // Pass 1 checks every layer; pass 2 reads them again and writes.
    const start = r.offset;
    for (let l = 0; l < L; l++) section(r, s, l, false, delta, clear);
    if (r.offset !== bytes.length - 4)
        throw new Error(
            `${WHAT}: the snapshot has ${bytes.length - 4 - r.offset} bytes after its data; it is corrupt or from another version.`
        );
    r.seek(start);
    for (let l = 0; l < L; l++) section(r, s, l, true, delta, clear);
    return sum;
}

// Checks or writes layer l's section of a full snapshot (cleared first) or of a delta (whole or changed tiles).
function section(
    r: SnapshotReader,
    s: RasterState,
    l: number,
    write: boolean,
    delta: boolean,
    clear: (layer: number) => void
): void {
    const mode = delta ? r.u32() : WHOLE;
    if (mode === WHOLE) {
        if (write) clear(l);
        layer(r, s, l, write);
    } else if (mode === TILES) {
        tiles(r, s, l, write);
    } else {
        throw new Error(
            `${WHAT}: layer ${l}'s section kind is ${mode}, expected ${WHOLE} or ${TILES}; the snapshot is corrupt.`
        );
    }
}

// Reads layer l's section at the reader's offset: checks it, or (write) puts it into the raster just cleared.
function layer(r: SnapshotReader, s: RasterState, l: number, write: boolean): void {
    const H = s.height;
    const { x0, y0, x1, y1, flags, empty } = header(r, s, l, write, HDR);
    if (empty) return;
    const s0 = x0 >> 5,
        s1 = (x1 - 1) >> 5,
        rows = y1 - y0,
        words = r.offset,
        A = s.planes[l].words;
    let set = 0;
    if (write) {
        for (let st = s0; st <= s1; st++) r.i32s(A, rows, st * H + y0);
        restoreWork.words += rows * (s1 - s0 + 1);
    } else {
        r.seek(words + 4 * rows * (s1 - s0 + 1) - 4);
        r.u32(); // throws when the words run past the end
        // Bits left of x0 and from x1 on must be clear: the box holds every set pixel.
        const dv = new DataView(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
        const left = (1 << (x0 & 31)) - 1,
            right = (x1 & 31) === 0 ? 0 : ~((1 << (x1 & 31)) - 1),
            last = words + 4 * (s1 - s0) * rows;
        for (let y = 0; y < rows; y++) {
            if ((dv.getUint32(words + 4 * y, true) & left) !== 0 || (dv.getUint32(last + 4 * y, true) & right) !== 0) {
                throw new Error(`${WHAT}: layer ${l} has set pixels outside its stamped box; the snapshot is corrupt.`);
            }
        }
        if (flags === 1) set = countBits(r.bytes, words, r.offset);
    }
    if (flags !== 0) ids(r, s, l, write, set, s0, s1, y0, y1);
}

// A layer's id section: checked against its `set` pixels, or written into strips s0..s1, rows y0..y1 − 1.
function ids(
    r: SnapshotReader,
    s: RasterState,
    l: number,
    write: boolean,
    set: number,
    s0: number,
    s1: number,
    y0: number,
    y1: number
): void {
    const k = r.count(`layer ${l}'s id section length`, (r.bytes.length - r.offset) >> 2);
    if (k > SCRATCH.length) SCRATCH = grow(SCRATCH, k);
    const T = SCRATCH;
    r.i32s(T, k);
    if (!write) checkIds(T, k, set, l);
    else writeIds(T, s, l, s0, s1, y0, y1);
}

// The set bits of the little-endian words in bytes[from..to).
function countBits(bytes: Uint8Array, from: number, to: number): number {
    let n = 0;
    if (LE && ((bytes.byteOffset + from) & 3) === 0) {
        const w = new Int32Array(bytes.buffer, bytes.byteOffset + from, (to - from) >> 2);
        for (let i = 0; i < w.length; i++) if (w[i] !== 0) n += popcnt(w[i]);
    } else {
        const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        for (let at = from; at < to; at += 4) n += popcnt(dv.getInt32(at, true));
    }
    return n;
}

// Throws unless T[0..k) is a well-formed id section for `set` pixels.
function checkIds(T: Int32Array, k: number, set: number, l: number): void {
    let i = 0,
        n = 0;
    while (i < k) {
        const v = T[i];
        if (v >= -1) {
            if (i + 1 >= k || T[i + 1] < 1)
                throw new Error(
                    `${WHAT}: layer ${l}'s id run at entry ${i} has no pixel count of at least 1; the snapshot is corrupt.`
                );
            n += T[i + 1];
            if (n > set) break;
            i += 2;
            continue;
        }
        if (i - v >= k)
            throw new Error(
                `${WHAT}: layer ${l}'s id list at entry ${i} (${-v} ids) runs past the section's ${k} entries; the snapshot is corrupt.`
            );
        for (let j = i + 1; j <= i - v; j++)
            if (T[j] < 0)
                throw new Error(
                    `${WHAT}: layer ${l} has id ${T[j]} at entry ${j}, expected 0..${MAX_ID}; the snapshot is corrupt.`
                );
        n++;
        i += 1 - v;
    }
    if (n !== set)
        throw new Error(
            `${WHAT}: layer ${l}'s ids cover ${n} pixels, but it has ${set} set pixels; the snapshot is corrupt.`
        );
}

// Writes the checked id section T into layer l's id plane (at its set pixels, which are already written) and a
// fresh entry pool: each list pushed oldest first, so every entry links to the older one.
function writeIds(T: Int32Array, s: RasterState, l: number, s0: number, s1: number, y0: number, y1: number): void {
    const W = s.width,
        H = s.height,
        A = s.planes[l].words,
        heads = s.ids.heads[l]!;
    let i = 0,
        left = 0,
        id = -1;
    for (let st = s0; st <= s1; st++) {
        for (let y = y0, ai = st * H + y0; y < y1; y++, ai++) {
            const p0 = y * W + (st << 5);
            let v = A[ai] | 0;
            if (v === -1 && left >= 32) {
                for (let j = 0; j < 32; j++) heads[p0 + j] = id;
                left -= 32;
                continue;
            }
            for (; v !== 0; v &= v - 1) {
                if (left === 0) {
                    const h = T[i];
                    if (h >= -1) {
                        id = h;
                        left = T[i + 1];
                        i += 2;
                    } else {
                        let e = -1;
                        for (let j = i - h; j > i; j--) e = s.ids.push(l, T[j], e);
                        heads[p0 + 31 - Math.clz32(v & -v)] = -2 - e;
                        i += 1 - h;
                        continue;
                    }
                }
                heads[p0 + 31 - Math.clz32(v & -v)] = id;
                left--;
            }
        }
    }
}

// Reads (and checks) a layer's box and id flag; with `write`, sets them on the raster.
function header(r: SnapshotReader, s: RasterState, l: number, write: boolean, h: Header): Header {
    const W = s.width,
        H = s.height;
    const x0 = r.i32(),
        y0 = r.i32(),
        x1 = r.i32(),
        y1 = r.i32(),
        flags = r.u32();
    const empty = x0 === W && y0 === H && x1 === 0 && y1 === 0;
    if (!empty && !(x0 >= 0 && x0 < x1 && x1 <= W && y0 >= 0 && y0 < y1 && y1 <= H)) {
        throw new Error(
            `${WHAT}: layer ${l}'s stamped box is (${x0}, ${y0})-(${x1}, ${y1}), not inside the ${W}x${H} raster; the snapshot is corrupt.`
        );
    }
    if (flags > 1 || (flags === 1 && W * H > MAX_ID_PIXELS))
        throw new Error(
            `${WHAT}: layer ${l}'s flags are ${flags}, expected 0 or 1 (0 on a raster too big for ids); the snapshot is corrupt.`
        );
    if (write) {
        if (flags === 1) s.ids.plane(l);
        else s.ids.drop(l);
        s.dirtyX0[l] = x0;
        s.dirtyY0[l] = y0;
        s.dirtyX1[l] = x1;
        s.dirtyY1[l] = y1;
    }
    h.x0 = x0;
    h.y0 = y0;
    h.x1 = x1;
    h.y1 = y1;
    h.flags = flags;
    h.empty = empty;
    return h;
}

/**
 * @internal Writes the changes of the raster since the snapshot tagged `base` (tracked in `ch`), then the hash of
 * the bytes before it, and returns that hash (the delta's tag); writes nothing and returns −1 when a full snapshot
 * would copy no more words. Each layer is its changed tiles, or the whole layer where that is smaller.
 */
export function writeChanges(out: SnapshotWriter, s: RasterState, ch: RasterChanges, base: number): number {
    const W = s.width,
        H = s.height,
        L = s.layerCount,
        TR = ch.tileRows;
    let full = 0,
        delta = 0;
    for (let l = 0; l < L; l++) {
        const x0 = s.dirtyX0[l],
            y0 = s.dirtyY0[l],
            x1 = s.dirtyX1[l],
            y1 = s.dirtyY1[l];
        const box = x1 > x0 && y1 > y0 ? (((x1 - 1) >> 5) - (x0 >> 5) + 1) * (y1 - y0) : 0,
            tiles = ch.count[l] * TILE_ROWS;
        full += box;
        MODES[l] = ch.count[l] === 0 || tiles < box ? TILES : WHOLE;
        delta += MODES[l] === TILES ? tiles : box;
    }
    if (delta >= full) return -1;
    out.u32(DELTA_MAGIC).u32(RASTER_VERSION).u32(W).u32(H).u32(L).u32(base);
    for (let l = 0; l < L; l++) {
        out.u32(MODES[l]);
        if (MODES[l] === WHOLE) {
            writeLayer(out, s, l);
            continue;
        }
        const heads = s.ids.heads[l],
            A = s.planes[l].words,
            n = ch.count[l],
            list = ch.list[l];
        out.i32(s.dirtyX0[l])
            .i32(s.dirtyY0[l])
            .i32(s.dirtyX1[l])
            .i32(s.dirtyY1[l])
            .u32(heads === null ? 0 : 1);
        // Sorted, the tiles of a strip come in row order, and touching ones form one run of consecutive words.
        list.subarray(0, n).sort();
        let runs = 0;
        for (let k = 0; k < n; k++) if (k === 0 || list[k] !== list[k - 1] + 1 || list[k] % TR === 0) runs++;
        out.u32(runs);
        for (let k = 0; k < n;) {
            let e = k + 1;
            while (e < n && list[e] === list[e - 1] + 1 && list[e] % TR !== 0) e++;
            const st = (list[k] / TR) | 0,
                row0 = (list[k] % TR) << TILE_SHIFT,
                row1 = Math.min(((list[e - 1] % TR) + 1) << TILE_SHIFT, H);
            out.u32(st)
                .u32(row0)
                .u32(row1 - row0)
                .i32s(A, row1 - row0, st * H + row0);
            if (heads !== null) {
                const c = gather(
                    A,
                    heads,
                    s.ids.entId[l],
                    s.ids.entNext[l],
                    s.ids.entCount[l],
                    W,
                    H,
                    st << 5,
                    row0,
                    Math.min((st + 1) << 5, W),
                    row1
                );
                out.u32(c).i32s(SCRATCH, c);
            }
            k = e;
        }
    }
    const sum = out.hash();
    out.u32(sum);
    return sum;
}

// Per plane word, the check that last found it rewritten by a delta's runs (COVER[i] === GEN), for checking a
// delta whose box leaves out part of its base's box; grown as needed, never cleared (GEN moves on instead).
let COVER = new Int32Array(0),
    GEN = 0;

// Checks or writes a delta's changed tiles of layer l: runs of rows of one strip, each with its ids. Checking
// also holds the delta to what the raster's own history writes: every set pixel of the base (the raster now)
// outside the delta's box lies in a run the delta rewrites. A box only shrinks by a clear, which marks every
// tile it empties, so an honest delta always passes; a box shrunk by hand would leave pixels outside the box,
// which snapshots, hashes and clear() never see again.
function tiles(r: SnapshotReader, s: RasterState, l: number, write: boolean): void {
    const W = s.width,
        H = s.height,
        strips = (W + 31) >> 5;
    // The base's box, read before the header may set the new one.
    const bx0 = s.dirtyX0[l],
        by0 = s.dirtyY0[l],
        bx1 = s.dirtyX1[l],
        by1 = s.dirtyY1[l];
    const { x0, y0, x1, y1, flags } = header(r, s, l, write, HDR);
    const shrunk = !write && bx1 > bx0 && by1 > by0 && (bx0 < x0 || by0 < y0 || bx1 > x1 || by1 > y1);
    if (shrunk) {
        if (COVER.length < strips * H) COVER = new Int32Array(strips * H);
        if (++GEN === 2 ** 31) {
            COVER.fill(0);
            GEN = 1;
        }
    }
    const runs = r.count(`layer ${l}'s run count`, strips * H);
    const A = s.planes[l].words,
        dv = new DataView(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
    for (let k = 0; k < runs; k++) {
        const st = r.u32(),
            row0 = r.u32(),
            rows = r.u32();
        if (st >= strips || rows < 1 || row0 >= H || rows > H - row0) {
            throw new Error(
                `${WHAT}: layer ${l}'s run ${k} is strip ${st}, rows ${row0}..${row0 + rows - 1}, not inside the ${strips} strips of ${H} rows; the snapshot is corrupt.`
            );
        }
        const words = r.offset;
        let set = 0;
        if (write) {
            r.i32s(A, rows, st * H + row0);
            restoreWork.words += rows;
        } else {
            r.seek(words + 4 * rows - 4);
            r.u32(); // throws when the words run past the end
            // Every set pixel lies in the layer's box.
            const inside = insideBits(st, x0, x1);
            for (let y = 0; y < rows; y++) {
                const v = dv.getInt32(words + 4 * y, true),
                    row = row0 + y;
                if ((v & (row >= y0 && row < y1 ? ~inside : -1)) !== 0)
                    throw new Error(
                        `${WHAT}: layer ${l} has set pixels outside its stamped box; the snapshot is corrupt.`
                    );
            }
            if (flags === 1) set = countBits(r.bytes, words, r.offset);
            if (shrunk) COVER.fill(GEN, st * H + row0, st * H + row0 + rows);
        }
        if (flags !== 0) ids(r, s, l, write, set, st, st, row0, row0 + rows);
    }
    if (!shrunk) return;
    for (let st = bx0 >> 5, sEnd = (bx1 - 1) >> 5; st <= sEnd; st++) {
        const inside = insideBits(st, x0, x1),
            base = st * H;
        for (let y = by0; y < by1; y++) {
            const i = base + y;
            if ((A[i] & (y >= y0 && y < y1 ? ~inside : -1)) !== 0 && COVER[i] !== GEN)
                throw new Error(
                    `${WHAT}: layer ${l}'s stamped box (${x0}, ${y0})-(${x1}, ${y1}) leaves out set pixels of the ` +
                        `raster near (${st << 5}, ${y}) that the delta does not rewrite; its history cannot ` +
                        'have written that box, so the snapshot is corrupt or forged.'
                );
        }
    }
}

// The bits of strip st (pixels 32·st..32·st + 31) inside columns x0..x1 − 1 (none when x1 <= x0).
function insideBits(st: number, x0: number, x1: number): number {
    const lo = Math.max(x0 - (st << 5), 0),
        hi = Math.min(x1 - (st << 5), 32);
    return lo >= hi ? 0 : (hi === 32 ? -1 : (1 << hi) - 1) & ~((1 << lo) - 1);
}
