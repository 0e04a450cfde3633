// hitmask: pixel-perfect 2D collision detection. Core entry point: zero dependencies, browser-safe.
export { Mask } from './mask.js';
export type { CollisionLayer } from './layer.js';
export type { Point, Rect, RGBAData, ThresholdOptions, ColorKeyOptions, ColorKey } from './mask.js';
export { MaskAtlas, ATLAS_VERSION } from './atlas.js';
export type { AtlasFrame, AtlasTag, HitBox, TagDirection, AddFrameOptions } from './atlas.js';
export { crc32 } from './crc32.js';
export { CollisionRaster, RasterView, MAX_LAYERS, MAX_ID } from './raster.js';
export type { RasterOptions } from './raster.js';
export { World, Body, MAX_COORD, MAX_SWEEP } from './world.js';
export { MAX_PAIRS } from './grid.js';
export type { BodyOptions, LayerOptions, Filter, Pair, Contact, SweepHit, WorldOptions, WorldEvent, HitCallback, PairListener } from './world.js';
export { TileMap } from './tilemap.js';
export { transformMask, TransformCache } from './transform.js';
export type { Transform, PlacedMask } from './transform.js';
export { ThreadPool, WORKER_SOURCE } from './threads.js';
export type { ThreadPoolOptions, WorkerLike, SpawnWorker } from './threads.js';
export { setKernels, getKernels, simdSupported, wasmMemoryBytes, kernelStats, MEMORY_LIMIT } from './wasm/simd.js';
export type { KernelMode, KernelStats } from './wasm/simd.js';
