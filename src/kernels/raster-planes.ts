// The raster's query kernel: a mask against the OR of several bit planes (a CollisionRaster's layers), in
// JavaScript and over the WebAssembly module. Its own file, out of the Kernels interface, so that
// `import { Mask }` does not carry it (test/bundle.test.ts checks).
import { ctz, popcnt } from '../base/bits.js';
import type { Point } from '../base/types.js';
import type { Clip } from './contract.js';
import type { MaskWords } from './mask-words.js';
import { heap32, K, TABLE } from './memory.js';

/** @internal Raster query operations. */
export const ANY = 0,
    AREA = 1,
    FIRST = 2;

/**
 * @internal Queries B against the OR of planes[0..k) (all of one size; the clip is in their pixels): ANY → 1/0,
 * AREA → the count, FIRST → the row of the first pixel in row-major order (its x into `out.x`) or −1.
 * `wasm`: the WebAssembly kernels are picked for planes[0] and B (both in its memory); the query then runs in
 * WebAssembly unless another plane is on the JS heap.
 */
export function queryPlanes(
    planes: readonly MaskWords[],
    k: number,
    b: MaskWords,
    c: Clip,
    op: number,
    out: Point,
    wasm: boolean
): number {
    for (let j = 1; j < k && wasm; j++) if (planes[j]._ptr < 0) wasm = false;
    if (wasm) {
        const T = heap32(),
            t = TABLE >> 2;
        for (let j = 0; j < k; j++) T[t + j] = planes[j]._ptr;
        const r = K.rasterQuery(
            TABLE,
            k,
            planes[0].height,
            b._ptr,
            b.height,
            b.strips,
            c.dx,
            c.dy,
            c.x0,
            c.x1,
            c.y0,
            c.y1,
            op
        );
        if (op === FIRST && r >= 0) out.x = T[t];
        return r;
    }
    for (let j = 0; j < k; j++) selWords[j] = planes[j]._words;
    const r = queryJS(k, planes[0].height, b, c, op, out);
    for (let j = 0; j < k; j++) selWords[j] = EMPTY;
    return r;
}

const selWords: Uint32Array[] = [];
const EMPTY = new Uint32Array(0);

// B against the OR of selWords[0..k) (planes of height H, the clip in their pixels); see queryPlanes.
function queryJS(k: number, H: number, b: MaskWords, c: Clip, op: number, out: Point): number {
    const sel = selWords,
        B = b._words,
        bh = b.height,
        bStrips = b.strips,
        x = c.dx,
        y0 = c.y0,
        n0 = y0 - c.dy;
    let n = 0,
        bestY = c.y1,
        bestX = 0;
    for (let s = c.x0 >> 5, sEnd = (c.x1 - 1) >> 5; s <= sEnd; s++) {
        const o = (s << 5) - x,
            bs = o >> 5,
            sh = o & 31,
            ls = 32 - sh;
        const lo = bs >= 0,
            hi = sh !== 0 && bs + 1 < bStrips;
        let ai = s * H + y0,
            bi = bs * bh + n0;
        // FIRST: later strips only look above the best row so far, so ties go to the leftmost strip.
        for (let r = 0, rows = bestY - y0; r < rows; r++, ai++, bi++) {
            const w = (lo ? B[bi] >>> sh : 0) | (hi ? B[bi + bh] << ls : 0);
            if (w === 0) continue;
            let a = 0;
            for (let j = 0; j < k; j++) a |= sel[j][ai];
            const v = a & w;
            if (v === 0) continue;
            if (op === ANY) return 1;
            if (op === AREA) {
                n += popcnt(v);
                continue;
            }
            bestY = y0 + r;
            bestX = (s << 5) + ctz(v);
            break;
        }
    }
    if (op === AREA) return n;
    if (op === ANY || bestY === c.y1) return op === ANY ? 0 : -1;
    out.x = bestX;
    return bestY;
}
