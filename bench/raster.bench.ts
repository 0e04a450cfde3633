// Collision raster vs pairs vs the naive loop: a player (and a squad of enemies) against N bullets per frame.
// Run: npm run bench -- raster  (RASTER_QUICK=1 for a shorter run)
import { existsSync, readFileSync } from 'node:fs';
import { GifReader } from 'omggif';
import { CollisionRaster, Mask, World, type Body } from '../src/index.js';
import { setKernels, type KernelMode } from '../src/index.js';
import { kernelStats } from '../src/index.js';
import { banner, fmt, fmtTiming, mulberry32, table, time, type Timing } from './harness.js';

const DATA = '/usr/share/doc/python-pygame-doc/examples/data/';
const W = 1920,
    H = 1080; // playfield
const QUICK = process.env.RASTER_QUICK === '1';
const NS = [100, 1000, 10000, 100000],
    NS_DEFAULT = NS;
const OPTS = QUICK ? { samples: 7, sampleMs: 10 } : { samples: 11, sampleMs: 20 };

// A sprite both ways: alpha bytes for the naive loop and a Mask for everything else.
interface Sprite {
    name: string;
    w: number;
    h: number;
    alpha: Uint8Array;
    mask: Mask;
}

function load(file: string, w: number, h: number, seed: number): Sprite {
    let rgba: Uint8Array;
    let name = file;
    if (existsSync(DATA + file)) {
        const gif = new GifReader(readFileSync(DATA + file));
        w = gif.width;
        h = gif.height;
        rgba = new Uint8Array(w * h * 4);
        gif.decodeAndBlitFrameRGBA(0, rgba);
    } else {
        // Fallback: a filled ellipse with a few random holes, the same size as the pygame sprite.
        name = `${file} (generated ${w}x${h})`;
        rgba = new Uint8Array(w * h * 4);
        const rnd = mulberry32(seed);
        for (let y = 0; y < h; y++)
            for (let x = 0; x < w; x++) {
                const ex = ((x + 0.5) / w) * 2 - 1,
                    ey = ((y + 0.5) / h) * 2 - 1;
                if (ex * ex + ey * ey <= 1 && rnd() > 0.05) rgba[(y * w + x) * 4 + 3] = 255;
            }
    }
    const alpha = new Uint8Array(w * h);
    for (let i = 0; i < alpha.length; i++) alpha[i] = rgba[i * 4 + 3];
    return { name, w, h, alpha, mask: Mask.fromRGBA(rgba, w, h) };
}

const player = load('player1.gif', 90, 61, 1);
const shot = load('shot.gif', 9, 18, 2);
const bomb = load('bomb.gif', 16, 24, 3);

// Bullets uniformly over the playfield, partly off its edges; the player in the middle.
function bullets(n: number, seed: number): { xs: Int32Array; ys: Int32Array } {
    const rnd = mulberry32(seed),
        xs = new Int32Array(n),
        ys = new Int32Array(n);
    for (let i = 0; i < n; i++) {
        xs[i] = Math.floor(rnd() * (W + shot.w)) - shot.w;
        ys[i] = Math.floor(rnd() * (H + shot.h)) - shot.h;
    }
    return { xs, ys };
}
const PX = (W - player.w) >> 1,
    PY = (H - player.h) >> 1;

// Enemies for the many-queries scene: a squad spread over the playfield.
const SQUAD = 100,
    QS = [1, 3, 10, 30, 100, 300];
const ex = new Int32Array(300),
    ey = new Int32Array(300);
{
    const rnd = mulberry32(99);
    for (let i = 0; i < ex.length; i++) {
        ex[i] = Math.floor(rnd() * (W - bomb.w));
        ey[i] = Math.floor(rnd() * (H - bomb.h));
    }
}

const raster = new CollisionRaster(W, H, { layers: 2 });
const BULLETS = 0,
    IDS = 1;
const hitIds: number[] = [];
// The layer sets the queries pass, made once (as a game loop would), so a query allocates nothing.
const ON_BULLETS = { layers: 1 << BULLETS },
    ON_IDS = { layers: 1 << IDS };

