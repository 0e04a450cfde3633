// moveAndSlide against the per-pixel rules it implements (test/move-reference.ts, one layer test per pixel
// step): a crowd of walkers (the demo's sprites) on a large carved terrain as a 32-px TileMap, and long falls
// of 300-1,000 px in one call; then the same on a real game's terrain where Debian's hedgewars-data is installed (Hedgewars'
// 4096x2048 Cave map). Both sides replay the same recorded moves and are checked to agree first. Last, on
// Hedgewars' maps as a CollisionRaster: 300 walkers moving 0.5-3 px a frame and long falls, by CPU time in
// interleaved rounds, against the plain per-pixel loop a user would write from docs/movement.md's rules.
// Usage: node --import tsx bench/move.bench.ts [--walkers N] [--frames N] [--raster] (--raster: that part only)
import { existsSync, readFileSync } from 'node:fs';
import { GifReader } from 'omggif';
import {
    CollisionRaster,
    crop,
    Mask,
    moveAndSlide,
    type CollisionLayer,
    type MoveOptions,
    type MoveResult
} from '../src/index.js';
import { decodeImage } from '../src/node.js';
import { referenceMove } from '../test/move-reference.js';
import { tileMapOf } from '../test/tiles.js';
import { banner, fmtTiming, mulberry32, table, time } from './harness.js';

const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const WALKERS = arg('--walkers', 400),
    FRAMES = arg('--frames', 120);

// Terrain 4096 x 1024: rolling hills, overhangs, floating ledges, then craters as bullets would carve them.
function terrain(rnd: () => number, w: number, h: number): Mask {
    const m = new Mask(w, h);
    for (let x = 0; x < w; x++) {
        const g = Math.round(h * 0.6 + 120 * Math.sin(x / 310) + 40 * Math.sin(x / 47 + 1) + 9 * Math.sin(x / 7));
        for (let y = Math.max(0, g); y < h; y++) m.set(x, y);
    }
    for (let k = 0; k < 60; k++) {
        const x0 = Math.floor(rnd() * w),
            y = Math.floor(rnd() * h * 0.6),
            len = 40 + Math.floor(rnd() * 200);
        for (let x = x0; x < Math.min(w, x0 + len); x++) for (let t = 0; t < 6; t++) m.set(x, y + t);
    }
    for (let k = 0; k < 400; k++) {
        const cx = Math.floor(rnd() * w),
            cy = Math.floor(h * 0.35 + rnd() * h * 0.5),
            r = 6 + Math.floor(rnd() * 30);
        for (let y = cy - r; y <= cy + r; y++)
            for (let x = cx - r; x <= cx + r; x++) {
                if (x >= 0 && y >= 0 && x < w && y < h && (x - cx) ** 2 + (y - cy) ** 2 <= r * r) m.set(x, y, false);
            }
    }
    return m;
}

const ASSETS = new URL('../demo/assets/', import.meta.url);
const sprites = ['alien1', 'alien2', 'alien3', 'player1', 'bomb'].map(name => {
    const gif = new GifReader(readFileSync(new URL(`${name}.gif`, ASSETS)));
    const px = new Uint8Array(gif.width * gif.height * 4);
    gif.decodeAndBlitFrameRGBA(0, px);
    return Mask.fromRGBA(px, gif.width, gif.height);
});

interface Call {
    mask: Mask;
    x: number;
    y: number;
    dx: number;
    dy: number;
}
type Mover = (
    solid: CollisionLayer,
    mask: Mask,
    x: number,
    y: number,
    dx: number,
    dy: number,
    options: MoveOptions
) => MoveResult;

banner('Movement: moveAndSlide against the per-pixel rules');
const rnd = mulberry32(2024);
const options: MoveOptions = { stepUp: 3, snapDown: 4 };
const fast: Mover = (s, m, x, y, dx, dy, o) => moveAndSlide(s, m, x, y, dx, dy, o);
const naive: Mover = (s, m, x, y, dx, dy, o) => referenceMove(s, m, x, y, dx, dy, o);

