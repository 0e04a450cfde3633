// @test fast no-shared
// CollisionRaster against a naive byte-per-pixel raster on seeded random scenes: stamps partly outside
// the edges, erases, clears, single pixels, layers and ids; plus CollisionLayer conformance and every error path.
// Scene tests run on both kernel paths (testKernels; every call sent to WebAssembly on the wasm path).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CollisionRaster, Mask, RasterView, World, type CollisionLayer } from '../src/index.js';
import { mulberry32, testKernels } from './reference.js';
import { captureWarnings, warnsOnce } from './deprecations.js';

const SEED = 20261124;

// A sprite as bytes (the oracle's view) and as a Mask.
interface Sprite {
    w: number;
    h: number;
    px: Uint8Array;
    mask: Mask;
}

function sprite(w: number, h: number, density: number, seed: number): Sprite {
    const rnd = mulberry32(seed),
        px = new Uint8Array(w * h),
        mask = new Mask(w, h);
    for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++)
            if (rnd() < density) {
                px[y * w + x] = 1;
                mask.set(x, y);
            }
    return { w, h, px, mask };
}

/**
 * The oracle: one byte per pixel per layer, and per pixel the ids stamped on it since it was last
 * empty, newest first. Same rules as the raster, written as plainly as possible.
 */
class NaiveRaster {
    readonly bits: Uint8Array[] = [];
    readonly ids: number[][][] = [];
    constructor(
        readonly w: number,
        readonly h: number,
        readonly layers: number
    ) {
        for (let l = 0; l < layers; l++) {
            this.bits.push(new Uint8Array(w * h));
            this.ids.push(Array.from({ length: w * h }, () => []));
        }
    }
    private inside(x: number, y: number): boolean {
        return x >= 0 && y >= 0 && x < this.w && y < this.h;
    }
    stampPixel(x: number, y: number, { id = -1, layer = 0 }: { id?: number; layer?: number }): void {
        x = Math.floor(x);
        y = Math.floor(y);
        if (!this.inside(x, y)) return;
        const p = y * this.w + x;
        if (!this.bits[layer][p]) this.ids[layer][p] = [];
        this.bits[layer][p] = 1;
        if (id >= 0) this.ids[layer][p].unshift(id);
    }
    erasePixel(x: number, y: number, layer: number): void {
        x = Math.floor(x);
        y = Math.floor(y);
        if (this.inside(x, y)) this.bits[layer][y * this.w + x] = 0;
    }
    stamp(s: Sprite, x: number, y: number, { id = -1, layer = 0 }: { id?: number; layer?: number }): void {
        x = Math.floor(x);
        y = Math.floor(y);
        for (let j = 0; j < s.h; j++)
            for (let i = 0; i < s.w; i++)
                if (s.px[j * s.w + i]) this.stampPixel(x + i, y + j, { id: id, layer: layer });
    }
    erase(s: Sprite, x: number, y: number, layer: number): void {
        x = Math.floor(x);
        y = Math.floor(y);
        for (let j = 0; j < s.h; j++)
            for (let i = 0; i < s.w; i++) if (s.px[j * s.w + i]) this.erasePixel(x + i, y + j, layer);
    }
    clear(layer?: number): void {
        for (let l = 0; l < this.layers; l++) if (layer === undefined || layer === l) this.bits[l].fill(0);
    }
    at(x: number, y: number, layers: number): boolean {
        if (!this.inside(x, y)) return false;
        for (let l = 0; l < this.layers; l++) if ((layers >>> l) & 1 && this.bits[l][y * this.w + x]) return true;
        return false;
    }
    // Set pixels of the sprite at (x, y) that lie on the layers, row-major, in raster coordinates.
    under(s: Sprite, x: number, y: number, layers: number): [number, number][] {
        x = Math.floor(x);
        y = Math.floor(y);
        const out: [number, number][] = [];
        for (let j = 0; j < s.h; j++)
            for (let i = 0; i < s.w; i++) {
                if (s.px[j * s.w + i] && this.at(x + i, y + j, layers)) out.push([x + i, y + j]);
            }
        return out;
    }
    hits(s: Sprite, x: number, y: number, layers: number): number[] {
        const out: number[] = [];
        for (const [px, py] of this.under(s, x, y, layers)) {
            for (let l = 0; l < this.layers; l++) {
                if (!((layers >>> l) & 1) || !this.bits[l][py * this.w + px]) continue;
                for (const id of this.ids[l][py * this.w + px]) if (!out.includes(id)) out.push(id);
            }
        }
        return out;
    }
}

// Compares every query of the raster (and its CollisionLayer views) with the oracle.
function checkQueries(r: CollisionRaster, o: NaiveRaster, s: Sprite, x: number, y: number, layers: number): void {
    const under = o.under(s, x, y, layers);
    const first = under.length ? { x: under[0][0], y: under[0][1] } : null;
    assert.equal(r.overlaps(s.mask, x, y, { layers }), under.length > 0);
    assert.equal(r.overlapArea(s.mask, x, y, { layers }), under.length);
    assert.deepEqual(r.overlap(s.mask, x, y, { layers }), first);
    assert.deepEqual(r.queryMask(s.mask, x, y, { layers }), o.hits(s, x, y, layers));
    const view: CollisionLayer = r.view(layers);
    assert.equal(view.overlaps(s.mask, x, y), under.length > 0);
    assert.equal(view.overlapArea(s.mask, x, y), under.length);
    assert.deepEqual(view.overlap(s.mask, x, y), first);
}

