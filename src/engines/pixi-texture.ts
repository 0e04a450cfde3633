// Collision masks of PixiJS 7 and 8 textures: given with setFrameMask, taken from a `.hitmask` atlas, or read once
// per texture frame from the pixels of the texture's source (PixiJS 8's TextureSource, PixiJS 7's BaseTexture), and
// cached (weakly: a destroyed texture's mask goes with it). Types only from pixi.js: the adapter never loads PixiJS.
import type { Texture, TextureSource } from 'pixi.js';
import type { MaskAtlas } from '../core/atlas.js';
import type { AtlasFrame } from '../core/atlas-frame.js';
import { checkInt, describe, checkFinite, must, typeError, wrongType } from '../base/check.js';
import { checkObject } from '../base/check-types.js';
import { Mask, checkMask } from '../core/mask.js';
import { trim as trimMask } from '../core/transform.js';
import type { FrameMask } from './sprite.js';
import { isTexture7, type BaseTexture7, type Texture7, type Uvs } from './pixi7.js';

// A cached mask with what it was read from; `geometry` null = given or from an atlas, never re-read.
interface Entry {
    readonly frame: FrameMask;
    // The atlas that gave the mask (addMaskAtlas), else null.
    readonly atlas: MaskAtlas | null;
    readonly source: object | null;
    readonly geometry: Float64Array | null;
    readonly threshold: number;
}

// Alpha above this (0..255) is solid when a mask is read from pixels.
let threshold = 127;
const entries = new WeakMap<Texture, Entry>();

// The texture's source: PixiJS 8's TextureSource, PixiJS 7's BaseTexture (null once destroyed).
function sourceOf(t: Texture): object | null {
    return isTexture7(t) ? (t as unknown as Texture7).baseTexture : t.source;
}

// The source's size in pixels (its size in texture units times its resolution).
function pixelWidthOf(t: Texture): number {
    return isTexture7(t) ? (t as unknown as { baseTexture: BaseTexture7 }).baseTexture.realWidth : t.source.pixelWidth;
}

function pixelHeightOf(t: Texture): number {
    return isTexture7(t)
        ? (t as unknown as { baseTexture: BaseTexture7 }).baseTexture.realHeight
        : t.source.pixelHeight;
}

// The texture's name for messages: its label (PixiJS 8) or first cache id (PixiJS 7), else its or its source's uid.
function labelOf(t: Texture): string {
    if (!isTexture7(t)) return t.label ? `"${t.label}"` : `#${t.uid}`;
    const t7 = t as unknown as Texture7,
        id = t7.textureCacheIds?.[0];
    return id ? `"${id}"` : `#${t7.baseTexture?.uid ?? '?'}`;
}

// The numbers that decide which pixels a texture shows: frame, orig, trim, rotate, source size.
function geometryOf(t: Texture): Float64Array {
    const { frame, orig, trim } = t;
    return new Float64Array([
        frame.x,
        frame.y,
        frame.width,
        frame.height,
        orig.width,
        orig.height,
        trim ? 1 : 0,
        trim?.x ?? 0,
        trim?.y ?? 0,
        trim?.width ?? 0,
        trim?.height ?? 0,
        t.rotate,
        pixelWidthOf(t),
        pixelHeightOf(t)
    ]);
}

function sameGeometry(g: Float64Array, t: Texture): boolean {
    const { frame, orig, trim } = t;
    return (
        g[0] === frame.x &&
        g[1] === frame.y &&
        g[2] === frame.width &&
        g[3] === frame.height &&
        g[4] === orig.width &&
        g[5] === orig.height &&
        g[6] === (trim ? 1 : 0) &&
        g[7] === (trim?.x ?? 0) &&
        g[8] === (trim?.y ?? 0) &&
        g[9] === (trim?.width ?? 0) &&
        g[10] === (trim?.height ?? 0) &&
        g[11] === t.rotate &&
        g[12] === pixelWidthOf(t) &&
        g[13] === pixelHeightOf(t)
    );
}

