// @test fast
// TerrainChunks (hitmask/shapes): after any sequence of writes (raster stamps, erases, pixels, points, clears,
// restores; mask draws, erases, sets, writes through `words`), the pieces of every chunk cover the terrain's set
// pixels exactly at tolerance 0 (pixel centres) and within the tolerance otherwise, each chunk only its own pixels;
// a chunk no write touched is never rebuilt. Seeded generated terrain, and Hedgewars maps when installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CollisionRaster, Mask } from '../src/index.js';
import { TerrainChunks, type ChunkSync } from '../src/shapes.js';
import { decodeImage } from '../src/node.js';
import { mulberry32 } from './reference.js';

const SEED = 20261128;
const DATA = '/usr/share/games/hedgewars/Data';
const skipReal = existsSync(join(DATA, 'Maps'))
    ? false
    : `${DATA} is missing (CI installs Debian's hedgewars-data from .ci/apt-packages; locally: apt-get install hedgewars-data)`;

function disc(r: number): Mask {
    const m = new Mask(2 * r + 1, 2 * r + 1);
    for (let y = 0; y <= 2 * r; y++)
        for (let x = 0; x <= 2 * r; x++) if ((x - r) ** 2 + (y - r) ** 2 <= r * r) m.set(x, y);
    return m;
}

// The set pixels of `m`, a byte per pixel (row-major).
function bitsOf(m: Mask): Uint8Array {
    const out = new Uint8Array(m.width * m.height),
        w = m.words.slice();
    for (let y = 0; y < m.height; y++)
        for (let x = 0; x < m.width; x++) out[y * m.width + x] = (w[(x >>> 5) * m.height + y] >>> (x & 31)) & 1;
    return out;
}

// The chunks' pieces as the game keeps them: sync results applied in order.
class Model {
    readonly pieces = new Map<number, number[][]>();
    readonly chains = new Map<number, number[][]>();
    apply(s: ChunkSync): void {
        for (const id of s.removed) {
            assert.ok(this.pieces.has(id), `removed chunk ${id} had pieces`);
            this.pieces.delete(id);
            this.chains.delete(id);
        }
        for (const c of s.changed) {
            assert.ok(c.pieces.length > 0, `changed chunk ${c.id} has pieces`);
            this.pieces.set(c.id, c.pieces);
            this.chains.set(c.id, c.chains);
        }
    }
}

// How many pieces hold each pixel centre (nudged by an irrational ratio, so never on an edge between integer vertices).
function coverage(chunks: TerrainChunks, model: Model): Uint8Array {
    const W = chunks.width,
        H = chunks.height,
        out = new Uint8Array(W * H);
    const ex = 1e-6,
        ey = 1e-6 * Math.SQRT2;
    for (const [id, pieces] of model.pieces) {
        const cx = (id % chunks.columns) * chunks.size,
            cy = Math.floor(id / chunks.columns) * chunks.size;
        for (const p of pieces) {
            let x0 = Infinity,
                y0 = Infinity,
                x1 = -Infinity,
                y1 = -Infinity,
                a = 0;
            const n = p.length;
            for (let i = 0; i < n; i += 2) {
                // Each chunk's pieces stay inside the chunk.
                if (p[i] < cx || p[i] > Math.min(cx + chunks.size, W)) assert.fail(`x ${p[i]} outside chunk ${id}`);
                if (p[i + 1] < cy || p[i + 1] > Math.min(cy + chunks.size, H))
                    assert.fail(`y ${p[i + 1]} outside ${id}`);
                x0 = Math.min(x0, p[i]);
                y0 = Math.min(y0, p[i + 1]);
                x1 = Math.max(x1, p[i]);
                y1 = Math.max(y1, p[i + 1]);
                const j = (i + 2) % n;
                a += p[i] * p[j + 1] - p[j] * p[i + 1];
            }
            assert.ok(a > 0, 'a piece has A > 0');
            for (let y = Math.floor(y0); y < Math.ceil(y1); y++)
                for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
                    const px = x + 0.5 + ex,
                        py = y + 0.5 + ey;
                    let inside = true;
                    for (let i = 0; i < n && inside; i += 2) {
                        const j = (i + 2) % n;
                        if ((p[j] - p[i]) * (py - p[i + 1]) - (p[j + 1] - p[i + 1]) * (px - p[i]) <= 0) inside = false;
                    }
                    if (inside) out[y * W + x]++;
                }
        }
    }
    return out;
}

