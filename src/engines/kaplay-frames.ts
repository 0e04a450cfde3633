// Collision masks of Kaplay sprite frames: given with setFrameMask, from a `.hitmask` atlas bound to the sprite's
// name, or read once from the frame's texels. Kaplay keeps no picture of a packed sprite on the CPU (its packer's
// canvas is reused), so the texels are read back from the WebGL texture. The Kaplay context that names the sprites
// comes from `hitmaskPlugin`. Type-only Kaplay import: nothing of Kaplay is bundled from here.
import type { KAPLAYCtx, SpriteData, Texture } from 'kaplay';
import { checkFinite, checkInt, describe, typeError, wrongType } from '../base/check.js';
import { Mask, checkMask } from '../core/mask.js';
import { MaskAtlas } from '../core/atlas.js';
import { trim } from '../core/transform.js';
import type { FrameMask } from './sprite.js';

/** One frame of a Kaplay sprite: its loaded data (`getSprite(name).data`) and the frame's index in it. */
export interface KaplayFrame {
    readonly data: SpriteData;
    readonly frame: number;
}

// The Kaplay context whose sprites the names mean (set by hitmaskPlugin).
let ctx: Pick<KAPLAYCtx, 'getSprite'> | null = null;
// Alpha above this is solid when a mask is read from texels.
let threshold = 127;
// Per sprite name, the atlas bound to it.
const atlases = new Map<string, MaskAtlas>();
// Per sprite data, its frames' masks from an atlas or the texels: dropped (a new map) when an atlas is bound or the
// threshold changes.
let masks = new WeakMap<SpriteData, Map<number, FrameMask>>();
// Per sprite data, masks given with setFrameMask: kept until forgetFrameMask.
const custom = new WeakMap<SpriteData, Map<number, FrameMask>>();

/** @internal Makes `k` the context whose sprite names the adapter resolves (hitmaskPlugin calls it). */
export function useKaplay(k: Pick<KAPLAYCtx, 'getSprite'>): void {
    if (typeof k !== 'object' || k === null || typeof k.getSprite !== 'function')
        throw typeError('k', 'a Kaplay context (what kaplay() returns)', k);
    ctx = k;
}

/** @internal The loaded data of the sprite named `name`; throws when no context is known or it is not loaded. */
export function spriteData(name: string): SpriteData {
    if (!ctx) {
        throw new Error(
            `hitmask/kaplay does not know the Kaplay context that names sprite "${name}": ` +
                'pass hitmaskPlugin to kaplay({ plugins: [hitmaskPlugin] }).'
        );
    }
    const data = ctx.getSprite(name)?.data;
    if (!data) throw new Error(`sprite "${name}" is not loaded (loadSprite it and wait for onLoad).`);
    return data;
}

function checkFrame(frame: unknown): asserts frame is KaplayFrame {
    const f = frame as Partial<KaplayFrame> | null;
    if (
        typeof f !== 'object' ||
        f === null ||
        typeof f.data !== 'object' ||
        f.data === null ||
        !Array.isArray(f.data.frames) ||
        typeof f.data.tex !== 'object'
    ) {
        throw typeError('frame', 'a Kaplay frame { data: SpriteData, frame: number }', frame);
    }
    checkInt('frame.frame', f.frame, 0, f.data.frames.length - 1);
}

// The frame's rectangle in texels of its texture (float: Kaplay's quads are fractions of the texture).
function texelRect(data: SpriteData, index: number): { x: number; y: number; w: number; h: number } {
    const q = data.frames[index],
        t = data.tex;
    return { x: q.x * t.width, y: q.y * t.height, w: q.w * t.width, h: q.h * t.height };
}

