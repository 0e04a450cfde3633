// hitmask/phaser: pixel-perfect collisions for Phaser 3 and 4 sprites. Masks come once per texture frame (from a
// `.hitmask` atlas or the frame's pixels) and are placed exactly where Phaser draws the sprite: current frame,
// trim, display origin, flipX/flipY, scale, rotation and parent containers. Phaser is imported for types
// only; the loader takes the Phaser namespace as an argument, so this module never pulls Phaser in.
import type * as Phaser from 'phaser';
import { describe, checkFinite, checkSize, outOfRange, typeError, wrongType } from '../base/check.js';
import { deprecated } from '../base/deprecate.js';
import { Mask, type Point } from '../core/mask.js';
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
import { frameMask } from './phaser-frames.js';
import type { EngineTypes } from './adapter.js';

/** The trailing options of hitmask/phaser's functions. */
export interface HitmaskOptions {
    /** Rasterised rotations and scales. @default defaultTransformCache() */
    cache?: TransformCache;
}

/** What the adapter reads of a textured game object (a Sprite, Image, or anything with these members). */
export type PhaserSpriteLike = Pick<
    Phaser.GameObjects.Sprite,
    'frame' | 'x' | 'y' | 'displayOriginX' | 'displayOriginY' | 'scaleX' | 'scaleY' | 'rotation' | 'flipX' | 'flipY'
> & {
    parentContainer?: Phaser.GameObjects.Container | null;
    getWorldTransformMatrix?: Phaser.GameObjects.Components.Transform['getWorldTransformMatrix'];
};

/** What Arcade Physics passes to a process callback: a game object, a body, or a tile. */
export type ArcadeObject =
    | Phaser.Types.Physics.Arcade.GameObjectWithBody
    | Phaser.Physics.Arcade.Body
    | Phaser.Physics.Arcade.StaticBody
    | Phaser.Tilemaps.Tile
    | Phaser.GameObjects.GameObject;

/** hitmask/phaser's types in the shared adapter type: `HitmaskAdapter<PhaserTypes>`. */
export interface PhaserTypes extends EngineTypes {
    object: ArcadeObject | PhaserSpriteLike;
    sprite: PhaserSpriteLike;
    frame: Phaser.Textures.Frame;
    graphics: Phaser.GameObjects.Graphics;
    /** Texture keys: a key or an array of them. */
    textures: string | readonly string[];
    /** The game whose textures the keys name. */
    host: [game: Phaser.Game];
    options: HitmaskOptions;
    hitArea: PixelHitArea;
}

// Filled masks of bodies' and tiles' rectangles, by size.
const filled = new Map<string, Mask>();

function isSpriteLike(o: unknown): o is PhaserSpriteLike {
    const s = o as Partial<PhaserSpriteLike> | null;
    return (
        typeof s === 'object' &&
        s !== null &&
        typeof s.frame === 'object' &&
        s.frame !== null &&
        typeof s.displayOriginX === 'number'
    );
}

// Whether `o` (a game object, or an Arcade body's game object) was destroyed: Phaser 4 flags it, and
// Phaser 3 and 4 both take its scene away. A destroyed sprite keeps its frame and transform: without this
// check it would go on colliding where it last stood.
function destroyed(o: unknown): boolean {
    const g = o as { isDestroyed?: unknown; scene?: unknown; destroy?: unknown; gameObject?: unknown } | null;
    if (typeof g !== 'object' || g === null) return false;
    if (g.isDestroyed === true || (typeof g.destroy === 'function' && 'scene' in g && g.scene === undefined))
        return true;
    return typeof g.gameObject === 'object' && g.gameObject !== null && g.gameObject !== g && destroyed(g.gameObject);
}

