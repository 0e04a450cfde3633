// @test no-shared
// ThreadPool: batches split across worker threads give the single-thread results, across many
// consecutive batches of changing sizes (the generation-tagged claims), mixed memories, and close().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mask } from '../src/index.js';
import { createThreadPool } from '../src/node.js';
import { spawnNodeWorker } from '../src/node/worker-threads.js'; // internal: the worker factory has no public entry
import { ThreadPool, type WorkerLike } from '../src/threads.js';
import { setKernels } from '../src/index.js';
import { kernelStats } from '../src/index.js';
import { World } from '../src/index.js';
import { mulberry32, Ref } from './reference.js';
import { overlapsMany } from '../src/index.js';

// Worker threads need shared memory: skipped where SharedArrayBuffer is gone (the no-shared-memory run).
const hasShared = typeof SharedArrayBuffer === 'function';
const { wasmAvailable } = kernelStats();
const skip = !wasmAvailable || !hasShared;

// A worker joins a batch only if the OS runs it while the batch lasts: on a busy machine that can take
// many batches. Runs `batch` until the pool's workers have tested a chunk, at most `most` times (a count,
// never a clock); returns how many it ran.
function untilWorkersJoin(pool: ThreadPool, batch: () => void, most = 5000): number {
    const before = pool.workerChunks;
    let n = 0;
    while (pool.workerChunks === before && n < most) {
        batch();
        n++;
    }
    assert.ok(pool.workerChunks > before, `no worker took part in ${n} batches`);
    return n;
}

function randomBatch(rnd: () => number, masks: Mask[], n: number): Int32Array {
    const P = new Int32Array(4 * n);
    for (let k = 0; k < n; k++) {
        const a = Math.floor(rnd() * masks.length),
            b = Math.floor(rnd() * masks.length);
        P.set(
            [
                a,
                b,
                Math.floor(rnd() * (masks[a].width + masks[b].width + 4)) - masks[b].width - 2,
                Math.floor(rnd() * (masks[a].height + masks[b].height + 4)) - masks[b].height - 2
            ],
            4 * k
        );
    }
    return P;
}

test(
    'threaded batches equal single-thread batches, batch after batch, and the workers take part',
    { skip },
    async () => {
        const pool = createThreadPool(2, { minWords: 0 });
        try {
            await pool.whenReady();
            assert.equal(pool.ready, 2);
            const rnd = mulberry32(77);
            const refs = Array.from({ length: 16 }, (_, i) =>
                Ref.random(20 + i * 13, 10 + i * 11, [0.002, 0.02, 0.3][i % 3], 500 + i)
            );
            const masks = refs.map(r => r.toMask());
            masks.push(Mask.fromWords(70, 40, new Mask(70, 40, true).words.slice())); // JS-heap words: tested on the calling thread
            refs.push(Ref.of(masks[masks.length - 1]));
            for (let round = 0; round < 400; round++) {
                const n = [1, 2, 7, 64, 300, 2000][round % 6] + Math.floor(rnd() * 5);
                const P = randomBatch(rnd, masks, n);
                const one = new Uint8Array(n),
                    many = new Uint8Array(n).fill(9);
                const h1 = overlapsMany(masks, P, one);
                const h2 = overlapsMany(masks, P, { count: n, threads: pool }, many);
                assert.equal(h2, h1, `round ${round}: hit count`);
                assert.deepEqual(many, one, `round ${round}: results`);
                if (round % 50 === 0) {
                    for (let k = 0; k < n; k++)
                        assert.equal(
                            one[k],
                            refs[P[4 * k]].overlap(refs[P[4 * k + 1]], P[4 * k + 2], P[4 * k + 3]) ? 1 : 0
                        );
                }
            }
            if (pool.workerChunks === 0) {
                const masks2 = [new Mask(256, 256, false), new Mask(256, 256, false)],
                    P = new Int32Array(4 * 2000);
                for (let k = 0; k < 2000; k++) P.set([0, 1, 0, 0], 4 * k);
                untilWorkersJoin(pool, () => {
                    pool.wake();
                    assert.equal(overlapsMany(masks2, P, { count: 2000, threads: pool }, new Uint8Array(2000)), 0);
                });
            }
        } finally {
            pool.close();
        }
    }
);