function checkPlanes(r: CollisionRaster, o: NaiveRaster): void {
    for (let l = 0; l < o.layers; l++) {
        const m = r.plane(l);
        for (let y = 0; y < o.h; y++)
            for (let x = 0; x < o.w; x++) {
                if (m.get(x, y) !== (o.bits[l][y * o.w + x] === 1))
                    assert.fail(`layer ${l} pixel (${x}, ${y}) differs from the oracle`);
            }
        // padding bits past the width stay zero
        const edge = o.w & 31;
        if (edge !== 0) {
            for (let i = (m.strips - 1) * m.height; i < m.words.length; i++)
                assert.equal(m.words[i] >>> edge, 0, 'padding bits set');
        }
    }
}

// Positions: near every edge, far away (no wrap-around), fractional.
const arbCoord = (size: number, spriteSize: number) =>
    fc.oneof(
        { weight: 8, arbitrary: fc.integer({ min: -spriteSize - 2, max: size + 2 }) },
        { weight: 1, arbitrary: fc.double({ min: -spriteSize - 2, max: size + 2, noNaN: true }) },
        { weight: 1, arbitrary: fc.constantFrom(2 ** 31, -(2 ** 31), 2 ** 32 + 3, -(2 ** 32) - 1, 1e15, -1e300) }
    );
const arbSprite = fc
    .record({
        w: fc.oneof(fc.constantFrom(0, 1, 9, 31, 32, 33, 64), fc.integer({ min: 0, max: 70 })),
        h: fc.integer({ min: 0, max: 12 }),
        density: fc.constantFrom(0.05, 0.3, 0.7, 1),
        seed: fc.integer()
    })
    .map(({ w, h, density, seed }) => sprite(w, h, density, seed));

type Op =
    | { kind: 'stamp' | 'erase'; s: Sprite; x: number; y: number; id: number; layer: number }
    | { kind: 'pixel' | 'unpixel'; x: number; y: number; id: number; layer: number }
    | { kind: 'points'; xs: number[]; ys: number[]; ids: number[] | undefined; layer: number }
    | { kind: 'many'; s: Sprite; xs: number[]; ys: number[]; ids: number[] | undefined; layer: number }
    | { kind: 'clear'; layer: number | undefined }
    | { kind: 'query'; s: Sprite; x: number; y: number; layers: number };

const arbScene = fc
    .record({
        w: fc.oneof(fc.constantFrom(1, 31, 32, 33, 64, 65), fc.integer({ min: 0, max: 100 })),
        h: fc.integer({ min: 0, max: 30 }),
        layers: fc.integer({ min: 1, max: 4 })
    })
    .chain(({ w, h, layers }) => {
        const layer = fc.integer({ min: 0, max: layers - 1 });
        const id = fc.oneof(
            fc.constant(-1),
            fc.integer({ min: 0, max: 6 }),
            fc.integer({ min: 0, max: 6 }),
            fc.constant(2 ** 31 - 1)
        );
        const placed = arbSprite.chain(s => fc.record({ s: fc.constant(s), x: arbCoord(w, s.w), y: arbCoord(h, s.h) }));
        const op: fc.Arbitrary<Op> = fc.oneof(
            {
                weight: 8,
                arbitrary: fc
                    .record({ kind: fc.constantFrom('stamp' as const), p: placed, id, layer })
                    .map(({ kind, p, id, layer }) => ({ kind, ...p, id, layer }))
            },
            {
                weight: 2,
                arbitrary: fc
                    .record({ kind: fc.constantFrom('erase' as const), p: placed, id, layer })
                    .map(({ kind, p, id, layer }) => ({ kind, ...p, id, layer }))
            },
            {
                weight: 2,
                arbitrary: fc.record({
                    kind: fc.constantFrom('pixel' as const, 'unpixel' as const),
                    x: arbCoord(w, 1),
                    y: arbCoord(h, 1),
                    id,
                    layer
                })
            },
            {
                weight: 2,
                arbitrary: fc.integer({ min: 0, max: 20 }).chain(n =>
                    fc.record({
                        kind: fc.constant('points' as const),
                        xs: fc.array(arbCoord(w, 1), { minLength: n, maxLength: n }),
                        ys: fc.array(arbCoord(h, 1), { minLength: n, maxLength: n }),
                        ids: fc.option(fc.array(id, { minLength: n, maxLength: n }), { nil: undefined }),
                        layer
                    })
                )
            },
            {
                weight: 2,
                arbitrary: fc.tuple(arbSprite, fc.integer({ min: 0, max: 6 })).chain(([s, n]) =>
                    fc.record({
                        kind: fc.constant('many' as const),
                        s: fc.constant(s),
                        xs: fc.array(arbCoord(w, s.w), { minLength: n, maxLength: n }),
                        ys: fc.array(arbCoord(h, s.h), { minLength: n, maxLength: n }),
                        ids: fc.option(fc.array(id, { minLength: n, maxLength: n }), { nil: undefined }),
                        layer
                    })
                )
            },
            {
                weight: 1,
                arbitrary: fc.record({
                    kind: fc.constant('clear' as const),
                    layer: fc.option(layer, { nil: undefined })
                })
            },
            {
                weight: 5,
                arbitrary: fc
                    .record({
                        kind: fc.constant('query' as const),
                        p: placed,
                        layers: fc.integer({ min: 1, max: 2 ** layers - 1 })
                    })
                    .map(({ kind, p, layers }) => ({ kind, ...p, layers }))
            }
        );
        return fc.record({
            w: fc.constant(w),
            h: fc.constant(h),
            layers: fc.constant(layers),
            ops: fc.array(op, { minLength: 4, maxLength: 20 })
        });
    });

