// Shared benchmark harness: warm-up, repeated samples, median and spread, machine banner.
// The timing loop and PRNG live in timing.ts, which imports nothing from Node (page scripts bundle it).
import os from 'node:os';
import type { Timing } from './timing.js';

export { mulberry32, sink, time, type Timing } from './timing.js';

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
    console.log(
        `machine: ${cpus[0]?.model ?? 'unknown CPU'} × ${cpus.length}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.arch()}, load ${os
            .loadavg()
            .map(l => l.toFixed(2))
            .join(' ')} (1/5/15 min)`
    );
    console.log(
        `runtime: Node ${process.version} (V8 ${process.versions.v8}); timings are median (min–max) of repeated samples after warm-up\n`
    );
}

/** Prints a Markdown table. */
export function table(head: string[], rows: (string | number)[][]): void {
    console.log(`| ${head.join(' | ')} |`);
    console.log(`|${head.map(() => '---').join('|')}|`);
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
    console.log();
}
