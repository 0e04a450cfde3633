// Which parts of a CollisionRaster changed since its last snapshot or restore, for delta snapshots (delta.ts):
// per layer, tiles of one 32-pixel strip by TILE_ROWS rows (TILE_ROWS consecutive plane words, since a plane
// stores each strip's rows one after another), each marked once in a flag array and listed in marking order.

/** @internal Rows of a tile: a tile is TILE_ROWS words of one strip (32 pixels wide). */
export const TILE_ROWS = 8;
/** @internal log2 of TILE_ROWS. */
export const TILE_SHIFT = 3;

/**
 * @internal What a raster's writes tell a watcher (hitmask/shapes' TerrainChunks): pixels x0..x1−1, y0..y1−1 of
 * layer `layer` may have changed, and how: `kind` 1 when the write only clears pixels (erase, clear), 2 when it only
 * sets them (stamps), 3 either (restore).
 */
export type RasterWatcher = (layer: number, x0: number, y0: number, x1: number, y1: number, kind: number) => void;

/** @internal The changed tiles of each layer of a raster. */
export class RasterChanges {
    /** Tile rows per strip: ceil(height / TILE_ROWS); tile (strip s, tile row t) has index s * tileRows + t. */
    readonly tileRows: number;
    // Per layer: 1 where the tile changed, and the changed tiles' indices in marking order (count in `count`).
    readonly flags: Uint8Array[] = [];
    readonly list: Int32Array[] = [];
    readonly count: Int32Array;
    /** Whether any write call was made since the last snapshot or restore (even one that changed no pixel). */
    touched = false;
    /** Told every box marked, in pixels: kept by the set that every write marks, never reset. */
    readonly watchers: RasterWatcher[] = [];

    constructor(
        layers: number,
        readonly width: number,
        readonly height: number
    ) {
        this.tileRows = (height + TILE_ROWS - 1) >> TILE_SHIFT;
        const n = ((width + 31) >> 5) * this.tileRows;
        for (let l = 0; l < layers; l++) {
            this.flags.push(new Uint8Array(n));
            this.list.push(new Int32Array(n));
        }
        this.count = new Int32Array(layers);
    }

    /**
     * Marks the tiles of layer `layer` under pixels x0..x1−1, y0..y1−1 (inside the raster, not empty) as changed by a
     * write of `kind` (see RasterWatcher).
     */
    mark(layer: number, x0: number, y0: number, x1: number, y1: number, kind: number): void {
        const f = this.flags[layer],
            list = this.list[layer],
            TR = this.tileRows;
        const t0 = y0 >> TILE_SHIFT,
            t1 = (y1 - 1) >> TILE_SHIFT;
        for (const w of this.watchers) w(layer, x0, y0, x1, y1, kind);
        let n = this.count[layer];
        for (let s = x0 >> 5, sEnd = (x1 - 1) >> 5; s <= sEnd; s++) {
            for (let i = s * TR + t0, iEnd = s * TR + t1; i <= iEnd; i++) {
                if (f[i] === 0) {
                    f[i] = 1;
                    list[n++] = i;
                }
            }
        }
        this.count[layer] = n;
    }

    /** Marks the one tile of pixel (x, y) of `layer`, written by a write of `kind`. */
    markPixel(layer: number, x: number, y: number, kind: number): void {
        const i = (x >>> 5) * this.tileRows + (y >> TILE_SHIFT),
            f = this.flags[layer];
        for (const w of this.watchers) w(layer, x, y, x + 1, y + 1, kind);
        if (f[i] === 0) {
            f[i] = 1;
            this.list[layer][this.count[layer]++] = i;
        }
    }

    /** Marks every tile of `from`'s layer `layer` in this set's layer `layer`, cleared (the only write that uses it). */
    markAll(layer: number, from: RasterChanges): void {
        const f = this.flags[layer],
            list = this.list[layer],
            src = from.list[layer];
        let n = this.count[layer];
        for (let k = 0, m = from.count[layer]; k < m; k++) {
            const i = src[k];
            if (this.watchers.length !== 0) this.tell(layer, i);
            if (f[i] === 0) {
                f[i] = 1;
                list[n++] = i;
            }
        }
        this.count[layer] = n;
    }

    /** Adds `watcher`; returns the function that removes it. */
    watch(watcher: RasterWatcher): () => void {
        const list = this.watchers;
        list.push(watcher);
        return () => {
            const i = list.indexOf(watcher);
            if (i >= 0) list.splice(i, 1);
        };
    }

    // Tells the watchers the pixels of tile i of `layer` (clipped to the raster) may have changed.
    private tell(layer: number, i: number): void {
        const s = (i / this.tileRows) | 0,
            y0 = (i - s * this.tileRows) << TILE_SHIFT;
        const y1 = Math.min(y0 + TILE_ROWS, this.height);
        const x1 = Math.min((s + 1) << 5, this.width);
        for (const w of this.watchers) w(layer, s << 5, y0, x1, y1, 1);
    }

    /** Whether anything was written since the last snapshot or restore. */
    written(): boolean {
        if (this.touched) return true;
        for (let l = 0; l < this.count.length; l++) if (this.count[l] !== 0) return true;
        return false;
    }

    /** Forgets the changes of `layer`. */
    resetLayer(layer: number): void {
        const f = this.flags[layer],
            list = this.list[layer],
            n = this.count[layer];
        if (n > f.length >> 3) f.fill(0);
        else for (let k = 0; k < n; k++) f[list[k]] = 0;
        this.count[layer] = 0;
    }

    /** Forgets every change: the raster's state is the new base. */
    reset(): void {
        for (let l = 0; l < this.count.length; l++) this.resetLayer(l);
        this.touched = false;
    }
}
