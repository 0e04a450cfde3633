// hitmask/threads: worker threads for the narrow phase. Masks live in one shared WebAssembly memory
// (src/kernels/memory.ts);
// each worker instantiates the same kernels module over that memory, so a batch of overlap records
// can be split between threads with nothing copied. Coordination is a small SharedArrayBuffer of
// Int32 slots: the calling thread publishes a batch, wakes the workers with Atomics.notify, and every
// thread (the caller too) claims chunks of records until none are left. The caller spins until all
// chunks are done: batches are short, and a browser's main thread may not Atomics.wait.
import { checkInt } from '../base/check.js';
import { checkFunction, checkObject } from '../base/check-types.js';
import { K, sharedMemory, type WasmMemory } from '../kernels/memory.js';

/** What a {@link ThreadPool} needs of a worker: a web `Worker` and a `node:worker_threads` Worker both fit. */
export interface WorkerLike {
    postMessage(message: unknown): void;
    terminate(): unknown;
    /** Node's worker events ('error', 'exit'): listened to, where present, to notice a worker that died. */
    on?(event: string, listener: (arg: unknown) => void): unknown;
    /** A web Worker's events ('error'): the same. */
    addEventListener?(type: string, listener: (event: unknown) => void): void;
}

/**
 * Starts a worker that runs `source` (classic-script JavaScript defining `function hitmaskWorker(message)`)
 * and calls `hitmaskWorker` with the first message it receives.
 */
export type SpawnWorker = (source: string) => WorkerLike;

/** Options of {@link ThreadPool}. */
export interface ThreadPoolOptions {
    /**
     * Batches whose estimated work is below this many 32-bit words stay on the calling thread: waking a
     * worker costs more than scanning them (measured in bench/threads.bench.ts). @default 131072
     */
    minWords?: number;
    /**
     * After a batch or a {@link ThreadPool.wake}, workers poll for the next batch this long before they
     * sleep (a sleeping worker takes tens of microseconds to wake). Polling keeps a core busy. @default 2000
     */
    spinMicros?: number;
    /**
     * Starts one worker; by default a web Worker from a Blob URL. Node users get one from `hitmask/node`'s
     * `createThreadPool`.
     */
    spawn?: SpawnWorker;
    /**
     * A batch whose chunks make no progress for this long fails: a worker died (or hung) holding one.
     * The pool then closes and the call throws an Error saying so; later batches run on the calling
     * thread. @default 2000
     */
    stallMs?: number;
}

// Control slots. NEXT holds (generation tag << 20 | next chunk); CLOSED between batches.
const GEN = 0,
    NEXT = 1,
    DONE = 2,
    HITS = 3,
    TP = 4,
    COUNT = 5,
    RP = 6,
    CHUNK = 7,
    CHUNKS = 8,
    STOP = 9,
    READY = 10,
    SPIN = 11,
    BY_WORKERS = 12;
const CLOSED = 0x7fffffff,
    INDEX = 0xfffff,
    MAX_CHUNKS = 1 << 19;

/**
 * Worker code, a classic script: instantiate the kernels over the shared memory, then wait for
 * batches and claim chunks exactly as {@link ThreadPool} does on the calling thread. A claim is a
 * compare-exchange on NEXT that includes the batch's generation tag, so a worker that wakes late
 * can never take (or half-read the parameters of) a later batch.
 */
const WORKER_SOURCE = `"use strict";
function hitmaskWorker(msg) {
  var k = new WebAssembly.Instance(msg.module, { env: { memory: msg.memory } }).exports;
  var c = new Int32Array(msg.control);
  Atomics.add(c, ${READY}, 1);
  var seen = 0, spins = 0, until = 0;
  for (;;) {
    // After a batch or a wake(), poll for the next batch during the spin window before sleeping:
    // waking a sleeping thread takes tens of microseconds, longer than many batches.
    until = performance.now() + Atomics.load(c, ${SPIN}) / 1000;
    for (spins = 0; Atomics.load(c, ${GEN}) === seen; spins++) {
      if ((spins & 63) === 0 && performance.now() > until) { Atomics.wait(c, ${GEN}, seen); break; }
    }
    seen = Atomics.load(c, ${GEN});
    if (Atomics.load(c, ${STOP}) !== 0) return;
    var tag = (seen & 0x7ff) << 20;
    var tp = Atomics.load(c, ${TP}), n = Atomics.load(c, ${COUNT}), rp = Atomics.load(c, ${RP});
    var chunk = Atomics.load(c, ${CHUNK}), chunks = Atomics.load(c, ${CHUNKS});
    for (;;) {
      var cur = Atomics.load(c, ${NEXT});
      if ((cur & ~${INDEX}) !== tag || (cur & ${INDEX}) >= chunks) break;
      if (Atomics.compareExchange(c, ${NEXT}, cur, cur + 1) !== cur) continue;
      var s = (cur & ${INDEX}) * chunk;
      Atomics.add(c, ${HITS}, k.overlapsBatch(tp + s * 32, Math.min(chunk, n - s), rp + s));
      Atomics.add(c, ${BY_WORKERS}, 1);
      Atomics.add(c, ${DONE}, 1);
    }
  }
}
`;

