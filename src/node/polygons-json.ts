// What `hitmask polygons` writes: every frame's polygons (toPolygons) and convex pieces (convexPieces) as JSON.
import type { MaskAtlas } from '../core/atlas.js';
import type { Mask } from '../core/mask.js';
import { convexPieces } from '../shapes/convex.js';
import { toPolygons, type Polygon } from '../shapes/polygons.js';
import { outOfRange } from '../base/check.js';

/** Options of {@link polygonsJson}. */
export interface PolygonsJsonOptions {
    /** Simplification in pixels (0: the exact pixel edges). @default 0 */
    tolerance?: number;
    /** Most vertices per convex piece. @default 8 */
    maxVertices?: number;
    /**
     * Most vertices of a polygon cut into convex pieces (convexPieces' vertexLimit): a larger one throws a RangeError.
     * @default 32768
     */
    vertexLimit?: number;
}

/** One frame's entry in the JSON. */
export interface FramePolygons {
    /** Size of the frame's (trimmed) mask: the rings are in its pixel-corner coordinates. */
    width: number;
    height: number;
    /** Offset of the mask inside the untrimmed frame (0, 0 untrimmed). */
    x: number;
    y: number;
    sourceWidth: number;
    sourceHeight: number;
    /** One per 4-connected group of set pixels. */
    polygons: Polygon[];
    /** Convex pieces of every polygon, polygon by polygon. */
    pieces: number[][];
}

/**
 * A mask's polygons (toPolygons) and the convex pieces of each (convexPieces), polygon by polygon: what `build
 * --polygons` stores.
 */
export function maskPolygons(
    mask: Mask,
    options: PolygonsJsonOptions = {}
): { polygons: Polygon[]; pieces: number[][] } {
    const polygons = toPolygons(mask, { tolerance: options.tolerance ?? 0 });
    const pieces: number[][] = [];
    const convex = { maxVertices: options.maxVertices ?? 8, vertexLimit: options.vertexLimit };
    for (const p of polygons) for (const piece of convexPieces(p, convex)) pieces.push(piece);
    return { polygons, pieces };
}

/**
 * The JSON text of `{ version: 1, tolerance, maxVertices, frames: { name: FramePolygons } }`, frames in atlas
 * order, one frame per line; with the totals for a summary.
 */
export function polygonsJson(
    atlas: MaskAtlas,
    options: PolygonsJsonOptions = {}
): { text: string; frames: number; polygons: number; pieces: number } {
    const tolerance = options.tolerance ?? 0,
        maxVertices = options.maxVertices ?? 8;
    const lines: string[] = [];
    let polygons = 0,
        pieces = 0;
    for (const f of atlas.frames) {
        let shapes: ReturnType<typeof maskPolygons>;
        try {
            shapes = maskPolygons(f.mask, { tolerance, maxVertices, vertexLimit: options.vertexLimit });
        } catch (e) {
            // A polygon over convexPieces' vertexLimit (a noisy image): say which frame.
            if (e instanceof RangeError) throw outOfRange(`Frame ${JSON.stringify(f.name)}: ${e.message}`, e);
            throw e;
        }
        const { polygons: polys, pieces: parts } = shapes;
        polygons += polys.length;
        pieces += parts.length;
        const entry: FramePolygons = {
            width: f.mask.width,
            height: f.mask.height,
            x: f.x,
            y: f.y,
            sourceWidth: f.sourceWidth,
            sourceHeight: f.sourceHeight,
            polygons: polys,
            pieces: parts
        };
        // Written by hand rather than through an object: a frame named "__proto__" stays an ordinary key, in atlas
        // order.
        lines.push(`${JSON.stringify(f.name)}:${JSON.stringify(entry)}`);
    }
    const head = `{"version":1,"tolerance":${JSON.stringify(tolerance)},"maxVertices":${maxVertices},"frames":{`;
    const text = lines.length === 0 ? `${head}}}\n` : `${head}\n${lines.join(',\n')}\n}}\n`;
    return { text, frames: lines.length, polygons, pieces };
}
