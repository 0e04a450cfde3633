// Destructible terrain: TerrainChunks (hitmask/shapes) vs dzyamik/pixel-perfect's core in one process.
// A 4096 × 1024 Hedgewars map (SB_Grassy, else SB_Crystal), 1,000 seeded craters of radius 8–48 px, each followed by
// the rebuild of what changed into engine-ready pieces: ours raster.erase + chunks.sync() (convex pieces of at most 8
// vertices, tolerance 1); theirs Carve.circle, then per dirty chunk chunkToContours (marching squares and
// Douglas–Peucker, epsilon 1) and earcut triangles of each contour, as its DeferredRebuildQueue feeds Box2D (the
// Box2D calls themselves left out on both sides). Memory: the bytes each keeps for the terrain.
//
// pixel-perfect (MIT) is not vendored: its src/core and src/physics/ContourExtractor.ts are extracted from a local
// mirror (PIXEL_PERFECT_REPO, a bare git directory; default /work/.mirror/dzyamik+pixel-perfect/repo) into a temporary
// folder at run time and imported with tsx; nothing of it needs Phaser or Box2D, so nothing is shimmed. earcut is
// this repository's dev dependency (pixel-perfect uses earcut 3 the same way). Without the mirror or the map the
// benchmark says so and exits 0.
// Run: npm run bench -- terrain [craters]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import earcut from 'earcut';
import { CollisionRaster, Mask } from '../src/index.js';
import { TerrainChunks } from '../src/shapes.js';
import { decodeImage } from '../src/node.js';
import { banner, mulberry32, table } from './harness.js';

const REPO = process.env.PIXEL_PERFECT_REPO ?? '/work/.mirror/dzyamik+pixel-perfect/repo';
const MAPS = '/usr/share/games/hedgewars/Data/Maps';
const CRATERS = Number(process.argv[2] ?? 1000);
const ROUNDS = 3;

banner('terrain: TerrainChunks vs pixel-perfect (carve, then rebuild the changed chunks)');

const mapFile = ['SB_Grassy', 'SB_Crystal'].map(n => join(MAPS, n, 'map.png')).find(f => existsSync(f));
if (!existsSync(REPO) || mapFile === undefined) {
    console.log(
        !existsSync(REPO)
            ? `skipped: no pixel-perfect mirror at ${REPO} (set PIXEL_PERFECT_REPO to a clone of dzyamik/pixel-perfect)`
            : `skipped: no 4096 × 1024 Hedgewars map in ${MAPS} (apt-get install hedgewars-data)`
    );
    process.exit(0);
}

// Their code, extracted at HEAD into a temporary folder (removed at exit).
const dir = mkdtempSync(join(tmpdir(), 'pixel-perfect-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const tar = execFileSync('git', ['-C', REPO, 'archive', 'HEAD', 'src/core', 'src/physics/ContourExtractor.ts'], {
    maxBuffer: 1 << 26
});
execFileSync('tar', ['-x', '-C', dir], { input: tar });
const commit = execFileSync('git', ['-C', REPO, 'rev-parse', '--short', 'HEAD']).toString().trim();
interface Pt {
    x: number;
    y: number;
}
interface Chunk {
    dirty: boolean;
    bitmap: Uint8Array;
}
interface Bitmap {
    chunks: readonly Chunk[];
    setPixel(x: number, y: number, m: number): void;
    forEachDirtyChunk(fn: (c: Chunk) => void): void;
    clearDirty(c: Chunk): void;
}
const core = (await import(pathToFileURL(join(dir, 'src/core/index.ts')).href)) as {
    ChunkedBitmap: new (o: { width: number; height: number; chunkSize: number }) => Bitmap;
    Carve: { circle(b: Bitmap, x: number, y: number, r: number): void };
};
const extractor = (await import(pathToFileURL(join(dir, 'src/physics/ContourExtractor.ts')).href)) as {
    chunkToContours(c: Chunk, b: Bitmap, epsilon: number): { points: Pt[]; closed: boolean }[];
};

const img = decodeImage(readFileSync(mapFile));
const map = Mask.fromRGBA(img.data, img.width, img.height);
const W = 4096,
    H = 1024;
console.log(`map ${mapFile} (${img.width} × ${img.height}, ${map.count()} solid pixels), pixel-perfect ${commit}`);

