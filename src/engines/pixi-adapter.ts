// hitmask/pixi: pixel-exact collisions between PixiJS sprites (7.2+ and 8, told apart per object: pixi7.ts).
// PixiJS draws; the game asks overlaps(a, b).
// Masks come once per texture frame (pixi-texture.ts) and are posed with the sprite's current texture (an
// AnimatedSprite's current frame), anchor, pivot, origin, scale (negative = mirror), rotation and every parent
// container's transform, read fresh on each call. Only `import type` from pixi.js, so neither this module nor the
// core bundle ever loads PixiJS itself.
import type { Container, Graphics, Matrix, Sprite, Texture } from 'pixi.js';
import { must, outOfRange, typeError } from '../base/check.js';
import type { Point } from '../core/mask.js';
import type { TransformCache } from '../core/transform.js';
import {
    cacheOf,
    checkPoint,
    firstOverlap,
    forEachEdge,
    forEachRun,
    isPosed,
    placeSprite,
    placedHas,
    posedOverlap,
    snapPoint,
    type DrawStyle,
    type FrameMask,
    type PlacedSprite,
    type SpriteHitmask,
    type SpritePose
} from './sprite.js';
import { frameMask } from './pixi-texture.js';
import { draw7, globalTransform7, isGraphics7, isNode7, type Affine } from './pixi7.js';
import type { EngineTypes } from './adapter.js';

/** The trailing options of hitmask/pixi's functions. */
export interface HitmaskOptions {
    /** Rasterised rotations and scales. @default defaultTransformCache() */
    cache?: TransformCache;
    /**
     * The container whose coordinates are collision pixels, e.g. a zoomed or scrolled camera container holding the
     * game world (so a 2× zoom does not double every mask). @default null: global (stage) coordinates
     */
    space?: Container | null;
}

/** What {@link drawHitmask} takes: the colours and the options of the other functions. */
export interface HitmaskStyle extends DrawStyle, HitmaskOptions {}

/** What {@link pixelHitArea} returns: a `hitArea` PixiJS asks `contains(x, y)` in the sprite's local coordinates. */
export interface PixelHitArea {
    contains(x: number, y: number): boolean;
}

/** hitmask/pixi's types in the shared adapter type: `HitmaskAdapter<PixiTypes>`. */
export interface PixiTypes extends EngineTypes {
    object: Sprite;
    sprite: Sprite;
    frame: Texture;
    graphics: Graphics;
    /** Textures by name, e.g. a Spritesheet's `textures`. */
    textures: Readonly<Record<string, Texture>> | ReadonlyMap<string, Texture>;
    host: [];
    options: HitmaskOptions;
    hitArea: PixelHitArea;
}

// Scales are snapped to multiples of 2^-36 (see poseInto).
const SNAP = 2 ** 36;

// Reused PixiJS 8 Matrix objects (got from getGlobalTransform, so that no PixiJS code is imported), PixiJS 7
// products and poses.
let scratch: Matrix | null = null;
let spaceScratch: Matrix | null = null;
const scratch7: Affine = { a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0 };
const spaceScratch7: Affine = { ...scratch7 };
const poseA: SpritePose = { x: 0, y: 0, originX: 0, originY: 0, scaleX: 1, scaleY: 1, angle: 0 };
const poseB: SpritePose = { ...poseA };

// Whether `o` is a destroyed PixiJS object: both versions flag it (`destroyed`) and take its texture and anchor
// away, so without this check it would fail the Sprite check below with a message naming a Sprite.
function destroyed(o: unknown): boolean {
    return typeof o === 'object' && o !== null && !isPosed(o) && (o as Sprite).destroyed === true;
}