// Records a crowd on `ground`: walk, turn at walls and the world's edges, fall with gravity, jump now and then.
function crowd(ground: CollisionLayer, width: number, height: number): Call[] {
    const calls: Call[] = [];
    const walkers = Array.from({ length: WALKERS }, (_, i) => ({
        mask: sprites[i % sprites.length],
        x: rnd() * (width - 90),
        y: rnd() * height * 0.3,
        vy: 0,
        dir: rnd() < 0.5 ? -1 : 1,
        r: null as MoveResult | null
    }));
    for (let f = 0; f < FRAMES; f++) {
        for (const w of walkers) {
            w.vy = w.r?.onFloor ? (rnd() < 0.01 ? -7 : 0.5) : Math.min(w.vy + 0.35, 14);
            if (w.r?.onWall || w.x < 0 || w.x > width - 50) w.dir = -w.dir;
            const c = { mask: w.mask, x: w.x, y: w.y, dx: w.dir * 1.25, dy: w.vy };
            calls.push(c);
            w.r = moveAndSlide(ground, c.mask, c.x, c.y, c.dx, c.dy, options);
            w.x = w.r.x;
            w.y = w.r.y > height ? 0 : w.r.y;
            if (w.r.onCeiling && w.vy < 0) w.vy = 0;
        }
    }
    return calls;
}

// Long falls in one call: 64 starts where the mover is free and, by the per-pixel rules, falls 300 to 1,000 px
// before it lands (drawn from above and inside the terrain: caves, overhangs, off ledges).
function falls(ground: CollisionLayer, width: number, height: number): Call[] {
    const calls: Call[] = [];
    for (let tries = 0; calls.length < 64 && tries < 100_000; tries++) {
        const mask = sprites[calls.length % sprites.length],
            x = Math.floor(rnd() * (width - mask.width)),
            y = Math.floor(rnd() * (height + 300)) - 300;
        if (ground.overlaps(mask, x, y)) continue;
        const d = referenceMove(ground, mask, x, y, 0, 1200, options).y - y;
        if (d >= 300 && d <= 1000) calls.push({ mask, x, y, dx: 0, dy: 1200 });
    }
    if (calls.length < 64) throw new Error(`only ${calls.length} starts with a 300-1,000 px fall were found`);
    return calls;
}

function compare(where: string, ground: CollisionLayer, width: number, height: number): string[][] {
    const rows: string[][] = [];
    const fell = falls(ground, width, height);
    const ys = fell.map(c => moveAndSlide(ground, c.mask, c.x, c.y, c.dx, c.dy, options).y - c.y);
    for (const [name, list] of [
        [`${where}: crowd of ${WALKERS} walkers x ${FRAMES} frames`, crowd(ground, width, height)],
        [`${where}: 64 falls (${Math.min(...ys).toFixed(0)}-${Math.max(...ys).toFixed(0)} px)`, fell]
    ] as const) {
        for (const c of list) {
            const a = moveAndSlide(ground, c.mask, c.x, c.y, c.dx, c.dy, options),
                b = referenceMove(ground, c.mask, c.x, c.y, c.dx, c.dy, options);
            if (
                a.x !== b.x ||
                a.y !== b.y ||
                a.onFloor !== b.onFloor ||
                a.onWall !== b.onWall ||
                a.onCeiling !== b.onCeiling
            )
                throw new Error(`the two disagree on ${JSON.stringify(c)}`);
        }
        const replay = (move: Mover) => () => {
            let n = 0;
            for (const c of list) if (move(ground, c.mask, c.x, c.y, c.dx, c.dy, options).onFloor) n++;
            return n;
        };
        const t1 = time(replay(fast), { samples: 9, sampleMs: 50 }),
            t0 = time(replay(naive), { samples: 9, sampleMs: 50 });
        rows.push([
            name,
            `${(t1.median / list.length / 1000).toFixed(2)} µs`,
            fmtTiming(t1),
            fmtTiming(t0),
            (t1.median / t0.median).toFixed(2)
        ]);
    }
    return rows;
}

