// @test fast no-shared
// World snapshots for rollback: a restored World replays the same changes to the same pairs, events and hashes;
// restore fires no events, revives the handles of removed bodies and removes bodies added since; corrupt or
// foreign bytes change nothing; hashes agree across kernel paths (and, in test/world-snapshot-browser.test.ts,
// with Chromium); a game loop's snapshot(out) allocates nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mask, TileMap, World, setKernels, type Body } from '../src/index.js';
import {
    listen,
    rng,
    runScenario,
    scenarioMasks,
    scenarioStep,
    scenarioWorld,
    type ScenarioLog
} from './rollback-scenario.js';
import { testKernels } from './reference.js';
import { allocations } from './work.js';
import { SnapshotWriter, sumBytes } from '../src/base/snapshot-bytes.js';
import { execFileSync } from 'node:child_process';

const SEEDS = Number(process.env.HITMASK_SNAPSHOT_SEEDS ?? 12);

testKernels('restore, then the same changes: the same pairs, events and hashes as the first time', () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
        const masks = scenarioMasks(seed),
            world = scenarioWorld(masks),
            bodies: Body<number>[] = [];
        const log: ScenarioLog = { hashes: [], events: [], pairs: [] };
        listen(world, log);
        const rnd = rng(seed * 31 + 7);
        const warm = 5 + (seed % 7);
        for (let s = 0; s < warm; s++) scenarioStep(world, masks, bodies, rnd, log);
        // Save the World, the game's handle list and the generator's position (a game saves its inputs instead).
        const bytes = world.snapshot(),
            hash = world.hash(),
            kept = bodies.length,
            seedAt = rnd() * 2 ** 32;
        const saved = describeBodies(world, bodies);
        const first: ScenarioLog = { hashes: [], events: [], pairs: [] };
        log.events.length = 0;
        const again = rng(seedAt);
        for (let s = 0; s < 12; s++) scenarioStep(world, masks, bodies, again, first);
        first.events = log.events.slice();
        // Roll back and replay.
        log.events.length = 0;
        world.restore(bytes);
        assert.deepEqual(log.events, [], 'restore fires no events');
        assert.equal(world.hash(), hash, `seed ${seed}: the hash after restore is the hash at the snapshot`);
        assert.deepEqual(describeBodies(world, bodies.slice(0, kept)), saved, `seed ${seed}: every body as it was`);
        assert.ok(
            bodies.slice(kept).every(b => b.removed),
            'bodies added after the snapshot are removed'
        );
        bodies.length = kept;
        const second: ScenarioLog = { hashes: [], events: [], pairs: [] };
        const replay = rng(seedAt);
        for (let s = 0; s < 12; s++) scenarioStep(world, masks, bodies, replay, second);
        second.events = log.events.slice();
        assert.deepEqual(second.pairs, first.pairs, `seed ${seed}: pairs per step`);
        assert.deepEqual(second.events, first.events, `seed ${seed}: events`);
        assert.deepEqual(second.hashes, first.hashes, `seed ${seed}: hashes`);
        assert.ok(first.pairs.some(n => n > 0) && first.events.length > 0, `seed ${seed} collides at all`);
    }
});

// Every live body as the public API shows it: position, filter, transform, placed mask (size, place and pixels).
function describeBodies(world: World<number>, bodies: readonly Body<number>[]): string[] {
    return bodies
        .filter(b => world.has(b))
        .map(b => {
            const p = world.placedMask(b);
            return JSON.stringify([
                b.id,
                b.data,
                b.x,
                b.y,
                world.getFilter(b),
                world.getTransform(b),
                p.x,
                p.y,
                p.mask.width,
                p.mask.height,
                p.mask.toText()
            ]);
        });
}

test('the same scenario gives the same hashes and events on the WebAssembly and the JS kernels', () => {
    const wasm = runScenario(5, 40);
    setKernels('js');
    try {
        assert.deepEqual(runScenario(5, 40), wasm);
    } finally {
        setKernels('wasm');
    }
    assert.ok(wasm.events.length > 20, `${wasm.events.length} events`);
    assert.equal(new Set(wasm.hashes).size > 30, true, 'the hash changes as the World does');
});