function checkSprite(sprite: unknown, name: string): Sprite {
    const s = sprite as Sprite | null;
    if (destroyed(s)) {
        throw new Error(
            `${name}: the sprite was destroyed: it has no pixels to test; drop it from what you test ` +
                '(overlaps() answers false for it).'
        );
    }
    if (
        s === null ||
        typeof s !== 'object' ||
        typeof s.texture !== 'object' ||
        s.texture === null ||
        typeof s.anchor !== 'object'
    ) {
        throw typeError(name, 'a PixiJS Sprite (with a texture and an anchor)', sprite);
    }
    return s;
}

// The collision space named by the options: null for global coordinates.
function spaceOf(options: HitmaskOptions | undefined): Container | null {
    const space = options?.space ?? null;
    if (space !== null && (typeof space !== 'object' || typeof space.worldTransform !== 'object')) {
        throw typeError('options.space', 'a PixiJS Container or null', space);
    }
    return space;
}

// The sprite's transform into collision space, computed fresh (worldTransform lags until the next render):
// getGlobalTransform on PixiJS 8, the product of the local transforms on PixiJS 7, else worldTransform.
function matrixOf(s: Sprite, space: Container | null): Affine {
    const m: Affine =
        typeof s.getGlobalTransform === 'function'
            ? (scratch = scratch ? s.getGlobalTransform(scratch) : s.getGlobalTransform())
            : isNode7(s)
              ? globalTransform7(s, scratch7)
              : s.worldTransform;
    if (!space) return m;
    const w: Affine =
        typeof space.getGlobalTransform === 'function'
            ? (spaceScratch = spaceScratch ? space.getGlobalTransform(spaceScratch) : space.getGlobalTransform())
            : isNode7(space)
              ? globalTransform7(space, spaceScratch7)
              : space.worldTransform;
    // inverse(W)·M, written out so that no PixiJS Matrix is needed.
    const det = w.a * w.d - w.b * w.c;
    if (det === 0) throw outOfRange('space container has a zero scale: collision coordinates are undefined.');
    const ia = w.d / det,
        ib = -w.b / det,
        ic = -w.c / det,
        id = w.a / det;
    const x = m.tx - w.tx,
        y = m.ty - w.ty;
    return {
        a: ia * m.a + ic * m.b,
        b: ib * m.a + id * m.b,
        c: ia * m.c + ic * m.d,
        d: ib * m.c + id * m.d,
        tx: ia * x + ic * y,
        ty: ib * x + id * y
    };
}

// The sprite's pose in collision space: local point p of the sprite (origin at the anchor point) lands at M·p, and
// frame pixel f of the mask is local f + maskOffset − anchor·orig. Written into `pose`.
function poseInto(s: Sprite, fm: FrameMask, space: Container | null, pose: SpritePose): SpritePose {
    const m = matrixOf(s, space);
    const { a, b, c, d } = m;
    // NaN or Infinity anywhere in the transform (the sprite's or a parent's) would surface as a bad pose.x.
    if (!Number.isFinite(a + b + c + d + m.tx + m.ty)) {
        const got = `a=${a}, b=${b}, c=${c}, d=${d}, tx=${m.tx}, ty=${m.ty}`;
        const why = ': a NaN or infinite position, scale or rotation on the sprite or a parent';
        throw outOfRange(must("sprite's transform", 'be finite', got, why));
    }
    // PixiJS builds a = cos·sx, b = sin·sx, c = −sin·sy, d = cos·sy; a flip (det < 0) goes on x, so that a
    // sprite mirrored with scale.x = −1 keeps its own angle.
    const det = a * d - b * c;
    let sx = Math.hypot(a, b),
        angle: number,
        sy: number;
    if (sx === 0) {
        sy = Math.hypot(c, d);
        angle = sy === 0 ? 0 : Math.atan2(-c, d);
    } else {
        if (det < 0) sx = -sx;
        angle = Math.atan2(b / sx, a / sx);
        sy = det / sx;
        // Columns must be perpendicular: masks cannot be skewed.
        if (Math.abs(a * c + b * d) > 1e-9 * Math.abs(sx) * (Math.abs(c) + Math.abs(d))) {
            const got = `a=${a}, b=${b}, c=${c}, d=${d}`;
            const why = ' (skew, or a rotated child of a non-uniformly scaled parent)';
            throw outOfRange(must("sprite's transform", 'have no skew', got, why));
        }
    }
    const anchor = s.anchor,
        orig = s.texture.orig;
    pose.x = m.tx;
    pose.y = m.ty;
    pose.originX = anchor.x * orig.width - fm.x;
    pose.originY = anchor.y * orig.height - fm.y;
    // hypot(cos·s, sin·s) is s only within an ulp or two: snapped to 2^-36 so that scale 1 stays exactly 1
    // (exact quarter turns, no rasterising) and the transform cache sees one key per scale, not several.
    pose.scaleX = Math.round(sx * SNAP) / SNAP;
    pose.scaleY = Math.round(sy * SNAP) / SNAP;
    pose.angle = angle;
    return pose;
}

