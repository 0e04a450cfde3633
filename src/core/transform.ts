// Geometric transforms of masks: mirrors, quarter turns, scaling, crops, convolution, and general rotation and
// scale. Free functions, not Mask methods, so that a bundle pulls only the ones it calls.
import { rev32 } from '../base/bits.js';
import { checkCoord, checkFinite, checkInt, checkPositive, checkSize, outOfRange } from '../base/check.js';
import { checkBoolean, checkObject } from '../base/check-types.js';
import { MAX_TRANSFORM_PIXELS, TRANSFORM_CACHE_BYTES } from '../base/limits.js';
import * as trig from '../base/trig.js';
import { checkMask, Mask } from './mask.js';
import { boundingRect, eachSet } from './shape.js';

/** A body's flip, scale and rotation; rotation is about the untransformed mask's centre. */
export interface Transform {
    /** Rotation in radians, clockwise on screen (y down), quantised to the world's angle steps. @default 0 */
    angle?: number;
    /** Horizontal scale factor, > 0. @default 1 */
    scaleX?: number;
    /** Vertical scale factor, > 0. @default 1 */
    scaleY?: number;
    /** Mirror left to right before scaling and rotating. @default false */
    flipX?: boolean;
    /** Mirror top to bottom before scaling and rotating. @default false */
    flipY?: boolean;
}

/** A transformed mask and where its top-left lies relative to the body's floored position. */
export interface PlacedMask {
    mask: Mask;
    x: number;
    y: number;
}

/**
 * Rasterises `mask` flipped, scaled by (scaleX, scaleY) and rotated by `angle` radians (clockwise on
 * screen) about its centre (width/2, height/2), as `transform` says (the angle is used as given, not
 * quantised). Each destination pixel takes the source pixel under its centre mapped back through the
 * inverse transform (nearest neighbour). Quarter turns without scaling are exact: they use {@link rotate90}
 * and the flips, and an odd difference between width and height puts the half pixel toward the top-left.
 * General results are trimmed to their set pixels; one whose box before trimming would pass
 * `limits.transformPixels` (2^26) is refused with a RangeError before any work. The result is always a new mask (an
 * identity transform gives a copy), the caller's to dispose. The sine and cosine are computed without
 * `Math.sin/cos` (src/base/trig.ts), so every engine gives the same pixels.
 * @example const { mask: turned, x, y } = transformMask(bar, { angle: Math.PI / 4, flipX: true });
 */
export function transformMask(mask: Mask, transform: Transform = {}): PlacedMask {
    checkMask(mask, 'mask');
    checkObject('transform', transform, 'an object like { angle, scaleX, scaleY, flipX, flipY }');
    const { angle = 0, scaleX = 1, scaleY = 1, flipX = false, flipY = false } = transform;
    checkTransform(angle, scaleX, scaleY);
    checkFlip('flipX', flipX);
    checkFlip('flipY', flipY);
    return place(mask, angle, scaleX, scaleY, flipX, flipY);
}

