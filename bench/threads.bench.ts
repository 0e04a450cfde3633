// Worker threads for the narrow phase: the World stepped with and without a ThreadPool (same pairs,
// checked every step), and the batch size from which splitting a batch across threads pays.
// Run: npm run bench -- threads
import os from 'node:os';
import { Mask } from '../src/index.js';
import { createThreadPool } from '../src/node.js';
import type { ThreadPool } from '../src/threads.js';
import { World, type Body, type Pair } from '../src/index.js';
import { banner, fmt, mulberry32, table } from './harness.js';
import { overlapsMany } from '../src/index.js';

banner('hitmask narrow phase on worker threads (ThreadPool) vs the calling thread alone');
const workers = Math.max(1, os.availableParallelism() - 1);
console.log(`${workers} worker thread(s) + the calling thread; shared machine: expect ±15 % between runs\n`);

// Ring sprites (outlined circles, 3 px thick): boxes overlap far more often than pixels do, so
// most candidate pairs are full scans, the narrow phase's worst case.
function ring(size: number): Mask {
    const m = new Mask(size, size),
        c = (size - 1) / 2,
        r1 = c * c,
        r0 = (c - 3) ** 2;
    for (let y = 0; y < size; y++)
        for (let x = 0; x < size; x++) {
            const d = (x - c) ** 2 + (y - c) ** 2;
            if (d <= r1 && d >= r0) m.set(x, y);
        }
    return m;
}

function stats(t: number[]): { median: number; min: number; max: number } {
    const s = t.slice().sort((a, b) => a - b);
    return { median: s[s.length >> 1], min: s[0], max: s[s.length - 1] };
}
const ms = (t: { median: number; min: number; max: number }) =>
    `${t.median.toFixed(2)} [${t.min.toFixed(2)}–${t.max.toFixed(2)}]`;
const busy = (msec: number) => {
    const end = performance.now() + msec;
    while (performance.now() < end) {
        /* stand-in for rendering */
    }
};

// Sparse sprites (1 pixel in 500 set, like a swarm or a net): pixels seldom meet, so most
// candidate pairs are full scans of the boxes' intersection, the narrow phase's worst case.
function sparse(size: number): Mask {
    const m = new Mask(size, size),
        rnd = mulberry32(size);
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (rnd() < 0.002) m.set(x, y);
    return m;
}

interface Scene {
    name: string;
    n: number;
    min: number;
    max: number;
    density: number;
    make: (size: number) => Mask;
}
const SCENES: Scene[] = [
    { name: '10,000 small rings (16–48 px), 15% box cover', n: 10000, min: 16, max: 48, density: 0.15, make: ring },
    { name: '2,000 rings (64–128 px), 30% box cover', n: 2000, min: 64, max: 128, density: 0.3, make: ring },
    {
        name: '1,000 sparse sprites (128–256 px), 100% box cover',
        n: 1000,
        min: 128,
        max: 256,
        density: 1,
        make: sparse
    },
    {
        name: '1,000 sparse sprites (128–256 px), 200% box cover',
        n: 1000,
        min: 128,
        max: 256,
        density: 2,
        make: sparse
    },
    { name: '2,000 sparse sprites (128–256 px), 300% box cover', n: 2000, min: 128, max: 256, density: 3, make: sparse }
];

