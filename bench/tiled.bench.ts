// Tiled maps: reading a 2,000 x 2,000-cell map (base64 zlib layers, three tilesets of 16-px tiles) with
// readTiledMap against what the same process pays to read it raw (the file read, JSON.parse, inflating the layer
// data, decoding the tileset images, with Node's own zlib and hitmask/node's PNG decoder); then moveAndSlide of
// 1,000 walkers over a Tiled layer against the same walkers over the same map baked into a CollisionRaster.
// Whole runs, interleaved, CPU time. Usage: npm run bench -- tiled [--cells N] [--walkers N] [--runs N]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { CollisionRaster, Mask, moveAndSlide, type CollisionLayer } from '../src/index.js';
import { decodeImage, readTiledMap } from '../src/node.js';
import { banner, mulberry32, table } from './harness.js';

const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CELLS = arg('--cells', 2000),
    WALKERS = arg('--walkers', 1000),
    RUNS = arg('--runs', 5),
    FRAMES = arg('--frames', 60);
const T = 16;

// A tileset image of 16 x 16 tiles: solid blocks, slopes, bumps and empty ones, as terrain tiles are.
function tilesetPng(rnd: () => number): Buffer {
    const p = new PNG({ width: 16 * T, height: 16 * T });
    for (let id = 0; id < 256; id++) {
        const kind = id % 4,
            tx = (id % 16) * T,
            ty = Math.floor(id / 16) * T;
        const h = Math.floor(rnd() * T);
        for (let y = 0; y < T; y++)
            for (let x = 0; x < T; x++) {
                const on = kind === 0 ? true : kind === 1 ? y >= T - 1 - x : kind === 2 ? y >= h : (x + y) % 5 === 0;
                const k = ((ty + y) * 16 * T + tx + x) * 4;
                p.data[k] = p.data[k + 1] = p.data[k + 2] = 90;
                p.data[k + 3] = on ? 255 : 0;
            }
    }
    return PNG.sync.write(p);
}

// The map: a ground profile over the columns, tiles from three tilesets, some flipped; a sparse decoration layer.
function writeMap(dir: string): string {
    const rnd = mulberry32(7);
    for (let i = 0; i < 3; i++) writeFileSync(join(dir, `t${i}.png`), tilesetPng(rnd));
    const tilesets = [0, 1, 2].map(i => ({
        firstgid: 1 + i * 256,
        name: `t${i}`,
        tilewidth: T,
        tileheight: T,
        tilecount: 256,
        columns: 16,
        margin: 0,
        spacing: 0,
        image: `t${i}.png`,
        imagewidth: 16 * T,
        imageheight: 16 * T
    }));
    const ground = new Uint32Array(CELLS * CELLS),
        deco = new Uint32Array(CELLS * CELLS);
    for (let c = 0; c < CELLS; c++) {
        const top = Math.floor(CELLS * (0.5 + 0.2 * Math.sin(c / 70) + 0.05 * Math.sin(c / 9)));
        for (let r = top; r < CELLS; r++) {
            let g = r === top ? 1 + Math.floor(rnd() * 768) : 1 + 4 * Math.floor(rnd() * 192);
            if (rnd() < 0.1) g = (g | 0x80000000) >>> 0;
            ground[r * CELLS + c] = g;
        }
        if (rnd() < 0.3) deco[(top - 1) * CELLS + c] = 2 + Math.floor(rnd() * 200);
    }
    const layer = (id: number, name: string, gids: Uint32Array) => ({
        type: 'tilelayer',
        id,
        name,
        width: CELLS,
        height: CELLS,
        x: 0,
        y: 0,
        encoding: 'base64',
        compression: 'zlib',
        data: deflateSync(Buffer.from(gids.buffer)).toString('base64')
    });
    const map = {
        type: 'map',
        orientation: 'orthogonal',
        width: CELLS,
        height: CELLS,
        tilewidth: T,
        tileheight: T,
        infinite: false,
        tilesets,
        layers: [layer(1, 'ground', ground), layer(2, 'deco', deco)]
    };
    const file = join(dir, 'big.tmj');
    writeFileSync(file, JSON.stringify(map));
    return file;
}

