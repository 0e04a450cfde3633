// @test fast
// hitmask/debug against a fake 2D context that records every call: the pixels the helpers fill, the
// images they put, the lines they stroke, and their errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectedComponents, Mask, outline, raycast, TileMap } from '../src/index.js';
import {
    cssColor,
    drawBox,
    drawIntersection,
    drawMask,
    drawNormal,
    drawOutline,
    drawOverlap,
    drawPieces,
    drawPolygons,
    drawRay,
    drawTileMap,
    forgetMask,
    intersection,
    type DebugContext
} from '../src/debug.js';
import { convexPieces, toPolygons } from '../src/shapes.js';

type Call = [string, ...unknown[]];

// Records calls; fillRect also records the fill style in force.
function recorder(): DebugContext & { calls: Call[]; filled(): Set<string> } {
    const calls: Call[] = [];
    const ctx = {
        calls,
        fillStyle: '#000' as DebugContext['fillStyle'],
        strokeStyle: '#000' as DebugContext['strokeStyle'],
        lineWidth: 1,
        save: () => {
            calls.push(['save']);
        },
        restore: () => {
            calls.push(['restore']);
        },
        fillRect: (x: number, y: number, w: number, h: number) => {
            calls.push(['fillRect', x, y, w, h, ctx.fillStyle]);
        },
        strokeRect: (x: number, y: number, w: number, h: number) => {
            calls.push(['strokeRect', x, y, w, h, ctx.strokeStyle, ctx.lineWidth]);
        },
        beginPath: () => {
            calls.push(['beginPath']);
        },
        moveTo: (x: number, y: number) => {
            calls.push(['moveTo', x, y]);
        },
        lineTo: (x: number, y: number) => {
            calls.push(['lineTo', x, y]);
        },
        stroke: () => {
            calls.push(['stroke', ctx.strokeStyle]);
        },
        drawImage: (img: unknown, x: number, y: number) => {
            calls.push(['drawImage', img, x, y]);
        },
        // Every pixel covered by a fillRect, as "x,y" (rects are whole pixels here).
        filled(): Set<string> {
            const s = new Set<string>();
            for (const c of calls) {
                if (c[0] !== 'fillRect') continue;
                const [x, y, w, h] = c.slice(1, 5) as number[];
                for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) s.add(`${x + i},${y + j}`);
            }
            return s;
        }
    };
    return ctx;
}

// Seeded pseudo-random mask (xorshift), about half the pixels set.
function randomMask(w: number, h: number, seed: number): Mask {
    let s = seed >>> 0 || 1;
    const m = new Mask(w, h);
    for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
            s ^= s << 13;
            s >>>= 0;
            s ^= s >>> 17;
            s ^= s << 5;
            s >>>= 0;
            if (s & 1) m.set(x, y);
        }
    return m;
}

function pixelsOf(m: Mask, x: number, y: number): Set<string> {
    const s = new Set<string>();
    for (let j = 0; j < m.height; j++) for (let i = 0; i < m.width; i++) if (m.get(i, j)) s.add(`${x + i},${y + j}`);
    return s;
}

test('cssColor turns 0xRRGGBBAA into rgba()', () => {
    assert.equal(cssColor(0xff000080), 'rgba(255, 0, 0, 0.502)');
    assert.equal(cssColor(0x00ff00ff), 'rgba(0, 255, 0, 1)');
    assert.equal(cssColor(0), 'rgba(0, 0, 0, 0)');
});

test('drawMask without a canvas fills exactly the set pixels, one fillRect per run, at the floored position', () => {
    const m = Mask.fromText(`
        ##..#
        .###.
        #...#`);
    const ctx = recorder();
    drawMask(ctx, m, 10.7, -3.2, { color: 0x11223344 });
    assert.deepEqual(ctx.filled(), pixelsOf(m, 10, -4));
    const rects = ctx.calls.filter(c => c[0] === 'fillRect');
    assert.equal(rects.length, 5, 'runs: ## | # | ### | # | #');
    assert.ok(rects.every(c => c[5] === 'rgba(17, 34, 51, 0.267)'));
    assert.deepEqual(ctx.calls[0], ['save']);
    assert.deepEqual(ctx.calls.at(-1), ['restore']);
});