testKernels('random scenes: stamps, erases, pixels, points, clears and every query match the naive raster', () => {
    fc.assert(
        fc.property(arbScene, ({ w, h, layers, ops }) => {
            const r = new CollisionRaster(w, h, { layers }),
                o = new NaiveRaster(w, h, layers);
            for (const op of ops) {
                switch (op.kind) {
                    case 'stamp':
                        r.stamp(op.s.mask, op.x, op.y, { id: op.id, layer: op.layer });
                        o.stamp(op.s, op.x, op.y, { id: op.id, layer: op.layer });
                        break;
                    case 'erase':
                        r.erase(op.s.mask, op.x, op.y, { layer: op.layer });
                        o.erase(op.s, op.x, op.y, op.layer);
                        break;
                    case 'pixel':
                        r.stampPixel(op.x, op.y, { id: op.id, layer: op.layer });
                        o.stampPixel(op.x, op.y, { id: op.id, layer: op.layer });
                        break;
                    case 'unpixel':
                        r.erasePixel(op.x, op.y, { layer: op.layer });
                        o.erasePixel(op.x, op.y, op.layer);
                        break;
                    case 'points':
                        r.stampPoints(Float64Array.from(op.xs), op.ys, {
                            ids: op.ids && Int32Array.from(op.ids),
                            layer: op.layer
                        });
                        for (let i = 0; i < op.xs.length; i++)
                            o.stampPixel(op.xs[i], op.ys[i], { id: op.ids ? op.ids[i] : -1, layer: op.layer });
                        break;
                    case 'many':
                        r.stampMany(op.s.mask, op.xs, Float64Array.from(op.ys), { ids: op.ids, layer: op.layer });
                        for (let i = 0; i < op.xs.length; i++)
                            o.stamp(op.s, op.xs[i], op.ys[i], { id: op.ids ? op.ids[i] : -1, layer: op.layer });
                        break;
                    case 'clear':
                        r.clear(op.layer);
                        o.clear(op.layer);
                        break;
                    case 'query':
                        checkQueries(r, o, op.s, op.x, op.y, op.layers);
                        break;
                }
            }
            checkPlanes(r, o);
            // every pixel through testPixel, on every single layer and on all of them
            for (let y = -1; y <= h; y++)
                for (let x = -1; x <= w; x++) {
                    assert.equal(r.hitTest(x, y), o.at(x, y, r.allLayers));
                    for (let l = 0; l < layers; l++)
                        assert.equal(r.layer(l).hitTest(x + 0.5, y + 0.25), o.at(x, y, 1 << l));
                }
            // every pixel's id list, on every layer: order (newest first), dedupe, and lists restarted on empty pixels
            const dot = sprite(1, 1, 1, 0);
            for (let y = 0; y < h; y++)
                for (let x = 0; x < w; x++)
                    for (let l = 0; l < layers; l++) {
                        const hits = r.queryMask(dot.mask, x, y, { layers: 1 << l }),
                            expected = o.hits(dot, x, y, 1 << l);
                        if (hits.join() !== expected.join())
                            assert.deepEqual(hits, expected, `ids of pixel (${x}, ${y}) on layer ${l}`);
                    }
            // a full-raster query sees every id still under a set pixel
            const all = sprite(w, h, 1, 0);
            checkQueries(r, o, all, 0, 0, r.allLayers);
        }),
        { seed: SEED, numRuns: 400 }
    );
});

testKernels('overlapping stamps keep every id; erase removes ids pixel by pixel; clear forgets them', () => {
    const r = new CollisionRaster(64, 16);
    const box = Mask.fromText('####\n####\n####\n####'),
        dot = Mask.fromText('#');
    r.stamp(box, 0, 0, { id: 7 });
    r.stamp(box, 2, 2, { id: 8 }); // overlaps the 2x2 corner of 7
    r.stamp(box, 40, 0); // anonymous
    assert.deepEqual(r.queryMask(dot, 3, 3), [8, 7], 'both ids on the shared pixel, newest first');
    assert.deepEqual(r.queryMask(dot, 0, 0), [7]);
    assert.deepEqual(r.queryMask(dot, 5, 5), [8]);
    assert.deepEqual(r.queryMask(dot, 41, 1), [], 'anonymous stamps are solid but carry no id');
    assert.equal(r.overlaps(dot, 41, 1), true);
    // erase a crater: the erased pixels lose both ids, the rest keeps them
    r.erase(Mask.fromText('##\n##'), 2, 2);
    assert.deepEqual(r.queryMask(dot, 3, 3), []);
    assert.equal(r.overlaps(dot, 3, 3), false);
    assert.deepEqual(r.queryMask(new Mask(8, 8, true), 0, 0), [7, 8]);
    // re-stamping an emptied pixel starts a fresh list: old ids do not come back
    r.stampPixel(3, 3, { id: 9 });
    assert.deepEqual(r.queryMask(dot, 3, 3), [9]);
    r.stampPixel(3, 3); // anonymous over a set pixel keeps its ids
    assert.deepEqual(r.queryMask(dot, 3, 3), [9]);
    r.clear();
    assert.deepEqual(r.queryMask(box, 0, 0), []);
    r.stampPixel(3, 3);
    assert.deepEqual(r.queryMask(dot, 3, 3), [], 'an anonymous stamp after clear does not revive old ids');
    assert.equal(r.overlaps(dot, 3, 3), true);
});

