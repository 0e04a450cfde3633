// The demo's simulation in Node: deterministic per seed, pixel pairs equal to the pixel World's, near
// misses where boxes meet and pixels do not, destructible terrain, the stress mode's filters, and errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MaskAtlas } from '../src/index.js';
import { buildAtlas } from '../src/node/index.js';
import { DemoSim, bunkerMask, fieldSize, rng, withoutTimings, type SimOptions, type SimStats } from '../demo/sim.js';

const ASSETS = fileURLToPath(new URL('../demo/assets/', import.meta.url));
const gifs = readdirSync(ASSETS).filter(f => f.endsWith('.gif')).sort().map(f => join(ASSETS, f));
const atlas = (await buildAtlas(gifs, {})).atlas;

function run(options: Partial<SimOptions>, steps: number): { sim: DemoSim; stats: SimStats } {
    const sim = new DemoSim(atlas, { seed: 1, mode: 'pixel', stress: 0, auto: true, ...options });
    for (let i = 0; i < steps; i++) sim.step();
    return { sim, stats: sim.stats() };
}


test('the same seed replays the same game; another seed plays another', () => {
    const a = run({ seed: 7 }, 400).stats, b = run({ seed: 7 }, 400).stats, c = run({ seed: 8 }, 400).stats;
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
            const a = p.a.data, b = p.b.data;
            assert.ok(!(a.kind === 'debris' && b.kind === 'debris'), 'debris pairs are filtered out');
        }
    }
    assert.ok(stats.boxPairs > 0);
});

test('rng is mulberry32: the same numbers in every engine', () => {
    const r = rng(1);
    assert.deepEqual([r(), r(), r()].map(v => Math.round(v * 2 ** 32)), [2693262067, 11749833, 2265367787]);
});

test('an atlas without the game frames is refused, naming the missing frame', () => {
    assert.throws(() => new DemoSim(new MaskAtlas(), { seed: 1, mode: 'pixel', stress: 0, auto: false }), /no frame "player1"/);
});