// The craters: centres on solid pixels of the map, radius 8–48, the same on both sides.
const rnd = mulberry32(38);
const solid: number[] = [];
for (let i = 0; solid.length < 2 * CRATERS && i < 100 * CRATERS; i++) {
    const x = Math.floor(rnd() * W),
        y = Math.floor(rnd() * H);
    if (map.get(x, y)) solid.push(x, y);
}
const craters = Array.from({ length: CRATERS }, (_, k) => ({
    x: solid[(2 * k) % solid.length],
    y: solid[((2 * k) % solid.length) + 1],
    r: 8 + Math.floor(rnd() * 41)
}));
const discs = new Map<number, Mask>();
for (let r = 8; r <= 48; r++) {
    const d = new Mask(2 * r + 1, 2 * r + 1);
    for (let y = 0; y <= 2 * r; y++)
        for (let x = 0; x <= 2 * r; x++) if ((x - r) ** 2 + (y - r) ** 2 <= r * r) d.set(x, y);
    discs.set(r, d);
}

function ours(): { ns: number; pieces: number; rebuilt: number; bytes: number } {
    const raster = new CollisionRaster(W, H);
    raster.stamp(map, 0, 0);
    const chunks = new TerrainChunks(raster.layer(0));
    chunks.sync();
    let pieces = 0,
        rebuilt = 0;
    const t0 = process.hrtime.bigint();
    for (const { x, y, r } of craters) {
        raster.erase(discs.get(r)!, x - r, y - r);
        const s = chunks.sync();
        rebuilt += s.changed.length;
        for (const c of s.changed) pieces += c.pieces.length;
    }
    const ns = Number(process.hrtime.bigint() - t0);
    // The plane, the raster's change tiles (two sets of a flag byte and an index per 32 × 8 tile), the chunks' flags
    // and their one chunk of scratch words.
    const tiles = (W / 32) * Math.ceil(H / 8);
    const bytes = raster.plane(0).words.byteLength + 2 * tiles * 5 + 2 * chunks.count + 4 * 4 * 128;
    return { ns, pieces, rebuilt, bytes };
}

function theirs(): { ns: number; pieces: number; rebuilt: number; bytes: number } {
    const bitmap = new core.ChunkedBitmap({ width: W, height: H, chunkSize: 128 });
    const words = map.words.slice();
    for (let s = 0; s < W / 32; s++)
        for (let y = 0; y < H; y++)
            for (let v = words[s * H + y]; v !== 0; v &= v - 1) bitmap.setPixel(32 * s + 31 - Math.clz32(v & -v), y, 1);
    const rebuild = (): [number, number] => {
        const dirty: Chunk[] = [];
        bitmap.forEachDirtyChunk(c => dirty.push(c));
        let triangles = 0;
        for (const c of dirty) {
            for (const contour of extractor.chunkToContours(c, bitmap, 1)) {
                if (!contour.closed || contour.points.length < 3) continue;
                const flat: number[] = [];
                for (const p of contour.points) flat.push(p.x, p.y);
                triangles += earcut(flat).length / 3;
            }
            bitmap.clearDirty(c);
        }
        return [triangles, dirty.length];
    };
    rebuild();
    let pieces = 0,
        rebuilt = 0;
    const t0 = process.hrtime.bigint();
    for (const { x, y, r } of craters) {
        core.Carve.circle(bitmap, x, y, r);
        const [t, n] = rebuild();
        pieces += t;
        rebuilt += n;
    }
    const ns = Number(process.hrtime.bigint() - t0);
    const bytes = bitmap.chunks.reduce((s, c) => s + c.bitmap.byteLength, 0);
    return { ns, pieces, rebuilt, bytes };
}

// Rounds alternate, each on fresh terrain, after one round each to warm up; the median round is reported.
ours();
theirs();
const a: ReturnType<typeof ours>[] = [],
    b: ReturnType<typeof theirs>[] = [];
for (let i = 0; i < ROUNDS; i++) {
    a.push(ours());
    b.push(theirs());
}
const median = <T extends { ns: number }>(xs: T[]): T => [...xs].sort((p, q) => p.ns - q.ns)[xs.length >> 1];
const A = median(a),
    B = median(b);
const us = (ns: number): string => `${(ns / CRATERS / 1e3).toFixed(1)} µs`;
table(
    ['', 'per crater (carve + rebuild)', 'chunks rebuilt', 'pieces made', 'terrain memory'],
    [
        [
            'hitmask TerrainChunks (raster layer)',
            us(A.ns),
            A.rebuilt,
            `${A.pieces} convex`,
            `${(A.bytes / 1024).toFixed(0)} KiB`
        ],
        ['pixel-perfect core', us(B.ns), B.rebuilt, `${B.pieces} triangles`, `${(B.bytes / 1024).toFixed(0)} KiB`],
        ['ratio (ours / theirs)', (A.ns / B.ns).toFixed(2), '', '', (A.bytes / B.bytes).toFixed(3)]
    ]
);
console.log(`${CRATERS} craters, ${ROUNDS} rounds each after a warm-up round (median)`);
