// hitmask/debug: Canvas 2D drawing helpers for collision debugging. Browser-safe, no dependencies.
// Colours are 0xRRGGBBAA numbers, as in toRGBA. Positions are floored, like everywhere in hitmask.
import {
    checkCoord,
    checkFinite,
    checkInt,
    checkPositive,
    mustBe,
    rangeError,
    typeError,
    wrongType
} from '../base/check.js';
import { checkObject } from '../base/check-types.js';
import { checkPieces, checkPolygons } from '../base/check-shapes.js';
import type { Point, Rect } from '../base/types.js';
import { checkMask, type Mask } from '../core/mask.js';
import type { RayHit } from '../rays/ray.js';
import { connectedComponents, outline } from '../core/shape.js';
import { crop } from '../core/transform.js';
import { toRGBA } from '../core/to-rgba.js';

/** The subset of `CanvasRenderingContext2D` (or `OffscreenCanvasRenderingContext2D`) the helpers use. */
export interface DebugContext {
    fillStyle: string | CanvasGradient | CanvasPattern;
    strokeStyle: string | CanvasGradient | CanvasPattern;
    lineWidth: number;
    save(): void;
    restore(): void;
    fillRect(x: number, y: number, width: number, height: number): void;
    strokeRect(x: number, y: number, width: number, height: number): void;
    beginPath(): void;
    moveTo(x: number, y: number): void;
    lineTo(x: number, y: number): void;
    stroke(): void;
    drawImage(image: CanvasImageSource, dx: number, dy: number): void;
}

/** What {@link drawNormal} reads from a contact (e.g. the result of `world.contact(a, b)`). */
export interface NormalLike {
    /** Contact pixel. */
    x: number;
    y: number;
    /** Unit normal (pointing out of `b`, toward `a`). */
    normalX: number;
    normalY: number;
}

// A canvas holding one mask in one colour, drawn with a single drawImage per call.
interface Surface {
    image: CanvasImageSource;
}

// The 2D context of a freshly created canvas: only the two calls needed to fill it.
interface PixelContext {
    createImageData(width: number, height: number): ImageData;
    putImageData(data: ImageData, dx: number, dy: number): void;
}

/** How a debug shape is drawn; each function documents its defaults. */
export interface DebugStyle {
    /** Colour, `0xRRGGBBAA`. */
    color?: number;
    /** Stroke width in pixels (boxes, outlines, polygons). @default 1 */
    lineWidth?: number;
}

/** Style of {@link drawIntersection} and {@link drawOverlap}: `x`, `y` place `a`'s top-left on the canvas. */
export interface PairStyle extends DebugStyle {
    /** Canvas x of `a`'s top-left. @default 0 */
    x?: number;
    /** Canvas y of `a`'s top-left. @default 0 */
    y?: number;
}

/** Style of {@link drawNormal} and {@link drawRay}. */
export interface ArrowStyle extends DebugStyle {
    /** Arrow length in pixels. @default 16 for normals, 12 for rays */
    length?: number;
    /** Colour of a ray's hit dot and normal arrow. @default 0x00ff40ff */
    normalColor?: number;
}

// Per mask, per colour: a canvas with the mask's pixels. Weak keys, so dropped masks free their canvases.
const surfaces = new WeakMap<Mask, Map<number, Surface>>();
const outlines = new WeakMap<Mask, Point[][]>();

/** `0xRRGGBBAA` → a CSS `rgba(…)` string. */
export function cssColor(color: number): string {
    checkColor(color);
    const a = (color & 255) / 255;
    return `rgba(${color >>> 24}, ${(color >>> 16) & 255}, ${(color >>> 8) & 255}, ${Math.round(a * 1000) / 1000})`;
}

/**
 * Draws a mask's set pixels in one colour with its top-left at (x, y). The pixels are rendered once per
 * (mask, colour) into a cached canvas, so drawing thousands of masks per frame costs one `drawImage` each.
 * Without `OffscreenCanvas` or `document` (e.g. in Node) it falls back to one `fillRect` per horizontal run.
 * After changing a mask's pixels, call {@link forgetMask} so the next draw sees them.
 */
