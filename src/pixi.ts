// hitmask/pixi: entry point. The functions of `HitmaskAdapter` (src/engines/adapter.ts), the same as hitmask/phaser's,
// for PixiJS 7.2+ and 8 sprites; besides them, deprecated aliases only.
export {
    overlaps,
    overlap,
    hitmaskFor,
    hitTest,
    pixelHitArea,
    drawHitmask,
    shapeOf,
    type HitmaskOptions,
    type HitmaskStyle,
    type PixelHitArea,
    type PixiTypes
} from './engines/pixi-adapter.js';
export {
    frameMask,
    setFrameMask,
    forgetFrameMask,
    setAlphaThreshold,
    addMaskAtlas,
    maskAtlasFor
} from './engines/pixi-texture.js';
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