// Whether a pixel of value `v` lies within `d` of pixel (x, y)'s centre (outside the layer counts as clear).
function near(bits: Uint8Array, W: number, H: number, x: number, y: number, v: number, d: number): boolean {
    const r = Math.ceil(d) + 1;
    for (let yy = y - r; yy <= y + r; yy++)
        for (let xx = x - r; xx <= x + r; xx++) {
            const b = xx < 0 || yy < 0 || xx >= W || yy >= H ? 0 : bits[yy * W + xx];
            if (b !== v) continue;
            // Distance from the centre to the pixel square.
            const dx = Math.max(xx - (x + 0.5), 0, x + 0.5 - (xx + 1)),
                dy = Math.max(yy - (y + 0.5), 0, y + 0.5 - (yy + 1));
            if (dx * dx + dy * dy <= d * d + 1e-9) return true;
        }
    return false;
}

// The model's pieces cover the terrain: exactly at tolerance 0, within it otherwise; no pixel centre twice.
function checkCover(chunks: TerrainChunks, model: Model, terrain: Mask, tolerance: number, what: string): void {
    const cov = coverage(chunks, model),
        bits = bitsOf(terrain),
        W = terrain.width,
        H = terrain.height;
    let wrong = 0;
    for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
            const i = y * W + x;
            if (cov[i] > 1) assert.fail(`${what}: pixel (${x}, ${y}) is in ${cov[i]} pieces`);
            if (cov[i] === bits[i]) continue;
            wrong++;
            if (tolerance === 0) assert.fail(`${what}: pixel (${x}, ${y}) is ${bits[i]}, covered ${cov[i]}`);
            assert.ok(
                near(bits, W, H, x, y, cov[i], tolerance),
                `${what}: pixel (${x}, ${y}) is ${bits[i]}, covered ${cov[i]}, farther than ${tolerance} from it`
            );
        }
    if (tolerance > 0) assert.ok(wrong < bits.length / 20, `${what}: ${wrong} pixels differ`);
}

// At tolerance 0 the chains are exactly the terrain's surface: every unit edge between a solid pixel (on its right,
// y down) and a clear one (or the layer's outside), once.
function checkChains(chunks: TerrainChunks, chains: Map<number, number[][]>, terrain: Mask, what: string): void {
    const bits = bitsOf(terrain),
        W = terrain.width,
        H = terrain.height;
    const solid = (x: number, y: number): number => (x < 0 || y < 0 || x >= W || y >= H ? 0 : bits[y * W + x]);
    const got = new Set<string>();
    for (const list of chains.values())
        for (const c of list)
            for (let i = 0; i + 3 < c.length; i += 2) {
                const dx = Math.sign(c[i + 2] - c[i]),
                    dy = Math.sign(c[i + 3] - c[i + 1]);
                assert.ok(dx === 0 || dy === 0, `${what}: an exact chain edge is axis-aligned`);
                for (let x = c[i], y = c[i + 1]; x !== c[i + 2] || y !== c[i + 3]; x += dx, y += dy) {
                    const key = `${x},${y},${dx},${dy}`;
                    assert.ok(!got.has(key), `${what}: edge ${key} twice`);
                    got.add(key);
                }
            }
    let want = 0;
    for (let y = 0; y <= H; y++)
        for (let x = 0; x <= W; x++) {
            // The unit edges from (x, y): rightward with solid below, leftward with solid above, and so on.
            const edges: [number, number, boolean][] = [
                [1, 0, solid(x, y) === 1 && solid(x, y - 1) === 0],
                [-1, 0, solid(x - 1, y - 1) === 1 && solid(x - 1, y) === 0],
                [0, 1, solid(x - 1, y) === 1 && solid(x, y) === 0],
                [0, -1, solid(x, y - 1) === 1 && solid(x - 1, y - 1) === 0]
            ];
            for (const [dx, dy, on] of edges) {
                if (!on) continue;
                want++;
                assert.ok(
                    got.has(`${x},${y},${dx},${dy}`),
                    `${what}: surface edge at (${x}, ${y}) (${dx}, ${dy}) missing`
                );
            }
        }
    assert.equal(got.size, want, `${what}: chain edges inside the terrain`);
}

