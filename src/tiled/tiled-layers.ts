// A Tiled tile layer as a TileMap on the map's grid: each drawn tile is cut into grid-sized pieces (one piece when
// it has the grid's size and no offset, the common case), and a cell that pieces of several tiles cover holds
// their union. The layer keeps its cells and one mask per distinct piece or union, never a bitmap of the map.
import { Mask } from '../core/mask.js';
import { TileMap, tileMapOver } from '../layers/tilemap.js';

/** Cells of a layer or chunk: gids row by row, `width` x `height` from cell (x, y). */
export interface Region {
    x: number;
    y: number;
    width: number;
    height: number;
    gids: Uint32Array;
}

/** A drawn gid cut into grid pieces: the cell offset of each piece from the gid's cell, and its mask. */
export interface Pieces {
    dc: number[];
    dr: number[];
    masks: Mask[];
}

/**
 * The pieces of a tile mask `m` whose top-left lies (ax, ay) pixels from its cell's top-left on a `tw` x `th` grid;
 * empty pieces are left out.
 */
export function cutPieces(m: Mask, ax: number, ay: number, tw: number, th: number): Pieces {
    const qx = Math.floor(ax / tw),
        qy = Math.floor(ay / th),
        rx = ax - qx * tw,
        ry = ay - qy * th;
    const out: Pieces = { dc: [], dr: [], masks: [] };
    if (rx === 0 && ry === 0 && m.width === tw && m.height === th) {
        if (m.count() > 0) {
            out.dc.push(qx);
            out.dr.push(qy);
            out.masks.push(m);
        }
        return out;
    }
    const nc = Math.ceil((rx + m.width) / tw),
        nr = Math.ceil((ry + m.height) / th);
    for (let j = 0; j < nr; j++) {
        for (let i = 0; i < nc; i++) {
            const p = new Mask(tw, th).draw(m, rx - i * tw, ry - j * th);
            if (p.count() === 0) {
                p.dispose();
                continue;
            }
            out.dc.push(qx + i);
            out.dr.push(qy + j);
            out.masks.push(p);
        }
    }
    return out;
}

/**
 * The TileMap of `regions` on a `tw` x `th` grid whose cell (0, 0) has its top-left at map pixel (ox, oy); `pieces`
 * gives a gid's pieces (`null`: draws nothing). Refuses (via `tooBig`) a grid of more than `maxCells` cells before
 * allocating it. The regions' gids are overwritten (they are the reader's own decoded data): a finite layer's map
 * keeps their memory as its cells.
 */
export function buildTileLayer(
    regions: readonly Region[],
    tw: number,
    th: number,
    ox: number,
    oy: number,
    pieces: (gid: number) => Pieces | null,
    maxCells: number,
    tooBig: (cells: number, columns: number, rows: number) => Error
): TileMap {
    // The distinct gids (one table probe a cell, none along a run of one gid), each cell's gid replaced in place by
    // 1 + its slot (0: empty); their pieces and the grid offsets those reach then bound the grid.
    const table = new GidTable();
    for (const g of regions) {
        const gids = g.gids;
        for (let k = 0, last = 0, s = 0; k < gids.length; k++) {
            const gid = gids[k];
            if (gid !== last) {
                last = gid;
                s = gid === 0 ? 0 : table.slot(gid) + 1;
            }
            gids[k] = s;
        }
    }
    const used = table.gids.map(pieces);
    let c0 = Infinity,
        r0 = Infinity,
        c1 = -Infinity,
        r1 = -Infinity;
    let dc0 = 0,
        dr0 = 0,
        dc1 = 0,
        dr1 = 0,
        simple = true;
    for (const p of used) {
        if (!p) continue;
        for (let i = 0; i < p.masks.length; i++) {
            dc0 = Math.min(dc0, p.dc[i]);
            dc1 = Math.max(dc1, p.dc[i]);
            dr0 = Math.min(dr0, p.dr[i]);
            dr1 = Math.max(dr1, p.dr[i]);
            if (p.dc[i] !== 0 || p.dr[i] !== 0 || p.masks.length > 1) simple = false;
        }
    }
    for (const g of regions) {
        c0 = Math.min(c0, g.x);
        r0 = Math.min(r0, g.y);
        c1 = Math.max(c1, g.x + g.width - 1);
        r1 = Math.max(r1, g.y + g.height - 1);
    }
    if (c0 === Infinity) return new TileMap(tw, th, 0, 0, [], undefined, { x: ox, y: oy });
    c0 += dc0;
    r0 += dr0;
    c1 += dc1;
    r1 += dr1;
    const columns = c1 - c0 + 1,
        rows = r1 - r0 + 1;
    if (columns * rows > maxCells) throw tooBig(columns * rows, columns, rows);

    // Each distinct piece mask gets a tile index; a slot's pieces become (dc, dr, tile) triples.
    const tiles: Mask[] = [];
    const indexOf = new Map<Mask, number>();
    const coded = used.map(p => {
        const list: number[] = [];
        for (let i = 0; p && i < p.masks.length; i++) {
            let t = indexOf.get(p.masks[i]);
            if (t === undefined) {
                t = tiles.length;
                tiles.push(p.masks[i]);
                indexOf.set(p.masks[i], t);
            }
            list.push(p.dc[i], p.dr[i], t);
        }
        return list;
    });
    const at = { x: ox + c0 * tw, y: oy + r0 * th };
    if (simple) {
        // One piece at the gid's own cell and chunks that never overlap: each cell takes its slot's tile.
        const tileOf = new Int32Array(coded.length + 1);
        tileOf[0] = -1;
        coded.forEach((l, s) => (tileOf[s + 1] = l.length > 0 ? l[2] : -1));
        if (regions.length === 1) {
            // One region, a finite layer's: its cells written over its slots (each read before it is overwritten),
            // and the map keeps that memory as its cells: no second array, no fill.
            const slots = regions[0].gids,
                n = slots.length;
            const cells = new Int32Array(slots.buffer, slots.byteOffset, n);
            for (let k = 0; k < n; k++) cells[k] = tileOf[slots[k]];
            return tileMapOver(tw, th, columns, rows, tiles, cells, at);
        }
        const map = new TileMap(tw, th, columns, rows, tiles, undefined, at);
        const cells = map.cells;
        for (const g of regions) {
            const slots = g.gids;
            for (let r = 0, k = 0; r < g.height; r++) {
                const base = (g.y + r - r0) * columns + g.x - c0;
                for (let c = 0; c < g.width; c++, k++) {
                    const t = tileOf[slots[k]];
                    if (t >= 0) cells[base + c] = t;
                }
            }
        }
        return map;
    }
    const cells = new Int32Array(columns * rows).fill(-1);
    const unions = new Map<string, number>();
    for (const g of regions) {
        const slots = g.gids;
        for (let r = 0, k = 0; r < g.height; r++) {
            const row = g.y + r - r0;
            for (let c = g.x - c0; c < g.x - c0 + g.width; c++, k++) {
                if (slots[k] === 0) continue;
                const list = coded[slots[k] - 1];
                for (let j = 0; j < list.length; j += 3) {
                    const a = (row + list[j + 1]) * columns + c + list[j];
                    cells[a] = cells[a] < 0 ? list[j + 2] : union(tiles, unions, cells[a], list[j + 2]);
                }
            }
        }
    }
    return tileMapOver(tw, th, columns, rows, tiles, cells, at);
}

