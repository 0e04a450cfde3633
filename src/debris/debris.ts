// detachIslands: the solid parts of a carvable layer (a Mask, a CollisionRaster's layer) that no longer touch an
// anchor, cut out of the layer and returned as masks, for debris that falls. The rules, a picture and the
// measured cost: docs/terrain.md, "Debris". The flood is kernels/flood.ts's; the anchors are read in anchors.ts.
import { ctz, lastWordMask, msb } from '../base/bits.js';
import { checkMinInt, mustBe, outOfRange, typeError, wrongType } from '../base/check.js';
import { checkOptions } from '../base/check-types.js';
import { MAX_DEBRIS_PIXELS } from '../base/limits.js';
import { checkLayer } from '../base/check-raster.js';
import { checkMask, isMaskObject, Mask } from '../core/mask.js';
import {
    countAndNot,
    flood,
    newFloodScratch,
    type FloodScratch,
    resetBox,
    seed,
    seedNear,
    seedRect
} from '../kernels/flood.js';
import { touchWords, wordsOf } from '../kernels/mask-words.js';
import { CollisionRaster, RasterView } from '../raster/raster.js';
import { anchorsOf, type Anchors } from './anchors.js';

export type { Anchors } from './anchors.js';

/** One island cut loose by {@link detachIslands}: exactly its pixels, its top-left at (x, y) in layer pixels. */
export interface DetachedIsland {
    /** The island's pixels, in a mask as small as their box. */
    mask: Mask;
    /** Left of the mask in the layer. */
    x: number;
    /** Top of the mask in the layer. */
    y: number;
}

/** Options of {@link detachIslands}. */
export interface DetachOptions {
    /**
     * Islands of fewer pixels are cleared from the layer and not returned (dust too small for a physics body);
     * default 1 (every island is returned). `Infinity` clears every island and returns none.
     */
    minPixels?: number;
    /**
     * Most islands returned (default `Infinity`): the call stops at that many, and the islands it has not reached
     * (dust included) stay in the layer for a later call.
     */
    limit?: number;
    /** The layer of a `CollisionRaster` to carve (default 0), as in `raster.erase`; only with a raster. */
    layer?: number;
}

/** What detachIslands carves: the plane and, for a raster, the raster and the plane's layer index. */
interface Target {
    plane: Mask;
    raster: CollisionRaster | null;
    index: number;
}

function targetOf(layer: unknown, index: unknown): Target {
    if (layer instanceof CollisionRaster) {
        const i = checkLayer((index ?? 0) as number, layer.layerCount);
        return { plane: layer.plane(i), raster: layer, index: i };
    }
    if (index !== undefined)
        throw wrongType(
            `options.layer picks a layer of a CollisionRaster; layer is ${layer instanceof RasterView ? 'a RasterView, which names its own' : 'not a raster'}, so leave options.layer out.`
        );
    if (layer instanceof RasterView) {
        const bits = layer.layers >>> 0;
        if ((bits & (bits - 1)) !== 0)
            throw wrongType(
                mustBe('layer', 'a view of one layer (raster.layer(i))', layer, ` of layers 0b${bits.toString(2)}`)
            );
        const i = 31 - Math.clz32(bits);
        return { plane: layer.raster.plane(i), raster: layer.raster, index: i };
    }
    if (isMaskObject(layer)) {
        checkMask(layer, 'layer');
        return { plane: layer, raster: null, index: 0 };
    }
    throw typeError('layer', 'a Mask, a CollisionRaster or a view of one of its layers (raster.layer(i))', layer);
}

// The words of a plane as signed 32-bit integers (a new view after the WebAssembly memory grew).
const int32 = (m: Mask): Int32Array => {
    const w = wordsOf(m);
    return new Int32Array(w.buffer, w.byteOffset, w.length);
};

/**
 * Cuts loose the solid parts of `layer` that are not 4-connected to an anchor, and returns each as a mask of its
 * pixels at its place in the layer (for `toPolygons` / `convexPieces`, a dynamic body, `world.add`).
 *
 * `layer` is a `Mask`, a `CollisionRaster` (its layer `options.layer`, default 0) or a raster's one-layer view
 * (`raster.layer(i)`); it is carved through its own `erase`, so a raster's snapshots and change tracking see it.
 * `anchors` is the ground: an array of rectangles `{ x, y, width, height }` (they may lie outside the layer: the
 * floor under it is `{ x: 0, y: height, width, height: 1 }`), a `Mask` at (0, 0), or a `CollisionLayer` (a
 * raster view, a `TileMap`), whose solid pixels inside the layer's rectangle are anchors. A solid pixel of the
 * layer lying on an anchor pixel or beside one (sharing an edge) is held, and so is every solid pixel 4-connected
 * to a held one; every other one is part of an island. With no anchors (`[]`), every part is an island.
 *
 * Islands come left to right by the 32-pixel column of their leftmost pixel. Word-parallel: the call costs about
 * one pass over the layer's words (rules and measured cost: docs/terrain.md, "Debris"); its scratch is one bit
 * per pixel, and a layer may hold at most `limits.debrisPixels` pixels.
 */
