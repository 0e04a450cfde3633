// @test slow
// hitmask/shapes convexPieces: convex, at most maxVertices, areas add up exactly, no overlap, and the
// pieces cover exactly the polygon (sample points in every pixel) on random masks and the pygame sprites;
// noisy masks of thousands of holes cut in bounded CPU time, larger ones refused at once by vertexLimit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { Mask } from '../src/index.js';
import { convexPieces, toPolygons, type Polygon } from '../src/shapes.js';
import { triangles } from '../src/shapes/convex.js'; // internal: triangles has no public entry
import { Ref, mulberry32 } from './reference.js';
import { allocations, cost, costText, type Cost } from './work.js';

const SEED = 20260515;

function area2(r: number[]): number {
    let a = 0;
    for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) a += r[j] * r[i + 1] - r[i] * r[j + 1];
    return a;
}

// A sample point in pixel (x, y) off every line through two integer points within 1000 of each other.
const SX = 0.5 + 1 / 1009,
    SY = 0.5 + 1 / 1013;

function insideRings(rings: number[][], px: number, py: number): boolean {
    let inside = false;
    for (const r of rings) {
        for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
            if (
                r[i + 1] > py !== r[j + 1] > py &&
                px < r[i] + ((py - r[i + 1]) * (r[j] - r[i])) / (r[j + 1] - r[i + 1])
            )
                inside = !inside;
        }
    }
    return inside;
}

/** Asserts that the pieces are strictly convex (A > 0), ≤ maxVertices, sum to the polygon's area and cover each sample point in it once. */
function checkPieces(poly: Polygon, pieces: number[][], maxVertices: number, exact: boolean): void {
    const rings = [poly.outer, ...poly.holes];
    const area = rings.reduce((s, r) => s + area2(r), 0);
    let sum = 0;
    let x0 = Infinity,
        y0 = Infinity,
        x1 = -Infinity,
        y1 = -Infinity;
    for (let i = 0; i < poly.outer.length; i += 2) {
        x0 = Math.min(x0, poly.outer[i]);
        x1 = Math.max(x1, poly.outer[i]);
        y0 = Math.min(y0, poly.outer[i + 1]);
        y1 = Math.max(y1, poly.outer[i + 1]);
    }
    const w = x1 - x0,
        count = new Uint16Array(w * (y1 - y0));
    for (const p of pieces) {
        const n = p.length / 2;
        assert.ok(n >= 3 && n <= maxVertices, `piece of ${n} vertices, max ${maxVertices}`);
        for (let i = 0; i < n; i++) {
            const a = (i + n - 1) % n,
                c = (i + 1) % n;
            const cr =
                (p[2 * i] - p[2 * a]) * (p[2 * c + 1] - p[2 * a + 1]) -
                (p[2 * i + 1] - p[2 * a + 1]) * (p[2 * c] - p[2 * a]);
            assert.ok(cr > 0, `piece ${JSON.stringify(p)} is not strictly convex at vertex ${i}`);
        }
        sum += area2(p);
        let bx0 = Infinity,
            by0 = Infinity,
            bx1 = -Infinity,
            by1 = -Infinity;
        for (let i = 0; i < p.length; i += 2) {
            bx0 = Math.min(bx0, p[i]);
            bx1 = Math.max(bx1, p[i]);
            by0 = Math.min(by0, p[i + 1]);
            by1 = Math.max(by1, p[i + 1]);
        }
        for (let y = Math.floor(by0); y < by1; y++)
            for (let x = Math.floor(bx0); x < bx1; x++) {
                const sx = x + SX,
                    sy = y + SY;
                let inside = true;
                for (let i = 0, j = n - 1; i < n && inside; j = i++) {
                    inside =
                        (p[2 * i] - p[2 * j]) * (sy - p[2 * j + 1]) - (p[2 * i + 1] - p[2 * j + 1]) * (sx - p[2 * j]) >
                        0;
                }
                if (inside) {
                    assert.ok(x >= x0 && x < x1 && y >= y0 && y < y1, 'a piece reaches past the outer ring');
                    count[(y - y0) * w + (x - x0)]++;
                }
            }
    }
    if (exact) assert.equal(sum, area, 'pieces add up to the polygon area');
    else assert.ok(Math.abs(sum - area) <= 1e-9 * Math.abs(area), `pieces add up to ${sum / 2}, polygon ${area / 2}`);
    for (let y = y0; y < y1; y++)
        for (let x = x0; x < x1; x++) {
            const want = insideRings(rings, x + SX, y + SY) ? 1 : 0;
            assert.equal(
                count[(y - y0) * w + (x - x0)],
                want,
                `sample point in pixel (${x}, ${y}) is in ${count[(y - y0) * w + (x - x0)]} pieces, expected ${want}`
            );
        }
}

