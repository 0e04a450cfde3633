// hitmask/kaplay: entry point. The functions of `HitmaskAdapter` (src/engines/adapter.ts), the same as hitmask/phaser's
// and hitmask/pixi's, for Kaplay game objects with sprite(); besides them, the Kaplay plugin `hitmaskPlugin`.
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
    type KaplayDraw,
    type KaplayNode,
    type KaplaySpriteLike,
    type KaplayTypes,
    type XY
} from './engines/kaplay-adapter.js';
export {
    frameMask,
    setFrameMask,
    forgetFrameMask,
    setAlphaThreshold,
    addMaskAtlas,
    maskAtlasFor,
    type KaplayFrame
} from './engines/kaplay-frames.js';
export { hitmaskPlugin, pixelArea, type HitmaskPlugin, type PixelAreaComp } from './engines/kaplay-plugin.js';
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
