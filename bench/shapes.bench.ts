// hitmask/shapes: toPolygons vs d3-contour (marching squares) on a 1024² sprite sheet, convex piece
// counts vs a plain triangulation, and rebuilding a 512² terrain's polygons after a carve.
// Run: node --import tsx bench/shapes.bench.ts
import { readFileSync } from 'node:fs';
import { contours } from 'd3-contour';
import { forEachSet, Mask } from '../src/index.js';
import { convexPieces, toPolygons, type Polygon } from '../src/shapes.js';
import { triangles } from '../src/shapes/convex.js'; // internal: triangles has no public entry
import { banner, fmtTiming, mulberry32, table, time } from './harness.js';

banner('hitmask/shapes');

const { masks } = JSON.parse(
    readFileSync(new URL('../test/fixtures/sprites/expected.json', import.meta.url), 'utf8')
) as { masks: Record<string, { rows: string[] }> };
const sprites = Object.entries(masks).map(([name, { rows }]) => ({ name, mask: Mask.fromText(rows.join('\n')) }));

// A 1024² sheet: the pygame sprites packed row by row in 96-pixel cells, chosen at random.
const SIDE = 1024,
    CELL = 96;
const sheet = new Mask(SIDE, SIDE),
    rnd = mulberry32(14);
for (let y = 0; y + CELL <= SIDE; y += CELL)
    for (let x = 0; x + CELL <= SIDE; x += CELL)
        sheet.draw(sprites[Math.floor(rnd() * sprites.length)].mask, x + 2, y + 2);

// d3-contour reads one number per pixel (built once, outside the timing).
const values = new Float64Array(SIDE * SIDE);
forEachSet(sheet, (x, y) => {
    values[y * SIDE + x] = 1;
});
const d3 = contours().size([SIDE, SIDE]).thresholds([0.5]);
const d3flat = contours().size([SIDE, SIDE]).thresholds([0.5]).smooth(false);

const vertices = (polys: Polygon[]): number =>
    polys.reduce((s, p) => s + p.outer.length / 2 + p.holes.reduce((h, r) => h + r.length / 2, 0), 0);
const exact = toPolygons(sheet),
    loose = toPolygons(sheet, { tolerance: 1 });
const d3v = d3(values as unknown as number[])[0].coordinates.reduce(
    (s, poly) => s + poly.reduce((h, r) => h + r.length - 1, 0),
    0
);
const tD3 = time(() => d3(values as unknown as number[]), { samples: 9, sampleMs: 200 });
const tD3flat = time(() => d3flat(values as unknown as number[]), { samples: 9, sampleMs: 200 });
const t0 = time(() => toPolygons(sheet), { samples: 9, sampleMs: 200 });
const t1 = time(() => toPolygons(sheet, { tolerance: 1 }), { samples: 9, sampleMs: 200 });
console.log(`## Outlines of a ${SIDE}x${SIDE} sprite sheet (${sheet.count()} pixels set, ${exact.length} polygons)\n`);
table(
    ['method', 'time', 'vs d3-contour', 'vertices'],
    [
        ['d3-contour (smooth, default)', fmtTiming(tD3), '1.00x', d3v],
        ['d3-contour (smooth(false))', fmtTiming(tD3flat), `${(tD3flat.median / tD3.median).toFixed(2)}x`, d3v],
        ['toPolygons, tolerance 0', fmtTiming(t0), `${(t0.median / tD3.median).toFixed(2)}x`, vertices(exact)],
        ['toPolygons, tolerance 1', fmtTiming(t1), `${(t1.median / tD3.median).toFixed(2)}x`, vertices(loose)]
    ]
);

console.log('## Convex pieces (maxVertices 8) vs a plain triangulation\n');
const rows: (string | number)[][] = [];
for (const tolerance of [0, 1, 2]) {
    let pieces = 0,
        tris = 0,
        polys = 0;
    const all = sprites.flatMap(s => toPolygons(s.mask, { tolerance }));
    for (const p of all) {
        polys++;
        pieces += convexPieces(p).length;
        tris += triangles(p).length / 3;
    }
    const t = time(
        () => {
            let n = 0;
            for (const p of all) n += convexPieces(p).length;
            return n;
        },
        { samples: 9, sampleMs: 100 }
    );
    rows.push([
        `the ${sprites.length} pygame sprites, tolerance ${tolerance}`,
        polys,
        tris,
        pieces,
        `${(pieces / tris).toFixed(2)}`,
        fmtTiming(t)
    ]);
}
{
    const all = toPolygons(sheet, { tolerance: 1 });
    let pieces = 0,
        tris = 0;
    for (const p of all) {
        pieces += convexPieces(p).length;
        tris += triangles(p).length / 3;
    }
    const t = time(
        () => {
            let n = 0;
            for (const p of all) n += convexPieces(p).length;
            return n;
        },
        { samples: 5, sampleMs: 200 }
    );
    rows.push([
        `the ${SIDE}² sheet, tolerance 1`,
        all.length,
        tris,
        pieces,
        `${(pieces / tris).toFixed(2)}`,
        fmtTiming(t)
    ]);
}
table(['polygons of', 'polygons', 'triangles', 'convex pieces', 'pieces / triangles', 'convexPieces time (all)'], rows);

// A 512² terrain: hills, a cave layer and a floating island, then 20 craters carved by a radius-12 disc.
const T = 512,
    terrain = new Mask(T, T);
for (let x = 0; x < T; x++) {
    const top = Math.round(260 + 60 * Math.sin(x / 47) + 25 * Math.sin(x / 13 + 1));
    for (let y = top; y < T; y++) {
        const cave = Math.abs(y - 400 - 20 * Math.sin(x / 30)) < 12 + 6 * Math.sin(x / 9);
        if (!cave) terrain.set(x, y);
    }
}
for (let y = 120; y < 150; y++)
    for (let x = 200; x < 320; x++) if ((x - 260) ** 2 / 3600 + (y - 120) ** 2 / 900 < 1) terrain.set(x, y);
const R = 12,
    disc = new Mask(2 * R + 1, 2 * R + 1);
for (let y = -R; y <= R; y++) for (let x = -R; x <= R; x++) if (x * x + y * y <= R * R) disc.set(x + R, y + R);
const crater = mulberry32(7);
for (let k = 0; k < 20; k++) terrain.erase(disc, Math.floor(crater() * T) - R, 200 + Math.floor(crater() * 250) - R);
// each timed call carves one more crater (undone from a copy) and rebuilds every polygon
const base = terrain.clone(),
    spot = mulberry32(8);
const rebuild = (tolerance: number) => () => {
    terrain.words.set(base.words);
    terrain.erase(disc, Math.floor(spot() * T) - R, 200 + Math.floor(spot() * 250) - R);
    return toPolygons(terrain, { tolerance });
};
const carve0 = time(rebuild(0), { samples: 15, sampleMs: 100 }),
    carve1 = time(rebuild(1), { samples: 15, sampleMs: 100 });
const copyOnly = time(
    () => {
        terrain.words.set(base.words);
        return terrain.erase(disc, 100, 300);
    },
    { samples: 15, sampleMs: 50 }
);
const tp = toPolygons(terrain);
console.log(
    `## Rebuilding the polygons of a ${T}x${T} terrain after a carve (${tp.length} polygons, ${vertices(tp)} vertices; target <= 2 ms)\n`
);
table(
    ['rebuild', 'time (carve included)'],
    [
        ['reset + carve only (subtract this)', fmtTiming(copyOnly)],
        ['toPolygons, tolerance 0', fmtTiming(carve0)],
        ['toPolygons, tolerance 1', fmtTiming(carve1)]
    ]
);
