// @test fast no-shared
// WebAssembly SIMD kernels: equal to the JS kernels and the reference on masks tall enough for the
// vector loops, across arenas and memory growth, plus the batched API and the kernel switch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { Mask, overlapsMany } from '../src/index.js';
import { kernelStats, setKernels } from '../src/index.js';
// internal: the module bytes, the memory's size and the build's checksum have no public entry.
import { moduleBytes } from '../src/kernels/memory.js';
import { wasmMemoryBytes } from '../src/kernels/storage.js';
import { FULL_WASM_CRC, FULL_WASM_LENGTH } from '../src/kernels/module.js';
import { crc32 } from '../src/base/crc32.js';
import { Ref, sameMask, testKernels, withKernels, KERNELS } from './reference.js';

const { wasmAvailable } = kernelStats();

const SEED = 20261124;

// Heights past 8 rows with ragged tails (the vector loops take 8 or 4 rows), widths past 3 strips.
const arbRef = fc
    .record({
        w: fc.oneof(fc.constantFrom(1, 31, 32, 33, 64, 65, 96, 97), fc.integer({ min: 0, max: 130 })),
        h: fc.integer({ min: 0, max: 45 }),
        density: fc.constantFrom(0, 0.01, 0.1, 0.5, 1),
        seed: fc.integer()
    })
    .map(({ w, h, density, seed }) => Ref.random(w, h, density, seed));
const arbPair = fc
    .tuple(arbRef, arbRef)
    .chain(([a, b]) =>
        fc.tuple(
            fc.constant(a),
            fc.constant(b),
            fc.integer({ min: -b.w - 1, max: a.w + 1 }),
            fc.integer({ min: -b.h - 1, max: a.h + 1 })
        )
    );

testKernels('tall masks: overlaps, overlap, overlapArea, overlapMask, draw, erase match the reference', () => {
    fc.assert(
        fc.property(arbPair, ([a, b, dx, dy]) => {
            const ma = a.toMask(),
                mb = b.toMask();
            assert.equal(ma.overlaps(mb, dx, dy), a.overlap(b, dx, dy) !== null);
            assert.deepEqual(ma.overlap(mb, dx, dy), a.overlap(b, dx, dy));
            assert.equal(ma.overlapArea(mb, dx, dy), a.overlapArea(b, dx, dy));
            assert.ok(sameMask(ma.overlapMask(mb, dx, dy), a.overlapMask(b, dx, dy)));
            assert.ok(sameMask(ma.clone().draw(mb, dx, dy), a.draw(b, dx, dy)));
            assert.ok(sameMask(ma.clone().erase(mb, dx, dy), a.draw(b, dx, dy, true)));
        }),
        { seed: SEED, numRuns: 400 }
    );
});

// Row counts 1..70 at every offset (every tail of the 8-, 16- and 4-row loops, the last-4-rows vector,
// the one-word rows at the left and right edges and aligned, the two-word rows), answers known exactly:
// full masks meet on the clip's area; one set pixel is found iff it lies inside the other mask.
testKernels('overlaps and overlapArea on full and one-pixel masks at every offset equal the clip area', () => {
    const full = (w: number, h: number) => new Mask(w, h, true);
    const meet = (aw: number, ah: number, bw: number, bh: number, dx: number, dy: number) =>
        Math.max(0, Math.min(aw, dx + bw) - Math.max(0, dx)) * Math.max(0, Math.min(ah, dy + bh) - Math.max(0, dy));
    for (const [aw, ah, bw, bh] of [
        [100, 70, 70, 45],
        [64, 64, 64, 64],
        [33, 9, 97, 70],
        [32, 5, 40, 3]
    ]) {
        const a = full(aw, ah),
            b = full(bw, bh);
        for (let dx = -bw - 1; dx <= aw + 1; dx++) {
            for (let dy = -bh - 1; dy <= ah + 1; dy++) {
                const n = meet(aw, ah, bw, bh, dx, dy);
                assert.equal(a.overlapArea(b, dx, dy), n, `area ${aw}x${ah} / ${bw}x${bh} at ${dx},${dy}`);
                assert.equal(a.overlaps(b, dx, dy), n > 0, `overlaps ${aw}x${ah} / ${bw}x${bh} at ${dx},${dy}`);
            }
        }
    }
    const a = full(100, 70);
    for (const [px, py] of [
        [0, 0],
        [69, 44],
        [31, 17],
        [32, 3],
        [45, 43],
        [5, 41]
    ]) {
        const one = new Mask(70, 45).set(px, py);
        for (let dx = -71; dx <= 101; dx++) {
            for (let dy = -46; dy <= 71; dy++) {
                const inA = dx + px >= 0 && dx + px < 100 && dy + py >= 0 && dy + py < 70;
                assert.equal(a.overlaps(one, dx, dy), inA, `pixel ${px},${py} at ${dx},${dy}`);
                assert.equal(a.overlapArea(one, dx, dy), inA ? 1 : 0, `pixel ${px},${py} area at ${dx},${dy}`);
                // the same pair the other way round: A's one pixel at (px, py) against the full mask placed at (-dx, -dy)
                assert.equal(one.overlaps(a, -dx, -dy), inA, `pixel ${px},${py} under the full mask at ${-dx},${-dy}`);
                assert.equal(one.overlapArea(a, -dx, -dy), inA ? 1 : 0);
            }
        }
    }
});