// Reading it raw: what any loader pays before it has cells and pixels.
function readRaw(file: string): number {
    const map = JSON.parse(readFileSync(file, 'utf8'));
    let n = 0;
    for (const l of map.layers) n += inflateSync(Buffer.from(l.data, 'base64')).length;
    for (const ts of map.tilesets) n += decodeImage(readFileSync(join(file, '..', ts.image))).data.length;
    return n;
}

const cpu = () => process.cpuUsage().user + process.cpuUsage().system;

async function main(): Promise<void> {
    banner(`Tiled: a ${CELLS} x ${CELLS}-cell map read, and ${WALKERS} walkers on it`);
    const dir = mkdtempSync(join(tmpdir(), 'hitmask-tiled-bench-'));
    try {
        const file = writeMap(dir);
        console.log(`map: ${(readFileSync(file).length / 2 ** 20).toFixed(1)} MiB of JSON, 2 layers, 3 tilesets\n`);
        const raw: number[] = [],
            tiled: number[] = [];
        let level = await readTiledMap(file);
        for (let r = 0; r < RUNS; r++) {
            let t = cpu();
            readRaw(file);
            raw.push((cpu() - t) / 1e3);
            t = cpu();
            level = await readTiledMap(file);
            tiled.push((cpu() - t) / 1e3);
        }
        const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
        const span = (a: number[]) => `${Math.min(...a).toFixed(0)}–${Math.max(...a).toFixed(0)}`;
        table(
            ['read', 'CPU ms (median)', 'spread', 'ratio'],
            [
                ['raw: read, JSON.parse, inflate, decode PNGs', med(raw).toFixed(0), span(raw), '1.00'],
                ['readTiledMap', med(tiled).toFixed(0), span(tiled), (med(tiled) / med(raw)).toFixed(2)]
            ]
        );
        const ground = level.layer('ground');
        console.log(`ground: ${ground.columns} x ${ground.rows} cells, ${ground.tiles.length} tile masks\n`);

        // The same pixels baked into a raster.
        const W = level.width,
            H = level.height;
        const raster = new CollisionRaster(W, H);
        for (let r = 0; r < ground.rows; r++)
            for (let c = 0; c < ground.columns; c++) {
                const t = ground.cells[r * ground.columns + c];
                if (t >= 0) raster.stamp(ground.tiles[t] as Mask, c * T, r * T);
            }
        const baked = raster.layer(0);
        const walker = new Mask(10, 14, true);
        const rnd = mulberry32(3);
        const start = Array.from({ length: WALKERS }, () => [Math.floor(rnd() * (W - 20)), 0, rnd() < 0.5 ? -2 : 2]);
        const run = (layer: CollisionLayer): number => {
            const pos = start.map(s => [s[0], s[1], s[2]]);
            let moves = 0;
            for (let f = 0; f < FRAMES; f++)
                for (const p of pos) {
                    const m = moveAndSlide(layer, walker, p[0], p[1], p[2], f === 0 ? H : 3, { stepUp: 4 });
                    p[0] = m.x;
                    p[1] = m.y;
                    if (m.onWall) p[2] = -p[2];
                    moves++;
                }
            return moves;
        };
        const a: number[] = [],
            b: number[] = [];
        run(ground);
        run(baked);
        for (let r = 0; r < RUNS; r++) {
            let t = cpu();
            run(baked);
            b.push((cpu() - t) / 1e3);
            t = cpu();
            run(ground);
            a.push((cpu() - t) / 1e3);
        }
        table(
            [`${WALKERS} walkers x ${FRAMES} frames`, 'CPU ms (median)', 'spread', 'ratio'],
            [
                ['CollisionRaster layer', med(b).toFixed(0), span(b), '1.00'],
                ['Tiled layer (TileMap)', med(a).toFixed(0), span(a), (med(a) / med(b)).toFixed(2)]
            ]
        );
    } finally {
        if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
        else console.log(`kept ${dir}`);
    }
}

await main();
