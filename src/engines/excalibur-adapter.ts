// hitmask/excalibur: pixel-exact collisions for Excalibur actors whose graphic is a Sprite (or an Animation of
// Sprites). Masks come once per image region (excalibur-frames.ts) and are placed exactly where Excalibur's
// GraphicsSystem draws the actor: each ancestor's translate, scale and rotate, the graphics component's anchor, offset
// and flips, then the graphic's own scale, rotation about its origin and flips (an Animation's, then its current
// frame's), and the sprite's source view stretched to its destination size. Type-only Excalibur import.
import type { Actor, ExcaliburGraphicsContext, Graphic, Sprite, Color } from 'excalibur';
import { typeError, wrongType, describe } from '../base/check.js';
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
    type PlacedSprite,
    type SpriteHitmask,
    type SpritePose
} from './sprite.js';
import { identity, poseFromMatrix, rotateBy, scaleBy, translateBy, type Matrix2D } from './affine-pose.js';
import { frameMask, isSprite } from './excalibur-frames.js';
import type { EngineTypes } from './adapter.js';

/** The trailing options of hitmask/excalibur's functions. */
export interface HitmaskOptions {
    /** Rasterised rotations and scales. @default defaultTransformCache() */
    cache?: TransformCache;
}

/** What {@link drawHitmask} takes: the colours and the options of the other functions. */
export interface HitmaskStyle extends DrawStyle, HitmaskOptions {}

/** A world point test: what {@link pixelHitArea} returns. */
export type PixelHitArea = (point: { x: number; y: number }) => boolean;

/** hitmask/excalibur's types in the shared adapter type: `HitmaskAdapter<ExcaliburTypes>`. */
export interface ExcaliburTypes extends EngineTypes {
    object: Actor;
    sprite: Actor;
    frame: Sprite;
    graphics: ExcaliburGraphicsContext;
    /** Sprites by name. */
    textures: Readonly<Record<string, Sprite>> | ReadonlyMap<string, Sprite>;
    host: [];
    options: HitmaskOptions;
    hitArea: PixelHitArea;
}

const scratch: Matrix2D = identity();
const chain: Actor[] = [];
const poseA: SpritePose = { x: 0, y: 0, originX: 0, originY: 0, scaleX: 1, scaleY: 1, angle: 0 };
const poseB: SpritePose = { ...poseA };

// An Animation: frames and the current one.
interface AnimationLike extends Graphic {
    currentFrame: { graphic?: Graphic } | null;
    frames: unknown[];
}

function isAnimation(g: unknown): g is AnimationLike {
    const a = g as Partial<AnimationLike> | null;
    return typeof a === 'object' && a !== null && Array.isArray(a.frames) && 'currentFrame' in a;
}

// Whether `o` is a killed actor: it is out of the scene and touches nothing.
function destroyed(o: unknown): boolean {
    const a = o as Partial<Actor> | null;
    return typeof a === 'object' && a !== null && !isPosed(a) && typeof a.isKilled === 'function' && a.isKilled();
}

function checkActor(actor: unknown, name: string): Actor {
    if (destroyed(actor)) {
        throw new Error(
            `${name}: the actor was destroyed (killed): it has no pixels to test; drop it from what you test ` +
                '(overlaps() answers false for it).'
        );
    }
    const a = actor as Partial<Actor> | null;
    if (
        typeof a !== 'object' ||
        a === null ||
        typeof a.graphics !== 'object' ||
        a.graphics === null ||
        typeof a.transform !== 'object'
    ) {
        throw typeError(name, 'an Excalibur Actor (with graphics and a transform)', actor);
    }
    return a as Actor;
}

// m ← m·G: the graphic's own transform (Graphic._preDraw after its translate): |scale|, rotation about the origin
// with the scale's signs, then the flips inside its box.
function applyGraphic(m: Matrix2D, g: Graphic, flipH: boolean, flipV: boolean): void {
    const s = g.scale;
    scaleBy(m, Math.abs(s.x), Math.abs(s.y));
    const ox = g.origin ? g.origin.x : g.width / 2,
        oy = g.origin ? g.origin.y : g.height / 2;
    translateBy(m, ox, oy);
    rotateBy(m, g.rotation);
    scaleBy(m, s.x > 0 ? 1 : -1, s.y > 0 ? 1 : -1);
    translateBy(m, -ox, -oy);
    if (flipH) {
        translateBy(m, g.width / s.x, 0);
        scaleBy(m, -1, 1);
    }
    if (flipV) {
        translateBy(m, 0, g.height / s.y);
        scaleBy(m, 1, -1);
    }
}

