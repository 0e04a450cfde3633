// Drawing a tile map's solid pixels (a Tiled layer, any TileMap): only the cells a view rectangle meets, each tile
// mask from drawMask's cached canvas, so a 4-million-cell map costs what the screen shows.
import { checkObject } from '../base/check-types.js';
import { checkFinite, checkNonNegative } from '../base/check.js';
import type { Rect } from '../base/types.js';
import type { Mask } from '../core/mask.js';
import { drawMask, type DebugContext, type DebugStyle } from './draw.js';

/** What {@link drawTileMap} reads of a tile map (a `TileMap`, e.g. a layer of `hitmask/tiled`). */
export interface TileMapLike {
    readonly x: number;
    readonly y: number;
    readonly tileWidth: number;
    readonly tileHeight: number;
    readonly columns: number;
    readonly rows: number;
    readonly cells: Int32Array;
    readonly tiles: readonly (Mask | null)[];
}

/**
 * Draws the solid pixels of a tile map in one colour (default 0xff00ff80), in world pixels: only its cells that
 * `view` (a world rectangle, default the whole map) meets. Returns the number of tiles drawn.
 */
export function drawTileMap(ctx: DebugContext, map: TileMapLike, style: DebugStyle = {}, view?: Rect): number {
    checkObject('map', map, 'a TileMap');
    const { tileWidth: tw, tileHeight: th, columns, rows, cells, tiles } = map;
    let c0 = 0,
        r0 = 0,
        c1 = columns - 1,
        r1 = rows - 1;
    if (view !== undefined) {
        checkObject('view', view, 'a { x, y, width, height } rectangle');
        const vx = checkFinite('view.x', view.x) - map.x,
            vy = checkFinite('view.y', view.y) - map.y;
        const vw = checkNonNegative('view.width', view.width),
            vh = checkNonNegative('view.height', view.height);
        c0 = Math.max(c0, Math.floor(vx / tw));
        r0 = Math.max(r0, Math.floor(vy / th));
        c1 = Math.min(c1, Math.ceil((vx + vw) / tw) - 1);
        r1 = Math.min(r1, Math.ceil((vy + vh) / th) - 1);
    }
    let n = 0;
    for (let r = r0; r <= r1; r++)
        for (let c = c0; c <= c1; c++) {
            const t = cells[r * columns + c],
                m = t >= 0 ? tiles[t] : null;
            if (!m) continue;
            drawMask(ctx, m, map.x + c * tw, map.y + r * th, style);
            n++;
        }
    return n;
}