// transformMask on checked arguments. Every intermediate mask is disposed: only the result stays alive.
function place(mask: Mask, angle: number, scaleX: number, scaleY: number, flipX: boolean, flipY: boolean): PlacedMask {
    const w = mask.width,
        h = mask.height;
    const turns = angle / (Math.PI / 2);
    if (scaleX === 1 && scaleY === 1 && Math.abs(turns - Math.round(turns)) < 1e-12) {
        const t = ((Math.round(turns) % 4) + 4) % 4;
        let m = flipX ? mirrorX(mask) : mask;
        if (flipY) m = replace(m, mask, mirrorY(m));
        if (t === 0) return { mask: m === mask ? mask.clone() : m, x: 0, y: 0 };
        m = replace(m, mask, rotate90(m, t));
        return t === 2 ? { mask: m, x: 0, y: 0 } : { mask: m, x: Math.floor((w - h) / 2), y: Math.floor((h - w) / 2) };
    }
    // Not Math.cos/sin: their last bits differ between engines, and a rotated pixel with them.
    const cos = trig.cos(angle),
        sin = trig.sin(angle);
    const sx = flipX ? -scaleX : scaleX,
        sy = flipY ? -scaleY : scaleY;
    const W = w * scaleX,
        H = h * scaleY;
    const ex = (Math.abs(cos) * W + Math.abs(sin) * H) / 2,
        ey = (Math.abs(sin) * W + Math.abs(cos) * H) / 2;
    const cx = w / 2,
        cy = h / 2;
    // Tolerance so that float noise in ex/ey does not add an empty row or column.
    const ox = Math.floor(cx - ex + 1e-9),
        oy = Math.floor(cy - ey + 1e-9);
    const dw = Math.max(0, Math.ceil(cx + ex - 1e-9) - ox),
        dh = Math.max(0, Math.ceil(cy + ey - 1e-9) - oy);
    if (w === 0 || h === 0) return { mask: new Mask(0, 0), x: 0, y: 0 };
    // Refused before anything is allocated or computed: each pixel of the box is computed.
    if (dw * dh > MAX_TRANSFORM_PIXELS)
        throw outOfRange(
            `transformMask(): ${w}x${h} scaled by ${scaleX} x ${scaleY} is ${dw}x${dh} = ${dw * dh} pixels, ` +
                `over the ${MAX_TRANSFORM_PIXELS} allowed (limits.transformPixels); scale less.`
        );
    const out = new Mask(dw, dh);
    const src = mask._words,
        dst = out._words;
    // Inverse map of a destination offset (qx, qy) from the centre: u = (cos qx + sin qy) / sx,
    // v = (−sin qx + cos qy) / sy; stepping one pixel right adds a constant, so two adds per pixel.
    const ux = cos / sx,
        vx = -sin / sy,
        uy = sin / sx,
        vy = cos / sy;
    for (let y = 0; y < dh; y++) {
        const qy = oy + y + 0.5 - cy,
            qx0 = ox + 0.5 - cx;
        let u = cx + ux * qx0 + uy * qy,
            v = cy + vx * qx0 + vy * qy;
        for (let x = 0; x < dw; x++, u += ux, v += vx) {
            if (u < 0 || v < 0 || u >= w || v >= h) continue;
            const px = Math.floor(u),
                py = Math.floor(v);
            if ((src[(px >>> 5) * h + py] >>> (px & 31)) & 1) dst[(x >>> 5) * dh + y] |= 1 << (x & 31);
        }
    }
    const t = trim(out);
    out.dispose();
    return { mask: t.mask, x: ox + t.x, y: oy + t.y };
}

// `next`, made from `m`: disposes `m` unless it is the caller's `mask`.
function replace(m: Mask, mask: Mask, next: Mask): Mask {
    if (m !== mask) m.dispose();
    return next;
}

/** Throws unless the transform parameters are usable. */
export function checkTransform(angle: unknown, scaleX: unknown, scaleY: unknown): void {
    checkFinite('angle', angle, ' of radians');
    checkPositive('scaleX', scaleX, 'a finite number > 0', '; use flipX/flipY to mirror');
    checkPositive('scaleY', scaleY, 'a finite number > 0', '; use flipX/flipY to mirror');
}

function checkFlip(name: string, flip: unknown): void {
    checkBoolean(name, flip, 'true or false');
}

// What an entry costs beyond its words: the Mask object, the entry record and its key.
const ENTRY_BYTES = 128;

// A cached transform: where it is kept (its source mask's `map`, under `key`) and what it costs.
interface Entry {
    map: Map<string, Entry>;
    key: string;
    placed: PlacedMask;
    bytes: number;
}

/** Options of {@link TransformCache}. */
export interface TransformCacheOptions {
    /**
     * Bytes of transformed masks kept (their words plus 128 bytes an entry); past it the least recently used entries
     * are dropped (and made anew on demand). @default limits.transformCacheBytes (64 MiB)
     */
    maxBytes?: number;
}

/**
 * Transformed masks cached per (mask, angle step, scale, flips). The angle is rounded to the nearest
 * of `steps` equal steps per turn; the scale is used exactly as given. The cache holds at most `maxBytes` of
 * masks, dropping the least recently used first (a scale tweened through many values makes one entry per value).
 * Dropped masks are not disposed: a World body or a caller may still hold one.
 */
export class TransformCache {
    /** Angle steps per full turn. */
    readonly steps: number;
    /** Bytes of transformed masks kept at most (words plus 128 bytes an entry). */
    readonly maxBytes: number;
    #cache = new WeakMap<Mask, Map<string, Entry>>();
    // Every entry, least recently used first.
    #order = new Set<Entry>();
    #held = 0;