// RGBA bytes of the texels [x, x + w) × [y, y + h) of a texture, read through a temporary framebuffer; rows top first
// (Kaplay uploads images without flipping them).
function readTexels(tex: Texture, x: number, y: number, w: number, h: number): Uint8Array {
    const gl = (tex as unknown as { ctx: { gl: WebGLRenderingContext } }).ctx.gl;
    const previous = gl.getParameter(gl.FRAMEBUFFER_BINDING) as WebGLFramebuffer | null;
    const fb = gl.createFramebuffer();
    if (!fb) throw new Error('no WebGL framebuffer to read a Kaplay texture with.');
    const out = new Uint8Array(w * h * 4);
    try {
        gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
        gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex.glTex, 0);
        if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE)
            throw new Error('a Kaplay texture cannot be read back (incomplete framebuffer); give it setFrameMask.');
        gl.readPixels(x, y, w, h, gl.RGBA, gl.UNSIGNED_BYTE, out);
    } finally {
        gl.bindFramebuffer(gl.FRAMEBUFFER, previous);
        gl.deleteFramebuffer(fb);
    }
    return out;
}

function fromTexels(data: SpriteData, index: number): FrameMask {
    const r = texelRect(data, index);
    const w = Math.max(0, Math.ceil(r.w - 1e-9)),
        h = Math.max(0, Math.ceil(r.h - 1e-9));
    const frame = (mask: Mask, x: number, y: number): FrameMask => ({
        mask,
        x,
        y,
        width: r.w,
        height: r.h,
        source: 'pixels'
    });
    if (w === 0 || h === 0) return frame(new Mask(0, 0), 0, 0);
    // The whole texels the frame touches; a frame pixel takes the texel under its centre.
    const rx = Math.max(0, Math.floor(r.x + 1e-9)),
        ry = Math.max(0, Math.floor(r.y + 1e-9));
    const rw = Math.min(data.tex.width, Math.ceil(r.x + r.w - 1e-9)) - rx,
        rh = Math.min(data.tex.height, Math.ceil(r.y + r.h - 1e-9)) - ry;
    if (rw <= 0 || rh <= 0) return frame(new Mask(0, 0), 0, 0);
    const px = readTexels(data.tex, rx, ry, rw, rh);
    let mask: Mask;
    if (rx === r.x && ry === r.y && rw === w && rh === h) mask = Mask.fromRGBA(px, w, h, { threshold });
    else {
        const rgba = new Uint8Array(w * h * 4);
        for (let j = 0; j < h; j++) {
            const sy = Math.floor(r.y + j + 0.5) - ry;
            for (let i = 0; i < w; i++) {
                const sx = Math.floor(r.x + i + 0.5) - rx;
                if (sx >= 0 && sy >= 0 && sx < rw && sy < rh) rgba[(j * w + i) * 4 + 3] = px[(sy * rw + sx) * 4 + 3];
            }
        }
        mask = Mask.fromRGBA(rgba, w, h, { threshold });
    }
    const t = trim(mask);
    if (t.mask !== mask) mask.dispose();
    return frame(t.mask, t.x, t.y);
}

// The name a bound atlas knows `data` by, if any (names are few: one look-up per bound name).
function boundName(data: SpriteData): string | null {
    if (!ctx) return null;
    for (const name of atlases.keys()) if (ctx.getSprite(name)?.data === data) return name;
    return null;
}

function fromAtlas(data: SpriteData, index: number): FrameMask | null {
    const name = boundName(data);
    if (name === null) return null;
    const atlas = atlases.get(name) as MaskAtlas;
    // A grid sheet's frames are `name/0`, `name/1`, … (hitmask build --grid); a single image is `name`.
    const pick = atlas.has(`${name}/${index}`)
        ? `${name}/${index}`
        : index === 0 && data.frames.length === 1 && atlas.has(name)
          ? name
          : null;
    if (pick === null) return null;
    const f = atlas.frame(pick),
        r = texelRect(data, index);
    if (Math.abs(f.sourceWidth - r.w) > 1e-6 || Math.abs(f.sourceHeight - r.h) > 1e-6) {
        throw new Error(
            `hitmask atlas frame "${pick}" is ${f.sourceWidth}x${f.sourceHeight}, but sprite "${name}" frame ${index} ` +
                `is ${r.w}x${r.h}; was the atlas built from the same images?`
        );
    }
    return { mask: f.mask, x: f.x, y: f.y, width: r.w, height: r.h, source: 'atlas' };
}