testKernels('drawing and erasing a mask onto itself uses the mask as it was (pygame), not rows already changed', () => {
    const r = Ref.random(70, 30, 0.2, 7);
    for (const [dx, dy] of [
        [3, 1],
        [-5, -2],
        [1, 1],
        [0, 1],
        [33, 0],
        [-40, 7]
    ]) {
        const copy = Ref.random(70, 30, 0.2, 7);
        const d = r.toMask(),
            e = r.toMask();
        assert.ok(sameMask(d.draw(d, dx, dy), r.draw(copy, dx, dy)), `draw at ${dx},${dy}`);
        assert.ok(
            sameMask(e.erase(e, dx, dy), Ref.random(70, 30, 0.2, 7).draw(copy, dx, dy, true)),
            `erase at ${dx},${dy}`
        );
    }
});

test('masks from both backends, and fromWords masks, mix freely with equal results', () => {
    const a = Ref.random(200, 60, 0.05, 1),
        b = Ref.random(90, 50, 0.05, 2);
    const masks = KERNELS.map(mode => withKernels(mode, () => [a.toMask(), b.toMask()]));
    const fromWords = Mask.fromWords(200, 60, a.toMask().words.slice());
    for (const mode of KERNELS) {
        withKernels(mode, () => {
            for (const [ma] of masks) {
                for (const [, mb] of masks) {
                    for (const [dx, dy] of [
                        [0, 0],
                        [13, 5],
                        [-40, 20],
                        [150, -30],
                        [111, 10]
                    ]) {
                        assert.equal(ma.overlapArea(mb, dx, dy), a.overlapArea(b, dx, dy));
                        assert.equal(fromWords.overlapArea(mb, dx, dy), a.overlapArea(b, dx, dy));
                        assert.equal(ma.overlaps(mb, dx, dy), a.overlap(b, dx, dy) !== null);
                        assert.ok(sameMask(ma.overlapMask(mb, dx, dy), a.overlapMask(b, dx, dy)));
                    }
                }
            }
        });
    }
});

// Shared memory grows in place (old views stay valid); a plain one (no SharedArrayBuffer) replaces its
// buffer, and each mask's `words` is rebuilt from the new one on its next read.
test('WebAssembly memory growth keeps every earlier mask and its words valid', { skip: !wasmAvailable }, () => {
    withKernels('wasm', () => {
        const a = Ref.random(300, 300, 0.3, 3),
            b = Ref.random(100, 80, 0.3, 4);
        const ma = a.toMask(),
            mb = b.toMask(),
            wordsBefore = ma.words,
            sum = ma.words.reduce((s, w) => s + w, 0);
        const before = wasmMemoryBytes();
        const big: Mask[] = [];
        while (wasmMemoryBytes() < before + (8 << 20)) big.push(new Mask(2048, 1024, true)); // 256 KiB each
        assert.ok(wasmMemoryBytes() > before);
        if (kernelStats().sharedMemory) assert.equal(ma.words, wordsBefore);
        else assert.equal(wordsBefore.length, 0, 'the old view is detached');
        assert.equal(ma.words.length, ma.strips * ma.height);
        assert.equal(
            ma.words.reduce((s, w) => s + w, 0),
            sum
        );
        assert.equal(ma.overlapArea(mb, 37, 61), a.overlapArea(b, 37, 61));
        assert.equal(big[0].overlapArea(ma, 5, 5), a.count());
        assert.equal(big[big.length - 1].count(), 2048 * 1024);
    });
});