interface BrowserGlobals {
    Worker?: new (url: string) => WorkerLike & { onerror: unknown };
    Blob?: new (parts: string[], options: { type: string }) => object;
    URL?: { createObjectURL(blob: object): string };
    crossOriginIsolated?: boolean;
}

function browserSpawn(source: string): WorkerLike {
    const g = globalThis as unknown as BrowserGlobals;
    if (typeof g.Worker !== 'function' || typeof g.Blob !== 'function' || g.URL === undefined) {
        throw new Error(
            "ThreadPool needs web Workers to spawn threads; in Node use createThreadPool from 'hitmask/node', or pass options.spawn."
        );
    }
    const url = g.URL.createObjectURL(
        new g.Blob([source, '\nself.onmessage = function (e) { self.onmessage = null; hitmaskWorker(e.data); };\n'], {
            type: 'text/javascript'
        })
    );
    return new g.Worker(url);
}

/**
 * Worker threads that share the World's narrow phase (and `overlapsMany`): the pixel tests
 * of one step are split between the calling thread and `workers` workers over shared WebAssembly memory.
 * Needs the WebAssembly kernels with shared memory: Node, or a cross-origin-isolated page
 * (`Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy: require-corp`);
 * there every mask made with the WebAssembly kernels lives in the shared memory. Pairs of other masks
 * (made with the JS kernels, `Mask.fromWords`) are tested on the calling thread.
 *
 * @example
 * const world = new World({ threads: new ThreadPool(Math.max(1, navigator.hardwareConcurrency - 1)) });
 */
export class ThreadPool {
    /** Number of worker threads (the calling thread works too). */
    readonly workers: number;
    /** Batches estimated below this many words stay on the calling thread. */
    readonly minWords: number;
    readonly #memory: WasmMemory;
    readonly #control: Int32Array;
    readonly #threads: WorkerLike[] = [];
    readonly #stallMs: number;
    #gen = 0;
    #closed = false;
    // Why the pool stopped on its own (a worker died or hung), and whether a call has reported it yet.
    #failure: string | null = null;
    #reported = false;