test('a World with threads reports the same pairs as one without', { skip }, async () => {
    const pool = createThreadPool(1, { minWords: 0 });
    try {
        await pool.whenReady();
        const rnd = mulberry32(3);
        const masks = [40, 90, 150].map((s, i) => Ref.random(s, s, 0.004, 40 + i).toMask());
        const plain = new World(),
            threaded = new World({ threads: pool });
        assert.equal(threaded.threads, pool);
        const xs = Array.from({ length: 400 }, () => rnd() * 900),
            ys = xs.map(() => rnd() * 900),
            ks = xs.map(() => Math.floor(rnd() * 3));
        const a = xs.map((x, i) => plain.add({ x, y: ys[i], mask: masks[ks[i]] }));
        const b = xs.map((x, i) => threaded.add({ x, y: ys[i], mask: masks[ks[i]] }));
        const before = pool.workerChunks;
        for (let s = 0; s < 20; s++) {
            for (let i = 0; i < xs.length; i++) {
                xs[i] += rnd() * 10 - 5;
                plain.move(a[i], xs[i], ys[i]);
                threaded.move(b[i], xs[i], ys[i]);
            }
            const n = plain.step();
            assert.equal(threaded.step(), n);
            const tp = threaded.collisions(),
                pp = plain.collisions();
            assert.equal(pp.length, n, 'collisions() detects the same pairs as step()');
            assert.deepEqual(
                tp.map(p => [p.a.id, p.b.id]),
                pp.map(p => [p.a.id, p.b.id])
            );
        }
        // The worker took part in the World's steps (more steps, same answers, until it has).
        if (pool.workerChunks === before) untilWorkersJoin(pool, () => assert.equal(threaded.step(), plain.step()));
        threaded.threads = null;
        assert.equal(threaded.step(), plain.step());
    } finally {
        pool.close();
    }
});

test(
    "minWords keeps small batches (estimated by the boxes' intersections) on the calling thread",
    { skip },
    async () => {
        const pool = createThreadPool(1, { minWords: 50_000, spinMicros: 100_000 }); // workers keep polling: any chunk offered is taken
        try {
            await pool.whenReady();
            const masks = [new Mask(256, 256), new Mask(256, 256)];
            const run = (n: number, dx: number) => {
                const P = new Int32Array(4 * n);
                for (let k = 0; k < n; k++) P.set([0, 1, dx, 0], 4 * k);
                pool.wake();
                return overlapsMany(masks, P, { count: n, threads: pool }, new Uint8Array(n));
            };
            const before = pool.workerChunks;
            assert.equal(run(20_000, 300), 0); // boxes apart: 0 words, however many pairs
            assert.equal(run(90, 255), 0); // 1-px slivers: 90 × 256 rows × 2 = 46,080 words < minWords
            assert.equal(pool.workerChunks, before, 'small batches stayed on the calling thread');
            untilWorkersJoin(pool, () => run(2000, 0)); // a large batch reaches the workers: 2000 × 256 × 9 words
        } finally {
            pool.close();
        }
    }
);

test('close() stops the workers; later batches run on the calling thread', { skip }, async () => {
    const pool = createThreadPool(1, { minWords: 0 });
    await pool.whenReady();
    pool.close();
    pool.close();
    assert.equal(pool.closed, true);
    await assert.rejects(pool.whenReady(), /ThreadPool was closed/);
    const masks = [new Mask(64, 64, true), new Mask(10, 10, true)];
    const out = new Uint8Array(2);
    assert.equal(overlapsMany(masks, new Int32Array([0, 1, 5, 5, 0, 1, 70, 0]), { count: 2, threads: pool }, out), 1);
    assert.deepEqual([...out], [1, 0]);
});

test('ThreadPool rejects bad arguments and explains when threads cannot work', { skip }, () => {
    const bad = (fn: () => unknown, type: typeof Error, pattern: RegExp) =>
        assert.throws(fn, (e: unknown) => e instanceof type && pattern.test((e as Error).message));
    bad(() => new ThreadPool(0), RangeError, /workers must be an integer in 1\.\.256, got 0/);
    bad(() => new ThreadPool(1.5), RangeError, /workers must be an integer .* got 1\.5/);
    bad(() => new ThreadPool(1, { minWords: -1 }), RangeError, /minWords must be an integer .* got -1/);
    bad(() => new ThreadPool(1, { spinMicros: NaN }), RangeError, /spinMicros must be an integer .* got NaN/);
    bad(
        () => new ThreadPool(1, { spawn: 'worker.js' as unknown as () => WorkerLike }),
        TypeError,
        /spawn must be a function .* got "worker\.js"/
    );
    // Node has no web Worker: the default spawn says where to get one.
    bad(() => new ThreadPool(1), Error, /needs web Workers .* createThreadPool from 'hitmask\/node'/);
    bad(
        () => new World({ threads: {} as ThreadPool }),
        TypeError,
        /threads must be a ThreadPool \(from 'hitmask\/threads'\) or null, got Object/
    );
    bad(
        () =>
            overlapsMany(
                [new Mask(1, 1)],
                new Int32Array(4),
                { count: 1, threads: {} as ThreadPool },
                new Uint8Array(1)
            ),
        TypeError,
        /threads must be a ThreadPool or null, got Object/
    );
    const prev = kernelStats().kernels;
    try {
        setKernels('js');
        bad(
            () => createThreadPool(1),
            Error,
            /needs masks in shared WebAssembly memory, but the WebAssembly kernels with shared memory are not in use/
        );
    } finally {
        setKernels(prev);
    }
});