test('restore revives removed bodies (the same handles, with their data) and removes bodies added since', () => {
    const world = new World<string>(),
        m = new Mask(4, 4, true);
    const a = world.add({ x: 0, y: 0, mask: m, data: 'a' }),
        b = world.add({ x: 2, y: 2, mask: m, data: 'b' });
    const begins: string[] = [];
    world.on('begin', (p, q) => begins.push(`${p.data}${q.data}`));
    world.on('end', (p, q) => begins.push(`end ${p.data}${q.data}`));
    assert.equal(world.step(), 1);
    const bytes = world.snapshot();
    world.remove(b);
    const c = world.add({ x: 1, y: 1, mask: m, data: 'c' });
    world.move(a, 100, 0);
    assert.equal(world.step(), 0);
    world.restore(bytes);
    assert.equal(b.removed, false, 'b is back');
    assert.equal(c.removed, true, 'c, added after the snapshot, is gone');
    assert.equal(world.has(b), true);
    assert.equal(world.size, 2);
    assert.deepEqual([a.x, a.y, b.data], [0, 0, 'b']);
    begins.length = 0;
    // The pair a–b was overlapping at the snapshot: the next step says `stay`, not `begin`.
    world.on('stay', (p, q) => begins.push(`stay ${p.data}${q.data}`));
    assert.equal(world.step(), 1);
    assert.deepEqual(begins, ['stay ab']);
    // A body added after the restore gets the id c had: the ids continue from the snapshot.
    const d = world.add({ x: 50, y: 50, mask: m, data: 'd' });
    assert.equal(d.id, c.id);
});

test('restore refuses corrupt, truncated and foreign bytes with an Error and changes nothing', () => {
    const world = new World(),
        m = new Mask(3, 3, true);
    world.add({ x: 0, y: 0, mask: m });
    world.add({ x: 1, y: 1, mask: m, angle: 1 });
    world.step();
    const bytes = world.snapshot(),
        hash = world.hash();
    world.add({ x: 9, y: 9, mask: m });
    const before = world.hash();
    assert.throws(
        () => world.restore(bytes.subarray(0, bytes.length - 3)),
        /^Error: world\.restore\(\): the snapshot's checksum does not match its bytes; it is corrupt or truncated\.$/
    );
    // Cut and sealed again (what a forger does): the data ends early.
    assert.throws(
        () => world.restore(reseal(bytes.slice(0, bytes.length - 16))),
        /^Error: world\.restore\(\): the snapshot ends after/
    );
    assert.throws(
        () => world.restore(new Uint8Array(40)),
        /^Error: world\.restore\(\): these bytes are not a World snapshot/
    );
    const extra = new Uint8Array(bytes.length + 4);
    extra.set(bytes);
    assert.throws(() => world.restore(reseal(extra)), /has 4 bytes after its data/);
    const huge = bytes.slice();
    new DataView(huge.buffer).setUint32(24, 0xffffffff, true);
    assert.throws(
        () => world.restore(reseal(huge)),
        /the body count is 4294967295 in the snapshot, more than the \d+ it can hold/
    );
    assert.throws(() => world.restore('x' as never), /^TypeError: restore\(\) needs the Uint8Array/);
    // Another World's masks are not this World's: the ids name nothing here.
    const other = new World();
    other.add({ x: 0, y: 0, mask: new Mask(2, 2, true) });
    assert.throws(
        () => world.restore(other.snapshot()),
        /^Error: world\.restore\(\): the snapshot was taken by another World/
    );
    assert.equal(world.hash(), before, 'nothing changed');
    world.restore(bytes);
    assert.equal(world.hash(), hash);
});

test('a disposed mask makes restore throw before anything changes', () => {
    const world = new World(),
        m = new Mask(3, 3, true),
        keep = new Mask(2, 2, true);
    world.add({ x: 0, y: 0, mask: m });
    const bytes = world.snapshot();
    world.add({ x: 5, y: 5, mask: keep });
    const before = world.hash();
    world.remove([...world.queryPoint(0, 0)][0]);
    const after = world.hash();
    m.dispose();
    assert.throws(() => world.restore(bytes), /mask \(<Mask 3x3>\) was disposed since the snapshot/);
    assert.equal(world.hash(), after);
    void before;
});