// (a) raster: clear + stamp every bullet + test the player (+ hits when there is a hit).
function rasterFrame(xs: Int32Array, ys: Int32Array): number {
    raster.clear(BULLETS);
    raster.stampMany(shot.mask, xs, ys, { layer: BULLETS });
    return raster.overlaps(player.mask, PX, PY, ON_BULLETS) ? 1 : 0;
}
function rasterCallsFrame(xs: Int32Array, ys: Int32Array): number {
    raster.clear(BULLETS);
    const m = shot.mask;
    for (let i = 0; i < xs.length; i++) raster.stamp(m, xs[i], ys[i], { layer: BULLETS });
    return raster.overlaps(player.mask, PX, PY, ON_BULLETS) ? 1 : 0;
}
function rasterIdsFrame(xs: Int32Array, ys: Int32Array, ids: Int32Array): number {
    raster.clear(IDS);
    raster.stampMany(shot.mask, xs, ys, { ids, layer: IDS });
    return raster.overlaps(player.mask, PX, PY, ON_IDS)
        ? raster.queryMask(player.mask, PX, PY, ON_IDS, hitIds).length
        : 0;
}
function rasterPointsFrame(xs: Int32Array, ys: Int32Array): number {
    raster.clear(BULLETS);
    raster.stampPoints(xs, ys, { layer: BULLETS });
    return raster.overlaps(player.mask, PX, PY, ON_BULLETS) ? 1 : 0;
}
// Mask.draw instead of raster.stamp, to compare the stamp kernels (the plane is cleared by hand).
function maskDrawFrame(xs: Int32Array, ys: Int32Array): number {
    const plane = raster.plane(BULLETS),
        m = shot.mask;
    plane.words.fill(0);
    for (let i = 0; i < xs.length; i++) plane.draw(m, xs[i], ys[i]);
    return plane.overlaps(player.mask, PX, PY) ? 1 : 0;
}

// (b) pairs: box test, then Mask.overlaps, for the player against each bullet; returns the hit count.
function pairsFrame(xs: Int32Array, ys: Int32Array): number {
    const pm = player.mask,
        sm = shot.mask,
        pw = player.w,
        ph = player.h,
        sw = shot.w,
        sh = shot.h;
    let n = 0;
    for (let i = 0; i < xs.length; i++) {
        const dx = xs[i] - PX,
            dy = ys[i] - PY;
        if (dx >= pw || dy >= ph || dx <= -sw || dy <= -sh) continue;
        if (pm.overlaps(sm, dx, dy)) n++;
    }
    return n;
}
function pairsPointsFrame(xs: Int32Array, ys: Int32Array): number {
    const pm = player.mask,
        pw = player.w,
        ph = player.h;
    let n = 0;
    for (let i = 0; i < xs.length; i++) {
        const dx = xs[i] - PX,
            dy = ys[i] - PY;
        if (dx < 0 || dy < 0 || dx >= pw || dy >= ph) continue;
        if (pm.get(dx, dy)) n++;
    }
    return n;
}

// (b') World: the player and N bullet bodies (bullets collide only with the player), move every bullet, step.
function makeWorld(xs: Int32Array, ys: Int32Array): { world: World; shots: Body[] } {
    const world = new World();
    world.add({ x: PX, y: PY, mask: player.mask, category: 1, collidesWith: 2 });
    const shots: Body[] = [];
    for (let i = 0; i < xs.length; i++)
        shots.push(world.add({ x: xs[i], y: ys[i], mask: shot.mask, category: 2, collidesWith: 1 }));
    return { world, shots };
}
function worldFrame(w: { world: World; shots: Body[] }, xs: Int32Array, ys: Int32Array): number {
    const { world, shots } = w;
    for (let i = 0; i < shots.length; i++) world.move(shots[i], xs[i], ys[i]);
    return world.step();
}
// (a') World with the bullets in a raster layer: clear + stampMany + step (one body: the player).
function makeRasterWorld(): World {
    const world = new World();
    world.add({ x: PX, y: PY, mask: player.mask });
    world.addLayer(raster.layer(BULLETS));
    return world;
}
function rasterWorldFrame(world: World, xs: Int32Array, ys: Int32Array): number {
    raster.clear(BULLETS);
    raster.stampMany(shot.mask, xs, ys, { layer: BULLETS });
    return world.step();
}

// (c) naive: box test, then compare alpha bytes pixel by pixel over the intersection (the DirectDraw chapter).
function naiveFrame(xs: Int32Array, ys: Int32Array): number {
    const pa = player.alpha,
        sa = shot.alpha,
        pw = player.w,
        ph = player.h,
        sw = shot.w,
        sh = shot.h;
    let n = 0;
    for (let i = 0; i < xs.length; i++) {
        const dx = xs[i] - PX,
            dy = ys[i] - PY;
        if (dx >= pw || dy >= ph || dx <= -sw || dy <= -sh) continue;
        const x0 = Math.max(0, dx),
            y0 = Math.max(0, dy),
            x1 = Math.min(pw, dx + sw),
            y1 = Math.min(ph, dy + sh);
        let hit = false;
        for (let y = y0; y < y1 && !hit; y++) {
            for (let x = x0; x < x1; x++) {
                if (pa[y * pw + x] > 127 && sa[(y - dy) * sw + x - dx] > 127) {
                    hit = true;
                    break;
                }
            }
        }
        if (hit) n++;
    }
    return n;
}