export function detachIslands(
    layer: Mask | CollisionRaster | RasterView,
    anchors: Anchors,
    options: DetachOptions = {}
): DetachedIsland[] {
    checkOptions('options', options, '{ minPixels, limit, layer }');
    const target = targetOf(layer, options.layer);
    const minPixels = checkMinInt('options.minPixels', options.minPixels ?? 1, 0, true);
    const limit = checkMinInt('options.limit', options.limit ?? Infinity, 0, true);
    const plane = target.plane,
        w = plane.width,
        h = plane.height,
        strips = plane.strips;
    if (strips * 32 * h > MAX_DEBRIS_PIXELS)
        throw outOfRange(
            `detachIslands: a layer of ${w}x${h} pixels is over the ${MAX_DEBRIS_PIXELS} pixels of limits.debrisPixels (its scratch is a bit per pixel); split the terrain into parts.`
        );
    const ground = anchorsOf(anchors, w, h);
    const n = strips * h;
    if (n === 0 || limit === 0) return [];

    // From the anchors over the terrain: `open` starts as a copy of it and ends holding the detached pixels.
    let solid = int32(plane);
    const scratch = scratchFor(n),
        open = scratch.open,
        f = scratch.flood;
    open.set(solid);
    // A call cut short (an island mask the memory refused) leaves the scratch half used: the next one makes its own.
    cache = null;
    for (let k = 0; k < ground.rects.length; k += 4) {
        const x0 = ground.rects[k],
            y0 = ground.rects[k + 1],
            x1 = ground.rects[k + 2],
            y1 = ground.rects[k + 3];
        // The rectangle and its 4 neighbours: a cross, clipped to the layer.
        cross(solid, open, h, w, x0 - 1, y0, x1 + 1, y1, f);
        cross(solid, open, h, w, x0, y0 - 1, x1, y1 + 1, f);
    }
    const last = lastWordMask(w) | 0;
    for (const a of ground.planes) seedNear(solid, open, h, strips, last, a.words, a.height, a.strips, f);
    flood(solid, open, h, strips, f);

    // Each island in turn, from its first pixel, over the detached pixels: the terrain loses it as it is reached.
    const islands: DetachedIsland[] = [];
    const detached = open;
    for (let i = 0; i < n;) {
        if (detached[i] === 0) {
            i++;
            continue;
        }
        if (islands.length >= limit) break;
        resetBox(f);
        seed(solid, i, detached[i] & -detached[i], h, f);
        flood(detached, solid, h, strips, f);
        touchWords(plane);
        const big = minPixels <= 1 || countAndNot(detached, solid, h, f.s0, f.s1, f.y0, f.y1) >= minPixels;
        // The cut goes through the layer's own writer too (erase, of pixels already cleared), dust included, so
        // whatever follows the layer's changes (a raster's snapshots and change tracking) sees it.
        const island = cut(detached, plane, h, f.s0, f.s1, f.y0, f.y1);
        if (target.raster !== null) target.raster.erase(island.mask, island.x, island.y, { layer: target.index });
        else plane.erase(island.mask, island.x, island.y);
        solid = int32(plane);
        if (big) islands.push(island);
        else island.mask.dispose();
        // The island leaves the detached pixels (the others in its words are still in the terrain).
        for (let s = f.s0; s <= f.s1; s++)
            for (let j = s * h + f.y0, e = s * h + f.y1; j <= e; j++) detached[j] &= solid[j];
    }
    cache = new WeakRef(scratch);
    return islands;
}

// The scratch of the last call, kept for the next while the garbage collector leaves it: a game calls every frame,
// and fresh memory costs its page faults (on a loaded machine as much as the whole flood).
interface Scratch {
    open: Int32Array;
    flood: FloodScratch;
}
let cache: WeakRef<Scratch> | null = null;

function scratchFor(n: number): Scratch {
    const kept = cache?.deref();
    if (kept !== undefined && kept.open.length >= n) return kept;
    return { open: new Int32Array(n), flood: newFloodScratch(n) };
}

// Seeds the rectangle x0..x1 × y0..y1 (exclusive ends) clipped to the w × h layer.
function cross(
    solid: Int32Array,
    open: Int32Array,
    h: number,
    w: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    f: ReturnType<typeof newFloodScratch>
): void {
    x0 = Math.max(x0, 0);
    y0 = Math.max(y0, 0);
    x1 = Math.min(x1, w);
    y1 = Math.min(y1, h);
    if (x1 > x0 && y1 > y0) seedRect(solid, open, h, x0, y0, x1, y1, f);
}

// The pixels of `a & ~plane` over strips s0..s1 and rows y0..y1, as a mask as small as their box.
function cut(a: Int32Array, plane: Mask, h: number, s0: number, s1: number, y0: number, y1: number): DetachedIsland {
    let b = int32(plane),
        left = 0,
        right = 0;
    for (let y = y0; y <= y1; y++) {
        left |= a[s0 * h + y] & ~b[s0 * h + y];
        right |= a[s1 * h + y] & ~b[s1 * h + y];
    }
    const x0 = (s0 << 5) + ctz(left),
        x1 = (s1 << 5) + msb(right) + 1,
        mh = y1 - y0 + 1;
    const mask = new Mask(x1 - x0, mh);
    b = int32(plane); // the new mask may have grown the WebAssembly memory, which detaches the old view
    const out = wordsOf(mask),
        ms = mask.strips,
        sh = x0 & 31;
    // Pixel s * 32 + bit lands at mask x (s - s0) * 32 + bit - sh: the high bits in strip s - s0, the low ones
    // (when sh > 0) in the strip before.
    for (let s = s0; s <= s1; s++) {
        const t = s - s0;
        for (let y = y0, i = s * h + y0, o = t * mh; y <= y1; y++, i++, o++) {
            const v = a[i] & ~b[i];
            if (v === 0) continue;
            if (t < ms) out[o] |= v >>> sh;
            if (sh !== 0 && t > 0) out[o - mh] |= v << (32 - sh);
        }
    }
    touchWords(mask);
    return { mask, x: x0, y: y0 };
}