test('hash names masks by their pixels: equal Worlds built apart hash equal; any change shows', () => {
    const build = (m: Mask) => {
        const w = new World();
        w.add({ x: 1.5, y: 2, mask: m, angle: 0.5 });
        w.add({ x: 3, y: 2, mask: m.clone() });
        w.step();
        return w;
    };
    const m = Mask.fromText('##.\n###\n.#.');
    const a = build(m),
        b = build(Mask.fromText('##.\n###\n.#.'));
    assert.equal(a.hash(), b.hash());
    const c = build(Mask.fromText('##.\n###\n.##'));
    assert.notEqual(a.hash(), c.hash(), 'one pixel of a mask');
    const [first] = a.queryPoint(2, 3);
    a.move(first, 1.5 + 2 ** -30, 2);
    assert.notEqual(a.hash(), b.hash(), 'a position that floors the same still differs');
});

test('a game loop: snapshot(out) into a reused buffer and restore allocate no new bytes', () => {
    const world = new World(),
        m = new Mask(8, 8, true),
        bodies: Body<unknown>[] = [];
    for (let i = 0; i < 500; i++)
        bodies.push(world.add({ x: (i * 13) % 400, y: (i * 7) % 300, mask: m, angle: i % 3 ? 0 : 0.3 }));
    const out = new Uint8Array(1 << 20);
    world.step();
    world.snapshot(out);
    world.snapshot(out);
    const ring = [new Uint8Array(1 << 20), new Uint8Array(1 << 20)],
        saved = [world.snapshot(ring[0]), world.snapshot(ring[1])];
    world.restore(saved[0]);
    const seen = allocations(() => {
        for (let f = 0; f < 20; f++) {
            for (const b of bodies) world.move(b, b.x + 1, b.y);
            world.step();
            world.snapshot(out);
            // A rollback: the frame before, then this one again.
            saved[f & 1] = world.snapshot(ring[f & 1]);
            world.restore(saved[(f + 1) & 1]);
            world.restore(saved[f & 1]);
        }
    });
    assert.equal(seen.bytes, 0, `${seen.count} typed arrays, ${seen.bytes} bytes`);
});

test('a restore sets back masks, transforms and filters changed since, through any branch of changes', () => {
    const world = new World(),
        a = new Mask(4, 4, true),
        b = Mask.fromText('#.\n.#'),
        bodies: Body<unknown>[] = [];
    for (let i = 0; i < 40; i++)
        bodies.push(world.add({ x: i * 3, y: i % 5, mask: i % 2 ? a : b, angle: i % 7 === 0 ? 0.4 : 0 }));
    world.step();
    const s0 = world.snapshot(),
        h0 = world.hash();
    world.setFilter(bodies[3], { category: 4 });
    world.move(bodies[5], 100, 100);
    const s1 = world.snapshot(),
        h1 = world.hash();
    world.restore(s0);
    assert.equal(world.hash(), h0);
    assert.equal(world.getFilter(bodies[3]).category, 1);
    // Another branch: a different change after the same snapshot must not pass for the first one.
    world.setFilter(bodies[3], { category: 8 });
    world.setMask(bodies[6], a);
    world.setTransform(bodies[7], { angle: 1 });
    const h2 = world.hash();
    world.restore(s1);
    assert.equal(world.hash(), h1, 'the first branch, whole');
    assert.equal(world.getFilter(bodies[3]).category, 4);
    assert.equal(world.placedMask(bodies[6]).mask.width, 2);
    assert.equal(world.getTransform(bodies[7]).angle, 0.4);
    world.restore(s0);
    assert.equal(world.hash(), h0);
    // Positions only: the same bodies, masks and filters; each restore is exact both ways.
    for (let f = 0; f < 5; f++) {
        for (const body of bodies) world.move(body, body.x + 1.5, body.y - 0.25);
        world.step();
        const s = world.snapshot(),
            h = world.hash();
        world.restore(s0);
        assert.equal(world.hash(), h0);
        world.restore(s);
        assert.equal(world.hash(), h);
    }
    assert.notEqual(h2, h1);
});

