// @test fast no-shared
// WebAssembly memory: dispose(), the library's own counters (kernelStats), bounded memory in long loops
// with and without dispose(), reuse of freed space of any size, and what happens at the ceiling.
// Runs with shared memory and again without SharedArrayBuffer (the no-shared suite of npm test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CollisionRaster, kernelStats, limits, Mask, overlapsMany, World } from '../src/index.js';
import { mulberry32, Ref, sameMask, withKernels } from './reference.js';

const MiB = 2 ** 20;
const { wasmAvailable } = kernelStats();
const skip = !wasmAvailable;
const tick = () => new Promise<void>(r => setImmediate(r));

// Asserts WebAssembly memory stays within 64 MiB of what it was plus what is live, and that nothing
// fell back to the JS heap.
function assertBounded(before: ReturnType<typeof kernelStats>, live: number, what: string): void {
    const s = kernelStats();
    assert.ok(
        s.memoryBytes <= before.memoryBytes + live + 64 * MiB,
        `${what}: WebAssembly memory ${(s.memoryBytes / MiB).toFixed(1)} MiB, was ${(before.memoryBytes / MiB).toFixed(1)} MiB with ${(live / MiB).toFixed(1)} MiB live`
    );
    assert.equal(s.fallbacks, before.fallbacks, `${what}: no mask fell back to the JS heap`);
    assert.equal(s.jsMasks, before.jsMasks, `${what}: no mask lives outside WebAssembly memory`);
}

test('dispose() is idempotent, returns the memory, and a disposed mask throws a clear Error wherever it is used', () => {
    for (const [w, h] of [
        [32, 32],
        [300, 200]
    ]) {
        const before = kernelStats();
        const m = new Mask(w, h, true),
            other = new Mask(8, 8, true);
        assert.equal(m.disposed, false);
        if (wasmAvailable) assert.equal(kernelStats().wasmMasks, before.wasmMasks + 2);
        m.dispose();
        m.dispose();
        assert.equal(m.disposed, true);
        if (wasmAvailable) assert.equal(kernelStats().wasmMasks, before.wasmMasks + 1);
        const gone = /Mask \d+x\d+>\)? was disposed; create a new Mask/;
        const throwsGone = (fn: () => unknown) =>
            assert.throws(
                fn,
                (e: unknown) => e instanceof Error && !(e instanceof TypeError) && gone.test((e as Error).message)
            );
        throwsGone(() => m.words);
        throwsGone(() => m.count());
        throwsGone(() => m.overlaps(other, 0, 0));
        throwsGone(() => m.overlaps(other, 1e6, 1e6)); // even where the boxes miss
        throwsGone(() => other.overlaps(m, 0, 0));
        throwsGone(() => other.overlapArea(m, 1e6, 0));
        throwsGone(() => other.draw(m, 0, 0));
        throwsGone(() => m.overlapMask(other, 0, 0));
        throwsGone(() => other.overlapMask(other, 0, 0, m));
        throwsGone(() => m.clone());
        throwsGone(() => m.fill());
        throwsGone(() => new CollisionRaster(64, 64).stamp(m, 0, 0));
        throwsGone(() => overlapsMany([m, other], new Int32Array([0, 1, 0, 0]), new Uint8Array(1)));
        other.dispose();
    }
});

test('dispose() of masks on the JS heap (fromWords, the JS kernels) works the same', () => {
    const before = kernelStats();
    const m = Mask.fromWords(40, 3, new Uint32Array(6).fill(1));
    if (wasmAvailable)
        assert.equal(kernelStats().jsMasks, before.jsMasks + 1, 'fromWords words stay on the JS heap and are counted');
    m.dispose();
    assert.equal(kernelStats().jsMasks, before.jsMasks);
    assert.throws(() => m.get(0, 0) && m.words, /was disposed/);
    withKernels('js', () => {
        const j = new Mask(64, 64, true);
        assert.equal(j._ptr, -1);
        j.dispose();
        assert.throws(() => j.count(), /was disposed/);
    });
});

test('a rejected fromWords leaves nothing behind for the next mask', () => {
    // 32 x (2^28 + 1) needs one word more than allowed; the array is virtual memory, never touched.
    const huge = new Uint32Array(2 ** 28 + 1);
    assert.throws(
        () => Mask.fromWords(32, 2 ** 28 + 1, huge),
        (e: unknown) =>
            e instanceof RangeError &&
            /needs 268435457 words, more than the 268435456 allowed/.test((e as Error).message)
    );
    const next = new Mask(8, 8);
    assert.notEqual(next.words.buffer, huge.buffer);
    assert.equal(next.words.length, 8);
    assert.equal(next.count(), 0);
});