function checkTexture(texture: unknown): Texture {
    const t = texture as Texture | null;
    if (
        t === null ||
        typeof t !== 'object' ||
        typeof t.orig !== 'object' ||
        typeof t.frame !== 'object' ||
        (typeof t.source !== 'object' && !isTexture7(t))
    ) {
        throw typeError('texture', 'a PixiJS Texture', texture);
    }
    // A destroyed texture keeps its object but loses its source: say so rather than fail reading null.
    if (t.destroyed || sourceOf(t) === null) {
        const name = isTexture7(t) ? (t as unknown as Texture7).textureCacheIds?.[0] : t.label;
        throw new Error(
            `texture ${name ? `"${name}" ` : ''}was destroyed; give the sprite a live texture (or stop testing it).`
        );
    }
    return t;
}

/**
 * The texture's collision mask and its offset in the untrimmed frame (`texture.orig`): the one given with
 * {@link setFrameMask} or bound by {@link addMaskAtlas}, else read from the texture's pixels on first use. A texture
 * whose frame, trim, rotation or source size changes since is read again.
 */
export function frameMask(texture: Texture): FrameMask {
    const t = checkTexture(texture);
    const e = entries.get(t);
    if (
        e &&
        (e.geometry === null || (e.source === sourceOf(t) && e.threshold === threshold && sameGeometry(e.geometry, t)))
    )
        return e.frame;
    const frame = readTextureMask(t, threshold);
    entries.set(t, { frame, atlas: null, source: sourceOf(t), geometry: geometryOf(t), threshold });
    return frame;
}

function bind(t: Texture, mask: Mask, x: number, y: number, atlas: MaskAtlas | null): void {
    entries.set(t, {
        frame: { mask, x, y, width: t.orig.width, height: t.orig.height, source: atlas ? 'atlas' : 'custom' },
        atlas,
        source: null,
        geometry: null,
        threshold
    });
}

/**
 * Uses `mask` for `texture` (a RenderTexture's, say), its top-left at (x, y) in the untrimmed frame; kept until {@link
 * forgetFrameMask}.
 */
export function setFrameMask(texture: Texture, mask: Mask, x = 0, y = 0): void {
    const t = checkTexture(texture);
    checkMask(mask, 'mask');
    checkFinite('x', x);
    checkFinite('y', y);
    bind(t, mask, x, y, null);
}

/** Forgets the texture's mask (after its pixels changed: a video or canvas redrawn); the next use reads it again. */
export function forgetFrameMask(texture: Texture): void {
    entries.delete(texture);
}

/**
 * Alpha above `value` (0..255) is solid when a texture's mask is read from its pixels; masks read so far are read
 * again. @default 127
 */
export function setAlphaThreshold(value: number): void {
    threshold = checkInt('threshold', value, 0, 255);
}

/**
 * Binds the masks of a `.hitmask` atlas to the textures of the same names (e.g. a Spritesheet's `textures`; the
 * same call as hitmask/phaser's, which takes texture keys and the game): each
 * frame's mask at its trim offset, kept until {@link forgetFrameMask}. Returns how many textures got one; names
 * missing on either side are skipped. A frame whose source size is not its texture's is an Error, and then nothing is
 * bound.
 */
export function addMaskAtlas(
    atlas: MaskAtlas,
    textures: Readonly<Record<string, Texture>> | ReadonlyMap<string, Texture>
): number {
    if (atlas === null || typeof atlas !== 'object' || typeof atlas.frame !== 'function')
        throw typeError('atlas', 'a MaskAtlas', atlas);
    checkObject('textures', textures, 'a record or Map of Textures by name');
    const pairs = textures instanceof Map ? [...textures] : Object.entries(textures as Record<string, Texture>);
    // Every pair is checked before any is bound: a mistake binds nothing.
    const found: [Texture, AtlasFrame][] = [];
    for (const [name, texture] of pairs) {
        if (!atlas.has(name)) continue;
        const t = checkTexture(texture),
            f = atlas.frame(name);
        if (f.sourceWidth !== t.orig.width || f.sourceHeight !== t.orig.height) {
            throw new Error(
                `addMaskAtlas(): hitmask atlas frame "${name}" is ${f.sourceWidth}x${f.sourceHeight}, but its texture is ${t.orig.width}x${t.orig.height}; was the atlas built from the same images?`
            );
        }
        found.push([t, f]);
    }
    for (const [t, f] of found) bind(t, f.mask, f.x, f.y, atlas);
    return found.length;
}

