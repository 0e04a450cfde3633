// @test slow
// hitmask/shapes toPolygons: exact rings (even-odd reproduces the mask), orientation, simplicity,
// simplified rings within the tolerance both ways, on seeded random masks and the pygame sprites.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { forEachSet, Mask } from '../src/index.js';
import { toPolygons, type Polygon } from '../src/shapes.js';
import { Ref, mulberry32 } from './reference.js';
import { cost, costText } from './work.js';

const SEED = 20260514;
const SPRITES = new URL('./fixtures/sprites/expected.json', import.meta.url);

/** Twice the signed area (A = ½ Σ xᵢ·yᵢ₊₁ − xᵢ₊₁·yᵢ, y down). */
function area2(r: number[]): number {
    let a = 0;
    for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) a += r[j] * r[i + 1] - r[i] * r[j + 1];
    return a;
}

/** Pixel grid (w × h) of centres inside the rings by even-odd, one scanline crossing list per row. */
function evenOdd(rings: number[][], w: number, h: number): Uint8Array {
    const rows: number[][] = Array.from({ length: h }, () => []);
    for (const r of rings) {
        for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
            const x0 = r[j],
                y0 = r[j + 1],
                x1 = r[i],
                y1 = r[i + 1];
            if (y0 === y1) continue;
            const lo = Math.min(y0, y1),
                hi = Math.max(y0, y1);
            // rows whose centre line y = j + 0.5 the edge crosses
            for (let y = Math.max(0, Math.ceil(lo - 0.5)); y < h && y + 0.5 < hi; y++) {
                rows[y].push(x0 + ((y + 0.5 - y0) * (x1 - x0)) / (y1 - y0));
            }
        }
    }
    const px = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
        const xs = rows[y].sort((a, b) => a - b);
        for (let k = 0; k + 1 < xs.length; k += 2) {
            for (let x = Math.max(0, Math.ceil(xs[k] - 0.5)); x < w && x + 0.5 < xs[k + 1]; x++) px[y * w + x] ^= 1;
        }
        // an odd count would leave a ring open
        assert.equal(xs.length % 2, 0, `row ${y} crosses the rings ${xs.length} times`);
    }
    return px;
}

const orient = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number =>
    Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
const within = (a: number, b: number, c: number): boolean => Math.min(a, b) <= c && c <= Math.max(a, b);

/** Whether closed segments ab and cd share any point. */
function touch(
    ax: number,
    ay: number,
    bx: number,
    by: number,
    cx: number,
    cy: number,
    dx: number,
    dy: number
): boolean {
    const o1 = orient(ax, ay, bx, by, cx, cy),
        o2 = orient(ax, ay, bx, by, dx, dy);
    const o3 = orient(cx, cy, dx, dy, ax, ay),
        o4 = orient(cx, cy, dx, dy, bx, by);
    if (o1 !== o2 && o3 !== o4 && o1 * o2 <= 0 && o3 * o4 <= 0 && (o1 !== 0 || o2 !== 0)) return true;
    if (o1 === 0 && within(ax, bx, cx) && within(ay, by, cy)) return true;
    if (o2 === 0 && within(ax, bx, dx) && within(ay, by, dy)) return true;
    if (o3 === 0 && within(cx, dx, ax) && within(cy, dy, ay)) return true;
    if (o4 === 0 && within(cx, dx, bx) && within(cy, dy, by)) return true;
    return false;
}

/**
 * Asserts that every ring is simple (no repeated vertex, no edge touching another except neighbours at
 * their common vertex) and that rings meet only at common vertices, where they do not cross.
 */
