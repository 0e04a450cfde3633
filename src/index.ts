// hitmask: pixel-perfect 2D collision detection. Core entry point: zero dependencies, browser-safe.
export { Mask } from './core/mask.js';
export {
    boundingRect,
    boundingRects,
    centroid,
    angle,
    forEachSet,
    outline,
    connectedComponent,
    connectedComponents
} from './core/shape.js';
export { scale, flipX, flipY, rotate90, crop, trim, convolve } from './core/transform.js';
export { raycast } from './rays/ray.js';
export { toRGBA } from './core/to-rgba.js';
export { overlapsMany, type OverlapsManyOptions } from './core/batch.js';
export type { Point, Rect, RGBAData } from './base/types.js';
export type { ThresholdOptions, ColorKeyOptions, ColorKey, RGBAColors } from './core/rgba.js';
export { MaskAtlas } from './core/atlas.js';
export type { AddFrameOptions } from './core/atlas.js';
export type { AtlasFrame, AtlasTag, HitBox, TagDirection } from './core/atlas-frame.js';
export { CollisionRaster, RasterView } from './raster/raster.js';
export type {
    RasterOptions,
    RasterQueryOptions,
    StampOptions,
    StampManyOptions,
    EraseOptions
} from './raster/raster.js';
export { World, Body } from './world/world.js';
export type {
    BodyOptions,
    LayerOptions,
    Filter,
    Pair,
    Contact,
    SweepHit,
    WorldOptions,
    WorldEvent,
    PairListener,
    BodyListener,
    WorldRayHit,
    WorldMoveOptions,
    WorldMoveResult,
    QueryOptions
} from './world/world.js';
export { limits } from './base/limits.js';
export type { CollisionLayer } from './layers/layer.js';
export type { RayHit, RasterRayHit } from './rays/ray.js';
export { TileMap, type TileMapOptions } from './layers/tilemap.js';
export { moveAndSlide } from './movement/move-and-slide.js';
export { detachIslands, type DetachedIsland, type DetachOptions, type Anchors } from './debris/debris.js';
export type { MoveOptions, MoveResult } from './movement/move-and-slide.js';
export { transformMask, TransformCache, type TransformCacheOptions } from './core/transform.js';
export type { Transform, PlacedMask } from './core/transform.js';
export { setKernels } from './kernels/memory.js';
export { kernelStats } from './kernels/storage.js';
export type { KernelMode, KernelStats } from './kernels/memory.js';
