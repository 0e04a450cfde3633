// Rollback cost: a World of N moving sprites (the World benchmark's scene); each frame moves every body and
// steps, then takes a snapshot into a reused buffer, restores it and hashes. Baseline in the same run: the
// step itself. Reported: medians [min–max] per frame and (snapshot + restore) / step.
// Usage: npm run bench:rollback [-- 1000,10000]
import os from 'node:os';
import { World, type Body } from '../src/index.js';
import { advance, loadSprites, makeScene } from './world-scene.js';

const WARM = 30, FRAMES = 60;

function median(t: number[]): string {
    const s = t.slice().sort((a, b) => a - b);
    return `${s[s.length >> 1].toFixed(3)} [${s[0].toFixed(3)}–${s[s.length - 1].toFixed(3)}]`;
}

const sizes = (process.argv[2] ?? '1000,10000').split(',').map(Number);
const { masks, source } = loadSprites();
console.log(`hitmask rollback benchmark — ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}, load ${os.loadavg().map(l => l.toFixed(2)).join(' ')} (1/5/15 min)`);
console.log(`sprites: ${source}; ms per frame, median [min–max] of ${FRAMES} frames after ${WARM} warm-up frames\n`);
console.log('| sprites | step | snapshot(out) | restore | hash | snapshot bytes | (snapshot + restore) / step |');
console.log('|---|---|---|---|---|---|---|');
for (const n of sizes) {
    const s = makeScene(n, masks, 1), world = new World(), bodies: Body[] = [];
    for (let i = 0; i < n; i++) bodies.push(world.add({ x: s.x[i], y: s.y[i], mask: masks[s.kind[i]], angle: i % 10 === 0 ? 0.5 : 0 }));
    const out = new Uint8Array(128 * n + 4096);
    const step: number[] = [], snap: number[] = [], restore: number[] = [], hash: number[] = [];
    let bytes: Uint8Array = new Uint8Array(0), check = 0;
    for (let f = 0; f < WARM + FRAMES; f++) {
        advance(s);
        const t0 = performance.now();
        for (let i = 0; i < n; i++) world.move(bodies[i], s.x[i], s.y[i]);
        check += world.step();
        const t1 = performance.now();
        bytes = world.snapshot(out);
        const t2 = performance.now();
        world.restore(bytes);
        const t3 = performance.now();
        check += world.hash();
        const t4 = performance.now();
        if (f >= WARM) { step.push(t1 - t0); snap.push(t2 - t1); restore.push(t3 - t2); hash.push(t4 - t3); }
    }
    const ratio = (snap.slice().sort((a, b) => a - b)[FRAMES >> 1] + restore.slice().sort((a, b) => a - b)[FRAMES >> 1]) / step.slice().sort((a, b) => a - b)[FRAMES >> 1];
    console.log(`| ${n} | ${median(step)} | ${median(snap)} | ${median(restore)} | ${median(hash)} | ${bytes.length} | ${ratio.toFixed(2)} |`);
    if (check === 0.5) console.log('');
}
