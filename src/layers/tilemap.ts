import { checkCoord, checkInt, checkSize, outOfRange, rangeError } from '../base/check.js';
import { checkArray, checkBytes, checkObject } from '../base/check-types.js';
import type { CollisionLayer } from './layer.js';
import type { Point, Rect } from '../base/types.js';
import { checkMask, type Mask } from '../core/mask.js';
import { castTiles, newRayHit, type RayHit } from '../rays/ray.js';
import { hashBytes, SnapshotReader, SnapshotWriter } from '../base/snapshot-bytes.js';
import { deprecated } from '../base/deprecate.js';
import { MAX_COORD } from '../base/limits.js';

/** Where a {@link TileMap} lies in the world. */
export interface TileMapOptions {
    /** World x of column 0's left edge (an integer; default 0). */
    x?: number;
    /** World y of row 0's top edge (an integer; default 0). */
    y?: number;
}

// The tag a tile map's snapshot starts with ("HMTM", little-endian) and its format version.
const MAGIC = 0x4d544d48,
    VERSION = 1;
// The writer of every map's snapshot() and hash() (one call at a time; its buffer is kept).
const WRITER = new SnapshotWriter();

// Cells the TileMap being constructed takes as they are: set by tileMapOver for one constructor call.
let ADOPTED: Int32Array | null = null;

// Tile range set by TileMap.range(); module scratch instead of a tuple per call (tests run per body per step).
let C0 = 0,
    C1 = -1,
    R0 = 0,
    R1 = -1;

/**
 * @internal A TileMap whose `cells` is `cells` itself: no copy, no fill and no check of its indices, for a reader
 * that wrote them (hitmask/tiled over a layer's decoded data: a 16-million-cell map saves 64 MiB of filling).
 */
export function tileMapOver(
    tileWidth: number,
    tileHeight: number,
    columns: number,
    rows: number,
    tiles: readonly (Mask | null)[],
    cells: Int32Array,
    options: TileMapOptions = {}
): TileMap {
    if (cells.length !== columns * rows)
        throw new Error(`tileMapOver: ${cells.length} cells for a ${columns}x${rows} map; the reader miscounted.`);
    ADOPTED = cells;
    try {
        return new TileMap(tileWidth, tileHeight, columns, rows, tiles, undefined, options);
    } finally {
        ADOPTED = null;
    }
}

/**
 * A static grid of tile masks (solid ground, slopes, one-pixel ledges) that bodies collide with
 * without one body per tile. Tile (column, row) covers pixels [column·tileWidth, …) × [row·tileHeight, …)
 * from the world origin; each cell holds an index into `tiles` or −1 for empty.
 *
 * @example
 * const ground = new TileMap(16, 16, 40, 30, [Mask.fromText(solidTile), slopeMask], cells);
 * world.addLayer(ground, { category: 2 });
 */
export class TileMap implements CollisionLayer {
    /** Tile width in pixels. */
    readonly tileWidth: number;
    /** Tile height in pixels. */
    readonly tileHeight: number;
    /** Number of tile columns. */
    readonly columns: number;
    /** Number of tile rows. */
    readonly rows: number;
    /** The tile masks; `null` entries are empty tiles. */
    readonly tiles: readonly (Mask | null)[];
    /** Tile index per cell, row by row; −1 is empty. Change it with {@link setTile}. */
    readonly cells: Int32Array;
    /** World x of the map's left edge (column 0). */
    readonly x: number;
    /** World y of the map's top edge (row 0). */
    readonly y: number;
    /** @internal */
    private readonly point: Point = { x: 0, y: 0 };

