// hitmask/shapes: polygons from masks for physics engines. Browser-safe, no dependencies.
export { toPolygons, type Polygon, type PolygonOptions } from './polygons.js';
export { convexPieces, type ConvexOptions } from './convex.js';