// The chunks meeting a box or the pixels around it, clipped to the layer (the ones a write there may rebuild: a
// chunk's chains read the pixels across its border).
function touched(chunks: TerrainChunks, set: Set<number>, x: number, y: number, w: number, h: number): void {
    const x0 = Math.max(0, x - 1),
        y0 = Math.max(0, y - 1),
        x1 = Math.min(chunks.width, x + w + 1),
        y1 = Math.min(chunks.height, y + h + 1);
    if (x1 <= x0 || y1 <= y0) return;
    const s = chunks.size;
    for (let cy = Math.floor(y0 / s); cy <= Math.floor((y1 - 1) / s); cy++)
        for (let cx = Math.floor(x0 / s); cx <= Math.floor((x1 - 1) / s); cx++) set.add(cy * chunks.columns + cx);
}

// Generated terrain: hills with caves and floating slabs.
function terrain(W: number, H: number, rnd: () => number): Mask {
    const m = new Mask(W, H);
    const base = H * (0.4 + 0.2 * rnd()),
        a = H * 0.15 * rnd(),
        f = 0.01 + 0.05 * rnd();
    for (let x = 0; x < W; x++) {
        const top = Math.max(0, Math.min(H, Math.round(base + a * Math.sin(x * f) + 6 * rnd())));
        for (let y = top; y < H; y++) m.set(x, y);
    }
    for (let i = 0; i < 12; i++) {
        const r = 3 + Math.floor(rnd() * 20),
            d = disc(r);
        if (rnd() < 0.6) m.erase(d, Math.floor(rnd() * W) - r, Math.floor(rnd() * H) - r);
        else m.draw(d, Math.floor(rnd() * W) - r, Math.floor(rnd() * H * 0.5) - r);
    }
    return m;
}