    constructor(
        tileWidth: number,
        tileHeight: number,
        columns: number,
        rows: number,
        tiles: readonly (Mask | null)[],
        cells?: ArrayLike<number>,
        options: TileMapOptions = {}
    ) {
        checkObject('options', options, 'a { x, y } object');
        this.x = options.x === undefined ? 0 : checkInt('options.x', options.x, -MAX_COORD, MAX_COORD);
        this.y = options.y === undefined ? 0 : checkInt('options.y', options.y, -MAX_COORD, MAX_COORD);
        this.tileWidth = checkInt('tileWidth', tileWidth, 1, 2 ** 30);
        this.tileHeight = checkInt('tileHeight', tileHeight, 1, 2 ** 30);
        this.columns = checkSize('columns', columns);
        this.rows = checkSize('rows', rows);
        checkArray('tiles', tiles, 'an array of Masks (or null)');
        tiles.forEach((t, i) => {
            if (t === null) return;
            checkMask(t, `tiles[${i}]`);
            if (t.width !== tileWidth || t.height !== tileHeight) {
                throw outOfRange(
                    `tiles[${i}] is ${t.width}x${t.height}, expected ${tileWidth}x${tileHeight} (the tile size).`
                );
            }
        });
        this.tiles = tiles.slice();
        const n = columns * rows;
        if (n > 2 ** 28)
            throw outOfRange(`A ${columns}x${rows} tile map has more than 2^28 cells; split it into several layers.`);
        const adopted = ADOPTED;
        ADOPTED = null;
        this.cells = adopted !== null && adopted.length === n ? adopted : new Int32Array(n).fill(-1);
        if (cells !== undefined) {
            if (cells == null || typeof cells !== 'object' || cells.length !== n) {
                throw rangeError('cells', `an array of ${n} tile indices (${columns}x${rows})`, cells);
            }
            for (let i = 0; i < n; i++) this.cells[i] = this.checkIndex(`cells[${i}]`, cells[i]);
        }
    }

    /** Width in pixels. */
    get width(): number {
        return this.columns * this.tileWidth;
    }
    /** Height in pixels. */
    get height(): number {
        return this.rows * this.tileHeight;
    }

    /** The tile index at (column, row), −1 when empty. */
    getTile(column: number, row: number): number {
        return this.cells[this.cellIndex(column, row)];
    }

    /** Sets the tile index at (column, row); −1 empties it. Takes effect at the next test. */
    setTile(column: number, row: number, index: number): void {
        this.cells[this.cellIndex(column, row)] = this.checkIndex('tile index', index);
    }

    /** Whether a set pixel of `mask` at (x, y) lies on a solid tile pixel. */
    overlaps(mask: Mask, x: number, y: number): boolean {
        return this.scan(mask, x, y, false) !== 0;
    }

    /** Number of set pixels of `mask` at (x, y) on solid tile pixels. */
    overlapArea(mask: Mask, x: number, y: number): number {
        return this.scan(mask, x, y, true);
    }

    /** The first such pixel in row-major order, in world pixels, or `null`; with `out`, written there. */
    overlap(mask: Mask, x: number, y: number, out?: Point): Point | null {
        checkMask(mask, 'mask');
        if (out !== undefined) checkObject('out', out, 'a { x, y } object');
        x = checkCoord('x', x) - this.x;
        y = checkCoord('y', y) - this.y;
        const { tileWidth: tw, tileHeight: th, columns, cells, tiles, point } = this;
        this.range(mask, x, y);
        const c0 = C0,
            c1 = C1,
            r0 = R0,
            r1 = R1;
        for (let r = r0; r <= r1; r++) {
            let bestX = 0,
                bestY = Infinity;
            for (let c = c0; c <= c1; c++) {
                const t = cells[r * columns + c],
                    tm = t >= 0 ? tiles[t] : null;
                if (!tm || !tm.overlap(mask, x - c * tw, y - r * th, point)) continue;
                const px = this.x + c * tw + point.x,
                    py = this.y + r * th + point.y;
                if (py < bestY || (py === bestY && px < bestX)) {
                    bestX = px;
                    bestY = py;
                }
            }
            // Later tile rows only hold larger y, so the first row with a hit has the answer.
            if (bestY !== Infinity) {
                if (out === undefined) return { x: bestX, y: bestY };
                out.x = bestX;
                out.y = bestY;
                return out;
            }
        }
        return null;
    }

