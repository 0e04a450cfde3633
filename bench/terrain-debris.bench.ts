// detachIslands beside dzyamik/pixel-perfect's DebrisDetector (MIT) in one process: a 4096 x 1024 terrain from a
// Hedgewars map (Debian's hedgewars-data), 1,000 craters of radius 8-48 px, the islands found and removed after
// each crater on both sides, which are checked to agree (same islands, same terrain) along the way.
//
// pixel-perfect is not part of this repository: its pure core (src/core, and src/physics' DebrisDetector.ts and
// ContourExtractor.ts, which import nothing of Phaser or Box2D: no shim is needed) is extracted at run time with
// `git show` from a bare clone, PIXEL_PERFECT_GIT or /work/.mirror/dzyamik+pixel-perfect/repo, into a temporary
// folder and imported with tsx. Without the clone, a byte-per-pixel breadth-first search (test/debris-reference.ts)
// stands in for it.
//
// Its detection is timed as DebrisDetector.detectAndRemove works, without the contours (which hitmask leaves to
// toPolygons, on the islands alone): FloodFill.findIslands from the bottom row, then setPixel(0) on every island
// cell. Ours: detachIslands(raster, [the floor under the map]), which anchors the same pixels, cuts the islands out
// of the raster (through erase) and returns their masks.
// Usage: npm run bench -- terrain-debris [--craters N] [--map NAME]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CollisionRaster, Mask, crop, detachIslands } from '../src/index.js';
import { decodeImage } from '../src/node.js';
import { islands as referenceIslands, type Bytes } from '../test/debris-reference.js';
import { banner, fmt, mulberry32, table } from './harness.js';

const arg = (name: string, fallback: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
};
const CRATERS = Number(arg('--craters', '1000')),
    MAP = arg('--map', 'Cave');
const W = 4096,
    H = 1024,
    CHUNK = 128;
const MAPS = '/usr/share/games/hedgewars/Data/Maps';
const GIT = process.env.PIXEL_PERFECT_GIT ?? '/work/.mirror/dzyamik+pixel-perfect/repo';

/** What the bench uses of pixel-perfect's core. */
interface PixelPerfect {
    commit: string;
    ChunkedBitmap: new (o: { width: number; height: number; chunkSize: number }) => Bitmap;
    findIslands: (b: Bitmap, anchor: { kind: 'bottomRow' }) => { cells: { x: number; y: number }[] }[];
    circle: (b: Bitmap, cx: number, cy: number, r: number) => void;
}
interface Bitmap {
    chunks: readonly { bitmap: Uint8Array }[];
    getPixel(x: number, y: number): number;
    setPixel(x: number, y: number, id: number): void;
}

// Extracts pixel-perfect's pure core from the bare clone and imports it; null without the clone.
async function pixelPerfect(): Promise<PixelPerfect | null> {
    if (!existsSync(GIT)) return null;
    const git = (...a: string[]) => execFileSync('git', ['--git-dir', GIT, ...a], { maxBuffer: 1 << 26 });
    const commit = git('rev-parse', 'HEAD').toString().trim();
    const dir = join(tmpdir(), `hitmask-pixel-perfect-${commit.slice(0, 12)}`);
    const files = git('ls-tree', '-r', '--name-only', 'HEAD', 'src/core')
        .toString()
        .split('\n')
        .filter(f => f.endsWith('.ts'));
    for (const f of [...files, 'src/physics/DebrisDetector.ts', 'src/physics/ContourExtractor.ts']) {
        mkdirSync(dirname(join(dir, f)), { recursive: true });
        writeFileSync(join(dir, f), git('show', `HEAD:${f}`));
    }
    const core = (await import(pathToFileURL(join(dir, 'src/core/index.ts')).href)) as Record<string, never>;
    // DebrisDetector itself is imported too, so the bench fails loudly if its imports ever need more than the core.
    await import(pathToFileURL(join(dir, 'src/physics/DebrisDetector.ts')).href);
    const flood = core.FloodFill as { findIslands: PixelPerfect['findIslands'] },
        carve = core.Carve as { circle: PixelPerfect['circle'] };
    return { commit, ChunkedBitmap: core.ChunkedBitmap, findIslands: flood.findIslands, circle: carve.circle };
}

// The terrain: the map's bottom 1024 rows, its width tiled (or cut) to 4096.
function terrainOf(name: string): Mask {
    const img = decodeImage(readFileSync(join(MAPS, name, 'map.png')));
    const map = Mask.fromRGBA(img.data, img.width, img.height);
    const rows = crop(map, 0, Math.max(0, map.height - H), map.width, Math.min(H, map.height));
    const out = new Mask(W, H);
    for (let x = 0; x < W; x += rows.width) out.draw(rows, x, H - rows.height);
    return out;
}

function disc(r: number): Mask {
    const m = new Mask(2 * r + 1, 2 * r + 1);
    for (let y = -r; y <= r; y++) for (let x = -r; x <= r; x++) if (x * x + y * y <= r * r) m.set(x + r, y + r);
    return m;
}

const median = (a: number[]) => [...a].sort((p, q) => p - q)[a.length >> 1];
const sum = (a: number[]) => a.reduce((p, q) => p + q, 0);

