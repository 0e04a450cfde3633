// The kernel layer: every word-level operation on masks, once in JavaScript and once over the
// WebAssembly SIMD module (src/kernels/*.wat), behind one interface. Callers check their arguments,
// clip, then call `pick(...)`'s kernels; nothing passes between calls except through arguments.
//
// The shift scheme, shared by every kernel: A's strip s (pixels 32s..32s+31) meets B's pixels from
// o = 32s − dx, i.e. B's strip bs = o >> 5 shifted right by sh = o & 31, ORed with strip bs + 1 shifted
// left by 32 − sh. Where one of the two B strips does not exist (left or right edge, or sh = 0) the row
// is the single word (B[bs] >>> rs) << ls, with rs = sh, ls = 0 (bs >= 0) or rs = 0, ls = 32 − sh (bs = −1).
import { lastWordMask } from '../base/bits.js';
import { JS } from './js.js';
import type { MaskWords } from './mask-words.js';
import { clip, newClip, type Clip, type Kernels } from './contract.js';
import { buffer, generation, heap32, heap8, K, Scratch, TABLE, wasmMinWords, wasmOn } from './memory.js';

/** Runs a batch of overlap records (see $overlapsBatch in wasm-batch.wat) on the shared memory: a ThreadPool. */
export interface BatchRunner {
    /**
     * Tests the `n` records at byte `tp`, writes results at `rp`, returns the hit count; `work` estimates the words
     * scanned.
     */
    run(tp: number, n: number, rp: number, work: number): number;
}

// The JavaScript kernels (js.ts) and the contract every kernel set meets, re-exported for the callers.
export { JS } from './js.js';
export { clip, newClip, type Clip, type Kernels } from './contract.js';

// Words of the intersection (rows × strips).
function words(c: Clip): number {
    return (c.y1 - c.y0) * (((c.x1 - 1) >> 5) - (c.x0 >> 5) + 1);
}

/**
 * The kernels for A and B (B may be null) on `n` words: WebAssembly when it is selected, both masks'
 * words are in its memory and n is at least wasmMinWords (below that the JS loop ends before a call
 * into WebAssembly would return); JS otherwise. The one place that decides.
 */
export function pickFor(a: MaskWords, b: MaskWords | null, n: number): Kernels {
    return wasmOn && a._ptr >= 0 && (b === null || b._ptr >= 0) && n >= wasmMinWords ? WASM : JS;
}

/** {@link pickFor} on the words of a clip. */
export function pick(a: MaskWords, b: MaskWords, c: Clip): Kernels {
    return pickFor(a, b, words(c));
}

/**
 * Whether the pair queries (overlaps, overlapArea, overlap) run in WebAssembly: when it is selected and
 * both masks' words are in its memory, at every size (a call into WebAssembly is cheap enough that the
 * JS loops do not win on small intersections; wasmMinWords still decides for the other operations).
 * Mask's pair queries then call `WASM.any` or `JS.any` at two call sites of one target each, which the
 * JIT inlines, where `pick(...).any` is one call site of two targets.
 */
export function pickWasm(a: MaskWords, b: MaskWords): boolean {
    // `=== true`: one compare, where testing the imported `let` alone checks every falsy kind of value.
    return wasmOn === true && a._ptr >= 0 && b._ptr >= 0;
}

// ---- WebAssembly ----

const rgbaScratch = new Scratch();

// WASM.first's view of the slot its kernel writes x to, and the memory generation it was made in.
let slot: Int32Array<ArrayBufferLike> = new Int32Array(0),
    slotGen = -1;