// Many queries: SQUAD enemies against the same N bullets.
function squadRasterFrame(xs: Int32Array, ys: Int32Array, q = SQUAD): number {
    raster.clear(BULLETS);
    raster.stampMany(shot.mask, xs, ys, { layer: BULLETS });
    let n = 0;
    for (let e = 0; e < q; e++) if (raster.overlaps(bomb.mask, ex[e], ey[e], ON_BULLETS)) n++;
    return n;
}
function squadPairsFrame(xs: Int32Array, ys: Int32Array, q = SQUAD): number {
    const bm = bomb.mask,
        sm = shot.mask,
        bw = bomb.w,
        bh = bomb.h,
        sw = shot.w,
        sh = shot.h;
    let n = 0;
    for (let e = 0; e < q; e++) {
        const qx = ex[e],
            qy = ey[e];
        for (let i = 0; i < xs.length; i++) {
            const dx = xs[i] - qx,
                dy = ys[i] - qy;
            if (dx >= bw || dy >= bh || dx <= -sw || dy <= -sh) continue;
            if (bm.overlaps(sm, dx, dy)) {
                n++;
                break;
            }
        }
    }
    return n;
}

// Log-log interpolation of the N where `a` and `b` cross, from timings at the NS points.
function crossover(a: number[], b: number[], NS = NS_DEFAULT): string {
    // The last crossing: beyond it the order holds up to the largest N measured.
    for (let i = NS.length - 2; i >= 0; i--) {
        const r0 = Math.log(a[i] / b[i]),
            r1 = Math.log(a[i + 1] / b[i + 1]);
        if (r0 < 0 !== r1 < 0 || r0 === 0) {
            const t = r0 / (r0 - r1);
            const at = Math.round(Math.exp(Math.log(NS[i]) + t * (Math.log(NS[i + 1]) - Math.log(NS[i]))));
            return r1 < 0 ? `raster faster above N ≈ ${at}` : `raster faster below N ≈ ${at}`;
        }
    }
    return a[0] < b[0]
        ? `none: raster faster at every N (${NS[0]}..${NS[NS.length - 1]})`
        : `none: raster slower at every N (${NS[0]}..${NS[NS.length - 1]})`;
}

banner(
    'hitmask collision raster vs pairs vs naive (shared 2-core machine: expect noise, compare ratios within this run)'
);
console.log(
    `playfield ${W}x${H}; player ${player.name} ${player.w}x${player.h} at the centre; bullets ${shot.name} ${shot.w}x${shot.h}; squad of ${SQUAD} × ${bomb.name} ${bomb.w}x${bomb.h}`
);
console.log('ms per frame; ratio = time / raster time (> 1: raster faster)\n');

