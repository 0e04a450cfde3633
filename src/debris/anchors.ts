// The anchors of detachIslands, checked and read into what the flood seeds from: rectangles as pixel ranges, and
// masks, raster planes or any other CollisionLayer as planes of words at the layer's origin.
import { checkFinite, checkNonNegative, typeError } from '../base/check.js';
import { checkObject } from '../base/check-types.js';
import type { Rect } from '../base/types.js';
import { checkMask, isMaskObject, Mask } from '../core/mask.js';
import { wordsOf } from '../kernels/mask-words.js';
import { asLayer, type CollisionLayer } from '../layers/layer.js';
import { RasterView } from '../raster/raster.js';

/** The ground of {@link detachIslands}: rectangles, a mask at (0, 0), or a layer whose solid pixels hold. */
export type Anchors = readonly Rect[] | Mask | CollisionLayer;

/** @internal A plane of anchor pixels at the layer's origin, in the strip layout. */
export interface AnchorPlane {
    words: Int32Array;
    height: number;
    strips: number;
}

/** @internal Anchors read for a `w` × `h` layer: rectangles as x0, y0, x1, y1 (exclusive ends), and planes. */
export interface Ground {
    rects: number[];
    planes: AnchorPlane[];
}

const EXPECTED = 'an array of rectangles { x, y, width, height }, a Mask or a CollisionLayer';

const planeOf = (m: Mask): AnchorPlane => {
    const w = wordsOf(m);
    return { words: new Int32Array(w.buffer, w.byteOffset, w.length), height: m.height, strips: m.strips };
};

/** @internal Checks `anchors` (nothing is changed before this returns) and reads them for a `w` × `h` layer. */
export function anchorsOf(anchors: unknown, w: number, h: number): Ground {
    const ground: Ground = { rects: [], planes: [] };
    if (Array.isArray(anchors)) {
        // Pixel px is in a rectangle when x <= px < x + width; ends are clamped near the layer, so a rectangle
        // of any finite size costs at most the layer's words.
        const clamp = (v: number, max: number) => Math.min(Math.max(v, -2), max + 2);
        for (let k = 0; k < anchors.length; k++) {
            const r: unknown = anchors[k];
            const name = `anchors[${k}]`;
            checkObject(name, r, 'a rectangle { x, y, width, height }');
            const { x, y, width, height } = r as Rect;
            checkFinite(`${name}.x`, x);
            checkFinite(`${name}.y`, y);
            checkNonNegative(`${name}.width`, width, 'a finite number >= 0 (pixels)');
            checkNonNegative(`${name}.height`, height, 'a finite number >= 0 (pixels)');
            const x0 = clamp(Math.ceil(x), w),
                y0 = clamp(Math.ceil(y), h),
                x1 = clamp(Math.ceil(x + width), w),
                y1 = clamp(Math.ceil(y + height), h);
            if (x1 > x0 && y1 > y0) ground.rects.push(x0, y0, x1, y1);
        }
        return ground;
    }
    if (isMaskObject(anchors)) {
        checkMask(anchors, 'anchors');
        ground.planes.push(planeOf(anchors));
        return ground;
    }
    if (anchors instanceof RasterView) {
        for (let bits = anchors.layers >>> 0; bits !== 0; bits &= bits - 1)
            ground.planes.push(planeOf(anchors.raster.plane(31 - Math.clz32(bits & -bits))));
        return ground;
    }
    if (anchors === null || typeof anchors !== 'object') throw typeError('anchors', EXPECTED, anchors);
    ground.planes.push(queried(asLayer(anchors, 'anchors', true), w, h));
    return ground;
}

// The solid pixels of any CollisionLayer inside the w × h rectangle, asked a 32 × 32 block at a time (a block
// without any is one overlaps call), then a row at a time (overlapArea: none, all, or hitTest for each pixel).
function queried(layer: CollisionLayer, w: number, h: number): AnchorPlane {
    const strips = (w + 31) >>> 5,
        words = new Int32Array(strips * h);
    const box = layer.bounds?.();
    const full = new Map<number, Mask>();
    // A set mask of bw × bh pixels, made once per size (at most four: the last strip and last block are smaller).
    const solid = (bw: number, bh: number): Mask => {
        const key = bw * 64 + bh;
        let m = full.get(key);
        if (m === undefined) full.set(key, (m = new Mask(bw, bh, true)));
        return m;
    };
    try {
        if (box === null) return { words, height: h, strips };
        for (let s = 0; s < strips; s++) {
            const bx = s << 5,
                bw = Math.min(32, w - bx);
            if (box !== undefined && (bx + bw <= box.x || bx >= box.x + box.width)) continue;
            for (let by = 0; by < h; by += 32) {
                const bh = Math.min(32, h - by);
                if (box !== undefined && (by + bh <= box.y || by >= box.y + box.height)) continue;
                if (!layer.overlaps(solid(bw, bh), bx, by)) continue;
                for (let y = by; y < by + bh; y++) {
                    const area = layer.overlapArea(solid(bw, 1), bx, y);
                    if (area === 0) continue;
                    let v = 0;
                    if (area === bw) v = bw === 32 ? -1 : (1 << bw) - 1;
                    else for (let b = 0; b < bw; b++) if (layer.hitTest(bx + b, y)) v |= 1 << b;
                    words[s * h + y] = v;
                }
            }
        }
        return { words, height: h, strips };
    } finally {
        for (const m of full.values()) m.dispose();
    }
}
