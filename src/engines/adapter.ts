// The function set every engine adapter offers (hitmask/phaser, hitmask/pixi): one type, so that the adapters keep
// the same names, argument order and results, and a game can be written against either (test/adapters.test.ts
// checks that both entry points satisfy it and export nothing else but the documented engine-specific names).
import type { Mask, Point } from '../core/mask.js';
import type { MaskAtlas } from '../core/atlas.js';
import type { TransformCache } from '../core/transform.js';
import type { DrawStyle, FrameMask, PlacedSprite, PoseBounds, SpriteHitmask, SpritePose } from './sprite.js';

/** The engine's own types that an adapter's functions take: {@link HitmaskAdapter}'s parameter. */
export interface EngineTypes {
    /** What is tested: a sprite (and, in Phaser, an Arcade body or a tile). A posed mask is accepted besides. */
    object: unknown;
    /** A textured sprite: what `pixelHitArea` makes a hit area for. */
    sprite: unknown;
    /** One texture frame: Phaser's `Frame`, PixiJS's `Texture`. */
    frame: unknown;
    /** What `drawHitmask` draws into. */
    graphics: unknown;
    /** What `addMaskAtlas` binds an atlas to: texture keys (Phaser), textures by name (PixiJS). */
    textures: unknown;
    /** The arguments `addMaskAtlas` takes after `textures`: the game (Phaser), none (PixiJS). */
    host: readonly unknown[];
    /** The trailing options of the functions: `{ cache? }`, and PixiJS's `space`. */
    options: { cache?: TransformCache };
    /** What `pixelHitArea` returns: what the engine's input system takes. */
    hitArea: unknown;
}

/**
 * The functions of an engine adapter: the same names, argument order and results in `hitmask/phaser` and
 * `hitmask/pixi`. `E` names the engine's types (`PhaserTypes`, `PixiTypes`). Besides these, hitmask/phaser has one
 * engine-specific function, `registerHitmaskLoader` (the `this.load.hitmask` file type).
 */
export interface HitmaskAdapter<E extends EngineTypes> {
    /** Do the visible pixels of `a` and `b` touch, as the engine draws them now? Box test first. */
    overlaps: (a: E['object'] | SpriteHitmask, b: E['object'] | SpriteHitmask, options?: E['options']) => boolean;
    /** The first pixel `a` and `b` share (row-major in a's placed mask), or null. */
    overlap: (a: E['object'] | SpriteHitmask, b: E['object'] | SpriteHitmask, options?: E['options']) => Point | null;
    /** The object's mask as drawn now and its integer top-left. */
    hitmaskFor: (obj: E['object'] | SpriteHitmask, options?: E['options']) => PlacedSprite;
    /** Whether the point (x, y) is on a set pixel of the object's placed mask. */
    hitTest: (obj: E['object'] | SpriteHitmask, x: number, y: number, options?: E['options']) => boolean;
    /** A hit area that makes pointer events fire only over the sprite's solid pixels. */
    pixelHitArea: (sprite: E['sprite'], options?: E['options']) => E['hitArea'];
    /** Draws the object's placed mask (pixels, outline, box) into the engine's graphics. */
    drawHitmask: (
        graphics: E['graphics'],
        obj: E['object'] | SpriteHitmask,
        style?: DrawStyle & E['options']
    ) => PlacedSprite;
    /** The object's frame mask and the pose it is drawn with: what `placeSprite` takes. */
    shapeOf: (obj: E['object'] | SpriteHitmask, options?: E['options']) => SpriteHitmask;
    /** A frame's collision mask and its place in the untrimmed frame. */
    frameMask: (frame: E['frame']) => FrameMask;
    /** Uses `mask` for `frame`, its top-left at (x, y) in the untrimmed frame, until `forgetFrameMask`. */
    setFrameMask: (frame: E['frame'], mask: Mask, x?: number, y?: number) => void;
    /** Drops a frame's cached, given or bound mask. */
    forgetFrameMask: (frame: E['frame']) => void;
    /** Alpha above `value` (0..255) is solid when a mask is read from pixels. */
    setAlphaThreshold: (value: number) => void;
    /** Binds a `.hitmask` atlas to textures; returns how many of their frames take a mask from it. */
    addMaskAtlas: (atlas: MaskAtlas, textures: E['textures'], ...host: E['host']) => number;
    /** The atlas bound to the frame (to its texture, in Phaser), if any. */
    maskAtlasFor: (frame: E['frame']) => MaskAtlas | undefined;
    /** A mask transformed by a pose and its integer top-left: the engine-neutral placement. */
    placeSprite: (mask: Mask, pose: Readonly<SpritePose>, cache?: TransformCache) => PlacedSprite;
    /** Bounds of a posed mask's box, before rasterising. */
    poseBounds: (mask: Mask, pose: Readonly<SpritePose>, cache?: TransformCache) => PoseBounds;
    /** The cache used when the options name none. */
    defaultTransformCache: () => TransformCache;
}
