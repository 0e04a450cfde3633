// Plain data types shared by every layer: positions, rectangles, RGBA pixels, polygons.

/** A pixel position. */
export interface Point {
    x: number;
    y: number;
}

/** An axis-aligned rectangle in pixels; `x + width` and `y + height` are exclusive. */
export interface Rect {
    x: number;
    y: number;
    width: number;
    height: number;
}

/** RGBA pixels, 4 bytes per pixel, rows top to bottom (canvas `ImageData.data` works as is). */
export type RGBAData = Uint8Array | Uint8ClampedArray;

/** A polygon with holes: flat rings `[x0, y0, x1, y1, …]` in pixel-corner coordinates (y down). */
export interface Polygon {
    /** Outer ring, A > 0 (clockwise on screen) with A = ½ Σ (xᵢ·yᵢ₊₁ − xᵢ₊₁·yᵢ). */
    outer: number[];
    /** Hole rings, A < 0. */
    holes: number[][];
}