    constructor(steps = 256, options: TransformCacheOptions = {}) {
        this.steps = checkInt('angleSteps', steps, 4, 65536);
        checkObject('options', options);
        this.maxBytes = checkInt('maxBytes', options.maxBytes ?? TRANSFORM_CACHE_BYTES, 0, 2 ** 53);
    }

    /** Bytes of transformed masks the cache holds now (words plus 128 bytes an entry), at most {@link maxBytes}. */
    get bytes(): number {
        return this.#held;
    }

    /** Drops every cached mask. */
    clear(): void {
        this.#cache = new WeakMap();
        this.#order.clear();
        this.#held = 0;
    }

    /**
     * Drops the cached transforms of `mask`: call it after changing the mask's pixels (they are made anew on demand).
     */
    forget(mask: Mask): void {
        checkMask(mask, 'mask');
        const map = this.#cache.get(mask);
        if (!map) return;
        for (const e of map.values()) this.#drop(e);
        this.#cache.delete(mask);
    }

    /** The quantised angle in radians that {@link get} uses for `angle`. */
    quantise(angle: number): number {
        const s = this.steps;
        return ((((Math.round((angle / (2 * Math.PI)) * s) % s) + s) % s) * 2 * Math.PI) / s;
    }

    /**
     * The transformed mask and its offset, rasterised on first use (the identity gives `mask` itself). The mask is
     * the cache's: do not change or dispose it. A transform past `limits.transformPixels` throws a RangeError.
     */
    get(mask: Mask, angle: number, scaleX: number, scaleY: number, flipX: boolean, flipY: boolean): PlacedMask {
        const s = this.steps;
        const step = ((Math.round((angle / (2 * Math.PI)) * s) % s) + s) % s;
        if (step === 0 && scaleX === 1 && scaleY === 1 && !flipX && !flipY) return { mask, x: 0, y: 0 };
        let map = this.#cache.get(mask);
        if (!map) this.#cache.set(mask, (map = new Map()));
        const key = `${step} ${scaleX} ${scaleY} ${flipX ? 1 : 0}${flipY ? 1 : 0}`;
        let e = map.get(key);
        if (e) {
            // Most recently used last.
            this.#order.delete(e);
            this.#order.add(e);
            return e.placed;
        }
        // Quarter turns are passed as exact multiples of π/2 so transformMask takes its exact path.
        const a = (step * 4) % s === 0 ? (((step * 4) / s) * Math.PI) / 2 : (step * 2 * Math.PI) / s;
        const placed = transformMask(mask, { angle: a, scaleX, scaleY, flipX: !!flipX, flipY: !!flipY });
        e = { map, key, placed, bytes: placed.mask.strips * placed.mask.height * 4 + ENTRY_BYTES };
        map.set(key, e);
        this.#order.add(e);
        this.#held += e.bytes;
        // The new entry stays even when it alone passes the budget: the caller is about to use it.
        for (const old of this.#order) {
            if (this.#held <= this.maxBytes || old === e) break;
            this.#drop(old);
        }
        return placed;
    }

    // Forgets one entry.
    #drop(e: Entry): void {
        this.#order.delete(e);
        e.map.delete(e.key);
        this.#held -= e.bytes;
    }
}

/**
 * `mask` scaled to a new `width` × `height` mask by nearest-neighbour sampling: pixel (x, y) takes source (⌊x·w/width⌋,
 * ⌊y·h/height⌋), as pygame.
 */
export function scale(m: Mask, width: number, height: number): Mask {
    checkMask(m, 'mask');
    checkSize('scale width', width);
    checkSize('scale height', height);
    const out = new Mask(width, height);
    if (m.width === 0 || m.height === 0 || width === 0) return out;
    const sw = m.width,
        sh = m.height,
        src = m._words,
        dst = out._words,
        strips = out.strips;
    const mapX = new Int32Array(width);
    for (let x = 0; x < width; x++) mapX[x] = Math.floor((x * sw) / width);
    let prevSy = -1;
    for (let y = 0; y < height; y++) {
        const sy = Math.floor((y * sh) / height);
        if (sy === prevSy) {
            for (let s = 0; s < strips; s++) dst[s * height + y] = dst[s * height + y - 1];
            continue;
        }
        prevSy = sy;
        for (let s = 0; s < strips; s++) {
            let w = 0;
            for (let b = 0, x = s << 5, n = Math.min(32, width - x); b < n; b++, x++) {
                const sx = mapX[x];
                if ((src[(sx >>> 5) * sh + sy] >>> (sx & 31)) & 1) w |= 1 << b;
            }
            dst[s * height + y] = w;
        }
    }
    return out;
}

