// hitmask/excalibur: entry point. The functions of `HitmaskAdapter` (src/engines/adapter.ts), the same as
// hitmask/phaser's and hitmask/pixi's, for Excalibur actors whose graphic is a Sprite or an Animation of Sprites;
// besides them, `pixelCollisions` (Excalibur's own collision events, resolution and picking, pixel-exact).
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
    type ExcaliburTypes
} from './engines/excalibur-adapter.js';
export {
    frameMask,
    setFrameMask,
    forgetFrameMask,
    setAlphaThreshold,
    addMaskAtlas,
    maskAtlasFor
} from './engines/excalibur-frames.js';
export { pixelCollisions } from './engines/excalibur-collisions.js';
export {
    placeSprite,
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
