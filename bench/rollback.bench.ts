// Rollback cost: a World of N moving sprites (the World benchmark's scene); each frame moves every body and
// steps, then takes a snapshot into a reused buffer (a ring of 8, as a rollback window keeps), restores the
// snapshot of 4 frames before (a late input: every moving body goes back), restores this frame's again, and
// hashes. Baseline in the same run: the step itself. Times are the process's CPU time (a shared machine
// stretches wall time, not CPU time). Reported: medians [min–max] per frame and (snapshot + restore) / step.
// Usage: npm run bench -- rollback [1000,10000]
import os from 'node:os';
import { World, type Body } from '../src/index.js';
import { advance, loadSprites, makeScene } from './world-scene.js';

const WARM = 30,
    FRAMES = 90,
    RING = 8,
    BACK = 4;

const cpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
};
const med = (t: number[]): number => t.slice().sort((a, b) => a - b)[t.length >> 1];
function median(t: number[]): string {
    const s = t.slice().sort((a, b) => a - b);
    return `${s[s.length >> 1].toFixed(3)} [${s[0].toFixed(3)}–${s[s.length - 1].toFixed(3)}]`;
}

const sizes = (process.argv[2] ?? '1000,10000').split(',').map(Number);
const { masks, source } = loadSprites();
console.log(
    `hitmask rollback benchmark — ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}, load ${os
        .loadavg()
        .map(l => l.toFixed(2))
        .join(' ')} (1/5/15 min)`
);
console.log(
    `sprites: ${source}; CPU ms per frame, median [min–max] of ${FRAMES} frames after ${WARM} warm-up frames\n`
);
console.log(
    `| sprites | step | snapshot(out) | restore ${BACK} frames back | restore this frame | hash | snapshot bytes | (snapshot + restore back) / step |`
);
console.log('|---|---|---|---|---|---|---|---|');
for (const n of sizes) {
    const s = makeScene(n, masks, 1),
        world = new World(),
        bodies: Body[] = [];
    for (let i = 0; i < n; i++)
        bodies.push(world.add({ x: s.x[i], y: s.y[i], mask: masks[s.kind[i]], angle: i % 10 === 0 ? 0.5 : 0 }));
    const ring = Array.from({ length: RING }, () => new Uint8Array(64 * n + 4096)),
        saved: Uint8Array[] = [];
    const step: number[] = [],
        snap: number[] = [],
        back: number[] = [],
        here: number[] = [],
        hash: number[] = [];
    let check = 0;
    for (let f = 0; f < WARM + FRAMES; f++) {
        advance(s);
        const t0 = cpu();
        for (let i = 0; i < n; i++) world.move(bodies[i], s.x[i], s.y[i]);
        check += world.step();
        const t1 = cpu();
        saved[f % RING] = world.snapshot(ring[f % RING]);
        const t2 = cpu();
        if (f >= BACK) world.restore(saved[(f - BACK) % RING]);
        const t3 = cpu();
        world.restore(saved[f % RING]);
        const t4 = cpu();
        check += world.hash();
        const t5 = cpu();
        if (saved[f % RING].buffer !== ring[f % RING].buffer) throw new Error('the ring buffer was too small');
        if (f >= WARM) {
            step.push(t1 - t0);
            snap.push(t2 - t1);
            back.push(t3 - t2);
            here.push(t4 - t3);
            hash.push(t5 - t4);
        }
    }
    const ratio = (med(snap) + med(back)) / med(step);
    console.log(
        `| ${n} | ${median(step)} | ${median(snap)} | ${median(back)} | ${median(here)} | ${median(hash)} | ${saved[0].length} | ${ratio.toFixed(2)} |`
    );
    if (check === 0.5) console.log('');
}
