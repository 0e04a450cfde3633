// hitmask/kaplay: pixel-exact collisions for Kaplay game objects with sprite(). Masks come once per sprite frame
// (kaplay-frames.ts) and are placed exactly where Kaplay draws the object: current frame (an animation's too),
// anchor, flipX/flipY, the sprite's width/height, scale, angle and every parent's transform, read fresh on each call.
// Kaplay composes a node's transform as translate(pos), scale, then its rotation applied to everything before it
// (Mat4.rotate multiplies on the left), so the drawn matrix never skews. Type-only Kaplay import.
import type { Anchor, KAPLAYCtx } from 'kaplay';
import { typeError, wrongType } from '../base/check.js';
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
    type DrawStyle,
    type FrameMask,
    type PlacedSprite,
    type SpriteHitmask,
    type SpritePose
} from './sprite.js';
import { identity, poseFromMatrix, scaleBy, translateBy, type Matrix2D } from './affine-pose.js';
import { checkSpriteName, frameMask, spriteData, type KaplayFrame } from './kaplay-frames.js';
import type { EngineTypes } from './adapter.js';

/** The trailing options of hitmask/kaplay's functions. */
export interface HitmaskOptions {
    /** Rasterised rotations and scales. @default defaultTransformCache() */
    cache?: TransformCache;
}

/** What {@link drawHitmask} takes: the colours and the options of the other functions. */
export interface HitmaskStyle extends DrawStyle, HitmaskOptions {}

/** A point with x and y: Kaplay's `Vec2`, or a plain object. */
export interface XY {
    x: number;
    y: number;
}

/** What the adapter reads of a node on the way to the root: its transform and its parent. */
export interface KaplayNode {
    pos?: XY;
    scale?: XY;
    /** Degrees, clockwise on screen. */
    angle?: number;
    parent: KaplayNode | null;
}

/** What the adapter reads of a game object with `sprite()` (and, if it has them, pos, scale, rotate, anchor). */
export interface KaplaySpriteLike extends KaplayNode {
    /** The sprite's name, as loadSprite named it. */
    sprite: string;
    frame: number;
    width: number;
    height: number;
    flipX: boolean;
    flipY: boolean;
    quad?: { x: number; y: number; w: number; h: number };
    anchor?: Anchor | XY;
    exists?: () => boolean;
}

/** What `drawHitmask` draws with: the Kaplay context (call it in an `onDraw`, where the camera applies). */
export type KaplayDraw = Pick<KAPLAYCtx, 'drawRect' | 'drawLine' | 'vec2' | 'rgb'>;

/** What {@link pixelHitArea} returns: a world point test to assign to the object's `hasPoint` (area()'s). */
export type PixelHitArea = (point: XY) => boolean;

/** hitmask/kaplay's types in the shared adapter type: `HitmaskAdapter<KaplayTypes>`. */
export interface KaplayTypes extends EngineTypes {
    object: KaplaySpriteLike;
    sprite: KaplaySpriteLike;
    frame: KaplayFrame;
    graphics: KaplayDraw;
    /** Sprite names: a name or an array of them. */
    textures: string | readonly string[];
    host: [];
    options: HitmaskOptions;
    hitArea: PixelHitArea;
}

// Kaplay's anchor names as offsets in half sizes (its anchorPt).
const ANCHORS: Record<Anchor, [number, number]> = {
    topleft: [-1, -1],
    top: [0, -1],
    topright: [1, -1],
    left: [-1, 0],
    center: [0, 0],
    right: [1, 0],
    botleft: [-1, 1],
    bot: [0, 1],
    botright: [1, 1]
};

const scratch: Matrix2D = identity();
const nodes: KaplayNode[] = [];
const poseA: SpritePose = { x: 0, y: 0, originX: 0, originY: 0, scaleX: 1, scaleY: 1, angle: 0 };
const poseB: SpritePose = { ...poseA };

// Whether `o` is a game object that left the scene (destroyed, or never added): it has no place to be drawn.
function destroyed(o: unknown): boolean {
    const g = o as Partial<KaplaySpriteLike> | null;
    return typeof g === 'object' && g !== null && !isPosed(g) && typeof g.exists === 'function' && !g.exists();
}

