// hitmask/pixi: pixel-exact collisions between PixiJS 8 sprites. PixiJS draws; the game asks overlaps(a, b).
// Only `import type` from pixi.js, so neither this module nor the core bundle ever loads PixiJS itself.
import type { Container, Graphics, Matrix, Sprite, Texture } from 'pixi.js';
import type { MaskAtlas } from '../core/atlas.js';
import { describe } from '../base/check.js';
import type { Mask, Point } from '../core/mask.js';
import { outline } from '../core/shape.js';
import { defaultTransformCache, placeSprite, poseBounds, spritesOverlap, type HitmaskStyle, type PlacedSprite, type PoseBounds, type SpritePose } from './sprite.js';
import { TextureMasks, type FrameMask } from './pixi-texture.js';
import { TransformCache } from '../core/transform.js';

export { TextureMasks, readTextureMask } from './pixi-texture.js';
export type { FrameMask } from './pixi-texture.js';
export type { SpritePose, PlacedSprite, PoseBounds, HitmaskStyle } from './sprite.js';

/** Options of {@link PixiMasks}. */
export interface PixiMasksOptions {
    /** Alpha above this (0..255) is solid. @default 127 */
    threshold?: number;
    /** Rasterised rotations and scales, shared with others using the same cache. @default the shared 256-step cache */
    cache?: TransformCache;
    /**
     * The container whose coordinates are collision pixels, e.g. a zoomed or scrolled camera container holding the
     * game world (so a 2× zoom does not double every mask). @default null: global (stage) coordinates
     */
    space?: Container | null;
}

/** A sprite's mask and pose: what {@link placeSprite} of `hitmask` takes. */
export interface SpriteHitmask {
    /** The texture frame's mask (trimmed to its set pixels), untransformed. */
    mask: Mask;
    pose: SpritePose;
}

const SNAP = 2 ** 36;

// A matrix's fields, all the adapter reads of PixiJS's Matrix.
interface Affine { a: number; b: number; c: number; d: number; tx: number; ty: number }

function checkSprite(sprite: unknown, name: string): Sprite {
    const s = sprite as Sprite | null;
    if (s === null || typeof s !== 'object' || typeof s.texture !== 'object' || s.texture === null || typeof s.anchor !== 'object') {
        throw new TypeError(`${name} must be a PixiJS Sprite (with a texture and an anchor), got ${describe(sprite)}.`);
    }
    return s;
}

/**
 * Collision masks for PixiJS 8 sprites: one mask per texture frame (built from its pixels on first use or taken
 * from a `.hitmask` atlas), posed with the sprite's current texture (an AnimatedSprite's current frame), anchor,
 * pivot, origin, scale (negative = mirror), rotation and every parent container's transform, read fresh each call.
 */
export class PixiMasks {
    /** The per-texture masks. */
    readonly textures: TextureMasks;
    /** Rasterised rotations and scales. */
    readonly cache: TransformCache;
    /** Container whose coordinates are collision pixels; null = global coordinates. */
    space: Container | null;
    // Reused matrices (PixiJS Matrix objects got from getGlobalTransform, so that no PixiJS code is imported).
    private scratch: Matrix | null = null;
    private spaceScratch: Matrix | null = null;
    private readonly poseOut: SpritePose[] = [0, 1].map(() => ({ x: 0, y: 0, originX: 0, originY: 0, scaleX: 1, scaleY: 1, angle: 0 }));

