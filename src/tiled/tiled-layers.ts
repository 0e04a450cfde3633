// A Tiled tile layer as a TileMap on the map's grid: each drawn tile is cut into grid-sized pieces (one piece when
// it has the grid's size and no offset, the common case), and a cell that pieces of several tiles cover holds
// their union. The layer keeps its cells and one mask per distinct piece or union, never a bitmap of the map.
import { Mask } from '../core/mask.js';
import { TileMap } from '../layers/tilemap.js';

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
 * allocating it.
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
    // The distinct gids, and the grid offsets their pieces reach, bound the grid.
    const used = new Map<number, Pieces | null>();
    let c0 = Infinity,
        r0 = Infinity,
        c1 = -Infinity,
        r1 = -Infinity;
    let dc0 = 0,
        dr0 = 0,
        dc1 = 0,
        dr1 = 0,
        simple = true;
    for (const g of regions) {
        let last = 0;
        for (let k = 0; k < g.gids.length; k++) {
            const gid = g.gids[k];
            if (gid === 0 || gid === last || used.has(gid)) continue;
            last = gid;
            const p = pieces(gid);
            used.set(gid, p);
            if (!p) continue;
            for (let i = 0; i < p.masks.length; i++) {
                dc0 = Math.min(dc0, p.dc[i]);
                dc1 = Math.max(dc1, p.dc[i]);
                dr0 = Math.min(dr0, p.dr[i]);
                dr1 = Math.max(dr1, p.dr[i]);
                if (p.dc[i] !== 0 || p.dr[i] !== 0 || p.masks.length > 1) simple = false;
            }
        }
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

    // Each distinct piece mask gets a tile index; a gid's pieces become index lists.
    const tiles: Mask[] = [];
    const indexOf = new Map<Mask, number>();
    const coded = new Map<number, number[]>();
    for (const [gid, p] of used) {
        if (!p) continue;
        const list: number[] = [];
        for (let i = 0; i < p.masks.length; i++) {
            let t = indexOf.get(p.masks[i]);
            if (t === undefined) {
                t = tiles.length;
                tiles.push(p.masks[i]);
                indexOf.set(p.masks[i], t);
            }
            list.push(p.dc[i], p.dr[i], t);
        }
        coded.set(gid, list);
    }
    const cells = new Int32Array(columns * rows).fill(-1);
    const unions = new Map<string, number>();
    for (const g of regions) {
        let last = 0,
            list: number[] | undefined;
        for (let k = 0; k < g.gids.length; k++) {
            const gid = g.gids[k];
            if (gid === 0) continue;
            if (gid !== last) {
                last = gid;
                list = coded.get(gid);
            }
            // A gid whose drawn tile has no solid pixel has no pieces.
            if (!list || list.length === 0) continue;
            const c = g.x + (k % g.width) - c0,
                r = g.y + Math.floor(k / g.width) - r0;
            if (simple) {
                // One piece at the gid's own cell: later tiles cover earlier ones only where both are solid.
                const at = r * columns + c;
                cells[at] = cells[at] < 0 ? list[2] : union(tiles, unions, cells[at], list[2]);
                continue;
            }
            for (let i = 0; i < list.length; i += 3) {
                const at = (r + list[i + 1]) * columns + c + list[i];
                cells[at] = cells[at] < 0 ? list[i + 2] : union(tiles, unions, cells[at], list[i + 2]);
            }
        }
    }
    const map = new TileMap(tw, th, columns, rows, tiles, undefined, { x: ox + c0 * tw, y: oy + r0 * th });
    map.cells.set(cells);
    return map;
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