test('after a restore of positions only, the next step finds the pairs of the restored places', () => {
    const world = new World(),
        m = new Mask(8, 8, true),
        bodies: Body<unknown>[] = [];
    // A row of pairs; far apart from each other, so the grid has many cells.
    for (let i = 0; i < 200; i++) bodies.push(world.add({ x: (i >> 1) * 100 + (i & 1) * 4, y: 0, mask: m }));
    assert.equal(world.step(), 100);
    const saved = world.snapshot();
    for (let i = 1; i < 200; i += 2) world.move(bodies[i], bodies[i].x + 50, 500);
    assert.equal(world.step(), 0);
    world.restore(saved);
    assert.equal(world.step(), 100, 'every pair is back');
    world.restore(saved);
    for (let i = 0; i < 200; i += 2) world.move(bodies[i], bodies[i].x, 1000);
    assert.equal(world.step(), 0);
});

test('snapshot(out) into a view at any byte offset restores the same', () => {
    const world = new World(),
        m = new Mask(5, 5, true),
        bodies: Body<unknown>[] = [];
    for (let i = 0; i < 30; i++) bodies.push(world.add({ x: i * 2.5, y: i % 3, mask: m, angle: i % 4 ? 0 : 0.7 }));
    world.step();
    const h = world.hash(),
        plain = world.snapshot(),
        big = new Uint8Array(plain.length + 16);
    for (const at of [1, 3, 4, 8]) {
        const bytes = world.snapshot(big.subarray(at));
        assert.equal(bytes.buffer, big.buffer, `offset ${at}: written into out`);
        assert.deepEqual(bytes, plain);
        world.move(bodies[at], 40, 40);
        world.restore(bytes);
        assert.equal(world.hash(), h, `offset ${at}`);
    }
});

test('snapshot bytes: a writer given an out too small, call after call, keeps one buffer of its own', () => {
    const w = new SnapshotWriter(),
        small = new Uint8Array(16),
        data = new Int32Array(5000).map((_, i) => i * 7);
    let first: Uint8Array | null = null;
    for (let k = 0; k < 40; k++) {
        w.reset(small).u32(k).i32s(data);
        const bytes = w.bytes(small);
        assert.equal(bytes.length, 4 + 4 * data.length);
        assert.notEqual(bytes.buffer, small.buffer, 'an out too small is not returned');
        assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getInt32(4 + 4 * 4999, true), 4999 * 7);
        first ??= bytes;
    }
    const seen = allocations(() => {
        for (let k = 0; k < 10; k++) w.reset(small).u32(k).i32s(data);
    });
    assert.equal(seen.count, 0, `the own buffer is reused (${seen.count} made, ${seen.bytes} bytes)`);
});

test('forged bytes (bit flips, cuts, sealed again): an Error, the World unchanged, or a World that steps', () => {
    let seed = 9;
    const rnd = () => ((seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0) >>> 0) / 2 ** 32;
    const world = new World(),
        masks = [new Mask(5, 5, true), Mask.fromText('##.\n.##'), new Mask(9, 3, true)],
        bodies: Body<unknown>[] = [];
    for (let i = 0; i < 60; i++)
        bodies.push(
            world.add({
                x: rnd() * 100,
                y: rnd() * 60,
                mask: masks[i % 3],
                angle: i % 7 === 0 ? 0.3 : 0,
                oneWay: i % 11 === 0
            })
        );
    world.step();
    const saved = world.snapshot();
    let threw = 0,
        took = 0;
    for (let k = 0; k < 3000; k++) {
        world.restore(saved);
        for (let i = 0; i < 5; i++) world.move(bodies[i], rnd() * 100, rnd() * 60);
        if (k % 3 === 0) world.setFilter(bodies[7], { category: 2 }); // the other path: not only positions differ
        const before = world.hash(),
            bad = saved.slice();
        // Flips in the data (the checksum sealed again, as a forger would: every flip is refused otherwise).
        for (let f = 1 + Math.floor(rnd() * 3); f > 0; f--)
            bad[Math.floor(rnd() * (bad.length - 4))] ^= 1 << Math.floor(rnd() * 8);
        try {
            world.restore(rnd() < 0.2 ? reseal(bad.slice(0, 4 + Math.floor(rnd() * (bad.length - 4)))) : reseal(bad));
            took++;
            world.step();
        } catch (e) {
            threw++;
            assert.ok(
                e instanceof Error && e.constructor === Error && e.message.startsWith('world.restore(): '),
                String(e)
            );
            assert.equal(world.hash(), before, `nothing changed: ${(e as Error).message}`);
        }
    }
    assert.ok(threw > 1000 && took > 500, `${threw} refused, ${took} taken`);
    // A transform no mask can take (the scale field of the first transform set to Infinity) is refused up front.
    const at = transformAt(saved);
    const bad = saved.slice();
    new DataView(bad.buffer).setFloat64(at + 8 + 8, Infinity, true);
    world.setFilter(bodies[7], { category: 8 });
    const before = world.hash();
    assert.throws(
        () => world.restore(reseal(bad)),
        /^Error: world\.restore\(\): body \d+'s transform cannot be applied \(scaleX must be a finite number > 0/
    );
    assert.equal(world.hash(), before);
});