test('drawMask renders each (mask, colour) once into a cached canvas and draws it with drawImage', () => {
    interface FakeImage {
        data: Uint8ClampedArray;
        width: number;
        height: number;
    }
    const puts: FakeImage[] = [];
    let created = 0;
    class FakeOffscreen {
        constructor(
            readonly width: number,
            readonly height: number
        ) {
            created++;
        }
        getContext() {
            return {
                createImageData: (w: number, h: number): FakeImage => ({
                    data: new Uint8ClampedArray(w * h * 4),
                    width: w,
                    height: h
                }),
                putImageData: (img: FakeImage, x: number, y: number) => {
                    assert.equal(x, 0);
                    assert.equal(y, 0);
                    puts.push(img);
                }
            };
        }
    }
    const g = globalThis as { OffscreenCanvas?: unknown };
    const saved = g.OffscreenCanvas;
    g.OffscreenCanvas = FakeOffscreen;
    try {
        const m = randomMask(37, 11, 5);
        const ctx = recorder();
        drawMask(ctx, m, 3, 4, { color: 0xff000080 });
        drawMask(ctx, m, 50, 60, { color: 0xff000080 });
        assert.equal(created, 1, 'second draw reuses the canvas');
        assert.equal(puts.length, 1);
        const img = puts[0];
        assert.equal(img.width, 37);
        assert.equal(img.height, 11);
        for (let y = 0; y < 11; y++)
            for (let x = 0; x < 37; x++) {
                const p = 4 * (y * 37 + x);
                assert.deepEqual(
                    [...img.data.subarray(p, p + 4)],
                    m.get(x, y) ? [255, 0, 0, 128] : [0, 0, 0, 0],
                    `pixel ${x},${y}`
                );
            }
        const draws = ctx.calls.filter(c => c[0] === 'drawImage');
        assert.equal(draws.length, 2);
        assert.ok(draws[0][1] instanceof FakeOffscreen);
        assert.equal(draws[0][1], draws[1][1]);
        assert.deepEqual(
            draws.map(c => c.slice(2)),
            [
                [3, 4],
                [50, 60]
            ]
        );
        assert.equal(ctx.calls.filter(c => c[0] === 'fillRect').length, 0);
        drawMask(ctx, m, 0, 0, { color: 0x00ff00ff });
        assert.equal(created, 2, 'another colour, another canvas');
        m.set(0, 0, !m.get(0, 0));
        forgetMask(m);
        drawMask(ctx, m, 0, 0, { color: 0xff000080 });
        assert.equal(created, 3, 'forgetMask drops the stale canvas');
        assert.equal(puts[2].data[3], m.get(0, 0) ? 128 : 0);
        drawMask(ctx, new Mask(0, 5), 0, 0);
        assert.equal(created, 3, 'empty masks draw nothing');
    } finally {
        g.OffscreenCanvas = saved;
    }
});

test('drawOverlap fills exactly the pixels set in both masks and returns the overlap area', () => {
    const a = randomMask(45, 30, 1),
        b = randomMask(33, 40, 2);
    const offsets: [number, number][] = [
        [0, 0],
        [12, 7],
        [-5, 20],
        [40, -35],
        [44, 29],
        [45, 0],
        [-33, -40],
        [7.9, -2.1]
    ];
    for (const [dx, dy] of offsets) {
        const ctx = recorder();
        const ax = 100,
            ay = 50;
        const n = drawOverlap(ctx, a, b, dx, dy, { x: ax, y: ay, color: 0xff0000ff });
        const fx = Math.floor(dx),
            fy = Math.floor(dy);
        const expected = new Set<string>();
        for (let y = 0; y < a.height; y++)
            for (let x = 0; x < a.width; x++) {
                if (a.get(x, y) && b.get(x - fx, y - fy)) expected.add(`${ax + x},${ay + y}`);
            }
        assert.deepEqual(ctx.filled(), expected, `offset ${dx},${dy}`);
        assert.equal(n, expected.size);
        assert.equal(n, a.overlapArea(b, dx, dy));
        if (n > 0) assert.ok(ctx.calls.some(c => c[0] === 'fillRect' && c[5] === 'rgba(255, 0, 0, 1)'));
    }
});