    /** Starts `workers` worker threads (at least 1); throws where threads cannot share mask memory, saying why. */
    constructor(workers: number, options: ThreadPoolOptions = {}) {
        checkInt('workers', workers, 1, 256);
        checkObject('options', options);
        this.minWords = checkInt('minWords', options.minWords ?? 131072, 0, 2 ** 53);
        const spin = checkInt('spinMicros', options.spinMicros ?? 2000, 0, 1e6);
        this.#stallMs = checkInt('stallMs', options.stallMs ?? 2000, 1, 2 ** 31 - 1);
        const spawn = options.spawn ?? browserSpawn;
        checkFunction('spawn', spawn, 'a function (source) => Worker');
        const shared = sharedMemory();
        if (shared === null) {
            const g = globalThis as unknown as BrowserGlobals;
            const why =
                typeof SharedArrayBuffer !== 'function'
                    ? 'SharedArrayBuffer is unavailable' +
                      (g.crossOriginIsolated === false
                          ? ' (the page is not cross-origin isolated: serve it with COOP: same-origin and COEP: require-corp)'
                          : '')
                    : "the WebAssembly kernels with shared memory are not in use (setKernels('js'), no WebAssembly SIMD, or shared WebAssembly memory is refused here)";
            throw new Error(`ThreadPool needs masks in shared WebAssembly memory, but ${why}.`);
        }
        this.workers = workers;
        this.#memory = shared.memory;
        this.#control = new Int32Array(new SharedArrayBuffer(64));
        this.#control[NEXT] = CLOSED;
        this.#control[SPIN] = spin;
        const message = { module: shared.module, memory: shared.memory, control: this.#control.buffer };
        try {
            for (let i = 0; i < workers; i++) {
                const w = spawn(WORKER_SOURCE);
                this.#threads.push(w);
                this.#watch(w, i);
                w.postMessage(message);
            }
        } catch (e) {
            this.close();
            throw e;
        }
    }

    // A worker's error or exit (events arrive between tasks, never during a batch's spin) closes the pool.
    #watch(w: WorkerLike, i: number): void {
        const died = (why: string) => {
            if (this.#closed) return;
            this.#failure = `worker ${i} ${why}`;
            this.close();
        };
        const message = (e: unknown) => (e as { message?: unknown })?.message ?? String(e);
        if (typeof w.on === 'function') {
            w.on('error', e => died(`threw: ${message(e)}`));
            w.on('exit', code => died(`exited with code ${String(code)}`));
        } else if (typeof w.addEventListener === 'function') {
            w.addEventListener('error', e => died(`failed: ${message(e)}`));
        }
    }

    /** Why the pool stopped by itself (a worker died, or a batch stalled), or null. */
    get failure(): string | null {
        return this.#failure;
    }

    /** Number of workers that have started and wait for work. */
    get ready(): number {
        return Atomics.load(this.#control, READY);
    }

    /**
     * Chunks of pairs the workers have tested since the pool started (the rest ran on the calling thread): shows that
     * they take part.
     */
    get workerChunks(): number {
        return Atomics.load(this.#control, BY_WORKERS);
    }

    /**
     * Resolves once every worker has started (or after `timeoutMs`, rejecting); batches run without waiting for this,
     * on fewer threads.
     */
    async whenReady(timeoutMs = 10000): Promise<void> {
        const until = Date.now() + timeoutMs;
        for (;;) {
            if (this.#closed) throw new Error('ThreadPool was closed.');
            if (this.ready >= this.workers) return;
            if (Date.now() > until)
                throw new Error(`ThreadPool: ${this.ready} of ${this.workers} workers started within ${timeoutMs} ms.`);
            await new Promise(r => setTimeout(r, 1));
        }
    }

    /**
     * Wakes the workers ahead of a batch, so they are polling (see {@link ThreadPoolOptions.spinMicros})
     * rather than asleep when it comes: the World calls this before its broad phase.
     */
    wake(): void {
        if (this.#closed) return;
        const c = this.#control;
        this.#gen = (this.#gen + 1) | 0;
        Atomics.store(c, GEN, this.#gen); // NEXT stays CLOSED: no chunks to take
        Atomics.notify(c, GEN);
    }

    /** Stops the workers; later batches run on the calling thread. */
    close(): void {
        if (this.#closed) return;
        this.#closed = true;
        Atomics.store(this.#control, STOP, 1);
        Atomics.add(this.#control, GEN, 1);
        Atomics.notify(this.#control, GEN);
        for (const w of this.#threads) w.terminate();
    }

    /** Whether {@link close} was called. */
    get closed(): boolean {
        return this.#closed;
    }

    /** @internal Runs a batch of overlap records, split across the threads when it is worth it. */
    run(tp: number, n: number, rp: number, work: number): number {
        if (this.#failure !== null && !this.#reported) {
            // The pool died between batches: the caller hears about it once; later batches run on its thread.
            this.#reported = true;
            throw new Error(this.#failureMessage());
        }
        if (this.#closed || n < 2 || work < this.minWords || sharedMemory()?.memory !== this.#memory)
            return K.overlapsBatch(tp, n, rp);
        const c = this.#control;
        // About 32 chunks per thread: the caller waits for chunks that workers have claimed, so they must be
        // short (a worker descheduled mid-chunk stalls the step), while a claim costs one compare-exchange.
        const chunk = Math.max(8, Math.ceil(n / (32 * (this.workers + 1))), Math.ceil(n / MAX_CHUNKS));
        const chunks = Math.ceil(n / chunk);
        const gen = (this.#gen = (this.#gen + 1) | 0),
            tag = (gen & 0x7ff) << 20;
        Atomics.store(c, TP, tp);
        Atomics.store(c, COUNT, n);
        Atomics.store(c, RP, rp);
        Atomics.store(c, CHUNK, chunk);
        Atomics.store(c, CHUNKS, chunks);
        Atomics.store(c, DONE, 0);
        Atomics.store(c, HITS, 0);
        Atomics.store(c, NEXT, tag);
        Atomics.store(c, GEN, gen);
        Atomics.notify(c, GEN);
        const k = K;
        for (;;) {
            const cur = Atomics.load(c, NEXT),
                i = cur & INDEX;
            if (i >= chunks) break;
            if (Atomics.compareExchange(c, NEXT, cur, cur + 1) !== cur) continue;
            const s = i * chunk;
            Atomics.add(c, HITS, k.overlapsBatch(tp + s * 32, Math.min(chunk, n - s), rp + s));
            Atomics.add(c, DONE, 1);
        }
        // Wait for the workers' last chunks, but not forever: a worker that died holding a chunk never
        // finishes it, and its death is an event this spinning thread cannot receive.
        let done = Atomics.load(c, DONE),
            since = performance.now();
        for (let spins = 1; done < chunks; spins++) {
            if ((spins & 1023) !== 0) {
                done = Atomics.load(c, DONE);
                continue;
            }
            const now = Atomics.load(c, DONE),
                t = performance.now();
            if (now !== done) {
                done = now;
                since = t;
                continue;
            }
            if (t - since > this.#stallMs) {
                Atomics.store(c, NEXT, CLOSED);
                this.#failure ??= `a batch made no progress for ${this.#stallMs} ms (${chunks - now} of ${chunks} chunks unfinished): a worker died or hung`;
                this.#reported = true;
                this.close();
                throw new Error(this.#failureMessage());
            }
        }
        // Close the batch before the next one rewrites the parameters (see WORKER_SOURCE).
        Atomics.store(c, NEXT, CLOSED);
        return Atomics.load(c, HITS);
    }

    #failureMessage(): string {
        return `ThreadPool stopped: ${this.#failure}. The pool is closed: later batches run on the calling thread (create a new ThreadPool to use threads again).`;
    }
}