test('raster layer: random writes; pieces cover exactly (tolerance 0) or within 1; untouched chunks never rebuilt', () => {
    const rnd = mulberry32(SEED);
    const craters = [1, 2, 5, 9, 17].map(disc);
    for (let round = 0; round < 6; round++) {
        const W = 150 + Math.floor(rnd() * 250),
            H = 100 + Math.floor(rnd() * 150);
        const tolerance = round % 2 === 0 ? 0 : 1;
        const size = [32, 40, 64, 100][round % 4];
        const raster = new CollisionRaster(W, H, { layers: 2 });
        raster.stamp(terrain(W, H, rnd), 0, 0);
        raster.stamp(terrain(W, H, rnd), 0, 0, { layer: 1 });
        const chunks = new TerrainChunks(raster.layer(0), { size, tolerance, maxVertices: 3 + (round % 6) });
        const model = new Model();
        model.apply(chunks.sync());
        checkCover(chunks, model, raster.plane(0), tolerance, `round ${round} first sync`);
        let saved: Uint8Array | null = null;
        for (let step = 0; step < 40; step++) {
            const hit = new Set<number>();
            const writes = 1 + Math.floor(rnd() * 4);
            for (let k = 0; k < writes; k++) {
                const d = craters[Math.floor(rnd() * craters.length)],
                    x = Math.floor(rnd() * (W + 20)) - 10 - (d.width >> 1),
                    y = Math.floor(rnd() * (H + 20)) - 10 - (d.height >> 1);
                const op = Math.floor(rnd() * 9);
                if (op <= 3) {
                    raster.erase(d, x, y);
                    touched(chunks, hit, x, y, d.width, d.height);
                } else if (op === 4) {
                    raster.stamp(d, x, y, { id: step });
                    touched(chunks, hit, x, y, d.width, d.height);
                } else if (op === 5) {
                    raster.erasePixel(x, y);
                    raster.stampPixel(x + 3, y);
                    touched(chunks, hit, x, y, 1, 1);
                    touched(chunks, hit, x + 3, y, 1, 1);
                } else if (op === 6) {
                    raster.stampPoints([x, x + 7], [y, y + 2]);
                    touched(chunks, hit, x, y, 1, 1);
                    touched(chunks, hit, x + 7, y + 2, 1, 1);
                } else if (op === 7) {
                    // Another layer's writes touch no chunk of layer 0.
                    raster.erase(d, x, y, { layer: 1 });
                    raster.clear(1);
                } else if (saved === null || rnd() < 0.5) {
                    saved = raster.snapshot();
                } else {
                    raster.restore(saved);
                    touched(chunks, hit, 0, 0, W, H);
                }
            }
            const s = chunks.sync();
            for (const id of [...s.removed, ...s.changed.map(c => c.id)])
                assert.ok(hit.has(id), `round ${round} step ${step}: chunk ${id} rebuilt, no write touched it`);
            model.apply(s);
            if (step % 4 !== 3) continue;
            checkCover(chunks, model, raster.plane(0), tolerance, `round ${round} step ${step}`);
            if (tolerance === 0) checkChains(chunks, model.chains, raster.plane(0), `round ${round} step ${step}`);
        }
        // A clear of the layer removes every chunk that had pieces, and a sync with no write rebuilds nothing.
        raster.clear(0);
        const s = chunks.sync();
        assert.deepEqual(s.changed, []);
        assert.deepEqual(
            s.removed,
            [...model.pieces.keys()].sort((a, b) => a - b)
        );
        const before = chunks.rebuilds;
        assert.deepEqual(chunks.sync(), { removed: [], changed: [] });
        assert.equal(chunks.rebuilds, before);
        chunks.dispose();
        raster.stamp(craters[2], 5, 5);
        assert.deepEqual(chunks.sync(), { removed: [], changed: [] }, 'a disposed raster watch hears no write');
    }
});

test('mask layer: draws, erases, sets and writes through words are all seen; untouched chunks never rebuilt', () => {
    const rnd = mulberry32(SEED + 1);
    const craters = [2, 6, 13].map(disc);
    for (let round = 0; round < 4; round++) {
        const W = 120 + Math.floor(rnd() * 200),
            H = 90 + Math.floor(rnd() * 120);
        const tolerance = round % 2 === 0 ? 0 : 1.5;
        const mask = terrain(W, H, rnd);
        const chunks = new TerrainChunks(mask, { size: [48, 64, 33, 128][round], tolerance });
        const model = new Model();
        model.apply(chunks.sync());
        for (let step = 0; step < 30; step++) {
            const hit = new Set<number>();
            const d = craters[Math.floor(rnd() * craters.length)],
                x = Math.floor(rnd() * W) - (d.width >> 1),
                y = Math.floor(rnd() * H) - (d.height >> 1);
            const op = Math.floor(rnd() * 4);
            if (op === 0) mask.draw(d, x, y);
            else if (op === 1) mask.erase(d, x, y);
            else if (op === 2) {
                const px = Math.min(W - 1, Math.max(0, x)),
                    py = Math.min(H - 1, Math.max(0, y));
                mask.set(px, py, !mask.get(px, py));
            } else {
                const px = Math.min(W - 1, Math.max(0, x)),
                    py = Math.min(H - 1, Math.max(0, y));
                mask.words[(px >>> 5) * H + py] ^= 1 << (px & 31);
            }
            // A Mask layer reports the chunks whose pixels changed: within the box written.
            touched(chunks, hit, x, y, d.width, d.height);
            const s = chunks.sync();
            for (const id of [...s.removed, ...s.changed.map(c => c.id)])
                assert.ok(hit.has(id), `round ${round} step ${step}: chunk ${id} rebuilt, no write touched it`);
            model.apply(s);
            if (step % 5 !== 4) continue;
            checkCover(chunks, model, mask, tolerance, `mask round ${round} step ${step}`);
            if (tolerance === 0) checkChains(chunks, model.chains, mask, `mask round ${round} step ${step}`);
        }
        // Drawing what is already there changes no pixel: no chunk comes back.
        const before = chunks.rebuilds;
        mask.draw(mask.clone(), 0, 0);
        assert.deepEqual(chunks.sync(), { removed: [], changed: [] });
        assert.equal(chunks.rebuilds, before);
    }
});