test('hitsInto fills arrays and typed arrays without allocating results, deduping many ids', () => {
    const r = new CollisionRaster(300, 20);
    for (let i = 0; i < 250; i++) r.stampPixel(i, i % 20, { id: 1000 + i });
    for (let i = 0; i < 250; i++) r.stampPixel(i, i % 20, { id: 1000 + i }); // the same ids twice
    const big = new Mask(300, 20, true);
    const arr: number[] = [1, 2, 3];
    assert.equal(r.queryMask(big, 0, 0, undefined, arr), arr, 'out is refilled and returned');
    assert.equal(arr.length, 250);
    assert.deepEqual(
        [...arr].sort((a, b) => a - b),
        Array.from({ length: 250 }, (_, i) => 1000 + i)
    );
    assert.deepEqual(r.queryMask(big, 0, 0), arr, 'the same ids in the same order without out');
    assert.throws(() => r.queryMask(big, 0, 0, undefined, new Int32Array(10) as unknown as number[]), {
        name: 'TypeError',
        message: /out must be an array, got Int32Array\(10\)/
    });
    // the dedupe set is emptied between queries
    assert.deepEqual(r.queryMask(Mask.fromText('#'), 5, 5), [1005]);
    assert.equal(r.queryMask(big, 1e9, 0, undefined, arr).length, 0);
    assert.equal(arr.length, 0);
});

testKernels('layers are independent and tested in any combination', () => {
    const ENEMIES = 0,
        BULLETS = 1,
        TERRAIN = 2;
    const r = new CollisionRaster(100, 50, { layers: 3 });
    const dot = Mask.fromText('#');
    r.stampPixel(10, 10, { id: 1, layer: ENEMIES });
    r.stampPixel(20, 10, { id: 2, layer: BULLETS });
    r.stampPixel(30, 10, { layer: TERRAIN });
    const player = new Mask(40, 1, true);
    assert.equal(r.overlapArea(player, 0, 10), 3);
    assert.equal(r.overlapArea(player, 0, 10, { layers: (1 << BULLETS) | (1 << TERRAIN) }), 2);
    assert.deepEqual(r.overlap(player, 0, 10, { layers: (1 << BULLETS) | (1 << TERRAIN) }), { x: 20, y: 10 });
    assert.deepEqual(r.queryMask(player, 0, 10), [1, 2]);
    assert.deepEqual(r.queryMask(player, 0, 10, { layers: 1 << BULLETS }), [2]);
    assert.equal(r.overlaps(dot, 10, 10, { layers: 1 << TERRAIN }), false);
    r.clear(BULLETS);
    assert.equal(r.overlapArea(player, 0, 10), 2);
    assert.equal(r.hitTest(10, 10, { layers: 1 << ENEMIES }), true);
    // the same pixel on two layers counts once in overlapArea
    r.stampPixel(10, 10, { layer: TERRAIN });
    assert.equal(r.overlapArea(player, 0, 10, { layers: r.allLayers }), 2);
    const r32 = new CollisionRaster(40, 4, { layers: 32 });
    r32.stampPixel(33, 2, { id: 5, layer: 31 });
    assert.equal(r32.allLayers, 0xffffffff);
    assert.equal(r32.overlaps(dot, 33, 2, { layers: 1 << 31 }), true);
    assert.equal(r32.overlaps(dot, 33, 2, { layers: -1 }), true, 'a negative int32 is the same bit set');
    assert.deepEqual(r32.queryMask(dot, 33, 2, { layers: 0x80000000 }), [5]);
});

