// Raster snapshot cost: snapshot(out) + restore of a 1920x1080 2-layer raster (with ids, and without), against one
// frame's clear + stampMany of 1,000 bullets, timed in the same run on both kernel paths; then delta snapshots
// (snapshotChanges) against full ones and against the frame itself, at two raster sizes and three bullet counts.
// Run: npm run bench -- snapshot
import { CollisionRaster, Mask, setKernels, type KernelMode } from '../src/index.js';
import { banner, fmtTiming, mulberry32, table, time } from './harness.js';

const W = 1920,
    H = 1080,
    N = 1000,
    TERRAIN = 0,
    BULLETS = 1;

// A 9x18 shot with a few holes, as the raster benchmark's generated fallback.
function blob(w: number, h: number, seed: number): Mask {
    const rnd = mulberry32(seed),
        m = new Mask(w, h);
    for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
            const ex = ((x + 0.5) / w) * 2 - 1,
                ey = ((y + 0.5) / h) * 2 - 1;
            if (ex * ex + ey * ey <= 1 && rnd() > 0.05) m.set(x, y);
        }
    return m;
}

const shot = blob(9, 18, 2);
const xs = new Int32Array(N),
    ys = new Int32Array(N),
    ids = new Int32Array(N);
{
    const rnd = mulberry32(7);
    for (let i = 0; i < N; i++) {
        xs[i] = Math.floor(rnd() * W);
        ys[i] = Math.floor(rnd() * H);
        ids[i] = i;
    }
}

// Terrain: 12 platforms with ids along the lower third, a few craters erased.
function scene(terrain: boolean, withIds: boolean): CollisionRaster {
    const r = new CollisionRaster(W, H, { layers: 2 });
    if (terrain) {
        const rnd = mulberry32(11),
            platform = new Mask(160, 40, true),
            crater = blob(30, 30, 5);
        for (let i = 0; i < 12; i++)
            r.stamp(platform, i * 160, 700 + Math.floor(rnd() * 300), { id: withIds ? 5000 + i : -1, layer: TERRAIN });
        for (let i = 0; i < 20; i++)
            r.erase(crater, Math.floor(rnd() * W), 700 + Math.floor(rnd() * 340), { layer: TERRAIN });
    }
    r.stampMany(shot, xs, ys, withIds ? { ids, layer: BULLETS } : { layer: BULLETS });
    return r;
}

banner('Raster snapshot + restore vs one frame of bullets (1920x1080, 2 layers, ids)');
const rows: (string | number)[][] = [];
for (const mode of ['wasm', 'js'] as KernelMode[]) {
    setKernels(mode);
    for (const [terrain, withIds] of [
        [false, true],
        [true, true],
        [true, false]
    ]) {
        const r = scene(terrain, withIds),
            bytes = r.snapshot(),
            out = new Uint8Array(bytes.length),
            opts = withIds ? { ids, layer: BULLETS } : { layer: BULLETS };
        const frame = time(() => {
            r.clear(BULLETS);
            r.stampMany(shot, xs, ys, opts);
            return r;
        });
        const snap = time(() => r.snapshot(out));
        const restore = time(() => r.restore(bytes));
        const both = time(() => r.restore(r.snapshot(out)));
        const hash = time(() => r.hash());
        rows.push([
            mode,
            (terrain ? 'terrain + bullets' : 'bullets') + (withIds ? ', ids' : ', no ids'),
            `${(bytes.length / 1024).toFixed(0)} KiB`,
            fmtTiming(frame),
            fmtTiming(snap),
            fmtTiming(restore),
            fmtTiming(both),
            fmtTiming(hash),
            (both.median / frame.median).toFixed(2) + 'x'
        ]);
    }
}
table(
    [
        'kernels',
        'scene',
        'snapshot size',
        'clear + stampMany 1,000 (baseline, ids as the scene)',
        'snapshot(out)',
        'restore',
        'snapshot + restore',
        'hash()',
        'snapshot + restore / baseline'
    ],
    rows
);