// The sprite the actor shows now and the matrix from its source view's pixels to world pixels (into `m`).
function spriteAndMatrix(actor: Actor, m: Matrix2D): Sprite {
    m.a = m.d = 1;
    m.b = m.c = m.tx = m.ty = 0;
    chain.length = 0;
    for (let e: unknown = actor; e; e = (e as Actor).parent) {
        if (typeof (e as Partial<Actor>).transform !== 'object')
            throw wrongType(`hitmask/excalibur places actors whose parents are actors, got a parent ${describe(e)}.`);
        chain.push(e as Actor);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
        const t = chain[i].transform.get();
        translateBy(m, t.pos.x, t.pos.y);
        scaleBy(m, t.scale.x, t.scale.y);
        rotateBy(m, t.rotation);
    }
    chain.length = 0;
    const gc = actor.graphics;
    let g: Graphic | undefined = gc.current;
    if (!g) throw wrongType('hitmask/excalibur: the actor shows no graphic; give it a Sprite or an Animation.');
    const options = gc.currentOptions ?? {};
    const anchor = options.anchor ?? gc.anchor,
        offset = options.offset ?? gc.offset;
    const gs = actor.transform.globalScale;
    const sx = g.scale.x * gs.x,
        sy = g.scale.y * gs.y;
    translateBy(m, -g.width * anchor.x + offset.x * sx, -g.height * anchor.y + offset.y * sy);
    // The component's flips toggle the graphic's own while it draws.
    let flipH = gc.flipHorizontal ? !g.flipHorizontal : g.flipHorizontal,
        flipV = gc.flipVertical ? !g.flipVertical : g.flipVertical;
    for (let depth = 0; !isSprite(g); depth++) {
        if (!isAnimation(g) || depth > 8)
            throw wrongType(
                `hitmask/excalibur places a Sprite or an Animation of Sprites, got graphic ${describe(g)}; ` +
                    'show a Sprite (setFrameMask gives one a mask of your own).'
            );
        applyGraphic(m, g, flipH, flipV);
        const next: Graphic | undefined = g.currentFrame?.graphic;
        if (!next) throw wrongType('hitmask/excalibur: the animation has no current frame to place.');
        g = next;
        flipH = g.flipHorizontal;
        flipV = g.flipVertical;
    }
    applyGraphic(m, g, flipH, flipV);
    const v = g.sourceView,
        d = g.destSize;
    if (v.width > 0 && v.height > 0) scaleBy(m, d.width / v.width, d.height / v.height);
    return g;
}

function posed(o: Actor | SpriteHitmask, name: string, pose: SpritePose): SpriteHitmask {
    if (isPosed(o)) return o;
    const a = checkActor(o, name);
    const sprite = spriteAndMatrix(a, scratch);
    const fm = frameMask(sprite);
    return { mask: fm.mask, pose: poseFromMatrix(scratch, fm, pose) };
}

/**
 * The actor's current sprite's mask and the pose Excalibur draws it with in world pixels: what `placeSprite` takes. A
 * posed mask (`{ mask, pose }`) is returned as it is. Throws a RangeError when the drawn transform is skewed (a
 * non-uniform scale with a rotation after it: Excalibur draws scale, then rotation, per actor).
 */
export function shapeOf(actor: Actor | SpriteHitmask, options?: HitmaskOptions): SpriteHitmask {
    if (options !== undefined) cacheOf(options);
    if (isPosed(actor)) return actor;
    return posed(actor, 'actor', { x: 0, y: 0, originX: 0, originY: 0, scaleX: 1, scaleY: 1, angle: 0 });
}

/** The actor's placed mask (cached and shared: do not change it) and its integer top-left in world pixels. */
export function hitmaskFor(actor: Actor | SpriteHitmask, options?: HitmaskOptions): PlacedSprite {
    const cache = cacheOf(options);
    const s = posed(actor, 'actor', poseA);
    return placeSprite(s.mask, s.pose, cache);
}

/**
 * Do the visible pixels of `a` and `b` touch, as Excalibur draws them now? Box test first; posed masks count as they
 * are; false when either actor was killed.
 */