    constructor(options: PixiMasksOptions = {}) {
        if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${describe(options)}.`);
        this.textures = new TextureMasks(options.threshold ?? 127);
        const cache = options.cache ?? defaultTransformCache();
        if (!(cache instanceof TransformCache)) throw new TypeError(`options.cache must be a TransformCache, got ${describe(cache)}.`);
        this.cache = cache;
        this.space = options.space ?? null;
    }

    /** The texture's mask and its offset in the untrimmed frame (`texture.orig`). */
    textureMask(texture: Texture): FrameMask {
        return this.textures.get(texture);
    }

    /** Uses the masks of a `.hitmask` atlas for the textures of the same names (e.g. a Spritesheet's `textures`). */
    useAtlas(atlas: MaskAtlas, textures: Readonly<Record<string, Texture>> | ReadonlyMap<string, Texture>): number {
        return this.textures.useAtlas(atlas, textures);
    }

    /**
     * The sprite's frame mask and its pose in collision space. Throws a RangeError when the sprite's transform
     * has skew (its own `skew`, or a rotated child of a non-uniformly scaled parent): masks only rotate and scale.
     */
    hitmask(sprite: Sprite, out?: SpriteHitmask): SpriteHitmask {
        const s = checkSprite(sprite, 'sprite');
        const fm = this.textures.get(s.texture);
        const pose = out?.pose ?? { x: 0, y: 0, originX: 0, originY: 0, scaleX: 1, scaleY: 1, angle: 0 };
        this.poseInto(s, fm, pose);
        if (out) {
            out.mask = fm.mask;
            return out;
        }
        return { mask: fm.mask, pose };
    }

    /** The sprite's placed mask: the transformed mask (cached and shared: do not change it) and its integer top-left in collision space. */
    hitmaskFor(sprite: Sprite): PlacedSprite {
        const s = checkSprite(sprite, 'sprite');
        const fm = this.textures.get(s.texture);
        return placeSprite(fm.mask, this.poseInto(s, fm, this.poseOut[0]), this.cache);
    }

    /**
     * Pointer picking: whether the point (x, y) in collision space (global coordinates without a `space`, as a
     * pointer event's `global`) is on a set pixel of the sprite's placed mask (the pixel holding the point).
     */
    hitTest(sprite: Sprite, x: number, y: number): boolean {
        // NaN would read as "not on the sprite" without a word.
        for (const [k, v] of [['x', x], ['y', y]] as const) if (typeof v !== 'number' || !Number.isFinite(v)) throw new RangeError(`hitTest(): ${k} must be a finite number, got ${describe(v)}.`);
        const p = this.hitmaskFor(sprite);
        return p.mask.get(Math.floor(x) - p.x, Math.floor(y) - p.y);
    }

    /**
     * A `hitArea` for `sprite` (`sprite.hitArea = masks.hitArea(sprite)`, with `eventMode` 'static'): pointer
     * events fire only over its solid pixels, as {@link hitTest} sees them. PixiJS asks `contains(x, y)` in the
     * sprite's local coordinates; the sprite's transform takes the point back to collision space.
     */
    hitArea(sprite: Sprite): { contains(x: number, y: number): boolean } {
        const s = checkSprite(sprite, 'sprite');
        // Snapped to 1/1024 px: pointers come at whole pixels, and the round trip lands a hair to either side.
        const snap = (v: number) => Math.round(v * 1024) / 1024;
        return {
            contains: (x: number, y: number) => {
                const m = this.matrixOf(s), gx = snap(m.a * x + m.c * y + m.tx), gy = snap(m.b * x + m.d * y + m.ty);
                return this.hitTest(s, gx, gy);
            }
        };
    }

    /** Box of the sprite's mask in collision space (set pixels lie within it grown by 1 px). */
    bounds(sprite: Sprite): PoseBounds {
        const s = checkSprite(sprite, 'sprite');
        const fm = this.textures.get(s.texture);
        return poseBounds(fm.mask, this.poseInto(s, fm, this.poseOut[0]), this.cache);
    }

    /** Whether the two sprites' masks share a pixel: box test first, then the masks (rasterised only when boxes meet). */
    overlaps(a: Sprite, b: Sprite): boolean {
        const sa = checkSprite(a, 'a'), sb = checkSprite(b, 'b');
        const fa = this.textures.get(sa.texture), fb = this.textures.get(sb.texture);
        return spritesOverlap(fa.mask, this.poseInto(sa, fa, this.poseOut[0]), fb.mask, this.poseInto(sb, fb, this.poseOut[1]), this.cache);
    }

    /** The first shared pixel (row-major in a's placed mask) in collision space, or null; written into `out` when given. */
    overlap(a: Sprite, b: Sprite, out?: Point): Point | null {
        if (!this.overlaps(a, b)) return null;
        const A = this.hitmaskFor(a), ax = A.x, ay = A.y, am = A.mask;
        const B = this.hitmaskFor(b);
        const p = am.overlap(B.mask, B.x - ax, B.y - ay);
        if (!p) return null;
        const r = out ?? { x: 0, y: 0 };
        r.x = p.x + ax;
        r.y = p.y + ay;
        return r;
    }

    /**
     * Draws the sprite's placed mask into `graphics` in collision-space coordinates (so `graphics` should sit in the
     * same space: a child of the stage, or of `space`, with no transform of its own). Adds to what `graphics` holds.
     */
    draw(graphics: Graphics, sprite: Sprite, style: HitmaskStyle = {}): void {
        if (graphics === null || typeof graphics !== 'object' || typeof graphics.rect !== 'function') {
            throw new TypeError(`graphics must be a PixiJS Graphics, got ${describe(graphics)}.`);
        }
        const { mask, x, y } = this.hitmaskFor(sprite);
        const color = style.color === undefined ? 0xff00ff : style.color, width = style.lineWidth ?? 1;
        if (color !== null && mask.count() > 0) {
            // One rectangle per horizontal run of set pixels.
            for (let r = 0; r < mask.height; r++) {
                for (let c = 0; c < mask.width; c++) {
                    if (!mask.get(c, r)) continue;
                    const c0 = c;
                    while (c < mask.width && mask.get(c, r)) c++;
                    graphics.rect(x + c0, y + r, c - c0, 1);
                }
            }
            graphics.fill({ color, alpha: style.alpha ?? 0.5 });
        }
        if (style.outline != null) {
            const pts = outline(mask);
            if (pts.length > 1) {
                graphics.poly(pts.flatMap(p => [x + p.x + 0.5, y + p.y + 0.5]), true);
                graphics.stroke({ width, color: style.outline });
            }
        }
        if (style.box != null) {
            graphics.rect(x, y, mask.width, mask.height);
            graphics.stroke({ width, color: style.box });
        }
    }

    // The sprite's pose from its transform relative to `space`: local point p of the sprite (origin at the anchor
    // point) lands at M·p, and frame pixel f of the mask is local f + maskOffset − anchor·orig.
    private poseInto(s: Sprite, fm: FrameMask, pose: SpritePose): SpritePose {
        const m = this.matrixOf(s);
        const { a, b, c, d } = m;
        // NaN or Infinity anywhere in the transform (the sprite's or a parent's) would surface as a bad pose.x.
        if (!Number.isFinite(a + b + c + d + m.tx + m.ty)) {
            throw new RangeError(`sprite's transform must be finite, got a=${a}, b=${b}, c=${c}, d=${d}, tx=${m.tx}, ty=${m.ty}: a NaN or infinite position, scale or rotation on the sprite or a parent.`);
        }
        // PixiJS builds a = cos·sx, b = sin·sx, c = −sin·sy, d = cos·sy; a flip (det < 0) goes on x, so that a
        // sprite mirrored with scale.x = −1 keeps its own angle.
        const det = a * d - b * c;
        let sx = Math.hypot(a, b), angle: number, sy: number;
        if (sx === 0) {
            sy = Math.hypot(c, d);
            angle = sy === 0 ? 0 : Math.atan2(-c, d);
        } else {
            if (det < 0) sx = -sx;
            angle = Math.atan2(b / sx, a / sx);
            sy = det / sx;
            // Columns must be perpendicular: masks cannot be skewed.
            if (Math.abs(a * c + b * d) > 1e-9 * Math.abs(sx) * (Math.abs(c) + Math.abs(d))) {
                throw new RangeError(`sprite's transform must have no skew, got a=${a}, b=${b}, c=${c}, d=${d} (skew, or a rotated child of a non-uniformly scaled parent).`);
            }
        }
        const t = s.texture, anchor = s.anchor;
        pose.x = m.tx;
        pose.y = m.ty;
        pose.originX = anchor.x * t.orig.width - fm.x;
        pose.originY = anchor.y * t.orig.height - fm.y;
        // hypot(cos·s, sin·s) is s only within an ulp or two: snapped to 2^-36 so that scale 1 stays exactly 1
        // (exact quarter turns, no rasterising) and the transform cache sees one key per scale, not several.
        pose.scaleX = Math.round(sx * SNAP) / SNAP;
        pose.scaleY = Math.round(sy * SNAP) / SNAP;
        pose.angle = angle;
        return pose;
    }

    // The sprite's transform into collision space, computed fresh (worldTransform lags until the next render).
    private matrixOf(s: Sprite): Affine {
        const m: Affine = typeof s.getGlobalTransform === 'function'
            ? (this.scratch = this.scratch ? s.getGlobalTransform(this.scratch) : s.getGlobalTransform())
            : s.worldTransform;
        const space = this.space;
        if (!space) return m;
        const w: Affine = typeof space.getGlobalTransform === 'function'
            ? (this.spaceScratch = this.spaceScratch ? space.getGlobalTransform(this.spaceScratch) : space.getGlobalTransform())
            : space.worldTransform;
        // inverse(W)·M, written out so that no PixiJS Matrix is needed.
        const det = w.a * w.d - w.b * w.c;
        if (det === 0) throw new RangeError('space container has a zero scale: collision coordinates are undefined.');
        const ia = w.d / det, ib = -w.b / det, ic = -w.c / det, id = w.a / det;
        const x = m.tx - w.tx, y = m.ty - w.ty;
        return {
            a: ia * m.a + ic * m.b, b: ib * m.a + id * m.b, c: ia * m.c + ic * m.d, d: ib * m.c + id * m.d,
            tx: ia * x + ic * y, ty: ib * x + id * y
        };
    }
}