// Deltas: each frame moves k bullets (clear + stampMany with ids) and blows a 6x6 crater into the terrain (ids), then
// saves the frame with a full snapshot or a delta; a rollback of 8 frames restores a keyframe and 8 deltas.
function deltaScene(w: number, h: number, k: number): { r: CollisionRaster; frame: () => CollisionRaster } {
    const r = new CollisionRaster(w, h, { layers: 2 }),
        rnd = mulberry32(13),
        platform = new Mask(Math.min(160, w), 40, true);
    for (let x = 0; x < w; x += platform.width)
        r.stamp(platform, x, h - 60 - Math.floor(rnd() * 40), { id: 5000 + x, layer: TERRAIN });
    const bx = new Int32Array(k),
        by = new Int32Array(k),
        vx = new Int32Array(k),
        vy = new Int32Array(k),
        bid = new Int32Array(k);
    for (let i = 0; i < k; i++) {
        bx[i] = Math.floor(rnd() * w);
        by[i] = Math.floor(rnd() * h);
        vx[i] = 1 + Math.floor(rnd() * 4);
        vy[i] = -3 + Math.floor(rnd() * 7);
        bid[i] = i;
    }
    const crater = new Mask(6, 6, true),
        opts = { ids: bid, layer: BULLETS },
        eraseOpts = { layer: TERRAIN };
    let t = 0;
    const frame = () => {
        for (let i = 0; i < k; i++) {
            bx[i] = (bx[i] + vx[i]) % w;
            by[i] = (by[i] + vy[i] + h) % h;
        }
        r.clear(BULLETS).stampMany(shot, bx, by, opts);
        return r.erase(crater, (t++ * 37) % w, h - 110 + (t % 50), eraseOpts);
    };
    return { r, frame };
}

// Median (min–max) of single calls of `fn` after `setup` (not timed), in ns.
function timeEach(
    setup: () => void,
    fn: () => void,
    n = 200
): { median: number; min: number; max: number; samples: number } {
    const ns: number[] = [];
    for (let i = 0; i < n + 20; i++) {
        setup();
        const t0 = process.hrtime.bigint();
        fn();
        if (i >= 20) ns.push(Number(process.hrtime.bigint() - t0));
    }
    ns.sort((a, b) => a - b);
    return { median: ns[n >> 1], min: ns[0], max: ns[n - 1], samples: n };
}

banner('Delta snapshots (snapshotChanges) vs full snapshots, per frame; default kernels');
const drows: (string | number)[][] = [];
for (const [w, h] of [
    [640, 360],
    [1920, 1080]
]) {
    for (const k of [10, 100, 1000]) {
        const { r, frame } = deltaScene(w, h, k),
            out = new Uint8Array(4 << 20);
        const base = time(frame);
        const withFull = time(() => {
            frame();
            return r.snapshot(out);
        });
        const withDelta = time(() => {
            frame();
            return r.snapshotChanges(out);
        });
        // A ring of 9 frames: a keyframe, then 8 deltas (each its own copy).
        frame();
        const ring = [r.snapshot().slice()];
        for (let i = 0; i < 8; i++) {
            frame();
            ring.push(r.snapshotChanges().slice());
        }
        const last = r.snapshot().slice(),
            delta = ring[8],
            fullBytes = ring[0].length;
        const deltaBytes = ring.slice(1).reduce((a, b) => a + b.length, 0) / 8,
            fulls = ring.slice(1).filter(b => b[3] === 0x53).length;
        const restoreFull = time(() => r.restore(last));
        const restoreDelta = timeEach(
            () => {
                for (let i = 0; i < 8; i++) r.restore(ring[i]);
            },
            () => r.restore(delta)
        );
        const rollback8 = time(() => {
            for (const b of ring) r.restore(b);
            return r;
        });
        drows.push([
            `${w}x${h}`,
            k,
            `${(fullBytes / 1024).toFixed(1)} KiB`,
            `${(deltaBytes / 1024).toFixed(1)} KiB${fulls > 0 ? ` (${fulls}/8 full)` : ''}`,
            fmtTiming(base),
            fmtTiming(withFull),
            fmtTiming(withDelta),
            fmtTiming(restoreFull),
            fmtTiming(restoreDelta),
            fmtTiming(rollback8),
            ((withFull.median - base.median) / base.median).toFixed(2) + 'x',
            ((withDelta.median - base.median) / base.median).toFixed(2) + 'x'
        ]);
    }
}
table(
    [
        'raster',
        'bullets',
        'full snapshot',
        'delta (mean of 8)',
        'frame: clear + stampMany with ids + erase (baseline)',
        'frame + snapshot(out)',
        'frame + snapshotChanges(out)',
        'restore(full)',
        'restore(delta)',
        'rollback 8: restore(key) + 8 deltas',
        'full snapshot / baseline',
        'delta / baseline'
    ],
    drows
);
console.log('The two ratios: (frame + snapshot) median less the baseline median, over the baseline median.');
