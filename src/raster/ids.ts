// Which objects were stamped on a raster's pixels: per layer an id plane (one entry per pixel, created on
// the layer's first id), a pool of linked entries for pixels stamped by several ids, and the dedupe set the
// ids under a mask are collected into. The word loops that stamp and collect them are kernels/raster-ids.ts.
import { outOfRange } from '../base/check.js';
import type { Clip } from '../kernels/kernels.js';
import { collectIds, stampIds, type IdLists } from '../kernels/raster-ids.js';
import type { Mask } from '../core/mask.js';

// Largest raster that can hold ids: the id plane is one Int32Array entry per pixel.
/** @internal */
export const MAX_ID_PIXELS = 2 ** 30;

/** @internal The id store of a CollisionRaster. */
export class RasterIds implements IdLists {
    // Per layer, per pixel (row-major), the ids stamped there: −1 none, h >= 0 the single id h, h <= −2 a list
    // starting at entry −2 − h. A lone id needs one store instead of a list entry: 3x faster stamping of 1,000
    // 9x18 shots. null until the layer's first id.
    readonly heads: (Int32Array | null)[] = [];
    // Id planes removed by drop(), reused by plane().
    readonly spare: (Int32Array | null)[] = [];
    // Per layer entry pool, a linked list per pixel: entry e holds id entId[e] and the next (older) entry entNext[e].
    readonly entId: Int32Array[] = [];
    readonly entNext: Int32Array[] = [];
    readonly entCount: Int32Array;
    // An open-addressing set that dedupes ids in hits(), and the ids found with their slots in it.
    seen: Int32Array = new Int32Array(64).fill(-1);
    found: Int32Array = new Int32Array(32);
    foundSlot: Int32Array = new Int32Array(32);

    constructor(
        layers: number,
        readonly width: number,
        readonly height: number
    ) {
        for (let i = 0; i < layers; i++) {
            this.heads.push(null);
            this.spare.push(null);
            this.entId.push(new Int32Array(0));
            this.entNext.push(new Int32Array(0));
        }
        this.entCount = new Int32Array(layers);
    }

    /** ORs `mask` into `plane` and records `id` on the pixels it sets: see {@link stampIds}. */
    stamp(plane: Mask, mask: Mask, x: number, y: number, c: Clip, id: number, layer: number, heads: Int32Array): void {
        stampIds(this, plane, mask, x, y, c, id, layer, heads);
    }

    /** Collects the ids under `mask` on the layers `layers` into the dedupe set: see {@link collectIds}. */
    collect(planes: readonly Mask[], layers: number, mask: Mask, x: number, y: number, c: Clip): number {
        return collectIds(this, planes, layers, mask, x, y, c);
    }

    // Adds an id to the dedupe set and the found list unless present; returns the new count.
    addFound(id: number, n: number): number {
        let seen = this.seen;
        let mask = seen.length - 1,
            i = (Math.imul(id, 0x9e3779b1) >>> 0) & mask;
        while (seen[i] !== -1) {
            if (seen[i] === id) return n;
            i = (i + 1) & mask;
        }
        if (n >= this.found.length) {
            this.found = grow32(this.found, n + 1);
            this.foundSlot = grow32(this.foundSlot, n + 1);
        }
        if ((n + 1) * 2 > seen.length) {
            // Rehash into a table twice as big, keeping the load factor at most 1/2.
            seen = this.seen = new Int32Array(seen.length * 2).fill(-1);
            mask = seen.length - 1;
            for (let j = 0; j < n; j++) this.foundSlot[j] = insert(seen, mask, this.found[j]);
            i = insert(seen, mask, id);
        } else {
            seen[i] = id;
        }
        this.found[n] = id;
        this.foundSlot[n] = i;
        return n + 1;
    }

    // Adds an id to a set pixel's ids, newest first.
    add(layer: number, heads: Int32Array, p: number, id: number): void {
        const h = heads[p];
        if (h === -1) heads[p] = id;
        else if (h >= 0) heads[p] = -2 - this.push(layer, id, this.push(layer, h, -1));
        else heads[p] = -2 - this.push(layer, id, -2 - h);
    }

    // Makes room for `n` entries in the layer's pool.
    reserve(layer: number, n: number): void {
        if (n > this.entId[layer].length) {
            this.entId[layer] = grow32(this.entId[layer], n);
            this.entNext[layer] = grow32(this.entNext[layer], n);
        }
    }

    // Appends an id entry to the layer's pool; returns its index.
    push(layer: number, id: number, next: number): number {
        const e = this.entCount[layer];
        this.reserve(layer, e + 1);
        this.entId[layer][e] = id;
        this.entNext[layer][e] = next;
        this.entCount[layer] = e + 1;
        return e;
    }

    // The layer's id plane, created on the first id (or taken back from drop()); pixels already set get no id.
    plane(layer: number): Int32Array {
        let heads = this.heads[layer];
        if (heads === null) {
            const n = this.width * this.height;
            if (n > MAX_ID_PIXELS) {
                throw outOfRange(
                    `A ${this.width}x${this.height} raster is too big for ids (more than ${MAX_ID_PIXELS} pixels); stamp without ids or split the playfield.`
                );
            }
            heads = this.heads[layer] = (this.spare[layer] ?? new Int32Array(n)).fill(-1);
            this.spare[layer] = null;
        }
        return heads;
    }

    // Removes the layer's id plane (a restore to a state before its first id), keeping the array for plane().
    drop(layer: number): void {
        if (this.heads[layer] === null) return;
        this.spare[layer] = this.heads[layer];
        this.heads[layer] = null;
        this.entCount[layer] = 0;
    }

    /** Copies the `n` ids found into `out` and empties the dedupe set. */
    take(out: number[], n: number): number[] {
        const found = this.found;
        out.length = n;
        for (let i = 0; i < n; i++) out[i] = found[i];
        // Empty the dedupe set slot by slot: O(ids found), not O(set size).
        const seen = this.seen,
            slot = this.foundSlot;
        for (let i = 0; i < n; i++) seen[slot[i]] = -1;
        return out;
    }
}

function insert(table: Int32Array, mask: number, id: number): number {
    let i = (Math.imul(id, 0x9e3779b1) >>> 0) & mask;
    while (table[i] !== -1) i = (i + 1) & mask;
    table[i] = id;
    return i;
}

function grow32(a: Int32Array, min: number): Int32Array {
    const b = new Int32Array(Math.max(min, a.length * 2, 16));
    b.set(a);
    return b;
}
