// Memory in long loops of short-lived masks: time, RSS and WebAssembly memory (kernelStats) when every
// mask is disposed at once (`dispose`) or dropped and left to FinalizationRegistry (`yield`), with shared
// WebAssembly memory and without SharedArrayBuffer (the plain, growable memory of pages without
// cross-origin isolation). Each run is a fresh child process, so RSS and WebAssembly memory start clean.
// Run: npm run bench -- memory
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Mask, kernelStats } from '../src/index.js';
import { banner, fmt, mulberry32, table } from './harness.js';

const MiB = 2 ** 20,
    SLACK = 64 * MiB;
type Mode = 'dispose' | 'yield';

/** One loop: how many masks, how often `yield` mode awaits the event loop, and the masks it makes. */
interface Scenario {
    label: string;
    count: number;
    every: number;
    setup(): { make(i: number): Mask; maxBytes: number; keep?: Mask[] };
}

const SCENARIOS: Record<string, Scenario> = {
    small: {
        label: '(a) 1,000,000 × new Mask(32, 32)',
        count: 1_000_000,
        every: 10_000,
        setup: () => ({ make: () => new Mask(32, 32), maxBytes: 32 * 4 })
    },
    overlapMask: {
        label: '(b) 20,000 × overlapMask 256², 50 % random',
        count: 20_000,
        every: 10_000,
        setup() {
            const rnd = mulberry32(11),
                random = () => {
                    const px = new Uint8Array(256 * 256 * 4);
                    for (let i = 3; i < px.length; i += 4) px[i] = rnd() < 0.5 ? 255 : 0;
                    return Mask.fromRGBA(px, 256, 256);
                };
            const a = random(),
                b = random();
            // Offsets within ±128 px: the boxes always intersect, by a quarter to all of their area.
            const d = Int16Array.from({ length: 2 * this.count }, () => Math.floor(rnd() * 257) - 128);
            return { make: i => a.overlapMask(b, d[2 * i], d[2 * i + 1]), maxBytes: 8 * 256 * 4 };
        }
    },
    large: {
        label: '(c) 2,000 × new Mask(256, h), 64 KiB–8 MiB of words',
        count: 2_000,
        every: 10,
        setup() {
            // 256 px wide = 8 strips = 32 bytes per row; sizes uniform in bytes.
            const rnd = mulberry32(12),
                h = Int32Array.from({ length: this.count }, () =>
                    Math.round((64 * 1024 + rnd() * (8 * MiB - 64 * 1024)) / 32)
                );
            return { make: i => new Mask(256, h[i]), maxBytes: Math.max(...h) * 32 };
        }
    },
    crowded: {
        // Allocation cost must not grow with the number of live masks (a Map keyed by address did: 45 µs per call here).
        label: '(d) 20,000 × overlapMask 256² beside 20,000 live 256² masks',
        count: 20_000,
        every: 10_000,
        setup() {
            const keep = Array.from({ length: 20_000 }, () => new Mask(256, 256));
            const a = new Mask(256, 256, true),
                b = new Mask(256, 256, true);
            return { make: i => a.overlapMask(b, i % 64, i % 32), maxBytes: (keep.length + 1) * 8 * 256 * 4, keep };
        }
    }
};

/** What a child reports. */
interface Run {
    ms: number;
    rssBefore: number;
    rssAfter: number;
    memoryBefore: number;
    memoryBytes: number;
    usedBytes: number;
    wasmMasks: number;
    fallbacks: number;
    bound: number;
    kernels: string;
    shared: boolean;
}

async function child(name: string, mode: Mode): Promise<Run> {
    const sc = SCENARIOS[name],
        { make, maxBytes } = sc.setup();
    const tick = () => new Promise<void>(r => setImmediate(r));
    const before = kernelStats(),
        rssBefore = process.memoryUsage().rss,
        t0 = performance.now();
    for (let i = 0; i < sc.count; i++) {
        const m = make(i);
        if (mode === 'dispose') m.dispose();
        else if ((i + 1) % sc.every === 0) await tick();
    }
    const ms = performance.now() - t0,
        s = kernelStats();
    return {
        ms,
        rssBefore,
        rssAfter: process.memoryUsage().rss,
        memoryBefore: before.memoryBytes,
        memoryBytes: s.memoryBytes,
        usedBytes: s.usedBytes,
        wasmMasks: s.wasmMasks,
        fallbacks: s.fallbacks,
        kernels: s.kernels,
        shared: s.sharedMemory,
        // Live data: at most one mask of the loop is reachable at a time.
        bound: before.memoryBytes + maxBytes + SLACK
    };
}

/** What a game-loop child reports: frame times (median, p99) per 1,000 frames, and WebAssembly memory at the end. */
interface Frames {
    medians: number[];
    p99: number[];
    memoryBytes: number;
    fallbacks: number;
}

