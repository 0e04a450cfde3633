// hitmask/tiled: Tiled maps (JSON and TMX) as collision layers and object masks, in browsers and Node.
export { tiledCollision } from './tiled/tiled-collision.js';
export { loadTiledMap, type LoadTiledOptions } from './tiled/tiled-load.js';
export type {
    TiledCollision,
    TiledImage,
    TiledImageData,
    TiledLimits,
    TiledObject,
    TiledOptions,
    TiledResources,
    TiledSolid,
    TiledTileInfo,
    TiledTileLayer
} from './tiled/tiled-types.js';
