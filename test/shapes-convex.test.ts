// hitmask/shapes convexPieces: convex, at most maxVertices, areas add up exactly, no overlap, and the
// pieces cover exactly the polygon (sample points in every pixel) on random masks and the pygame sprites.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { Mask } from '../src/index.js';
import { convexPieces, toPolygons, type Polygon } from '../src/shapes/index.js';
import { triangles } from '../src/shapes/convex.js';
import { Ref, mulberry32 } from './reference.js';

const SEED = 20260515;

function area2(r: number[]): number {
    let a = 0;
    for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) a += r[j] * r[i + 1] - r[i] * r[j + 1];
    return a;
}

// A sample point in pixel (x, y) off every line through two integer points within 1000 of each other.
const SX = 0.5 + 1 / 1009, SY = 0.5 + 1 / 1013;

function insideRings(rings: number[][], px: number, py: number): boolean {
    let inside = false;
    for (const r of rings) {
        for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
            if ((r[i + 1] > py) !== (r[j + 1] > py) && px < r[i] + (py - r[i + 1]) * (r[j] - r[i]) / (r[j + 1] - r[i + 1])) inside = !inside;
        }
    }
    return inside;
}

/** Asserts that the pieces are strictly convex (A > 0), ≤ maxVertices, sum to the polygon's area and cover each sample point in it once. */
function checkPieces(poly: Polygon, pieces: number[][], maxVertices: number, exact: boolean): void {
    const rings = [poly.outer, ...poly.holes];
    const area = rings.reduce((s, r) => s + area2(r), 0);
    let sum = 0;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i < poly.outer.length; i += 2) {
        x0 = Math.min(x0, poly.outer[i]); x1 = Math.max(x1, poly.outer[i]);
        y0 = Math.min(y0, poly.outer[i + 1]); y1 = Math.max(y1, poly.outer[i + 1]);
    }
    const w = x1 - x0, count = new Uint16Array(w * (y1 - y0));
    for (const p of pieces) {
        const n = p.length / 2;
        assert.ok(n >= 3 && n <= maxVertices, `piece of ${n} vertices, max ${maxVertices}`);
        for (let i = 0; i < n; i++) {
            const a = (i + n - 1) % n, c = (i + 1) % n;
            const cr = (p[2 * i] - p[2 * a]) * (p[2 * c + 1] - p[2 * a + 1]) - (p[2 * i + 1] - p[2 * a + 1]) * (p[2 * c] - p[2 * a]);
            assert.ok(cr > 0, `piece ${JSON.stringify(p)} is not strictly convex at vertex ${i}`);
        }
        sum += area2(p);
        let bx0 = Infinity, by0 = Infinity, bx1 = -Infinity, by1 = -Infinity;
        for (let i = 0; i < p.length; i += 2) {
            bx0 = Math.min(bx0, p[i]); bx1 = Math.max(bx1, p[i]); by0 = Math.min(by0, p[i + 1]); by1 = Math.max(by1, p[i + 1]);
        }
        for (let y = Math.floor(by0); y < by1; y++) for (let x = Math.floor(bx0); x < bx1; x++) {
            const sx = x + SX, sy = y + SY;
            let inside = true;
            for (let i = 0, j = n - 1; i < n && inside; j = i++) {
                inside = (p[2 * i] - p[2 * j]) * (sy - p[2 * j + 1]) - (p[2 * i + 1] - p[2 * j + 1]) * (sx - p[2 * j]) > 0;
            }
            if (inside) {
                assert.ok(x >= x0 && x < x1 && y >= y0 && y < y1, 'a piece reaches past the outer ring');
                count[(y - y0) * w + (x - x0)]++;
            }
        }
    }
    if (exact) assert.equal(sum, area, 'pieces add up to the polygon area');
    else assert.ok(Math.abs(sum - area) <= 1e-9 * Math.abs(area), `pieces add up to ${sum / 2}, polygon ${area / 2}`);
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
        const want = insideRings(rings, x + SX, y + SY) ? 1 : 0;
        assert.equal(count[(y - y0) * w + (x - x0)], want, `sample point in pixel (${x}, ${y}) is in ${count[(y - y0) * w + (x - x0)]} pieces, expected ${want}`);
    }
}

const arbMask = fc.record({
    w: fc.integer({ min: 0, max: 130 }),
    h: fc.integer({ min: 0, max: 130 }),
    blobs: fc.boolean(),
    density: fc.constantFrom(0.03, 0.2, 0.5, 0.7, 0.9, 1),
    seed: fc.integer()
}).map(({ w, h, blobs, density, seed }) => {
    if (!blobs) return Ref.random(w, h, density, seed).toMask();
    const m = new Mask(w, h), rnd = mulberry32(seed);
    for (let k = 0; k < 1 + rnd() * 6; k++) {
        const cx = rnd() * w, cy = rnd() * h, r = 2 + rnd() * 40, band = 1 + rnd() * 5;
        for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
            const d = Math.hypot(x + 0.5 - cx, (y + 0.5 - cy) * 1.7);
            if (d < r && Math.floor(d / band) % 2 === 0 && rnd() > 1 - density) m.set(x, y, !m.get(x, y));
        }
    }
    return m;
});