function assertSimple(rings: number[][]): void {
    interface Seg {
        r: number;
        i: number;
        ax: number;
        ay: number;
        bx: number;
        by: number;
        x0: number;
        x1: number;
    }
    const segs: Seg[] = [];
    const at = new Map<string, [number, number, number, number, number][]>(); // vertex → (ring, prev, next)
    rings.forEach((ring, r) => {
        const n = ring.length / 2;
        assert.ok(n >= 3, `ring ${r} has ${n} vertices`);
        const seen = new Set<string>();
        for (let i = 0; i < n; i++) {
            const ax = ring[2 * i],
                ay = ring[2 * i + 1],
                j = (i + 1) % n,
                bx = ring[2 * j],
                by = ring[2 * j + 1];
            const key = `${ax},${ay}`;
            assert.ok(!seen.has(key), `ring ${r} repeats vertex (${key})`);
            seen.add(key);
            const p = (i + n - 1) % n;
            const list = at.get(key) ?? [];
            list.push([ring[2 * p] - ax, ring[2 * p + 1] - ay, bx - ax, by - ay, r]);
            at.set(key, list);
            segs.push({ r, i, ax, ay, bx, by, x0: Math.min(ax, bx), x1: Math.max(ax, bx) });
        }
    });
    segs.sort((a, b) => a.x0 - b.x0);
    const active: Seg[] = [];
    for (const s of segs) {
        for (let k = active.length - 1; k >= 0; k--) if (active[k].x1 < s.x0) active.splice(k, 1);
        for (const o of active) {
            if (!touch(s.ax, s.ay, s.bx, s.by, o.ax, o.ay, o.bx, o.by)) continue;
            // allowed: a common endpoint, with the two segments not overlapping beyond it
            let px = NaN,
                py = NaN,
                qx = 0,
                qy = 0,
                ux = 0,
                uy = 0,
                common = 0;
            for (const [sx, sy, tx, ty] of [
                [s.ax, s.ay, s.bx, s.by],
                [s.bx, s.by, s.ax, s.ay]
            ]) {
                for (const [ox, oy, vx, vy] of [
                    [o.ax, o.ay, o.bx, o.by],
                    [o.bx, o.by, o.ax, o.ay]
                ]) {
                    if (sx === ox && sy === oy) {
                        common++;
                        px = sx;
                        py = sy;
                        qx = tx - sx;
                        qy = ty - sy;
                        ux = vx - ox;
                        uy = vy - oy;
                    }
                }
            }
            const ok = common === 1 && !(qx * uy - qy * ux === 0 && qx * ux + qy * uy > 0);
            assert.ok(
                ok,
                `ring ${s.r} edge ${s.i} touches ring ${o.r} edge ${o.i} (${s.ax},${s.ay})-(${s.bx},${s.by}) / (${o.ax},${o.ay})-(${o.bx},${o.by}) at (${px},${py})`
            );
        }
        active.push(s);
    }
    // Rings through one vertex must not cross there: the other ring's two edges lie in one sector of this ring's.
    const ang = (x: number, y: number): number => Math.atan2(y, x);
    for (const [key, list] of at) {
        for (let a = 0; a < list.length; a++)
            for (let b = a + 1; b < list.length; b++) {
                const [p1x, p1y, n1x, n1y] = list[a],
                    [p2x, p2y, n2x, n2y] = list[b];
                const lo = ang(p1x, p1y),
                    span = (ang(n1x, n1y) - lo + 4 * Math.PI) % (2 * Math.PI);
                const inA = (x: number, y: number) => (ang(x, y) - lo + 4 * Math.PI) % (2 * Math.PI) < span;
                assert.equal(inA(p2x, p2y), inA(n2x, n2y), `rings ${list[a][4]} and ${list[b][4]} cross at (${key})`);
            }
    }
}

/** Pixel centres set in the mask, as 0/1 bytes row-major. */
function pixels(m: Mask): Uint8Array {
    const px = new Uint8Array(m.width * m.height);
    forEachSet(m, (x, y) => {
        px[y * m.width + x] = 1;
    });
    return px;
}

