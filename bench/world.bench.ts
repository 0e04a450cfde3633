// World benchmark: N moving sprites at constant density; per step, move every body and list every
// colliding pair (pixel-exact). Baseline in the same run: detect-collisions, boxes only, checkAll.
// Usage: npm run bench -- world [1000,10000,100000]
import os from 'node:os';
import { System } from 'detect-collisions';
import { Mask } from '../src/index.js';
import { World, type Body } from '../src/index.js';
import { advance, loadSprites, makeScene, type Scene } from './world-scene.js';
import { sortAndSweep } from './sweep.js';

// Untimed steps before the timed ones (the same for the three contenders): at 1k, 3 left the JIT still
// compiling through a third of the samples, so the medians compared warm-up, not steady state.
const WARM = 30;

function stats(t: number[]): { median: number; min: number; max: number } {
    const s = t.slice().sort((a, b) => a - b);
    return { median: s[Math.floor(s.length / 2)], min: s[0], max: s[s.length - 1] };
}

// The contenders' common loop: `warm` untimed steps, then `steps` timed ones; each step advances the scene,
// then `step` moves the contender's bodies and returns its pair count (the last one is reported).
function timeSteps(
    s: Scene,
    steps: number,
    warm: number,
    step: () => number
): { ms: ReturnType<typeof stats>; pairs: number } {
    const times: number[] = [];
    let pairs = 0;
    for (let k = 0; k < steps + warm; k++) {
        advance(s);
        const t0 = performance.now();
        pairs = step();
        const t1 = performance.now();
        if (k >= warm) times.push(t1 - t0);
    }
    return { ms: stats(times), pairs };
}

function benchOurs(
    n: number,
    masks: Mask[],
    steps: number
): { ms: ReturnType<typeof stats>; pairs: number; checksum: number } {
    const s = makeScene(n, masks, 1);
    const world = new World();
    const bodies: Body[] = [];
    for (let i = 0; i < n; i++) bodies.push(world.add({ x: s.x[i], y: s.y[i], mask: masks[s.kind[i]] }));
    let checksum = 0;
    // The step's pairs, read as a game reads them: begin and stay together see every current pair once.
    const sum = (a: Body, b: Body): void => {
        checksum += a.id ^ b.id;
    };
    world.on('begin', sum).on('stay', sum);
    const r = timeSteps(s, steps, n >= 100000 ? 3 : WARM, () => {
        for (let i = 0; i < n; i++) world.move(bodies[i], s.x[i], s.y[i]);
        return world.step();
    });
    return { ...r, checksum };
}

function benchDC(n: number, masks: Mask[], steps: number): { ms: ReturnType<typeof stats>; pairs: number } {
    const s = makeScene(n, masks, 1);
    const system = new System();
    const bodies: ReturnType<System['createBox']>[] = [];
    for (let i = 0; i < n; i++)
        bodies.push(system.createBox({ x: s.x[i], y: s.y[i] }, masks[s.kind[i]].width, masks[s.kind[i]].height));
    return timeSteps(s, steps, n >= 10000 ? 2 : WARM, () => {
        for (let i = 0; i < n; i++) bodies[i].setPosition(s.x[i], s.y[i]);
        let count = 0;
        system.checkAll(() => {
            count++;
        });
        return count / 2; // checkAll reports each pair from both sides
    });
}

// Baseline: sort-and-sweep on x and the same pixel test per box pair (bench/sweep.ts).
function benchSAP(n: number, masks: Mask[], steps: number): { ms: ReturnType<typeof stats>; pairs: number } {
    const s = makeScene(n, masks, 1);
    return timeSteps(s, steps, n >= 100000 ? 3 : WARM, sortAndSweep(s, masks));
}

const sizes = (process.argv[2] ?? '1000,10000,100000').split(',').map(Number);
const { masks, source } = loadSprites();
console.log(
    `hitmask World benchmark — ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}, load ${os
        .loadavg()
        .map(l => l.toFixed(2))
        .join(' ')} (1/5/15 min)`
);
console.log(
    `sprites: ${source}; density 8% box coverage; speeds up to 3 px/step; times are ms per step (median [min–max])`
);
console.log('note: shared machine, other jobs running; treat ratios as indicative\n');
const fmt = (m: ReturnType<typeof stats>): string => `${m.median.toFixed(2)} [${m.min.toFixed(2)}–${m.max.toFixed(2)}]`;
const rows: string[] = [];
let ours10k = 0;
for (const n of sizes) {
    // Enough steps for a stable median: the 100k/10k growth is a ratio of two of them (5 and 15 steps made it swing by ±1).
    const steps = n >= 100000 ? 15 : n >= 10000 ? 40 : 100;
    const o = benchOurs(n, masks, steps);
    const d = benchDC(n, masks, n >= 100000 ? 3 : steps);
    const sap = benchSAP(n, masks, steps);
    if (sap.pairs !== o.pairs) throw new Error(`sort-and-sweep found ${sap.pairs} pixel pairs, the World ${o.pairs}`);
    if (n === 10000) ours10k = o.ms.median;
    const growth = n === 100000 && ours10k > 0 ? ` (100k/10k = ${(o.ms.median / ours10k).toFixed(1)}x)` : '';
    rows.push(
        `| ${n} | ${fmt(o.ms)}${growth} | ${o.pairs} | ${fmt(sap.ms)} | ${(o.ms.median / sap.ms.median).toFixed(2)} | ${fmt(d.ms)} | ${d.pairs} | ${(o.ms.median / d.ms.median).toFixed(3)} |`
    );
    console.log(
        `N=${n}: hitmask ${fmt(o.ms)} ms (${o.pairs} pixel pairs, checksum ${o.checksum}), sort-and-sweep ${fmt(sap.ms)} ms, detect-collisions ${fmt(d.ms)} ms (${d.pairs} box pairs)`
    );
}
console.log(
    '\n| sprites | hitmask World (ms/step) | pixel pairs | sort-and-sweep + overlaps (ms/step) | World / SAP | detect-collisions checkAll (ms/step) | box pairs | World / detect-collisions |'
);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
