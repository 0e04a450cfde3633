// @test fast
// The World's automatic grid cell: about one bucket per body in a sparse world, never below the mean body side nor
// above four of them, kept while the world hovers at a boundary; and the same pairs whatever the cell, while the
// automatic choice changes as bodies are added, with bodies that span many cells.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mask, World, type Body } from '../src/index.js';
// Internal: the grid's upkeep has no public entry.
import { autoCell, rebuildGrid } from '../src/world/cells.js';
import { growSlots } from '../src/world/slots.js';
import { WorldState } from '../src/world/state.js';
import { mulberry32 } from './reference.js';

// A state holding n boxes of 10..16 px placed at random over a square where the boxes cover `cover` of the area.
function sparseState(n: number, cover: number, seed: number): WorldState<number> {
    const rnd = mulberry32(seed),
        w = new WorldState<number>(0, 256);
    growSlots(w, n);
    const sides = Array.from({ length: n }, () => 10 + Math.floor(rnd() * 7));
    const side = Math.sqrt(sides.reduce((a, s) => a + s * s, 0) / cover);
    for (let s = 0; s < n; s++) place(w, s, Math.floor(rnd() * side), Math.floor(rnd() * side), sides[s], sides[s]);
    w.used = w.live = n;
    return w;
}

function place(w: WorldState<number>, s: number, x: number, y: number, width: number, height: number): void {
    const b = w.boxes;
    b.x0[s] = x;
    b.y0[s] = y;
    b.x1[s] = x + width;
    b.y1[s] = y + height;
    w.cat[s] = 1;
    w.colw[s] = -1;
    w.gridValid = false;
}

test('the automatic cell makes about one bucket per body in a sparse world, not fourteen', () => {
    // 20,000 bodies of 10-16 px covering 5% of their square: cells of the mean side (16 px) made 13.7 buckets per
    // body, 274,000 in all, edited at random addresses each step.
    const n = 20000,
        w = sparseState(n, 0.05, 1);
    rebuildGrid(w);
    assert.equal(w.grid.cellSize, 64);
    assert.equal(w.grid.dense, true);
    assert.ok(w.grid.bucketCount <= 1.2 * n, `${w.grid.bucketCount} buckets for ${n} bodies`);
    assert.ok(w.grid.bucketCount >= 0.5 * n, `${w.grid.bucketCount} buckets for ${n} bodies`);
    // With the cell set, the same world keeps it.
    const fixed = sparseState(n, 0.05, 1);
    (fixed as { fixedCell: number }).fixedCell = 16;
    rebuildGrid(fixed);
    assert.equal(fixed.grid.cellSize, 16);
    assert.ok(fixed.grid.bucketCount > 12 * n);
});

test('the automatic cell stays between the mean body side and four of them', () => {
    // Densely packed: no larger than the bodies' own power of two.
    assert.equal(autoCell(0, 1000, 13, 1000 * 13 * 13), 16);
    assert.equal(autoCell(0, 1000, 40, 1000 * 20 * 20), 64);
    // Spread far apart (a huge bounding box): four mean sides, rounded to the nearest power of two.
    assert.equal(autoCell(0, 1000, 13, 2 ** 80), 64);
    assert.equal(autoCell(0, 1000, 66, 2 ** 80), 256);
    // About one cell per body in between: √(area / n) rounded to the nearest power of two.
    assert.equal(autoCell(0, 100, 10, 100 * 30 * 30), 32);
    assert.equal(autoCell(0, 100, 10, 100 * 22 * 22), 16);
    // Smallest and largest sides.
    assert.equal(autoCell(0, 10, 1, 10), 8);
    assert.equal(autoCell(0, 10, 2 ** 30, 2 ** 70), 2 ** 24);
});

test('the automatic cell is kept while the target hovers near a boundary, and changed past it', () => {
    // 16 and 32 px meet at a target of 16·√2 ≈ 22.6 px.
    const at = (want: number): number => 100 * want * want;
    assert.equal(autoCell(0, 100, 10, at(23)), 32);
    assert.equal(autoCell(32, 100, 10, at(22)), 32);
    assert.equal(autoCell(16, 100, 10, at(23)), 16);
    assert.equal(autoCell(16, 100, 10, at(31)), 16);
    assert.equal(autoCell(16, 100, 10, at(32)), 32);
    assert.equal(autoCell(32, 100, 10, at(14)), 32);
    assert.equal(autoCell(32, 100, 10, at(13)), 16);
    // Bodies grown well past the kept cell: the cell follows them.
    assert.equal(autoCell(16, 100, 23, at(23)), 32);
    // Over builds of a world whose bounds breathe across the boundary, one layout.
    const w = sparseState(2000, 0.05, 2);
    const cells = new Set<number>();
    for (let step = 0; step < 40; step++) {
        // The last body swings the bounds by ±15% of the side.
        const { x0, y0 } = w.boxes;
        let side = 0;
        for (let s = 0; s < w.used - 1; s++) side = Math.max(side, x0[s], y0[s]);
        const far = side * (step % 2 === 0 ? 1.15 : 0.85);
        place(w, w.used - 1, far, far, 12, 12);
        rebuildGrid(w);
        cells.add(w.grid.cellSize);
    }
    assert.equal(cells.size, 1, `cells ${[...cells]}`);
});

