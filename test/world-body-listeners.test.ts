// @test fast no-shared
// Per-body listeners, world.on(event, body, fn): each body of a pair is told with the other, after the World's
// listeners, `a` before `b`; removals inside one and listeners that throw behave as for pair listeners. Checked
// against a reference that dispatches by hand from pair events, over seeded scenarios.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mask, TileMap, World, type Body, type BodyListener, type WorldEvent } from '../src/index.js';
import { mulberry32 } from './reference.js';

const EVENTS: readonly WorldEvent[] = ['begin', 'stay', 'end'];
const box = (w: number, h: number): Mask => new Mask(w, h, true);

test('each body is told with the other, after the World listeners, a before b; layers too; off removes one', () => {
    const world = new World<string>();
    const log: string[] = [];
    const a = world.add({ x: 0, y: 0, mask: box(5, 5), data: 'a' });
    const b = world.add({ x: 3, y: 3, mask: box(5, 5), data: 'b' });
    const c = world.add({ x: 40, y: 40, mask: box(5, 5), data: 'c' });
    const ground = world.addLayer(new TileMap(8, 8, 1, 1, [box(8, 8)], [0]), { data: 'ground' });
    const tell =
        (who: string): BodyListener<string> =>
        (self, other) =>
            log.push(`${who}: ${self.data} hit ${other.data}`);
    const second = tell('b again');
    world.on('begin', b, tell('b'));
    world.on('begin', a, tell('a'));
    world.on('begin', b, second);
    world.on('begin', ground, tell('ground'));
    world.on('begin', (p, q) => log.push(`world: ${p.data}-${q.data}`));
    world.on('end', a, tell('a ends'));
    world.on('stay', c, tell('c'));
    assert.equal(world.step(), 3);
    assert.deepEqual(log, [
        'world: a-b',
        'a: a hit b',
        'b: b hit a',
        'b again: b hit a',
        'world: a-ground',
        'a: a hit ground',
        'ground: ground hit a',
        'world: b-ground',
        'b: b hit ground',
        'b again: b hit ground',
        'ground: ground hit b'
    ]);
    log.length = 0;
    world.off('begin', b, second);
    world.off('begin', a, second); // not registered there: nothing happens
    world.move(a, 100, 100);
    world.move(c, 2, 2);
    world.step();
    // In the merged pair order: the ends of a's pairs come first (a has the lowest id); c has only a stay listener.
    assert.deepEqual(log, [
        'a ends: a hit b',
        'a ends: a hit ground',
        'world: b-c',
        'b: b hit c',
        'world: c-ground',
        'ground: ground hit c'
    ]);
    log.length = 0;
    world.step();
    assert.deepEqual(log, ['c: c hit b', 'c: c hit ground']);
});

test('world.on(event, body, fn): errors name what is wrong', () => {
    const world = new World(),
        other = new World(),
        m = box(2, 2);
    const b = world.add({ x: 0, y: 0, mask: m }),
        elsewhere = other.add({ x: 0, y: 0, mask: m });
    const fn = () => {};
    assert.throws(() => world.on('begin', {} as Body, fn), {
        name: 'TypeError',
        message: 'on(event, body, listener) needs a Body from world.add() or world.addLayer(), got Object.'
    });
    assert.throws(() => world.on('begin', fn as never, fn), { name: 'TypeError', message: /got function\./ });
    assert.throws(() => world.on('begin', elsewhere, fn), /^Error: on\(\): <Body 1> belongs to another World\.$/);
    assert.throws(() => world.off('stay', elsewhere, fn), /^Error: off\(\): <Body 1> belongs to another World\.$/);
    assert.throws(() => world.on('begin', b, 5 as never), /^TypeError: listener must be a function, got 5/);
    assert.throws(() => world.on('hit' as WorldEvent, b, fn), /Unknown event "hit"/);
    // A removed body keeps its listeners: a restore brings it back with them.
    const log: number[] = [];
    const c = world.add({ x: 1, y: 1, mask: m });
    const saved = world.snapshot();
    world.remove(c);
    world.on('begin', c, (self, o) => log.push(self.id, o.id));
    world.restore(saved);
    world.step();
    assert.deepEqual(log, [c.id, b.id]);
});

// Callbacks whose effects follow from what they are told: remove a body (itself or the other) or throw.
interface Rules {
    remove: (event: WorldEvent, self: number, other: number, step: number, k: number) => 0 | 1 | 2;
    fail: (event: WorldEvent, self: number, other: number, step: number, k: number) => boolean;
}

function mix(...v: number[]): number {
    let h = 0x9e3779b9;
    for (const x of v) h = Math.imul(h ^ x, 0x85ebca6b) ^ (h >>> 13);
    return (h ^ (h >>> 16)) >>> 0;
}

// What a scenario's callbacks see: its World, the step's log and number, and (for the reference) the errors
// caught by hand.
interface Ctx {
    world: World<number>;
    log: string[];
    step: number;
    caught: string[] | null;
    removed: number;
}
type Fn = (self: Body<number>, other: Body<number>) => void;