/** Sizes of the 4-connected components, in row-major order of their first pixel. */
function components4(px: Uint8Array, w: number, h: number): number[] {
    const seen = new Uint8Array(w * h),
        sizes: number[] = [];
    for (let i = 0; i < w * h; i++) {
        if (!px[i] || seen[i]) continue;
        let n = 0;
        const stack = [i];
        seen[i] = 1;
        while (stack.length) {
            const k = stack.pop()!,
                x = k % w,
                y = (k - x) / w;
            n++;
            for (const [nx, ny] of [
                [x - 1, y],
                [x + 1, y],
                [x, y - 1],
                [x, y + 1]
            ]) {
                const q = ny * w + nx;
                if (nx >= 0 && ny >= 0 && nx < w && ny < h && px[q] && !seen[q]) {
                    seen[q] = 1;
                    stack.push(q);
                }
            }
        }
        sizes.push(n);
    }
    return sizes;
}

const allRings = (polys: Polygon[]): number[][] => polys.flatMap(p => [p.outer, ...p.holes]);

/** Every property of exact polygons: even-odd, one polygon per 4-component with its area, orientation, axis-aligned edges without collinear vertices, simplicity. */
function checkExact(m: Mask, polys: Polygon[]): void {
    const w = m.width,
        h = m.height,
        px = pixels(m);
    assert.deepEqual(evenOdd(allRings(polys), w, h), px, 'even-odd over the rings reproduces the mask');
    assert.deepEqual(
        polys.map(p => (area2(p.outer) + p.holes.reduce((s, r) => s + area2(r), 0)) / 2),
        components4(px, w, h)
    );
    for (const p of polys) {
        assert.ok(area2(p.outer) > 0, 'outer ring A > 0');
        for (const hole of p.holes) assert.ok(area2(hole) < 0, 'hole A < 0');
        for (const ring of [p.outer, ...p.holes]) {
            const n = ring.length / 2;
            for (let i = 0; i < n; i++) {
                const a = (i + n - 1) % n,
                    c = (i + 1) % n;
                const ex = ring[2 * i] - ring[2 * a],
                    ey = ring[2 * i + 1] - ring[2 * a + 1];
                const fx = ring[2 * c] - ring[2 * i],
                    fy = ring[2 * c + 1] - ring[2 * i + 1];
                assert.ok(
                    (ex === 0) !== (ey === 0) && Number.isInteger(ring[2 * i]) && Number.isInteger(ring[2 * i + 1]),
                    'axis-aligned integer edges'
                );
                assert.notEqual(ex * fy - ey * fx, 0, 'no collinear vertex');
                assert.ok(
                    ring[2 * i] >= 0 && ring[2 * i] <= w && ring[2 * i + 1] >= 0 && ring[2 * i + 1] <= h,
                    'inside the mask'
                );
            }
        }
    }
    assertSimple(allRings(polys));
}

// Random masks: noise of every density, blobs (holes in holes), and checkerboards (saddles everywhere).
const arbMask = fc
    .record({
        w: fc.oneof(fc.integer({ min: 0, max: 130 }), fc.constantFrom(1, 31, 32, 33, 64, 65, 130)),
        h: fc.oneof(fc.integer({ min: 0, max: 130 }), fc.constantFrom(1, 2, 130)),
        kind: fc.constantFrom('noise', 'noise', 'blobs', 'checker'),
        density: fc.constantFrom(0, 0.03, 0.2, 0.5, 0.7, 0.9, 1),
        seed: fc.integer()
    })
    .map(({ w, h, kind, density, seed }) => {
        if (kind === 'noise') return Ref.random(w, h, density, seed).toMask();
        const m = new Mask(w, h),
            rnd = mulberry32(seed);
        if (kind === 'checker') {
            const c = 1 + Math.floor(rnd() * 3);
            for (let y = 0; y < h; y++)
                for (let x = 0; x < w; x++)
                    if ((Math.floor(x / c) + Math.floor(y / c)) % 2 === 0 && rnd() < 0.95) m.set(x, y);
            return m;
        }
        // concentric rings around random centres, toggled: holes inside holes inside polygons
        for (let k = 0; k < 1 + rnd() * 6; k++) {
            const cx = rnd() * w,
                cy = rnd() * h,
                r = 2 + rnd() * 30,
                band = 1 + rnd() * 4;
            for (let y = 0; y < h; y++)
                for (let x = 0; x < w; x++) {
                    const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
                    if (d < r && Math.floor(d / band) % 2 === 0) m.set(x, y, !m.get(x, y));
                }
        }
        return m;
    });

