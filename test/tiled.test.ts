// @test fast no-shared
// hitmask/tiled against a per-pixel reference of the rules in docs/tiled.md, on random maps in every encoding
// (JSON arrays, base64 plain, zlib, gzip, zstd; TMX CSV, XML and base64), finite and infinite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tiledCollision, type TiledCollision } from '../src/tiled.js';
import { Mask, World, moveAndSlide } from '../src/index.js';
import {
    objectsOf,
    randomMap,
    refLayer,
    refObject,
    tileLayers,
    toTmx,
    tilesetXml,
    withEncoding,
    type Img,
    type RefSolid
} from './tiled-maps.js';
import { tiledFigure } from '../scripts/tiled-figure.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test maps are loose JSON

// Compares every pixel of every tile layer and object mask with the reference; returns the pixels compared.
function compare(got: TiledCollision, map: Json, images: Record<string, Img>, solid: RefSolid, label: string): number {
    let n = 0;
    const refs = tileLayers(map);
    assert.equal(got.layers.length, refs.length, `${label}: tile layers`);
    refs.forEach(({ l, gx, gy }, i) => {
        const ref = refLayer(map, images, l, gx, gy, solid);
        const layer = got.layers[i].layer;
        assert.equal(got.layers[i].name, l.name);
        const b = layer.bounds() ?? { x: 0, y: 0, width: 0, height: 0 };
        for (const [key, v] of ref) {
            const [x, y] = key.split(',').map(Number);
            if (v === 1) assert.ok(layer.hitTest(x, y), `${label}: layer ${l.name} pixel ${x},${y} should be solid`);
        }
        for (let y = b.y - 2; y < b.y + b.height + 2; y++)
            for (let x = b.x - 2; x < b.x + b.width + 2; x++) {
                n++;
                if (layer.hitTest(x, y) && !ref.has(`${x},${y}`))
                    assert.fail(`${label}: layer ${l.name} pixel ${x},${y} is solid, the reference says empty`);
            }
    });
    const objs = objectsOf(map);
    assert.equal(got.objects.length, objs.length);
    objs.forEach(({ o, lx, ly }, i) => {
        const g = got.objects[i];
        assert.equal(g.id, o.id);
        assert.equal(g.name, o.name);
        if (o.point) {
            assert.equal(g.mask, null);
            assert.equal(g.x, o.x + lx);
            return;
        }
        const m = g.mask as Mask;
        assert.ok(m, `${label}: object ${o.id} has a mask`);
        // Inside the mask's box: each pixel as the reference says; around it: nothing the reference covers.
        for (let y = g.y - 3; y < g.y + m.height + 3; y++)
            for (let x = g.x - 3; x < g.x + m.width + 3; x++) {
                const inBox = x >= g.x && y >= g.y && x < g.x + m.width && y < g.y + m.height;
                const on = inBox && m.get(x - g.x, y - g.y);
                const r = refObject(map, images, o, lx, ly, solid, x, y);
                n++;
                if (r === 2) continue;
                if (on !== (r === 1))
                    assert.fail(
                        `${label}: object ${o.id} (${JSON.stringify(o)}) pixel ${x},${y}: got ${on}, reference ${r}`
                    );
            }
    });
    return n;
}

const SEEDS = Array.from({ length: 12 }, (_, i) => 1000 + i * 7919);

test('random maps: every layer pixel and object mask equals the reference, solid auto, alpha and shapes', () => {
    let pixels = 0;
    for (const seed of SEEDS) {
        const { map, images } = randomMap(seed);
        for (const solid of ['auto', 'alpha', 'shapes'] as const)
            pixels += compare(tiledCollision(map, { images }, { solid }), map, images, solid, `seed ${seed} ${solid}`);
    }
    assert.ok(pixels > 100_000, `compared ${pixels} pixels`);
});

test('maps whose tiles fill the grid (one tile mask per cell): tiles without shapes are empty under shapes', () => {
    for (const seed of SEEDS) {
        const { map, images } = randomMap(seed, { simple: true });
        for (const solid of ['auto', 'alpha', 'shapes'] as const)
            compare(tiledCollision(map, { images }, { solid }), map, images, solid, `simple seed ${seed} ${solid}`);
    }
});

// A copy of `map` whose tilesets start at gids `first` and `first + 6` (its cells' and objects' gids moved with
// them, flips kept).
function tilesetsFrom(map: Json, first: number): Json {
    const m = structuredClone(map);
    const move = (g: number) => {
        const id = g & 0x0fffffff;
        return id === 0 ? g : ((g & 0xf0000000) | (id - 1 + first)) >>> 0;
    };
    m.tilesets[0].firstgid = first;
    m.tilesets[1].firstgid = first + 6;
    for (const { l } of tileLayers(m)) l.data = l.data.map(move);
    for (const { o } of objectsOf(m)) if (o.gid !== undefined) o.gid = move(o.gid);
    return m;
}

