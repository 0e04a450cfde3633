// Collision masks of Phaser 4 texture frames: from a `.hitmask` atlas bound to the texture, or read once
// from the frame's pixels. Type-only Phaser import: nothing of Phaser is bundled from here.
import type * as Phaser from 'phaser';
import { describe } from '../base/check.js';
import { Mask } from '../core/mask.js';
import { MaskAtlas } from '../core/atlas.js';
import { trim } from '../core/transform.js';

/** A frame's collision mask and where it sits inside the untrimmed frame (`frame.realWidth` × `frame.realHeight`). */
export interface FrameMask {
    readonly mask: Mask;
    /** Offset of the mask's top-left in the untrimmed frame (trim offset plus the mask's own trim). */
    readonly x: number;
    readonly y: number;
    /** Size of the untrimmed frame, as Phaser draws it. */
    readonly width: number;
    readonly height: number;
    /** Where the mask came from: a bound atlas, or the frame's pixels. */
    readonly source: 'atlas' | 'pixels';
}

// Phaser's name for the frame covering a whole single-image texture.
const BASE = '__BASE';
// Alpha above this is solid when a mask is read from pixels (as Mask.fromImageData's default).
const THRESHOLD = 127;

// Per game (the texture manager's game), the atlas bound to each texture key.
const atlases = new WeakMap<Phaser.Game, Map<string, MaskAtlas>>();
// Per frame, its mask: built once, dropped when an atlas is bound (a new map).
let masks = new WeakMap<Phaser.Textures.Frame, FrameMask>();

/**
 * Binds `atlas` to the textures named `textures` of `game`: their frames take their masks from it (frame
 * `name`; a single-image texture's frame from the atlas frame named like the texture, or the atlas's only frame).
 */
export function addMaskAtlas(game: Phaser.Game, atlas: MaskAtlas, textures: string | readonly string[]): void {
    if (!(atlas instanceof MaskAtlas)) throw new TypeError(`atlas must be a MaskAtlas, got ${describe(atlas)}.`);
    if (typeof game !== 'object' || game === null) throw new TypeError(`game must be a Phaser.Game, got ${describe(game)}.`);
    const keys = typeof textures === 'string' ? [textures] : textures;
    if (!Array.isArray(keys) || keys.some(k => typeof k !== 'string')) {
        throw new TypeError(`textures must be a texture key or an array of them, got ${describe(textures)}.`);
    }
    let map = atlases.get(game);
    if (!map) atlases.set(game, map = new Map());
    for (const k of keys) map.set(k, atlas);
    // Masks already read from pixels for these textures must give way to the atlas.
    masks = new WeakMap();
}

/** The atlas bound to texture `key` of `game`, if any. */
export function maskAtlasFor(game: Phaser.Game, key: string): MaskAtlas | undefined {
    return atlases.get(game)?.get(key);
}

function fromAtlas(frame: Phaser.Textures.Frame, atlas: MaskAtlas): FrameMask | null {
    const tex = frame.texture.key, name = String(frame.name);
    const pick = name === BASE ? (atlas.has(tex) ? tex : atlas.size === 1 ? atlas.names[0] : null)
        : atlas.has(name) ? name : atlas.has(`${tex}/${name}`) ? `${tex}/${name}` : null;
    if (pick === null) return null;
    const f = atlas.frame(pick);
    if (f.sourceWidth !== frame.realWidth || f.sourceHeight !== frame.realHeight) {
        throw new Error(`hitmask atlas frame "${pick}" is ${f.sourceWidth}x${f.sourceHeight}, but texture "${tex}" frame "${name}" is ` +
            `${frame.realWidth}x${frame.realHeight}; was the atlas built from the same images?`);
    }
    return { mask: f.mask, x: f.x, y: f.y, width: frame.realWidth, height: frame.realHeight, source: 'atlas' };
}

function fromPixels(frame: Phaser.Textures.Frame): FrameMask {
    const src = frame.source, what = `texture "${frame.texture.key}" frame "${String(frame.name)}"`;
    if (frame.rotated) throw new Error(`${what} is rotated in its atlas; load a .hitmask atlas for it (hitmask build turns rotated frames upright).`);
    if (src.resolution !== 1) throw new Error(`${what}: texture resolution ${src.resolution} is not supported (expected 1).`);
    const image = src.image as unknown;
    const drawable = typeof HTMLImageElement !== 'undefined' && image instanceof HTMLImageElement ||
        typeof HTMLCanvasElement !== 'undefined' && image instanceof HTMLCanvasElement ||
        typeof ImageBitmap !== 'undefined' && image instanceof ImageBitmap ||
        typeof OffscreenCanvas !== 'undefined' && image instanceof OffscreenCanvas;
    if (src.isRenderTexture || src.isGLTexture || !drawable) {
        throw new Error(`${what}: its pixels are not in an image or canvas (render or GPU texture); load a .hitmask atlas for it.`);
    }
    const w = frame.cutWidth, h = frame.cutHeight;
    let region: Mask;
    if (w === 0 || h === 0) region = new Mask(0, 0);
    else {
        const canvas = document.createElement('canvas');
        canvas.width = w;
        canvas.height = h;
        const ctx = canvas.getContext('2d', { willReadFrequently: true });
        if (!ctx) throw new Error(`${what}: no 2D canvas context to read its pixels.`);
        ctx.drawImage(image as CanvasImageSource, frame.cutX, frame.cutY, w, h, 0, 0, w, h);
        region = Mask.fromImageData(ctx.getImageData(0, 0, w, h), { threshold: THRESHOLD });
    }
    // Trim to the set pixels: smaller masks to rotate and test; the offset keeps them in place.
    const t = trim(region);
    return { mask: t.mask, x: frame.x + t.x, y: frame.y + t.y, width: frame.realWidth, height: frame.realHeight, source: 'pixels' };
}

/**
 * The collision mask of a texture frame, built on first use and cached per frame: from the atlas bound
 * to its texture ({@link addMaskAtlas}, `this.load.hitmask`) when it holds the frame, else from the
 * frame's pixels (alpha > 127), read once through a canvas. Trimmed frames keep their trim offset.
 */
export function frameMask(frame: Phaser.Textures.Frame): FrameMask {
    if (typeof frame !== 'object' || frame === null || typeof frame.texture !== 'object') {
        throw new TypeError(`frame must be a Phaser.Textures.Frame, got ${describe(frame)}.`);
    }
    let m = masks.get(frame);
    if (m) return m;
    const atlas = maskAtlasFor(frame.texture.manager.game, frame.texture.key);
    m = (atlas && fromAtlas(frame, atlas)) ?? fromPixels(frame);
    masks.set(frame, m);
    return m;
}

/** Drops the cached mask of `frame` (after its texture's pixels changed: a canvas texture redrawn); the next use rebuilds it. */
export function forgetFrameMask(frame: Phaser.Textures.Frame): void {
    masks.delete(frame);
}
