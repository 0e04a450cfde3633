// hitmask: pixel-perfect 2D collision detection. Core entry point: zero dependencies, browser-safe.
export { Mask } from './mask.js';
export type { Point, Rect, RGBAData, ThresholdOptions, ColorKeyOptions, ColorKey } from './mask.js';