test('freed blocks are reused whatever their size, and reused memory reads as zero', { skip }, () => {
    const rnd = mulberry32(7);
    const before = kernelStats();
    for (let i = 0; i < 300; i++) {
        const w = 32 + Math.floor(rnd() * 2000),
            h = 1 + Math.floor(rnd() * 700);
        const m = new Mask(w, h);
        assert.ok(m._ptr >= 0);
        assert.equal(m.count(), 0, `fresh ${w}x${h} mask is empty`);
        m.fill();
        assert.equal(m.count(), w * h);
        m.dispose();
    }
    assertBounded(before, 0, 'random sizes');
    assert.ok(kernelStats().usedBytes <= before.usedBytes + 64 * 1024, 'every block went back');
});

test('(a) 1,000,000 masks of 32² created and disposed in one synchronous loop', { skip }, () => {
    const before = kernelStats(),
        other = new Mask(32, 32, true);
    let hits = 0;
    for (let i = 0; i < 1_000_000; i++) {
        const m = new Mask(32, 32);
        m.set(i & 31, (i >> 5) & 31);
        if (m._ptr < 0) assert.fail(`mask ${i} is not in WebAssembly memory`);
        hits += m.overlapArea(other, 0, 0);
        m.dispose();
    }
    assert.equal(hits, 1_000_000);
    assertBounded(before, 0, '(a) with dispose()');
    other.dispose();
});

test('(b) 20,000 overlapMask at 256² in one synchronous loop, with dispose()', { skip }, () => {
    const a = Ref.random(256, 256, 0.5, 1),
        b = Ref.random(256, 256, 0.5, 2);
    const ma = a.toMask(),
        mb = b.toMask(),
        before = kernelStats();
    for (let i = 0; i < 20_000; i++) {
        const o = ma.overlapMask(mb, (i % 41) - 20, (i % 37) - 18);
        if (o._ptr < 0) assert.fail(`result ${i} is not in WebAssembly memory`);
        if (i % 2000 === 0) assert.ok(sameMask(o, a.overlapMask(b, (i % 41) - 20, (i % 37) - 18)), `result ${i}`);
        o.dispose();
    }
    assertBounded(before, 0, '(b) with dispose()');
});

test('(c) 2,000 masks of random sizes from 64 KiB to 8 MiB created and disposed', { skip }, () => {
    const rnd = mulberry32(3),
        before = kernelStats();
    for (let i = 0; i < 2000; i++) {
        const bytes = 65536 + Math.floor(rnd() * (8 * MiB - 65536)),
            h = Math.ceil(bytes / 4 / 8);
        const m = new Mask(256, h);
        if (m._ptr < 0) assert.fail(`mask ${i} is not in WebAssembly memory`);
        m.set(255, h - 1);
        m.dispose();
    }
    assertBounded(before, 0, '(c) with dispose()');
});

test('(a) without dispose(): 1,000,000 dropped 32² masks, yielding every 10,000, stay bounded', { skip }, async () => {
    await tick();
    const before = kernelStats();
    for (let i = 0; i < 1_000_000; i++) {
        const m = new Mask(32, 32);
        m.set(i & 31, 3);
        if (i % 10_000 === 9_999) await tick();
    }
    assertBounded(before, 0, '(a) without dispose()');
});

// A disposed larger mask's token (registered once with the FinalizationRegistry) serves the next larger mask.
test('a larger mask disposed twice frees only its own block, though a new mask took over its token', { skip }, () => {
    const before = kernelStats();
    const m = new Mask(256, 256, true);
    m.dispose();
    const n = new Mask(256, 256, true);
    m.dispose();
    n.fill(); // the kernels write n's block: it must be n's alone
    assert.equal(kernelStats().wasmMasks, before.wasmMasks + 1);
    assert.equal(kernelStats().usedBytes, before.usedBytes + 8192);
    const o = new Mask(256, 256);
    assert.notEqual(o._ptr, n._ptr);
    assert.equal(o.count(), 0);
    assert.equal(n.count(), 256 * 256);
    n.dispose();
    o.dispose();
    assert.equal(kernelStats().wasmMasks, before.wasmMasks);
    assert.equal(kernelStats().usedBytes, before.usedBytes);
});

