// Batched overlap tests: many (a, b, dx, dy) pairs in one call, the World's narrow phase offered to games
// that run their own broad phase.
import { checkInt, outOfRange, rangeError, typeError } from '../base/check.js';
import { checkArray, checkObject } from '../base/check-types.js';
import { deprecated } from '../base/deprecate.js';
import { overlapsBatch, type BatchRunner } from '../kernels/kernels.js';
import { checkMask, isLiveMask, type Mask } from './mask.js';
import type { ThreadPool } from '../threads/pool.js';

/** Options of {@link overlapsMany}. */
export interface OverlapsManyOptions {
    /** How many pairs to test, from the first. @default pairs.length / 4 */
    count?: number;
    /** Worker threads (`hitmask/threads`) to split a large batch across. @default null */
    threads?: ThreadPool | null;
}

/**
 * Batched `overlaps`: for pair k, `out[k]` becomes 1 when `masks[pairs[4k]]` overlaps
 * `masks[pairs[4k + 1]]` placed at (`pairs[4k + 2]`, `pairs[4k + 3]`), else 0; returns how many overlap.
 * With the WebAssembly kernels every pair (clip included) is tested in one call; with a ThreadPool
 * (`hitmask/threads`, `options.threads`) a large batch is split across its threads. On one thread, plain
 * `overlaps()` calls are as fast (`npm run bench -- simd` compares them).
 */
export function overlapsMany(masks: readonly Mask[], pairs: Int32Array, out: Uint8Array): number;
export function overlapsMany(
    masks: readonly Mask[],
    pairs: Int32Array,
    options: OverlapsManyOptions,
    out: Uint8Array
): number;
/**
 * @deprecated since 0.4.0: `overlapsMany(masks, pairs, { count, threads }, out)` (`out` last). Warns once.
 */
export function overlapsMany(
    masks: readonly Mask[],
    pairs: Int32Array,
    out: Uint8Array,
    count?: number,
    threads?: ThreadPool | null
): number;
export function overlapsMany(
    masks: readonly Mask[],
    pairs: Int32Array,
    third: Uint8Array | OverlapsManyOptions,
    fourth?: Uint8Array | number,
    fifth?: ThreadPool | null
): number {
    let out: Uint8Array, count: number | undefined, threads: ThreadPool | null | undefined;
    // The old order put `out` third and the count and threads after it: a byte array third with more arguments.
    if (third instanceof Uint8Array) {
        if (fourth !== undefined || fifth !== undefined)
            deprecated(
                'overlapsMany(masks, pairs, out, count, threads)',
                'overlapsMany(masks, pairs, { count, threads }, out)'
            );
        out = third;
        count = fourth as number | undefined;
        threads = fifth;
    } else {
        checkObject('options', third, 'an object of { count, threads }');
        ({ count, threads } = third);
        out = fourth as Uint8Array;
    }
    count ??= pairs instanceof Int32Array ? pairs.length >> 2 : 0;
    threads ??= null;
    checkArray('masks', masks, 'an array of Masks');
    if (!(pairs instanceof Int32Array)) throw typeError('pairs', 'an Int32Array of (a, b, dx, dy) quadruples', pairs);
    checkInt('count', count, 0, pairs.length >> 2);
    if (!(out instanceof Uint8Array) || out.length < count)
        throw rangeError('out', `a Uint8Array of length at least ${count}`, out);
    if (threads !== null && !isRunner(threads)) throw typeError('threads', 'a ThreadPool or null', threads);
    const nm = masks.length;
    let work = 0;
    for (let k = 0, p = 0; k < count; k++, p += 4) {
        const ia = pairs[p],
            ib = pairs[p + 1];
        if (!(ia >= 0 && ia < nm && ib >= 0 && ib < nm))
            throw outOfRange(`pairs[${p}..${p + 1}] = (${ia}, ${ib}) index masks, which has length ${nm}.`);
        // The names are built only on failure: two template strings per pair cost more than the test.
        if (!isLiveMask(masks[ia])) checkMask(masks[ia], `masks[${ia}]`);
        if (!isLiveMask(masks[ib])) checkMask(masks[ib], `masks[${ib}]`);
        // Words of the boxes' intersection (as the World estimates it), to decide whether threads pay.
        const a = masks[ia],
            b = masks[ib],
            dx = pairs[p + 2],
            dy = pairs[p + 3];
        const ow = Math.min(a.width, dx + b.width) - Math.max(0, dx),
            oh = Math.min(a.height, dy + b.height) - Math.max(0, dy);
        if (ow > 0 && oh > 0) work += oh * ((ow + 63) >> 5);
    }
    return overlapsBatch(masks, pairs, out, count, threads as BatchRunner | null, work);
}

function isRunner(r: unknown): r is BatchRunner {
    return r !== null && typeof r === 'object' && typeof (r as BatchRunner).run === 'function';
}