/** The atlas that gives the texture its mask ({@link addMaskAtlas}), if any. */
export function maskAtlasFor(texture: Texture): MaskAtlas | undefined {
    return entries.get(checkTexture(texture))?.atlas ?? undefined;
}

let canvas: OffscreenCanvas | HTMLCanvasElement | null = null;

// What pixels a source holds: an element or bitmap to draw, or bytes and whether they are 8-bit RGBA (or BGRA).
interface Pixels {
    resource: unknown;
    rgba8: boolean;
    format: string;
    pw: number;
    ph: number;
}

// PixiJS 8: the TextureSource's resource; PixiJS 7: the BaseTexture resource's `data` (a BufferResource's bytes,
// RGBA = 6408 of UNSIGNED_BYTE = 5121) or `source` (an image, canvas, bitmap or video); null for none.
function pixelsOf(t: Texture): Pixels {
    if (!isTexture7(t)) {
        const src: TextureSource = t.source,
            f = src.format;
        const rgba8 = f === 'rgba8unorm' || f === 'bgra8unorm' || f === 'rgba8unorm-srgb' || f === 'bgra8unorm-srgb';
        return { resource: src.resource, rgba8, format: String(f), pw: src.pixelWidth, ph: src.pixelHeight };
    }
    const bt = (t as unknown as { baseTexture: BaseTexture7 }).baseTexture;
    const r = bt.resource as { data?: unknown; source?: unknown } | null | undefined;
    const resource =
        r === null || typeof r !== 'object' ? null : ArrayBuffer.isView(r.data) ? r.data : (r.source ?? null);
    return {
        resource,
        rgba8: bt.format === 6408 && bt.type === 5121,
        format: `${bt.format} (type ${bt.type})`,
        pw: bt.realWidth,
        ph: bt.realHeight
    };
}

// RGBA bytes of a rectangle of the source's pixels, row-major.
function readPixels(
    source: Pixels,
    x: number,
    y: number,
    w: number,
    h: number,
    label: string
): Uint8Array | Uint8ClampedArray {
    const res = source.resource;
    if (ArrayBuffer.isView(res)) {
        if (!source.rgba8 || !(res instanceof Uint8Array || res instanceof Uint8ClampedArray)) {
            const got = `format ${source.format} in ${describe(res)}`;
            throw wrongType(must(`texture ${label}: a buffer source`, 'hold 8-bit RGBA or BGRA bytes', got));
        }
        const pw = source.pw;
        if (res.length < pw * source.ph * 4)
            throw new Error(`texture ${label}: its buffer holds ${res.length} bytes, expected ${pw * source.ph * 4}.`);
        const out = new Uint8Array(w * h * 4);
        for (let r = 0; r < h; r++)
            out.set(res.subarray(((y + r) * pw + x) * 4, ((y + r) * pw + x + w) * 4), r * w * 4);
        return out;
    }
    if (res === null || typeof res !== 'object' || !('width' in res)) {
        throw wrongType(
            `texture ${label} has no pixels to read (got resource ${describe(res)}; a RenderTexture lives on the GPU): ` +
                'give it a mask with setFrameMask(texture, mask), e.g. from renderer.extract.pixels(texture) and Mask.fromRGBA.'
        );
    }
    canvas ??= typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(w, h) : document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    const ctx = canvas.getContext('2d', { willReadFrequently: true }) as
        OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
    if (!ctx) throw new Error('no 2D canvas context to read texture pixels with.');
    ctx.clearRect(0, 0, w, h);
    ctx.drawImage(res as CanvasImageSource, x, y, w, h, 0, 0, w, h);
    return ctx.getImageData(0, 0, w, h).data;
}