/** The kernels in WebAssembly, on the masks' words in its memory (every mask passed has `_ptr >= 0`). */
export const WASM: Kernels = {
    // Strips whose rows take two B words run a loop with constant shifts, one per shift ($scanBoth1..31
    // in wasm-pairs.wat; measured 1.4x faster than one loop with variable shifts).
    any(a, b, c) {
        return K.overlaps(a._ptr, a.height, b._ptr, b.height, b.strips, c.dx, c.dy, c.x0, c.x1, c.y0, c.y1) !== 0;
    },

    first(a, b, c, out) {
        // Its own kernel: groups of 16 rows across the strips ($firstRows, $rowsBoth in wasm-pairs.wat and
        // wasm-kernels.wat), stopping at the group that hits; small clips in bands of rows across the strips.
        const y = K.first(a._ptr, a.height, b._ptr, b.height, b.strips, c.dx, c.dy, c.x0, c.x1, c.y0, c.y1, TABLE);
        if (y < 0) return false;
        // The x the kernel wrote, through a view of that one slot kept while the memory is not replaced:
        // cheaper than checking the whole-memory view's buffer on every call.
        if (slotGen !== generation) {
            slot = new Int32Array(buffer, TABLE, 1);
            slotGen = generation;
        }
        out.x = slot[0];
        out.y = y;
        return true;
    },

    // Two-word strips count 16 rows at a time in a constant-shift loop ($areaBoth1..31): measured 1.4x faster.
    area(a, b, c) {
        return K.area(a._ptr, a.height, b._ptr, b.height, b.strips, c.dx, c.dy, c.x0, c.x1, c.y0, c.y1);
    },

    // One call writes every word of out, the clip's and the zeros around it (measured 1.1-1.2x faster at 64²
    // and 256² than a fill call from JS per strip).
    and(a, b, c, out) {
        out._touch();
        K.combine(
            a._ptr,
            a.height,
            b._ptr,
            b.height,
            b.strips,
            c.dx,
            c.dy,
            c.x0,
            c.x1,
            c.y0,
            c.y1,
            out._ptr,
            0,
            out.strips - 1,
            0
        );
    },

    or(a, b, c) {
        a._touch();
        K.combine(
            a._ptr,
            a.height,
            b._ptr,
            b.height,
            b.strips,
            c.dx,
            c.dy,
            c.x0,
            c.x1,
            c.y0,
            c.y1,
            0,
            1,
            a.strips - 1,
            lastWordMask(a.width)
        );
    },

    andNot(a, b, c) {
        a._touch();
        K.combine(a._ptr, a.height, b._ptr, b.height, b.strips, c.dx, c.dy, c.x0, c.x1, c.y0, c.y1, 0, 2, 0, 0);
    },

    fill(m, from, to, value) {
        // TypedArray.fill on WebAssembly's shared memory is ~10x slower than a memset in WebAssembly.
        m._touch();
        if (to > from) K.fill32(m._ptr + from * 4, to - from, value);
    },

    // The pixels are copied into WebAssembly memory through a scratch block of at most 256 KiB, and the
    // kernel writes the words in place (measured 2.3x faster than the JS kernel on a large sheet, 4x for
    // fromColorKey). False when no scratch memory is left, or when a row is wider than the block (over
    // 65,536 px): the JS kernel then converts it into the same words.
    rgba(m, data, op, key, t) {
        const { width, height } = m,
            chunk = 256 * 1024,
            rowBytes = width * 4,
            rows = Math.min(height, Math.floor(chunk / rowBytes));
        const p = rows > 0 ? rgbaScratch.get(rows * rowBytes) : -1;
        if (p < 0) return false;
        m._touch();
        // The copy is about half the time (bound by reading the source), the kernel the other half; a
        // Uint8ClampedArray source copies as fast as a Uint8Array.
        const view = heap8().subarray(p, p + rows * rowBytes),
            ptr = m._ptr;
        for (let y = 0; y < height; y += rows) {
            const n = Math.min(rows, height - y);
            view.set(data.subarray(y * rowBytes, (y + n) * rowBytes));
            K.rgbaMask(p, rowBytes, width, n, ptr + y * 4, height, op, key, t);
        }
        return true;
    }
};

// ---- batches ----

const batchTable = new Scratch(),
    batchResults = new Scratch(),
    pairClip = newClip();

// One pair of a batch in JS (or one small WebAssembly call): clip, then the kernels for it.
function pairHits(a: MaskWords, b: MaskWords, dx: number, dy: number): number {
    return clip(a.width, a.height, b.width, b.height, dx, dy, pairClip) && pick(a, b, pairClip).any(a, b, pairClip)
        ? 1
        : 0;
}

/**
 * For pair k, `out[k]` = 1 when `masks[pairs[4k]]` overlaps `masks[pairs[4k + 1]]` placed at
 * (`pairs[4k + 2]`, `pairs[4k + 3]`), else 0; returns the hits. Arguments are checked by the caller.
 * With the WebAssembly kernels every pair (clip included) is tested in one call; a `runner` (a
 * ThreadPool) may split it across threads when `work` (estimated words) is large.
 */
export function overlapsBatch(
    masks: readonly (MaskWords | null)[],
    pairs: Int32Array,
    out: Uint8Array,
    count: number,
    runner: BatchRunner | null,
    work: number
): number {
    let hits = 0;
    const tp = wasmOn && count > 0 ? batchTable.get(count * 32) : -1,
        rp = tp >= 0 ? batchResults.get(count) : -1;
    if (rp < 0) {
        for (let k = 0, p = 0; k < count; k++, p += 4)
            hits += out[k] = pairHits(
                masks[pairs[p]] as MaskWords,
                masks[pairs[p + 1]] as MaskWords,
                pairs[p + 2],
                pairs[p + 3]
            );
        return hits;
    }
    // Pairs with a mask outside WebAssembly memory get an empty record (the kernel answers 0) and are tested in JS
    // after.
    const T = heap32();
    let mixed = false;
    for (let k = 0, p = 0, t = tp >> 2; k < count; k++, p += 4, t += 8) {
        const a = masks[pairs[p]] as MaskWords,
            b = masks[pairs[p + 1]] as MaskWords;
        if (a._ptr >= 0 && b._ptr >= 0) {
            T[t] = a._ptr;
            T[t + 1] = a.width;
            T[t + 2] = a.height;
            T[t + 3] = b._ptr;
            T[t + 4] = b.width;
            T[t + 5] = b.height;
        } else {
            T[t + 1] = T[t + 4] = 0;
            mixed = true;
        }
        T[t + 6] = pairs[p + 2];
        T[t + 7] = pairs[p + 3];
    }
    hits = runner !== null ? runner.run(tp, count, rp, work) : K.overlapsBatch(tp, count, rp);
    out.set(heap8().subarray(rp, rp + count));
    if (mixed) {
        for (let k = 0, p = 0; k < count; k++, p += 4) {
            const a = masks[pairs[p]] as MaskWords,
                b = masks[pairs[p + 1]] as MaskWords;
            if ((a._ptr < 0 || b._ptr < 0) && pairHits(a, b, pairs[p + 2], pairs[p + 3]) !== 0) {
                out[k] = 1;
                hits++;
            }
        }
    }
    return hits;
}
