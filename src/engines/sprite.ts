// Engine-agnostic placement of a sprite's frame mask: where a drawn, rotated, scaled, flipped sprite's
// pixels land in world pixels; and what both adapters share besides (FrameMask, the draw style, options,
// pointer and drawing helpers), so that hitmask/phaser and hitmask/pixi keep one shape. No engine import.
import { checkFinite, typeError } from '../base/check.js';
import { deprecated } from '../base/deprecate.js';
import { Mask, checkMask, isMaskObject, type Point } from '../core/mask.js';
import { checkObject } from '../base/check-types.js';
import { TransformCache } from '../core/transform.js';

/**
 * Where and how a sprite's frame is drawn: position of its origin point, origin in frame pixels, signed scale,
 * rotation.
 */
export interface SpritePose {
    /** World x of the origin point. */
    x: number;
    /** World y of the origin point. */
    y: number;
    /** Origin (pivot) x in the drawn frame's pixels, measured from the mask's left edge; need not be an integer. */
    originX: number;
    /** Origin (pivot) y in the drawn frame's pixels, measured from the mask's top edge. */
    originY: number;
    /** Horizontal scale; a negative value mirrors about the origin (PixiJS's `scale.x = -1`). */
    scaleX: number;
    /** Vertical scale; a negative value mirrors about the origin. */
    scaleY: number;
    /** Rotation in radians, clockwise on screen (y down), about the origin. */
    angle: number;
    /** Mirror the picture inside its own box, the origin staying put in the box (Phaser's `flipX`). */
    flipX?: boolean;
    /** Mirror the picture inside its own box, top to bottom (Phaser's `flipY`). */
    flipY?: boolean;
}

/** A posed mask: the transformed mask and its integer top-left in world pixels. */
export interface PlacedSprite {
    mask: Mask;
    x: number;
    y: number;
}

/** A sprite's frame mask, untransformed, and the pose it is drawn with: what {@link placeSprite} takes. */
export interface SpriteHitmask {
    mask: Mask;
    pose: SpritePose;
}

/** World-space bounds of a posed mask's box, in float world pixels. */
export interface PoseBounds {
    minX: number;
    minY: number;
    maxX: number;
    maxY: number;
}

let shared: TransformCache | null = null;
let empty: Mask | null = null;

/** The cache {@link placeSprite} uses when none is given: 256 angle steps per turn, as a `World`. */
export function defaultTransformCache(): TransformCache {
    return (shared ??= new TransformCache());
}

// cos and sin of the angle the cache rasterises with: rounded to one of `steps` steps per turn, and
// exact on quarter turns so that a lattice-aligned pose stays exactly lattice-aligned.
function quantisedTrig(angle: number, steps: number): [number, number] {
    const step = ((Math.round((angle / (2 * Math.PI)) * steps) % steps) + steps) % steps;
    if ((step * 4) % steps === 0) {
        const q = (step * 4) / steps;
        return [[1, 0, -1, 0][q], [0, 1, 0, -1][q]];
    }
    const a = (step * 2 * Math.PI) / steps;
    return [Math.cos(a), Math.sin(a)];
}

function checkPose(pose: Readonly<SpritePose>): void {
    checkObject('pose', pose, 'a SpritePose object');
    for (const k of ['x', 'y', 'originX', 'originY', 'scaleX', 'scaleY', 'angle'] as const)
        checkFinite(`pose.${k}`, pose[k]);
}

/**
 * Bounds of the posed mask's box in world pixels (angle as the cache quantises it); every pixel
 * {@link placeSprite} sets lies within these bounds grown by 1 px.
 */
export function poseBounds(
    mask: Mask,
    pose: Readonly<SpritePose>,
    cache: TransformCache = defaultTransformCache()
): PoseBounds {
    checkMask(mask, 'mask');
    checkPose(pose);
    const [cos, sin] = quantisedTrig(pose.angle, cache.steps);
    let minX = Infinity,
        minY = Infinity,
        maxX = -Infinity,
        maxY = -Infinity;
    // The in-box flips map the box onto itself, so its corners are those of the unflipped box.
    for (const [u, v] of [
        [0, 0],
        [mask.width, 0],
        [0, mask.height],
        [mask.width, mask.height]
    ]) {
        const lx = pose.scaleX * (u - pose.originX),
            ly = pose.scaleY * (v - pose.originY);
        const wx = pose.x + cos * lx - sin * ly,
            wy = pose.y + sin * lx + cos * ly;
        minX = Math.min(minX, wx);
        maxX = Math.max(maxX, wx);
        minY = Math.min(minY, wy);
        maxY = Math.max(maxY, wy);
    }
    return { minX, minY, maxX, maxY };
}

