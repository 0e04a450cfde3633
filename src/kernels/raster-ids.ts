// The word loops of a raster's id store (raster/ids.ts's RasterIds): the stamp kernel that ORs a mask into a
// plane and writes its id beside every bit it sets, and the reader that collects the ids under a mask. Its own
// file, out of the Kernels interface, so that `import { Mask }` does not carry it (test/bundle.test.ts checks).
import { ctz, lastWordMask } from '../base/bits.js';
import type { Clip } from './contract.js';
import type { MaskWords } from './mask-words.js';

/**
 * A raster plane as these kernels see it: its words through the public `words` getter, as the raster reads and
 * writes its planes everywhere (so no plane keeps a box of set pixels that these writes would leave stale).
 */
export interface Plane {
    readonly strips: number;
    readonly words: Uint32Array;
}

/** What the kernels read and write of a raster's id store; see raster/ids.ts's RasterIds for the layout. */
export interface IdLists {
    readonly width: number;
    readonly height: number;
    /** Per layer, per pixel (row-major): −1 none, h >= 0 the single id h, h <= −2 a list at entry −2 − h. */
    readonly heads: (Int32Array | null)[];
    /** Per layer, the entry pool: entry e holds id entId[e] and the next (older) entry entNext[e]. */
    readonly entId: Int32Array[];
    readonly entNext: Int32Array[];
    readonly entCount: Int32Array;
    /** Makes room for `n` entries in the layer's pool (entId and entNext may be replaced). */
    reserve(layer: number, n: number): void;
    /** Adds an id to the dedupe set and the found list unless present; returns the new count. */
    addFound(id: number, n: number): number;
}

/**
 * ORs `mask`, its top-left at (x, y) and clipped to `c`, into `plane` (layer `layer`, id plane `heads`), and
 * records `id` (−1: none) on each pixel it sets: a pixel it turns on restarts its ids, one already set gets `id`
 * first.
 */
export function stampIds(
    store: IdLists,
    plane: Plane,
    mask: MaskWords,
    x: number,
    y: number,
    c: Clip,
    id: number,
    layer: number,
    heads: Int32Array
): void {
    const X0 = c.x0,
        Y0 = c.y0,
        X1 = c.x1,
        Y1 = c.y1;
    const A = plane.words,
        B = mask._words,
        H = store.height,
        W = store.width;
    const bh = mask.height,
        bStrips = mask.strips,
        rows = Y1 - Y0,
        n0 = Y0 - y;
    const lastStrip = plane.strips - 1,
        edge = lastWordMask(W);
    let ids = store.entId[layer],
        next = store.entNext[layer],
        cnt = store.entCount[layer];
    for (let s = X0 >> 5, sEnd = (X1 - 1) >> 5; s <= sEnd; s++) {
        // Raster strip s takes mask pixels o..o+31: the high bits of mask strip bs and the low bits of bs + 1.
        const o = (s << 5) - x,
            bs = o >> 5,
            sh = o & 31,
            ls = 32 - sh;
        const lo = bs >= 0,
            hi = sh !== 0 && bs + 1 < bStrips; // no hi word at sh = 0: JS `w << 32 === w`
        const keep = s === lastStrip ? edge : 0xffffffff; // bits past the raster's width stay zero
        let ai = s * H + Y0,
            bi = bs * bh + n0;
        for (let r = 0; r < rows; r++, ai++, bi++) {
            const w = ((lo ? B[bi] >>> sh : 0) | (hi ? B[bi + bh] << ls : 0)) & keep;
            if (w === 0) continue;
            const old = A[ai];
            A[ai] = old | w;
            const p0 = (Y0 + r) * W + (s << 5);
            if (id < 0) {
                // An anonymous stamp adds no id, but a pixel it turns on must drop its stale chain.
                for (let f = w & ~old; f !== 0; f &= f - 1) heads[p0 + ctz(f)] = -1;
            } else {
                for (let f = w & ~old; f !== 0; f &= f - 1) heads[p0 + ctz(f)] = id;
                let v = w & old;
                if (v === 0) continue;
                // Pixels that already hold ids get list entries; inlined with the pool in locals: 1.3x faster
                // than a call per pixel with 100,000 shots overlapping.
                if (cnt + 64 > ids.length) {
                    store.entCount[layer] = cnt;
                    store.reserve(layer, cnt + 64);
                    ids = store.entId[layer];
                    next = store.entNext[layer];
                }
                for (; v !== 0; v &= v - 1) {
                    const p = p0 + ctz(v),
                        h = heads[p];
                    if (h === -1) {
                        heads[p] = id;
                        continue;
                    }
                    let tail = -2 - h;
                    if (h >= 0) {
                        ids[cnt] = h;
                        next[cnt] = -1;
                        tail = cnt++;
                    }
                    ids[cnt] = id;
                    next[cnt] = tail;
                    heads[p] = -2 - cnt++;
                }
            }
        }
    }
    store.entCount[layer] = cnt;
}

/**
 * Collects into the dedupe set, each once, the ids under `mask`'s set pixels (top-left at (x, y), clipped to `c`)
 * on the layers in the set `layers` of `planes`; returns how many (read them with {@link take}). Order: by
 * first pixel found (row-major), then layer, then newest stamp first.
 */
export function collectIds(
    store: IdLists,
    planes: readonly Plane[],
    layers: number,
    mask: MaskWords,
    x: number,
    y: number,
    c: Clip
): number {
    const X0 = c.x0,
        Y0 = c.y0,
        X1 = c.x1,
        Y1 = c.y1;
    const B = mask._words,
        H = store.height,
        W = store.width,
        bh = mask.height,
        bStrips = mask.strips;
    const sEnd = (X1 - 1) >> 5;
    let n = 0;
    for (let yy = Y0; yy < Y1; yy++) {
        for (let s = X0 >> 5; s <= sEnd; s++) {
            const o = (s << 5) - x,
                bs = o >> 5,
                sh = o & 31;
            const bi = bs * bh + yy - y;
            const w = (bs >= 0 ? B[bi] >>> sh : 0) | (sh !== 0 && bs + 1 < bStrips ? B[bi + bh] << (32 - sh) : 0);
            if (w === 0) continue;
            const ai = s * H + yy,
                p0 = yy * W + (s << 5);
            let any = 0;
            for (let bits = layers; bits !== 0; bits &= bits - 1) {
                const l = 31 - Math.clz32(bits & -bits);
                if (store.heads[l] !== null) any |= planes[l].words[ai];
            }
            // Pixel by pixel (row-major), then layer by layer, newest id first.
            for (let v = w & any; v !== 0; v &= v - 1) {
                const b = ctz(v),
                    bit = 1 << b;
                for (let bits = layers; bits !== 0; bits &= bits - 1) {
                    const l = 31 - Math.clz32(bits & -bits),
                        heads = store.heads[l];
                    if (heads === null || (planes[l].words[ai] & bit) === 0) continue;
                    const ids = store.entId[l],
                        next = store.entNext[l];
                    const h = heads[p0 + b];
                    if (h >= 0) n = store.addFound(h, n);
                    else for (let e = -2 - h; e >= 0; e = next[e]) n = store.addFound(ids[e], n);
                }
            }
        }
    }
    return n;
}
