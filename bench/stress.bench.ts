// The demo's stress scene in Node: DemoSim (demo/sim.ts) with N drifting bullets (default 10,000) and the
// built-in pilot, built from the demo's atlas as test/demo-sim.test.ts builds it. After a warm-up, times
// whole DemoSim.step calls and, inside them, the two World.step calls (pixel masks, plain boxes); prints
// median (min–max) of each. Issue 12's target is the stress step at or under 5 ms in Node.
// Run: node --import tsx bench/stress.bench.ts [--stress 10000] [--warmup 120] [--steps 300] [--seed 1]
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildAtlas } from '../src/node.js';
import { DemoSim } from '../demo/sim.js';
import { banner, table } from './harness.js';

const { values } = parseArgs({
    options: {
        stress: { type: 'string', default: '10000' },
        warmup: { type: 'string', default: '120' },
        steps: { type: 'string', default: '300' },
        seed: { type: 'string', default: '1' }
    }
});
const stress = Number(values.stress),
    warmup = Number(values.warmup),
    steps = Number(values.steps),
    seed = Number(values.seed);
for (const [name, v, min] of [
    ['stress', stress, 0],
    ['warmup', warmup, 0],
    ['steps', steps, 1],
    ['seed', seed, 0]
] as const) {
    if (!Number.isInteger(v) || v < min)
        throw new RangeError(`--${name} must be an integer ≥ ${min}, got ${values[name]}.`);
}

const ASSETS = fileURLToPath(new URL('../demo/assets/', import.meta.url));
const gifs = readdirSync(ASSETS)
    .filter(f => f.endsWith('.gif'))
    .sort()
    .map(f => join(ASSETS, f));
const atlas = (await buildAtlas(gifs, {})).atlas;

banner(
    `hitmask demo stress scene in Node: DemoSim with stress=${stress}, seed ${seed}, pilot on, ${steps} steps after ${warmup} warm-up steps`
);

const sim = new DemoSim(atlas, { seed, mode: 'pixel', stress, auto: true });
const now = (): number => performance.now();
for (let i = 0; i < warmup; i++) sim.step(undefined, now);
const total: number[] = [],
    pixel: number[] = [],
    box: number[] = [];
let pairs = 0,
    boxPairs = 0;
for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    sim.step(undefined, now);
    total.push(performance.now() - t0);
    pixel.push(sim.worldMs.pixel);
    box.push(sim.worldMs.box);
    const s = sim.stats();
    pairs += s.pixelPairs;
    boxPairs += s.boxPairs;
}

function spread(t: number[]): string {
    const s = t.slice().sort((a, b) => a - b);
    const q = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))];
    return `${q(0.5).toFixed(2)} (${s[0].toFixed(2)}–${s[s.length - 1].toFixed(2)}; p10 ${q(0.1).toFixed(2)}, p90 ${q(0.9).toFixed(2)})`;
}

const stats = sim.stats();
console.log(
    `sprites ${stats.sprites}, field ${sim.width}×${sim.height}; per step on average ${(boxPairs / steps).toFixed(1)} box pairs, ${(pairs / steps).toFixed(1)} pixel pairs\n`
);
table(
    ['ms per step', 'median (min–max; p10, p90)'],
    [
        ['DemoSim.step (whole step: game, both Worlds, analysis)', spread(total)],
        ['pixel World.step', spread(pixel)],
        ['box World.step', spread(box)],
        ['both World.step calls', spread(pixel.map((p, i) => p + box[i]))]
    ]
);