/**
 * The sprite's frame mask and the pose it is drawn with in collision space: what `placeSprite` takes. Throws a
 * RangeError when the sprite's transform has skew (its own `skew`, or a rotated child of a non-uniformly scaled
 * parent): masks only rotate and scale. A posed mask (`{ mask, pose }`) is returned as it is.
 */
export function shapeOf(sprite: Sprite | SpriteHitmask, options?: HitmaskOptions): SpriteHitmask {
    const space = spaceOf(options);
    if (isPosed(sprite)) return sprite;
    const s = checkSprite(sprite, 'sprite');
    const fm = frameMask(s.texture);
    return {
        mask: fm.mask,
        pose: poseInto(s, fm, space, { x: 0, y: 0, originX: 0, originY: 0, scaleX: 1, scaleY: 1, angle: 0 })
    };
}

/**
 * The sprite's placed mask: the transformed mask (cached and shared: do not change it) and its integer top-left in
 * collision space. A posed mask (`{ mask, pose }`, already in collision space) is placed as it is.
 */
export function hitmaskFor(sprite: Sprite | SpriteHitmask, options?: HitmaskOptions): PlacedSprite {
    const cache = cacheOf(options),
        space = spaceOf(options);
    if (isPosed(sprite)) return placeSprite(sprite.mask, sprite.pose, cache);
    const s = checkSprite(sprite, 'sprite');
    const fm = frameMask(s.texture);
    return placeSprite(fm.mask, poseInto(s, fm, space, poseA), cache);
}

// The mask and pose of a sprite (written into `pose`) or a posed mask, for overlaps.
function posed(o: Sprite | SpriteHitmask, name: string, space: Container | null, pose: SpritePose): SpriteHitmask {
    if (isPosed(o)) return o;
    const s = checkSprite(o, name),
        fm = frameMask(s.texture);
    return { mask: fm.mask, pose: poseInto(s, fm, space, pose) };
}

/**
 * Whether the two sprites' pixels overlap in collision space: box test first, then the masks (rasterised only when
 * boxes meet). Posed masks (`{ mask, pose }`, in collision space) are tested as they are. False when either
 * sprite was destroyed.
 */
export function overlaps(a: Sprite | SpriteHitmask, b: Sprite | SpriteHitmask, options?: HitmaskOptions): boolean {
    const cache = cacheOf(options),
        space = spaceOf(options);
    // A destroyed sprite touches nothing (as in hitmask/phaser: a list may still hold it this frame).
    if (destroyed(a) || destroyed(b)) return false;
    const sa = posed(a, 'a', space, poseA),
        sb = posed(b, 'b', space, poseB);
    return posedOverlap(sa.mask, sa.pose, sb.mask, sb.pose, cache);
}

/**
 * The first pixel the two sprites share (row-major in a's placed mask) in collision space, or null (also when either
 * was destroyed).
 */
