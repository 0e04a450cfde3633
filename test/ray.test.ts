// @test fast no-shared
// mask.raycast against the naive oracle (every set pixel's slab entry, the smallest) on seeded random masks
// and segments of every kind, on both kernel paths; the edge and corner rules; huge coordinates; errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachSet, Mask, raycast, type RayHit } from '../src/index.js';
import { mulberry32, testKernels } from './reference.js';
import { fields, refCast, segments } from './ray-reference.js';

const SEED = 20261215;

function randomMask(w: number, h: number, density: number, rnd: () => number): { m: Mask; set: [number, number][] } {
    const m = new Mask(w, h),
        set: [number, number][] = [];
    for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++)
            if (rnd() < density) {
                m.set(x, y);
                set.push([x, y]);
            }
    return { m, set };
}

const cast = (m: Mask, s: readonly number[]) => raycast(m, s[0], s[1], s[2], s[3]);
const ref = (m: Mask, s: readonly number[]) =>
    fields(refCast((i, j) => m.get(i, j), m.width, m.height, 0, 0, s[0], s[1], s[2], s[3]));

testKernels('mask.raycast equals the naive oracle on random masks and segments', () => {
    const rnd = mulberry32(SEED);
    const sizes: [number, number][] = [
        [1, 1],
        [7, 3],
        [31, 33],
        [32, 32],
        [33, 17],
        [64, 5],
        [65, 70],
        [100, 90],
        [130, 40],
        [5, 140]
    ];
    let hits = 0,
        total = 0;
    for (const [w, h] of sizes) {
        for (const density of [0.002, 0.02, 0.1, 0.5]) {
            const { m, set } = randomMask(w, h, density, rnd);
            for (const s of segments(rnd, w, h, 0, 0, 150, set)) {
                const want = ref(m, s);
                assert.deepEqual(fields(cast(m, s)), want, `${w}x${h} density ${density}, segment ${s.join(', ')}`);
                total++;
                if (want) hits++;
            }
        }
    }
    assert.ok(hits > total / 4 && hits < total, `${hits} of ${total} hit`);
});

testKernels('raycast with out fills it like raycast, returns it, and leaves it alone on a miss', () => {
    const rnd = mulberry32(SEED + 1);
    const { m } = randomMask(70, 50, 0.01, rnd);
    const out: RayHit = { px: -9, py: -9, x: -9, y: -9, distance: -9, nx: -9, ny: -9 };
    for (const s of segments(rnd, 70, 50, 0, 0, 300)) {
        const before = { ...out },
            hit = cast(m, s);
        assert.equal(raycast(m, s[0], s[1], s[2], s[3], out), hit === null ? null : out);
        assert.deepEqual(out, hit ?? before);
    }
});

