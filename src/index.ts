// hitmask: pixel-perfect 2D collision detection. Core entry point: zero dependencies, browser-safe.
export { Mask } from './mask.js';
export type { Point, Rect, RGBAData, ThresholdOptions, ColorKeyOptions, ColorKey, RGBAColors } from './mask.js';
export { MaskAtlas, ATLAS_VERSION } from './atlas.js';
export type { AtlasFrame, AtlasTag, HitBox, TagDirection, AddFrameOptions } from './atlas.js';
export { CollisionRaster, RasterView, MAX_LAYERS, MAX_ID } from './raster.js';
export type { RasterOptions, StampOptions, StampManyOptions } from './raster.js';
export { World, Body } from './world.js';
export type { BodyOptions, LayerOptions, Filter, Pair, Contact, SweepHit, WorldOptions, WorldEvent, PairListener } from './world.js';
export { MAX_COORD } from './check.js';
export { MAX_SWEEP } from './contact.js';
export { MAX_PAIRS } from './grid.js';
export type { CollisionLayer } from './layer.js';
export type { RayHit, RasterRayHit, WorldRayHit } from './ray.js';
export { TileMap } from './tilemap.js';
export { transformMask, TransformCache } from './transform.js';
export type { Transform, PlacedMask } from './transform.js';
export { setKernels, getKernels, simdSupported, kernelStats, MEMORY_LIMIT } from './wasm/simd.js';
export type { KernelMode, KernelStats } from './wasm/simd.js';