test(
    '(b) without dispose(): 40,000 overlapMask at 256², every other one dropped, yielding every 1,000, stay bounded',
    { skip },
    async () => {
        const ma = Ref.random(256, 256, 0.5, 1).toMask(),
            mb = Ref.random(256, 256, 0.5, 2).toMask();
        await tick();
        const before = kernelStats();
        for (let i = 0; i < 40_000; i++) {
            const o = ma.overlapMask(mb, (i % 41) - 20, (i % 37) - 18);
            if (o._ptr < 0) assert.fail(`result ${i} is not in WebAssembly memory`);
            if (i % 2 === 0) o.dispose(); // its token then goes with the next, dropped, result
            if (i % 1000 === 999) await tick();
        }
        assertBounded(before, 0, '(b) half dropped');
    }
);

// Exact accounting needs collections on demand: a child process with --expose-gc. Larger masks only (and
// a JS-heap one): small masks of the slab being filled are reclaimed once a new slab replaces it.
test(
    'dropped larger masks, with tokens new or reused from disposed masks, are all reclaimed after GC',
    { skip },
    () => {
        const script = `const { Mask, kernelStats } = await import(${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)});
const before = kernelStats();
(() => {
    const keep = [];
    for (let i = 0; i < 60; i++) keep.push(new Mask(256, 256, true), new Mask(600, 40));
    for (let i = 0; i < 60; i += 2) keep[i * 2].dispose(), keep[i * 2 + 1].dispose();
    for (let i = 0; i < 60; i++) keep.push(new Mask(256, 200, true), new Mask(900, 40));
    Mask.fromWords(32, 1, new Uint32Array(1));
})();
const during = kernelStats();
for (let i = 0; i < 50; i++) {
    globalThis.gc();
    await new Promise(r => setTimeout(r, 10));
    const s = kernelStats();
    if (s.wasmMasks === before.wasmMasks && s.jsMasks === before.jsMasks && s.usedBytes === before.usedBytes) break;
}
console.log(JSON.stringify({ before, during, after: kernelStats() }));`;
        const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], {
            cwd: fileURLToPath(new URL('..', import.meta.url)),
            encoding: 'utf8'
        });
        assert.equal(r.status, 0, r.stderr);
        type S = ReturnType<typeof kernelStats>;
        const { before, during, after } = JSON.parse(r.stdout) as { before: S; during: S; after: S };
        assert.equal(during.wasmMasks, before.wasmMasks + 120 - 60 + 120);
        assert.equal(during.jsMasks, before.jsMasks + 1);
        assert.equal(after.wasmMasks, before.wasmMasks, 'every dropped WebAssembly mask was reclaimed');
        assert.equal(after.jsMasks, before.jsMasks, 'the dropped fromWords mask was uncounted');
        assert.equal(after.usedBytes, before.usedBytes, 'every block and slab went back');
    }
);

test('a World keeps working after its masks are swapped and the old ones disposed', () => {
    const world = new World();
    const a = world.add({ x: 0, y: 0, mask: new Mask(16, 16, true) });
    world.add({ x: 8, y: 8, mask: new Mask(16, 16, true) });
    assert.equal(world.step(), 1);
    const old = a.mask as Mask;
    world.setMask(a, new Mask(4, 4, true));
    old.dispose();
    assert.equal(world.step(), 0);
    world.setMask(a, new Mask(20, 20, true));
    assert.equal(world.step(), 1);
});

test('limits names each ceiling once, frozen, and kernelStats() reports the memory ceiling in force under it', () => {
    assert.ok(Object.isFrozen(limits));
    assert.deepEqual(
        { ...limits },
        {
            coord: 2 ** 50,
            sweepPixels: 2 ** 20,
            pairs: 2 ** 20,
            rasterLayers: 32,
            rasterId: 2 ** 31 - 1,
            memoryBytes: 2 ** 30,
            transformPixels: 2 ** 26,
            transformCacheBytes: 2 ** 26,
            sheetFrames: 2 ** 17,
            sheetSlices: 2 ** 14,
            sheetBoxes: 2 ** 18,
            debrisPixels: 2 ** 28
        }
    );
    assert.throws(() => {
        (limits as { coord: number }).coord = 1;
    }, TypeError);
    assert.ok(kernelStats().memoryLimitBytes <= limits.memoryBytes);
});