// The plain per-pixel loop of docs/movement.md's rules without one-way platforms, as a user would write it from
// them: one layer test per unit step and per contact, nothing remembered between the questions.
function plainMove(
    solid: CollisionLayer,
    mask: Mask,
    x: number,
    y: number,
    dx: number,
    dy: number,
    stepUp: number,
    snapDown: number,
    out: MoveResult
): MoveResult {
    let px = Math.floor(x),
        py = Math.floor(y);
    const floorBefore = solid.overlaps(mask, px, py + 1);
    const n = Math.floor(x + dx) - px,
        s = n < 0 ? -1 : 1;
    let onWall = false;
    for (let i = Math.abs(n); i > 0; i--) {
        if (!solid.overlaps(mask, px + s, py)) {
            px += s;
            continue;
        }
        let k = 1;
        while (k <= stepUp && solid.overlaps(mask, px + s, py - k)) k++;
        if (k > stepUp) {
            onWall = true;
            break;
        }
        px += s;
        py -= k;
        y -= k;
    }
    x = onWall ? px : x + dx;
    if (snapDown > 0 && floorBefore && dy >= 0 && !solid.overlaps(mask, px, py + 1)) {
        for (let k = 1; k <= snapDown; k++) {
            if (solid.overlaps(mask, px, py + k + 1)) {
                py += k;
                y += k;
                break;
            }
        }
    }
    const m = Math.floor(y + dy) - py,
        t = m < 0 ? -1 : 1;
    let stopped = false;
    for (let i = Math.abs(m); i > 0; i--) {
        if (solid.overlaps(mask, px, py + t)) {
            stopped = true;
            break;
        }
        py += t;
    }
    out.x = x;
    out.y = stopped ? py : y + dy;
    out.onFloor = solid.overlaps(mask, px, py + 1);
    out.onCeiling = solid.overlaps(mask, px, py - 1);
    out.onWall = onWall;
    out.floor = out.onFloor ? solid : null;
    return out;
}

const DATA = '/usr/share/games/hedgewars/Data';
const imageMask = (file: string) => {
    const img = decodeImage(readFileSync(file));
    return Mask.fromRGBA(img.data, img.width, img.height);
};

// CPU time (user + system) of each side in interleaved rounds, alternating which goes first: µs per round.
function cpuRounds(sides: (() => number)[], rounds: number): number[][] {
    const times = sides.map(() => [] as number[]);
    for (let r = -2; r < rounds; r++) {
        for (let k = 0; k < sides.length; k++) {
            const i = (r + k + sides.length) % sides.length;
            const t0 = process.cpuUsage();
            sides[i]();
            const t = process.cpuUsage(t0);
            if (r >= 0) times[i].push(t.user + t.system);
        }
    }
    return times.map(t => t.sort((a, b) => a - b));
}
const med = (t: number[]) => t[t.length >> 1];