export function overlap(a: Sprite | SpriteHitmask, b: Sprite | SpriteHitmask, options?: HitmaskOptions): Point | null {
    if (!overlaps(a, b, options)) return null;
    return firstOverlap(hitmaskFor(a, options), hitmaskFor(b, options));
}

/**
 * Pointer picking: whether the point (x, y) in collision space (global coordinates without a `space`, as a
 * pointer event's `global`) is on a set pixel of the sprite's placed mask (the pixel holding the point). False for
 * a destroyed sprite.
 */
export function hitTest(sprite: Sprite | SpriteHitmask, x: number, y: number, options?: HitmaskOptions): boolean {
    checkPoint(x, y);
    if (destroyed(sprite)) {
        cacheOf(options);
        spaceOf(options);
        return false;
    }
    return placedHas(hitmaskFor(sprite, options), x, y);
}

/**
 * A `hitArea` for `sprite` (`sprite.hitArea = pixelHitArea(sprite)`, with `eventMode` 'static'): pointer events
 * fire only over its solid pixels, as {@link hitTest} sees them. PixiJS asks `contains(x, y)` in the sprite's local
 * coordinates; the sprite's transform takes the point back to collision space.
 */
export function pixelHitArea(sprite: Sprite, options?: HitmaskOptions): PixelHitArea {
    const s = checkSprite(sprite, 'sprite');
    const opts: HitmaskOptions = { cache: cacheOf(options), space: spaceOf(options) };
    return {
        contains: (x: number, y: number) => {
            const m = matrixOf(s, opts.space ?? null);
            return hitTest(s, snapPoint(m.a * x + m.c * y + m.tx), snapPoint(m.b * x + m.d * y + m.ty), opts);
        }
    };
}

/**
 * Draws the sprite's placed mask into `graphics` in collision-space coordinates (so `graphics` should sit in the
 * same space: a child of the stage, or of `space`, with no transform of its own): its pixels as horizontal runs, its
 * outline along the pixel edges between set and clear pixels (every component and hole), its box. Adds to what
 * `graphics` holds. Returns the placed mask.
 */
export function drawHitmask(
    graphics: Graphics,
    sprite: Sprite | SpriteHitmask,
    style: HitmaskStyle = {}
): PlacedSprite {
    const v7 = graphics !== null && typeof graphics === 'object' && isGraphics7(graphics);
    if (graphics === null || typeof graphics !== 'object' || (typeof graphics.rect !== 'function' && !v7)) {
        throw typeError('graphics', 'a PixiJS Graphics', graphics);
    }
    const { color = 0xff00ff, alpha = 0.5, outline = null, box = null, lineWidth: width = 1 } = style;
    const placed = hitmaskFor(sprite, style);
    const { mask, x: ox, y: oy } = placed;
    if (v7) {
        const some = mask.count() > 0;
        draw7(graphics, {
            color: some ? color : null,
            alpha,
            outline: some ? outline : null,
            box,
            width,
            runs: rect => forEachRun(mask, (x, y, n) => rect(ox + x, oy + y, n)),
            edges: line => forEachEdge(mask, (x0, y0, x1, y1) => line(ox + x0, oy + y0, ox + x1, oy + y1)),
            bounds: { x: ox, y: oy, width: mask.width, height: mask.height }
        });
        return placed;
    }
    if (color !== null && mask.count() > 0) {
        forEachRun(mask, (x, y, n) => graphics.rect(ox + x, oy + y, n, 1));
        graphics.fill({ color, alpha });
    }
    if (outline !== null && mask.count() > 0) {
        forEachEdge(mask, (x0, y0, x1, y1) => graphics.moveTo(ox + x0, oy + y0).lineTo(ox + x1, oy + y1));
        graphics.stroke({ width, color: outline });
    }
    if (box !== null) {
        graphics.rect(ox, oy, mask.width, mask.height);
        graphics.stroke({ width, color: box });
    }
    return placed;
}
