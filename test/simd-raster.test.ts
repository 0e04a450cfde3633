// @test no-shared
// WebAssembly kernels of the raster (anonymous stamps, test, overlapArea and hitPoint over any layer
// set) and of Mask.fromRGBA / fromColorKey, against the naive references on both kernel paths: under
// testKernels every call goes to WebAssembly on the wasm path, however small.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CollisionRaster, Mask } from '../src/index.js';
import { setKernels } from '../src/index.js';
import { wasmMinWords } from '../src/kernels/memory.js'; // internal: the JS/WebAssembly cut-over has no public entry
import { kernelStats } from '../src/index.js';
import { mulberry32, Ref, sameMask, testKernels, withKernels } from './reference.js';

const SEED = 20261124;

// Sprites and rasters past 4 rows (one vector) with ragged tails and several strips.
const arbSprite = fc
    .record({
        w: fc.oneof(fc.constantFrom(0, 1, 31, 32, 33, 64, 65), fc.integer({ min: 0, max: 80 })),
        h: fc.integer({ min: 0, max: 40 }),
        density: fc.constantFrom(0.02, 0.2, 0.6, 1),
        seed: fc.integer()
    })
    .map(({ w, h, density, seed }) => Ref.random(w, h, density, seed));

type Op =
    | { kind: 'stamp' | 'erase'; s: Ref; x: number; y: number; layer: number }
    | { kind: 'clear'; layer: number }
    | { kind: 'query'; s: Ref; x: number; y: number; layers: number };

const arbScene = fc
    .record({
        w: fc.oneof(fc.constantFrom(1, 31, 32, 33, 64, 65, 96, 97), fc.integer({ min: 0, max: 130 })),
        h: fc.integer({ min: 0, max: 45 }),
        layers: fc.constantFrom(1, 2, 3, 5, 32)
    })
    .chain(({ w, h, layers }) => {
        const layer = fc.integer({ min: 0, max: layers - 1 });
        const placed = arbSprite.chain(s =>
            fc.record({
                s: fc.constant(s),
                x: fc.integer({ min: -s.w - 2, max: w + 2 }),
                y: fc.integer({ min: -s.h - 2, max: h + 2 })
            })
        );
        // Layer sets: one layer, a few, all of them.
        const layerSet = fc.oneof(
            layer.map(l => 1 << l),
            fc.integer({ min: 1, max: 2 ** Math.min(layers, 5) - 1 }),
            fc.constant(layers === 32 ? 0xffffffff : 2 ** layers - 1)
        );
        const op: fc.Arbitrary<Op> = fc.oneof(
            {
                weight: 6,
                arbitrary: fc
                    .record({ kind: fc.constant('stamp' as const), p: placed, layer })
                    .map(({ kind, p, layer }) => ({ kind, ...p, layer }))
            },
            {
                weight: 2,
                arbitrary: fc
                    .record({ kind: fc.constant('erase' as const), p: placed, layer })
                    .map(({ kind, p, layer }) => ({ kind, ...p, layer }))
            },
            { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const), layer }) },
            {
                weight: 6,
                arbitrary: fc
                    .record({ kind: fc.constant('query' as const), p: placed, layers: layerSet })
                    .map(({ kind, p, layers }) => ({ kind, ...p, layers }))
            }
        );
        return fc.record({
            w: fc.constant(w),
            h: fc.constant(h),
            layers: fc.constant(layers),
            ops: fc.array(op, { minLength: 4, maxLength: 16 })
        });
    });

// The union of the reference planes in a layer set.
function union(planes: Ref[], layers: number): Ref {
    const u = new Ref(planes[0].w, planes[0].h);
    planes.forEach((p, l) => {
        if ((layers >>> l) & 1) for (let i = 0; i < u.px.length; i++) u.px[i] |= p.px[i];
    });
    return u;
}