// Rotation, signed scales and translation of a 2×3 matrix without skew; throws on skew.
function decompose(m: Phaser.GameObjects.Components.TransformMatrix): {
    x: number;
    y: number;
    angle: number;
    scaleX: number;
    scaleY: number;
} {
    const { a, b, c, d, tx, ty } = m;
    const sx = Math.hypot(a, b);
    if (sx === 0) return { x: tx, y: ty, angle: 0, scaleX: 0, scaleY: 0 };
    const angle = Math.atan2(b, a),
        cos = a / sx,
        sin = b / sx;
    const sy = (a * d - b * c) / sx;
    // Without skew, the second column is R·(0, sy). Phaser's matrices are Float32Arrays: 7 digits at best.
    if (Math.abs(c + sin * sy) + Math.abs(d - cos * sy) > 1e-5 * (Math.abs(sx) + Math.abs(sy))) {
        throw outOfRange(
            `the object's world transform is skewed (matrix ${a}, ${b}, ${c}, ${d}); only rotation, scale and flips can be placed.`
        );
    }
    return { x: tx, y: ty, angle, scaleX: sx, scaleY: sy };
}

// The pose Phaser draws `sprite` with, for its current frame's mask `fm`: Phaser's flipX/flipY mirror the
// frame inside its untrimmed box (the origin stays put), or about the origin for a frame with a custom pivot.
function poseOf(sprite: PhaserSpriteLike, fm: FrameMask): SpritePose {
    if (!isSpriteLike(sprite)) throw typeError('sprite', 'a textured Phaser game object (Sprite, Image)', sprite);
    const pivot = sprite.frame.customPivot;
    let fx = Boolean(sprite.flipX),
        fy = Boolean(sprite.flipY);
    for (const k of ['x', 'y', 'rotation', 'scaleX', 'scaleY'] as const) checkFinite(`sprite.${k}`, sprite[k]);
    let { x, y, rotation: angle, scaleX, scaleY } = sprite;
    if (sprite.parentContainer && sprite.getWorldTransformMatrix)
        ({ x, y, angle, scaleX, scaleY } = decompose(sprite.getWorldTransformMatrix()));
    // A custom pivot flips about the origin: Phaser just negates the scale.
    if (pivot && fx) {
        scaleX = -scaleX;
        fx = false;
    }
    if (pivot && fy) {
        scaleY = -scaleY;
        fy = false;
    }
    // The origin in the (possibly mirrored) mask's box: the in-box flip moves the trimmed mask to the other side of the
    // frame.
    const originX = sprite.displayOriginX - (fx ? fm.width - fm.x - fm.mask.width : fm.x);
    const originY = sprite.displayOriginY - (fy ? fm.height - fm.y - fm.mask.height : fm.y);
    return { x, y, originX, originY, scaleX, scaleY, angle, flipX: fx, flipY: fy };
}

// The rectangle [x, x + w) × [y, y + h) in world pixels: the pixels whose centres it holds (left and top
// edges inclusive, as a GPU fills), as a filled mask at a whole position.
function rect(x: number, y: number, w: number, h: number, what: string): SpriteHitmask {
    // Checked here, under the body's or tile's own names: a NaN size reached the Mask as "Mask width".
    checkFinite(`${what}.x`, x);
    checkFinite(`${what}.y`, y);
    checkFinite(`${what}.width`, w);
    checkFinite(`${what}.height`, h);
    const x0 = Math.ceil(x - 0.5),
        y0 = Math.ceil(y - 0.5);
    const nw = Math.max(0, Math.ceil(x + w - 0.5) - x0),
        nh = Math.max(0, Math.ceil(y + h - 0.5) - y0);
    checkSize(`${what}.width in whole pixels`, nw);
    checkSize(`${what}.height in whole pixels`, nh);
    const key = `${nw}x${nh}`;
    let mask = filled.get(key);
    if (!mask) {
        // Bodies come in few sizes; a bound keeps a stream of distinct ones from growing the map for ever.
        if (filled.size >= 256) filled.clear();
        filled.set(key, (mask = new Mask(nw, nh, true)));
    }
    return { mask, pose: { x: x0, y: y0, originX: 0, originY: 0, scaleX: 1, scaleY: 1, angle: 0 } };
}

/**
 * @deprecated since 0.4.0: `shapeOf(sprite).pose` (the same pose; `shapeOf` also takes bodies and tiles). Warns once.
 */