    /** Whether pixel (x, y) (floored) is solid; outside the map: false. */
    hitTest(x: number, y: number): boolean {
        const px = checkCoord('x', x) - this.x,
            py = checkCoord('y', y) - this.y;
        if (px < 0 || py < 0 || px >= this.width || py >= this.height) return false;
        const c = Math.floor(px / this.tileWidth),
            r = Math.floor(py / this.tileHeight);
        const t = this.cells[r * this.columns + c],
            tm = t >= 0 ? this.tiles[t] : null;
        return tm !== null && tm.get(px - c * this.tileWidth, py - r * this.tileHeight);
    }

    /** @deprecated Use {@link overlaps} (0.3's name; removed in 0.5.0). */
    test(mask: Mask, x: number, y: number): boolean {
        deprecated('TileMap.test', 'TileMap.overlaps');
        return this.overlaps(mask, x, y);
    }

    /** @deprecated Use {@link overlap} (0.3's name; removed in 0.5.0). */
    hitPoint(mask: Mask, x: number, y: number, out?: Point): Point | null {
        deprecated('TileMap.hitPoint', 'TileMap.overlap');
        return this.overlap(mask, x, y, out);
    }

    /** @deprecated Use {@link hitTest} (0.3's name; removed in 0.5.0). */
    testPixel(x: number, y: number): boolean {
        deprecated('TileMap.testPixel', 'TileMap.hitTest');
        return this.hitTest(x, y);
    }

    /** The map's extent, which holds every solid pixel (`null` when it is empty). */
    bounds(): Rect | null {
        return this.width > 0 && this.height > 0
            ? { x: this.x, y: this.y, width: this.width, height: this.height }
            : null;
    }

    /**
     * The first solid tile pixel the segment from (x0, y0) to (x1, y1) enters, in world pixels, or `null`
     * (rules: docs/rays.md); walks only the tiles the segment crosses. With `out`, written there.
     */
    raycast(x0: number, y0: number, x1: number, y1: number, out?: RayHit): RayHit | null {
        if (out === undefined) out = newRayHit();
        else checkObject('out', out, 'a RayHit object');
        // The walk runs in map coordinates; the hit comes back in world ones.
        const ox = this.x,
            oy = this.y,
            moved = ox !== 0 || oy !== 0;
        const hit = castTiles(
            this.tileWidth,
            this.tileHeight,
            this.columns,
            this.rows,
            this.cells,
            this.tiles,
            moved ? x0 - ox : x0,
            moved ? y0 - oy : y0,
            moved ? x1 - ox : x1,
            moved ? y1 - oy : y1,
            out
        );
        if (!hit) return null;
        if (moved) {
            out.px += ox;
            out.py += oy;
            out.x += ox;
            out.y += oy;
        }
        return out;
    }

    /**
     * The map's state as bytes: its size, tile size, tile count and every cell's tile index (the tiles are referred
     * to by index, not saved). With an `out` large enough, written into it and a view of its start returned.
     */
    snapshot(out?: Uint8Array): Uint8Array {
        if (out !== undefined) checkBytes('out', out);
        this.write(WRITER.reset(out));
        return WRITER.bytes(out);
    }

    /**
     * Puts back the cells `bytes` (from {@link snapshot} of a map of this shape and tile count) saved; bad bytes throw
     * an Error and change nothing.
     */
    restore(bytes: Uint8Array): this {
        const what = 'TileMap.restore';
        checkBytes(`${what}: bytes`, bytes, 'a Uint8Array from TileMap.snapshot()');
        const r = new SnapshotReader(bytes, what);
        if (r.u32() !== MAGIC)
            throw new Error(
                `${what}: the bytes do not start with the tile map snapshot tag "HMTM"; they are not a TileMap snapshot.`
            );
        const version = r.u32();
        if (version !== VERSION)
            throw new Error(`${what}: the snapshot has format version ${version}, expected ${VERSION}.`);
        const tw = r.u32(),
            th = r.u32(),
            columns = r.u32(),
            rows = r.u32(),
            tiles = r.u32();
        if (
            tw !== this.tileWidth ||
            th !== this.tileHeight ||
            columns !== this.columns ||
            rows !== this.rows ||
            tiles !== this.tiles.length
        ) {
            throw new Error(
                `${what}: the snapshot is of a ${columns}x${rows} map of ${tw}x${th} tiles with ${tiles} tile masks, this map is ${this.columns}x${this.rows} of ${this.tileWidth}x${this.tileHeight} with ${this.tiles.length}.`
            );
        }
        const n = this.cells.length;
        if (bytes.length !== r.offset + 4 * n + 4)
            throw new Error(
                `${what}: the snapshot has ${bytes.length} bytes, expected ${r.offset + 4 * n + 4} for ${n} cells; it is truncated or corrupt.`
            );
        if (
            hashBytes(bytes, bytes.length - 4) !==
            new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(bytes.length - 4, true)
        ) {
            throw new Error(`${what}: the snapshot's checksum does not match its bytes; it is corrupt.`);
        }
        const cells = r.offset;
        for (let i = 0; i < n; i++) {
            const t = r.i32();
            if (t < -1 || t >= tiles)
                throw new Error(
                    `${what}: cell ${i} holds tile index ${t} in the snapshot, expected -1..${tiles - 1}; the snapshot is corrupt.`
                );
        }
        r.seek(cells);
        r.i32s(this.cells, n);
        return this;
    }