test(
    'without SharedArrayBuffer ThreadPool says why, and the kernels still run in WebAssembly',
    { skip: hasShared || !wasmAvailable },
    () => {
        assert.throws(
            () => createThreadPool(1),
            (e: unknown) =>
                e instanceof Error &&
                /needs masks in shared WebAssembly memory, but SharedArrayBuffer is unavailable/.test(
                    (e as Error).message
                )
        );
        const stats = kernelStats();
        assert.equal(stats.kernels, 'wasm');
        assert.equal(stats.sharedMemory, false);
    }
);

test('a spawn that fails part-way stops the workers already started', { skip }, () => {
    const started: { terminated: boolean; messages: unknown[] }[] = [];
    const spawn = (source: string): WorkerLike => {
        assert.match(source, /function hitmaskWorker\(msg\)/);
        if (started.length === 2) throw new Error('no more workers');
        const w = { terminated: false, messages: [] as unknown[] };
        started.push(w);
        return {
            postMessage: m => {
                w.messages.push(m);
            },
            terminate: () => {
                w.terminated = true;
            }
        };
    };
    assert.throws(() => new ThreadPool(3, { spawn }), /no more workers/);
    assert.equal(started.length, 2);
    assert.ok(started.every(w => w.terminated && w.messages.length === 1));
});

// A worker that dies after claiming a chunk: its source throws right before it would add its chunk's hits.
const dyingSource = (source: string) =>
    source.replace(
        /Atomics\.add\(c, \d+, k\.overlapsBatch/,
        'throw new Error("worker crash after claiming a chunk"); $&'
    );

test(
    'a worker that dies holding a chunk: the batch fails after stallMs with a clear Error, and the pool falls back to the calling thread',
    { skip },
    async () => {
        const rnd = mulberry32(77),
            masks = Array.from({ length: 6 }, (_, i) => Ref.random(40 + 10 * i, 30 + 7 * i, 0.2, 300 + i).toMask());
        const pool = new ThreadPool(1, {
            minWords: 0,
            stallMs: 300,
            spinMicros: 1e6,
            spawn: s => spawnNodeWorker(dyingSource(s))
        });
        await pool.whenReady();
        const P = randomBatch(rnd, masks, 20000),
            n = P.length >> 2,
            out = new Uint8Array(n),
            want = new Uint8Array(n);
        const hits = overlapsMany(masks, P, want);
        // The worker must claim a chunk: wake it (it polls), and retry until a batch fails.
        // Bounded by count: each batch that stalls returns after stallMs, so 50 tries end; a wait that never
        // gave up would hang here (and the runner's time limit names this file).
        let error: unknown = null,
            tries = 0;
        while (tries < 50 && error === null) {
            tries++;
            pool.wake();
            try {
                overlapsMany(masks, P, { count: n, threads: pool }, out);
            } catch (e) {
                error = e;
            }
        }
        assert.ok(
            error instanceof Error &&
                /ThreadPool stopped: .*no progress for 300 ms.*later batches run on the calling thread/.test(
                    error.message
                ),
            `after ${tries} tries: ${String(error)}`
        );
        assert.equal(pool.closed, true);
        assert.ok(pool.failure !== null);
        // Afterwards the pool is a single-thread pool: same answers, no more errors.
        assert.equal(overlapsMany(masks, P, { count: n, threads: pool }, out), hits);
        assert.deepEqual(out, want);
        const world = new World({ threads: pool }),
            plain = new World();
        for (let i = 0; i < 200; i++) {
            const x = rnd() * 300,
                y = rnd() * 300,
                mask = masks[i % masks.length];
            world.add({ x, y, mask });
            plain.add({ x, y, mask });
        }
        assert.equal(world.step(), plain.step());
    }
);

test(
    'a worker that dies between batches: the next batch reports it once, then runs on the calling thread',
    { skip },
    async () => {
        const masks = [new Mask(64, 64, true), new Mask(48, 48, true)];
        let worker: WorkerLike | null = null;
        const pool = new ThreadPool(1, { minWords: 0, spawn: s => (worker = spawnNodeWorker(s)) });
        await pool.whenReady();
        (worker as unknown as WorkerLike).terminate();
        // The worker's exit arrives as an event: wait for it (6,000 turns of 10 ms; it takes one or two).
        for (let i = 0; i < 6000 && pool.failure === null; i++) await new Promise(r => setTimeout(r, 10));
        assert.match(String(pool.failure), /worker 0 exited with code/);
        const P = new Int32Array([0, 1, 5, 5, 1, 0, 100, 0, 0, 1, -10, -10]),
            out = new Uint8Array(3);
        assert.throws(
            () => overlapsMany(masks, P, { count: 3, threads: pool }, out),
            /ThreadPool stopped: worker 0 exited with code/
        );
        assert.equal(overlapsMany(masks, P, { count: 3, threads: pool }, out), 2);
        assert.deepEqual([...out], [1, 0, 1]);
    }
);