export function spritePose(sprite: PhaserSpriteLike, fm?: FrameMask): SpritePose {
    deprecated('spritePose(sprite)', 'shapeOf(sprite).pose');
    return poseOf(sprite, fm ?? frameMask(sprite.frame));
}

/**
 * The shape of what Arcade passes to a callback: a textured game object's frame mask in its pose (also
 * when given its body); otherwise a body's rectangle or a tile's world rectangle. A posed mask (`{ mask, pose }`)
 * is returned as it is. The options are checked; the shape does not depend on them.
 */
export function shapeOf(obj: ArcadeObject | PhaserSpriteLike | SpriteHitmask, options?: HitmaskOptions): SpriteHitmask {
    if (options !== undefined) cacheOf(options);
    if (isPosed(obj)) return obj;
    const o = obj as unknown as Record<string, unknown>;
    if (destroyed(obj))
        throw new Error(
            'The game object was destroyed: it has no pixels to test; drop it from what you test (overlaps() answers false for it).'
        );
    if (isSpriteLike(obj)) {
        const fm = frameMask(obj.frame);
        return { mask: fm.mask, pose: poseOf(obj, fm) };
    }
    if (typeof o === 'object' && o !== null) {
        // An Arcade body: its game object's pixels when it is textured, else the body's box.
        const go = o.gameObject;
        if (isSpriteLike(go)) return shapeOf(go);
        if (typeof o.getLeft === 'function' && typeof o.tilemapLayer === 'object') {
            const t = obj as Phaser.Tilemaps.Tile;
            const l = t.getLeft(),
                tp = t.getTop();
            return rect(l, tp, t.getRight() - l, t.getBottom() - tp, 'tile (world box)');
        }
        const body = (
            typeof o.body === 'object' && o.body !== null ? o.body : o
        ) as Partial<Phaser.Physics.Arcade.Body>;
        if (
            typeof body.x === 'number' &&
            typeof body.y === 'number' &&
            typeof body.width === 'number' &&
            typeof body.height === 'number'
        ) {
            return rect(body.x, body.y, body.width, body.height, 'body');
        }
    }
    throw wrongType(`expected a textured game object, an Arcade body or a tile, got ${describe(obj)}.`);
}

/** The object's current frame mask transformed as Phaser draws it, and its integer top-left in world pixels. */
export function hitmaskFor(
    obj: ArcadeObject | PhaserSpriteLike | SpriteHitmask,
    options?: HitmaskOptions
): PlacedSprite {
    const cache = cacheOf(options);
    const s = shapeOf(obj);
    return placeSprite(s.mask, s.pose, cache);
}

/**
 * Do the visible pixels of `a` and `b` touch, as Phaser draws them now? Box test first; bodies and tiles count as
 * rectangles, posed masks (`{ mask, pose }`, in world pixels) as they are; false when either was destroyed. Also
 * Arcade's process callback as it is:
 * `this.physics.add.overlap(group1, group2, onHit, overlaps)` calls `onHit` only for pairs whose pixels touch.
 */
export function overlaps(
    a: ArcadeObject | PhaserSpriteLike | SpriteHitmask,
    b: ArcadeObject | PhaserSpriteLike | SpriteHitmask,
    options?: HitmaskOptions
): boolean {
    const cache = cacheOf(options);
    // A destroyed object touches nothing (a group may still hand it to an overlap callback this frame).
    if (destroyed(a) || destroyed(b)) return false;
    const sa = shapeOf(a),
        sb = shapeOf(b);
    return posedOverlap(sa.mask, sa.pose, sb.mask, sb.pose, cache);
}

/**
 * The first pixel `a` and `b` share (row-major in a's placed mask) in world pixels, or null (also when either was
 * destroyed).
 */
export function overlap(
    a: ArcadeObject | PhaserSpriteLike | SpriteHitmask,
    b: ArcadeObject | PhaserSpriteLike | SpriteHitmask,
    options?: HitmaskOptions
): Point | null {
    if (!overlaps(a, b, options)) return null;
    return firstOverlap(hitmaskFor(a, options), hitmaskFor(b, options));
}