/** A new mask: `mask` mirrored left to right. */
export function flipX(m: Mask): Mask {
    checkMask(m, 'mask');
    const { width, height, strips, words } = m;
    const out = new Mask(width, height);
    if (strips === 0) return out;
    const pad = (strips << 5) - width,
        dst = out._words;
    for (let y = 0; y < height; y++) {
        // Reversed row in a strips*32-wide frame has `pad` empty pixels first; shift them out.
        for (let k = 0; k < strips; k++) {
            const lo = rev32(words[(strips - 1 - k) * height + y]);
            const hi = k + 1 < strips ? rev32(words[(strips - 2 - k) * height + y]) : 0;
            dst[k * height + y] = pad === 0 ? lo : (lo >>> pad) | (hi << (32 - pad));
        }
    }
    return out;
}

// place()'s flipX/flipY arguments hide the functions of those names.
const mirrorX = (m: Mask): Mask => flipX(m),
    mirrorY = (m: Mask): Mask => flipY(m);

/** A new mask: `mask` mirrored top to bottom. */
export function flipY(m: Mask): Mask {
    checkMask(m, 'mask');
    const { width, height, strips, words } = m;
    const out = new Mask(width, height),
        dst = out._words;
    for (let s = 0; s < strips; s++) {
        const base = s * height;
        for (let y = 0; y < height; y++) dst[base + y] = words[base + height - 1 - y];
    }
    return out;
}

/**
 * A new mask: `mask` rotated by `turns` quarter turns clockwise on screen (y down); negative turns go anticlockwise.
 */
export function rotate90(m: Mask, turns = 1): Mask {
    checkMask(m, 'mask');
    checkInt('turns', turns, -(2 ** 31), 2 ** 31 - 1);
    const t = ((turns % 4) + 4) % 4;
    if (t === 0) return m.clone();
    if (t === 2) {
        const mirrored = flipX(m);
        const out = flipY(mirrored);
        mirrored.dispose();
        return out;
    }
    const { width: w, height: h } = m;
    const out = new Mask(h, w);
    // Clockwise: (x, y) -> (h - 1 - y, x); anticlockwise: (x, y) -> (y, w - 1 - x).
    eachSet(
        m,
        t === 1
            ? (x, y) => {
                  out._words[((h - 1 - y) >>> 5) * w + x] |= 1 << ((h - 1 - y) & 31);
              }
            : (x, y) => {
                  out._words[(y >>> 5) * w + (w - 1 - x)] |= 1 << (y & 31);
              }
    );
    return out;
}

/** The pixels of `mask` inside the rectangle (x, y, width, height) as a new mask; parts outside `mask` are clear. */
export function crop(m: Mask, x: number, y: number, width: number, height: number): Mask {
    checkMask(m, 'mask');
    x = checkCoord('x', x);
    y = checkCoord('y', y);
    return new Mask(checkSize('crop width', width), checkSize('crop height', height)).draw(m, -x, -y);
}

/**
 * The smallest mask holding every set pixel of `mask`, and its offset in `mask` (an empty mask gives 0×0 at (0, 0)).
 */
export function trim(m: Mask): { mask: Mask; x: number; y: number } {
    checkMask(m, 'mask');
    const r = boundingRect(m);
    if (!r) return { mask: new Mask(0, 0), x: 0, y: 0 };
    return { mask: crop(m, r.x, r.y, r.width, r.height), x: r.x, y: r.y };
}

/**
 * Convolution (pygame's): a mask of (w1 + w2 − 1) × (h1 + h2 − 1) where bit (i, j) is set iff
 * `a.overlaps(b, i − (b.width − 1), j − (b.height − 1))`.
 */
export function convolve(a: Mask, b: Mask): Mask {
    checkMask(a, 'a');
    checkMask(b, 'b');
    const out = new Mask(Math.max(0, a.width + b.width - 1), Math.max(0, a.height + b.height - 1));
    if (out.width === 0 || out.height === 0) return out;
    const ow = b.width - 1,
        oh = b.height - 1;
    eachSet(b, (x, y) => {
        out.draw(a, ow - x, oh - y);
    });
    return out;
}
