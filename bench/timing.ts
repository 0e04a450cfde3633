// Benchmark timing loop, free of Node imports so page scripts bundled for Chromium (bench/simd-page.ts) time
// exactly as the Node benchmarks do; bench/harness.ts re-exports it, and the PRNG of demo/random.ts with it.

export { mulberry32 } from '../demo/random.js';

/** One timing: nanoseconds per call, median of the samples, and the spread (min..max) around it. */
export interface Timing {
    median: number;
    min: number;
    max: number;
    samples: number;
}

/** Keeps results alive so the JIT cannot drop the timed work. */
export let sink = 0;

/** Times `fn` (called `inner` times per sample, auto-sized to ~`sampleMs`), after a warm-up. */
export function time(fn: () => number | boolean | object | null, { samples = 15, sampleMs = 20 } = {}): Timing {
    let inner = 1;
    for (;;) {
        // warm-up doubles as calibration
        const t0 = performance.now();
        for (let i = 0; i < inner; i++) sink ^= +!!fn();
        const dt = performance.now() - t0;
        if (dt >= sampleMs / 4 || inner >= 1 << 24) {
            inner = Math.max(1, Math.round((inner * sampleMs) / Math.max(dt, 0.001)));
            break;
        }
        inner *= 2;
    }
    const ns: number[] = [];
    for (let s = 0; s < samples; s++) {
        const t0 = performance.now();
        for (let i = 0; i < inner; i++) sink ^= +!!fn();
        ns.push(((performance.now() - t0) * 1e6) / inner);
    }
    ns.sort((a, b) => a - b);
    return { median: ns[ns.length >> 1], min: ns[0], max: ns[ns.length - 1], samples };
}
