// A worker thread of buildAtlas: reads still PNGs and returns their threshold masks as packed words. Anything
// else (not a still PNG, an unreadable or corrupt file) is answered `redo`: the main thread then builds that file
// itself, so that results, notes and errors (naming the file) are exactly those of a build without workers.
import { parentPort } from 'node:worker_threads';
import { stillPngMask } from './pngmask.js';
import { readInputSync } from './read.js';

/** A job: the index of the file in the build, its path, the threshold and the decode budget. */
export interface WorkerJob {
    k: number;
    path: string;
    threshold: number;
    maxBytes: number;
}
/** A result: the mask's words, or `redo`. */
export type WorkerResult = { k: number; width: number; height: number; words: Uint32Array } | { k: number; redo: true };

const port = parentPort;
if (port) {
    // One file at a time, in the order sent: each job waits for the one before it.
    let queue = Promise.resolve();
    port.on('message', (job: WorkerJob) => {
        queue = queue.then(() => {
            let r;
            try {
                // Read as the main thread reads: regular files only, within the budget.
                r = stillPngMask(
                    readInputSync(job.path, job.maxBytes, 'image'),
                    job.threshold,
                    job.maxBytes,
                    (w, h) => new Uint32Array(((w + 31) >>> 5) * h)
                );
            } catch {
                r = null;
            }
            if (r)
                port.postMessage(
                    { k: job.k, width: r.width, height: r.height, words: r.words } satisfies WorkerResult,
                    [r.words.buffer as ArrayBuffer]
                );
            else port.postMessage({ k: job.k, redo: true } satisfies WorkerResult);
        });
    });
}