const ms = (t: Timing) => (t.median / 1e6).toFixed(3);
const cols: Record<string, number[]> = {};
const rows: (string | number)[][] = [];
const rowsPts: (string | number)[][] = [];
const rowsSquad: (string | number)[][] = [];
const rowsWorld: (string | number)[][] = [];
for (const n of NS) {
    const { xs, ys } = bullets(n, 1000 + n);
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    // Same answers from every method before timing anything.
    const expected = naiveFrame(xs, ys);
    if (
        pairsFrame(xs, ys) !== expected ||
        rasterFrame(xs, ys) !== (expected > 0 ? 1 : 0) ||
        rasterIdsFrame(xs, ys, ids) !== expected ||
        squadRasterFrame(xs, ys) !== squadPairsFrame(xs, ys)
    )
        throw new Error(`methods disagree at N = ${n}`);
    if (rasterPointsFrame(xs, ys) !== (pairsPointsFrame(xs, ys) > 0 ? 1 : 0))
        throw new Error(`point methods disagree at N = ${n}`);
    const w = makeWorld(xs, ys),
        rw = makeRasterWorld();
    if (worldFrame(w, xs, ys) !== expected || rasterWorldFrame(rw, xs, ys) !== (expected > 0 ? 1 : 0))
        throw new Error(`world methods disagree at N = ${n}`);
    const t = {
        raster: time(() => rasterFrame(xs, ys), OPTS),
        rasterCalls: time(() => rasterCallsFrame(xs, ys), OPTS),
        rasterIds: time(() => rasterIdsFrame(xs, ys, ids), OPTS),
        maskDraw: time(() => maskDrawFrame(xs, ys), OPTS),
        pairs: time(() => pairsFrame(xs, ys), OPTS),
        world: time(() => worldFrame(w, xs, ys), OPTS),
        rasterWorld: time(() => rasterWorldFrame(rw, xs, ys), OPTS),
        naive: time(() => naiveFrame(xs, ys), OPTS),
        rasterPts: time(() => rasterPointsFrame(xs, ys), OPTS),
        pairsPts: time(() => pairsPointsFrame(xs, ys), OPTS),
        squadRaster: time(() => squadRasterFrame(xs, ys), OPTS),
        squadPairs: time(() => squadPairsFrame(xs, ys), OPTS)
    };
    for (const [k, v] of Object.entries(t)) (cols[k] ??= []).push(v.median);
    const r = t.raster.median;
    rows.push([
        n,
        expected,
        fmtTiming(t.raster),
        ms(t.rasterCalls),
        ms(t.maskDraw),
        fmtTiming(t.rasterIds),
        fmtTiming(t.pairs),
        fmtTiming(t.naive),
        (t.pairs.median / r).toFixed(2),
        (t.naive.median / r).toFixed(2)
    ]);
    rowsPts.push([
        n,
        fmtTiming(t.rasterPts),
        fmtTiming(t.pairsPts),
        (t.pairsPts.median / t.rasterPts.median).toFixed(2)
    ]);
    rowsWorld.push([
        n,
        fmtTiming(t.rasterWorld),
        fmtTiming(t.world),
        (t.world.median / t.rasterWorld.median).toFixed(2)
    ]);
    rowsSquad.push([
        n,
        fmtTiming(t.squadRaster),
        fmtTiming(t.squadPairs),
        (t.squadPairs.median / t.squadRaster.median).toFixed(2)
    ]);
}

console.log(
    '## Player vs N shot sprites (raster: clear + stampMany + test; "with ids" also stamps ids and calls hitsInto on a hit)\n'
);
table(
    [
        'N',
        'hits',
        'raster',
        'stamp() per bullet (ms)',
        'Mask.draw per bullet (ms)',
        'raster with ids',
        'pairs (box + Mask.overlaps)',
        'naive (box + alpha bytes)',
        'pairs / raster',
        'naive / raster'
    ],
    rows
);
console.log(
    '## World: player + N bullet bodies (move all + step) vs player + a raster layer of the bullets (clear + stampMany + step)\n'
);
table(['N', 'World + raster layer', 'World, N bodies', 'bodies / raster layer'], rowsWorld);
console.log('## Player vs N single-pixel bullets (raster.stampPoints + test vs box + Mask.get per bullet)\n');
table(['N', 'raster (stampPoints)', 'pairs (box + get)', 'pairs / raster'], rowsPts);
console.log(
    `## ${SQUAD} enemies vs N shot sprites (raster: clear + stampMany + ${SQUAD} tests; pairs: ${SQUAD}×N box tests + Mask.overlaps until each enemy's first hit)\n`
);
table(['N', 'raster', 'pairs', 'pairs / raster'], rowsSquad);

// Static layer (terrain, walls): N rocks stamped once; per frame only the player is tested.
const rowsStatic: (string | number)[][] = [];
for (const n of NS) {
    const { xs, ys } = bullets(n, 5000 + n);
    raster.clear(BULLETS);
    raster.stampMany(bomb.mask, xs, ys, { layer: BULLETS });
    const staticRaster = () => raster.overlaps(player.mask, PX, PY, ON_BULLETS);
    const staticPairs = () => {
        const pm = player.mask,
            bm = bomb.mask,
            pw = player.w,
            ph = player.h,
            bw = bomb.w,
            bh = bomb.h;
        for (let i = 0; i < xs.length; i++) {
            const dx = xs[i] - PX,
                dy = ys[i] - PY;
            if (dx >= pw || dy >= ph || dx <= -bw || dy <= -bh) continue;
            if (pm.overlaps(bm, dx, dy)) return true;
        }
        return false;
    };
    if (staticRaster() !== staticPairs()) throw new Error(`static methods disagree at N = ${n}`);
    const tr = time(staticRaster, OPTS),
        tp = time(staticPairs, OPTS);
    (cols.staticRaster ??= []).push(tr.median);
    (cols.staticPairs ??= []).push(tp.median);
    rowsStatic.push([n, fmtTiming(tr), fmtTiming(tp), (tp.median / tr.median).toFixed(2)]);
}
console.log(
    `## Static layer: player vs N ${bomb.name} rocks stamped once (per frame: raster.test vs box + Mask.overlaps until the first hit)\n`
);
table(['N', 'raster', 'pairs', 'pairs / raster'], rowsStatic);