test('tolerance 0: even-odd reproduces every random mask; one polygon per 4-component; orientation; simple rings', () => {
    fc.assert(
        fc.property(arbMask, m => {
            checkExact(m, toPolygons(m));
        }),
        { seed: SEED, numRuns: 250 }
    );
});

test('tolerance 0: 1xN, Nx1, full, empty, single pixels, holes in holes, diagonal contacts', () => {
    const cases: [string, Polygon[]][] = [
        ['#', [{ outer: [0, 0, 1, 0, 1, 1, 0, 1], holes: [] }]],
        ['###', [{ outer: [0, 0, 3, 0, 3, 1, 0, 1], holes: [] }]],
        ['#\n#\n#', [{ outer: [0, 0, 1, 0, 1, 3, 0, 3], holes: [] }]],
        [
            '#.#',
            [
                { outer: [0, 0, 1, 0, 1, 1, 0, 1], holes: [] },
                { outer: [2, 0, 3, 0, 3, 1, 2, 1], holes: [] }
            ]
        ],
        ['...\n...', []],
        // pixels meeting only at a corner are separate polygons (4-connectivity) that share that vertex
        [
            '#.\n.#',
            [
                { outer: [0, 0, 1, 0, 1, 1, 0, 1], holes: [] },
                { outer: [1, 1, 2, 1, 2, 2, 1, 2], holes: [] }
            ]
        ],
        [
            '.#\n#.',
            [
                { outer: [1, 0, 2, 0, 2, 1, 1, 1], holes: [] },
                { outer: [0, 1, 1, 1, 1, 2, 0, 2], holes: [] }
            ]
        ],
        ['###\n#.#\n###', [{ outer: [0, 0, 3, 0, 3, 3, 0, 3], holes: [[1, 1, 1, 2, 2, 2, 2, 1]] }]],
        // clear pixels meeting at a corner connect: this hole opens to the outside at (2, 2), so the
        // outer ring would pass (2, 2) twice; it is split there into the outer ring and a hole touching it
        ['###\n#.#\n##.', [{ outer: [0, 0, 3, 0, 3, 2, 2, 2, 2, 3, 0, 3], holes: [[2, 2, 2, 1, 1, 1, 1, 2]] }]],
        // two holes meeting at a corner are two rings sharing that vertex
        [
            '####\n#.##\n##.#\n####',
            [
                {
                    outer: [0, 0, 4, 0, 4, 4, 0, 4],
                    holes: [
                        [2, 2, 2, 3, 3, 3, 3, 2],
                        [1, 1, 1, 2, 2, 2, 2, 1]
                    ]
                }
            ]
        ],
        // a polygon inside the hole of another
        [
            '#####\n#...#\n#.#.#\n#...#\n#####',
            [
                { outer: [0, 0, 5, 0, 5, 5, 0, 5], holes: [[1, 1, 1, 4, 4, 4, 4, 1]] },
                { outer: [2, 2, 3, 2, 3, 3, 2, 3], holes: [] }
            ]
        ]
    ];
    for (const [text, expected] of cases) {
        const m = Mask.fromText(text);
        assert.deepEqual(toPolygons(m), expected, text);
        checkExact(m, expected);
    }
    for (const [w, h] of [
        [0, 0],
        [0, 5],
        [5, 0]
    ])
        assert.deepEqual(toPolygons(new Mask(w, h)), []);
    for (const [w, h] of [
        [1, 1],
        [1, 200],
        [200, 1],
        [32, 32],
        [33, 7],
        [64, 64],
        [97, 3]
    ]) {
        const full = new Mask(w, h, true),
            polys = toPolygons(full);
        assert.deepEqual(polys, [{ outer: [0, 0, w, 0, w, h, 0, h], holes: [] }]);
        const comb = new Mask(w, h);
        for (let x = 0; x < w; x += 2) for (let y = 0; y < h; y++) comb.set(x, y);
        checkExact(comb, toPolygons(comb));
        checkExact(full, polys);
    }
});