test('drawIntersection fills the zone where the boxes meet; touching boxes do not meet', () => {
    const a = new Mask(10, 8),
        b = new Mask(6, 6);
    const ctx = recorder();
    assert.deepEqual(drawIntersection(ctx, a, b, 7, -2), { x: 7, y: 0, width: 3, height: 4 });
    assert.deepEqual(
        ctx.calls.find(c => c[0] === 'fillRect'),
        ['fillRect', 7, 0, 3, 4, 'rgba(255, 255, 0, 0.251)']
    );
    const ctx2 = recorder();
    assert.equal(drawIntersection(ctx2, a, b, 10, 0), null);
    assert.equal(ctx2.calls.length, 0);
    assert.deepEqual(intersection(a, b, -4.5, 6.9), { x: 0, y: 6, width: 1, height: 2 }, 'floored like the masks');
});

test('drawBox strokes half a line inside the box; boxes thinner than two lines are filled', () => {
    const ctx = recorder();
    drawBox(ctx, 10.6, 20, 30, 40, { color: 0x00ffffff });
    assert.deepEqual(
        ctx.calls.find(c => c[0] === 'strokeRect'),
        ['strokeRect', 10.5, 20.5, 29, 39, 'rgba(0, 255, 255, 1)', 1]
    );
    const ctx2 = recorder();
    drawBox(ctx2, 0, 0, 30, 40, { color: 0x00ffffff, lineWidth: 4 });
    assert.deepEqual(ctx2.calls.find(c => c[0] === 'strokeRect')?.slice(1, 5), [2, 2, 26, 36]);
    const ctx3 = recorder();
    drawBox(ctx3, 5, 5, 2, 9);
    assert.deepEqual(
        ctx3.filled(),
        new Set(Array.from({ length: 18 }, (_, i) => `${5 + (i % 2)},${5 + Math.floor(i / 2)}`))
    );
    const ctx4 = recorder();
    drawBox(ctx4, 5, 5, 0, 9);
    assert.equal(ctx4.calls.length, 0);
});

test('drawNormal marks the contact pixel and draws an arrow along the normal', () => {
    const ctx = recorder();
    drawNormal(ctx, { x: 10, y: 20, normalX: 0, normalY: -1 }, { color: 0x00ff00ff, length: 16 });
    assert.deepEqual(
        ctx.calls.find(c => c[0] === 'fillRect'),
        ['fillRect', 9, 19, 3, 3, 'rgba(0, 255, 0, 1)']
    );
    const path = ctx.calls.filter(c => c[0] === 'moveTo' || c[0] === 'lineTo');
    assert.deepEqual(path[0], ['moveTo', 10.5, 20.5]);
    assert.deepEqual(path[1], ['lineTo', 10.5, 4.5], 'tip 16 px up');
    assert.equal(path.length, 5, 'shaft and two head strokes');
    // The head strokes start below the tip, one on each side of the shaft.
    assert.ok((path[2][2] as number) > 4.5 && (path[4][2] as number) > 4.5);
    assert.ok(Math.sign((path[2][1] as number) - 10.5) === -Math.sign((path[4][1] as number) - 10.5));
    const ctx2 = recorder();
    drawNormal(ctx2, { x: 0, y: 0, normalX: 0, normalY: 0 });
    assert.equal(ctx2.calls.filter(c => c[0] === 'lineTo').length, 0, 'no direction, no arrow');
});