let shared: PixiMasks | null = null;

/** The instance the plain functions use: threshold 127, the shared transform cache, global coordinates. */
export function pixiMasks(): PixiMasks {
    return shared ??= new PixiMasks();
}

/** Whether two sprites' pixels overlap, in global coordinates (see {@link PixiMasks.overlaps}). */
export function overlaps(a: Sprite, b: Sprite): boolean {
    return pixiMasks().overlaps(a, b);
}

/** The sprite's placed mask and its integer top-left in global coordinates (see {@link PixiMasks.hitmaskFor}). */
export function hitmaskFor(sprite: Sprite): PlacedSprite {
    return pixiMasks().hitmaskFor(sprite);
}

/** Pointer picking in global coordinates (see {@link PixiMasks.hitTest}). */
export function hitTest(sprite: Sprite, x: number, y: number): boolean {
    return pixiMasks().hitTest(sprite, x, y);
}

/** A `hitArea` that lets pointer events through only over the sprite's solid pixels (see {@link PixiMasks.hitArea}). */
export function hitArea(sprite: Sprite): { contains(x: number, y: number): boolean } {
    return pixiMasks().hitArea(sprite);
}

/** Draws the sprite's placed mask into `graphics`, in global coordinates (see {@link PixiMasks.draw}). */
export function drawHitmask(graphics: Graphics, sprite: Sprite, style?: HitmaskStyle): void {
    pixiMasks().draw(graphics, sprite, style);
}