export function drawMask(ctx: DebugContext, mask: Mask, x: number, y: number, style: DebugStyle = {}): void {
    checkCtx(ctx);
    const color = styleOf(style).color ?? 0xff00ff80;
    checkMask(mask, 'mask');
    const px = checkCoord('x', x),
        py = checkCoord('y', y);
    checkColor(color);
    if (mask.width === 0 || mask.height === 0) return;
    const surface = surfaceOf(mask, color);
    if (surface) {
        ctx.drawImage(surface.image, px, py);
        return;
    }
    ctx.save();
    ctx.fillStyle = cssColor(color);
    fillRuns(ctx, mask, px, py);
    ctx.restore();
}

/** Drops the cached canvases and outline of a mask whose pixels changed (e.g. terrain after a crater). */
export function forgetMask(mask: Mask): void {
    checkMask(mask, 'mask');
    surfaces.delete(mask);
    outlines.delete(mask);
}

/**
 * Strokes the bounding box of a `width × height` sprite at (x, y) on its outermost pixels (default colour 0x00ffffff).
 */
export function drawBox(
    ctx: DebugContext,
    x: number,
    y: number,
    width: number,
    height: number,
    style: DebugStyle = {}
): void {
    checkCtx(ctx);
    const { color = 0x00ffffff, lineWidth = 1 } = styleOf(style);
    const px = checkCoord('x', x),
        py = checkCoord('y', y);
    checkInt('width', width, 0, 2 ** 30);
    checkInt('height', height, 0, 2 ** 30);
    checkColor(color);
    checkInt('lineWidth', lineWidth, 1, 1024);
    if (width === 0 || height === 0) return;
    ctx.save();
    if (width <= 2 * lineWidth || height <= 2 * lineWidth) {
        ctx.fillStyle = cssColor(color);
        ctx.fillRect(px, py, width, height);
    } else {
        // Half a line inside the box, so the stroke covers whole pixels instead of blurring across two.
        const h = lineWidth / 2;
        ctx.strokeStyle = cssColor(color);
        ctx.lineWidth = lineWidth;
        ctx.strokeRect(px + h, py + h, width - lineWidth, height - lineWidth);
    }
    ctx.restore();
}

/**
 * The intersection of the boxes of `a` and `b` (its top-left at (dx, dy) in `a`'s coordinates), in `a`'s coordinates,
 * or `null` when they do not meet.
 */
export function intersection(a: Mask, b: Mask, dx: number, dy: number): Rect | null {
    checkMask(a, 'a');
    checkMask(b, 'b');
    const x1 = checkCoord('dx', dx),
        y1 = checkCoord('dy', dy);
    const left = Math.max(0, x1),
        top = Math.max(0, y1);
    const right = Math.min(a.width, x1 + b.width),
        bottom = Math.min(a.height, y1 + b.height);
    return right > left && bottom > top ? { x: left, y: top, width: right - left, height: bottom - top } : null;
}

/**
 * Fills the zone where the boxes of `a` (top-left at style.x, style.y on the canvas) and `b` (at (dx, dy) from `a`)
 * meet: the only pixels a mask test reads. Returns it in canvas pixels, or `null`. Default colour 0xffff0040.
 */
export function drawIntersection(
    ctx: DebugContext,
    a: Mask,
    b: Mask,
    dx: number,
    dy: number,
    style: PairStyle = {}
): Rect | null {
    checkCtx(ctx);
    const { color = 0xffff0040 } = styleOf(style),
        ax = checkCoord('style.x', style.x ?? 0),
        ay = checkCoord('style.y', style.y ?? 0);
    checkColor(color);
    const r = intersection(a, b, dx, dy);
    if (!r) return null;
    r.x += ax;
    r.y += ay;
    ctx.save();
    ctx.fillStyle = cssColor(color);
    ctx.fillRect(r.x, r.y, r.width, r.height);
    ctx.restore();
    return r;
}