test('rules: half-open pixels, edges, corners, starts and ends (docs/rays.md)', () => {
    const one = (x: number, y: number, w = 8, h = 8) => new Mask(w, h).set(x, y);
    // A ray along the line y = 3 runs in row 3: it hits (5, 3) and never touches row 2.
    assert.deepEqual(raycast(one(5, 3), 0, 3, 8, 3), { px: 5, py: 3, x: 5, y: 3, distance: 5, nx: -1, ny: 0 });
    assert.equal(raycast(one(5, 2), 0, 3, 8, 3), null);
    // Likewise x = 4 is column 4, going up: entered through the bottom face.
    assert.deepEqual(raycast(one(4, 1), 4, 7.5, 4, 0), { px: 4, py: 1, x: 4, y: 2, distance: 5.5, nx: 0, ny: 1 });
    assert.equal(raycast(one(3, 1), 4, 7.5, 4, 0), null);
    // Down-right exactly through the corner (3, 3): from (2, 2) straight to (3, 3); the side pixels are not touched.
    const wall = new Mask(8, 8).set(3, 2).set(2, 3);
    assert.equal(raycast(wall, 0, 0, 8, 8), null, 'a 45° ray slips through a one-pixel "/" wall at its corner');
    assert.deepEqual(raycast(one(3, 3), 0, 0, 8, 8), {
        px: 3,
        py: 3,
        x: 3,
        y: 3,
        distance: 3 * Math.SQRT2,
        nx: -1,
        ny: 0
    });
    // Through a corner both faces are entered: the normal is the faster axis's face (x on a tie).
    assert.deepEqual(raycast(one(2, 1), 0, 0, 4, 2), {
        px: 2,
        py: 1,
        x: 2,
        y: 1,
        distance: Math.hypot(2, 1),
        nx: -1,
        ny: 0
    });
    assert.deepEqual(raycast(one(1, 2), 0, 0, 2, 4), {
        px: 1,
        py: 2,
        x: 1,
        y: 2,
        distance: Math.hypot(1, 2),
        nx: 0,
        ny: -1
    });
    // Up-right through the corner (3, 5): the corner point is pixel (3, 5)'s, so the ray touches it there.
    assert.deepEqual(raycast(one(3, 5), 1, 7, 5, 3), {
        px: 3,
        py: 5,
        x: 3,
        y: 5,
        distance: 2 * Math.SQRT2,
        nx: -1,
        ny: 0
    });
    assert.equal(raycast(one(2, 4), 1, 7, 5, 3), null, 'the other side pixel (2, 4) is not touched');
    // Down-left through (3, 5): touches (3, 5) too, entered through its top face (x = 3 still belongs to column 3).
    assert.deepEqual(raycast(one(3, 5), 5, 3, 1, 7), {
        px: 3,
        py: 5,
        x: 3,
        y: 5,
        distance: 2 * Math.SQRT2,
        nx: 0,
        ny: -1
    });
    // Up-left through (3, 3): from (3, 3) straight to (2, 2).
    assert.equal(raycast(wall, 6, 6, 0, 0), null);
    // Starting inside a set pixel: distance 0, normal (0, 0), the start as the point.
    assert.deepEqual(raycast(one(2, 2), 2.25, 2.75, 7, 7), {
        px: 2,
        py: 2,
        x: 2.25,
        y: 2.75,
        distance: 0,
        nx: 0,
        ny: 0
    });
    assert.deepEqual(
        raycast(one(2, 2), 2, 2, 0, 0),
        { px: 2, py: 2, x: 2, y: 2, distance: 0, nx: 0, ny: 0 },
        'the top-left corner is inside'
    );
    // Starting on the right edge of a set pixel, moving left: it is entered at once (distance 0), through that face.
    assert.deepEqual(raycast(one(2, 2), 3, 2.5, 0, 2.5), { px: 2, py: 2, x: 3, y: 2.5, distance: 0, nx: 1, ny: 0 });
    // Zero-length segments hit only the pixel they are in.
    assert.deepEqual(raycast(one(2, 2), 2.5, 2.5, 2.5, 2.5), {
        px: 2,
        py: 2,
        x: 2.5,
        y: 2.5,
        distance: 0,
        nx: 0,
        ny: 0
    });
    assert.equal(raycast(one(2, 2), 3, 2.5, 3, 2.5), null);
    // An end exactly on a boundary: moving right it touches the pixel there; moving left it does not.
    assert.deepEqual(raycast(one(5, 0), 0.5, 0.5, 5, 0.5), {
        px: 5,
        py: 0,
        x: 5,
        y: 0.5,
        distance: 4.5,
        nx: -1,
        ny: 0
    });
    assert.equal(raycast(one(4, 0), 7.5, 0.5, 5, 0.5), null);
    // The mask's own edges: outside is clear, and a ray from outside enters through the box face.
    assert.deepEqual(raycast(one(0, 4), -100, 4.5, 100, 4.5), {
        px: 0,
        py: 4,
        x: 0,
        y: 4.5,
        distance: 100,
        nx: -1,
        ny: 0
    });
    assert.deepEqual(raycast(one(7, 7), 7.5, 100, 7.5, -100), {
        px: 7,
        py: 7,
        x: 7.5,
        y: 8,
        distance: 92,
        nx: 0,
        ny: 1
    });
    assert.equal(raycast(new Mask(0, 0), -1, -1, 1, 1), null);
    assert.equal(raycast(new Mask(0, 5), 0, 0, 0, 5), null);
});

testKernels('long rays: every direction across big masks, the first pixel after long empty runs', () => {
    const rnd = mulberry32(SEED + 2);
    for (const [w, h] of [
        [300, 260],
        [1024, 40],
        [40, 1024]
    ] as const) {
        const m = new Mask(w, h);
        // A few pixels only, so the walk skips most blocks.
        for (let k = 0; k < 12; k++) m.set(Math.floor(rnd() * w), Math.floor(rnd() * h));
        for (let k = 0; k < 60; k++) {
            const th = rnd() * 2 * Math.PI,
                cx = rnd() * w,
                cy = rnd() * h,
                L = w + h;
            const s = [cx - L * Math.cos(th), cy - L * Math.sin(th), cx + L * Math.cos(th), cy + L * Math.sin(th)];
            assert.deepEqual(fields(cast(m, s)), ref(m, s), `${w}x${h} ${s.join(', ')}`);
        }
        // Through each set pixel's centre from far away in 16 directions: always a hit.
        forEachSet(m, (x, y) => {
            for (let d = 0; d < 16; d++) {
                const th = (d * Math.PI) / 8,
                    s = [x + 0.5 - 2000 * Math.cos(th), y + 0.5 - 2000 * Math.sin(th), x + 0.5, y + 0.5];
                const want = ref(m, s);
                assert.ok(want);
                assert.deepEqual(fields(cast(m, s)), want);
            }
        });
    }
});