// One World driven by a seeded scenario; `attach` gives each new body or layer its listeners (one way or the other).
function scenario(
    seed: number,
    steps: number,
    attach: (ctx: Ctx, body: Body<number>, listeners: Record<WorldEvent, Fn[]>) => void,
    setup: (ctx: Ctx) => void,
    rules: Rules
): { logs: string[][]; errors: string[][]; removed: number } {
    const rnd = mulberry32(seed),
        ctx: Ctx = { world: new World<number>(), log: [], step: 0, caught: null, removed: 0 },
        world = ctx.world,
        masks = [box(6, 6), Mask.fromText('##.\n.##\n###'), box(12, 3)],
        bodies: Body<number>[] = [];
    const logs: string[][] = [],
        errors: string[][] = [];
    // A callback: log, then maybe remove itself or the other body, or throw.
    const act =
        (event: WorldEvent, k: number): Fn =>
        (self, other) => {
            ctx.log.push(`${event} ${self.id}>${other.id} #${k}`);
            const r = rules.remove(event, self.id, other.id, ctx.step, k);
            const gone = r === 1 ? self : r === 2 ? other : null;
            if (gone !== null && world.has(gone)) {
                world.remove(gone);
                ctx.removed++;
            }
            if (rules.fail(event, self.id, other.id, ctx.step, k))
                throw new Error(`fail ${event} ${self.id}>${other.id} #${k}`);
        };
    // 0 to 2 listeners per event.
    const listeners = (n: () => number): Record<WorldEvent, Fn[]> => {
        const l: Record<WorldEvent, Fn[]> = { begin: [], stay: [], end: [] };
        for (const e of EVENTS) for (let k = n(); k > 0; k--) l[e].push(act(e, l[e].length));
        return l;
    };
    setup(ctx);
    const add = () => {
        const b = world.add({ x: rnd() * 60, y: rnd() * 60, mask: masks[Math.floor(rnd() * 3)], data: 0 });
        bodies.push(b);
        attach(
            ctx,
            b,
            listeners(() => Math.floor(rnd() * 3))
        );
    };
    const layer = world.addLayer(new TileMap(16, 16, 4, 1, [box(16, 16)], [0, -1, -1, 0]), { data: -1 });
    attach(
        ctx,
        layer,
        listeners(() => 1)
    );
    for (let i = 0; i < 24; i++) add();
    for (let s = 0; s < steps; s++) {
        ctx.step = s;
        for (const b of bodies) if (!b.removed && rnd() < 0.4) world.move(b, b.x + rnd() * 8 - 4, b.y + rnd() * 8 - 4);
        if (rnd() < 0.5) add();
        const log: string[] = (ctx.log = []);
        let thrown: string[] = [];
        try {
            world.step();
        } catch (e) {
            thrown = e instanceof AggregateError ? e.errors.map(x => (x as Error).message) : [(e as Error).message];
        }
        if (ctx.caught !== null) {
            assert.deepEqual(thrown, [], 'the reference catches by hand');
            thrown = ctx.caught.splice(0);
        }
        logs.push(log);
        errors.push(thrown);
    }
    return { logs, errors, removed: ctx.removed };
}

test('per-body listeners equal a reference dispatched by hand from pair events: removals inside, throws', () => {
    const rules: Rules = {
        remove: (e, s, o, step, k) => {
            const h = mix(EVENTS.indexOf(e), s, o, step, k) % 29;
            return h === 0 ? 1 : h === 1 ? 2 : 0;
        },
        fail: (e, s, o, step, k) => mix(7, EVENTS.indexOf(e), s, o, step, k) % 23 === 0
    };
    const logPairs = (ctx: Ctx) => {
        for (const e of EVENTS) ctx.world.on(e, (a, b) => ctx.log.push(`pair ${e} ${a.id}-${b.id}`));
    };
    let calls = 0,
        failures = 0,
        removed = 0;
    for (let seed = 1; seed <= 8; seed++) {
        // The World's own: each body's listeners through world.on(event, body, fn).
        const own = scenario(
            seed,
            30,
            (ctx, body, l) => {
                for (const e of EVENTS) for (const fn of l[e]) ctx.world.on(e, body, fn);
            },
            logPairs,
            rules
        );
        // The reference: after the logging pair listener, one pair listener per event calling a's list with (a, b),
        // then b's with (b, a), each call skipped once either body is removed, errors caught and kept.
        const lists = new Map<Body<number>, Record<WorldEvent, Fn[]>>();
        const byHand = scenario(
            seed,
            30,
            (_, body, l) => lists.set(body, l),
            ctx => {
                logPairs(ctx);
                const caught: string[] = (ctx.caught = []);
                for (const e of EVENTS)
                    ctx.world.on(e, (a, b) => {
                        for (const [self, other] of [
                            [a, b],
                            [b, a]
                        ]) {
                            for (const fn of lists.get(self)?.[e] ?? []) {
                                if (a.removed || b.removed) return;
                                try {
                                    fn(self, other);
                                } catch (err) {
                                    caught.push((err as Error).message);
                                }
                            }
                        }
                    });
            },
            rules
        );
        assert.deepEqual(own.logs, byHand.logs, `seed ${seed}: the same calls in the same order`);
        assert.deepEqual(own.errors, byHand.errors, `seed ${seed}: the same errors, rethrown by step()`);
        calls += own.logs.flat().filter(x => !x.startsWith('pair')).length;
        failures += own.errors.flat().length;
        removed += own.removed;
    }
    assert.ok(calls > 500 && failures > 5 && removed > 10, `${calls} calls, ${failures} throws, ${removed} removals`);
});