test('gids of any size: tile ids past 255 and past 65535, flipped, plain and zlib data (the cells built in place)', () => {
    for (const seed of SEEDS.slice(0, 4))
        for (const first of [300, 5000, 70_001]) {
            const { map, images } = randomMap(seed, { simple: true });
            const m = tilesetsFrom(map, first);
            for (const data of [m, withEncoding(m, 'zlib'), withEncoding(m, '')]) {
                const got = tiledCollision(data, { images });
                compare(got, m, images, 'auto', `seed ${seed}, tilesets from gid ${first}`);
                // The same map object read twice reads the same: decoding never writes into what it was given.
                compare(tiledCollision(data, { images }), m, images, 'auto', `seed ${seed}, read again`);
            }
        }
});

test('infinite maps: chunks at negative coordinates', () => {
    for (const seed of SEEDS.slice(0, 6)) {
        const { map, images } = randomMap(seed, { infinite: true });
        const got = tiledCollision(map, { images });
        compare(got, map, images, 'auto', `infinite seed ${seed}`);
        assert.ok(got.x < 0 && got.y < 0, `the map reaches negative coordinates (${got.x}, ${got.y})`);
    }
});

test('every encoding reads to the same layers: base64 plain, zlib, gzip, zstd; TMX csv, xml and base64', () => {
    for (const seed of SEEDS.slice(0, 4)) {
        for (const infinite of [false, true]) {
            const { map, images } = randomMap(seed, { infinite });
            const want = tiledCollision(map, { images });
            const variants: [string, object | string][] = [
                ['base64', withEncoding(map, '')],
                ['zlib', withEncoding(map, 'zlib')],
                ['gzip', withEncoding(map, 'gzip')],
                ['zstd', withEncoding(map, 'zstd')],
                ['json text', JSON.stringify(withEncoding(map, 'zlib'))],
                ['tmx csv', toTmx(map, 'csv')],
                ['tmx xml', toTmx(map, 'xml')],
                ['tmx zlib', toTmx(map, 'base64', 'zlib')],
                ['tmx gzip', toTmx(map, 'base64', 'gzip')],
                ['tmx zstd', toTmx(map, 'base64', 'zstd')],
                ['tmx base64', toTmx(map, 'base64')]
            ];
            for (const [name, m] of variants) {
                const got = tiledCollision(m, { images });
                const label = `seed ${seed}${infinite ? ' infinite' : ''} ${name}`;
                assert.equal(got.layers.length, want.layers.length, label);
                got.layers.forEach((l, i) => {
                    const w = want.layers[i].layer;
                    assert.deepEqual(
                        [l.layer.x, l.layer.y, l.layer.columns, l.layer.rows, l.name, l.class, l.visible],
                        [
                            w.x,
                            w.y,
                            w.columns,
                            w.rows,
                            want.layers[i].name,
                            want.layers[i].class,
                            want.layers[i].visible
                        ],
                        label
                    );
                    assert.deepEqual(l.properties, want.layers[i].properties, label);
                    for (let k = 0; k < w.cells.length; k++) {
                        const a = l.layer.cells[k],
                            b = w.cells[k];
                        if (a < 0 !== b < 0 || (a >= 0 && !l.layer.tiles[a]!.equals(w.tiles[b]!)))
                            assert.fail(`${label}: layer ${l.name} cell ${k} differs`);
                    }
                });
                assert.equal(got.objects.length, want.objects.length, label);
                got.objects.forEach((o, i) => {
                    const w = want.objects[i];
                    assert.deepEqual(
                        [o.id, o.name, o.class, o.layerName, o.x, o.y],
                        [w.id, w.name, w.class, w.layerName, w.x, w.y],
                        label
                    );
                    assert.deepEqual(o.properties, w.properties, label);
                    assert.ok(
                        o.mask === w.mask || (o.mask && w.mask && o.mask.equals(w.mask)),
                        `${label}: object ${o.id}`
                    );
                });
            }
        }
    }
});