test('0.3 names and positional layer sets: each warns once, then answers as the 0.4 call', () => {
    const r = new CollisionRaster(64, 48, { layers: 3 });
    const rnd = mulberry32(SEED + 36);
    for (let i = 0; i < 40; i++)
        r.stamp(
            sprite(1 + Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 12), 0.5, i).mask,
            rnd() * 70 - 6,
            rnd() * 50 - 6,
            {
                id: i % 5 === 0 ? -1 : i,
                layer: i % 3
            }
        );
    const view = r.view(0b101);
    for (let i = 0; i < 100; i++) {
        const s = sprite(1 + Math.floor(rnd() * 10), 1 + Math.floor(rnd() * 10), 0.6, 1000 + i),
            m = s.mask,
            x = Math.floor(rnd() * 70) - 6,
            y = Math.floor(rnd() * 50) - 6,
            layers = 1 + Math.floor(rnd() * 7),
            on = { layers };
        const C = 'CollisionRaster';
        assert.equal(
            warnsOnce(`${C}.test`, `${C}.overlaps(mask, x, y, { layers })`, () => r.test(m, x, y, layers)),
            r.overlaps(m, x, y, on)
        );
        assert.equal(
            warnsOnce(`${C}.test`, `${C}.overlaps(mask, x, y, { layers })`, () => r.test(m, x, y)),
            r.overlaps(m, x, y)
        );
        assert.deepEqual(
            warnsOnce(`${C}.hitPoint`, `${C}.overlap(mask, x, y, { layers }, out)`, () => r.hitPoint(m, x, y, layers)),
            r.overlap(m, x, y, on)
        );
        const out = { x: -1, y: -1 },
            got = warnsOnce(`${C}.hitPoint`, `${C}.overlap(mask, x, y, { layers }, out)`, () =>
                r.hitPoint(m, x, y, undefined, out)
            );
        assert.deepEqual(got, r.overlap(m, x, y));
        if (got !== null) assert.equal(got, out, 'out is written and returned');
        assert.equal(
            warnsOnce(`${C}.testPixel`, `${C}.hitTest(x, y, { layers })`, () => r.testPixel(x + 0.5, y, layers)),
            r.hitTest(x + 0.5, y, on)
        );
        const ids: number[] = [];
        assert.equal(
            warnsOnce(`${C}.hits`, `${C}.queryMask(mask, x, y, { layers }, out)`, () => r.hits(m, x, y, layers, ids)),
            ids
        );
        assert.deepEqual(ids, r.queryMask(m, x, y, on));
        // A number where the options object goes: 0.3's positional layer set, warned once per method.
        const pos = (method: string) => [`${C}.${method}(…, layers)`, `${C}.${method}(…, { layers })`] as const;
        const n = layers as never;
        assert.equal(
            warnsOnce(...pos('overlaps'), () => r.overlaps(m, x, y, n)),
            r.overlaps(m, x, y, on)
        );
        assert.deepEqual(
            warnsOnce(...pos('overlap'), () => r.overlap(m, x, y, n)),
            r.overlap(m, x, y, on)
        );
        assert.equal(
            warnsOnce(...pos('overlapArea'), () => r.overlapArea(m, x, y, n)),
            r.overlapArea(m, x, y, on)
        );
        assert.equal(
            warnsOnce(...pos('hitTest'), () => r.hitTest(x, y, n)),
            r.hitTest(x, y, on)
        );
        assert.deepEqual(
            warnsOnce(...pos('queryMask'), () => r.queryMask(m, x, y, n)),
            r.queryMask(m, x, y, on)
        );
        assert.deepEqual(
            warnsOnce(...pos('raycast'), () => r.raycast(x, y, 60 - x, 40 - y, n)),
            r.raycast(x, y, 60 - x, 40 - y, on)
        );
        // The view's 0.3 names.
        assert.equal(
            warnsOnce('RasterView.test', 'RasterView.overlaps', () => view.test(m, x, y)),
            view.overlaps(m, x, y)
        );
        assert.deepEqual(
            warnsOnce('RasterView.hitPoint', 'RasterView.overlap', () => view.hitPoint(m, x, y)),
            view.overlap(m, x, y)
        );
        assert.equal(
            warnsOnce('RasterView.testPixel', 'RasterView.hitTest', () => view.testPixel(x, y)),
            view.hitTest(x, y)
        );
        assert.deepEqual(
            warnsOnce('RasterView.hits', 'RasterView.queryMask', () => view.hits(m, x, y)),
            view.queryMask(m, x, y)
        );
    }
    // The old calls check their arguments as the new ones do; a bad options object is a TypeError.
    const m = new Mask(2, 2, true);
    captureWarnings(() => assert.throws(() => r.test(m, 0, 0, 8), /layers must be a non-empty set of layer bits/));
    assert.throws(
        () => r.overlaps(m, 0, 0, 'all' as never),
        /options must be an object like \{ layers: 1 << 2 \}, got "all"/
    );
});

testKernels('clear only zeroes what was stamped, and the raster is reusable frame after frame', () => {
    const r = new CollisionRaster(200, 100, { layers: 2 });
    const rnd = mulberry32(SEED);
    const shot = sprite(9, 18, 0.6, 1).mask;
    for (let frame = 0; frame < 20; frame++) {
        r.clear();
        for (let l = 0; l < 2; l++) assert.equal(r.plane(l).count(), 0, `frame ${frame}: clear left pixels`);
        const xs: number[] = [],
            ys: number[] = [];
        for (let i = 0; i < 30; i++) {
            const x = Math.floor(rnd() * 240) - 20,
                y = Math.floor(rnd() * 140) - 20;
            xs.push(x);
            ys.push(y);
            r.stamp(shot, x, y, { id: i, layer: frame & 1 });
        }
        const o = new NaiveRaster(200, 100, 2);
        const s = sprite(9, 18, 0.6, 1);
        for (let i = 0; i < 30; i++) o.stamp(s, xs[i], ys[i], { id: i, layer: frame & 1 });
        checkPlanes(r, o);
        checkQueries(r, o, sprite(200, 100, 1, 0), 0, 0, 3);
    }
});

testKernels('raster views implement CollisionLayer, and world.addLayer(raster) adds a view of every layer', () => {
    const r = new CollisionRaster(64, 64, { layers: 2 });
    r.stamp(new Mask(8, 8, true), 10, 10, { id: 3, layer: 1 });
    const layers: CollisionLayer[] = [r.view(), r.view(2), r.layer(1)];
    const probe = new Mask(4, 4, true);
    for (const l of layers) {
        assert.equal(l.overlaps(probe, 15, 15), true);
        assert.equal(l.overlaps(probe, 18, 18), false);
        assert.equal(l.overlapArea(probe, 15, 15), 9);
        assert.deepEqual(l.overlap(probe, 8, 8), { x: 10, y: 10 });
        assert.equal(l.overlap(probe, 0, 0), null);
        assert.equal(l.hitTest(10.9, 17.2), true);
        assert.equal(l.hitTest(-1, 10), false);
        assert.equal(l.hitTest(64, 10), false);
    }
    const v0 = r.layer(0);
    assert.ok(v0 instanceof RasterView);
    assert.equal(v0.overlaps(probe, 15, 15), false, 'layer 0 is empty');
    assert.deepEqual(r.layer(1).queryMask(probe, 15, 15), [3]);
    const world = new World(),
        body = world.add({ x: 15, y: 15, mask: probe }),
        ground = world.addLayer(r);
    assert.ok(ground.layer instanceof RasterView && ground.layer.layers === 3);
    assert.deepEqual(
        world.collisions().map(p => [p.a, p.b]),
        [[body, ground]]
    );
    // views are live
    r.clear();
    assert.equal(r.view().overlaps(probe, 15, 15), false);
    assert.equal(String(r), '<CollisionRaster 64x64, 2 layers>');
});