testKernels('overlapsMany matches overlaps pair by pair and counts the hits', () => {
    const refs = Array.from({ length: 12 }, (_, i) => Ref.random(5 + i * 9, 3 + i * 4, 0.15, 100 + i));
    const masks = refs.map(r => r.toMask());
    masks.push(Mask.fromWords(40, 20, new Mask(40, 20, true).words.slice())); // JS-heap words: the JS path inside the batch
    refs.push(Ref.of(masks[masks.length - 1]));
    const pairs: number[] = [];
    let seed = 1;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let k = 0; k < 500; k++) {
        const ia = Math.floor(rnd() * masks.length),
            ib = Math.floor(rnd() * masks.length);
        pairs.push(
            ia,
            ib,
            Math.floor(rnd() * (refs[ia].w + refs[ib].w + 4)) - refs[ib].w - 2,
            Math.floor(rnd() * (refs[ia].h + refs[ib].h + 4)) - refs[ib].h - 2
        );
    }
    pairs.push(0, 1, 2 ** 31 - 1, 0, 1, 0, -(2 ** 31), 5);
    const P = new Int32Array(pairs),
        n = P.length >> 2,
        out = new Uint8Array(n + 3).fill(7);
    const hits = overlapsMany(masks, P, out);
    let expected = 0;
    for (let k = 0; k < n; k++) {
        const want = refs[P[4 * k]].overlap(refs[P[4 * k + 1]], P[4 * k + 2], P[4 * k + 3]) !== null;
        assert.equal(out[k], want ? 1 : 0, `pair ${k}`);
        expected += want ? 1 : 0;
    }
    assert.equal(hits, expected);
    assert.ok(expected > 20 && expected < n - 20, `a mix of hits and misses (${expected} of ${n})`);
    assert.deepEqual([...out.subarray(n)], [7, 7, 7]);
    assert.equal(overlapsMany(masks, P, { count: 0 }, out), 0);
    assert.equal(overlapsMany(masks, P.subarray(0, 8), out), (out[0] ?? 0) + (out[1] ?? 0));
});

test('overlapsMany rejects bad input with errors naming the value', () => {
    const m = [new Mask(4, 4, true)];
    const bad = (fn: () => unknown, type: typeof Error, pattern: RegExp) =>
        assert.throws(fn, (e: unknown) => e instanceof type && pattern.test((e as Error).message));
    bad(
        () => overlapsMany(m, [0, 0, 0, 0] as unknown as Int32Array, new Uint8Array(1)),
        TypeError,
        /pairs must be an Int32Array .* got Array\(4\)/
    );
    bad(
        () => overlapsMany('x' as unknown as Mask[], new Int32Array(4), new Uint8Array(1)),
        TypeError,
        /masks must be an array .* got "x"/
    );
    bad(
        () => overlapsMany(m, new Int32Array(4), new Uint8Array(0)),
        RangeError,
        /out must be a Uint8Array of length at least 1, got Uint8Array\(0\)/
    );
    bad(
        () => overlapsMany(m, new Int32Array(4), { count: 2 }, new Uint8Array(1)),
        RangeError,
        /count must be an integer in 0\.\.1, got 2/
    );
    bad(
        () => overlapsMany(m, new Int32Array([0, 3, 0, 0]), new Uint8Array(1)),
        RangeError,
        /\(0, 3\) index masks, which has length 1/
    );
    bad(
        () => overlapsMany([m[0], {} as Mask], new Int32Array([0, 1, 0, 0]), new Uint8Array(1)),
        TypeError,
        /masks\[1\] must be a Mask, got Object/
    );
});

