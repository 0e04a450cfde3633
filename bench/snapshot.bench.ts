// Raster snapshot cost: snapshot(out) + restore of a 1920x1080 2-layer raster (with ids, and without), against one
// frame's clear + stampMany of 1,000 bullets, timed in the same run on both kernel paths.
// Run: npm run bench:snapshot
import { CollisionRaster, Mask, setKernels, type KernelMode } from '../src/index.js';
import { banner, fmtTiming, mulberry32, table, time } from './harness.js';

const W = 1920, H = 1080, N = 1000, TERRAIN = 0, BULLETS = 1;

// A 9x18 shot with a few holes, as the raster benchmark's generated fallback.
function blob(w: number, h: number, seed: number): Mask {
    const rnd = mulberry32(seed), m = new Mask(w, h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
        const ex = (x + 0.5) / w * 2 - 1, ey = (y + 0.5) / h * 2 - 1;
        if (ex * ex + ey * ey <= 1 && rnd() > 0.05) m.set(x, y);
    }
    return m;
}

const shot = blob(9, 18, 2);
const xs = new Int32Array(N), ys = new Int32Array(N), ids = new Int32Array(N);
{
    const rnd = mulberry32(7);
    for (let i = 0; i < N; i++) { xs[i] = Math.floor(rnd() * W); ys[i] = Math.floor(rnd() * H); ids[i] = i; }
}

// Terrain: 12 platforms with ids along the lower third, a few craters erased.
function scene(terrain: boolean, withIds: boolean): CollisionRaster {
    const r = new CollisionRaster(W, H, { layers: 2 });
    if (terrain) {
        const rnd = mulberry32(11), platform = new Mask(160, 40, true), crater = blob(30, 30, 5);
        for (let i = 0; i < 12; i++) r.stamp(platform, i * 160, 700 + Math.floor(rnd() * 300), { id: withIds ? 5000 + i : -1, layer: TERRAIN });
        for (let i = 0; i < 20; i++) r.erase(crater, Math.floor(rnd() * W), 700 + Math.floor(rnd() * 340), { layer: TERRAIN });
    }
    r.stampMany(shot, xs, ys, withIds ? { ids, layer: BULLETS } : { layer: BULLETS });
    return r;
}

banner('Raster snapshot + restore vs one frame of bullets (1920x1080, 2 layers, ids)');
const rows: (string | number)[][] = [];
for (const mode of ['wasm', 'js'] as KernelMode[]) {
    setKernels(mode);
    for (const [terrain, withIds] of [[false, true], [true, true], [true, false]]) {
        const r = scene(terrain, withIds), bytes = r.snapshot(), out = new Uint8Array(bytes.length), opts = withIds ? { ids, layer: BULLETS } : { layer: BULLETS };
        const frame = time(() => { r.clear(BULLETS); r.stampMany(shot, xs, ys, opts); return r; });
        const snap = time(() => r.snapshot(out));
        const restore = time(() => r.restore(bytes));
        const both = time(() => r.restore(r.snapshot(out)));
        const hash = time(() => r.hash());
        rows.push([mode, (terrain ? 'terrain + bullets' : 'bullets') + (withIds ? ', ids' : ', no ids'), `${(bytes.length / 1024).toFixed(0)} KiB`, fmtTiming(frame), fmtTiming(snap),
            fmtTiming(restore), fmtTiming(both), fmtTiming(hash), (both.median / frame.median).toFixed(2) + 'x']);
    }
}
table(['kernels', 'scene', 'snapshot size', 'clear + stampMany 1,000 (baseline, ids as the scene)', 'snapshot(out)', 'restore', 'snapshot + restore', 'hash()', 'snapshot + restore / baseline'], rows);
