// The demo's simulation in Node: deterministic per seed, pixel pairs equal to the pixel World's, near
// misses where boxes meet and pixels do not, destructible terrain, the stress mode's filters, and errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MaskAtlas } from '../src/index.js';
import { buildAtlas } from '../src/node.js';
import { StepClock } from '../demo/clock.js';
import { DemoSim, bunkerMask, fieldSize, rng, withoutTimings, type SimOptions, type SimStats } from '../demo/sim.js';
import { moveAndSlide } from '../src/index.js';
import {
    PlatformerSim,
    type Carry,
    type MoveFn,
    type PlatformerInput,
    type PlatformerStats
} from '../demo/platformer.js';
import { referenceMove } from './move-reference.js';

const ASSETS = fileURLToPath(new URL('../demo/assets/', import.meta.url));
const gifs = readdirSync(ASSETS)
    .filter(f => f.endsWith('.gif'))
    .sort()
    .map(f => join(ASSETS, f));
const atlas = (await buildAtlas(gifs, {})).atlas;

function run(options: Partial<SimOptions>, steps: number): { sim: DemoSim; stats: SimStats } {
    const sim = new DemoSim(atlas, { seed: 1, mode: 'pixel', stress: 0, auto: true, ...options });
    for (let i = 0; i < steps; i++) sim.step();
    return { sim, stats: sim.stats() };
}

test('the same seed replays the same game; another seed plays another', () => {
    const a = run({ seed: 7 }, 400).stats,
        b = run({ seed: 7 }, 400).stats,
        c = run({ seed: 8 }, 400).stats;
    assert.deepEqual(withoutTimings(a), withoutTimings(b));
    assert.notEqual(a.checksum, c.checksum);
    assert.equal(a.frame, 400);
    assert.ok(a.totals.shotsFired > 0 && a.totals.bombsDropped > 0 && a.totals.kills > 0, JSON.stringify(a.totals));
});

test('pixel mode: the pixel World reports exactly the box pairs whose masks overlap', () => {
    const sim = new DemoSim(atlas, { seed: 3, mode: 'pixel', stress: 0, auto: true });
    let near = 0;
    for (let i = 0; i < 900; i++) {
        sim.step();
        const s = sim.stats();
        assert.equal(s.pairs, s.pixelPairs, `frame ${s.frame}`);
        assert.equal(s.boxPairs, s.pixelPairs + s.nearMisses);
        near += s.nearMisses;
    }
    const t = sim.stats().totals;
    assert.equal(t.nearMisses, near);
    assert.ok(t.nearMisses > 0, 'boxes meet without pixels touching in a real game');
    assert.ok(t.boxPairs > t.pixelPairs);
});

test('box mode reacts to box pairs, so near misses become hits', () => {
    const { sim, stats } = run({ seed: 3, mode: 'box' }, 900);
    assert.equal(stats.mode, 'box');
    assert.ok(stats.totals.nearMisses > 0);
    // Hits remembered for the overlay are pixel hits; box-only hits are marked as near misses.
    for (const m of sim.marks) assert.equal(m.near, m.overlap.width === 0);
    assert.throws(() => sim.setMode('circle' as 'box'), /mode must be "box" or "pixel", got "circle"/);
});

test('bullets dig craters into the terrain', () => {
    const start = run({ seed: 2 }, 0).stats.terrain;
    assert.equal(start, 4 * bunkerMask(96, 44).count(), 'four bunkers');
    const { sim, stats } = run({ seed: 2 }, 600);
    assert.ok(stats.totals.craters > 0);
    assert.ok(stats.terrain < start, `${stats.terrain} < ${start}`);
    assert.ok(sim.terrainVersion >= stats.totals.craters);
});