/**
 * The frame mask transformed by the pose and its integer top-left in world pixels.
 *
 * A frame pixel p (pixel centres at +0.5) is drawn at W(p) = (x, y) + R·S·(F(p) − origin), S the
 * signed scale, R the rotation, F the in-box flips. The mask is rasterised once per (mask, angle step,
 * |scale|, flips) by the cache (nearest neighbour about the mask centre c); its world offset
 * T = (x, y) − c + R·S·(c − origin) is rounded to the nearest integer, halves up
 * (`Math.floor(v + 0.5)`, as `Math.round`). So a world pixel is set when its centre, moved by that rounding (at most
 * half a pixel per axis, zero when T is already whole), maps back inside a set frame pixel:
 * the pixel-centre rule. A centre landing exactly on an edge between two differing frame pixels may
 * take either (whole-pixel quarter turns put the half pixel toward the top-left). A zero scale gives an empty mask.
 */
export function placeSprite(
    mask: Mask,
    pose: Readonly<SpritePose>,
    cache: TransformCache = defaultTransformCache()
): PlacedSprite {
    checkMask(mask, 'mask');
    checkPose(pose);
    checkCache(cache, 'cache');
    const sx = pose.scaleX,
        sy = pose.scaleY;
    const [cos, sin] = quantisedTrig(pose.angle, cache.steps);
    const cx = mask.width / 2,
        cy = mask.height / 2;
    const lx = sx * (cx - pose.originX),
        ly = sy * (cy - pose.originY);
    const tx = Math.floor(pose.x - cx + cos * lx - sin * ly + 0.5),
        ty = Math.floor(pose.y - cy + sin * lx + cos * ly + 0.5);
    if (sx === 0 || sy === 0) return { mask: (empty ??= new Mask(0, 0)), x: tx, y: ty };
    // A negative scale mirrors about the origin: the same as an in-box flip with |scale|, whose shift
    // is already in T through S·(c − origin).
    const fx = Boolean(pose.flipX) !== sx < 0,
        fy = Boolean(pose.flipY) !== sy < 0;
    const placed = cache.get(mask, pose.angle, Math.abs(sx), Math.abs(sy), fx, fy);
    return { mask: placed.mask, x: tx + placed.x, y: ty + placed.y };
}

/** @internal Pixel-exact test between two posed masks (box test first): what the adapters' `overlaps` runs. */
export function posedOverlap(
    a: Mask,
    pa: Readonly<SpritePose>,
    b: Mask,
    pb: Readonly<SpritePose>,
    cache: TransformCache = defaultTransformCache()
): boolean {
    const ba = poseBounds(a, pa, cache),
        bb = poseBounds(b, pb, cache);
    // Set pixels lie within the bounds grown by 1 px, so boxes more than 2 px apart cannot touch:
    // decided without rasterising either mask.
    if (ba.maxX + 2 <= bb.minX || bb.maxX + 2 <= ba.minX || ba.maxY + 2 <= bb.minY || bb.maxY + 2 <= ba.minY)
        return false;
    const A = placeSprite(a, pa, cache),
        B = placeSprite(b, pb, cache);
    return A.mask.overlaps(B.mask, B.x - A.x, B.y - A.y);
}

/**
 * @internal Pixel-exact test between two placed masks (box test first): the collision hooks place each object once per
 * check and test its pairs with this. The same answer as {@link posedOverlap} on their poses.
 */
export function placedOverlap(A: PlacedSprite, B: PlacedSprite): boolean {
    const dx = B.x - A.x,
        dy = B.y - A.y;
    if (dx >= A.mask.width || dy >= A.mask.height || -dx >= B.mask.width || -dy >= B.mask.height) return false;
    return A.mask.overlaps(B.mask, dx, dy);
}

/**
 * @deprecated since 0.4.0: `overlaps({ mask: a, pose: pa }, { mask: b, pose: pb }, { cache })` of hitmask/phaser or
 * hitmask/pixi (the adapters' `overlaps` takes posed masks too). Warns once.
 */
export function spritesOverlap(
    a: Mask,
    pa: Readonly<SpritePose>,
    b: Mask,
    pb: Readonly<SpritePose>,
    cache: TransformCache = defaultTransformCache()
): boolean {
    deprecated(
        'spritesOverlap(a, poseA, b, poseB, cache)',
        'overlaps({ mask: a, pose: poseA }, { mask: b, pose: poseB }, { cache })'
    );
    return posedOverlap(a, pa, b, pb, cache);
}

/** @internal Whether `o` is a posed mask (`{ mask, pose }`, what `shapeOf` returns) rather than an engine object. */
export function isPosed(o: unknown): o is SpriteHitmask {
    const p = o as Partial<SpriteHitmask> | null;
    return typeof p === 'object' && p !== null && isMaskObject(p.mask) && typeof p.pose === 'object' && p.pose !== null;
}