test('drawOutline strokes every component through its boundary pixel centres', () => {
    const m = Mask.fromText(`
        ##....
        ##..#.
        ......`);
    const ctx = recorder();
    drawOutline(ctx, m, 100, 200, { color: 0xffffffff });
    const path = ctx.calls.filter(c => c[0] === 'moveTo' || c[0] === 'lineTo').map(c => `${c[0]} ${c[1]},${c[2]}`);
    const first = outline(connectedComponents(m)[0]).map(p => `${100.5 + p.x},${200.5 + p.y}`);
    assert.deepEqual(
        path.slice(0, first.length),
        first.map((p, i) => `${i === 0 ? 'moveTo' : 'lineTo'} ${p}`)
    );
    assert.deepEqual(path.slice(first.length), ['moveTo 104.5,201.5', 'lineTo 104.5,201.5']);
    assert.equal(ctx.calls.filter(c => c[0] === 'stroke').length, 1, 'one path for the whole mask');
});

test('bad arguments throw errors naming the value', () => {
    const ctx = recorder(),
        m = new Mask(4, 4, true);
    assert.throws(() => drawMask(ctx, m, 0, 0, { color: -1 }), /color must be an integer 0xRRGGBBAA .*got -1/);
    assert.throws(() => drawMask(ctx, m, 0, 0, { color: 0x100000000 }), /got 4294967296/);
    assert.throws(() => drawMask(ctx, m, 0, 0, { color: 1.5 }), /got 1\.5/);
    assert.throws(() => drawMask(ctx, m, 0, 0, { color: '#fff' as unknown as number }), /got "#fff"/);
    assert.throws(() => drawMask(ctx, m, NaN, 0), /x must be a finite number, got NaN/);
    assert.throws(() => drawMask(ctx, m, 0, Infinity), /y must be a finite number, got Infinity/);
    assert.throws(() => drawMask(ctx, {} as Mask, 0, 0), /mask must be a Mask, got Object/);
    assert.throws(
        () => drawMask(null as unknown as DebugContext, m, 0, 0),
        /ctx must be a CanvasRenderingContext2D, got null/
    );
    assert.throws(() => drawOverlap(ctx, m, 'b' as unknown as Mask, 0, 0), TypeError);
    assert.throws(
        () => drawMask(ctx, m, 0, 0, 0xff0000ff as unknown as object),
        /style must be an object like \{ color: 0xff0000ff \}, got 4278190335; colours moved into it in 0\.2\.0/
    );
    assert.throws(() => drawOverlap(ctx, m, m, 0, -Infinity), /dy must be a finite number/);
    assert.throws(() => drawBox(ctx, 0, 0, -1, 5), /width must be an integer in 0\.\.1073741824, got -1/);
    assert.throws(
        () => drawBox(ctx, 0, 0, 5, 5, { color: 0xffffffff, lineWidth: 0 }),
        /lineWidth must be an integer in 1\.\.1024, got 0/
    );
    assert.throws(
        () => drawNormal(ctx, null as unknown as { x: number; y: number; normalX: number; normalY: number }),
        /contact must be an object/
    );
    assert.throws(
        () => drawNormal(ctx, { x: 0, y: 0, normalX: NaN, normalY: 0 }),
        /contact\.normalX must be a finite number, got NaN/
    );
    assert.throws(
        () => drawNormal(ctx, { x: 0, y: 0, normalX: 1, normalY: 0 }, { color: 0xffffffff, length: 0 }),
        /length must be a positive finite number, got 0/
    );
    assert.throws(
        () => drawOutline(ctx, m, 0, 0, { color: 0xffffffff, lineWidth: -2 }),
        /lineWidth must be a positive finite number, got -2/
    );
    assert.throws(() => forgetMask(undefined as unknown as Mask), /mask must be a Mask, got undefined/);
    assert.throws(() => cssColor(NaN), /got NaN/);
    assert.equal(ctx.calls.length, 0, 'nothing drawn by a failing call');
});