const arbMask = fc
    .record({
        w: fc.integer({ min: 0, max: 130 }),
        h: fc.integer({ min: 0, max: 130 }),
        blobs: fc.boolean(),
        density: fc.constantFrom(0.03, 0.2, 0.5, 0.7, 0.9, 1),
        seed: fc.integer()
    })
    .map(({ w, h, blobs, density, seed }) => {
        if (!blobs) return Ref.random(w, h, density, seed).toMask();
        const m = new Mask(w, h),
            rnd = mulberry32(seed);
        for (let k = 0; k < 1 + rnd() * 6; k++) {
            const cx = rnd() * w,
                cy = rnd() * h,
                r = 2 + rnd() * 40,
                band = 1 + rnd() * 5;
            for (let y = 0; y < h; y++)
                for (let x = 0; x < w; x++) {
                    const d = Math.hypot(x + 0.5 - cx, (y + 0.5 - cy) * 1.7);
                    if (d < r && Math.floor(d / band) % 2 === 0 && rnd() > 1 - density) m.set(x, y, !m.get(x, y));
                }
        }
        return m;
    });

test('convex pieces of exact polygons: convex, <= maxVertices, exact area, cover every pixel once', () => {
    fc.assert(
        fc.property(arbMask, fc.constantFrom(3, 4, 5, 8, 12), (m, maxVertices) => {
            for (const poly of toPolygons(m)) checkPieces(poly, convexPieces(poly, { maxVertices }), maxVertices, true);
        }),
        { seed: SEED, numRuns: 120 }
    );
});

test('convex pieces of simplified polygons (tolerance 0.5 to 3)', () => {
    fc.assert(
        fc.property(arbMask, fc.constantFrom(0.5, 1, 1.5, 3), (m, tolerance) => {
            for (const poly of toPolygons(m, { tolerance })) checkPieces(poly, convexPieces(poly), 8, true);
        }),
        { seed: SEED, numRuns: 80 }
    );
});

function sprites(): [string, Mask][] {
    const { masks } = JSON.parse(
        readFileSync(new URL('./fixtures/sprites/expected.json', import.meta.url), 'utf8')
    ) as { masks: Record<string, { rows: string[] }> };
    return Object.entries(masks).map(([name, { rows }]) => [name, Mask.fromText(rows.join('\n'))]);
}