test('overlapsMany: the 0.3 order (out, count, threads) still answers the same and warns once; options must be an object', () => {
    const masks = [new Mask(4, 4, true), new Mask(2, 2, true)];
    const P = new Int32Array([0, 1, 3, 3, 0, 1, 9, 0, 0, 1, -1, -1]);
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
        const old = new Uint8Array(3),
            now = new Uint8Array(3);
        assert.equal(overlapsMany(masks, P, old, 2, null), 1);
        assert.equal(overlapsMany(masks, P, { count: 2, threads: null }, now), 1);
        assert.deepEqual([...old], [...now]);
        assert.equal(overlapsMany(masks, P, old, 3), 2);
        assert.equal(overlapsMany(masks, P, old), 2, 'three arguments: the same call in both orders, no warning');
    } finally {
        console.warn = warn;
    }
    assert.deepEqual(warnings, [
        'hitmask: overlapsMany(masks, pairs, out, count, threads) is deprecated and will be removed in 0.5.0; ' +
            'use overlapsMany(masks, pairs, { count, threads }, out) instead.'
    ]);
    assert.throws(
        () => overlapsMany(masks, P, 5 as unknown as Uint8Array),
        /^TypeError: options must be an object of \{ count, threads \}, got 5\.$/
    );
});

test('setKernels switches backends and rejects unknown modes; kernelStats() says which run and why', () => {
    const prev = kernelStats().kernels;
    try {
        setKernels('js');
        const js = kernelStats();
        assert.equal(js.kernels, 'js');
        assert.equal(
            js.wasmAvailable,
            wasmAvailable,
            'selecting the JS kernels does not hide that WebAssembly is available'
        );
        if (wasmAvailable) {
            assert.match(js.reason ?? '', /setKernels\('js'\)/);
            setKernels('wasm');
            assert.equal(kernelStats().kernels, 'wasm');
            assert.equal(kernelStats().reason, null);
        } else {
            assert.throws(() => setKernels('wasm'), /kernel mode 'wasm' is unavailable/);
        }
        assert.throws(
            () => setKernels('gpu' as 'js'),
            (e: unknown) => e instanceof TypeError && /got "gpu"/.test((e as Error).message)
        );
    } finally {
        setKernels(prev);
    }
});

testKernels(
    'overlapMaskInto: out may be this mask, the other mask, or both, and every word of out is rewritten',
    () => {
        const a = Ref.random(70, 40, 0.4, 11),
            b = Ref.random(70, 40, 0.4, 12);
        for (const [dx, dy] of [
            [0, 0],
            [5, 3],
            [-7, 9],
            [33, -2],
            [100, 0]
        ]) {
            const want = a.overlapMask(b, dx, dy);
            const ma = a.toMask(),
                mb = b.toMask();
            assert.ok(sameMask(ma.overlapMask(mb, dx, dy, ma), want), `out = this at ${dx},${dy}`);
            const ma2 = a.toMask(),
                mb2 = b.toMask();
            assert.ok(sameMask(ma2.overlapMask(mb2, dx, dy, mb2), want), `out = other at ${dx},${dy}`);
            const self = a.toMask();
            assert.ok(
                sameMask(self.overlapMask(self, dx, dy, self), a.overlapMask(a, dx, dy)),
                `out = this = other at ${dx},${dy}`
            );
            const dirty = new Mask(70, 40, true);
            assert.ok(
                sameMask(a.toMask().overlapMask(b.toMask(), dx, dy, dirty), want),
                `a full out is cleared outside the overlap at ${dx},${dy}`
            );
        }
    }
);

test('the shipped module expands to the assembled one byte for byte (124 constant-shift functions from 4)', () => {
    const bytes = moduleBytes();
    assert.equal(bytes.length, FULL_WASM_LENGTH);
    assert.equal(crc32(bytes, 0, bytes.length) >>> 0, FULL_WASM_CRC);
    assert.ok(WebAssembly.validate(bytes));
});

// The module ships as a string of one char per byte (not base64): loading it needs no atob.
test('the WebAssembly kernels load where atob is missing', { skip: !wasmAvailable }, () => {
    const script = `delete globalThis.atob;
const { Mask, kernelStats } = await import(${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)});
const a = new Mask(300, 300, true), b = new Mask(100, 100, true);
console.log(JSON.stringify({ kernels: kernelStats().kernels, area: a.overlapArea(b, 250, 250) }));`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        encoding: 'utf8'
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { kernels: 'wasm', area: 50 * 50 });
});