test('drawRay: the segment up to the hit, a dot on the entry point and the normal; errors name the value', () => {
    const m = new Mask(20, 10).set(12, 4),
        hit = raycast(m, 2.5, 4.5, 19.5, 4.5);
    const ctx = recorder();
    drawRay(ctx, 2.5, 4.5, 19.5, 4.5, hit, { color: 0xff000080, normalColor: 0x00ff00ff, length: 10 });
    assert.deepEqual(ctx.calls, [
        ['save'],
        ['beginPath'],
        ['moveTo', 2.5, 4.5],
        ['lineTo', 12, 4.5],
        ['stroke', 'rgba(255, 0, 0, 0.502)'],
        ['fillRect', 10.5, 3, 3, 3, 'rgba(0, 255, 0, 1)'],
        ['beginPath'],
        ['moveTo', 12, 4.5],
        ['lineTo', 2, 4.5],
        ['moveTo', 2 + 5 * 0.866, 4.5 + 5 * 0.5],
        ['lineTo', 2, 4.5],
        ['lineTo', 2 + 5 * 0.866, 4.5 - 5 * 0.5],
        ['stroke', 'rgba(0, 255, 0, 1)'],
        ['restore']
    ]);
    // A miss: the whole segment, nothing else. Starting inside: the dot, no arrow.
    const miss = recorder();
    drawRay(miss, 0, 0, 5, 0, null);
    assert.deepEqual(
        miss.calls.map(c => c[0]),
        ['save', 'beginPath', 'moveTo', 'lineTo', 'stroke', 'restore']
    );
    const inside = recorder();
    drawRay(inside, 12.5, 4.5, 0, 0, raycast(m, 12.5, 4.5, 0, 0));
    assert.deepEqual(
        inside.calls.map(c => c[0]),
        ['save', 'beginPath', 'moveTo', 'lineTo', 'stroke', 'fillRect', 'restore']
    );
    assert.throws(() => drawRay(recorder(), NaN, 0, 1, 1, null), {
        name: 'RangeError',
        message: 'x0 must be a finite number, got NaN.'
    });
    assert.throws(() => drawRay(recorder(), 0, 0, 1, 1, 5 as never), {
        name: 'TypeError',
        message: 'hit must be a RayHit or null, got 5.'
    });
    assert.throws(() => drawRay(recorder(), 0, 0, 1, 1, null, { color: -1 }), RangeError);
    assert.throws(() => drawRay({} as DebugContext, 0, 0, 1, 1, null), TypeError);
});

test('drawPolygons: every ring of every polygon, holes included, closed, in one path at the floored position', () => {
    // A ring with a hole and an island inside the hole (docs/shapes.md's example).
    const m = Mask.fromText(`
#####.
#...#.
#.#.##
#...#.
#####.`);
    const polygons = toPolygons(m);
    const ctx = recorder();
    drawPolygons(ctx, polygons, 10.7, 20.2, { color: 0xff000080, lineWidth: 2 });
    assert.deepEqual(ctx.calls, [
        ['save'],
        ['beginPath'],
        ['moveTo', 10, 20],
        ['lineTo', 15, 20],
        ['lineTo', 15, 22],
        ['lineTo', 16, 22],
        ['lineTo', 16, 23],
        ['lineTo', 15, 23],
        ['lineTo', 15, 25],
        ['lineTo', 10, 25],
        ['lineTo', 10, 20],
        ['moveTo', 11, 21],
        ['lineTo', 11, 24],
        ['lineTo', 14, 24],
        ['lineTo', 14, 21],
        ['lineTo', 11, 21],
        ['moveTo', 12, 22],
        ['lineTo', 13, 22],
        ['lineTo', 13, 23],
        ['lineTo', 12, 23],
        ['lineTo', 12, 22],
        ['stroke', 'rgba(255, 0, 0, 0.502)'],
        ['restore']
    ]);
    // Defaults: opaque yellow, 1 px; nothing to draw is an empty path.
    const empty = recorder();
    drawPolygons(empty, toPolygons(new Mask(4, 4)), 0, 0);
    assert.deepEqual(empty.calls, [['save'], ['beginPath'], ['stroke', 'rgba(255, 208, 0, 1)'], ['restore']]);
    let width = 0;
    const w = recorder();
    w.stroke = () => {
        width = w.lineWidth;
    };
    drawPolygons(w, polygons, 0, 0);
    assert.equal(width, 1);
});