testKernels(
    'tall rasters: anonymous stamps, erases, clears and test / overlapArea / hitPoint over any layer set match the reference',
    () => {
        fc.assert(
            fc.property(arbScene, ({ w, h, layers, ops }) => {
                const r = new CollisionRaster(w, h, { layers });
                const planes = Array.from({ length: layers }, () => new Ref(w, h));
                for (const op of ops) {
                    if (op.kind === 'stamp') {
                        r.stamp(op.s.toMask(), op.x, op.y, { layer: op.layer });
                        planes[op.layer] = planes[op.layer].draw(op.s, op.x, op.y);
                    } else if (op.kind === 'erase') {
                        r.erase(op.s.toMask(), op.x, op.y, { layer: op.layer });
                        planes[op.layer] = planes[op.layer].draw(op.s, op.x, op.y, true);
                    } else if (op.kind === 'clear') {
                        r.clear(op.layer);
                        planes[op.layer] = new Ref(w, h);
                    } else if (op.kind === 'query') {
                        const u = union(planes, op.layers),
                            m = op.s.toMask();
                        const first = u.overlap(op.s, op.x, op.y);
                        assert.equal(r.overlaps(m, op.x, op.y, { layers: op.layers }), first !== null);
                        assert.equal(
                            r.overlapArea(m, op.x, op.y, { layers: op.layers }),
                            u.overlapArea(op.s, op.x, op.y)
                        );
                        assert.deepEqual(r.overlap(m, op.x, op.y, { layers: op.layers }), first);
                    }
                }
                planes.forEach((p, l) => assert.ok(sameMask(r.plane(l), p), `layer ${l} differs from the reference`));
                // a full-raster probe over all layers: every set pixel, counted once
                const all = new Ref(w, h, new Uint8Array(w * h).fill(1)),
                    u = union(planes, r.allLayers);
                assert.equal(r.overlapArea(all.toMask(), 0, 0), u.count());
                assert.deepEqual(r.overlap(all.toMask(), 0, 0), u.overlap(all, 0, 0));
            }),
            { seed: SEED, numRuns: 300 }
        );
    }
);

testKernels('stamps with ids, a plane stamped onto itself, and JS-heap masks give the JS results', () => {
    const run = () => {
        const r = new CollisionRaster(150, 40, { layers: 3 });
        const a = Ref.random(70, 30, 0.3, 1).toMask(),
            b = Ref.random(40, 25, 0.5, 2).toMask();
        const heap = Mask.fromWords(b.width, b.height, b.words.slice()); // JS-heap words: the JS path on the wasm side too
        r.stamp(a, 10, 5).stamp(b, 60, -3, { id: 7 }).stamp(a, 37, 12); // ids on layer 0 after the first stamp
        r.stamp(heap, -9, 20, { layer: 1 }).stamp(a, 100, 20, { layer: 1 });
        r.stamp(r.plane(1), 5, 3, { layer: 1 }).stamp(r.plane(0), 2, 1, { id: 9 }); // planes onto themselves: as they were, as Mask.draw
        r.stamp(r.plane(0), 3, 1, { layer: 2 });
        const answers = [];
        for (const [x, y] of [
            [0, 0],
            [20, 10],
            [-30, 5],
            [90, 20],
            [120, -10]
        ]) {
            for (const layers of [1, 2, 4, 3, 5, 6, 7]) {
                answers.push(
                    r.overlaps(heap, x, y, { layers }),
                    r.overlapArea(a, x, y, { layers }),
                    r.overlap(heap, x, y, { layers }),
                    r.queryMask(a, x, y, { layers })
                );
            }
        }
        return { planes: [0, 1, 2].map(l => r.plane(l).words.slice()), answers };
    };
    const expected = withKernels('js', run);
    assert.deepEqual(run(), expected);
});

// Per-pixel references of fromRGBA and fromColorKey.
function alphaRef(data: ArrayLike<number>, w: number, h: number, t: number): Ref {
    const r = new Ref(w, h);
    for (let i = 0; i < w * h; i++) r.px[i] = data[i * 4 + 3] > t ? 1 : 0;
    return r;
}
function keyRef(data: ArrayLike<number>, w: number, h: number, key: number[], tol: number): Ref {
    const r = new Ref(w, h);
    for (let i = 0; i < w * h; i++) r.px[i] = [0, 1, 2].some(c => Math.abs(data[i * 4 + c] - key[c]) > tol) ? 1 : 0;
    return r;
}

// RGBA bytes that sit near the threshold and the key as often as far from them.
function pixels(n: number, t: number, key: number[], seed: number): Uint8Array {
    const rnd = mulberry32(seed),
        d = new Uint8Array(n * 4);
    const near = (v: number) => Math.max(0, Math.min(255, v + Math.floor(rnd() * 5) - 2));
    for (let i = 0; i < n; i++) {
        for (let c = 0; c < 3; c++) d[i * 4 + c] = rnd() < 0.5 ? near(key[c]) : Math.floor(rnd() * 256);
        const u = rnd();
        d[i * 4 + 3] = u < 0.4 ? near(t) : u < 0.55 ? 0 : u < 0.7 ? 255 : Math.floor(rnd() * 256);
    }
    return d;
}