// A body's box, as the grid's upkeep reads it.
function boxOf(world: World<number>, b: Body<number>): { x0: number; y0: number; x1: number; y1: number } {
    const p = world.placedMask(b);
    return { x0: p.x, y0: p.y, x1: p.x + p.mask.width, y1: p.y + p.mask.height };
}

test('the pairs are the same with the automatic cell and with cells of 1 to 1024 px while bodies are added', () => {
    const rnd = mulberry32(43);
    const masks = [new Mask(12, 12, true), new Mask(5, 9, true), new Mask(20, 3, true), new Mask(600, 24, true)];
    // A disc, so that boxes overlap without pixels meeting.
    const disc = new Mask(14, 14);
    for (let y = 0; y < 14; y++) for (let x = 0; x < 14; x++) if ((x - 6.5) ** 2 + (y - 6.5) ** 2 <= 49) disc.set(x, y);
    masks.push(disc);
    const sizes = [undefined, 1, 8, 64, 1024];
    const worlds = sizes.map(cellSize => new World<number>(cellSize === undefined ? {} : { cellSize }));
    const bodies: Body<number>[][] = worlds.map(() => []);
    const chosen = new Set<number>();
    let prevCell = 0;
    let spread = 40;
    let saved: Uint8Array[] = [],
        savedPairs: string[] = [];
    for (let round = 0; round < 30; round++) {
        // A crowd that spreads out as it grows: the automatic cell goes from the bodies' side to four of them.
        const adds = 5 + Math.floor(rnd() * 20);
        for (let k = 0; k < adds; k++) {
            const x = Math.floor(rnd() * spread),
                y = Math.floor(rnd() * spread),
                // A wall across many cells in some rounds (600 px: 600 cells of 1 px, 75 of 8, 10 of 64).
                mask = masks[k === 0 && round % 8 === 7 ? 3 : [0, 1, 2, 4][Math.floor(rnd() * 4)]];
            worlds.forEach((w, i) => bodies[i].push(w.add({ x, y, mask, data: 0 })));
        }
        spread = Math.floor(spread * 1.25);
        // Small moves of every body, the same in each World.
        for (let b = 0; b < bodies[0].length; b++) {
            const dx = Math.floor(rnd() * 7) - 3,
                dy = Math.floor(rnd() * 7) - 3;
            worlds.forEach((w, i) => w.move(bodies[i][b], bodies[i][b].x + dx, bodies[i][b].y + dy));
        }
        const got = worlds.map(w => w.collisions().map(p => `${p.a.id}-${p.b.id}`));
        for (let i = 1; i < worlds.length; i++)
            assert.deepEqual(got[i], got[0], `round ${round}: cellSize ${sizes[i]} against the automatic cell`);
        // The automatic cell this build chose, from what the grid's upkeep measures.
        let n = 0,
            sum = 0;
        const box = [Infinity, Infinity, -Infinity, -Infinity];
        for (const b of bodies[0]) {
            const r = boxOf(worlds[0], b);
            n++;
            sum += Math.max(r.x1 - r.x0, r.y1 - r.y0);
            box[0] = Math.min(box[0], r.x0);
            box[1] = Math.min(box[1], r.y0);
            box[2] = Math.max(box[2], r.x1);
            box[3] = Math.max(box[3], r.y1);
        }
        prevCell = autoCell(prevCell, n, sum / n, (box[2] - box[0]) * (box[3] - box[1]));
        chosen.add(prevCell);
        if (round === 29) assert.ok(got[0].length > 20, `${got[0].length} pairs`);
        if (round === 4) {
            saved = worlds.map(w => w.snapshot());
            savedPairs = got[0];
        }
    }
    assert.ok(chosen.size >= 3, `the automatic cell took ${[...chosen]}`);
    // Restored to a crowd of round 4 under a grid built with another cell: the pairs of round 4.
    worlds.forEach((w, i) => {
        w.restore(saved[i]);
        assert.deepEqual(
            w.collisions().map(p => `${p.a.id}-${p.b.id}`),
            savedPairs,
            `cellSize ${sizes[i]} restored`
        );
    });
});