// How many tested sprites make re-stamping N = 10,000 moving bullets every frame pay off.
const rowsQ: (string | number)[][] = [];
const qRaster: number[] = [],
    qPairs: number[] = [];
{
    const { xs, ys } = bullets(10000, 11000);
    for (const q of QS) {
        const tr = time(() => squadRasterFrame(xs, ys, q), OPTS),
            tp = time(() => squadPairsFrame(xs, ys, q), OPTS);
        qRaster.push(tr.median);
        qPairs.push(tp.median);
        rowsQ.push([q, fmtTiming(tr), fmtTiming(tp), (tp.median / tr.median).toFixed(2)]);
    }
}
console.log(
    `## Q ${bomb.name} enemies vs 10,000 moving shots (raster: clear + stampMany + Q tests; pairs: Q × 10,000 box tests + Mask.overlaps)\n`
);
table(['Q', 'raster', 'pairs', 'pairs / raster'], rowsQ);

console.log('## Crossover (where the raster starts to beat the alternative)\n');
table(
    ['scene', 'vs pairs', 'vs naive'],
    [
        ['player vs N moving shots', crossover(cols.raster, cols.pairs), crossover(cols.raster, cols.naive)],
        ['World: player vs N moving shot bodies', crossover(cols.rasterWorld, cols.world), '–'],
        [
            'player vs N moving shots, with ids',
            crossover(cols.rasterIds, cols.pairs),
            crossover(cols.rasterIds, cols.naive)
        ],
        ['player vs N moving pixels', crossover(cols.rasterPts, cols.pairsPts), '–'],
        [`${SQUAD} enemies vs N moving shots`, crossover(cols.squadRaster, cols.squadPairs), '–'],
        ['player vs N static rocks', crossover(cols.staticRaster, cols.staticPairs), '–'],
        ['Q enemies vs 10,000 moving shots', crossover(qRaster, qPairs, QS).replace(/N/g, 'Q'), '–']
    ]
);

// clear() cost: the dirty bounding box vs zeroing the whole plane, 200 shots in a 300x300 corner.
{
    const { xs, ys } = bullets(200, 7);
    for (let i = 0; i < xs.length; i++) {
        xs[i] = xs[i] % 300;
        ys[i] = ys[i] % 300;
    }
    const dirty = time(() => {
        raster.clear(BULLETS);
        for (let i = 0; i < xs.length; i++) raster.stamp(shot.mask, xs[i], ys[i], { layer: BULLETS });
        return 0;
    }, OPTS);
    const full = time(() => {
        raster.plane(BULLETS).words.fill(0);
        raster.clear(BULLETS);
        for (let i = 0; i < xs.length; i++) raster.stamp(shot.mask, xs[i], ys[i], { layer: BULLETS });
        return 0;
    }, OPTS);
    console.log(
        `clear() of the stamped box vs the whole ${W}x${H} plane (+ 200 stamps): ${fmt(dirty.median)} vs ${fmt(full.median)}\n`
    );
}