// The distinct gids of a layer, each with a slot: gids of tile ids below 2^16 (with any flags) straight from an array
// indexed by the flags and the id (as wide as the largest such id needs: 2^bits ids), others by open addressing
// (a Map lookup a cell cost 3x as much on a 4-million-cell map).
class GidTable {
    keys = new Uint32Array(64);
    vals = new Int32Array(64);
    gids: number[] = [];
    bits = 8;
    direct = new Int32Array(16 << 8).fill(-1);
    count = 0;

    slot(gid: number): number {
        const id = gid & 0x0fffffff;
        if (id < 65536) {
            if (id >>> this.bits !== 0) this.widen(id);
            const d = this.direct,
                i = ((gid >>> 28) << this.bits) | id;
            if (d[i] < 0) {
                d[i] = this.gids.length;
                this.gids.push(gid);
            }
            return d[i];
        }
        return this.hashed(gid);
    }

    // Makes the direct array wide enough for `id`, its slots moved.
    private widen(id: number): void {
        while (id >>> this.bits !== 0) this.bits++;
        this.direct = new Int32Array(16 << this.bits).fill(-1);
        this.gids.forEach((gid, s) => {
            if ((gid & 0x0fffffff) < 65536) this.direct[((gid >>> 28) << this.bits) | (gid & 0x0fffffff)] = s;
        });
    }

    private hashed(gid: number): number {
        let mask = this.keys.length - 1,
            h = Math.imul(gid, 0x9e3779b1) >>> 0;
        for (;;) {
            const i = h & mask,
                k = this.keys[i];
            if (k === gid) return this.vals[i];
            if (k === 0) {
                if (this.keys.length <= 2 * this.count) {
                    this.grow();
                    mask = this.keys.length - 1;
                    h = Math.imul(gid, 0x9e3779b1) >>> 0;
                    continue;
                }
                this.keys[i] = gid;
                this.vals[i] = this.gids.length;
                this.count++;
                this.gids.push(gid);
                return this.gids.length - 1;
            }
            h++;
        }
    }

    private grow(): void {
        const keys = this.keys,
            vals = this.vals;
        this.keys = new Uint32Array(keys.length * 2);
        this.vals = new Int32Array(keys.length * 2);
        const mask = this.keys.length - 1;
        for (let i = 0; i < keys.length; i++) {
            if (keys[i] === 0) continue;
            let h = Math.imul(keys[i], 0x9e3779b1) >>> 0;
            while (this.keys[h & mask] !== 0) h++;
            this.keys[h & mask] = keys[i];
            this.vals[h & mask] = vals[i];
        }
    }
}

// The tile index of the union of tiles a and b, made once per pair.
function union(tiles: Mask[], unions: Map<string, number>, a: number, b: number): number {
    if (a === b) return a;
    const key = a < b ? `${a},${b}` : `${b},${a}`;
    let t = unions.get(key);
    if (t === undefined) {
        t = tiles.length;
        tiles.push(tiles[a].clone().draw(tiles[b], 0, 0));
        unions.set(key, t);
    }
    return t;
}