function checkSprite(obj: unknown, name: string): KaplaySpriteLike {
    if (destroyed(obj)) {
        throw new Error(
            `${name}: the game object was destroyed (or never added): it has no pixels to test; drop it from what ` +
                'you test (overlaps() answers false for it).'
        );
    }
    const s = obj as Partial<KaplaySpriteLike> | null;
    if (typeof s !== 'object' || s === null || typeof s.frame !== 'number' || typeof s.flipX !== 'boolean')
        throw typeError(name, 'a Kaplay game object with sprite()', obj);
    checkSpriteName(s.sprite);
    return s as KaplaySpriteLike;
}

// m ← R(degrees)·m on the linear part, the translation kept: Kaplay's Mat4.rotate.
function rotateLeft(m: Matrix2D, degrees: number): void {
    const r = (degrees * Math.PI) / 180,
        cos = Math.cos(r),
        sin = Math.sin(r);
    const { a, b, c, d } = m;
    m.a = cos * a - sin * b;
    m.b = sin * a + cos * b;
    m.c = cos * c - sin * d;
    m.d = sin * c + cos * d;
}

// The matrix from the current frame's texels to world pixels, as Kaplay draws the object (written into `m`).
function matrixOf(s: KaplaySpriteLike, frame: KaplayFrame, m: Matrix2D): Matrix2D {
    m.a = m.d = 1;
    m.b = m.c = m.tx = m.ty = 0;
    nodes.length = 0;
    for (let n: KaplayNode | null = s; n; n = n.parent) nodes.push(n);
    for (let i = nodes.length - 1; i >= 0; i--) {
        const n = nodes[i];
        if (n.pos) translateBy(m, n.pos.x, n.pos.y);
        if (n.scale) scaleBy(m, n.scale.x, n.scale.y);
        if (n.angle) rotateLeft(m, n.angle);
    }
    nodes.length = 0;
    const q = s.quad;
    if (q && (q.x !== 0 || q.y !== 0 || q.w !== 1 || q.h !== 1)) {
        throw wrongType(
            `hitmask/kaplay places whole frames; the object's sprite quad is ${q.x}, ${q.y}, ${q.w}, ${q.h}, ` +
                'expected 0, 0, 1, 1 (setFrameMask gives a frame a mask of your own).'
        );
    }
    const { data, frame: index } = frame;
    if (data.slice9) throw wrongType('hitmask/kaplay cannot place a nine-slice sprite; give it setFrameMask.');
    const fq = data.frames[index];
    const w = data.tex.width * fq.w,
        h = data.tex.height * fq.h;
    // drawTexture stretches the frame to the object's width and height, then anchors the quad.
    if (w > 0 && h > 0) scaleBy(m, s.width / w, s.height / h);
    const anchor = s.anchor ?? 'topleft';
    const [ax, ay] = typeof anchor === 'string' ? (ANCHORS[anchor] ?? [-1, -1]) : [anchor.x, anchor.y];
    translateBy(m, (-(ax + 1) * w) / 2, (-(ay + 1) * h) / 2);
    // Flips mirror the texture inside the quad.
    if (s.flipX) {
        translateBy(m, w, 0);
        scaleBy(m, -1, 1);
    }
    if (s.flipY) {
        translateBy(m, 0, h);
        scaleBy(m, 1, -1);
    }
    return m;
}

// The object's current frame: its sprite's loaded data and frame index.
function frameOf(s: KaplaySpriteLike): KaplayFrame {
    return { data: spriteData(s.sprite), frame: s.frame };
}

function posed(o: KaplaySpriteLike | SpriteHitmask, name: string, pose: SpritePose): SpriteHitmask {
    if (isPosed(o)) return o;
    const s = checkSprite(o, name);
    const f = frameOf(s);
    const fm: FrameMask = frameMask(f);
    return { mask: fm.mask, pose: poseFromMatrix(matrixOf(s, f, scratch), fm, pose) };
}

/**
 * The object's frame mask and the pose Kaplay draws it with in world pixels: what `placeSprite` takes. A posed mask
 * (`{ mask, pose }`) is returned as it is. Throws a RangeError when a parent's non-uniform scale skews it.
 */
export function shapeOf(obj: KaplaySpriteLike | SpriteHitmask, options?: HitmaskOptions): SpriteHitmask {
    if (options !== undefined) cacheOf(options);
    if (isPosed(obj)) return obj;
    return posed(obj, 'obj', { x: 0, y: 0, originX: 0, originY: 0, scaleX: 1, scaleY: 1, angle: 0 });
}

