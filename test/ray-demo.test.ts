// The demo's laser sight (world.raycast from the gun straight up) against a pixel-by-pixel scan of the same
// column with world.queryPoint, every frame of a game (drawRay is tested with the other debug helpers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAtlas } from '../src/node.js';
import { DemoSim } from '../demo/sim.js';

const ASSETS = fileURLToPath(new URL('../demo/assets/', import.meta.url));
const atlas = (
    await buildAtlas(
        readdirSync(ASSETS)
            .filter(f => f.endsWith('.gif'))
            .sort()
            .map(f => join(ASSETS, f)),
        {}
    )
).atlas;

test('the laser stops at the first pixel above the gun: aliens, bombs and bunkers, never the ship or its shots', () => {
    for (const [seed, stress] of [
        [1, 0],
        [6, 0],
        [2, 300]
    ]) {
        const sim = new DemoSim(atlas, { seed, mode: 'pixel', stress, auto: true });
        const stops = { alien: 0, bomb: 0, terrain: 0, debris: 0, top: 0 };
        for (let frame = 0; frame < 500; frame++) {
            sim.step();
            const l = sim.laser;
            assert.equal(l.x0, l.x1);
            // The first row, going up from the gun, where something the laser stops at has a pixel in its column.
            let row = -1,
                who = null;
            for (let y = Math.floor(l.y0); y >= 0 && row < 0; y--) {
                const found = sim.world
                    .queryPoint(l.x0, y)
                    .filter(b => b.layer !== null || (b.data.kind !== 'player' && b.data.kind !== 'shot'));
                if (found.length > 0) {
                    row = y;
                    who = found[0];
                }
            }
            if (row < 0) {
                assert.equal(l.hit, null, `frame ${frame}`);
                stops.top++;
                continue;
            }
            const h = l.hit;
            assert.ok(h, `frame ${frame}: expected a hit at row ${row}`);
            assert.equal(h.body, who);
            assert.deepEqual(
                [h.px, h.py, h.x, h.y, h.nx, h.ny],
                [
                    Math.floor(l.x0),
                    row,
                    l.x0,
                    row === Math.floor(l.y0) ? l.y0 : row + 1,
                    0,
                    row === Math.floor(l.y0) ? 0 : 1
                ]
            );
            assert.equal(h.distance, l.y0 - h.y);
            stops[h.body.layer ? 'terrain' : (h.body.data.kind as 'alien' | 'bomb' | 'debris')]++;
        }
        // (Stress bullets fill the sky: there the beam mostly stops at one.)
        if (stress > 0) assert.ok(stops.debris > 0 && stops.terrain > 0, JSON.stringify(stops));
        else assert.ok(stops.alien > 0 && stops.terrain > 0 && stops.top > 0, JSON.stringify(stops));
    }
});
