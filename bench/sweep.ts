// The World benchmarks' baseline: a plain sort-and-sweep broad phase on x (insertion sort of last step's
// order, which motion barely changes) and the same pixel test per box pair: what a user would write in 30
// lines. Shared by bench/world.bench.ts and bench/speed.bench.ts.
import type { Mask } from '../src/index.js';
import type { Scene } from './world-scene.js';

/** A step function over the scene's current positions: returns the pixel-overlapping pairs. */
export function sortAndSweep(s: Scene, masks: Mask[]): () => number {
    const n = s.x.length;
    const w = Int32Array.from(s.kind, k => masks[k].width),
        h = Int32Array.from(s.kind, k => masks[k].height);
    const order = Int32Array.from({ length: n }, (_, i) => i),
        x0 = new Float64Array(n),
        y0 = new Float64Array(n);
    return () => {
        for (let i = 0; i < n; i++) {
            x0[i] = Math.floor(s.x[i]);
            y0[i] = Math.floor(s.y[i]);
        }
        for (let i = 1; i < n; i++) {
            const v = order[i],
                key = x0[v];
            let j = i - 1;
            while (j >= 0 && x0[order[j]] > key) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = v;
        }
        let count = 0;
        for (let a = 0; a < n; a++) {
            const i = order[a],
                xe = x0[i] + w[i],
                ya = y0[i],
                ye = ya + h[i];
            for (let b = a + 1; b < n; b++) {
                const j = order[b];
                if (x0[j] >= xe) break;
                if (y0[j] >= ye || y0[j] + h[j] <= ya) continue;
                if (masks[s.kind[i]].overlaps(masks[s.kind[j]], x0[j] - x0[i], y0[j] - ya)) count++;
            }
        }
        return count;
    };
}