    /**
     * A 32-bit hash of the cells and shape, the same on every machine: the last 4 bytes of {@link snapshot},
     * little-endian.
     */
    hash(): number {
        return this.write(WRITER.reset());
    }

    /** `<TileMap columns x rows of WxH>`. */
    toString(): string {
        const at = this.x !== 0 || this.y !== 0 ? ` at ${this.x},${this.y}` : '';
        return `<TileMap ${this.columns}x${this.rows} of ${this.tileWidth}x${this.tileHeight}${at}>`;
    }

    // Writes the snapshot, ending with the hash of the bytes before it; returns that hash.
    /** @internal */
    private write(w: SnapshotWriter): number {
        w.u32(MAGIC)
            .u32(VERSION)
            .u32(this.tileWidth)
            .u32(this.tileHeight)
            .u32(this.columns)
            .u32(this.rows)
            .u32(this.tiles.length);
        w.i32s(this.cells);
        const hash = w.hash();
        w.u32(hash);
        return hash;
    }

    // Tests (count = false, returns 0/1) or counts overlap with every tile under the mask's box.
    /** @internal */
    private scan(mask: Mask, x: number, y: number, count: boolean): number {
        checkMask(mask, 'mask');
        x = checkCoord('x', x) - this.x;
        y = checkCoord('y', y) - this.y;
        const { tileWidth: tw, tileHeight: th, columns, cells, tiles } = this;
        this.range(mask, x, y);
        const c0 = C0,
            c1 = C1,
            r0 = R0,
            r1 = R1;
        let n = 0;
        for (let r = r0; r <= r1; r++) {
            for (let c = c0; c <= c1; c++) {
                const t = cells[r * columns + c],
                    tm = t >= 0 ? tiles[t] : null;
                if (!tm) continue;
                if (!count) {
                    if (tm.overlaps(mask, x - c * tw, y - r * th)) return 1;
                } else n += tm.overlapArea(mask, x - c * tw, y - r * th);
            }
        }
        return n;
    }

    // Tile columns C0..C1 and rows R0..R1 under the mask's box, clamped to the map (empty: C1 < C0).
    /** @internal */
    private range(mask: Mask, x: number, y: number): void {
        if (mask.width === 0 || mask.height === 0) {
            C0 = 0;
            C1 = -1;
            R0 = 0;
            R1 = -1;
            return;
        }
        C0 = Math.max(0, Math.floor(x / this.tileWidth));
        C1 = Math.min(this.columns - 1, Math.floor((x + mask.width - 1) / this.tileWidth));
        R0 = Math.max(0, Math.floor(y / this.tileHeight));
        R1 = Math.min(this.rows - 1, Math.floor((y + mask.height - 1) / this.tileHeight));
    }

    /** @internal */
    private cellIndex(column: number, row: number): number {
        checkInt('column', column, 0, this.columns - 1);
        checkInt('row', row, 0, this.rows - 1);
        return row * this.columns + column;
    }

    /** @internal */
    private checkIndex(name: string, v: unknown): number {
        return checkInt(name, v, -1, this.tiles.length - 1);
    }
}
