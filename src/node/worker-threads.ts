// Node worker threads for ThreadPool: node:worker_threads Workers running the pool's worker source.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ThreadPool, type ThreadPoolOptions, type WorkerLike } from '../threads/pool.js';

/**
 * @internal Starts a `node:worker_threads` Worker running a {@link ThreadPool} worker; it does not keep the process
 * alive.
 */
export function spawnNodeWorker(source: string): WorkerLike {
    const w = new Worker(`${source}\nrequire('node:worker_threads').parentPort.once('message', hitmaskWorker);\n`, {
        eval: true
    });
    w.unref();
    return w;
}

/** A {@link ThreadPool} of Node worker threads; `workers` defaults to the available cores minus one (at least 1). */
export function createThreadPool(
    workers: number = Math.max(1, availableParallelism() - 1),
    options: Omit<ThreadPoolOptions, 'spawn'> = {}
): ThreadPool {
    return new ThreadPool(workers, { ...options, spawn: spawnNodeWorker });
}