/** A texture frame's collision mask and where it sits in the untrimmed frame, as both adapters cache it. */
export interface FrameMask {
    readonly mask: Mask;
    /** Offset of the mask's top-left in the untrimmed frame (the frame's trim plus the mask's own trim). */
    readonly x: number;
    readonly y: number;
    /** Size of the untrimmed frame, as the engine lays out the sprite's quad. */
    readonly width: number;
    readonly height: number;
    /** Where the mask came from: a bound `.hitmask` atlas, the frame's pixels, or `setFrameMask`. */
    readonly source: 'atlas' | 'pixels' | 'custom';
}

/** Colours of `drawHitmask` in both adapters (engine colours 0xRRGGBB, alphas); null leaves a part out. */
export interface DrawStyle {
    /** Fill of the mask's pixels. @default 0xff00ff */
    color?: number | null;
    /** Fill alpha. @default 0.5 */
    alpha?: number;
    /** Colour of the mask's outline, along the pixel edges between set and clear pixels. @default null */
    outline?: number | null;
    /** Colour of the placed mask's box outline. @default null */
    box?: number | null;
    /** Width of the outline and box lines, in world pixels. @default 1 */
    lineWidth?: number;
}

function checkCache(cache: unknown, name: string): asserts cache is TransformCache {
    if (!(cache instanceof TransformCache)) throw typeError(name, 'a TransformCache', cache);
}

/** @internal The cache named by an adapter's trailing options object (`{ cache }`), else the shared one. */
export function cacheOf(options: { readonly cache?: TransformCache } | undefined): TransformCache {
    if (options === undefined) return defaultTransformCache();
    checkObject('options', options);
    if (options.cache === undefined) return defaultTransformCache();
    checkCache(options.cache, 'options.cache');
    return options.cache;
}

/**
 * @internal Throws a RangeError unless (x, y) is a finite point: NaN would read as "not on the sprite" without a word.
 */
export function checkPoint(x: unknown, y: unknown): void {
    checkFinite('hitTest(): x', x);
    checkFinite('hitTest(): y', y);
}

/** @internal Whether world point (x, y) lies on a set pixel of the placed mask (the pixel holding the point). */
export function placedHas(p: PlacedSprite, x: number, y: number): boolean {
    return p.mask.get(Math.floor(x) - p.x, Math.floor(y) - p.y);
}

/**
 * @internal A pointer point brought back to world pixels, snapped to 1/1024 px: browsers report pointers at whole
 * pixels, a pixel's corner, and the round trip through the engine's inverse transform lands a hair to either side
 * of it (61.9999999 is pixel 61).
 */
export function snapPoint(v: number): number {
    return Math.round(v * 1024) / 1024;
}

/** @internal The first shared pixel of two placed masks (row-major in a's), in world pixels, or null. */
export function firstOverlap(a: PlacedSprite, b: PlacedSprite): Point | null {
    const p = a.mask.overlap(b.mask, b.x - a.x, b.y - a.y);
    if (p) {
        p.x += a.x;
        p.y += a.y;
    }
    return p;
}

/**
 * @internal Calls `run(x, y, length)` for each horizontal run of set pixels of `m`, row by row: what the debug drawings
 * fill.
 */
export function forEachRun(m: Mask, run: (x: number, y: number, length: number) => void): void {
    const w = m.width;
    for (let y = 0; y < m.height; y++) {
        for (let x = 0; x < w;) {
            if (!m.get(x, y)) {
                x++;
                continue;
            }
            const x0 = x;
            while (x < w && m.get(x, y)) x++;
            run(x0, y, x - x0);
        }
    }
}

/**
 * @internal Calls `line(x0, y0, x1, y1)` for each run of pixel edges with a set pixel on one side and a clear one (or
 * the outside) on the other: horizontal runs row by row, then vertical ones column by column. The outline of every
 * component and hole, on the pixel grid.
 */
export function forEachEdge(m: Mask, line: (x0: number, y0: number, x1: number, y1: number) => void): void {
    const w = m.width,
        h = m.height;
    // Horizontal edges: boundary y between pixel rows y − 1 and y, in runs where exactly one side is set.
    for (let y = 0; y <= h; y++) {
        for (let x = 0; x < w;) {
            if (m.get(x, y - 1) === m.get(x, y)) {
                x++;
                continue;
            }
            const x0 = x;
            while (x < w && m.get(x, y - 1) !== m.get(x, y)) x++;
            line(x0, y, x, y);
        }
    }
    for (let x = 0; x <= w; x++) {
        for (let y = 0; y < h;) {
            if (m.get(x - 1, y) === m.get(x, y)) {
                y++;
                continue;
            }
            const y0 = y;
            while (y < h && m.get(x - 1, y) !== m.get(x, y)) y++;
            line(x, y0, x, y);
        }
    }
}
