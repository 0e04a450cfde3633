// hitmask/phaser: entry point. The functions of `HitmaskAdapter` (src/engines/adapter.ts), the same as hitmask/pixi's,
// for Phaser 3 and 4 game objects; besides them, the Phaser-only `registerHitmaskLoader` and deprecated aliases.
export {
    overlaps,
    overlap,
    hitmaskFor,
    hitTest,
    pixelHitArea,
    drawHitmask,
    shapeOf,
    spritePose,
    type HitmaskOptions,
    type HitmaskStyle,
    type PixelHitArea,
    type PhaserSpriteLike,
    type ArcadeObject,
    type PhaserTypes
} from './engines/phaser-adapter.js';
export {
    frameMask,
    setFrameMask,
    forgetFrameMask,
    setAlphaThreshold,
    addMaskAtlas,
    maskAtlasFor
} from './engines/phaser-frames.js';
export { registerHitmaskLoader } from './engines/phaser-loader.js';
export {
    placeSprite,
    spritesOverlap,
    poseBounds,
    defaultTransformCache,
    type FrameMask,
    type SpritePose,
    type SpriteHitmask,
    type PlacedSprite,
    type PoseBounds,
    type DrawStyle
} from './engines/sprite.js';
export type { HitmaskAdapter, EngineTypes } from './engines/adapter.js';