// 300 walkers (Hedgewars' hedgehog poses, a mine, a crate) moving 0.5-3 px a frame on a raster of a Hedgewars
// map, with gravity and a jump now and then, and 64 long falls on it: moveAndSlide against the plain loop.
function rasterWalkers(name: string): string[][] {
    const terrain = imageMask(`${DATA}/Maps/${name}/map.png`),
        W = terrain.width,
        H = terrain.height;
    const solid = new CollisionRaster(W, H).stamp(terrain, 0, 0).view();
    const sheet = imageMask(`${DATA}/Graphics/Hedgehog.png`);
    const shapes = [0, 1, 2, 9, 17].map(i => crop(sheet, (i % 8) * 32, Math.floor(i / 8) * 32, 32, 32));
    for (const f of ['MineOn.png', 'Case.png']) {
        const m = imageMask(`${DATA}/Graphics/${f}`);
        shapes.push(crop(m, 0, 0, Math.min(m.width, 32), Math.min(m.height, 32)));
    }
    const rnd = mulberry32(43),
        stepUp = 3,
        snapDown = 3,
        opts: MoveOptions = { stepUp, snapDown };
    const out = { x: 0, y: 0, onFloor: false, onCeiling: false, onWall: false, floor: null } as MoveResult;
    // Each walker starts where its mask is free (in the air or in a cave), and falls from there.
    const walkers = Array.from({ length: 300 }, (_, i) => {
        const mask = shapes[i % shapes.length];
        for (;;) {
            const x = rnd() * (W - 40),
                y = rnd() * H * 0.8;
            if (!solid.overlaps(mask, Math.floor(x), Math.floor(y)))
                return { mask, x, y, vy: 0, dir: rnd() < 0.5 ? -1 : 1, floor: false, wall: false };
        }
    });
    const calls: Call[] = [];
    for (let f = 0; f < 200; f++) {
        for (const w of walkers) {
            w.vy = w.floor ? (rnd() < 0.01 ? -3 : 0.5) : Math.min(w.vy + 0.25, 3);
            if (w.wall || w.x < 0 || w.x > W - 40) w.dir = -w.dir;
            const c = { mask: w.mask, x: w.x, y: w.y, dx: w.dir * (0.5 + rnd() * 2.5), dy: w.vy };
            calls.push(c);
            const r = moveAndSlide(solid, c.mask, c.x, c.y, c.dx, c.dy, opts, out);
            w.floor = r.onFloor;
            w.wall = r.onWall;
            w.x = r.x;
            w.y = r.y > H ? 0 : r.y;
        }
    }
    const fell = falls(solid, W, H);
    const rows: string[][] = [];
    for (const [what, list] of [
        [`Hedgewars ${name} ${W}x${H}, CollisionRaster: 300 walkers x 200 frames, 0.5-3 px`, calls],
        [`Hedgewars ${name}, CollisionRaster: 64 falls of 300-1,000 px`, fell]
    ] as const) {
        // Both sides and the rules agree on every move, and each side's layer tests are counted.
        let tests = 0;
        const counted: CollisionLayer = Object.assign(Object.create(solid) as CollisionLayer, {
            overlaps: (m: Mask, x: number, y: number) => (tests++, solid.overlaps(m, x, y))
        });
        let fastTests = 0,
            plainTests = 0;
        for (const c of list) {
            tests = 0;
            const a = { ...moveAndSlide(counted, c.mask, c.x, c.y, c.dx, c.dy, opts) };
            fastTests += tests;
            tests = 0;
            const b = { ...plainMove(counted, c.mask, c.x, c.y, c.dx, c.dy, stepUp, snapDown, { ...out }) };
            plainTests += tests;
            const want = referenceMove(solid, c.mask, c.x, c.y, c.dx, c.dy, opts);
            for (const got of [a, b])
                if (
                    got.x !== want.x ||
                    got.y !== want.y ||
                    got.onFloor !== want.onFloor ||
                    got.onWall !== want.onWall ||
                    got.onCeiling !== want.onCeiling
                )
                    throw new Error(`a move disagrees with the rules on ${JSON.stringify({ ...c, mask: 0 })}`);
        }
        const fast = () => {
            let n = 0;
            for (const c of list) if (moveAndSlide(solid, c.mask, c.x, c.y, c.dx, c.dy, opts, out).onFloor) n++;
            return n;
        };
        const plain = () => {
            let n = 0;
            for (const c of list)
                if (plainMove(solid, c.mask, c.x, c.y, c.dx, c.dy, stepUp, snapDown, out).onFloor) n++;
            return n;
        };
        const [t1, t0] = cpuRounds([fast, plain], 15);
        const ratios = t1.map((t, i) => t / t0[i]).sort((a, b) => a - b);
        const us = (t: number[]) =>
            `${((med(t) / list.length) * 1000).toFixed(0)} ns (${((t[0] / list.length) * 1000).toFixed(0)}–${((t[t.length - 1] / list.length) * 1000).toFixed(0)})`;
        rows.push([
            what,
            `${(fastTests / list.length).toFixed(2)} vs ${(plainTests / list.length).toFixed(2)}`,
            us(t1),
            us(t0),
            `${(med(t1) / med(t0)).toFixed(2)} (${ratios[0].toFixed(2)}–${ratios[ratios.length - 1].toFixed(2)})`
        ]);
    }
    return rows;
}

if (!process.argv.includes('--raster')) {
    const rows = compare('generated 4096x1024, TileMap', tileMapOf(terrain(rnd, 4096, 1024), 32), 4096, 1024);
    const CAVE = `${DATA}/Maps/Cave/map.png`;
    if (existsSync(CAVE)) {
        const cave = imageMask(CAVE);
        rows.push(
            ...compare(
                `Hedgewars Cave ${cave.width}x${cave.height}, TileMap`,
                tileMapOf(cave, 32),
                cave.width,
                cave.height
            )
        );
    } else console.log(`(${CAVE} is missing: apt-get install hedgewars-data for the real-terrain rows)\n`);
    table(['moves', 'per call', 'moveAndSlide', 'per-pixel rules', 'ratio (target: crowd ≤ 0.5, falls ≤ 0.1)'], rows);
}
if (existsSync(`${DATA}/Maps`)) {
    const rows = ['Cave', 'Castle', 'Islands'].flatMap(rasterWalkers);
    console.log(
        'CPU time per move, median (min–max) of 15 interleaved rounds; ratio: median of the medians (range of the'
    );
    console.log('per-round ratios); layer tests a move, moveAndSlide vs the plain loop.\n');
    table(
        ['moves', 'layer tests', 'moveAndSlide', 'plain per-pixel loop', 'ratio (target: walkers ≤ 0.6, falls ≤ 0.1)'],
        rows
    );
} else console.log(`(${DATA} is missing: apt-get install hedgewars-data for the raster rows)`);