// WebAssembly SIMD vs JS kernels: the same work on a raster and masks made under each (setKernels
// decides where words live), sprites as filled ellipses; queries miss, so every word is scanned.
if (kernelStats().wasmAvailable) {
    const ellipse = (w: number, h: number): Mask => {
        const m = new Mask(w, h);
        for (let y = 0; y < h; y++)
            for (let x = 0; x < w; x++)
                if ((((x + 0.5) / w) * 2 - 1) ** 2 + (((y + 0.5) / h) * 2 - 1) ** 2 <= 1) m.set(x, y);
        return m;
    };
    const rnd = mulberry32(77),
        K = 1000,
        xs = new Int32Array(K),
        ys = new Int32Array(K),
        qx = new Int32Array(K),
        qy = new Int32Array(K);
    for (let i = 0; i < K; i++) {
        xs[i] = Math.floor(rnd() * (W + 64)) - 64;
        ys[i] = Math.floor(rnd() * (H + 64)) - 64;
        qx[i] = Math.floor(rnd() * (W - 256));
        qy[i] = (H >> 1) + 32 + Math.floor(rnd() * ((H >> 1) - 256 - 32));
    }
    const shots = bullets(10000, 31337);
    // Layer 0 takes the stamps; layers 1 to 3: 2,000 rocks in the top half; queries go to the bottom half.
    const setup = (mode: KernelMode) => {
        setKernels(mode);
        const r = new CollisionRaster(W, H, { layers: 4 }),
            s32 = ellipse(32, 32),
            s256 = ellipse(256, 256),
            rock = bomb.mask.clone();
        const sh = shot.mask.clone(),
            pl = player.mask.clone();
        for (let i = 0; i < 2000; i++)
            r.stamp(rock, Math.floor(rnd() * W), Math.floor(rnd() * (H >> 1)), { layer: 1 + (i % 3) });
        return { r, s32, s256, sh, pl };
    };
    // The layer sets the queries pass, made once: 1, 2 (layer 1), 6 (layers 1-2), 14 (layers 1-3).
    const L1 = { layers: 1 },
        L2 = { layers: 2 },
        L6 = { layers: 6 },
        L14 = { layers: 14 };
    const prev = kernelStats().kernels;
    const sc = { js: setup('js'), wasm: setup('wasm') };
    type Scene = typeof sc.js;
    let q = 0;
    const cases: [string, (o: Scene) => number | boolean | object | null][] = [
        [
            'clear + stamp 1,000 × 32² (one layer)',
            o => {
                o.r.clear(0);
                for (let i = 0; i < K; i++) o.r.stamp(o.s32, xs[i], ys[i]);
                return 0;
            }
        ],
        [
            'clear + stamp 100 × 256² (one layer)',
            o => {
                o.r.clear(0);
                for (let i = 0; i < 100; i++) o.r.stamp(o.s256, xs[i], ys[i]);
                return 0;
            }
        ],
        [
            `clear + stampMany 10,000 × ${shot.w}x${shot.h} shots + test the player`,
            o => {
                o.r.clear(0);
                o.r.stampMany(o.sh, shots.xs, shots.ys);
                return o.r.overlaps(o.pl, PX, PY, L1);
            }
        ],
        ['overlaps 32², 1 layer', o => o.r.overlaps(o.s32, qx[(q = (q + 1) % K)], qy[q], L2)],
        ['overlaps 256², 1 layer', o => o.r.overlaps(o.s256, qx[(q = (q + 1) % K)], qy[q], L2)],
        ['overlaps 32², 2 layers', o => o.r.overlaps(o.s32, qx[(q = (q + 1) % K)], qy[q], L6)],
        ['overlaps 256², 2 layers', o => o.r.overlaps(o.s256, qx[(q = (q + 1) % K)], qy[q], L6)],
        ['overlaps 256², 3 layers', o => o.r.overlaps(o.s256, qx[(q = (q + 1) % K)], qy[q], L14)],
        ['overlapArea 256², 3 layers', o => o.r.overlapArea(o.s256, qx[(q = (q + 1) % K)], qy[q], L14)],
        ['overlap 32², 2 layers', o => o.r.overlap(o.s32, qx[(q = (q + 1) % K)], qy[q], L6)],
        ['overlap 256², 1 layer', o => o.r.overlap(o.s256, qx[(q = (q + 1) % K)], qy[q], L2)],
        ['overlap 256², 3 layers', o => o.r.overlap(o.s256, qx[(q = (q + 1) % K)], qy[q], L14)]
    ];
    const rowsK: (string | number)[][] = [];
    for (const [name, fn] of cases) {
        setKernels('js');
        q = 0;
        const want = JSON.stringify(fn(sc.js)),
            tj = time(() => fn(sc.js), OPTS);
        setKernels('wasm');
        q = 0;
        if (JSON.stringify(fn(sc.wasm)) !== want) throw new Error(`kernels disagree: ${name}`);
        const tw = time(() => fn(sc.wasm), OPTS);
        rowsK.push([name, fmtTiming(tj), fmtTiming(tw), (tw.median / tj.median).toFixed(2)]);
    }
    setKernels(prev);
    console.log(
        `## WebAssembly SIMD vs JS kernels on the ${W}x${H} raster (queries in an empty area next to 2,000 rocks: full scans)\n`
    );
    table(['work', 'JS kernels', 'WebAssembly SIMD', 'wasm / js'], rowsK);
}
