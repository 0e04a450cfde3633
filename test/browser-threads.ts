// Bundled by test/browser.test.ts and run inside the demo page (served cross-origin isolated): a
// ThreadPool of web Workers (the default Blob-URL spawn) against single-thread batches.
import { kernelStats, Mask, overlapsMany, World } from '../src/index.js';
import { ThreadPool } from '../src/threads.js';

/** What {@link run} reports back to the test. */
export interface ThreadsCheck {
    isolated: boolean;
    kernels: string;
    shared: boolean;
    ready: number;
    workerChunks: number;
    batches: number;
    mismatches: number;
    worldPairs: number[];
}

/**
 * Runs 200 random batches with and without a 2-worker pool (more, up to 5,000, until a worker has taken
 * part: a busy machine may not run the workers during the first ones), and a World with threads; returns
 * what it saw.
 */
export async function run(): Promise<ThreadsCheck> {
    const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
    let seed = 5;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const masks = Array.from({ length: 10 }, (_, i) => {
        const m = new Mask(30 + 20 * i, 20 + 15 * i);
        for (let k = 0; k < 40 * (i + 1); k++) m.set(Math.floor(rnd() * m.width), Math.floor(rnd() * m.height));
        return m;
    });
    const pool = new ThreadPool(2, { minWords: 0 });
    await pool.whenReady();
    let mismatches = 0;
    let batches = 0;
    for (let b = 0; b < 200 || (pool.workerChunks === 0 && b < 5000); b++, batches++) {
        const n = 1 + Math.floor(rnd() * 600),
            P = new Int32Array(4 * n);
        for (let k = 0; k < n; k++) {
            const a = Math.floor(rnd() * masks.length),
                c = Math.floor(rnd() * masks.length);
            P.set(
                [
                    a,
                    c,
                    Math.floor(rnd() * (masks[a].width + masks[c].width)) - masks[c].width,
                    Math.floor(rnd() * (masks[a].height + masks[c].height)) - masks[c].height
                ],
                4 * k
            );
        }
        const one = new Uint8Array(n),
            many = new Uint8Array(n);
        const h1 = overlapsMany(masks, P, one),
            h2 = overlapsMany(masks, P, { count: n, threads: pool }, many);
        if (h1 !== h2 || one.some((v, k) => v !== many[k])) mismatches++;
    }
    const worldPairs: number[] = [];
    for (const threads of [null, pool]) {
        const world = new World({ threads });
        seed = 9;
        for (let i = 0; i < 300; i++) world.add({ x: rnd() * 600, y: rnd() * 600, mask: masks[i % masks.length] });
        worldPairs.push(world.step());
    }
    const result = {
        isolated,
        kernels: kernelStats().kernels,
        shared: masks[0].words.buffer instanceof SharedArrayBuffer,
        ready: pool.ready,
        workerChunks: pool.workerChunks,
        batches,
        mismatches,
        worldPairs
    };
    pool.close();
    return result;
}