/**
 * Fills the pixels set in both `a` (top-left at style.x, style.y on the canvas) and `b` (at (dx, dy) from `a`);
 * returns how many there are (the overlap area). Default colour 0xff0000ff.
 */
export function drawOverlap(
    ctx: DebugContext,
    a: Mask,
    b: Mask,
    dx: number,
    dy: number,
    style: PairStyle = {}
): number {
    checkCtx(ctx);
    const { color = 0xff0000ff } = styleOf(style),
        ax = checkCoord('style.x', style.x ?? 0),
        ay = checkCoord('style.y', style.y ?? 0);
    checkColor(color);
    const r = intersection(a, b, dx, dy);
    if (!r) return 0;
    // Only the intersection zone can hold overlapping pixels: crop a to it, then AND b in.
    const zone = crop(a, r.x, r.y, r.width, r.height),
        both = zone.overlapMask(b, Math.floor(dx) - r.x, Math.floor(dy) - r.y);
    ctx.save();
    ctx.fillStyle = cssColor(color);
    const n = fillRuns(ctx, both, ax + r.x, ay + r.y);
    ctx.restore();
    zone.dispose();
    both.dispose();
    return n;
}

/**
 * Draws a contact: a 3×3 dot on the contact pixel and an arrow `length` (16) pixels long along the normal (colour
 * 0x00ff00ff).
 */
export function drawNormal(ctx: DebugContext, contact: NormalLike, style: ArrowStyle = {}): void {
    checkCtx(ctx);
    const { color = 0x00ff00ff, length = 16 } = styleOf(style);
    checkObject('contact', contact, 'an object { x, y, normalX, normalY }');
    const x = checkCoord('contact.x', contact.x) + 0.5,
        y = checkCoord('contact.y', contact.y) + 0.5;
    const nx = checkFinite('contact.normalX', contact.normalX),
        ny = checkFinite('contact.normalY', contact.normalY);
    checkColor(color);
    checkPositive('length', length);
    const css = cssColor(color);
    ctx.save();
    ctx.fillStyle = css;
    ctx.fillRect(x - 1.5, y - 1.5, 3, 3);
    arrow(ctx, x, y, nx, ny, length, css);
    ctx.restore();
}

/**
 * Draws a ray: the segment from (x0, y0) up to the hit point (or to (x1, y1) when `hit` is null) in `color`
 * (0xff3030ff), and at the hit a 3×3 dot on the exact entry point and an arrow `length` (12) pixels long along
 * the normal in `normalColor`. Pass the result of `mask.raycast`, `raster.raycast` or `world.raycast`.
 */
export function drawRay(
    ctx: DebugContext,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    hit: RayHit | null,
    style: ArrowStyle = {}
): void {
    checkCtx(ctx);
    const { color = 0xff3030ff, normalColor = 0x00ff40ff, length = 12 } = styleOf(style);
    const ax = checkFinite('x0', x0),
        ay = checkFinite('y0', y0),
        bx = checkFinite('x1', x1),
        by = checkFinite('y1', y1);
    if (hit !== null && typeof hit !== 'object') throw typeError('hit', 'a RayHit or null', hit);
    checkColor(color);
    checkColor(normalColor);
    checkPositive('length', length);
    const ex = hit ? checkFinite('hit.x', hit.x) : bx,
        ey = hit ? checkFinite('hit.y', hit.y) : by;
    ctx.save();
    ctx.strokeStyle = cssColor(color);
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(ax, ay);
    ctx.lineTo(ex, ey);
    ctx.stroke();
    if (hit) {
        const css = cssColor(normalColor);
        ctx.fillStyle = css;
        ctx.fillRect(ex - 1.5, ey - 1.5, 3, 3);
        arrow(ctx, ex, ey, checkFinite('hit.nx', hit.nx), checkFinite('hit.ny', hit.ny), length, css);
    }
    ctx.restore();
}