test('huge coordinates: clipped to the mask first, exact where the line is exactly representable', () => {
    const rnd = mulberry32(SEED + 3);
    const { m } = randomMask(60, 45, 0.05, rnd);
    const approx = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
    for (const big of [2 ** 33, 1e15, 2 ** 60, 1e300, Number.MAX_VALUE]) {
        for (let k = 0; k < 40; k++) {
            // Axis-aligned: the same pixels as a short segment on the same line.
            const y = Math.round(rnd() * 90) / 2 - 1,
                x = Math.round(rnd() * 120) / 2 - 1,
                dir = rnd() < 0.5 ? 1 : -1;
            for (const [s, short] of [
                [
                    [-dir * big, y, dir * big, y],
                    [dir > 0 ? -5 : 65, y, dir > 0 ? 65 : -5, y]
                ],
                [
                    [x, -dir * big, x, dir * big],
                    [x, dir > 0 ? -5 : 50, x, dir > 0 ? 50 : -5]
                ]
            ]) {
                const got = cast(m, s),
                    want = ref(m, short);
                assert.equal(!!got, !!want, `${s.join(', ')}`);
                if (!got || !want) continue;
                assert.deepEqual(
                    [got.px, got.py, got.x, got.y, got.nx, got.ny],
                    [want.px, want.py, want.x, want.y, want.nx, want.ny]
                );
                assert.ok(approx(got.distance, Math.hypot(got.x - s[0], got.y - s[1])));
            }
        }
    }
    // The diagonal y = x + c from far away (c an integer, so every coordinate is exact): as a short one.
    for (let c = -50; c <= 60; c += 3) {
        for (const [a, b] of [
            [-(2 ** 52), 2 ** 52],
            [2 ** 52, -(2 ** 52)],
            [-(2 ** 1023), 2 ** 1023]
        ]) {
            const s = [
                a,
                c === 0 || Math.abs(a) < 2 ** 60 ? a + c : a,
                b,
                c === 0 || Math.abs(b) < 2 ** 60 ? b + c : b
            ];
            const cc = s[1] - s[0],
                short = a < 0 ? [-10, -10 + cc, 80, 80 + cc] : [80, 80 + cc, -10, -10 + cc];
            const got = cast(m, s),
                want = ref(m, short);
            assert.deepEqual(
                got && [got.px, got.py, got.x, got.y, got.nx, got.ny],
                want && [want.px, want.py, want.x, want.y, want.nx, want.ny],
                `c = ${cc}, ${s.join(', ')}`
            );
            if (got)
                assert.ok(
                    Number.isFinite(got.distance) && approx(got.distance, Math.hypot(got.x - s[0], got.y - s[1]))
                );
        }
    }
    // Any far segment: no overflow or NaN, and the hit is a set pixel with the point on its boundary.
    const R = () => (rnd() < 0.5 ? -1 : 1) * [1e10, 1e40, 1e200, Number.MAX_VALUE][Math.floor(rnd() * 4)] * rnd();
    for (let k = 0; k < 2000; k++) {
        const s = [R(), R(), R(), R()];
        if (k % 3 === 0) {
            s[0] = rnd() * 60;
            s[1] = rnd() * 45;
        }
        const h = cast(m, s);
        if (!h) continue;
        assert.ok(m.get(h.px, h.py), `${s.join(', ')}`);
        assert.ok(h.x >= h.px && h.x <= h.px + 1 && h.y >= h.py && h.y <= h.py + 1);
        // (The distance from a start near ±Number.MAX_VALUE on both axes overflows to Infinity.)
        assert.ok(h.distance >= 0 && !Number.isNaN(h.distance));
        assert.ok(Math.abs(h.nx) + Math.abs(h.ny) === 1 || (h.distance === 0 && h.nx === 0 && h.ny === 0));
    }
});

test('bad arguments throw, naming the value', () => {
    const m = new Mask(4, 4).set(1, 1);
    const out: RayHit = { px: 0, py: 0, x: 0, y: 0, distance: 0, nx: 0, ny: 0 };
    assert.throws(() => raycast(m, NaN, 0, 1, 1), {
        name: 'RangeError',
        message: 'x0 must be a finite number, got NaN.'
    });
    assert.throws(() => raycast(m, 0, Infinity, 1, 1), {
        name: 'RangeError',
        message: 'y0 must be a finite number, got Infinity.'
    });
    assert.throws(() => raycast(m, 0, 0, -Infinity, 1), {
        name: 'RangeError',
        message: 'x1 must be a finite number, got -Infinity.'
    });
    assert.throws(() => raycast(m, 0, 0, 1, NaN), {
        name: 'RangeError',
        message: 'y1 must be a finite number, got NaN.'
    });
    assert.throws(() => raycast(m, '1' as unknown as number, 0, 1, 1), {
        name: 'TypeError',
        message: 'x0 must be a number, got "1".'
    });
    assert.throws(() => raycast(m, 0, 0, 1, undefined as unknown as number), {
        name: 'TypeError',
        message: 'y1 must be a number, got undefined.'
    });
    assert.throws(() => raycast(m, 0, 0, 1, 1, null as unknown as RayHit), {
        name: 'TypeError',
        message: 'out must be a RayHit object, got null.'
    });
    const gone = new Mask(4, 4);
    gone.dispose();
    assert.throws(() => raycast(gone, 0, 0, 1, 1), /was disposed/);
    assert.throws(() => raycast(gone, 0, 0, 1, 1, out), /was disposed/);
});
