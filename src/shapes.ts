// hitmask/shapes: polygons from masks for physics engines. Browser-safe, no dependencies.
export { toPolygons, type Polygon, type PolygonOptions } from './shapes/polygons.js';
export { convexPieces, type ConvexOptions } from './shapes/convex.js';
export {
    TerrainChunks,
    type TerrainChunksOptions,
    type ChunkPieces,
    type ChunkSync,
    type ChunkLayer
} from './shapes/terrain-chunks.js';
export {
    matterParts,
    matterBody,
    planckPolygons,
    planckChains,
    rapierPoints,
    rapierPolyline,
    type Point,
    type UnitOptions,
    type PlanckOptions,
    type MatterPart,
    type MatterParts,
    type MatterLike,
    type MatterBodyOptions,
    type Polyline
} from './shapes/engines.js';
