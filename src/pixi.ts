// hitmask/pixi: entry point. The same verbs as hitmask/phaser, for PixiJS 7.2+ and 8 sprites.
export {
    overlaps,
    overlap,
    hitmaskFor,
    hitTest,
    pixelHitArea,
    drawHitmask,
    shapeOf,
    type HitmaskOptions,
    type HitmaskStyle
} from './engines/pixi-adapter.js';
export { frameMask, setFrameMask, forgetFrameMask, setAlphaThreshold, addMaskAtlas } from './engines/pixi-texture.js';
export {
    placeSprite,
    spritesOverlap,
    poseBounds,
    defaultTransformCache,
    type FrameMask,
    type SpritePose,
    type SpriteHitmask,
    type PlacedSprite,
    type PoseBounds
} from './engines/sprite.js';