/**
 * Reads the mask of what `texture` shows (alpha > threshold): one mask pixel per texture unit of the sprite's quad,
 * sampled at the pixel's centre through the texture's UVs, so frame, trim, resolution and packed rotation all count.
 * The result is trimmed to its set pixels; (x, y) place it in the untrimmed frame.
 */
function readTextureMask(t: Texture, threshold: number): FrameMask {
    const src = pixelsOf(t),
        trim = t.trim;
    const W = trim ? trim.width : t.orig.width,
        H = trim ? trim.height : t.orig.height;
    const w = Math.max(0, Math.ceil(W - 1e-9)),
        h = Math.max(0, Math.ceil(H - 1e-9));
    const ox = trim ? trim.x : 0,
        oy = trim ? trim.y : 0;
    const label = labelOf(t);
    const frame = (mask: Mask, x: number, y: number): FrameMask => ({
        mask,
        x,
        y,
        width: t.orig.width,
        height: t.orig.height,
        source: 'pixels'
    });
    // Texture.EMPTY (a new Sprite's texture) shows nothing: an empty mask, not the no-pixels error. PixiJS 8 labels
    // it; PixiJS 7's is the one without a resource whose BaseTexture never became valid.
    const empty =
        src.resource == null &&
        (isTexture7(t) ? !(t as unknown as { baseTexture: BaseTexture7 }).baseTexture.valid : t.label === 'EMPTY');
    if (w === 0 || h === 0 || empty) return frame(new Mask(0, 0), ox, oy);
    // Texel of quad point (s, t) in quad units: corner 0 (top-left) + s·(corner 1 − corner 0)/W + t·(corner 3 − corner
    // 0)/H.
    const uvs: Uvs = isTexture7(t) ? (t as unknown as { _uvs: Uvs })._uvs : t.uvs,
        { pw, ph } = src;
    const x0 = uvs.x0 * pw,
        y0 = uvs.y0 * ph;
    const ux = ((uvs.x1 - uvs.x0) * pw) / W,
        uy = ((uvs.y1 - uvs.y0) * ph) / W;
    const vx = ((uvs.x3 - uvs.x0) * pw) / H,
        vy = ((uvs.y3 - uvs.y0) * ph) / H;
    const xs = [uvs.x0, uvs.x1, uvs.x2, uvs.x3].map(u => u * pw),
        ys = [uvs.y0, uvs.y1, uvs.y2, uvs.y3].map(v => v * ph);
    const rx = Math.max(0, Math.floor(Math.min(...xs) + 1e-9)),
        ry = Math.max(0, Math.floor(Math.min(...ys) + 1e-9));
    const rw = Math.min(pw, Math.ceil(Math.max(...xs) - 1e-9)) - rx,
        rh = Math.min(ph, Math.ceil(Math.max(...ys) - 1e-9)) - ry;
    if (rw <= 0 || rh <= 0) return frame(new Mask(0, 0), ox, oy);
    const px = readPixels(src, rx, ry, rw, rh, label);
    let mask: Mask;
    if (ux === 1 && vy === 1 && uy === 0 && vx === 0 && x0 === rx && y0 === ry && w === rw && h === rh) {
        mask = Mask.fromRGBA(px, w, h, { threshold });
    } else {
        // Rotated (groupD8), scaled (resolution ≠ 1) or cut frames: sample each quad pixel's centre.
        const rgba = new Uint8Array(w * h * 4);
        for (let j = 0; j < h; j++) {
            for (let i = 0; i < w; i++) {
                const sx = Math.floor(x0 + ux * (i + 0.5) + vx * (j + 0.5)) - rx,
                    sy = Math.floor(y0 + uy * (i + 0.5) + vy * (j + 0.5)) - ry;
                if (sx >= 0 && sy >= 0 && sx < rw && sy < rh) rgba[(j * w + i) * 4 + 3] = px[(sy * rw + sx) * 4 + 3];
            }
        }
        mask = Mask.fromRGBA(rgba, w, h, { threshold });
    }
    const trimmed = trimMask(mask);
    if (trimmed.mask !== mask) mask.dispose();
    return frame(trimmed.mask, ox + trimmed.x, oy + trimmed.y);
}