// Three worlds over the same motion, stepped in turn (so machine noise hits all three alike):
// no threads, a pool with the default minWords, and a pool that takes every batch. Pairs are compared at every step.
function runScene(
    sc: Scene,
    pools: (ThreadPool | null)[],
    steps: number,
    gapMs: number
): { t: number[][]; pairs: number; words: number } {
    const rnd = mulberry32(7),
        sizes = [...new Set(Array.from({ length: 8 }, (_, k) => Math.round(sc.min + ((sc.max - sc.min) * k) / 7)))];
    const masks = sizes.map(sc.make);
    let area = 0;
    const kind = Array.from({ length: sc.n }, () => {
        const k = Math.floor(rnd() * masks.length);
        area += masks[k].width ** 2;
        return k;
    });
    const side = Math.sqrt(area / sc.density);
    const x = kind.map(() => rnd() * side),
        y = kind.map(() => rnd() * side),
        vx = kind.map(() => rnd() * 6 - 3),
        vy = kind.map(() => rnd() * 6 - 3);
    const worlds = pools.map(threads => new World({ threads }));
    const bodies: Body[][] = worlds.map(w => kind.map((k, i) => w.add({ x: x[i], y: y[i], mask: masks[k] })));
    const t: number[][] = pools.map(() => []);
    let pairs = 0;
    const pairOut: Pair[] = [];
    for (let s = 0; s < steps + 10; s++) {
        for (let i = 0; i < sc.n; i++) {
            x[i] += vx[i];
            y[i] += vy[i];
            if (x[i] < 0 || x[i] > side) vx[i] = -vx[i];
            if (y[i] < 0 || y[i] > side) vy[i] = -vy[i];
        }
        let first = '';
        for (let w = 0; w < worlds.length; w++) {
            const world = worlds[w];
            for (let i = 0; i < sc.n; i++) world.move(bodies[w][i], x[i], y[i]);
            if (gapMs > 0) busy(gapMs);
            const t0 = performance.now();
            const np = world.step();
            const t1 = performance.now();
            if (s >= 10) t[w].push(t1 - t0); // 10 warm-up steps (WebAssembly tier-up)
            const list: number[] = [];
            for (const p of world.collisions(pairOut)) list.push(p.a.id, p.b.id);
            if (w === 0) first = list.join();
            else if (list.join() !== first) throw new Error(`${sc.name}: pairs differ with threads at step ${s}`);
            pairs = np;
        }
    }
    return { t, pairs, words: (worlds[0] as unknown as { lastWork: number }).lastWork };
}

const pool = createThreadPool(workers, { minWords: 0 }),
    auto = createThreadPool(workers);
await pool.whenReady();
await auto.whenReady();
const rows: (string | number)[][] = [];
for (const sc of SCENES) {
    for (const gap of [0, 8]) {
        const r = runScene(sc, [null, auto, pool], sc.n >= 10000 ? 30 : 60, gap);
        const [a, b, c] = r.t.map(stats);
        rows.push([
            sc.name,
            gap ? `${gap} ms` : 'none',
            r.pairs,
            `${(r.words / 1e3).toFixed(0)}k`,
            ms(a),
            ms(b),
            (b.median / a.median).toFixed(2),
            (c.median / a.median).toFixed(2)
        ]);
    }
}
auto.close();
table(
    [
        'scene',
        'busy time between steps',
        'pairs',
        'est. words/step',
        'no threads (ms/step)',
        'ThreadPool (ms/step)',
        'ratio',
        'ratio, minWords 0'
    ],
    rows
);

// Where splitting pays: batches of pairs of one size that never hit (a ring around a smaller one:
// full scans), with the workers polling (woken just before, as the World does) and asleep (woken by the batch).
const S = 128,
    rA = ring(S),
    rB = ring(S - 24);
const sweep: (string | number)[][] = [];
for (const n of [4, 16, 64, 256, 1024, 4096]) {
    const P = new Int32Array(4 * n),
        out = new Uint8Array(n),
        masks = [rA, rB];
    const rnd = mulberry32(n);
    for (let k = 0; k < n; k++) P.set([0, 1, 10 + Math.floor(rnd() * 5), 10 + Math.floor(rnd() * 5)], 4 * k);
    const want = overlapsMany(masks, P, out);
    if (want !== 0) throw new Error('the sweep pairs must not overlap');
    const words = n * (S - 24) * 4;
    // The three modes in turn, 101 rounds, so drift on the shared machine hits them alike.
    const t: number[][] = [[], [], []];
    for (let r = 0; r < 101; r++) {
        for (let m = 0; m < 3; m++) {
            if (m === 2)
                busy(3); // past the 2 ms spin window: workers sleep
            else if (m === 1) {
                pool.wake();
                busy(0.1);
            }
            const t0 = performance.now();
            const hits = overlapsMany(masks, P, { count: n, threads: m === 0 ? null : pool }, out);
            if (r > 0) t[m].push(performance.now() - t0);
            if (hits !== want) throw new Error('threaded batch disagrees');
        }
    }
    const [one, polling, asleep] = t.map(x => stats(x).median * 1e6);
    sweep.push([
        n,
        `${(words / 1e3).toFixed(0)}k`,
        fmt(one),
        fmt(polling),
        (polling / one).toFixed(2),
        fmt(asleep),
        (asleep / one).toFixed(2)
    ]);
}
pool.close();
table(
    [
        `${S}² ring around a ${S - 24}² ring, pairs per batch`,
        'words',
        'calling thread',
        'threads, workers polling',
        'ratio',
        'threads, workers asleep',
        'ratio'
    ],
    sweep
);
console.log('Default minWords (131072): batches estimated below it stay on the calling thread.');
