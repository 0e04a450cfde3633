// Ray benchmark. Masks: a 1024-px ray across a 1024² mask that hits only at the far end, against stepping
// pixel by pixel along it with get() (target ≤ 0.2×). World: rays across a world of 10,000 pygame sprites
// (the demo's, 8% box coverage) with world.raycast, against looping over every body with a box test and
// mask.raycast (target ≥ 10× faster). Every pair of methods is checked to agree before it is timed.
// Usage: node --import tsx bench/ray.bench.ts
import { readFileSync } from 'node:fs';
import { GifReader } from 'omggif';
import { type Body, Mask, raycast, type RayHit, World, type WorldRayHit } from '../src/index.js';
import { banner, fmtTiming, mulberry32, table, time } from './harness.js';

// --- one mask ----------------------------------------------------------------------------------------

// The naive way: sample the segment once per pixel along its longer axis and test each sample with get().
function stepGet(m: Mask, x0: number, y0: number, x1: number, y1: number): number {
    const n = Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)));
    for (let k = 0; k <= n; k++) if (m.get(x0 + ((x1 - x0) * k) / n, y0 + ((y1 - y0) * k) / n)) return k;
    return -1;
}

const S = 1024;
const wallRight = new Mask(S, S),
    wallBottom = new Mask(S, S),
    wallCorner = new Mask(S, S);
for (let y = 0; y < S; y++) wallRight.set(S - 1, y);
for (let x = 0; x < S; x++) wallBottom.set(x, S - 1);
wallCorner.set(S - 1, S - 1);

const cases: [string, Mask, number, number, number, number][] = [
    ['horizontal (y = 512.5)', wallRight, 0.5, 512.5, 1023.5, 512.5],
    ['shallow (slope 0.1)', wallRight, 0.5, 300.5, 1023.5, 402.8],
    ['45° diagonal', wallCorner, 0.5, 0.5, 1023.5, 1023.5],
    ['steep (slope 10)', wallBottom, 300.5, 0.5, 402.8, 1023.5],
    ['vertical (x = 512.5)', wallBottom, 512.5, 0.5, 512.5, 1023.5]
];

banner('Rays: mask.raycast, world.raycast');
console.log(`## A 1024-px ray across an empty ${S}x${S} mask, hitting at the far end\n`);
const out: RayHit = { px: 0, py: 0, x: 0, y: 0, distance: 0, nx: 0, ny: 0 };
// Warm-up in every direction first, as a game's rays go: timing the cases one after another would otherwise
// time some of them in code the JIT is about to throw away (a later direction takes branches it never saw).
for (let k = 0; k < 20000; k++)
    for (const [, m, x0, y0, x1, y1] of cases) {
        raycast(m, x0, y0, x1, y1, out);
        raycast(m, x1, y1, x0, y0, out);
    }
const rows: string[][] = [];
for (const [name, m, x0, y0, x1, y1] of cases) {
    const k = stepGet(m, x0, y0, x1, y1);
    if (!raycast(m, x0, y0, x1, y1, out) || k < 0 || !m.get(out.px, out.py))
        throw new Error(`${name}: the two ways disagree`);
    const fast = time(() => raycast(m, x0, y0, x1, y1, out));
    const slow = time(() => stepGet(m, x0, y0, x1, y1));
    rows.push([
        name,
        `(${out.px}, ${out.py})`,
        fmtTiming(fast),
        fmtTiming(slow),
        (fast.median / slow.median).toFixed(3)
    ]);
}
table(['ray', 'pixel hit', 'raycastInto', 'get() per pixel', 'ratio (target ≤ 0.2)'], rows);

// --- a world of 10,000 sprites -------------------------------------------------------------------------

const ASSETS = new URL('../demo/assets/', import.meta.url);
const sprites = ['alien1', 'alien2', 'alien3', 'player1', 'shot', 'bomb', 'explosion1'].map(name => {
    const gif = new GifReader(readFileSync(new URL(`${name}.gif`, ASSETS)));
    const px = new Uint8Array(gif.width * gif.height * 4);
    gif.decodeAndBlitFrameRGBA(0, px);
    return Mask.fromRGBA(px, gif.width, gif.height);
});

const N = 10_000,
    RAYS = 256,
    rnd = mulberry32(7);
