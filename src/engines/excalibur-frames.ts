// Collision masks of Excalibur sprites: given with setFrameMask, bound from a `.hitmask` atlas, or read once per image
// region (the sprite's sourceView of its ImageSource) from the image's pixels through a canvas, and cached (weakly: a
// dropped image's masks go with it). Type-only Excalibur import: nothing of Excalibur is bundled from here.
import type { ImageSource, Sprite } from 'excalibur';
import { checkFinite, checkInt, typeError } from '../base/check.js';
import { checkObject } from '../base/check-types.js';
import { Mask, checkMask } from '../core/mask.js';
import { MaskAtlas } from '../core/atlas.js';
import type { AtlasFrame } from '../core/atlas-frame.js';
import { trim } from '../core/transform.js';
import type { FrameMask } from './sprite.js';

// Alpha above this is solid when a mask is read from pixels.
let threshold = 127;
// Per image, its regions' masks by "x,y,w,h,threshold".
const regions = new WeakMap<ImageSource, Map<string, FrameMask>>();
// Per sprite, a mask given with setFrameMask or bound from an atlas (with the atlas): kept until forgetFrameMask.
const bound = new WeakMap<Sprite, { frame: FrameMask; atlas: MaskAtlas | null }>();

/** @internal Whether `g` is an Excalibur Sprite (an image, a source view and a destination size). */
export function isSprite(g: unknown): g is Sprite {
    const s = g as Partial<Sprite> | null;
    return (
        typeof s === 'object' &&
        s !== null &&
        typeof s.image === 'object' &&
        s.image !== null &&
        typeof s.sourceView === 'object' &&
        typeof s.destSize === 'object'
    );
}

function checkSprite(sprite: unknown): asserts sprite is Sprite {
    if (!isSprite(sprite)) throw typeError('sprite', 'an Excalibur Sprite', sprite);
}

let canvas: OffscreenCanvas | HTMLCanvasElement | null = null;

function fromPixels(s: Sprite): FrameMask {
    const v = s.sourceView;
    const label = s.image.path ? `image "${s.image.path}"` : 'the image';
    const key = `${v.x},${v.y},${v.width},${v.height},${threshold}`;
    let byRegion = regions.get(s.image);
    const cached = byRegion?.get(key);
    if (cached) return cached;
    // ImageSource.fromHtmlCanvasElement says it is loaded before its image has loaded (the canvas goes through a blob
    // URL): drawing that image then reads no pixel, and the empty mask would be cached for every later use.
    const el = s.image.image as HTMLImageElement | undefined;
    if (!s.image.isLoaded() || (el && el.naturalWidth === 0 && v.width > 0 && v.height > 0))
        throw new Error(
            `${label} is not loaded yet: load it (a Loader, or await image.load()) before testing its sprites.`
        );
    const w = Math.max(0, Math.round(v.width)),
        h = Math.max(0, Math.round(v.height));
    let mask: Mask;
    if (w === 0 || h === 0) mask = new Mask(0, 0);
    else {
        canvas ??= typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(w, h) : document.createElement('canvas');
        canvas.width = w;
        canvas.height = h;
        const ctx = canvas.getContext('2d', { willReadFrequently: true }) as
            OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
        if (!ctx) throw new Error('no 2D canvas context to read sprite pixels with.');
        ctx.clearRect(0, 0, w, h);
        ctx.drawImage(s.image.image, v.x, v.y, v.width, v.height, 0, 0, w, h);
        mask = Mask.fromImageData(ctx.getImageData(0, 0, w, h), { threshold });
    }
    const t = trim(mask);
    if (t.mask !== mask) mask.dispose();
    const fm: FrameMask = { mask: t.mask, x: t.x, y: t.y, width: v.width, height: v.height, source: 'pixels' };
    if (!byRegion) regions.set(s.image, (byRegion = new Map()));
    byRegion.set(key, fm);
    return fm;
}

/**
 * The sprite's collision mask and its offset in the sprite's source view: the one given with {@link setFrameMask} or
 * bound by {@link addMaskAtlas}, else read from the image's pixels on first use (cached per image region, so the
 * frames of a SpriteSheet and their clones share one).
 */
export function frameMask(sprite: Sprite): FrameMask {
    checkSprite(sprite);
    return bound.get(sprite)?.frame ?? fromPixels(sprite);
}

/** Uses `mask` for `sprite`, its top-left at (x, y) in the source view; kept until {@link forgetFrameMask}. */
export function setFrameMask(sprite: Sprite, mask: Mask, x = 0, y = 0): void {
    checkSprite(sprite);
    checkMask(mask, 'mask');
    checkFinite('x', x);
    checkFinite('y', y);
    const v = sprite.sourceView;
    bound.set(sprite, {
        frame: { mask, x, y, width: v.width, height: v.height, source: 'custom' },
        atlas: null
    });
}

/** Forgets the sprite's given or bound mask, and the masks read from its image; the next use reads them again. */
export function forgetFrameMask(sprite: Sprite): void {
    checkSprite(sprite);
    bound.delete(sprite);
    regions.delete(sprite.image);
}

/**
 * Alpha above `value` (0..255) is solid when a sprite's mask is read from its pixels; masks read so far are read
 * again. @default 127
 */
export function setAlphaThreshold(value: number): void {
    threshold = checkInt('threshold', value, 0, 255);
}

/**
 * Binds the masks of a `.hitmask` atlas to the sprites of the same names (e.g. `{ ship: shipSprite }`, or a
 * SpriteSheet's sprites named `sheet/0`, `sheet/1`, … as `hitmask build --grid` names them): each frame's mask at
 * its trim offset, kept until {@link forgetFrameMask}. Returns how many sprites got one; names missing on either
 * side are skipped. A frame whose source size is not its sprite's source view is an Error, and then nothing is bound.
 */
export function addMaskAtlas(
    atlas: MaskAtlas,
    sprites: Readonly<Record<string, Sprite>> | ReadonlyMap<string, Sprite>
): number {
    if (!(atlas instanceof MaskAtlas)) throw typeError('atlas', 'a MaskAtlas', atlas);
    checkObject('sprites', sprites, 'a record or Map of Sprites by name');
    const pairs = sprites instanceof Map ? [...sprites] : Object.entries(sprites as Record<string, Sprite>);
    const found: [Sprite, AtlasFrame][] = [];
    for (const [name, sprite] of pairs) {
        if (!atlas.has(name)) continue;
        checkSprite(sprite);
        const f = atlas.frame(name),
            v = sprite.sourceView;
        if (f.sourceWidth !== v.width || f.sourceHeight !== v.height) {
            throw new Error(
                `addMaskAtlas(): hitmask atlas frame "${name}" is ${f.sourceWidth}x${f.sourceHeight}, but its sprite's ` +
                    `source view is ${v.width}x${v.height}; was the atlas built from the same images?`
            );
        }
        found.push([sprite, f]);
    }
    for (const [s, f] of found) {
        const v = s.sourceView;
        bound.set(s, {
            frame: { mask: f.mask, x: f.x, y: f.y, width: v.width, height: v.height, source: 'atlas' },
            atlas
        });
    }
    return found.length;
}

/** The atlas that gives the sprite its mask ({@link addMaskAtlas}), if any. */
export function maskAtlasFor(sprite: Sprite): MaskAtlas | undefined {
    checkSprite(sprite);
    return bound.get(sprite)?.atlas ?? undefined;
}