test('tolerance 0: rings crossing word boundaries and saddles at x = 31, 32, 33', () => {
    for (const x of [30, 31, 32, 33, 63, 64]) {
        const m = new Mask(96, 4);
        m.set(x, 1)
            .set(x + 1, 2)
            .set(x - 1, 2)
            .set(x, 3);
        for (let k = 0; k < 96; k++) m.set(k, 0);
        checkExact(m, toPolygons(m));
        m.invert();
        checkExact(m, toPolygons(m));
    }
});

/** The pygame example sprites, as pygame's from_surface recorded them (alpha > 127). */
function sprites(): [string, Mask][] {
    const { masks } = JSON.parse(readFileSync(SPRITES, 'utf8')) as { masks: Record<string, { rows: string[] }> };
    return Object.entries(masks).map(([name, { rows }]) => [name, Mask.fromText(rows.join('\n'))]);
}

test('tolerance 0: the pygame sprites and their inverses', () => {
    const list = sprites();
    assert.ok(list.length >= 9);
    for (const [name, m] of list) {
        const polys = toPolygons(m);
        assert.ok(polys.length > 0, name);
        checkExact(m, polys);
        checkExact(m.clone().invert(), toPolygons(m.clone().invert()));
    }
});

test('noise at 65 % fill (1024², 100,000 holes): tracing takes time linear in the vertices, and so does simplifying (512²)', () => {
    // The inputs that made convexPieces run for hours: toPolygons needs no limit of its own.
    const m = Ref.random(1024, 1024, 0.65, SEED).toMask();
    const exact = cost(() => toPolygons(m));
    const holes = exact.value.reduce((s, p) => s + p.holes.length, 0);
    assert.ok(holes > 90000, `${holes} holes`);
    assert.ok(exact.cpuMs < 5000, `toPolygons on 1024² noise took ${costText(exact)}`);
    assert.deepEqual(
        evenOdd(allRings(exact.value), m.width, m.height),
        pixels(m),
        'even-odd over the rings reproduces the mask'
    );
    const half = Ref.random(512, 512, 0.65, SEED).toMask();
    const simplified = cost(() => toPolygons(half, { tolerance: 1 }));
    assert.ok(simplified.cpuMs < 15000, `toPolygons at tolerance 1 on 512² noise took ${costText(simplified)}`);
    assert.equal(simplified.value.length, toPolygons(half).length, 'one simplified polygon per exact one');
});

test('argument checks: TypeError for a non-Mask, RangeError for a bad tolerance', () => {
    for (const bad of [null, undefined, {}, 'mask', { width: 1, height: 1, words: new Uint32Array(1) }]) {
        assert.throws(() => toPolygons(bad as unknown as Mask), {
            name: 'TypeError',
            message: /mask must be a Mask, got/
        });
    }
    const m = Mask.fromText('#');
    for (const t of [-1, -0.5, NaN, Infinity, '1']) {
        assert.throws(() => toPolygons(m, { tolerance: t as number }), {
            name: 'RangeError',
            message: /tolerance must be a finite number >= 0 \(pixels\), got/
        });
    }
    assert.throws(() => toPolygons(m, 3 as unknown as object), {
        name: 'TypeError',
        message: /options must be an object, got 3/
    });
    const d = Mask.fromText('#');
    d.dispose();
    assert.throws(() => toPolygons(d), /disposed/);
});