// Byte offset of the first transform record of a World snapshot (after the header and the slot columns).
function transformAt(bytes: Uint8Array): number {
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const n = v.getUint32(24, true),
        used = v.getUint32(28, true);
    let at = 44; // header: 4 u32 (tag, version, identity), f64, 5 u32
    at = (at + 7) & ~7;
    at += 24 * used; // ids, x, y
    at += 20 * used + 4 * n; // mask ids, category, collidesWith, group, flags; the id order
    return at;
}

// The bytes with their checksum (the last 4 bytes) computed again: what someone forging a snapshot does.
function reseal(bytes: Uint8Array): Uint8Array {
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(bytes.length - 4, sumBytes(bytes, bytes.length - 4), true);
    return bytes;
}

test('every single-bit flip of a World snapshot is refused, with the World unchanged', () => {
    const world = new World(),
        m = new Mask(4, 4, true),
        bodies: Body<unknown>[] = [];
    for (let i = 0; i < 8; i++)
        bodies.push(
            world.add({ x: i * 3, y: i % 2, mask: i % 3 ? m : Mask.fromText('##\n#.'), angle: i === 2 ? 1 : 0 })
        );
    world.addLayer(new TileMap(8, 8, 2, 1, [new Mask(8, 8, true)], [0, -1]), { oneWay: true });
    world.step();
    const saved = world.snapshot(),
        h0 = world.hash();
    // The World moved on since: a refused restore must leave it there.
    world.move(bodies[1], 50, 50);
    world.setFilter(bodies[2], { category: 4 });
    world.remove(bodies[3]);
    world.step();
    const before = world.hash();
    let refused = 0;
    for (let bit = 0; bit < 8 * saved.length; bit++) {
        const bad = saved.slice();
        bad[bit >> 3] ^= 1 << (bit & 7);
        try {
            world.restore(bad);
            assert.equal(world.hash(), h0, `bit ${bit} restored into a different World`);
            world.restore(saved);
            assert.fail(`bit ${bit} was taken`);
        } catch (e) {
            assert.ok(e instanceof Error && e.constructor === Error, String(e));
            assert.match((e as Error).message, /^world\.restore\(\): /);
            refused++;
        }
        assert.equal(world.hash(), before, `bit ${bit}: nothing changed`);
    }
    assert.equal(refused, 8 * saved.length);
    world.restore(saved);
    assert.equal(world.hash(), h0);
});

test('a snapshot of a World in another process is refused: the identity is random, not a counter', () => {
    // The first World to take a snapshot in a fresh process, as the first one here (a per-process counter
    // named both 1, and the other process's masks were taken for this World's).
    const code = [
        "const { Mask, World } = await import('./src/index.ts');",
        'const w = new World();',
        'w.add({ x: 0, y: 0, mask: new Mask(2, 2, true) });',
        "process.stdout.write(Buffer.from(w.snapshot()).toString('base64'));"
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
        encoding: 'utf8'
    });
    const foreign = new Uint8Array(Buffer.from(out, 'base64'));
    const world = new World();
    world.add({ x: 5, y: 5, mask: new Mask(3, 3, true) });
    world.snapshot();
    const before = world.hash();
    assert.throws(() => world.restore(foreign), /^Error: world\.restore\(\): the snapshot was taken by another World/);
    assert.equal(world.hash(), before);
    // Two Worlds of one process never share an identity either.
    const a = new World(),
        b = new World();
    assert.notDeepEqual(a.snapshot().subarray(8, 16), b.snapshot().subarray(8, 16));
});

