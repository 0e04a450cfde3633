// What a CollisionRaster's snapshots keep besides its pixels: the tiles changed since the last snapshot or restore
// (a delta copies those), the tiles stamped since each layer's last clear (a clear changes those), and the tag of
// the snapshot the raster is at, the base of the next delta. The bytes themselves are raster-snapshot.ts's.
import { SnapshotWriter } from '../base/snapshot-bytes.js';
import { RasterChanges } from './changes.js';
import { DELTA_MAGIC, readRaster, writeChanges, writeRaster, type RasterState } from './raster-snapshot.js';

// The writer of every raster's snapshot() and hash() (one call at a time; its buffer is kept).
const WRITER = new SnapshotWriter();

/** @internal A raster's snapshot bookkeeping over its state (whose arrays it shares). */
export class RasterHistory {
    /** The tiles changed since the last snapshot or restore. */
    readonly changes: RasterChanges;
    /** The tiles stamped since each layer's last clear. */
    readonly stamped: RasterChanges;
    // inked[l] false: the tiles stamped on layer l are not known since a restore, so a clear changes its whole box.
    readonly #inked: boolean[] = [];
    // The checksum of the snapshot the raster was at after its last snapshot or restore, and whether there was one.
    #tag = 0;
    #based = false;

    constructor(readonly state: RasterState) {
        const { layerCount: n, width, height } = state;
        this.changes = new RasterChanges(n, width, height);
        this.stamped = new RasterChanges(n, width, height);
        for (let i = 0; i < n; i++) this.#inked.push(true);
    }

    /** CollisionRaster.snapshot, its `out` checked. */
    snapshot(out: Uint8Array | undefined): Uint8Array {
        this.#tag = writeRaster(WRITER.reset(out), this.state);
        this.#rebase();
        return WRITER.bytes(out);
    }

    /** CollisionRaster.snapshotChanges, its `out` checked. */
    snapshotChanges(out: Uint8Array | undefined): Uint8Array {
        const tag = this.#based ? writeChanges(WRITER.reset(out), this.state, this.changes, this.#tag) : -1;
        this.#tag = tag !== -1 ? tag : writeRaster(WRITER.reset(out), this.state);
        this.#rebase();
        return WRITER.bytes(out);
    }

    /** CollisionRaster.restore: `clear` empties a layer's pixels. */
    restore(bytes: Uint8Array, clear: (layer: number) => void): void {
        const at = !this.#based ? 1 : this.changes.written() ? 2 : 0;
        this.#tag = readRaster(bytes, this.state, clear, this.#tag, at);
        // A restore may change any pixel: its watchers hear of every layer's whole plane.
        const { width, height, layerCount } = this.state;
        for (const w of this.changes.watchers) for (let l = 0; l < layerCount; l++) w(l, 0, 0, width, height, 3);
        // Restored tiles were not stamped by this raster's calls: the next clear of a layer changes its whole box.
        this.stamped.reset();
        this.#inked.fill(false);
        this.#rebase();
    }

    /** CollisionRaster.hash. */
    hash(): number {
        return writeRaster(WRITER.reset(), this.state);
    }

    /** Notes that `layer` is about to be cleared: what the clear changes, the tiles stamped since the last clear. */
    cleared(layer: number): void {
        const s = this.state,
            x0 = s.dirtyX0[layer],
            y0 = s.dirtyY0[layer],
            x1 = s.dirtyX1[layer],
            y1 = s.dirtyY1[layer];
        if (this.#inked[layer]) this.changes.markAll(layer, this.stamped);
        else if (x1 > x0 && y1 > y0) this.changes.mark(layer, x0, y0, x1, y1, 1);
        this.stamped.resetLayer(layer);
        this.#inked[layer] = true;
    }

    // The raster's state is now the base of the next delta.
    #rebase(): void {
        this.#based = true;
        this.changes.reset();
    }
}

/** @internal Whether `bytes` (a Uint8Array) start with a delta's tag. */
export function isDeltaBytes(bytes: Uint8Array): boolean {
    return (
        bytes.length >= 4 && (bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) | (bytes[3] << 24)) >>> 0 === DELTA_MAGIC
    );
}
