// @test fast
// The World under careless and hostile use: callbacks that throw keep begin/stay/end balanced, a pile of
// bodies on one spot fails fast with a RangeError in bounded memory, and sweeps are bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limits, Mask, TileMap, World, type Body } from '../src/index.js';
import { allocations, cost, costText, type Cost } from './work.js';

const square = (n: number) => new Mask(n, n, true);

test('a throwing listener or body callback: every event is still delivered, pairs are committed, step() rethrows after', () => {
    const world = new World<string>();
    const log: string[] = [];
    const a = world.add({ x: 0, y: 0, mask: square(10), data: 'a' });
    const b = world.add({ x: 5, y: 5, mask: square(10), data: 'b' });
    const c = world.add({ x: 100, y: 0, mask: square(10), data: 'c' });
    const d = world.add({ x: 105, y: 5, mask: square(10), data: 'd' });
    const name = (x: Body<string>, y: Body<string>) => `${x.data}${y.data}`;
    world.on('begin', (x, y) => {
        log.push(`begin ${name(x, y)}`);
        if (x === a) throw new Error('listener failed');
    });
    world.on('stay', (x, y) => log.push(`stay ${name(x, y)}`));
    world.on('end', (x, y) => log.push(`end ${name(x, y)}`));
    assert.throws(() => world.step(), /listener failed/);
    assert.deepEqual(log, ['begin ab', 'begin cd'], 'the pair after the throwing callback still got its begin');
    log.length = 0;
    assert.equal(world.step(), 2);
    assert.deepEqual(log, ['stay ab', 'stay cd'], 'no second begin: the pairs were committed');
    log.length = 0;
    world.move(b, 50, 50);
    world.move(d, 150, 50);
    assert.equal(world.step(), 0);
    assert.deepEqual(log, ['end ab', 'end cd']);
    void c;
});

test('several listeners throwing in one step give one AggregateError with every error', () => {
    const world = new World();
    const a = world.add({ x: 0, y: 0, mask: square(4) });
    world.add({ x: 2, y: 2, mask: square(4) });
    world.on('begin', () => {
        throw new Error('first');
    });
    world.on('begin', () => {
        throw new RangeError('second');
    });
    assert.throws(
        () => world.step(),
        (e: unknown) =>
            e instanceof AggregateError &&
            e.errors.length === 2 &&
            (e.errors[0] as Error).message === 'first' &&
            e.errors[1] instanceof RangeError &&
            /2 collision listeners threw/.test(e.message)
    );
    assert.equal(world.step(), 1, 'the World goes on; no begin again');
    void a;
});

test('bodies piled on one spot: a RangeError naming the limit, fast, in bounded memory, and the World stays usable', t => {
    // Empty 512x512 masks: boxes that overlap, pixels that never do, so testing a pair scans its whole zone.
    // 5,790 bodies make 16.76 million pairs: under the old cap of 2^24, a 30 s, 2.66 GB step.
    const world = new World(),
        m = new Mask(512, 512),
        bodies: Body<unknown>[] = [];
    for (let i = 0; i < 5790; i++) bodies.push(world.add({ x: 0, y: 0, mask: m }));
    let c: Cost<void> = { value: undefined, cpuMs: 0, wallMs: 0 };
    const alloc = allocations(() => {
        c = cost(() =>
            assert.throws(
                () => world.step(),
                (e: unknown) =>
                    e instanceof RangeError &&
                    new RegExp(`more than ${limits.pairs} pairs of bodies whose boxes overlap`).test(e.message)
            )
        );
    });
    t.diagnostic(`refused in ${costText(c)}, ${alloc.bytes} bytes allocated, the largest array ${alloc.largest} bytes`);
    // Refused while the boxes are paired, before any pixel test: a fraction of a second. Refusing after testing
    // the pairs took 17 s of CPU (the check moved after the narrow phase).
    assert.ok(c.cpuMs < 4000, `refused after ${costText(c)}: were the pairs tested before the limit applied?`);
    // The pair array stops at limits.pairs × 16 bytes (16 MiB); nothing else of the step is as large.
    assert.ok(alloc.largest <= 16 * limits.pairs, `the largest array of the refused step is ${alloc.largest} bytes`);
    assert.ok(alloc.bytes <= 128 * limits.pairs, `the refused step allocated ${alloc.bytes} bytes`);
    for (const b of bodies.slice(100)) world.remove(b);
    const full = square(8);
    for (const b of bodies.slice(0, 100)) world.setMask(b, full);
    assert.equal(world.step(), (100 * 99) / 2);
});