testKernels('huge and far-away positions clip without wrap-around hits', () => {
    const r = new CollisionRaster(64, 64);
    const m = new Mask(40, 40, true);
    for (const v of [2 ** 31, 2 ** 32, 2 ** 32 + 1, -(2 ** 32), 1e15, -1e300, 2 ** 53]) {
        r.stamp(m, v, 0, { id: 1 });
        r.stamp(m, 0, v, { id: 1 });
        r.stampPixel(v, 0, { id: 1 });
        r.stampPoints([v], [v]);
    }
    assert.equal(r.plane().count(), 0);
    r.stamp(new Mask(64, 64, true), 0, 0, { id: 1 });
    for (const v of [2 ** 31, 2 ** 32, -(2 ** 32) + 10, 1e15, -1e300]) {
        assert.equal(r.overlaps(m, v, 0), false);
        assert.equal(r.overlaps(m, 0, v), false);
        assert.deepEqual(r.queryMask(m, v, v), []);
        assert.equal(r.hitTest(v, 0), false);
    }
    const empty = new CollisionRaster(0, 0, { layers: 2 });
    empty.stamp(m, 0, 0, { id: 1 }).stampPixel(0, 0).stampPoints([0], [0]).clear();
    assert.equal(empty.overlaps(m, 0, 0), false);
    assert.equal(empty.overlapArea(m, -5, -5), 0);
    assert.equal(empty.overlap(m, 0, 0), null);
});

test('a plane cannot be disposed under its raster: an Error saying what to do, and the raster keeps working', () => {
    const r = new CollisionRaster(16, 16, { layers: 2 }),
        m = new Mask(2, 2, true);
    r.stamp(m, 3, 3, { layer: 1 });
    assert.throws(
        () => r.plane(1).dispose(),
        /^Error: This Mask is plane 1 of a CollisionRaster, which keeps using it: dispose\(\) would break the raster\. Clear it with raster\.clear\(1\) instead/
    );
    assert.equal(r.plane(1).disposed, false);
    assert.equal(r.overlaps(m, 4, 4, { layers: 2 }), true);
    assert.equal(r.plane(1).count(), 4);
    // Masks of one's own still dispose.
    m.dispose();
    assert.equal(m.disposed, true);
});