/** The object's placed mask (cached and shared: do not change it) and its integer top-left in world pixels. */
export function hitmaskFor(obj: KaplaySpriteLike | SpriteHitmask, options?: HitmaskOptions): PlacedSprite {
    const cache = cacheOf(options);
    const s = posed(obj, 'obj', poseA);
    return placeSprite(s.mask, s.pose, cache);
}

/**
 * Do the visible pixels of `a` and `b` touch, as Kaplay draws them now? Box test first; posed masks (`{ mask, pose }`,
 * in world pixels) count as they are; false when either was destroyed.
 */
export function overlaps(
    a: KaplaySpriteLike | SpriteHitmask,
    b: KaplaySpriteLike | SpriteHitmask,
    options?: HitmaskOptions
): boolean {
    const cache = cacheOf(options);
    if (destroyed(a) || destroyed(b)) return false;
    const sa = posed(a, 'a', poseA),
        sb = posed(b, 'b', poseB);
    return posedOverlap(sa.mask, sa.pose, sb.mask, sb.pose, cache);
}

/** The first pixel `a` and `b` share (row-major in a's placed mask) in world pixels, or null. */
export function overlap(
    a: KaplaySpriteLike | SpriteHitmask,
    b: KaplaySpriteLike | SpriteHitmask,
    options?: HitmaskOptions
): Point | null {
    if (!overlaps(a, b, options)) return null;
    return firstOverlap(hitmaskFor(a, options), hitmaskFor(b, options));
}

/**
 * Is the world point (x, y) (`toWorld(mousePos())`) on a solid pixel of the object's placed mask? False for a
 * destroyed object.
 */
export function hitTest(
    obj: KaplaySpriteLike | SpriteHitmask,
    x: number,
    y: number,
    options?: HitmaskOptions
): boolean {
    checkPoint(x, y);
    if (destroyed(obj)) {
        cacheOf(options);
        return false;
    }
    return placedHas(hitmaskFor(obj, options), x, y);
}

/**
 * Pixel-exact picking: `obj.hasPoint = pixelHitArea(obj)` (after `area()`) makes `onClick`, `onHover`, `isHovering`
 * and `isClicked` answer only over the object's solid pixels, as {@link hitTest} sees them. Kaplay asks `hasPoint`
 * with the world point under the mouse.
 */
export function pixelHitArea(obj: KaplaySpriteLike, options?: HitmaskOptions): PixelHitArea {
    const s = checkSprite(obj, 'obj');
    const opts: HitmaskOptions = { cache: cacheOf(options) };
    return (p: XY) => hitTest(s, p.x, p.y, opts);
}

// Kaplay colours from 0xRRGGBB.
function rgbOf(k: KaplayDraw, color: number): ReturnType<KaplayDraw['rgb']> {
    return k.rgb((color >> 16) & 255, (color >> 8) & 255, color & 255);
}

/**
 * Draws the object's placed mask with the Kaplay context `k` in world pixels (call it in an `onDraw`): its pixels as
 * horizontal runs, its outline along the pixel edges between set and clear pixels, its box. Returns the placed mask.
 */
export function drawHitmask(
    k: KaplayDraw,
    obj: KaplaySpriteLike | SpriteHitmask,
    style: HitmaskStyle = {}
): PlacedSprite {
    if (typeof k !== 'object' || k === null || typeof k.drawRect !== 'function' || typeof k.drawLine !== 'function')
        throw typeError('k', 'the Kaplay context (what kaplay() returns)', k);
    const { color = 0xff00ff, alpha = 0.5, outline = null, box = null, lineWidth = 1 } = style;
    const placed = hitmaskFor(obj, style);
    const { mask: m, x: ox, y: oy } = placed;
    if (color !== null) {
        const c = rgbOf(k, color);
        forEachRun(m, (x, y, n) =>
            k.drawRect({ pos: k.vec2(ox + x, oy + y), width: n, height: 1, color: c, opacity: alpha })
        );
    }
    if (outline !== null) {
        const c = rgbOf(k, outline);
        forEachEdge(m, (x0, y0, x1, y1) =>
            k.drawLine({ p1: k.vec2(ox + x0, oy + y0), p2: k.vec2(ox + x1, oy + y1), width: lineWidth, color: c })
        );
    }
    if (box !== null) {
        k.drawRect({
            pos: k.vec2(ox, oy),
            width: m.width,
            height: m.height,
            fill: false,
            outline: { width: lineWidth, color: rgbOf(k, box) }
        });
    }
    return placed;
}