test('chunk ids are row-major and stable, pieces meet along chunk borders, mark() rebuilds what it names', () => {
    const raster = new CollisionRaster(300, 200);
    raster.stamp(new Mask(300, 100, true), 0, 100);
    const chunks = new TerrainChunks(raster.layer(0), { size: 128 });
    assert.deepEqual([chunks.columns, chunks.rows, chunks.count], [3, 2, 6]);
    const first = chunks.sync();
    assert.deepEqual(
        first.changed.map(c => [c.id, c.x, c.y]),
        [
            [0, 0, 0],
            [1, 128, 0],
            [2, 256, 0],
            [3, 0, 128],
            [4, 128, 128],
            [5, 256, 128]
        ]
    );
    // A flat floor across chunks: one rectangle per chunk, sharing the border line.
    assert.deepEqual(first.changed[1].pieces, [[128, 100, 256, 100, 256, 128, 128, 128]]);
    // Its chain is the surface alone: the edges along the chunk's border face solid neighbours, except the last
    // chunk's right edge and the layer's bottom, where the layer ends.
    assert.deepEqual(first.changed[1].chains, [[128, 100, 256, 100]]);
    assert.deepEqual(first.changed[5].chains, [[300, 128, 300, 200, 256, 200]]);
    assert.deepEqual(first.changed[2].chains, [[256, 100, 300, 100, 300, 128]]);
    raster.erase(new Mask(20, 20, true), 200, 150);
    assert.deepEqual(
        chunks.sync().changed.map(c => c.id),
        [4]
    );
    // Erasing sky and stamping onto rock change no pixel: a chunk written only by erases (or only by stamps) whose
    // pixels count the same as before, and the pixels across its border too, is unchanged.
    const rebuilds = chunks.rebuilds;
    raster.erase(new Mask(20, 20, true), 10, 10);
    raster.stamp(new Mask(20, 20, true), 10, 160);
    assert.deepEqual(chunks.sync(), { removed: [], changed: [] });
    assert.equal(chunks.rebuilds, rebuilds);
    chunks.mark(250, 0, 10, 10);
    assert.deepEqual(
        chunks.sync().changed.map(c => c.id),
        [1, 2]
    );
    chunks.mark(250, 120, 10, 10);
    assert.deepEqual(
        chunks.sync().changed.map(c => c.id),
        [1, 2, 4, 5]
    );
    raster.erase(new Mask(300, 28, true), 0, 100);
    const emptied = chunks.sync();
    assert.deepEqual(emptied.removed, [0, 1, 2]);
    // The chunks below read the emptied row across their border: their top edges are surface now.
    assert.deepEqual(
        emptied.changed.map(c => c.id),
        [3, 4, 5]
    );
    assert.deepEqual(emptied.changed[0].chains, [[128, 200, 0, 200, 0, 128, 128, 128]]);
    assert.deepEqual(emptied.changed[2].chains, [[256, 128, 300, 128, 300, 200, 256, 200]]);
    chunks.mark(0, 0, 300, 100);
    assert.deepEqual(chunks.sync(), { removed: [], changed: [] }, 'empty chunks marked have nothing to report');
    // A CollisionRaster itself reads every layer.
    assert.equal(new TerrainChunks(raster).sync().changed.length, 3);
});

