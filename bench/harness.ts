// Shared benchmark harness: warm-up, repeated samples, median and spread, machine banner.
import os from 'node:os';

/** Deterministic PRNG (mulberry32). */
export function mulberry32(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/** One timing: nanoseconds per call, median of the samples, and the spread (min..max) around it. */
export interface Timing { median: number; min: number; max: number; samples: number }

/** Keeps results alive so the JIT cannot drop the timed work. */
export let sink = 0;

/** Times `fn` (called `inner` times per sample, auto-sized to ~`sampleMs`), after a warm-up. */
export function time(fn: () => number | boolean | object | null, { samples = 15, sampleMs = 20 } = {}): Timing {
    let inner = 1;
    for (;;) { // warm-up doubles as calibration
        const t0 = performance.now();
        for (let i = 0; i < inner; i++) sink ^= +!!fn();
        const dt = performance.now() - t0;
        if (dt >= sampleMs / 4 || inner >= 1 << 24) { inner = Math.max(1, Math.round(inner * sampleMs / Math.max(dt, 0.001))); break; }
        inner *= 2;
    }
    const ns: number[] = [];
    for (let s = 0; s < samples; s++) {
        const t0 = performance.now();
        for (let i = 0; i < inner; i++) sink ^= +!!fn();
        ns.push((performance.now() - t0) * 1e6 / inner);
    }
    ns.sort((a, b) => a - b);
    return { median: ns[ns.length >> 1], min: ns[0], max: ns[ns.length - 1], samples };
}

/** Human-readable duration from nanoseconds. */
export function fmt(ns: number): string {
    if (ns < 1e3) return `${ns.toFixed(ns < 10 ? 2 : 1)} ns`;
    if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} µs`;
    return `${(ns / 1e6).toFixed(2)} ms`;
}

/** `median (min–max)` of a timing. */
export function fmtTiming(t: Timing): string {
    return `${fmt(t.median)} (${fmt(t.min)}–${fmt(t.max)})`;
}

/** Prints the machine and runtime the numbers come from. */
export function banner(title: string): void {
    const cpus = os.cpus();
    console.log(`# ${title}`);
    console.log(`machine: ${cpus[0]?.model ?? 'unknown CPU'} × ${cpus.length}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.arch()}`);
    console.log(`runtime: Node ${process.version} (V8 ${process.versions.v8}); timings are median (min–max) of repeated samples after warm-up\n`);
}

/** Prints a Markdown table. */
export function table(head: string[], rows: (string | number)[][]): void {
    console.log(`| ${head.join(' | ')} |`);
    console.log(`|${head.map(() => '---').join('|')}|`);
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
    console.log();
}