test('drawPieces: one closed sub-path per convex piece, in one path', () => {
    const m = Mask.fromText(`
##.
###`);
    const [polygon] = toPolygons(m);
    const pieces = convexPieces(polygon);
    assert.ok(pieces.length >= 2, 'an L needs two pieces or more');
    const ctx = recorder();
    drawPieces(ctx, pieces, -3, 4.9, { color: 0x00ff00ff });
    const expected: Call[] = [['save'], ['beginPath']];
    for (const p of pieces) {
        expected.push(['moveTo', p[0] - 3, p[1] + 4]);
        for (let i = 2; i < p.length; i += 2) expected.push(['lineTo', p[i] - 3, p[i + 1] + 4]);
        expected.push(['lineTo', p[0] - 3, p[1] + 4]);
    }
    expected.push(['stroke', 'rgba(0, 255, 0, 1)'], ['restore']);
    assert.deepEqual(ctx.calls, expected);
    // The exact calls for hand-written rings.
    const hand = recorder();
    drawPieces(
        hand,
        [
            [0, 0, 2, 0, 0, 2],
            [2, 0, 2, 2, 0, 2]
        ],
        1,
        1
    );
    assert.deepEqual(hand.calls, [
        ['save'],
        ['beginPath'],
        ['moveTo', 1, 1],
        ['lineTo', 3, 1],
        ['lineTo', 1, 3],
        ['lineTo', 1, 1],
        ['moveTo', 3, 1],
        ['lineTo', 3, 3],
        ['lineTo', 1, 3],
        ['lineTo', 3, 1],
        ['stroke', 'rgba(64, 192, 255, 1)'],
        ['restore']
    ]);
});

test('drawPolygons / drawPieces: argument errors name the value, and nothing is drawn', () => {
    const ctx = recorder();
    const ok = [{ outer: [0, 0, 1, 0, 1, 1, 0, 1], holes: [] }];
    assert.throws(() => drawPolygons({} as DebugContext, ok, 0, 0), {
        name: 'TypeError',
        message: 'ctx must be a CanvasRenderingContext2D, got Object.'
    });
    assert.throws(
        () => drawPolygons(ctx, null as never, 0, 0),
        /polygons must be an array of \{ outer, holes \}.*got null/
    );
    assert.throws(
        () => drawPolygons(ctx, [5] as never, 0, 0),
        /polygons\[0\] must be an object \{ outer: number\[\], holes: number\[\]\[\] \}, got 5/
    );
    assert.throws(() => drawPolygons(ctx, [{ outer: [0, 0, 1, 0], holes: [] }], 0, 0), {
        name: 'TypeError',
        message: 'polygons[0].outer must hold at least 3 (x, y) pairs, got 4 numbers.'
    });
    assert.throws(
        () => drawPolygons(ctx, [{ outer: [0, 0, 1, 0, 1], holes: [] }, ...ok], 0, 0),
        /polygons\[0\]\.outer must hold at least 3 \(x, y\) pairs, got 5 numbers/
    );
    assert.throws(() => drawPolygons(ctx, [{ outer: ok[0].outer }] as never, 0, 0), {
        name: 'TypeError',
        message: 'polygons[0].holes must be an array of rings, got undefined.'
    });
    assert.throws(() => drawPolygons(ctx, [{ outer: ok[0].outer, holes: [[0, 0, 1, NaN, 1, 1]] }], 0, 0), {
        name: 'TypeError',
        message: 'polygons[0].holes[0][3] must be a finite number, got NaN.'
    });
    assert.throws(
        () => drawPolygons(ctx, [{ outer: 'x', holes: [] }] as never, 0, 0),
        /polygons\[0\]\.outer must be an array of numbers/
    );
    assert.throws(() => drawPolygons(ctx, ok, NaN, 0), /x must be a finite number, got NaN/);
    assert.throws(() => drawPolygons(ctx, ok, 0, Infinity), /y must be a finite number, got Infinity/);
    assert.throws(() => drawPolygons(ctx, ok, 0, 0, { color: -1 }), /color must be an integer 0xRRGGBBAA .*got -1/);
    assert.throws(
        () => drawPolygons(ctx, ok, 0, 0, { color: 0xffffffff, lineWidth: 0 }),
        /lineWidth must be a positive finite number, got 0/
    );
    assert.throws(() => drawPieces(ctx, {} as never, 0, 0), {
        name: 'TypeError',
        message: 'pieces must be an array of flat rings (as convexPieces returns), got Object.'
    });
    assert.throws(
        () => drawPieces(ctx, [[0, 0, 1, 0, 1, 1], 7] as never, 0, 0),
        /pieces\[1\] must be an array of numbers \[x0, y0, x1, y1, …\], got 7/
    );
    assert.throws(
        () => drawPieces(ctx, [[0, 0, 1, 0, 1, '1']] as never, 0, 0),
        /pieces\[0\]\[5\] must be a finite number, got "1"/
    );
    assert.throws(() => drawPieces(ctx, [[0, 0, 1, 0, 1, 1]], 0, 0, { color: 1.5 }), RangeError);
    assert.throws(
        () => drawPieces(ctx, [[0, 0, 1, 0, 1, 1]], 0, 0, { color: 0xffffffff, lineWidth: NaN }),
        /lineWidth must be a positive finite number, got NaN/
    );
    assert.equal(ctx.calls.length, 0, 'nothing drawn by a failing call');
});

