// Collision masks of Phaser texture frames: given with setFrameMask, from a `.hitmask` atlas bound to the
// texture, or read once from the frame's pixels. Type-only Phaser import: nothing of Phaser is bundled from here.
import type * as Phaser from 'phaser';
import { checkInt, checkFinite, typeError } from '../base/check.js';
import { deprecated } from '../base/deprecate.js';
import { Mask, checkMask } from '../core/mask.js';
import { MaskAtlas } from '../core/atlas.js';
import { trim } from '../core/transform.js';
import type { FrameMask } from './sprite.js';

// Phaser's name for the frame covering a whole single-image texture.
const BASE = '__BASE';
// Alpha above this is solid when a mask is read from pixels (Mask.fromImageData's default unless set).
let threshold = 127;

// Per game (the texture manager's game), the atlas bound to each texture key.
const atlases = new WeakMap<Phaser.Game, Map<string, MaskAtlas>>();
// Per frame, its mask from an atlas or the pixels: built once, dropped (a new map) when an atlas is bound or the
// threshold changes.
let masks = new WeakMap<Phaser.Textures.Frame, FrameMask>();
// Per frame, a mask given with setFrameMask: kept until forgetFrameMask.
const custom = new WeakMap<Phaser.Textures.Frame, FrameMask>();
// Frames stored rotated in their atlas that have been warned about (once each).
const warnedRotated = new WeakSet<Phaser.Textures.Frame>();

// Phaser has never drawn a frame its packer stored rotated (TexturePacker's "Allow rotation") upright: it shows it
// mirrored and stretched, so no mask (read, from a .hitmask atlas or given) matches what the player sees.
function rotatedWhy(frame: Phaser.Textures.Frame): string {
    return (
        `texture "${frame.texture.key}" frame "${String(frame.name)}" is stored rotated in its atlas (the packer's ` +
        '"Allow rotation", rotated: true), which Phaser does not draw upright: what it shows differs from any mask; ' +
        'pack the atlas again with rotation off'
    );
}

function checkFrame(frame: unknown): asserts frame is Phaser.Textures.Frame {
    const f = frame as Phaser.Textures.Frame | null;
    if (typeof f !== 'object' || f === null || typeof f.texture !== 'object' || f.texture === null) {
        throw typeError('frame', 'a Phaser.Textures.Frame', frame);
    }
}

/**
 * Binds `atlas` to the textures named `textures` of `game`: their frames take their masks from it (frame
 * `name`; a single-image texture's frame from the atlas frame named like the texture, or the atlas's only frame).
 * Returns how many frames of those textures, among the ones loaded, the atlas has a mask for (a texture loaded
 * later binds all the same). An atlas frame's size is checked against its texture frame's when the frame is used.
 */
export function addMaskAtlas(atlas: MaskAtlas, textures: string | readonly string[], game: Phaser.Game): number;
/** @deprecated since 0.4.0: `addMaskAtlas(atlas, textures, game)`, the argument order of hitmask/pixi. Warns once. */
export function addMaskAtlas(game: Phaser.Game, atlas: MaskAtlas, textures: string | readonly string[]): number;
export function addMaskAtlas(
    ...args: [MaskAtlas, string | readonly string[], Phaser.Game] | [Phaser.Game, MaskAtlas, string | readonly string[]]
): number {
    let atlas: MaskAtlas, textures: string | readonly string[], game: Phaser.Game;
    if (!(args[0] instanceof MaskAtlas) && args[1] instanceof MaskAtlas) {
        deprecated('addMaskAtlas(game, atlas, textures)', 'addMaskAtlas(atlas, textures, game)');
        [game, atlas, textures] = args as [Phaser.Game, MaskAtlas, string | readonly string[]];
    } else [atlas, textures, game] = args as [MaskAtlas, string | readonly string[], Phaser.Game];
    if (!(atlas instanceof MaskAtlas)) throw typeError('atlas', 'a MaskAtlas', atlas);
    if (typeof game !== 'object' || game === null) throw typeError('game', 'a Phaser.Game', game);
    const keys = typeof textures === 'string' ? [textures] : textures;
    if (!Array.isArray(keys) || keys.some(k => typeof k !== 'string')) {
        throw typeError('textures', 'a texture key or an array of them', textures);
    }
    let map = atlases.get(game);
    if (!map) atlases.set(game, (map = new Map()));
    for (const k of keys) map.set(k, atlas);
    // Masks already read from pixels for these textures must give way to the atlas.
    masks = new WeakMap();
    let matched = 0;
    for (const k of new Set(keys)) {
        // The frames of a texture already loaded (a game without a texture manager, in a test, has none).
        const texture = game.textures?.exists?.(k) ? game.textures.get(k) : null;
        if (texture) for (const f of texture.getFrameNames(true)) if (pickFrame(atlas, k, f) !== null) matched++;
    }
    return matched;
}

/** The atlas bound to the frame's texture (by `addMaskAtlas` or `this.load.hitmask`), if any. */
export function maskAtlasFor(frame: Phaser.Textures.Frame): MaskAtlas | undefined;
/** @deprecated since 0.4.0: `maskAtlasFor(frame)`, as in hitmask/pixi (a texture key names no frame). Warns once. */
export function maskAtlasFor(game: Phaser.Game, key: string): MaskAtlas | undefined;
export function maskAtlasFor(frame: Phaser.Textures.Frame | Phaser.Game, key?: string): MaskAtlas | undefined {
    if (typeof key === 'string') {
        deprecated('maskAtlasFor(game, textureKey)', 'maskAtlasFor(frame)');
        return atlases.get(frame as Phaser.Game)?.get(key);
    }
    checkFrame(frame);
    return atlases.get(frame.texture.manager.game)?.get(frame.texture.key);
}