test('external tilesets (JSON and TSX) and images are found by the path relative to the map', () => {
    const { map, images } = randomMap(77);
    const m = structuredClone(map);
    const [ts1, ts2] = m.tilesets;
    m.tilesets = [
        { firstgid: 1, source: '../tilesets/grid.tsx' },
        { firstgid: 7, source: 'things.tsj' }
    ];
    const resources = {
        tilesets: { '../tilesets/grid.tsx': tilesetXml(ts1, false), 'things.tsj': { ...ts2, firstgid: undefined } },
        images: {
            '../tilesets/grid.png': images['grid.png'],
            'obj0.png': images['obj0.png'],
            'obj1.png': images['obj1.png'],
            'obj2.png': images['obj2.png']
        }
    };
    compare(tiledCollision(m, resources), map, images, 'auto', 'external tilesets');
    compare(tiledCollision(toTmx(m, 'csv'), resources), map, images, 'auto', 'external tilesets, TMX');
    // An image keyed by its tileset's name, as Phaser pairs them.
    const byName = { ...resources, images: { ...resources.images, grid: images['grid.png'] } };
    delete (byName.images as Record<string, Img>)['../tilesets/grid.png'];
    compare(tiledCollision(m, byName), map, images, 'auto', 'image by tileset name');
});

test('solid as a function: per tile by class or tileset, false leaves the tile out', () => {
    for (const seed of SEEDS.slice(0, 4)) {
        const { map, images } = randomMap(seed);
        const asked: number[] = [];
        const got = tiledCollision(
            map,
            { images },
            {
                solid: t => {
                    asked.push(t.gid);
                    if (t.gid === 3) assert.deepEqual([t.class, t.properties], ['spike', { hp: 2 }]);
                    return t.class === 'spike' ? false : t.tileset === 'grid' ? 'alpha' : 'shapes';
                }
            }
        );
        assert.ok(asked.length > 0 && new Set(asked).size === asked.length, 'asked once per distinct tile');
        // Gid 3 is the grid tileset's "spike" tile; gids 1..6 are the grid tileset's.
        compare(got, map, images, gid => (gid === 3 ? false : gid <= 6 ? 'alpha' : 'shapes'), `seed ${seed}`);
    }
});

test('a map moves, collides and casts rays like any layer: World, moveAndSlide, raycast, snapshot', () => {
    const { map, images } = randomMap(31);
    const got = tiledCollision(map, { images });
    const ground = got.layer('ground');
    const b = ground.bounds()!;
    const box = new Mask(3, 3, true);
    // A body dropped over each column stops where a per-pixel fall stops: one step before the first overlap.
    let landed = 0;
    for (let x = b.x - 2; x < b.x + b.width; x += 3) {
        const y0 = b.y - 4,
            fall = b.height + 8;
        const r = moveAndSlide(ground, box, x, y0, 0, fall);
        let y = y0;
        while (y < y0 + fall && !ground.overlaps(box, x, y + 1)) y++;
        assert.equal(r.y, y, `column ${x}`);
        if (y < y0 + fall) landed++;
    }
    assert.ok(landed > 0, 'some columns have ground');
    // A World pairs a body with the layer where its pixels touch the layer's.
    const world = new World<string>();
    const layerBody = world.addLayer(ground);
    let pairs = 0,
        expected = 0;
    for (let y = b.y; y < b.y + b.height; y += 4)
        for (let x = b.x; x < b.x + b.width; x += 4) {
            world.add({ x, y, mask: box, data: `${x},${y}` });
            if (ground.overlaps(box, x, y)) expected++;
        }
    world.step();
    for (const p of world.collisions()) if (p.a === layerBody || p.b === layerBody) pairs++;
    assert.equal(pairs, expected);
    // Rays hit the first solid pixel along them.
    for (let y = b.y; y < b.y + b.height; y++) {
        const hit = ground.raycast(b.x - 5, y + 0.5, b.x + b.width + 5, y + 0.5);
        let x = b.x - 5;
        while (x < b.x + b.width + 5 && !ground.hitTest(x, y)) x++;
        if (x === b.x + b.width + 5) assert.equal(hit, null);
        else assert.deepEqual([hit?.px, hit?.py], [x, y], `row ${y}`);
    }
    const snap = ground.snapshot();
    const cells = ground.cells.slice();
    ground.cells.fill(-1);
    ground.restore(snap);
    assert.deepEqual(ground.cells, cells);
    assert.throws(() => got.layer('nope'), /no tile layer is named "nope"; the tile layers are "ground", "inner"/);
});

test('docs/tiled.svg, the pixel rules pictured, is what scripts/tiled-figure.ts draws from the library now', () => {
    assert.equal(
        readFileSync(new URL('../docs/tiled.svg', import.meta.url), 'utf8'),
        tiledFigure(),
        'run: node --import tsx scripts/tiled-figure.ts'
    );
});