const WIDTHS = [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100];

testKernels('fromRGBA and fromColorKey match per-pixel references on every width, threshold and input type', () => {
    fc.assert(
        fc.property(
            fc.constantFrom(...WIDTHS),
            fc.integer({ min: 0, max: 40 }),
            fc.oneof(fc.constantFrom(0, 255, 127), fc.integer({ min: 0, max: 255 })),
            fc.tuple(
                fc.integer({ min: 0, max: 255 }),
                fc.integer({ min: 0, max: 255 }),
                fc.integer({ min: 0, max: 255 })
            ),
            fc.integer({ min: 0, max: 3 }),
            fc.integer(),
            (w, h, t, key, offset, seed) => {
                const d = pixels(w * h, t, key, seed),
                    want = alphaRef(d, w, h, t);
                assert.ok(sameMask(Mask.fromRGBA(d, w, h, { threshold: t }), want), 'Uint8Array');
                assert.ok(
                    sameMask(Mask.fromRGBA(new Uint8ClampedArray(d), w, h, { threshold: t }), want),
                    'Uint8ClampedArray'
                );
                // a view at an odd byte offset into a bigger buffer
                const big = new Uint8Array(d.length + offset + 5).fill(255);
                big.set(d, offset);
                assert.ok(
                    sameMask(
                        Mask.fromImageData(
                            { data: big.subarray(offset, offset + d.length), width: w, height: h },
                            { threshold: t }
                        ),
                        want
                    ),
                    'subarray'
                );
                const tol = t >> 3;
                assert.ok(
                    sameMask(
                        Mask.fromColorKey(d, w, h, key as [number, number, number], { tolerance: tol }),
                        keyRef(d, w, h, key, tol)
                    ),
                    'fromColorKey'
                );
            }
        ),
        { seed: SEED, numRuns: 400 }
    );
});

testKernels('fromRGBA past one 256 KiB chunk: many rows per chunk, and rows wider than a chunk', () => {
    for (const [w, h] of [
        [300, 250],
        [1000, 70],
        [65536 + 77, 3],
        [70000, 1]
    ]) {
        const t = (w * 7 + h) & 255,
            key = [t, 255 - t, 3];
        const d = pixels(w * h, t, key, w + h),
            clamped = new Uint8ClampedArray(d.buffer);
        assert.ok(sameMask(Mask.fromRGBA(clamped, w, h, { threshold: t }), alphaRef(d, w, h, t)), `${w}x${h}`);
        assert.ok(
            sameMask(
                Mask.fromColorKey(d, w, h, key as [number, number, number], { tolerance: 2 }),
                keyRef(d, w, h, key, 2)
            ),
            `${w}x${h} key`
        );
    }
});

test('the automatic choice between the paths (wasmMinWords) gives the JS answers for small and big inputs', () => {
    assert.ok(wasmMinWords > 0);
    const run = () => {
        const r = new CollisionRaster(300, 200, { layers: 2 }),
            rnd = mulberry32(9);
        const sprites = [
            [3, 3],
            [9, 18],
            [16, 16],
            [32, 16],
            [64, 64]
        ].map(([w, h], i) => Ref.random(w, h, 0.5, i).toMask());
        const out: unknown[] = [];
        for (let i = 0; i < 200; i++) {
            const s = sprites[i % sprites.length],
                x = Math.floor(rnd() * 320) - 10,
                y = Math.floor(rnd() * 220) - 10;
            if (i % 3 === 0) r.stamp(s, x, y, { layer: i & 1 });
            else
                out.push(
                    r.overlaps(s, x, y, { layers: 3 }),
                    r.overlapArea(s, x, y, { layers: 3 }),
                    r.overlap(s, x, y, { layers: 3 }),
                    r.overlap(s, x, y, { layers: 1 })
                );
        }
        for (const [w, h] of [
            [8, 8],
            [16, 16],
            [17, 30],
            [32, 16],
            [100, 9]
        ]) {
            const d = pixels(w * h, 100, [1, 2, 3], w * h);
            out.push(
                Mask.fromRGBA(d, w, h, { threshold: 100 }).toText(),
                Mask.fromColorKey(d, w, h, [1, 2, 3]).toText()
            );
        }
        return out;
    };
    const { kernels: prev, wasmAvailable } = kernelStats();
    try {
        setKernels('js');
        const expected = run();
        if (wasmAvailable) setKernels('wasm');
        assert.deepEqual(run(), expected);
    } finally {
        setKernels(prev);
    }
});