test('sweep() refuses paths past limits.sweepPixels pixel steps at once, and works below it, with a layer present', t => {
    const world = new World();
    world.addLayer(new TileMap(8, 8, 4, 1, [square(8)], [-1, -1, -1, 0]));
    const mover = world.add({ x: 0, y: 0, mask: square(4) });
    const c = cost(() => {
        assert.throws(
            () => world.sweep(mover, 2 ** 40, 0),
            (e: unknown) =>
                e instanceof RangeError &&
                /is 1099511627776 pixel steps, more than the 1048576 allowed.*shorter segments/.test(e.message)
        );
        assert.throws(() => world.sweep(mover, limits.sweepPixels / 2 + 1, -limits.sweepPixels / 2), RangeError);
    });
    t.diagnostic(`refused in ${costText(c)}`);
    assert.ok(c.cpuMs < 1000, `refused after ${costText(c)}: the path was walked before the limit applied`);
    // The wall tile covers x 24..31 at y 0..7: a 4-px mover stops touching it at x = 21 (last free x 20).
    const hit = world.sweep(mover, 100, 0);
    assert.ok(hit !== null && hit.x === 21 && hit.freeX === 20, JSON.stringify(hit && { x: hit.x, freeX: hit.freeX }));
    assert.equal(world.sweep(mover, limits.sweepPixels, 0)?.x, 21, 'the longest allowed sweep runs');
});

test('a layer whose bounds() returns nonsense or throws: a clear error from step(), and the World stays usable', () => {
    const map = new TileMap(8, 8, 4, 4, [square(8)], new Array(16).fill(0));
    let answer: unknown = { x: 0, y: 0, width: 32, height: 32 };
    const layer = {
        overlaps: map.overlaps.bind(map),
        overlapArea: map.overlapArea.bind(map),
        overlap: map.overlap.bind(map),
        hitTest: map.hitTest.bind(map),
        bounds: () => {
            if (answer instanceof Error) throw answer;
            return answer as never;
        }
    };
    const world = new World<string>();
    world.add({ x: 4, y: 4, mask: square(4), data: 'inside' });
    world.add({ x: 100, y: 4, mask: square(4), data: 'outside' });
    const ground = world.addLayer(layer, { data: 'ground' });
    const log: string[] = [];
    world
        .on('begin', (a, b) => log.push(`begin ${a.data}-${b.data}`))
        .on('end', (a, b) => log.push(`end ${a.data}-${b.data}`));
    assert.equal(world.step(), 1);
    for (const [bad, type, re] of [
        [42, TypeError, /bounds\(\) must return \{ x, y, width, height \} or null, got 42/],
        [{ x: NaN, y: 0, width: 1, height: 1 }, RangeError, /x: NaN/],
        [{ x: 0, y: 0, width: -1, height: 1 }, RangeError, /width: -1/],
        [{ x: 0, y: 0, width: 1 }, RangeError, /height: undefined/],
        [new Error('bounds failed'), Error, /bounds failed/]
    ] as const) {
        answer = bad;
        assert.throws(
            () => world.step(),
            (e: Error) => e instanceof type && re.test(e.message),
            String(bad)
        );
    }
    answer = null;
    assert.equal(world.step(), 0, 'an empty layer meets nothing');
    assert.deepEqual(log, ['begin inside-ground', 'end inside-ground'], 'the failed steps fired nothing');
    answer = { x: 0, y: 0, width: 32, height: 32 };
    assert.equal(world.step(), 1);
    assert.equal(world.collisions()[0].b, ground);
});