/**
 * Strokes the outline of every 8-connected component of a mask at (x, y) through its boundary pixels' centres (traced
 * once per mask, cached; colour 0xffffffff).
 */
export function drawOutline(ctx: DebugContext, mask: Mask, x: number, y: number, style: DebugStyle = {}): void {
    checkCtx(ctx);
    const { color = 0xffffffff, lineWidth = 1 } = styleOf(style);
    checkMask(mask, 'mask');
    const px = checkCoord('x', x) + 0.5,
        py = checkCoord('y', y) + 0.5;
    checkColor(color);
    checkPositive('lineWidth', lineWidth);
    let paths = outlines.get(mask);
    if (!paths) {
        paths = connectedComponents(mask).map(c => outline(c));
        outlines.set(mask, paths);
    }
    ctx.save();
    ctx.strokeStyle = cssColor(color);
    ctx.lineWidth = lineWidth;
    ctx.beginPath();
    for (const path of paths) {
        if (path.length === 0) continue;
        ctx.moveTo(px + path[0].x, py + path[0].y);
        // A one-pixel component traces to a single point: close it with a zero-length segment.
        if (path.length === 1) ctx.lineTo(px + path[0].x, py + path[0].y);
        for (let i = 1; i < path.length; i++) ctx.lineTo(px + path[i].x, py + path[i].y);
    }
    ctx.stroke();
    ctx.restore();
}

/**
 * A polygon as `toPolygons` (hitmask/shapes) returns it: flat `[x0, y0, x1, y1, …]` rings in mask pixel-corner
 * coordinates.
 */
export interface PolygonLike {
    outer: readonly number[];
    holes: readonly (readonly number[])[];
}

/**
 * Strokes polygons (as `toPolygons` returns them), outer rings and holes, with the mask's top-left corner
 * at (x, y): one closed sub-path per ring, all in one path. Rings are in pixel-corner coordinates, so a
 * ring vertex (i, j) is drawn at (⌊x⌋ + i, ⌊y⌋ + j). Default colour 0xffd000ff.
 */
export function drawPolygons(
    ctx: DebugContext,
    polygons: readonly PolygonLike[],
    x: number,
    y: number,
    style: DebugStyle = {}
): void {
    checkCtx(ctx);
    const { color = 0xffd000ff, lineWidth = 1 } = styleOf(style);
    const rings = checkPolygons('polygons', polygons).flatMap(p => [p.outer, ...p.holes]);
    strokeRings(ctx, rings, checkCoord('x', x), checkCoord('y', y), color, lineWidth);
}

/**
 * Strokes convex pieces (as `convexPieces` returns them: flat `[x0, y0, x1, y1, …]` rings) with the mask's
 * top-left corner at (x, y): one closed sub-path per piece, all in one path, so shared edges show the cuts.
 * Default colour 0x40c0ffff.
 */
export function drawPieces(
    ctx: DebugContext,
    pieces: readonly (readonly number[])[],
    x: number,
    y: number,
    style: DebugStyle = {}
): void {
    checkCtx(ctx);
    const { color = 0x40c0ffff, lineWidth = 1 } = styleOf(style);
    const rings = checkPieces('pieces', pieces);
    strokeRings(ctx, rings, checkCoord('x', x), checkCoord('y', y), color, lineWidth);
}

// --- internals -------------------------------------------------------------------------------------

// The style argument, checked to be an object (its fields are checked where used).
function styleOf<S extends DebugStyle>(style: S): S {
    if (style === null || typeof style !== 'object')
        throw wrongType(
            mustBe('style', 'an object like { color: 0xff0000ff }', style, '; colours moved into it in 0.2.0')
        );
    return style;
}