// The atlas frame that serves frame `name` of texture `tex`, or null.
function pickFrame(atlas: MaskAtlas, tex: string, name: string): string | null {
    return name === BASE
        ? atlas.has(tex)
            ? tex
            : atlas.size === 1
              ? atlas.names[0]
              : null
        : atlas.has(name)
          ? name
          : atlas.has(`${tex}/${name}`)
            ? `${tex}/${name}`
            : null;
}

function fromAtlas(frame: Phaser.Textures.Frame, atlas: MaskAtlas): FrameMask | null {
    const tex = frame.texture.key,
        name = String(frame.name);
    const pick = pickFrame(atlas, tex, name);
    if (pick === null) return null;
    const f = atlas.frame(pick);
    if (f.sourceWidth !== frame.realWidth || f.sourceHeight !== frame.realHeight) {
        throw new Error(
            `hitmask atlas frame "${pick}" is ${f.sourceWidth}x${f.sourceHeight}, but texture "${tex}" frame "${name}" is ` +
                `${frame.realWidth}x${frame.realHeight}; was the atlas built from the same images?`
        );
    }
    return { mask: f.mask, x: f.x, y: f.y, width: frame.realWidth, height: frame.realHeight, source: 'atlas' };
}

function fromPixels(frame: Phaser.Textures.Frame): FrameMask {
    const src = frame.source,
        what = `texture "${frame.texture.key}" frame "${String(frame.name)}"`;
    if (frame.rotated) throw new Error(`${rotatedWhy(frame)}.`);
    if (src.resolution !== 1)
        throw new Error(`${what}: texture resolution ${src.resolution} is not supported (expected 1).`);
    const image = src.image as unknown;
    const drawable =
        (typeof HTMLImageElement !== 'undefined' && image instanceof HTMLImageElement) ||
        (typeof HTMLCanvasElement !== 'undefined' && image instanceof HTMLCanvasElement) ||
        (typeof ImageBitmap !== 'undefined' && image instanceof ImageBitmap) ||
        (typeof OffscreenCanvas !== 'undefined' && image instanceof OffscreenCanvas);
    if (src.isRenderTexture || src.isGLTexture || !drawable) {
        throw new Error(
            `${what}: its pixels are not in an image or canvas (render or GPU texture); load a .hitmask atlas for it.`
        );
    }
    const w = frame.cutWidth,
        h = frame.cutHeight;
    let region: Mask;
    if (w === 0 || h === 0) region = new Mask(0, 0);
    else {
        const canvas = document.createElement('canvas');
        canvas.width = w;
        canvas.height = h;
        const ctx = canvas.getContext('2d', { willReadFrequently: true });
        if (!ctx) throw new Error(`${what}: no 2D canvas context to read its pixels.`);
        ctx.drawImage(image as CanvasImageSource, frame.cutX, frame.cutY, w, h, 0, 0, w, h);
        region = Mask.fromImageData(ctx.getImageData(0, 0, w, h), { threshold });
    }
    // Trim to the set pixels: smaller masks to rotate and test; the offset keeps them in place.
    const t = trim(region);
    return {
        mask: t.mask,
        x: frame.x + t.x,
        y: frame.y + t.y,
        width: frame.realWidth,
        height: frame.realHeight,
        source: 'pixels'
    };
}

/**
 * The collision mask of a texture frame, built on first use and cached per frame: the one given with
 * {@link setFrameMask}; else from the atlas bound to its texture ({@link addMaskAtlas}, `this.load.hitmask`) when it
 * holds the frame; else from the frame's pixels (alpha above the threshold), read once through a canvas. Trimmed
 * frames keep their trim offset. A frame stored rotated in its atlas (the packer's "Allow rotation"), which Phaser
 * does not draw upright, warns once (and its pixels are not read: an Error).
 */
export function frameMask(frame: Phaser.Textures.Frame): FrameMask {
    checkFrame(frame);
    let m = custom.get(frame) ?? masks.get(frame);
    if (!m) {
        const atlas = atlases.get(frame.texture.manager.game)?.get(frame.texture.key);
        m = (atlas && fromAtlas(frame, atlas)) ?? fromPixels(frame);
        masks.set(frame, m);
    }
    // A mask from an atlas or setFrameMask is used, with a warning (fromPixels refused to read such a frame).
    if (frame.rotated === true && !warnedRotated.has(frame)) {
        warnedRotated.add(frame);
        console.warn(`hitmask: ${rotatedWhy(frame)}.`);
    }
    return m;
}

/**
 * Uses `mask` for `frame` (a render texture's, say), its top-left at (x, y) in the untrimmed frame; kept until {@link
 * forgetFrameMask}.
 */
export function setFrameMask(frame: Phaser.Textures.Frame, mask: Mask, x = 0, y = 0): void {
    checkFrame(frame);
    checkMask(mask, 'mask');
    checkFinite('x', x);
    checkFinite('y', y);
    custom.set(frame, { mask, x, y, width: frame.realWidth, height: frame.realHeight, source: 'custom' });
}

/**
 * Drops the cached (or given) mask of `frame`, after its texture's pixels changed (a canvas texture redrawn); the next
 * use rebuilds it.
 */
export function forgetFrameMask(frame: Phaser.Textures.Frame): void {
    masks.delete(frame);
    custom.delete(frame);
}

/**
 * Alpha above `value` (0..255) is solid when a frame's mask is read from its pixels; masks read so far are read again.
 * @default 127
 */
export function setAlphaThreshold(value: number): void {
    threshold = checkInt('threshold', value, 0, 255);
    masks = new WeakMap();
}
