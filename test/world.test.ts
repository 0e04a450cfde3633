// @test fast no-shared
// World against a brute-force oracle: all pairs, naive per-pixel tests, on seeded random worlds with churn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Mask } from '../src/index.js';
import { TileMap } from '../src/index.js';
import { World, type Body, type Pair } from '../src/index.js';
import { createThreadPool } from '../src/node.js';
import type { ThreadPool } from '../src/threads.js';
import { kernelStats } from '../src/index.js';
import { mulberry32, testKernels } from './reference.js';

function randomMask(rnd: () => number, w: number, h: number, density: number): Mask {
    const m = new Mask(w, h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (rnd() < density) m.set(x, y);
    return m;
}

// Naive pixel test of two placed masks.
function naiveOverlap(a: Mask, ax: number, ay: number, b: Mask, bx: number, by: number): boolean {
    const x0 = Math.max(ax, bx),
        y0 = Math.max(ay, by);
    const x1 = Math.min(ax + a.width, bx + b.width),
        y1 = Math.min(ay + a.height, by + b.height);
    for (let y = y0; y < y1; y++)
        for (let x = x0; x < x1; x++) if (a.get(x - ax, y - ay) && b.get(x - bx, y - by)) return true;
    return false;
}

function naiveLayer(m: Mask, mx: number, my: number, layer: TileMap): boolean {
    for (let y = 0; y < m.height; y++)
        for (let x = 0; x < m.width; x++) if (m.get(x, y) && layer.hitTest(mx + x, my + y)) return true;
    return false;
}

interface Model {
    body: Body<number>;
    cat: number;
    colw: number;
    grp: number;
}

function accepts(p: Model, q: Model): boolean {
    return (p.cat & q.colw) !== 0 && (q.cat & p.colw) !== 0 && !(p.grp !== 0 && p.grp === q.grp);
}

// Oracle pair list in the documented order: by a.id, bodies before layers, then b.id.
function oraclePairs(
    world: World<number>,
    models: Model[],
    layer: Body<number> | null,
    layerModel: Model | null
): string[] {
    const live = models.filter(m => !m.body.removed).sort((p, q) => p.body.id - q.body.id);
    const out: string[] = [];
    for (let i = 0; i < live.length; i++) {
        const p = live[i],
            pm = world.placedMask(p.body);
        for (let j = i + 1; j < live.length; j++) {
            const q = live[j];
            if (!accepts(p, q)) continue;
            const qm = world.placedMask(q.body);
            if (naiveOverlap(pm.mask, pm.x, pm.y, qm.mask, qm.x, qm.y)) out.push(`${p.body.id}-${q.body.id}`);
        }
        if (layer && layerModel && accepts(p, layerModel) && naiveLayer(pm.mask, pm.x, pm.y, layer.layer as TileMap))
            out.push(`${p.body.id}-L${layer.id}`);
    }
    return out;
}

const name = (b: Body<number>): string => (b.layer ? `L${b.id}` : `${b.id}`);

function runScenario(
    seed: number,
    sparse: boolean,
    cellSize: number | undefined,
    steps: number,
    threads: ThreadPool | null = null
): void {
    const rnd = mulberry32(seed);
    const world = new World<number>(cellSize ? { cellSize, threads } : { threads });
    const spread = sparse ? 2 ** 40 : 400;
    const masks = [
        randomMask(rnd, 7, 5, 0.6),
        randomMask(rnd, 12, 12, 0.5),
        randomMask(rnd, 3, 9, 0.8),
        new Mask(10, 10, true),
        new Mask(0, 4),
        new Mask(5, 0),
        randomMask(rnd, 33, 6, 0.4),
        randomMask(rnd, 300, 40, 0.02) // a large body (many cells wide) among small ones
    ];
    const tile = randomMask(rnd, 16, 16, 0.3);
    const tiles = new TileMap(
        16,
        16,
        8,
        4,
        [tile, new Mask(16, 16, true)],
        Array.from({ length: 32 }, () => Math.max(-1, Math.floor(rnd() * 4) - 2))
    );
    const layer = rnd() < 0.7 ? world.addLayer(tiles, { category: 2, collidesWith: 0xffffffff }) : null;
    const layerModel: Model | null = layer ? { body: layer, cat: 2, colw: 0xffffffff, grp: 0 } : null;
    const models: Model[] = [];
    const pos = (): number =>
        (sparse && rnd() < 0.5 ? (rnd() - 0.5) * spread : (rnd() - 0.3) * 400) + (rnd() < 0.3 ? 0.5 : 0);
    const randCat = (): number => [1, 1, 1, 2, 3, 0, 0x80000000][Math.floor(rnd() * 7)];
    const randColw = (): number => [0xffffffff, 0xffffffff, 1, 2, 0x80000001, 0][Math.floor(rnd() * 6)];
    const addOne = (): void => {
        const cat = randCat(),
            colw = randColw(),
            grp = rnd() < 0.2 ? 1 + Math.floor(rnd() * 2) : 0;
        const mask = masks[Math.floor(rnd() * (rnd() < 0.1 ? masks.length : masks.length - 1))];
        const body = world.add({ x: pos(), y: pos(), mask, category: cat, collidesWith: colw, group: grp, data: 0 });
        models.push({ body, cat, colw, grp });
    };
    for (let k = 0; k < 60; k++) addOne();

    const events: string[] = [];
    const pairOut: Pair<number>[] = [];
    world.on('begin', (a, b) => events.push(`begin ${name(a)}-${name(b)}`));
    world.on('stay', (a, b) => events.push(`stay ${name(a)}-${name(b)}`));
    world.on('end', (a, b) => events.push(`end ${name(a)}-${name(b)}`));
    let prev: string[] = [];
    for (let step = 0; step < steps; step++) {
        // Churn: moves (small and teleporting), mask changes, filter changes, transforms, removals, adds.
        for (const m of models) {
            if (m.body.removed) continue;
            const r = rnd();
            if (r < 0.5) world.move(m.body, m.body.x + (rnd() - 0.5) * 12, m.body.y + (rnd() - 0.5) * 12);
            else if (r < 0.55) world.move(m.body, pos(), pos());
            else if (r < 0.6) world.setMask(m.body, masks[Math.floor(rnd() * masks.length)]);
            else if (r < 0.63) {
                m.cat = randCat();
                m.colw = randColw();
                m.grp = rnd() < 0.3 ? 1 : 0;
                world.setFilter(m.body, { category: m.cat, collidesWith: m.colw, group: m.grp });
            } else if (r < 0.66)
                world.setTransform(m.body, { angle: rnd() * 7, flipX: rnd() < 0.5, scaleX: rnd() < 0.5 ? 1 : 1.5 });
            else if (r < 0.69) world.remove(m.body);
        }
        const adds = Math.floor(rnd() * 5);
        for (let k = 0; k < adds; k++) addOne();

        const expected = oraclePairs(world, models, layer, layerModel);
        const useStep = rnd() < 0.8;
        events.length = 0;
        const n = useStep ? world.step() : world.collisions().length;
        const got = world.collisions(pairOut).map(p => `${name(p.a)}-${name(p.b)}`);
        assert.equal(got.length, n);
        assert.deepEqual(got, expected, `seed ${seed} step ${step}: pairs`);
        if (!useStep) {
            assert.deepEqual(events, []);
            continue;
        }

        // Expected events: merge of previous and current pair lists in pair order; removed bodies are silent.
        const key = (p: string): [number, number, number] => {
            const [a, b] = p.split('-');
            return [Number(a), b.startsWith('L') ? 1 : 0, Number(b.replace('L', ''))];
        };
        const cmp = (p: string, q: string): number => {
            const x = key(p),
                y = key(q);
            return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
        };
        const removed = new Set(models.filter(m => m.body.removed).map(m => m.body.id));
        const all = [...new Set([...prev, ...expected])].sort(cmp);
        const exp: string[] = [];
        for (const p of all) {
            const [a, , b] = key(p);
            const inPrev = prev.includes(p),
                inCur = expected.includes(p);
            if (!inCur && (removed.has(a) || removed.has(b))) continue;
            const kind = inPrev && inCur ? 'stay' : inCur ? 'begin' : 'end';
            exp.push(`${kind} ${p}`);
            void b;
        }
        assert.deepEqual(events, exp, `seed ${seed} step ${step}: events`);
        prev = expected;
    }
}

// Both kernel paths: the WebAssembly one tests all candidate pairs in one batched call.
testKernels('pairs and events match a brute-force oracle on dense random worlds with churn', () => {
    fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.constantFrom(undefined, 8, 16, 64), (seed, cell) => {
            runScenario(seed, false, cell, 12);
        }),
        { seed: 42, numRuns: 60 }
    );
});

