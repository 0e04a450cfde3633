// What a MaskAtlas holds: frames (a mask with its place in the untrimmed sprite frame, duration, hit-boxes and
// optional polygons) and animation tags.
import type { Polygon } from '../base/types.js';
import type { Mask } from './mask.js';

/** Playback direction of an animation tag (Aseprite's names). */
export type TagDirection = 'forward' | 'reverse' | 'pingpong' | 'pingpong_reverse';

/** A named rectangle on one frame (an Aseprite slice), in the frame's untrimmed coordinates. */
export interface HitBox {
    readonly name: string;
    readonly x: number;
    readonly y: number;
    readonly width: number;
    readonly height: number;
}

/** A named run of frames `from..to` (inclusive indices into {@link MaskAtlas.frames}). */
export interface AtlasTag {
    readonly name: string;
    readonly from: number;
    readonly to: number;
    readonly direction: TagDirection;
}

/** One frame of a {@link MaskAtlas}: its mask and where that mask sits in the untrimmed sprite frame. */
export interface AtlasFrame {
    readonly name: string;
    /** Position in {@link MaskAtlas.frames}. */
    readonly index: number;
    readonly mask: Mask;
    /** Offset of the mask's top-left inside the untrimmed frame (the trim offset). */
    readonly x: number;
    readonly y: number;
    /** Size of the untrimmed frame. */
    readonly sourceWidth: number;
    readonly sourceHeight: number;
    /** Display time in milliseconds; 0 when unknown. */
    readonly duration: number;
    readonly boxes: readonly HitBox[];
    /**
     * Polygons of the mask (outer ring + holes, flat `[x0, y0, x1, y1, …]` rings in the mask's pixel-corner
     * coordinates, as `toPolygons` of `hitmask/shapes` makes them), when stored (`hitmask build --polygons`).
     */
    readonly polygons?: readonly Polygon[];
    /** Convex pieces (flat rings, same coordinates), when stored. */
    readonly pieces?: readonly (readonly number[])[];
}