/** Squared distance from (px, py) to the closest point of a ring. */
function ringDist2(r: number[], px: number, py: number): number {
    let best = Infinity;
    for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
        const ax = r[j],
            ay = r[j + 1],
            dx = r[i] - ax,
            dy = r[i + 1] - ay,
            l2 = dx * dx + dy * dy;
        const u = l2 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / l2)) : 0;
        best = Math.min(best, (px - ax - u * dx) ** 2 + (py - ay - u * dy) ** 2);
    }
    return best;
}

function insideRing(r: number[], px: number, py: number): boolean {
    let inside = false;
    for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
        if (r[i + 1] > py !== r[j + 1] > py && px < r[i] + ((py - r[i + 1]) * (r[j] - r[i])) / (r[j + 1] - r[i + 1]))
            inside = !inside;
    }
    return inside;
}

/** Simplified polygons: ring for ring with the exact ones, within the tolerance both ways, oriented, simple, holes inside. */
function checkSimplified(m: Mask, tolerance: number): void {
    const exact = toPolygons(m),
        simple = toPolygons(m, { tolerance });
    assert.equal(simple.length, exact.length);
    const t2 = tolerance * tolerance + 1e-9;
    exact.forEach((e, k) => {
        const s = simple[k];
        assert.equal(s.holes.length, e.holes.length);
        for (const [er, sr] of [[e.outer, s.outer], ...e.holes.map((h, i) => [h, s.holes[i]])]) {
            assert.ok(sr.length >= 6 && sr.length <= er.length);
            assert.equal(Math.sign(area2(sr)), Math.sign(area2(er)), 'orientation kept');
            for (let i = 0; i < er.length; i += 2)
                assert.ok(
                    ringDist2(sr, er[i], er[i + 1]) <= t2,
                    `exact vertex (${er[i]}, ${er[i + 1]}) is within ${tolerance} of the simplified ring`
                );
            for (let i = 0; i < sr.length; i += 2)
                assert.ok(ringDist2(er, sr[i], sr[i + 1]) <= t2, 'simplified vertex near the exact ring');
        }
        for (const h of s.holes) {
            for (let i = 0; i < h.length; i += 2) {
                assert.ok(
                    ringDist2(s.outer, h[i], h[i + 1]) === 0 || insideRing(s.outer, h[i], h[i + 1]),
                    `hole vertex (${h[i]}, ${h[i + 1]}) inside its outer ring`
                );
            }
            // a point just inside the hole's first edge is inside the outer ring
            const dx = h[2] - h[0],
                dy = h[3] - h[1],
                l = Math.hypot(dx, dy);
            assert.ok(
                insideRing(s.outer, (h[0] + h[2]) / 2 - (dy / l) * 1e-3, (h[1] + h[3]) / 2 + (dx / l) * 1e-3),
                'hole inside its outer ring'
            );
        }
    });
    assertSimple(allRings(simple));
}

test('tolerance > 0: within the tolerance both ways, oriented, simple, no ring crossing another, holes inside', () => {
    fc.assert(
        fc.property(arbMask, fc.constantFrom(0.5, 1, 1.5, 2, 4, 10), (m, tolerance) => {
            checkSimplified(m, tolerance);
        }),
        { seed: SEED, numRuns: 200 }
    );
});

test('tolerance > 0: the pygame sprites and their inverses, fewer vertices as the tolerance grows', () => {
    for (const [name, m] of sprites()) {
        let last = Infinity;
        for (const tolerance of [0, 0.5, 1, 2, 4]) {
            checkSimplified(m, tolerance);
            checkSimplified(m.clone().invert(), tolerance);
            const n = allRings(toPolygons(m, { tolerance })).reduce((s, r) => s + r.length / 2, 0);
            assert.ok(n <= last, `${name}: ${n} vertices at tolerance ${tolerance}, ${last} before`);
            last = n;
        }
    }
    // a long diagonal staircase collapses to its two ends at tolerance 1
    const stair = new Mask(64, 64);
    for (let y = 0; y < 64; y++) for (let x = 0; x <= y; x++) stair.set(x, y);
    assert.ok(toPolygons(stair, { tolerance: 1 })[0].outer.length <= 8);
});
