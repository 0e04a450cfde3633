// hitmask/threads: entry point. The pool and the types its options name; its worker source stays inside.
export { ThreadPool, type ThreadPoolOptions, type SpawnWorker, type WorkerLike } from './threads/pool.js';
