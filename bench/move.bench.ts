// moveAndSlide against the per-pixel rules it implements (test/move-reference.ts, one layer test per pixel
// step): a crowd of walkers (the demo's sprites) on a large carved terrain as a 32-px TileMap, and long falls
// of 300-1,000 px in one call; then the same on a real game's terrain where Debian's hedgewars-data is installed (Hedgewars'
// 4096x2048 Cave map). Both sides replay the same recorded moves and are checked to agree first.
// Usage: node --import tsx bench/move.bench.ts [--walkers N] [--frames N]
import { existsSync, readFileSync } from 'node:fs';
import { GifReader } from 'omggif';
import { Mask, moveAndSlide, type CollisionLayer, type MoveOptions, type MoveResult } from '../src/index.js';
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

const rows = compare('generated 4096x1024, TileMap', tileMapOf(terrain(rnd, 4096, 1024), 32), 4096, 1024);
const CAVE = '/usr/share/games/hedgewars/Data/Maps/Cave/map.png';
if (existsSync(CAVE)) {
    const img = decodeImage(readFileSync(CAVE)),
        cave = Mask.fromRGBA(img.data, img.width, img.height);
    rows.push(
        ...compare(`Hedgewars Cave ${cave.width}x${cave.height}, TileMap`, tileMapOf(cave, 32), cave.width, cave.height)
    );
} else console.log(`(${CAVE} is missing: apt-get install hedgewars-data for the real-terrain rows)\n`);
table(['moves', 'per call', 'moveAndSlide', 'per-pixel rules', 'ratio (target: crowd ≤ 0.5, falls ≤ 0.1)'], rows);
