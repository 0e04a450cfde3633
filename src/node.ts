// hitmask/node: Node-only helpers: image decoding, sprite sheet layouts and building mask atlases from files.
// Core names (Mask, MaskAtlas, World, …) come from 'hitmask'.
export { readImage, readFrames, decodeImage, decodeFrames, type DecodeOptions } from './node/decode.js';
export type { RGBAImage, ImageFrame } from './node/image.js';
export {
    gridFrames,
    parseSheetJson,
    type GridOptions,
    type SheetFrame,
    type SheetLayout,
    type SheetTag
} from './node/sheets.js';
export {
    buildAtlas,
    cutSheet,
    type BuildOptions,
    type BuildStats,
    type BuildInput,
    type BuildResult,
    type MaskOptions
} from './node/build.js';
export { createThreadPool } from './node/worker-threads.js';
export { readTiledMap } from './node/tiled-read.js';
