// hitmask/threads: entry point.
export * from './threads/pool.js';