/**
 * The collision mask of a sprite frame, built on first use and cached: the one given with {@link setFrameMask};
 * else from the atlas bound to the sprite's name ({@link addMaskAtlas}) when it holds the frame; else from the
 * frame's texels (alpha above the threshold), read back once from the WebGL texture. Trimmed to its set pixels, its
 * offset in the frame kept.
 */
export function frameMask(frame: KaplayFrame): FrameMask {
    checkFrame(frame);
    const { data, frame: index } = frame;
    const given = custom.get(data)?.get(index);
    if (given) return given;
    let byIndex = masks.get(data);
    const cached = byIndex?.get(index);
    if (cached) return cached;
    const m = fromAtlas(data, index) ?? fromTexels(data, index);
    if (!byIndex) masks.set(data, (byIndex = new Map()));
    byIndex.set(index, m);
    return m;
}

/** Uses `mask` for `frame`, its top-left at (x, y) in the frame; kept until {@link forgetFrameMask}. */
export function setFrameMask(frame: KaplayFrame, mask: Mask, x = 0, y = 0): void {
    checkFrame(frame);
    checkMask(mask, 'mask');
    checkFinite('x', x);
    checkFinite('y', y);
    const r = texelRect(frame.data, frame.frame);
    let byIndex = custom.get(frame.data);
    if (!byIndex) custom.set(frame.data, (byIndex = new Map()));
    byIndex.set(frame.frame, { mask, x, y, width: r.w, height: r.h, source: 'custom' });
}

/** Drops the frame's cached or given mask (after its texels changed); the next use builds it again. */
export function forgetFrameMask(frame: KaplayFrame): void {
    checkFrame(frame);
    masks.get(frame.data)?.delete(frame.frame);
    custom.get(frame.data)?.delete(frame.frame);
}

/**
 * Alpha above `value` (0..255) is solid when a frame's mask is read from its texels; masks read so far are read
 * again. @default 127
 */
export function setAlphaThreshold(value: number): void {
    threshold = checkInt('threshold', value, 0, 255);
    masks = new WeakMap();
}

/**
 * Binds `atlas` to the sprites named `names` (as loadSprite names them): frame i of a sprite takes atlas frame
 * `name/i` (a grid sheet built with `hitmask build --grid`), a one-frame sprite the atlas frame `name`. Returns how
 * many frames of those sprites, among the loaded ones, the atlas has a mask for (a sprite loaded later binds all the
 * same). A frame whose size is not the atlas frame's source size is an Error when it is used.
 */
export function addMaskAtlas(atlas: MaskAtlas, names: string | readonly string[]): number {
    if (!(atlas instanceof MaskAtlas)) throw typeError('atlas', 'a MaskAtlas', atlas);
    const list = typeof names === 'string' ? [names] : names;
    if (!Array.isArray(list) || list.some(k => typeof k !== 'string'))
        throw typeError('names', 'a sprite name or an array of them', names);
    for (const n of list) atlases.set(n, atlas);
    masks = new WeakMap();
    let matched = 0;
    for (const n of new Set(list)) {
        const data = ctx?.getSprite(n)?.data;
        if (!data) continue;
        for (let i = 0; i < data.frames.length; i++)
            if (atlas.has(`${n}/${i}`) || (data.frames.length === 1 && atlas.has(n))) matched++;
    }
    return matched;
}

/** The atlas bound to the frame's sprite (by {@link addMaskAtlas}), if any. */
export function maskAtlasFor(frame: KaplayFrame): MaskAtlas | undefined {
    checkFrame(frame);
    const name = boundName(frame.data);
    return name === null ? undefined : atlases.get(name);
}

/** @internal Throws a TypeError naming what a Kaplay sprite's name was instead of a string. */
export function checkSpriteName(name: unknown): asserts name is string {
    if (typeof name !== 'string' || name === '' || name === '[object Object]')
        throw wrongType(
            'hitmask/kaplay reads sprites by name: use sprite("name") after loadSprite("name", …), ' +
                `got sprite ${describe(name)}.`
        );
}
