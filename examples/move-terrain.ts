// The level of the movement examples (examples/phaser-move, examples/pixi-move): a Tiled map, examples/levels/level.tmj
// (40 x 20 tiles of 16 px, the tileset examples/levels/terrain.png), that the engine draws and hitmask/tiled reads
// as collision: slope tiles with a triangle drawn in Tiled's collision editor, used plain and flipped (horizontally
// down the hill, vertically under the floating island), a platform tile flipped anti-diagonally into posts, and grass
// tufts that a property leaves out of the collision. The hero starts at the map's point object "hero".
import type { TiledTileInfo } from '../src/tiled.js'; // in a game: from 'hitmask/tiled'

export const W = 640,
    H = 320;
export const GRAVITY = 0.35,
    JUMP = -6.5,
    SPEED = 1.5;

/** The map, and its tileset's image (the tileset "terrain" names it), relative to each example's page. */
export const LEVEL = '../levels/level.tmj',
    TILESET_IMAGE = '../levels/terrain.png';

/** Which tiles collide: the decoration (property `decor`) does not; others by their shapes, else their pixels. */
export function levelSolid(tile: TiledTileInfo): 'auto' | false {
    return tile.properties.decor === true ? false : 'auto';
}

/** The solid pixels of a tile map (the examples report it; the test compares it with Node's read of the map). */
export function solidPixels(layer: { cells: Int32Array; tiles: readonly ({ count(): number } | null)[] }): number {
    let n = 0;
    for (const t of layer.cells) if (t >= 0) n += layer.tiles[t]?.count() ?? 0;
    return n;
}
