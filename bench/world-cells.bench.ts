// World step by grid cell: the automatic cell against fixed `cellSize` values, interleaved in one process.
// Usage: npm run bench -- world-cells [sizes] [scenes] [cells], e.g. `npm run bench -- world-cells 100000 discs 16,64`
// (defaults 1000,10000,100000; sprites,discs; half to eight times the cell of the rule before). Each World runs the same seeded scene; every
// step each World moves all its bodies and steps, in an order rotated from step to step, so that load on a shared
// machine falls on all of them alike. Times are the process's CPU time per step in ms (median [min–max]: wall time
// on a shared machine counted the other jobs), then each fixed cell's median over the automatic cell's: above 1 the
// automatic cell is faster. The column marked "rule before" is the cell the automatic choice replaced (the power of
// two at or above the mean body side): its ratio is the change, before over after, measured in one process.
import os from 'node:os';
import { World, type Body, type Mask } from '../src/index.js';
import { advance, discMasks, loadSprites, makeScene, type Scene } from './world-scene.js';

interface Contender {
    name: string;
    scene: Scene;
    world: World;
    bodies: Body[];
    times: number[];
    pairs: number;
}

function contender(
    name: string,
    cellSize: number | undefined,
    n: number,
    masks: Mask[],
    cover: number,
    sorted = false
): Contender {
    const scene = makeScene(n, masks, 1, cover);
    if (sorted) sortScene(scene);
    const world = new World(cellSize === undefined ? {} : { cellSize });
    const bodies: Body[] = [];
    for (let i = 0; i < n; i++) bodies.push(world.add({ x: scene.x[i], y: scene.y[i], mask: masks[scene.kind[i]] }));
    return { name, scene, world, bodies, times: [], pairs: 0 };
}

// The scene's bodies in rows of 256 px, by x in a row: a game that adds its bodies (and keeps its own arrays) in
// this order has slots near each other in space, so the World's grid reads nearby memory.
function sortScene(s: Scene): void {
    const order = Array.from(s.kind, (_, i) => i).sort(
        (a, b) => Math.floor(s.y[a] / 256) - Math.floor(s.y[b] / 256) || s.x[a] - s.x[b]
    );
    for (const a of [s.x, s.y, s.vx, s.vy, s.kind]) {
        const copy = a.slice();
        order.forEach((from, to) => (a[to] = copy[from]));
    }
}

function median(t: number[]): { median: number; text: string } {
    const s = t.slice().sort((a, b) => a - b);
    const m = s[Math.floor(s.length / 2)];
    return { median: m, text: `${m.toFixed(2)} [${s[0].toFixed(2)}–${s[s.length - 1].toFixed(2)}]` };
}

const sizes = (process.argv[2] ?? '1000,10000,100000').split(',').map(Number);
const scenes = (process.argv[3] ?? 'sprites,discs').split(',');
const cellArg = process.argv[4];
console.log(
    `hitmask World step by grid cell — ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}, load ${os
        .loadavg()
        .map(l => l.toFixed(2))
        .join(' ')} (1/5/15 min)`
);
console.log('CPU ms per step (median [min–max]); ratio = fixed cell / automatic cell, medians\n');
const rows: string[] = [];
for (const sceneName of scenes) {
    const sprites = sceneName === 'discs' ? null : loadSprites();
    const masks = sprites ? sprites.masks : discMasks();
    // The sprites cover 8% of the world, as in `npm run bench -- world`; the discs 5%.
    const cover = sprites ? 0.08 : 0.05;
    for (const n of sizes) {
        // The rule before the automatic cell aimed at one bucket per body: the power of two at or above the mean side.
        const scene = makeScene(n, masks, 1, cover);
        let sum = 0;
        for (let i = 0; i < n; i++) sum += Math.max(masks[scene.kind[i]].width, masks[scene.kind[i]].height);
        let rule = 8;
        while (rule < sum / n) rule *= 2;
        // By default half the rule's cell to eight times it: smaller cells make the sprites large bodies, each tested
        // against every other body (16 px cost 900 ms a step at 10,000 sprites).
        const cells = cellArg ? cellArg.split(',').map(Number) : [0.5, 1, 2, 4, 8].map(f => Math.max(1, rule * f));
        const all = [
            contender('auto', undefined, n, masks, cover),
            ...cells.map(c => contender(`${c}`, c, n, masks, cover)),
            contender('auto, added in spatial order', undefined, n, masks, cover, true)
        ];
        const steps = n >= 100000 ? 15 : n >= 10000 ? 40 : 100,
            warm = n >= 100000 ? 3 : 30;
        for (let k = 0; k < warm + steps; k++) {
            for (let r = 0; r < all.length; r++) {
                const c = all[(r + k) % all.length],
                    { scene, world, bodies } = c;
                advance(scene);
                const t0 = process.cpuUsage();
                for (let i = 0; i < n; i++) world.move(bodies[i], scene.x[i], scene.y[i]);
                c.pairs = world.step();
                const t = process.cpuUsage(t0);
                if (k >= warm) c.times.push((t.user + t.system) / 1000);
            }
        }
        for (const c of all)
            if (c.pairs !== all[0].pairs)
                throw new Error(`cellSize ${c.name}: ${c.pairs} pairs, automatic ${all[0].pairs}`);
        const auto = median(all[0].times);
        const fixed = all.slice(1).map(c => {
            const m = median(c.times);
            const name = c.name.startsWith('auto')
                ? c.name
                : `${c.name} px${Number(c.name) === rule ? ' (rule before)' : ''}`;
            return `${name}: ${m.text} (${(m.median / auto.median).toFixed(2)})`;
        });
        rows.push(`| ${sceneName} | ${n} | ${auto.text} | ${fixed.join('<br>')} |`);
        console.log(rows[rows.length - 1]);
    }
}
console.log('\n| scene | bodies | automatic cell | others: ms (other / automatic) |\n|---|---|---|---|');
for (const r of rows) console.log(r);