const kinds = Array.from({ length: N }, () => Math.floor(rnd() * sprites.length));
const area = kinds.reduce((a, k) => a + sprites[k].width * sprites[k].height, 0);
const side = Math.sqrt(area / 0.08);
const world = new World();
const bodies: Body[] = kinds.map(k => world.add({ x: rnd() * side, y: rnd() * side, mask: sprites[k] }));
world.step();

// Rays from a random point in a random direction, 256 px long ("short") or across the whole world ("across").
function rays(length: number, seed: number): Float64Array {
    const r = mulberry32(seed),
        a = new Float64Array(4 * RAYS);
    for (let i = 0; i < RAYS; i++) {
        const x = r() * side,
            y = r() * side,
            th = r() * 2 * Math.PI,
            len = length > 0 ? length : side;
        a.set([x, y, x + len * Math.cos(th), y + len * Math.sin(th)], 4 * i);
    }
    return a;
}

// The naive way with the public API: every body's placed mask, a segment-box test, then mask.raycast.
const placed = bodies.map(b => world.placedMask(b));
const hit: RayHit = { px: 0, py: 0, x: 0, y: 0, distance: 0, nx: 0, ny: 0 };
function naive(x0: number, y0: number, x1: number, y1: number): number {
    let best = Infinity,
        who = -1;
    const minX = Math.min(x0, x1),
        maxX = Math.max(x0, x1),
        minY = Math.min(y0, y1),
        maxY = Math.max(y0, y1);
    for (let i = 0; i < placed.length; i++) {
        const p = placed[i];
        if (p.x > maxX || p.y > maxY || p.x + p.mask.width <= minX || p.y + p.mask.height <= minY) continue;
        if (!raycast(p.mask, x0 - p.x, y0 - p.y, x1 - p.x, y1 - p.y, hit)) continue;
        if (hit.distance < best) {
            best = hit.distance;
            who = i;
        }
    }
    return who;
}

console.log(
    `## world.raycast: ${N.toLocaleString('en')} sprites (demo sprites, 8% box coverage) in a ${Math.round(side)}² px world, ${RAYS} rays per sample\n`
);
const wout = { px: 0, py: 0, x: 0, y: 0, distance: 0, nx: 0, ny: 0, body: bodies[0] } as WorldRayHit;
const wrows: string[][] = [];
for (const [name, length, seed] of [
    ['256 px', 256, 11],
    ['across the world', 0, 12]
] as const) {
    const R = rays(length, seed);
    let n = 0;
    for (let i = 0; i < RAYS; i++) {
        const who = naive(R[4 * i], R[4 * i + 1], R[4 * i + 2], R[4 * i + 3]);
        const got = world.raycast(R[4 * i], R[4 * i + 1], R[4 * i + 2], R[4 * i + 3], undefined, wout) !== null;
        if (who >= 0 !== got || (got && wout.body !== bodies[who]))
            throw new Error(`ray ${i} (${name}): world.raycast and the naive loop disagree`);
        if (got) n++;
    }
    const fast = time(
        () => {
            let c = 0;
            for (let i = 0; i < RAYS; i++)
                c += world.raycast(R[4 * i], R[4 * i + 1], R[4 * i + 2], R[4 * i + 3], undefined, wout) ? 1 : 0;
            return c;
        },
        { samples: 9 }
    );
    const slow = time(
        () => {
            let c = 0;
            for (let i = 0; i < RAYS; i++) c += naive(R[4 * i], R[4 * i + 1], R[4 * i + 2], R[4 * i + 3]);
            return c;
        },
        { samples: 9, sampleMs: 100 }
    );
    const per = (t: typeof fast) => ({
        median: t.median / RAYS,
        min: t.min / RAYS,
        max: t.max / RAYS,
        samples: t.samples
    });
    wrows.push([
        name,
        `${n}/${RAYS}`,
        fmtTiming(per(fast)),
        fmtTiming(per(slow)),
        `${(slow.median / fast.median).toFixed(1)}×`
    ]);
}
table(
    [
        'rays',
        'hits',
        'world.raycastInto per ray',
        'every body: box test + mask.raycastInto, per ray',
        'speed-up (target ≥ 10×)'
    ],
    wrows
);
