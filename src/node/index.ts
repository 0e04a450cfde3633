// hitmask/node: Node-only helpers: image decoding, sprite sheet layouts and building mask atlases from files.
export * from '../index.js';
export { readImage, readFrames, decodeImage, decodeFrames, imageSize, type DecodeOptions } from './decode.js';
export { DEFAULT_MAX_BYTES, type RGBAImage, type ImageFrame } from './image.js';
export { gridFrames, parseSheetJson, type GridOptions, type SheetFrame, type SheetLayout, type SheetTag } from './sheets.js';
export { buildAtlas, resolveInputs, imageMask, cutSheet, loadLayout, type BuildOptions, type BuildStats, type BuildInput, type BuildResult, type MaskOptions } from './build.js';
export { createThreadPool, spawnNodeWorker } from './threads.js';