// An arrow from (x, y) along (nx, ny), `length` pixels long (nothing for a zero vector); ctx state saved by the caller.
function arrow(ctx: DebugContext, x: number, y: number, nx: number, ny: number, length: number, css: string): void {
    const len = Math.hypot(nx, ny);
    if (len === 0) return;
    const ux = nx / len,
        uy = ny / len,
        ex = x + ux * length,
        ey = y + uy * length;
    const head = Math.min(5, length / 2);
    ctx.strokeStyle = css;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(ex, ey);
    // Arrow head: two strokes back from the tip at ±30° around the shaft.
    ctx.moveTo(ex - head * (ux * 0.866 - uy * 0.5), ey - head * (uy * 0.866 + ux * 0.5));
    ctx.lineTo(ex, ey);
    ctx.lineTo(ex - head * (ux * 0.866 + uy * 0.5), ey - head * (uy * 0.866 - ux * 0.5));
    ctx.stroke();
}

// Strokes closed rings at (px, py) in one path; checks colour and line width first.
function strokeRings(
    ctx: DebugContext,
    rings: readonly (readonly number[])[],
    px: number,
    py: number,
    color: number,
    lineWidth: number
): void {
    checkColor(color);
    checkPositive('lineWidth', lineWidth);
    ctx.save();
    ctx.strokeStyle = cssColor(color);
    ctx.lineWidth = lineWidth;
    ctx.beginPath();
    for (const r of rings) {
        ctx.moveTo(px + r[0], py + r[1]);
        for (let i = 2; i < r.length; i += 2) ctx.lineTo(px + r[i], py + r[i + 1]);
        // Closed with a segment back to the start (DebugContext has no closePath).
        ctx.lineTo(px + r[0], py + r[1]);
    }
    ctx.stroke();
    ctx.restore();
}

// One fillRect per horizontal run of set pixels; returns the number of pixels filled.
function fillRuns(ctx: DebugContext, mask: Mask, x: number, y: number): number {
    let n = 0;
    for (let row = 0; row < mask.height; row++) {
        let start = -1;
        for (let col = 0; col <= mask.width; col++) {
            const on = col < mask.width && mask.get(col, row);
            if (on && start < 0) start = col;
            else if (!on && start >= 0) {
                ctx.fillRect(x + start, y + row, col - start, 1);
                n += col - start;
                start = -1;
            }
        }
    }
    return n;
}

// A cached canvas with the mask in `color`, or null where no canvas can be created.
function surfaceOf(mask: Mask, color: number): Surface | null {
    let byColor = surfaces.get(mask);
    let s = byColor?.get(color);
    if (s) return s;
    const made = createCanvas(mask.width, mask.height);
    if (!made) return null;
    const img = made.ctx.createImageData(mask.width, mask.height);
    toRGBA(mask, { onColor: color }, img.data);
    made.ctx.putImageData(img, 0, 0);
    s = { image: made.image };
    if (!byColor) surfaces.set(mask, (byColor = new Map()));
    byColor.set(color, s);
    return s;
}

function createCanvas(width: number, height: number): { image: CanvasImageSource; ctx: PixelContext } | null {
    if (typeof OffscreenCanvas === 'function') {
        const c = new OffscreenCanvas(width, height),
            ctx = c.getContext('2d');
        if (ctx) return { image: c, ctx };
    }
    if (typeof document !== 'undefined' && typeof document.createElement === 'function') {
        const c = document.createElement('canvas');
        c.width = width;
        c.height = height;
        const ctx = c.getContext('2d');
        if (ctx) return { image: c, ctx };
    }
    return null;
}

function checkCtx(ctx: unknown): void {
    if (ctx == null || typeof ctx !== 'object' || typeof (ctx as DebugContext).fillRect !== 'function') {
        throw typeError('ctx', 'a CanvasRenderingContext2D', ctx);
    }
}

function checkColor(color: unknown): void {
    if (typeof color !== 'number' || !Number.isInteger(color) || color < 0 || color > 0xffffffff) {
        throw rangeError('color', 'an integer 0xRRGGBBAA in 0..0xffffffff', color);
    }
}