test('a disposed mask: the same Error from every drawing helper that takes a mask, and nothing drawn', () => {
    const ctx = recorder(),
        live = new Mask(3, 3, true),
        gone = new Mask(3, 3, true);
    gone.dispose();
    const message = '(<Mask 3x3>) was disposed; create a new Mask (or stop calling dispose() on masks still in use).';
    const disposed = { name: 'Error', message: `mask ${message}` };
    assert.throws(() => drawMask(ctx, gone, 0, 0), disposed);
    assert.throws(() => drawOutline(ctx, gone, 0, 0), disposed);
    assert.throws(() => forgetMask(gone), disposed);
    assert.throws(() => intersection(gone, live, 0, 0), { name: 'Error', message: `a ${message}` });
    assert.throws(() => intersection(live, gone, 0, 0), { name: 'Error', message: `b ${message}` });
    assert.throws(() => drawOverlap(ctx, live, gone, 0, 0), { name: 'Error', message: `b ${message}` });
    assert.equal(ctx.calls.length, 0);
});

test('drawTileMap fills exactly the solid pixels of the cells a view meets, in world pixels (a Tiled layer)', () => {
    const tiles = [Mask.fromText('##\n#.'), Mask.fromText('.#\n..')];
    const map = new TileMap(2, 2, 4, 3, tiles, [0, -1, 1, 0, -1, 1, 0, -1, 0, 0, -1, 1], { x: -5, y: 7 });
    const solid = (ctx: ReturnType<typeof recorder>) => [...ctx.filled()].sort();
    const all = recorder();
    assert.equal(drawTileMap(all, map), 8);
    const want: string[] = [];
    for (let y = 7; y < 13; y++) for (let x = -5; x < 3; x++) if (map.hitTest(x, y)) want.push(`${x},${y}`);
    assert.deepEqual(solid(all), want.sort());
    // A view over the map's right half draws only the tiles it meets.
    const part = recorder();
    const drawn = drawTileMap(part, map, {}, { x: -1, y: 7, width: 4, height: 6 });
    assert.equal(drawn, 4);
    assert.ok(solid(part).every(p => Number(p.split(',')[0]) >= -1));
    assert.throws(() => drawTileMap(part, map, {}, { x: 0, y: 0, width: -1, height: 1 }), RangeError);
});