test('the guides name limits by what users can read: limits.NAME keys that exist, no internal MAX_ constant', () => {
    const root = new URL('../', import.meta.url);
    const docs = ['README.md', ...readdirSync(new URL('docs/', root)).map(f => `docs/${f}`)].filter(
        // architecture.md maps the source files, constants included.
        f => f.endsWith('.md') && f !== 'docs/architecture.md'
    );
    for (const doc of docs) {
        const text = readFileSync(new URL(doc, root), 'utf8');
        for (const [, name] of text.matchAll(/`limits\.(\w+)`/g)) assert.ok(name in limits, `${doc}: limits.${name}`);
        assert.deepEqual(text.match(/`MAX_[A-Z_]+`/g), null, `${doc} names internal constants`);
    }
});

// Grows the WebAssembly memory: allocates 4 MiB masks until it grows (returns them, for dispose()).
function growMemory(): Mask[] {
    const start = kernelStats().memoryBytes,
        held: Mask[] = [];
    while (kernelStats().memoryBytes === start && held.length < 300) held.push(new Mask(4096, 8192));
    assert.ok(kernelStats().memoryBytes > start, 'the memory grew');
    return held;
}

// With shared memory a grown memory hands out a new buffer object, while `words` taken before keep viewing the old
// one over the same bytes: fromWords must copy them too, or the "copy" follows whatever mask gets those bytes next.
test(
    'fromWords copies words viewed before the memory grew: after dispose() and reuse the copy keeps its pixels',
    { skip },
    () =>
        withKernels('wasm', () => {
            const m = new Mask(256, 256);
            for (let i = 0; i < 256; i++) m.set(i, i);
            const held = growMemory();
            const c = Mask.fromWords(256, 256, m.words);
            c.set(10, 200);
            assert.equal(m.get(10, 200), false, 'writing the copy leaves the source alone');
            c.set(10, 200, false);
            m.dispose();
            for (const b of held) b.dispose();
            // Empty masks of the same size take the freed block; each knows its content box (none).
            const full = new Mask(256, 256, true),
                others = Array.from({ length: 8 }, () => new Mask(256, 256));
            for (const o of others) assert.equal(o.overlaps(full, 150, 150), false);
            assert.equal(c.count(), 256, "the copy keeps its pixels, not another mask's");
            for (let i = 0; i < 256; i++) assert.equal(c.get(i, i), true);
            c.clear().set(200, 200);
            assert.equal(c.get(200, 200), true);
            assert.equal(c.overlaps(full, 150, 150), true);
            for (const o of others) {
                assert.equal(o.count(), 0, 'writes to the copy reach no other mask');
                assert.equal(o.overlaps(full, 150, 150), false);
            }
            for (const o of [c, full, ...others]) o.dispose();
        })
);

test('fromWords never aliases WebAssembly memory after growth, on seeded random sizes and pixels', { skip }, () =>
    withKernels('wasm', () => {
        const rnd = mulberry32(41);
        const sizes = Array.from({ length: 24 }, () => [1 + Math.floor(rnd() * 600), 1 + Math.floor(rnd() * 300)]);
        const refs = sizes.map(([w, h], i) => Ref.random(w, h, 0.3, 4100 + i));
        const sources = refs.map(r => r.toMask());
        const held = growMemory();
        const copies = sources.map(s => Mask.fromWords(s.width, s.height, s.words));
        copies.forEach((c, i) => {
            c.invert();
            assert.ok(sameMask(sources[i], refs[i]), `${sources[i]}: writing its copy leaves it alone`);
            c.invert();
        });
        for (const s of sources) s.dispose();
        for (const b of held) b.dispose();
        // Empty masks of the same sizes take the freed bytes, with their content boxes known (none).
        const others = sizes.map(([w, h]) => new Mask(w, h));
        const fulls = sizes.map(([w, h]) => new Mask(w, h, true));
        others.forEach((o, i) => assert.equal(o.overlaps(fulls[i], 0, 0), false));
        copies.forEach((c, i) => {
            assert.ok(sameMask(c, refs[i]), `${c}: the copy keeps its pixels after its source was disposed`);
            c.fill();
            assert.equal(c.overlaps(fulls[i], 0, 0), true);
        });
        others.forEach((o, i) => {
            assert.equal(o.count(), 0, `${o}: writes to the copies reach no other mask`);
            assert.equal(o.overlaps(fulls[i], 0, 0), false);
        });
        for (const o of [...copies, ...others, ...fulls]) o.dispose();
    })
);