test('forged snapshots are refused with nothing changed: a layer twice, a next id never written', () => {
    const world = new World(),
        m = new Mask(4, 4, true);
    const a = world.add({ x: 0, y: 0, mask: m });
    const tile = new Mask(8, 8, true);
    const l1 = world.addLayer(new TileMap(8, 8, 1, 1, [tile], [0]));
    const l2 = world.addLayer(new TileMap(8, 8, 1, 1, [tile], [0]), { category: 2 });
    world.step();
    const saved = world.snapshot(),
        h0 = world.hash();
    world.move(a, 30, 30);
    const before = world.hash();
    const v = new DataView(saved.buffer, saved.byteOffset);
    // The layers are the last records before the pairs and the checksum: 20 bytes each.
    const np = v.getUint32(40, true),
        layersAt = saved.length - 4 - 8 * np - 40;
    assert.equal(v.getFloat64(layersAt, true), l1.id);
    assert.equal(v.getFloat64(layersAt + 20, true), l2.id);
    const twice = saved.slice();
    new DataView(twice.buffer).setFloat64(layersAt + 20, l1.id, true);
    assert.throws(() => world.restore(reseal(twice)), /^Error: world\.restore\(\): layer \d+ is listed twice/);
    const swapped = saved.slice();
    new DataView(swapped.buffer).setFloat64(layersAt, l2.id, true);
    new DataView(swapped.buffer).setFloat64(layersAt + 20, l1.id, true);
    assert.throws(() => world.restore(reseal(swapped)), /layer \d+ is listed out of order/);
    const ahead = saved.slice();
    new DataView(ahead.buffer).setFloat64(16, 1e6, true);
    assert.throws(
        () => world.restore(reseal(ahead)),
        /^Error: world\.restore\(\): the next id is 1000000, but this World's snapshots wrote next ids 1\.\.4/
    );
    assert.equal(world.hash(), before, 'nothing changed');
    world.restore(saved);
    assert.equal(world.hash(), h0);
    world.remove(l2);
    assert.deepEqual(
        world.collisions().map(p => [p.a.id, p.b.id]),
        [[a.id, l1.id]],
        'the removed layer is gone'
    );
});

test('a forged filter or mask taken once does not make a later honest restore keep it', () => {
    const world = new World(),
        m = new Mask(4, 4, true),
        n = Mask.fromText('#.\n.#'),
        bodies: Body<unknown>[] = [];
    for (let i = 0; i < 5; i++) bodies.push(world.add({ x: i * 2, y: 0, mask: i === 4 ? n : m }));
    world.step();
    const saved = world.snapshot(),
        h0 = world.hash();
    const v = new DataView(saved.buffer, saved.byteOffset);
    const used = v.getUint32(28, true),
        masksAt = 48 + 24 * used,
        catAt = masksAt + 4 * used;
    // The same bodies in the same slots with body 0's category and body 1's mask changed: the World could
    // have written that, so it is taken; but nothing in the bytes may vouch that the honest bytes hold it too.
    const forged = saved.slice(),
        f = new DataView(forged.buffer);
    f.setInt32(catAt, 0x40, true);
    f.setInt32(masksAt + 4, f.getInt32(masksAt + 16, true), true);
    for (let k = 0; k < 3; k++) {
        world.restore(reseal(forged));
        assert.equal(world.getFilter(bodies[0]).category, 0x40);
        assert.equal(bodies[1].mask, n);
        world.restore(saved);
        assert.equal(world.getFilter(bodies[0]).category, 1, 'the honest filter is back');
        assert.equal(bodies[1].mask, m, 'the honest mask is back');
        assert.equal(world.hash(), h0);
        // The positions-only path after an honest restore still works both ways.
        world.move(bodies[2], 40, 40);
        world.restore(saved);
        assert.equal(world.hash(), h0);
    }
});