test('stress mode: thousands of bullets that never collide with each other', () => {
    const { sim, stats } = run({ seed: 5, stress: 3000 }, 10);
    assert.deepEqual(fieldSize(3000), { width: 1280, height: 960 });
    assert.equal(sim.width, 1280);
    assert.ok(stats.sprites >= 3001, `${stats.sprites}`);
    for (const w of [sim.world, sim.boxWorld]) {
        for (const p of w.collisions()) {
            const a = p.a.data,
                b = p.b.data;
            assert.ok(!(a.kind === 'debris' && b.kind === 'debris'), 'debris pairs are filtered out');
        }
    }
    assert.ok(stats.boxPairs > 0);
});

test('rng is mulberry32: the same numbers in every engine', () => {
    const r = rng(1);
    assert.deepEqual(
        [r(), r(), r()].map(v => Math.round(v * 2 ** 32)),
        [2693262067, 11749833, 2265367787]
    );
});

test('an atlas without the game frames is refused, naming the missing frame', () => {
    assert.throws(
        () => new DemoSim(new MaskAtlas(), { seed: 1, mode: 'pixel', stress: 0, auto: false }),
        /no frame "player1"/
    );
});

// The platformer scene (?scene=platformer), headless: every moveAndSlide call of the scene is compared with
// the per-pixel rules on the same inputs, and the riders of the lifts are checked right after their carry.
function platformer(
    seed: number,
    frames: number,
    keys: ((frame: number) => PlatformerInput) | null
): { sim: PlatformerSim; stats: PlatformerStats; checked: number; exact: number } {
    let checked = 0,
        exact = 0;
    const move: MoveFn = (solid, mask, x, y, dx, dy, options, out) => {
        const want = referenceMove(solid, mask, x, y, dx, dy, options);
        const got = moveAndSlide(solid, mask, x, y, dx, dy, options, out);
        const { floor, ...rest } = got,
            { floor: wantFloor, ...wantRest } = want;
        assert.deepEqual(rest, wantRest, `move of (${dx}, ${dy}) from (${x}, ${y})`);
        assert.equal(floor, wantFloor);
        assert.ok(
            !solid.overlaps(mask, Math.floor(got.x), Math.floor(got.y)),
            `moved into the terrain at (${got.x}, ${got.y})`
        );
        checked++;
        return got;
    };
    const onCarry = (c: Carry) => {
        const { mover: a, lift: l, result: r } = c,
            px = Math.floor(r.x),
            py = Math.floor(r.y);
        if (r.x === c.x + l.dx && r.y === c.y + l.dy) {
            // Carried all the way: still standing on the lift, where it stood.
            assert.ok(
                a.mask.overlaps(l.mask, l.x - px, l.y - py - 1) && !a.mask.overlaps(l.mask, l.x - px, l.y - py),
                `rider at (${r.x}, ${r.y}) left its lift at (${l.x}, ${l.y})`
            );
            exact++;
        } else {
            // Stopped short only by what the rules stop at: a wall, a ceiling going up, ground going down.
            assert.ok(
                r.onWall || (l.dy < 0 && r.onCeiling) || (l.dy > 0 && r.onFloor),
                `carry stopped for no reason: ${JSON.stringify({ x: c.x, y: c.y, dx: l.dx, dy: l.dy, r: { ...r, floor: null } })}`
            );
        }
    };
    const sim = new PlatformerSim({ seed, auto: keys === null, move, onCarry });
    const random = rng(seed + 1000);
    for (let f = 1; f <= frames; f++) {
        sim.step(keys ? keys(f) : undefined);
        // A click now and then carves a crater anywhere.
        if (f % 40 === 0) sim.carve(random() * sim.width, 200 + random() * (sim.height - 200));
        for (const w of sim.walkers)
            assert.ok(
                !sim.solid.overlaps(w.mask, Math.floor(w.x), Math.floor(w.y)),
                `frame ${f}: a walker in the terrain`
            );
    }
    return { sim, stats: sim.stats(), checked, exact };
}