test(
    'pairs and events match the oracle with a ThreadPool splitting every batch',
    { skip: !kernelStats().wasmAvailable || typeof SharedArrayBuffer !== 'function' },
    () => {
        const pool = createThreadPool(2, { minWords: 0 });
        try {
            fc.assert(
                fc.property(
                    fc.integer({ min: 1, max: 2 ** 31 - 1 }),
                    fc.constantFrom(undefined, 8, 64),
                    (seed, cell) => {
                        runScenario(seed, false, cell, 10, pool);
                    }
                ),
                { seed: 4242, numRuns: 30 }
            );
        } finally {
            pool.close();
        }
    }
);

test('pairs and events match the oracle on sparse worlds with huge coordinates (hashed grid)', () => {
    fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.constantFrom(undefined, 8, 32), (seed, cell) => {
            runScenario(seed, true, cell, 8);
        }),
        { seed: 7, numRuns: 30 }
    );
});

test('queries match a naive scan over every body, before and after moves', () => {
    const rnd = mulberry32(99);
    const world = new World<number>();
    const masks = [
        randomMask(rnd, 9, 7, 0.5),
        randomMask(rnd, 20, 3, 0.7),
        new Mask(4, 4, true),
        randomMask(rnd, 200, 30, 0.05)
    ];
    const bodies: Body<number>[] = [];
    for (let i = 0; i < 200; i++) {
        bodies.push(
            world.add({ x: rnd() * 300 - 50, y: rnd() * 300 - 50, mask: masks[i % 4], category: 1 << (i % 3), data: i })
        );
    }
    const out: Body<number>[] = [];
    for (let round = 0; round < 40; round++) {
        // Moves between queries exercise both the stale-grid path and the rebuild path.
        const moves = round % 5 === 0 ? 150 : 3;
        for (let k = 0; k < moves; k++) {
            const b = bodies[Math.floor(rnd() * bodies.length)];
            if (!b.removed) world.move(b, rnd() * 300 - 50, rnd() * 300 - 50);
        }
        if (round % 7 === 3) world.remove(bodies[round]);
        const live = bodies.filter(b => !b.removed);
        const filter = round % 2 === 0 ? 0xffffffff : 2;
        const px = Math.floor(rnd() * 300 - 50),
            py = Math.floor(rnd() * 300 - 50);
        const sel = (b: Body<number>): boolean => (world.getFilter(b).category & filter) !== 0;
        const pointExp = live
            .filter(b => {
                const p = world.placedMask(b);
                return sel(b) && p.mask.get(px - p.x, py - p.y);
            })
            .map(b => b.id);
        assert.deepEqual(
            world.queryPoint(px, py, { filter }).map(b => b.id),
            pointExp,
            `point round ${round}`
        );
        const w = 1 + Math.floor(rnd() * 60),
            h = 1 + Math.floor(rnd() * 60);
        const rect = new Mask(w, h, true);
        const rectExp = live
            .filter(b => {
                const p = world.placedMask(b);
                return sel(b) && naiveOverlap(rect, px, py, p.mask, p.x, p.y);
            })
            .map(b => b.id);
        assert.equal(world.queryRect(px, py, w, h, { filter }, out), out);
        assert.deepEqual(
            out.map(b => b.id),
            rectExp,
            `rect round ${round}`
        );
        const qm = masks[round % 3];
        const maskExp = live
            .filter(b => {
                const p = world.placedMask(b);
                return sel(b) && naiveOverlap(qm, px, py, p.mask, p.x, p.y);
            })
            .map(b => b.id);
        assert.deepEqual(
            world.queryMask(qm, px + 0.7, py + 0.2, { filter }).map(b => b.id),
            maskExp,
            `mask round ${round}`
        );
    }
});