test('convex pieces of exact polygons: convex, <= maxVertices, exact area, cover every pixel once', () => {
    fc.assert(fc.property(arbMask, fc.constantFrom(3, 4, 5, 8, 12), (m, maxVertices) => {
        for (const poly of toPolygons(m)) checkPieces(poly, convexPieces(poly, { maxVertices }), maxVertices, true);
    }), { seed: SEED, numRuns: 120 });
});

test('convex pieces of simplified polygons (tolerance 0.5 to 3)', () => {
    fc.assert(fc.property(arbMask, fc.constantFrom(0.5, 1, 1.5, 3), (m, tolerance) => {
        for (const poly of toPolygons(m, { tolerance })) checkPieces(poly, convexPieces(poly), 8, true);
    }), { seed: SEED, numRuns: 80 });
});

function sprites(): [string, Mask][] {
    const { masks } = JSON.parse(readFileSync(new URL('./fixtures/sprites/expected.json', import.meta.url), 'utf8')) as { masks: Record<string, { rows: string[] }> };
    return Object.entries(masks).map(([name, { rows }]) => [name, Mask.fromText(rows.join('\n'))]);
}

test('convex pieces of the pygame sprites, exact and simplified: well under the triangle count', () => {
    for (const tolerance of [0, 1]) {
        let pieces = 0, tris = 0;
        for (const [, m] of sprites()) {
            for (const poly of toPolygons(m, { tolerance })) {
                const p = convexPieces(poly);
                checkPieces(poly, p, 8, true);
                pieces += p.length;
                tris += triangles(poly).length / 3;
            }
        }
        assert.ok(pieces < 0.62 * tris, `tolerance ${tolerance}: ${pieces} pieces vs ${tris} triangles`);
    }
});

test('convexPieces takes rings of either orientation and non-integer coordinates', () => {
    const square = [0, 0, 2, 0, 2, 2, 0, 2], hole = [0.5, 0.5, 0.5, 1.5, 1.5, 1.5, 1.5, 0.5];
    const rev = (r: number[]) => r.flatMap((_, i) => (i % 2 ? [] : [r[r.length - 2 - i], r[r.length - 1 - i]]));
    for (const poly of [{ outer: square, holes: [hole] }, { outer: rev(square), holes: [rev(hole)] }]) {
        const pieces = convexPieces(poly);
        assert.equal(pieces.reduce((s, p) => s + area2(p), 0) / 2, 3);
        for (const p of pieces) assert.ok(area2(p) > 0);
    }
    assert.deepEqual(convexPieces({ outer: square, holes: [] }), [[0, 0, 2, 0, 2, 2, 0, 2]].map(p => convexPieces({ outer: p, holes: [] })[0]));
    assert.equal(convexPieces({ outer: square, holes: [] }).length, 1);
});

test('convexPieces argument checks', () => {
    const ok = { outer: [0, 0, 1, 0, 1, 1], holes: [] };
    for (const bad of [null, 1, 'p']) assert.throws(() => convexPieces(bad as unknown as Polygon), { name: 'TypeError', message: /polygon must be an object \{ outer: number\[\], holes: number\[\]\[\] \}, got/ });
    assert.throws(() => convexPieces({ outer: new Float64Array(6) as unknown as number[], holes: [] }), { name: 'TypeError', message: /polygon.outer must be an array of numbers \[x0, y0, x1, y1, …\], got Float64Array\(6\)/ });
    assert.throws(() => convexPieces({ outer: [0, 0, 1, 0], holes: [] }), { name: 'TypeError', message: /polygon.outer must hold at least 3 \(x, y\) pairs, got 4 numbers/ });
    assert.throws(() => convexPieces({ outer: [0, 0, 1, 0, 1, NaN], holes: [] }), { name: 'TypeError', message: /polygon.outer\[5\] must be a finite number, got NaN/ });
    assert.throws(() => convexPieces({ outer: ok.outer } as unknown as Polygon), { name: 'TypeError', message: /polygon.holes must be an array of rings, got undefined/ });
    assert.throws(() => convexPieces({ outer: ok.outer, holes: [[1, 2, 3]] }), { name: 'TypeError', message: /polygon.holes\[0\] must hold at least 3/ });
    for (const mv of [2, 0, -1, 3.5, NaN, '8']) {
        assert.throws(() => convexPieces(ok, { maxVertices: mv as number }), { name: 'RangeError', message: /maxVertices must be an integer >= 3, got/ });
    }
    assert.throws(() => convexPieces(ok, 5 as unknown as object), { name: 'TypeError', message: /options must be an object, got 5/ });
    const [tri] = convexPieces(ok, { maxVertices: 3 });
    assert.equal(tri.length, 6);
    assert.equal(area2(tri), 1);
});
