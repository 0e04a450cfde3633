// hitmask/debug: entry point.
export * from './debug/draw.js';
export { drawTileMap, type TileMapLike } from './debug/draw-tiles.js';
