// The demo's laser sight (world.raycast from the gun straight up) against a pixel-by-pixel scan of the same
// column with world.queryPoint, every frame of a game; and the debug overlay's drawRay helper.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAtlas } from '../src/node/index.js';
import { Mask } from '../src/index.js';
import { drawRay, type DebugContext } from '../src/debug.js';
import { DemoSim } from '../demo/sim.js';

const ASSETS = fileURLToPath(new URL('../demo/assets/', import.meta.url));
const atlas = (await buildAtlas(readdirSync(ASSETS).filter(f => f.endsWith('.gif')).sort().map(f => join(ASSETS, f)), {})).atlas;

test('the laser stops at the first pixel above the gun: aliens, bombs and bunkers, never the ship or its shots', () => {
    for (const [seed, stress] of [[1, 0], [6, 0], [2, 300]]) {
        const sim = new DemoSim(atlas, { seed, mode: 'pixel', stress, auto: true });
        const stops = { alien: 0, bomb: 0, terrain: 0, debris: 0, top: 0 };
        for (let frame = 0; frame < 500; frame++) {
            sim.step();
            const l = sim.laser;
            assert.equal(l.x0, l.x1);
            // The first row, going up from the gun, where something the laser stops at has a pixel in its column.
            let row = -1, who = null;
            for (let y = Math.floor(l.y0); y >= 0 && row < 0; y--) {
                const found = sim.world.queryPoint(l.x0, y).filter(b => b.layer !== null || (b.data.kind !== 'player' && b.data.kind !== 'shot'));
                if (found.length > 0) { row = y; who = found[0]; }
            }
            if (row < 0) { assert.equal(l.hit, null, `frame ${frame}`); stops.top++; continue; }
            const h = l.hit;
            assert.ok(h, `frame ${frame}: expected a hit at row ${row}`);
            assert.equal(h.body, who);
            assert.deepEqual([h.px, h.py, h.x, h.y, h.nx, h.ny], [Math.floor(l.x0), row, l.x0, row === Math.floor(l.y0) ? l.y0 : row + 1, 0, row === Math.floor(l.y0) ? 0 : 1]);
            assert.equal(h.distance, l.y0 - h.y);
            stops[h.body.layer ? 'terrain' : h.body.data.kind as 'alien' | 'bomb' | 'debris']++;
        }
        // (Stress bullets fill the sky: there the beam mostly stops at one.)
        if (stress > 0) assert.ok(stops.debris > 0 && stops.terrain > 0, JSON.stringify(stops));
        else assert.ok(stops.alien > 0 && stops.terrain > 0 && stops.top > 0, JSON.stringify(stops));
    }
});

type Call = [string, ...unknown[]];

function recorder(): DebugContext & { calls: Call[] } {
    const calls: Call[] = [];
    const ctx = {
        calls, fillStyle: '#000' as DebugContext['fillStyle'], strokeStyle: '#000' as DebugContext['strokeStyle'], lineWidth: 1,
        save: () => { calls.push(['save']); },
        restore: () => { calls.push(['restore']); },
        fillRect: (x: number, y: number, w: number, h: number) => { calls.push(['fillRect', x, y, w, h, ctx.fillStyle]); },
        strokeRect: (x: number, y: number, w: number, h: number) => { calls.push(['strokeRect', x, y, w, h]); },
        beginPath: () => { calls.push(['beginPath']); },
        moveTo: (x: number, y: number) => { calls.push(['moveTo', x, y]); },
        lineTo: (x: number, y: number) => { calls.push(['lineTo', x, y]); },
        stroke: () => { calls.push(['stroke', ctx.strokeStyle]); },
        drawImage: (img: unknown, x: number, y: number) => { calls.push(['drawImage', img, x, y]); }
    };
    return ctx;
}

test('drawRay: the segment up to the hit, a dot on the entry point and the normal; errors name the value', () => {
    const m = new Mask(20, 10).set(12, 4), hit = m.raycast(2.5, 4.5, 19.5, 4.5);
    const ctx = recorder();
    drawRay(ctx, 2.5, 4.5, 19.5, 4.5, hit, 0xff000080, 0x00ff00ff, 10);
    assert.deepEqual(ctx.calls, [
        ['save'], ['beginPath'], ['moveTo', 2.5, 4.5], ['lineTo', 12, 4.5], ['stroke', 'rgba(255, 0, 0, 0.502)'],
        ['fillRect', 10.5, 3, 3, 3, 'rgba(0, 255, 0, 1)'],
        ['beginPath'], ['moveTo', 12, 4.5], ['lineTo', 2, 4.5], ['moveTo', 2 + 5 * 0.866, 4.5 + 5 * 0.5], ['lineTo', 2, 4.5], ['lineTo', 2 + 5 * 0.866, 4.5 - 5 * 0.5],
        ['stroke', 'rgba(0, 255, 0, 1)'], ['restore']
    ]);
    // A miss: the whole segment, nothing else. Starting inside: the dot, no arrow.
    const miss = recorder();
    drawRay(miss, 0, 0, 5, 0, null);
    assert.deepEqual(miss.calls.map(c => c[0]), ['save', 'beginPath', 'moveTo', 'lineTo', 'stroke', 'restore']);
    const inside = recorder();
    drawRay(inside, 12.5, 4.5, 0, 0, m.raycast(12.5, 4.5, 0, 0));
    assert.deepEqual(inside.calls.map(c => c[0]), ['save', 'beginPath', 'moveTo', 'lineTo', 'stroke', 'fillRect', 'restore']);
    assert.throws(() => drawRay(recorder(), NaN, 0, 1, 1, null), { name: 'RangeError', message: 'x0 must be a finite number, got NaN.' });
    assert.throws(() => drawRay(recorder(), 0, 0, 1, 1, 5 as never), { name: 'TypeError', message: 'hit must be a RayHit or null, got 5.' });
    assert.throws(() => drawRay(recorder(), 0, 0, 1, 1, null, -1), RangeError);
    assert.throws(() => drawRay({} as DebugContext, 0, 0, 1, 1, null), TypeError);
});