/**
 * Is the world point (x, y) (a pointer's `worldX`, `worldY`) on a solid pixel of the object's placed mask, the
 * pixel whose centre the point's pixel maps to? False for a destroyed object.
 */
export function hitTest(
    obj: ArcadeObject | PhaserSpriteLike | SpriteHitmask,
    x: number,
    y: number,
    options?: HitmaskOptions
): boolean {
    checkPoint(x, y);
    if (destroyed(obj)) return false;
    return placedHas(hitmaskFor(obj, options), x, y);
}

/** What `setInteractive` takes for pixel-exact input: {@link pixelHitArea}. */
export interface PixelHitArea {
    hitArea: { x: number; y: number; width: number; height: number };
    hitAreaCallback: (hitArea: unknown, x: number, y: number, gameObject: Phaser.GameObjects.GameObject) => boolean;
}

/**
 * Pixel-exact input: `sprite.setInteractive(pixelHitArea(sprite))` makes pointer events fire only over the
 * sprite's solid pixels, as {@link hitTest} sees them, whatever its frame's trim, flip, rotation and scale.
 */
export function pixelHitArea(sprite: PhaserSpriteLike, options?: HitmaskOptions): PixelHitArea {
    if (!isSpriteLike(sprite)) throw typeError('sprite', 'a textured Phaser game object (Sprite, Image)', sprite);
    const opts: HitmaskOptions = { cache: cacheOf(options) };
    return {
        hitArea: { x: 0, y: 0, width: sprite.frame.realWidth, height: sprite.frame.realHeight },
        // Phaser gives the pointer in the object's space with the display origin added (its input undoes the
        // world transform, flips aside); the same transform brings it back to the world point hitTest takes.
        hitAreaCallback: (_area, x, y, gameObject) => {
            const o = gameObject as unknown as PhaserSpriteLike & {
                getWorldTransformMatrix(): Phaser.GameObjects.Components.TransformMatrix;
            };
            const m = o.getWorldTransformMatrix(),
                lx = x - o.displayOriginX,
                ly = y - o.displayOriginY;
            return hitTest(o, snapPoint(m.a * lx + m.c * ly + m.tx), snapPoint(m.b * lx + m.d * ly + m.ty), opts);
        }
    };
}

/** What {@link drawHitmask} takes: the colours and the options of the other functions. */
export interface HitmaskStyle extends DrawStyle, HitmaskOptions {}

/**
 * Draws `obj`'s placed mask into a Phaser `Graphics` (not cleared first) in world pixels: its pixels as
 * horizontal runs, its outline along the pixel edges between set and clear pixels (every component and hole),
 * its box. Returns the placed mask.
 */
export function drawHitmask(
    graphics: Phaser.GameObjects.Graphics,
    obj: ArcadeObject | PhaserSpriteLike | SpriteHitmask,
    style: HitmaskStyle = {}
): PlacedSprite {
    if (typeof graphics !== 'object' || graphics === null || typeof graphics.fillRect !== 'function') {
        throw typeError('graphics', 'a Phaser.GameObjects.Graphics', graphics);
    }
    const { color = 0xff00ff, alpha = 0.5, outline = null, box = null, lineWidth = 1 } = style;
    const placed = hitmaskFor(obj, style);
    const { mask: m, x: ox, y: oy } = placed;
    if (color !== null) {
        graphics.fillStyle(color, alpha);
        forEachRun(m, (x, y, n) => graphics.fillRect(ox + x, oy + y, n, 1));
    }
    if (outline !== null) {
        graphics.lineStyle(lineWidth, outline, 1);
        forEachEdge(m, (x0, y0, x1, y1) => graphics.lineBetween(ox + x0, oy + y0, ox + x1, oy + y1));
    }
    if (box !== null) {
        graphics.lineStyle(lineWidth, box, 1);
        graphics.strokeRect(ox, oy, m.width, m.height);
    }
    return placed;
}