test('convex pieces of the pygame sprites, exact and simplified: well under the triangle count', () => {
    for (const tolerance of [0, 1]) {
        let pieces = 0,
            tris = 0;
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
    const square = [0, 0, 2, 0, 2, 2, 0, 2],
        hole = [0.5, 0.5, 0.5, 1.5, 1.5, 1.5, 1.5, 0.5];
    const rev = (r: number[]) => r.flatMap((_, i) => (i % 2 ? [] : [r[r.length - 2 - i], r[r.length - 1 - i]]));
    for (const poly of [
        { outer: square, holes: [hole] },
        { outer: rev(square), holes: [rev(hole)] }
    ]) {
        const pieces = convexPieces(poly);
        assert.equal(pieces.reduce((s, p) => s + area2(p), 0) / 2, 3);
        for (const p of pieces) assert.ok(area2(p) > 0);
    }
    assert.deepEqual(
        convexPieces({ outer: square, holes: [] }),
        [[0, 0, 2, 0, 2, 2, 0, 2]].map(p => convexPieces({ outer: p, holes: [] })[0])
    );
    assert.equal(convexPieces({ outer: square, holes: [] }).length, 1);
});

test('convexPieces argument checks', () => {
    const ok = { outer: [0, 0, 1, 0, 1, 1], holes: [] };
    for (const bad of [null, 1, 'p'])
        assert.throws(() => convexPieces(bad as unknown as Polygon), {
            name: 'TypeError',
            message: /polygon must be an object \{ outer: number\[\], holes: number\[\]\[\] \}, got/
        });
    assert.throws(() => convexPieces({ outer: new Float64Array(6) as unknown as number[], holes: [] }), {
        name: 'TypeError',
        message: /polygon.outer must be an array of numbers \[x0, y0, x1, y1, …\], got Float64Array\(6\)/
    });
    assert.throws(() => convexPieces({ outer: [0, 0, 1, 0], holes: [] }), {
        name: 'TypeError',
        message: /polygon.outer must hold at least 3 \(x, y\) pairs, got 4 numbers/
    });
    assert.throws(() => convexPieces({ outer: [0, 0, 1, 0, 1, NaN], holes: [] }), {
        name: 'TypeError',
        message: /polygon.outer\[5\] must be a finite number, got NaN/
    });
    assert.throws(() => convexPieces({ outer: ok.outer } as unknown as Polygon), {
        name: 'TypeError',
        message: /polygon.holes must be an array of rings, got undefined/
    });
    assert.throws(() => convexPieces({ outer: ok.outer, holes: [[1, 2, 3]] }), {
        name: 'TypeError',
        message: /polygon.holes\[0\] must hold at least 3/
    });
    for (const mv of [2, 0, -1, 3.5, NaN, '8']) {
        assert.throws(() => convexPieces(ok, { maxVertices: mv as number }), {
            name: 'RangeError',
            message: /maxVertices must be an integer >= 3, got/
        });
    }
    assert.throws(() => convexPieces(ok, 5 as unknown as object), {
        name: 'TypeError',
        message: /options must be an object, got 5/
    });
    const [tri] = convexPieces(ok, { maxVertices: 3 });
    assert.equal(tri.length, 6);
    assert.equal(area2(tri), 1);
});

const vertexCount = (p: Polygon): number => (p.outer.length + p.holes.reduce((s, h) => s + h.length, 0)) / 2;

test('convexPieces: the same pieces, to the vertex, as the plain ear test and hole joining (pygame sprites, a noisy mask)', () => {
    // The z-order ear test and the holes joined where the ring changed make no other choice than a walk
    // over every node: this hash is of the pieces the plain implementation cut.
    const hash = createHash('sha256');
    const masks = sprites().map(([, m]) => m);
    masks.push(Ref.random(128, 96, 0.65, SEED).toMask());
    for (const m of masks)
        for (const tolerance of [0, 1])
            for (const p of toPolygons(m, { tolerance })) hash.update(JSON.stringify(convexPieces(p)));
    assert.equal(hash.digest('hex').slice(0, 16), 'e3c2d2ab16375ce7');
});

test('convexPieces on 256² noise (65 % fill, 6,000 holes, 40,000 vertices): bounded CPU time, exact cover', () => {
    // The ear test walked the whole ring and every hole join rescanned every hole waiting: 28 s here.
    const m = Ref.random(256, 256, 0.65, 1).toMask(),
        polys = toPolygons(m);
    const big = polys.reduce((a, b) => (vertexCount(b) > vertexCount(a) ? b : a));
    assert.ok(
        vertexCount(big) > 40000 && big.holes.length > 6000,
        `${vertexCount(big)} vertices, ${big.holes.length} holes`
    );
    const c = cost(() => polys.map(p => convexPieces(p, { vertexLimit: Infinity })));
    assert.ok(c.cpuMs < 8000, `convexPieces on 256² noise took ${costText(c)}`);
    // Every set pixel's sample point in exactly one piece, no clear one in any; convex pieces, areas exact.
    const count = new Uint8Array(m.width * m.height);
    c.value.forEach((pieces, k) => {
        const area = [polys[k].outer, ...polys[k].holes].reduce((s, r) => s + area2(r), 0);
        assert.equal(
            pieces.reduce((s, p) => s + area2(p), 0),
            area,
            `polygon ${k}: pieces add up to its area`
        );
        for (const p of pieces) {
            const n = p.length / 2;
            assert.ok(n >= 3 && n <= 8);
            let bx0 = Infinity,
                by0 = Infinity,
                bx1 = -Infinity,
                by1 = -Infinity;
            for (let i = 0; i < p.length; i += 2) {
                bx0 = Math.min(bx0, p[i]);
                bx1 = Math.max(bx1, p[i]);
                by0 = Math.min(by0, p[i + 1]);
                by1 = Math.max(by1, p[i + 1]);
            }
            for (let y = by0; y < by1; y++)
                for (let x = bx0; x < bx1; x++) {
                    let inside = true;
                    for (let i = 0, j = n - 1; i < n && inside; j = i++) {
                        inside =
                            (p[2 * i] - p[2 * j]) * (y + SY - p[2 * j + 1]) -
                                (p[2 * i + 1] - p[2 * j + 1]) * (x + SX - p[2 * j]) >
                            0;
                    }
                    if (inside) count[y * m.width + x]++;
                }
        }
    });
    for (let y = 0; y < m.height; y++)
        for (let x = 0; x < m.width; x++) {
            assert.equal(
                count[y * m.width + x],
                m.get(x, y) ? 1 : 0,
                `pixel (${x}, ${y}) is in ${count[y * m.width + x]} pieces`
            );
        }
});

test('convexPieces: a polygon over vertexLimit (default 32768) throws a RangeError at once, allocating nothing', () => {
    // 512² noise: one polygon of 160,000 vertices and 25,000 holes, which ran for hours.
    const big = toPolygons(Ref.random(512, 512, 0.65, 1).toMask()).reduce((a, b) =>
        vertexCount(b) > vertexCount(a) ? b : a
    );
    const n = vertexCount(big);
    assert.ok(n > 150000, `${n} vertices`);
    let c: Cost<void> | undefined;
    const made = allocations(() => {
        c = cost(() =>
            assert.throws(() => convexPieces(big), {
                name: 'RangeError',
                message: new RegExp(
                    `^polygon has ${n} vertices \\(outer ring and ${big.holes.length} holes\\), more than vertexLimit 32768: cutting it could take minutes\\. ` +
                        'Simplify it first with a tolerance, cut the mask into smaller masks, or raise vertexLimit\\.$'
                )
            })
        );
    });
    assert.ok(c && c.cpuMs < 1000, `refusing took ${c && costText(c)}`);
    assert.equal(made.bytes, 0, 'nothing allocated before the refusal');
    // The limit counts every vertex, outer ring and holes: 8 here.
    const ring = { outer: [0, 0, 3, 0, 3, 3, 0, 3], holes: [[1, 1, 1, 2, 2, 2, 2, 1]] };
    assert.equal(
        convexPieces(ring, { vertexLimit: 8 }).reduce((s, p) => s + area2(p), 0),
        16
    );
    assert.throws(() => convexPieces(ring, { vertexLimit: 7 }), {
        name: 'RangeError',
        message: /^polygon has 8 vertices \(outer ring and 1 hole\), more than vertexLimit 7:/
    });
    for (const v of [2, 0, 7.5, NaN, -Infinity, '8']) {
        assert.throws(() => convexPieces(ring, { vertexLimit: v as number }), {
            name: 'RangeError',
            message: /^vertexLimit must be an integer >= 3 or Infinity, got /
        });
    }
});