test('bad input throws a clear error and changes nothing', () => {
    const r = new CollisionRaster(32, 32, { layers: 2 });
    const m = new Mask(2, 2, true);
    r.stamp(m, 4, 4, { id: 1 });
    const before = r.plane(0).words.slice();
    const bad = (fn: () => unknown, type: typeof Error, re: RegExp) =>
        assert.throws(fn, (e: unknown) => e instanceof type && re.test((e as Error).message));
    bad(() => new CollisionRaster(-1, 4), RangeError, /width.*-1/);
    bad(() => new CollisionRaster(4, 1.5), RangeError, /height.*1\.5/);
    bad(() => new CollisionRaster(4, 4, { layers: 0 }), RangeError, /layers.*1\.\.32.*0/);
    bad(() => new CollisionRaster(4, 4, { layers: 33 }), RangeError, /layers.*33/);
    bad(() => new CollisionRaster(4, 4, null as never), TypeError, /options/);
    for (const [name, fn] of [
        ['stamp', (v: number) => r.stamp(m, v, 0)],
        ['stamp y', (v: number) => r.stamp(m, 0, v)],
        ['erase', (v: number) => r.erase(m, v, 0)],
        ['stampPixel', (v: number) => r.stampPixel(v, 0)],
        ['erasePixel', (v: number) => r.erasePixel(0, v)],
        ['overlaps', (v: number) => r.overlaps(m, v, 0)],
        ['overlapArea', (v: number) => r.overlapArea(m, 0, v)],
        ['overlap', (v: number) => r.overlap(m, v, 0)],
        ['hitTest', (v: number) => r.hitTest(v, 0)],
        ['queryMask', (v: number) => r.queryMask(m, 0, v)]
    ] as const) {
        for (const v of [NaN, Infinity, -Infinity]) bad(() => fn(v), RangeError, new RegExp(`finite number, got ${v}`));
        assert.ok(name);
    }
    bad(() => r.stamp({} as Mask, 0, 0), TypeError, /mask must be a Mask, got Object/);
    bad(() => r.overlaps(null as unknown as Mask, 0, 0), TypeError, /mask must be a Mask, got null/);
    bad(() => r.erase('x' as unknown as Mask, 0, 0), TypeError, /Mask/);
    bad(() => r.queryMask(undefined as unknown as Mask, 0, 0), TypeError, /Mask/);
    bad(() => r.stamp(m, 0, 0, { id: -2 }), RangeError, /id must be an integer.*-1 for no id, got -2/);
    bad(() => r.stamp(m, 0, 0, { id: 1.5 }), RangeError, /id.*1\.5/);
    bad(() => r.stampPixel(0, 0, { id: 2 ** 31 }), RangeError, /id.*2147483648/);
    bad(() => r.stamp(m, 0, 0, { id: 1, layer: 2 }), RangeError, /layer must be an integer in 0\.\.1.*got 2/);
    bad(() => r.erase(m, 0, 0, { layer: -1 }), RangeError, /layer.*-1/);
    // 0.2's positional layer is refused with the new form in the message, not read as layer 0.
    bad(() => r.erase(m, 0, 0, 1 as never), TypeError, /options must be an object like \{ layer \}, got 1/);
    bad(() => r.erasePixel(0, 0, 1 as never), TypeError, /options must be an object like \{ layer \}, got 1/);
    bad(() => r.clear(0.5), RangeError, /layer.*0\.5/);
    bad(() => r.layer(5), RangeError, /layer.*5/);
    bad(() => r.plane(NaN), RangeError, /layer.*NaN/);
    bad(() => r.overlaps(m, 0, 0, { layers: 0 }), RangeError, /non-empty set of layer bits.*got 0/);
    bad(() => r.overlaps(m, 0, 0, { layers: 4 }), RangeError, /layers.*got 4/);
    bad(() => r.hitTest(0, 0, { layers: 1.5 }), RangeError, /layers.*1\.5/);
    bad(() => r.view(8), RangeError, /layers.*8/);
    bad(() => r.queryMask(m, 0, 0, { layers: 2 ** 33 }), RangeError, /layers/);
    bad(() => new RasterView({} as CollisionRaster, 1), TypeError, /raster must be a CollisionRaster/);
    bad(() => r.overlap(m, 0, 0, undefined, null as never), TypeError, /out must be a \{ x, y \}/);
    bad(() => r.queryMask(m, 0, 0, undefined, {} as never), TypeError, /out must be an array/);
    // 0.1's trailing numbers (stamp(mask, x, y, TERRAIN) stamped id 2 on layer 0) are refused, naming the new form.
    bad(() => r.stamp(m, 0, 0, 1 as never), TypeError, /options must be an object like \{ id, layer \}, got 1/);
    bad(() => r.stampPixel(0, 0, 5 as never), TypeError, /options must be an object like \{ id, layer \}, got 5/);
    bad(
        () => r.stampMany(m, [0], [0], [7] as never),
        TypeError,
        /options must be an object like \{ ids, layer \}, got Array\(1\)/
    );
    bad(() => r.stampPoints([0], [0], new Int32Array([7]) as never), TypeError, /got Int32Array\(1\)/);
    bad(
        () => r.stampPoints([0], [0], null as never),
        TypeError,
        /options must be an object like \{ ids, layer \}, got null/
    );
    // stampPoints validates everything before stamping anything
    bad(() => r.stampPoints([1, 2], [1]), RangeError, /ys has length 1, expected 2/);
    bad(() => r.stampPoints([1], [1], { ids: [1, 2] }), RangeError, /ids has length 2, expected 1/);
    bad(() => r.stampPoints(null as never, [1]), TypeError, /xs must be an array/);
    bad(() => r.stampPoints([1, 2, 3], [1, 2, NaN]), RangeError, /ys\[2\] must be a finite number, got NaN/);
    bad(() => r.stampPoints([1, Infinity], [1, 2]), RangeError, /xs\[1\].*Infinity/);
    bad(() => r.stampPoints(['1'] as never, [1]), RangeError, /xs\[0\].*"1"/);
    bad(() => r.stampPoints([1, 2], [1, 2], { ids: [3, -5] }), RangeError, /ids\[1\].*-5/);
    bad(() => r.stampPoints([1], [1], { ids: [1], layer: 3 }), RangeError, /layer/);
    bad(() => r.stampMany(m, [1, 2], [1, -Infinity]), RangeError, /ys\[1\].*-Infinity/);
    bad(() => r.stampMany(m, [1, 2], [1, 2], { ids: [0, 2 ** 31] }), RangeError, /ids\[1\].*2147483648/);
    bad(() => r.stampMany(m, [1], [1, 2]), RangeError, /ys has length 2, expected 1/);
    bad(() => r.stampMany([] as never, [1], [1]), TypeError, /mask must be a Mask/);
    bad(() => r.stampMany(m, [1], [1], { layer: 9 }), RangeError, /layer.*9/);
    assert.deepEqual(r.plane(0).words, before, 'nothing was stamped by a failed call');
    assert.equal(r.plane(1).count(), 0);
    assert.deepEqual(r.queryMask(m, 4, 4), [1]);
    bad(() => new CollisionRaster(2 ** 16, 2 ** 15).stampPixel(0, 0, { id: 1 }), RangeError, /too big for ids/);
});

testKernels('a World collides bodies with a raster layer', () => {
    const TERRAIN = 0,
        BULLETS = 1;
    const raster = new CollisionRaster(200, 100, { layers: 2 });
    raster.stamp(new Mask(200, 10, true), 0, 90, { layer: TERRAIN }); // ground
    raster.erase(new Mask(20, 5, true), 50, 90, { layer: TERRAIN }); // a crater
    const world = new World<string>();
    const ground = world.addLayer(raster.layer(TERRAIN), { data: 'ground' });
    const shots = world.addLayer(raster.layer(BULLETS), { data: 'shots' });
    const ship = new Mask(8, 8, true);
    const player = world.add({ x: 10, y: 85, mask: ship, data: 'player' });
    const hovering = world.add({ x: 55, y: 85, mask: ship, data: 'over the crater' });
    raster.stampPixel(100, 20, { id: 42, layer: BULLETS });
    const enemy = world.add({ x: 96, y: 16, mask: ship, data: 'enemy' });
    const pairs = world.collisions().map(p => `${p.a.data}-${p.b.data}`);
    assert.deepEqual(pairs.sort(), ['enemy-shots', 'player-ground']);
    assert.deepEqual(raster.queryMask(ship, 96, 16, { layers: 1 << BULLETS }), [42], 'the raster says which bullet');
    // the raster is live: a new frame of bullets, a deeper crater
    raster.clear(BULLETS);
    raster.erase(new Mask(20, 10, true), 5, 90, { layer: TERRAIN });
    assert.deepEqual(
        world.collisions().map(p => `${p.a.data}-${p.b.data}`),
        []
    );
    assert.ok(ground.layer && shots.layer && player && hovering && enemy);
});

