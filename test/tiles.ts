// A TileMap cut from one big mask (terrain as tiles), for the movement tests and benchmark.
import { crop, Mask, TileMap } from '../src/index.js';

/** `terrain` cut into `tile`-px square tiles: an empty tile is a hole (-1), every other tile is its own mask. */
export function tileMapOf(terrain: Mask, tile: number): TileMap {
    const cols = Math.ceil(terrain.width / tile),
        rows = Math.ceil(terrain.height / tile),
        tiles: Mask[] = [],
        cells: number[] = [];
    for (let r = 0; r < rows; r++)
        for (let c = 0; c < cols; c++) {
            const t = crop(terrain, c * tile, r * tile, tile, tile);
            cells.push(t.count() === 0 ? -1 : tiles.length);
            if (t.count() > 0) tiles.push(t);
        }
    return new TileMap(tile, tile, cols, rows, tiles, cells);
}