test('argument checks', () => {
    const m = new Mask(10, 10);
    assert.throws(() => new TerrainChunks({} as Mask), {
        name: 'TypeError',
        message: /needs a Mask, a CollisionRaster/
    });
    assert.throws(() => new TerrainChunks(m, { size: 0 }), { name: 'RangeError', message: /size must be/ });
    assert.throws(() => new TerrainChunks(m, { size: 257 }), { name: 'RangeError', message: /size must be/ });
    assert.throws(() => new TerrainChunks(m, { tolerance: -1 }), { name: 'RangeError', message: /tolerance must be/ });
    assert.throws(() => new TerrainChunks(m, { maxVertices: 2 }), { name: 'RangeError', message: /maxVertices/ });
    assert.throws(() => new TerrainChunks(m, [] as never), { name: 'TypeError' });
    const chunks = new TerrainChunks(m, { size: 4 });
    chunks.sync();
    assert.throws(() => chunks.mark(NaN, 0, 1, 1), { name: 'RangeError', message: /x must be/ });
    assert.throws(() => chunks.mark(0, 0, -1, 1), { name: 'RangeError', message: /width must be/ });
    assert.throws(() => chunks.mark(0, 0, 1, Infinity), { name: 'RangeError', message: /height must be/ });
    assert.deepEqual(chunks.sync(), { removed: [], changed: [] }, 'a refused mark marks nothing');
});

test(
    'real terrain (Hedgewars maps): craters keep every chunk exact and rebuild only the chunks they touch',
    { skip: skipReal },
    () => {
        const maps = ['Cave', 'Islands'].filter(n => existsSync(join(DATA, 'Maps', n, 'map.png')));
        assert.ok(maps.length > 0 || readdirSync(join(DATA, 'Maps')).length === 0, 'maps found');
        const rnd = mulberry32(SEED + 2);
        for (const [k, name] of maps.entries()) {
            const img = decodeImage(readFileSync(join(DATA, 'Maps', name, 'map.png')));
            const map = Mask.fromRGBA(img.data, img.width, img.height);
            const raster = new CollisionRaster(map.width, map.height);
            raster.stamp(map, 0, 0);
            const tolerance = k === 0 ? 0 : 1;
            const chunks = new TerrainChunks(raster.layer(0), { tolerance });
            const model = new Model();
            model.apply(chunks.sync());
            checkCover(chunks, model, raster.plane(0), tolerance, `${name} first sync`);
            const craters = [8, 16, 30, 48].map(disc);
            let rebuilt = 0,
                hits = 0;
            for (let i = 0; i < 60; i++) {
                const d = craters[Math.floor(rnd() * craters.length)];
                const x = Math.floor(rnd() * map.width) - (d.width >> 1),
                    y = Math.floor(rnd() * map.height) - (d.height >> 1);
                raster.erase(d, x, y);
                const hit = new Set<number>();
                touched(chunks, hit, x, y, d.width, d.height);
                const s = chunks.sync();
                for (const id of [...s.removed, ...s.changed.map(c => c.id)])
                    assert.ok(hit.has(id), `${name}: chunk ${id}`);
                rebuilt += s.changed.length + s.removed.length;
                hits += hit.size;
                model.apply(s);
            }
            assert.ok(rebuilt <= hits, `${rebuilt} chunks rebuilt for ${hits} touched`);
            checkCover(chunks, model, raster.plane(0), tolerance, `${name} after 60 craters`);
            if (tolerance === 0) checkChains(chunks, model.chains, raster.plane(0), `${name} after 60 craters`);
        }
    }
);