async function main(): Promise<void> {
    banner('detachIslands vs pixel-perfect DebrisDetector: islands after each crater, 4096 x 1024');
    if (!existsSync(join(MAPS, MAP, 'map.png'))) {
        console.log(`skipped: ${MAPS}/${MAP}/map.png is missing (apt-get install hedgewars-data)`);
        return;
    }
    const pp = await pixelPerfect();
    console.log(
        pp
            ? `pixel-perfect ${pp.commit.slice(0, 12)} (src/core, DebrisDetector.ts, ContourExtractor.ts; no shim)`
            : `pixel-perfect's clone ${GIT} is missing: a byte-per-pixel BFS stands in for DebrisDetector`
    );
    const terrain = terrainOf(MAP);
    console.log(`terrain: Hedgewars ${MAP}, bottom ${H} rows tiled to ${W} px: ${terrain.count()} solid pixels`);
    const raster = new CollisionRaster(W, H).stamp(terrain, 0, 0);
    const floor = [{ x: 0, y: H, width: W, height: 1 }];

    // Their side: a ChunkedBitmap of 128 px chunks (material 1 where solid), or bytes for the stand-in BFS.
    const bytes: Bytes = { w: W, h: H, px: new Uint8Array(W * H) };
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (terrain.get(x, y)) bytes.px[y * W + x] = 1;
    const bitmap = pp ? new pp.ChunkedBitmap({ width: W, height: H, chunkSize: CHUNK }) : null;
    if (bitmap)
        for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (bytes.px[y * W + x]) bitmap.setPixel(x, y, 1);
    const theirs = (): number => {
        if (pp && bitmap) {
            const found = pp.findIslands(bitmap, { kind: 'bottomRow' });
            for (const island of found) for (const c of island.cells) bitmap.setPixel(c.x, c.y, 0);
            return found.length;
        }
        const found = referenceIslands(bytes, (x, y) => y === H);
        for (const island of found) for (const i of island) bytes.px[i] = 0;
        return found.length;
    };
    const carveTheirs = (cx: number, cy: number, r: number) => {
        if (pp && bitmap) pp.circle(bitmap, cx, cy, r);
        else
            for (let y = Math.max(0, cy - r); y <= Math.min(H - 1, cy + r); y++)
                for (let x = Math.max(0, cx - r); x <= Math.min(W - 1, cx + r); x++)
                    if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) bytes.px[y * W + x] = 0;
    };
    const same = (): boolean => {
        const plane = raster.plane(0);
        for (let y = 0; y < H; y++)
            for (let x = 0; x < W; x++) {
                const t = bitmap ? bitmap.getPixel(x, y) !== 0 : bytes.px[y * W + x] === 1;
                if (plane.get(x, y) !== t) return false;
            }
        return true;
    };
    // The first call detaches what already floats in the map (it is timed apart: no crater made it).
    let t0 = performance.now();
    const first = detachIslands(raster, floor).length;
    const firstOurs = performance.now() - t0;
    t0 = performance.now();
    const firstTheirs = theirs();
    const firstTime = performance.now() - t0;
    if (first !== firstTheirs) throw new Error(`first call: ${first} islands here, ${firstTheirs} there`);

    const discs = new Map<number, Mask>();
    const rnd = mulberry32(38);
    const ours: number[] = [],
        them: number[] = [];
    let islands = 0;
    for (let k = 0; k < CRATERS; k++) {
        const r = 8 + Math.floor(rnd() * 41),
            cx = Math.floor(rnd() * W),
            cy = Math.floor(H * 0.25 + rnd() * H * 0.75);
        let d = discs.get(r);
        if (d === undefined) discs.set(r, (d = disc(r)));
        raster.erase(d, cx - r, cy - r);
        carveTheirs(cx, cy, r);
        let t = performance.now();
        const a = detachIslands(raster, floor);
        ours.push(performance.now() - t);
        t = performance.now();
        const b = theirs();
        them.push(performance.now() - t);
        if (a.length !== b) throw new Error(`crater ${k}: ${a.length} islands here, ${b} there`);
        islands += a.length;
        for (const island of a) island.mask.dispose();
        if ((k % 250 === 249 || k === CRATERS - 1) && !same()) throw new Error(`crater ${k}: the terrains differ`);
    }
    const ns = (ms: number) => fmt(ms * 1e6);
    console.log(`\n${CRATERS} craters, ${islands} islands cut loose (both sides agree; terrains compared every 250)\n`);
    table(
        ['per crater', 'hitmask detachIslands', pp ? 'pixel-perfect findIslands + removal' : 'byte BFS', 'ratio'],
        [
            ['median', ns(median(ours)), ns(median(them)), (median(ours) / median(them)).toFixed(3) + 'x'],
            ['mean', ns(sum(ours) / CRATERS), ns(sum(them) / CRATERS), (sum(ours) / sum(them)).toFixed(3) + 'x'],
            ['first call (the map as loaded)', ns(firstOurs), ns(firstTime), (firstOurs / firstTime).toFixed(3) + 'x']
        ]
    );
    // Memory: the terrain each side keeps, and what a call adds for its duration.
    const words = Math.ceil(W / 32) * H,
        scratch = words * 4 + Math.ceil(words / 32) * 4 + Math.min(words, Math.max(1024, words >>> 5)) * 4;
    const theirBitmap = bitmap ? sum(bitmap.chunks.map(c => c.bitmap.byteLength)) : W * H,
        theirScratch = W * H + 4 * W * H; // findIslands' anchored bytes and its Int32 queue, a cell each
    table(
        ['memory', 'hitmask', pp ? 'pixel-perfect' : 'byte BFS', 'ratio'],
        [
            ['terrain', `${words * 4} B (1 bit/px)`, `${theirBitmap} B (1 byte/px)`, (words * 4) / theirBitmap + 'x'],
            [
                'terrain + a call’s scratch',
                `${words * 4 + scratch} B`,
                `${theirBitmap + theirScratch} B`,
                ((words * 4 + scratch) / (theirBitmap + theirScratch)).toFixed(3) + 'x'
            ]
        ]
    );
}

await main();