// The game loop: 200 overlapMask(256²) per frame, yielding between frames, for 4,000 frames.
async function gameLoop(mode: Mode): Promise<Frames> {
    const a = new Mask(256, 256, true),
        b = new Mask(256, 256, true),
        times: number[] = [],
        medians: number[] = [],
        p99: number[] = [];
    for (let f = 0; f < 4000; f++) {
        const t = performance.now();
        for (let i = 0; i < 200; i++) {
            const m = a.overlapMask(b, i % 50, 3);
            if (mode === 'dispose') m.dispose();
        }
        times.push(performance.now() - t);
        await new Promise<void>(r => setImmediate(r));
        if (times.length === 1000) {
            times.sort((x, y) => x - y);
            medians.push(times[500]);
            p99.push(times[990]);
            times.length = 0;
        }
    }
    const s = kernelStats();
    return { medians, p99, memoryBytes: s.memoryBytes, fallbacks: s.fallbacks };
}

const at = process.argv.indexOf('--child'),
    atFrames = process.argv.indexOf('--frames');
if (at >= 0) {
    console.log(JSON.stringify(await child(process.argv[at + 1], process.argv[at + 2] as Mode)));
} else if (atFrames >= 0) {
    console.log(JSON.stringify(await gameLoop(process.argv[atFrames + 1] as Mode)));
} else {
    banner('hitmask memory: long loops of short-lived masks, disposed or left to the garbage collector');
    const root = fileURLToPath(new URL('..', import.meta.url));
    const mib = (n: number) => (n / MiB).toFixed(1);
    const size = (n: number) => (n < MiB ? `${(n / 1024).toFixed(1)} KiB` : `${mib(n)} MiB`);
    const rows: (string | number)[][] = [];
    for (const [name, sc] of Object.entries(SCENARIOS)) {
        for (const mode of ['dispose', 'yield'] as const) {
            for (const memory of ['shared', 'no-SAB'] as const) {
                const preload = memory === 'shared' ? [] : ['--import', './test/env/no-shared-memory.mjs'];
                const p = spawnSync(
                    process.execPath,
                    ['--import', 'tsx', ...preload, 'bench/memory.bench.ts', '--child', name, mode],
                    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }
                );
                if (p.status !== 0) throw new Error(`child ${name} ${mode} ${memory} failed (exit ${p.status})`);
                const r = JSON.parse(p.stdout) as Run;
                if (r.kernels !== 'wasm' || r.shared !== (memory === 'shared'))
                    throw new Error(`child ${name} ${mode} ${memory}: kernels ${r.kernels}, sharedMemory ${r.shared}`);
                rows.push([
                    sc.label,
                    mode === 'yield' ? `yield every ${sc.every.toLocaleString('en')}` : mode,
                    memory,
                    fmt(r.ms * 1e6),
                    fmt((r.ms * 1e6) / sc.count),
                    `${mib(r.rssBefore)} → ${mib(r.rssAfter)}`,
                    `${mib(r.memoryBefore)} → ${mib(r.memoryBytes)}`,
                    size(r.usedBytes),
                    r.wasmMasks,
                    r.fallbacks,
                    mib(r.bound),
                    r.memoryBytes <= r.bound ? 'yes' : '**no**'
                ]);
            }
        }
    }
    table(
        [
            'scenario',
            'mode',
            'memory',
            'time',
            'per mask',
            'RSS MiB before → after',
            'Wasm memory MiB before → after',
            'used after',
            'wasmMasks after',
            'fallbacks',
            'bound MiB',
            'within bound'
        ],
        rows
    );
    console.log(
        'dispose: dispose() on every mask in the loop, fully synchronous. yield: no dispose(); the loop awaits setImmediate every'
    );
    console.log(
        `${SCENARIOS.small.every.toLocaleString('en')} masks in (a) and (b), every ${SCENARIOS.large.every} in (c), so FinalizationRegistry can free collected masks.`
    );
    console.log(
        'time: one run of the whole loop (not a median). Wasm memory: kernelStats().memoryBytes, reserved; it never shrinks, so'
    );
    console.log(
        '"after" is the peak. used: usedBytes. wasmMasks: masks not yet disposed or collected. Bound: Wasm memory before + live data'
    );
    console.log(
        '(the largest mask of the loop, the only one reachable at a time) + 64 MiB. Each row is a fresh child process:'
    );
    console.log(
        'node --import tsx [--import ./test/env/no-shared-memory.mjs] bench/memory.bench.ts --child <scenario> <mode>.\n'
    );

    const frames: (string | number)[][] = [];
    for (const mode of ['dispose', 'yield'] as const) {
        const p = spawnSync(process.execPath, ['--import', 'tsx', 'bench/memory.bench.ts', '--frames', mode], {
            cwd: root,
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'inherit']
        });
        if (p.status !== 0) throw new Error(`game loop ${mode} failed (exit ${p.status})`);
        const r = JSON.parse(p.stdout) as Frames,
            ms = (v: number) => v.toFixed(3);
        frames.push([
            mode === 'dispose' ? 'dispose() each result' : 'drop each result',
            r.medians.map(ms).join(' / '),
            r.p99.map(ms).join(' / '),
            mib(r.memoryBytes),
            r.fallbacks
        ]);
    }
    table(
        [
            'game loop: 200 overlapMask(256²) per frame, 4,000 frames',
            'median ms per frame, frames 1-1000 / … / 3001-4000',
            'p99 ms',
            'Wasm memory MiB at the end',
            'fallbacks'
        ],
        frames
    );
}