export function overlaps(a: Actor | SpriteHitmask, b: Actor | SpriteHitmask, options?: HitmaskOptions): boolean {
    const cache = cacheOf(options);
    if (destroyed(a) || destroyed(b)) return false;
    const sa = posed(a, 'a', poseA),
        sb = posed(b, 'b', poseB);
    return posedOverlap(sa.mask, sa.pose, sb.mask, sb.pose, cache);
}

/** The first pixel `a` and `b` share (row-major in a's placed mask) in world pixels, or null. */
export function overlap(a: Actor | SpriteHitmask, b: Actor | SpriteHitmask, options?: HitmaskOptions): Point | null {
    if (!overlaps(a, b, options)) return null;
    return firstOverlap(hitmaskFor(a, options), hitmaskFor(b, options));
}

/** Is the world point (x, y) (a pointer event's `worldPos`) on a solid pixel of the actor? False when killed. */
export function hitTest(actor: Actor | SpriteHitmask, x: number, y: number, options?: HitmaskOptions): boolean {
    checkPoint(x, y);
    if (destroyed(actor)) {
        cacheOf(options);
        return false;
    }
    return placedHas(hitmaskFor(actor, options), x, y);
}

/**
 * A world point test over the actor's solid pixels, as {@link hitTest} sees them: `actor.collider.get().contains =
 * pixelHitArea(actor)` makes the pointer system (which asks the collider with `useColliderShape`, the default) fire
 * `pointerdown`, `pointerenter`, … only there.
 */
export function pixelHitArea(actor: Actor, options?: HitmaskOptions): PixelHitArea {
    const a = checkActor(actor, 'actor');
    const opts: HitmaskOptions = { cache: cacheOf(options) };
    return p => hitTest(a, p.x, p.y, opts);
}

// An Excalibur colour from 0xRRGGBB: the renderers read r, g, b (0..255) and a (0..1); the canvas one its string.
function colorOf(rgb: number, a: number): Color {
    const r = (rgb >> 16) & 255,
        g = (rgb >> 8) & 255,
        b = rgb & 255;
    return { r, g, b, a, toString: () => `rgba(${r}, ${g}, ${b}, ${a})` } as unknown as Color;
}

/**
 * Draws the actor's placed mask into an Excalibur graphics context that holds world coordinates (an actor's
 * `posttransformdraw` event, where the camera applies and the actor's transform is popped): its pixels as horizontal
 * runs, its outline along the pixel edges between set and clear pixels, its box. Returns the placed mask.
 */
export function drawHitmask(
    ctx: ExcaliburGraphicsContext,
    actor: Actor | SpriteHitmask,
    style: HitmaskStyle = {}
): PlacedSprite {
    if (
        typeof ctx !== 'object' ||
        ctx === null ||
        typeof ctx.drawRectangle !== 'function' ||
        typeof ctx.debug?.drawLine !== 'function' ||
        typeof ctx.getTransform !== 'function'
    )
        throw typeError('ctx', 'an ExcaliburGraphicsContext', ctx);
    const { color = 0xff00ff, alpha = 0.5, outline = null, box = null, lineWidth = 1 } = style;
    const placed = hitmaskFor(actor, style);
    const { mask: m, x: ox, y: oy } = placed;
    // The WebGL renderers do vector arithmetic on the points (add, sub) when they flush, later: each point is a new
    // Excalibur Vector, cloned from one the context hands out (the adapter imports Excalibur for types only).
    const origin = ctx.getTransform().getPosition();
    const at = (x: number, y: number) => {
        const v = origin.clone();
        v.setTo(x, y);
        return v;
    };
    if (color !== null) {
        const c = colorOf(color, alpha);
        forEachRun(m, (x, y, n) => ctx.drawRectangle(at(ox + x, oy + y), n, 1, c));
    }
    // Edges through the context's debug lines: the WebGL renderer fades a drawLine 1 pixel thick out to nothing.
    const edge = (x0: number, y0: number, x1: number, y1: number, c: Color) =>
        ctx.debug.drawLine(at(ox + x0, oy + y0), at(ox + x1, oy + y1), { color: c, lineWidth });
    if (outline !== null) {
        const c = colorOf(outline, 1);
        forEachEdge(m, (x0, y0, x1, y1) => edge(x0, y0, x1, y1, c));
    }
    if (box !== null) {
        const c = colorOf(box, 1);
        edge(0, 0, m.width, 0, c);
        edge(m.width, 0, m.width, m.height, c);
        edge(0, m.height, m.width, m.height, c);
        edge(0, 0, 0, m.height, c);
    }
    return placed;
}
