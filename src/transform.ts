import { checkInt, describe } from './check.js';
import { Mask } from './mask.js';

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
 * screen) about its centre (width/2, height/2). Each destination pixel takes the source pixel under
 * its centre mapped back through the inverse transform (nearest neighbour). Quarter turns without
 * scaling are exact: they use {@link Mask.rotate90} and the flips, and an odd difference between
 * width and height puts the half pixel toward the top-left. General results are trimmed to their set pixels.
 */
export function transformMask(mask: Mask, angle = 0, scaleX = 1, scaleY = 1, flipX = false, flipY = false): PlacedMask {
    if (!(mask instanceof Mask)) throw new TypeError(`mask must be a Mask, got ${describe(mask)}.`);
    checkTransform(angle, scaleX, scaleY);
    const w = mask.width, h = mask.height;
    const turns = angle / (Math.PI / 2);
    if (scaleX === 1 && scaleY === 1 && Math.abs(turns - Math.round(turns)) < 1e-12) {
        let m = flipX ? mask.flipX() : mask;
        if (flipY) m = m.flipY();
        const t = ((Math.round(turns) % 4) + 4) % 4;
        if (t === 0) return { mask: m === mask ? mask : m, x: 0, y: 0 };
        m = m.rotate90(t);
        return t === 2 ? { mask: m, x: 0, y: 0 } : { mask: m, x: Math.floor((w - h) / 2), y: Math.floor((h - w) / 2) };
    }
    const cos = Math.cos(angle), sin = Math.sin(angle);
    const sx = flipX ? -scaleX : scaleX, sy = flipY ? -scaleY : scaleY;
    const W = w * scaleX, H = h * scaleY;
    const ex = (Math.abs(cos) * W + Math.abs(sin) * H) / 2, ey = (Math.abs(sin) * W + Math.abs(cos) * H) / 2;
    const cx = w / 2, cy = h / 2;
    // Tolerance so that float noise in ex/ey does not add an empty row or column.
    const ox = Math.floor(cx - ex + 1e-9), oy = Math.floor(cy - ey + 1e-9);
    const dw = Math.max(0, Math.ceil(cx + ex - 1e-9) - ox), dh = Math.max(0, Math.ceil(cy + ey - 1e-9) - oy);
    if (w === 0 || h === 0) return { mask: new Mask(0, 0), x: 0, y: 0 };
    const out = new Mask(dw, dh);
    const src = mask.words, dst = out.words;
    // Inverse map of a destination offset (qx, qy) from the centre: u = (cos qx + sin qy) / sx,
    // v = (−sin qx + cos qy) / sy; stepping one pixel right adds a constant, so two adds per pixel.
    const ux = cos / sx, vx = -sin / sy, uy = sin / sx, vy = cos / sy;
    for (let y = 0; y < dh; y++) {
        const qy = oy + y + 0.5 - cy, qx0 = ox + 0.5 - cx;
        let u = cx + ux * qx0 + uy * qy, v = cy + vx * qx0 + vy * qy;
        for (let x = 0; x < dw; x++, u += ux, v += vx) {
            if (u < 0 || v < 0 || u >= w || v >= h) continue;
            const px = Math.floor(u), py = Math.floor(v);
            if ((src[(px >>> 5) * h + py] >>> (px & 31)) & 1) dst[(x >>> 5) * dh + y] |= 1 << (x & 31);
        }
    }
    const t = out.trim();
    return { mask: t.mask, x: ox + t.x, y: oy + t.y };
}

/** Throws unless the transform parameters are usable. */
export function checkTransform(angle: unknown, scaleX: unknown, scaleY: unknown): void {
    if (typeof angle !== 'number' || !Number.isFinite(angle)) throw new RangeError(`angle must be a finite number of radians, got ${describe(angle)}.`);
    for (const [name, s] of [['scaleX', scaleX], ['scaleY', scaleY]] as const) {
        if (typeof s !== 'number' || !Number.isFinite(s) || s <= 0) {
            throw new RangeError(`${name} must be a finite number > 0, got ${describe(s)}; use flipX/flipY to mirror.`);
        }
    }
}

// Entries kept per source mask before its cache is dropped and rebuilt on demand; bounds memory when
// a scale is tweened through many distinct values (each value is one entry).
const MAX_ENTRIES = 1024;

/**
 * Transformed masks cached per (mask, angle step, scale, flips). The angle is rounded to the nearest
 * of `steps` equal steps per turn; the scale is used exactly as given.
 */
export class TransformCache {
    /** Angle steps per full turn. */
    readonly steps: number;
    private cache = new WeakMap<Mask, Map<string, PlacedMask>>();

    constructor(steps = 256) {
        this.steps = checkInt('angleSteps', steps, 4, 65536);
    }

    /** Drops every cached mask. */
    clear(): void {
        this.cache = new WeakMap();
    }

    /** The quantised angle in radians that {@link get} uses for `angle`. */
    quantise(angle: number): number {
        const s = this.steps;
        return ((Math.round(angle / (2 * Math.PI) * s) % s + s) % s) * 2 * Math.PI / s;
    }

    /** The transformed mask and its offset, rasterised on first use. */
    get(mask: Mask, angle: number, scaleX: number, scaleY: number, flipX: boolean, flipY: boolean): PlacedMask {
        const s = this.steps;
        const step = (Math.round(angle / (2 * Math.PI) * s) % s + s) % s;
        if (step === 0 && scaleX === 1 && scaleY === 1 && !flipX && !flipY) return { mask, x: 0, y: 0 };
        let map = this.cache.get(mask);
        if (!map) this.cache.set(mask, map = new Map());
        const key = `${step} ${scaleX} ${scaleY} ${flipX ? 1 : 0}${flipY ? 1 : 0}`;
        let e = map.get(key);
        if (!e) {
            if (map.size >= MAX_ENTRIES) map.clear();
            // Quarter turns are passed as exact multiples of π/2 so transformMask takes its exact path.
            const a = (step * 4) % s === 0 ? (step * 4 / s) * Math.PI / 2 : step * 2 * Math.PI / s;
            map.set(key, e = transformMask(mask, a, scaleX, scaleY, flipX, flipY));
        }
        return e;
    }
}