testKernels("a World tests only bodies inside a layer's bounds, and stays exact as the raster changes", () => {
    const rnd = mulberry32(77),
        raster = new CollisionRaster(300, 200, { layers: 2 });
    const world = new World<number>(),
        view = raster.view(0b11),
        layer = world.addLayer(view);
    const masks = [new Mask(7, 5, true), Mask.fromText('#.#\n.#.\n#.#'), new Mask(20, 3, true)];
    const bodies = Array.from({ length: 150 }, (_, i) =>
        world.add({ x: rnd() * 400 - 50, y: rnd() * 300 - 50, mask: masks[i % 3], data: i })
    );
    for (let step = 0; step < 60; step++) {
        const r = rnd(),
            l = rnd() < 0.5 ? 0 : 1;
        if (r < 0.5)
            raster.stamp(masks[Math.floor(rnd() * 3)], Math.floor(rnd() * 120) + 90, Math.floor(rnd() * 80) + 60, {
                layer: l
            });
        else if (r < 0.7)
            raster.erase(new Mask(30, 30, true), Math.floor(rnd() * 250), Math.floor(rnd() * 150), { layer: l });
        else if (r < 0.8) raster.clear(l);
        else for (const b of bodies) world.move(b, b.x + rnd() * 10 - 5, b.y + rnd() * 10 - 5);
        // The bounds hold every set pixel (or are null when none is).
        const box = view.bounds();
        for (const p of [0, 1]) {
            const plane = raster.plane(p);
            for (let y = 0; y < 200; y++)
                for (let x = 0; x < 300; x++) {
                    if (plane.get(x, y))
                        assert.ok(
                            box && x >= box.x && y >= box.y && x < box.x + box.width && y < box.y + box.height,
                            `pixel ${x},${y} outside ${JSON.stringify(box)}`
                        );
                }
        }
        const got = world
            .collisions()
            .filter(p => p.b === layer)
            .map(p => p.a.data);
        const want = bodies.filter(b => raster.overlaps(b.mask as Mask, b.x, b.y, { layers: 0b11 })).map(b => b.data);
        assert.deepEqual(got, want, `step ${step}`);
    }
    raster.clear();
    assert.equal(view.bounds(), null);
    // Edges: one stamped pixel; bodies whose boxes end on it, start on it, or stop just short of it.
    raster.stampPixel(50, 50, { layer: 1 });
    const dot = new Mask(1, 1, true),
        row = Mask.fromText('...#'),
        col = Mask.fromText('#\n.\n.');
    const edge = new World<string>(),
        l2 = edge.addLayer(raster.view(0b11));
    for (const [name, m, x, y] of [
        ['on', dot, 50, 50],
        ['ends on it', row, 47, 50],
        ['starts on it', col, 50, 50],
        ['left', dot, 49, 50],
        ['right', dot, 51, 50],
        ['above', dot, 50, 49],
        ['below', dot, 50, 51],
        ['row short', row, 46, 50]
    ] as const)
        edge.add({ x, y, mask: m, data: name });
    assert.deepEqual(
        edge
            .collisions()
            .filter(p => p.b === l2)
            .map(p => p.a.data),
        ['on', 'ends on it', 'starts on it']
    );
});

test('a layer whose bounds() is null is never tested; one without bounds() is tested for every body', () => {
    let calls = 0;
    const solid: CollisionLayer = {
        overlaps: () => {
            calls++;
            return true;
        },
        overlapArea: () => 1,
        overlap: () => ({ x: 0, y: 0 }),
        hitTest: () => true
    };
    const world = new World();
    for (let i = 0; i < 10; i++) world.add({ x: i * 100, y: 0, mask: new Mask(4, 4, true) });
    world.addLayer(solid);
    assert.equal(world.collisions().length, 10);
    assert.equal(calls, 10);
    const empty = new World();
    for (let i = 0; i < 10; i++) empty.add({ x: i * 100, y: 0, mask: new Mask(4, 4, true) });
    empty.addLayer({ ...solid, bounds: () => null });
    calls = 0;
    assert.equal(empty.collisions().length, 0);
    assert.equal(calls, 0);
});

test('a disposed mask: the same Error from every raster entry point that takes a mask, and nothing changes', () => {
    const r = new CollisionRaster(16, 16),
        m = new Mask(2, 2, true);
    r.stamp(m, 1, 1);
    const gone = new Mask(2, 2, true);
    gone.dispose();
    const disposed = {
        name: 'Error',
        message: 'mask (<Mask 2x2>) was disposed; create a new Mask (or stop calling dispose() on masks still in use).'
    };
    assert.throws(() => r.stamp(gone, 0, 0), disposed);
    assert.throws(() => r.stampMany(gone, [0], [0]), disposed);
    assert.throws(() => r.erase(gone, 0, 0), disposed);
    assert.throws(() => r.overlaps(gone, 0, 0), disposed);
    assert.throws(() => r.overlapArea(gone, 0, 0), disposed);
    assert.throws(() => r.overlap(gone, 0, 0), disposed);
    assert.throws(() => r.queryMask(gone, 0, 0), disposed);
    assert.equal(r.plane(0).count(), 4);
});