test('platformer scene: every move equals the rules, no walker enters the terrain, riders stay on their lifts', () => {
    const { sim, stats, checked, exact } = platformer(4, 1500, null);
    assert.equal(checked, stats.moves, 'every move went through moveAndSlide');
    assert.equal(stats.frame, 1500);
    assert.equal(stats.walkers, 80);
    // The scene ran: walkers walked, climbed, turned, fell and landed; lifts carried; bullets and clicks carved.
    const spread = new Set(sim.walkers.map(w => Math.floor(w.x / 40)));
    assert.ok(spread.size >= 5, `walkers spread over ${spread.size} columns of 40 px`);
    assert.ok(stats.moves > 80_000 && stats.turns > 0 && stats.landings > 0 && stats.jumps > 0, JSON.stringify(stats));
    assert.ok(stats.carried > 0 && exact > 0, `carried ${stats.carried}, ${exact} all the way`);
    assert.ok(stats.craters > 37, `${stats.craters} craters: the clicks' 37 and the bullets'`);
    // Deterministic per seed.
    assert.equal(platformer(4, 1500, null).stats.checksum, stats.checksum);
});

test('platformer scene by keyboard: runs, jumps, drops through ledges, shoots; the same rules hold', () => {
    // Held keys change every 20 to 80 frames, seeded.
    const random = rng(9);
    let until = 0,
        held: PlatformerInput = { left: false, right: false, jump: false, down: false, fire: false };
    const keys = (f: number): PlatformerInput => {
        if (f >= until) {
            until = f + 20 + Math.floor(random() * 60);
            const dir = random();
            held = {
                left: dir < 0.4,
                right: dir > 0.6,
                jump: random() < 0.5,
                down: random() < 0.2,
                fire: random() < 0.5
            };
        }
        return held;
    };
    const { stats, checked } = platformer(6, 1200, keys);
    assert.equal(checked, stats.moves);
    assert.ok(stats.jumps > 0 && stats.craters > 30, JSON.stringify(stats));
});

test('the demo clock: one 60 Hz step a frame at 60 fps with jittered frame intervals, half at 120 fps, at most maxSteps', () => {
    const run = (clock: StepClock, intervals: number[]) => intervals.map(dt => clock.due(dt));
    const jitter = Array.from(
        { length: 600 },
        (_, i) => 1000 / 60 + (i % 2 ? 0.02 : -0.02) + (i % 7 === 0 ? 0.4 : 0) - (i % 11 === 0 ? 0.4 : 0)
    );
    for (const max of [1, 4]) {
        const steps = run(new StepClock(1000 / 60, max), jitter);
        assert.equal(
            steps.reduce((a, b) => a + b, 0),
            600,
            `max ${max}: every frame's step runs`
        );
        assert.ok(
            steps.every(n => n === 1),
            `max ${max}: one step a frame, never none then two`
        );
    }
    const fast = run(
        new StepClock(1000 / 60, 4),
        Array.from({ length: 600 }, () => 1000 / 120)
    );
    assert.equal(
        fast.reduce((a, b) => a + b, 0),
        300,
        '120 fps: a step every other frame'
    );
    // 30 fps: two steps a frame when the clock may catch up, one (the game slows down) when it may not.
    assert.deepEqual(
        [
            ...new Set(
                run(
                    new StepClock(1000 / 60, 4),
                    Array.from({ length: 60 }, () => 1000 / 30)
                )
            )
        ],
        [2]
    );
    assert.deepEqual(
        [
            ...new Set(
                run(
                    new StepClock(1000 / 60, 1),
                    Array.from({ length: 60 }, () => 1000 / 30)
                )
            )
        ],
        [1]
    );
    // A long stall (a hidden tab) runs maxSteps, then the clock goes on from there.
    const clock = new StepClock(1000 / 60, 4);
    assert.deepEqual(run(clock, [5000, 1000 / 60, 1000 / 60]), [4, 1, 1]);
});
