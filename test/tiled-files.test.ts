// @test fast
// Tiled maps from files (readTiledMap, loadTiledMap over HTTP), maps written by Tiled itself, and every refusal:
// other orientations, wrong data sizes, unknown gids, corrupt or oversized data, missing files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { deflateSync, gzipSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { tiledCollision, loadTiledMap, type TiledCollision } from '../src/tiled.js';
import { readTiledMap, decodeImage } from '../src/node.js';
import { TileMap, Mask } from '../src/index.js';
import { randomMap, toTmx, tilesetXml, withEncoding, type Img } from './tiled-maps.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test maps are loose JSON

function png(img: Img): Buffer {
    const p = new PNG({ width: img.width, height: img.height });
    p.data = Buffer.from(img.data);
    return PNG.sync.write(p);
}

// Two results hold the same collision: layers cell by cell, objects mask by mask.
function same(a: TiledCollision, b: TiledCollision, label: string): void {
    assert.equal(a.layers.length, b.layers.length, label);
    a.layers.forEach((l, i) => {
        const m = b.layers[i].layer;
        assert.deepEqual([l.layer.x, l.layer.y, l.layer.columns, l.layer.rows], [m.x, m.y, m.columns, m.rows], label);
        for (let k = 0; k < m.cells.length; k++) {
            const p = l.layer.cells[k],
                q = m.cells[k];
            assert.ok(
                (p < 0 && q < 0) || (p >= 0 && q >= 0 && l.layer.tiles[p]!.equals(m.tiles[q]!)),
                `${label}: cell ${k}`
            );
        }
    });
    assert.equal(a.objects.length, b.objects.length, label);
    a.objects.forEach((o, i) => {
        const p = b.objects[i];
        assert.deepEqual([o.id, o.x, o.y], [p.id, p.x, p.y], label);
        assert.ok(o.mask === p.mask || o.mask!.equals(p.mask!), `${label}: object ${o.id}`);
    });
}

// Writes a random map with external tilesets in another folder as files; returns the folder.
function writeMapFiles(seed: number): { dir: string; map: Json; images: Record<string, Img> } {
    const dir = mkdtempSync(join(tmpdir(), 'hitmask-tiled-'));
    mkdirSync(join(dir, 'maps'));
    mkdirSync(join(dir, 'tilesets'));
    const { map, images } = randomMap(seed);
    const [ts1, ts2] = map.tilesets;
    for (const [name, img] of Object.entries(images)) writeFileSync(join(dir, 'tilesets', name), png(img));
    writeFileSync(
        join(dir, 'tilesets', 'grid.tsx'),
        `<?xml version="1.0" encoding="UTF-8"?>\n${tilesetXml(ts1, false)}`
    );
    writeFileSync(
        join(dir, 'tilesets', 'things.tsj'),
        JSON.stringify({ ...ts2, firstgid: undefined, type: 'tileset' })
    );
    const m = structuredClone(map);
    m.tilesets = [
        { firstgid: 1, source: '../tilesets/grid.tsx' },
        { firstgid: 7, source: '../tilesets/things.tsj' }
    ];
    writeFileSync(join(dir, 'maps', 'level.tmj'), JSON.stringify(withEncoding(m, 'zlib')));
    writeFileSync(join(dir, 'maps', 'level.tmx'), toTmx(m, 'csv'));
    return { dir, map, images };
}

test('readTiledMap reads .tmj and .tmx with external .tsx/.tsj tilesets and PNG images relative to each file', async () => {
    const { dir, map, images } = writeMapFiles(11);
    try {
        const want = tiledCollision(map, { images });
        same(await readTiledMap(join(dir, 'maps', 'level.tmj')), want, 'tmj');
        same(await readTiledMap(join(dir, 'maps', 'level.tmx')), want, 'tmx');
        rmSync(join(dir, 'tilesets', 'obj1.png'));
        await assert.rejects(readTiledMap(join(dir, 'maps', 'level.tmj')), (e: Error) =>
            /things\.tsj: the image ".*obj1\.png" it names does not exist/.test(e.message)
        );
        rmSync(join(dir, 'tilesets', 'grid.tsx'));
        await assert.rejects(readTiledMap(join(dir, 'maps', 'level.tmx')), (e: Error) =>
            /level\.tmx: the tileset ".*grid\.tsx" does not exist/.test(e.message)
        );
        await assert.rejects(readTiledMap(join(dir, 'nope.tmj')), /readTiledMap: the map ".*nope\.tmj" does not exist/);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
});

test('loadTiledMap fetches the map, its tilesets and images relative to each file', async () => {
    const { dir, map, images } = writeMapFiles(12);
    const fetched: string[] = [];
    const server = createServer((req, res) => {
        fetched.push(req.url!);
        const path = join(dir, decodeURIComponent(req.url!.split('?')[0]));
        if (!path.startsWith(dir) || !existsSync(path)) {
            res.writeHead(404).end();
            return;
        }
        res.writeHead(200).end(readFileSync(path));
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    try {
        const port = (server.address() as { port: number }).port;
        const decode = async (blob: Blob) => decodeImage(new Uint8Array(await blob.arrayBuffer()));
        const got = await loadTiledMap(`http://127.0.0.1:${port}/maps/level.tmx`, { decodeImage: decode });
        same(got, tiledCollision(map, { images }), 'http');
        assert.ok(fetched.includes('/tilesets/grid.tsx') && fetched.includes('/tilesets/obj2.png'), fetched.join(' '));
        await assert.rejects(
            loadTiledMap(`http://127.0.0.1:${port}/maps/gone.tmj`, { decodeImage: decode }),
            /"http:\/\/127\.0\.0\.1:\d+\/maps\/gone\.tmj" .*answered HTTP 404/
        );
    } finally {
        server.close();
        rmSync(dir, { recursive: true, force: true });
    }
});

// Tiled's own command line re-saves a map: what it writes reads to the same collision as what it read.
test(
    'maps written by Tiled itself (tiled --export-map) read to the same collision',
    { skip: !existsSync('/usr/bin/tiled') && 'tiled is not installed (apt install tiled)' },
    async () => {
        const { dir, map, images } = writeMapFiles(13);
        try {
            const want = tiledCollision(map, { images });
            for (const out of ['resaved.tmx', 'resaved.tmj']) {
                const r = spawnSync('tiled', ['--export-map', join(dir, 'maps', 'level.tmx'), join(dir, 'maps', out)], {
                    env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' },
                    encoding: 'utf8',
                    timeout: 60_000
                });
                assert.equal(r.status, 0, `tiled --export-map ${out}: ${r.stderr}`);
                same(await readTiledMap(join(dir, 'maps', out)), want, `Tiled's ${out}`);
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    }
);

const small = () => structuredClone(randomMap(3).map);
const imgs = randomMap(3).images;

test('refused with an Error naming the file and the problem: orientations, sizes, gids, corrupt data', () => {
    const opts = { file: 'level.tmj' };
    for (const orientation of ['isometric', 'staggered', 'hexagonal']) {
        const m = small();
        m.orientation = orientation;
        assert.throws(
            () => tiledCollision(m, { images: imgs }, opts),
            new RegExp(`level\\.tmj: the map is ${orientation}; hitmask reads orthogonal maps only`)
        );
        assert.throws(
            () => tiledCollision(toTmx(m, 'csv'), { images: imgs }, opts),
            new RegExp(`map is ${orientation}`)
        );
    }
    // Data whose length is not the layer's size.
    const short = small();
    short.layers[0].data.pop();
    assert.throws(
        () => tiledCollision(short, { images: imgs }, opts),
        /level\.tmj: layer "ground": the data holds \d+ cells, expected \d+/
    );
    assert.throws(
        () => tiledCollision(toTmx(short, 'csv'), { images: imgs }, opts),
        /layer "ground": the CSV data holds \d+ cells, expected/
    );
    // A gid no tileset holds.
    const gid = small();
    gid.layers[0].data[0] = 500;
    assert.throws(
        () => tiledCollision(gid, { images: imgs }, opts),
        /layer "ground": gid 500 \(flags 0x0\) is in no tileset of the map \(tilesets: "grid" 1\.\.6, "things" 7\.\.11\)/
    );
    // Corrupt and truncated base64 and compressed data.
    const z = withEncoding(small(), 'zlib');
    const corrupt = structuredClone(z);
    corrupt.layers[0].data = corrupt.layers[0].data.slice(0, 8) + '*' + corrupt.layers[0].data.slice(9);
    assert.throws(
        () => tiledCollision(corrupt, { images: imgs }, opts),
        /layer "ground": the base64 data holds "\*" at 8; it is corrupt/
    );
    const truncated = structuredClone(z);
    const bytes = Buffer.from(truncated.layers[0].data, 'base64');
    truncated.layers[0].data = bytes.subarray(0, bytes.length - 6).toString('base64');
    assert.throws(
        () => tiledCollision(truncated, { images: imgs }, opts),
        /layer "ground": the zlib data (is corrupt or truncated|inflates to \d+ bytes, expected)/
    );
    for (const compression of ['gzip', 'zstd']) {
        const m = withEncoding(small(), compression);
        const b = Buffer.from(m.layers[0].data, 'base64');
        b[b.length >> 1] ^= 0xff;
        b[(b.length >> 1) + 1] ^= 0x5a;
        m.layers[0].data = b.toString('base64');
        assert.throws(
            () => tiledCollision(m, { images: imgs }, opts),
            new RegExp(`layer "ground": the ${compression} data|layer "ground": gid`)
        );
    }
    const unknown = withEncoding(small(), 'zlib');
    unknown.layers[0].compression = 'lz4';
    assert.throws(
        () => tiledCollision(unknown, { images: imgs }, opts),
        /compression "lz4" is not one Tiled writes; expected zlib, gzip or zstd/
    );
    assert.throws(() => tiledCollision('<map orientation="orthogonal"', {}, opts), /level\.tmj: the XML is malformed/);
    assert.throws(() => tiledCollision('{"width": ', {}, opts), /level\.tmj: the map is neither TMX nor JSON/);
    assert.throws(
        () => tiledCollision({ type: 'tileset' }, {}, opts),
        /the JSON is a Tiled "tileset", expected a "map"/
    );
    // A missing tileset or image resource names it and what the resources hold.
    const ext = small();
    ext.tilesets[0] = { firstgid: 1, source: 'grid.tsj' };
    assert.throws(
        () => tiledCollision(ext, { images: imgs }, opts),
        /level\.tmj: it names the tileset "grid\.tsj", which resources\.tilesets does not hold \(it holds none\)/
    );
    assert.throws(
        () => tiledCollision(small(), { images: {} }, opts),
        /tileset "(grid|things)" names the image "[a-z0-9]+\.png", which resources\.images does not hold/
    );
});

test('a zlib bomb, a huge map, chunk or tileset is refused before its memory is taken', () => {
    const before = process.memoryUsage().rss;
    // 64 MiB of zeros in a 65 KB stream, for a layer of 9 cells.
    const m = small();
    m.width = m.height = 3;
    for (const l of [m.layers[0], m.layers[1].layers[0]]) {
        l.width = l.height = 3;
        l.encoding = 'base64';
        l.compression = 'zlib';
        l.data = deflateSync(Buffer.alloc(64 << 20)).toString('base64');
    }
    assert.throws(
        () => tiledCollision(m, { images: imgs }),
        /the zlib data inflates to more than 36 bytes, expected 36/
    );
    // A 2^20 x 2^20 layer: refused by its size, before anything is allocated.
    const huge = small();
    huge.width = huge.height = huge.layers[0].width = huge.layers[0].height = 2 ** 20;
    huge.layers[0].data = [];
    assert.throws(
        () => tiledCollision(huge, { images: imgs }),
        /layer "ground": it is 1048576x1048576 = \d+ cells, more than limits\.cells \(16777216\)/
    );
    // Chunks a billion cells apart.
    const inf = structuredClone(randomMap(3, { infinite: true }).map);
    inf.layers[0].chunks.push({ x: 2 ** 29, y: 2 ** 29, width: 16, height: 16, data: new Array(256).fill(0) });
    assert.throws(
        () => tiledCollision(inf, { images: imgs }),
        /layer "ground": its chunks span \d+x\d+ = \d+ cells, more than limits\.cells/
    );
    // A tileset claiming a million tiles; an object a million pixels wide.
    const ts = small();
    ts.tilesets[0].tilecount = 1e6;
    assert.throws(
        () => tiledCollision(ts, { images: imgs }),
        /tileset "grid": it has 1000000 tiles, more than limits\.tiles \(65536\)/
    );
    const obj = small();
    obj.layers[1].layers[1].objects.push({ id: 999, x: 0, y: 0, width: 1e6, height: 1e6 });
    assert.throws(
        () => tiledCollision(obj, { images: imgs }),
        /object 999: its mask would be 100000\d+x100000\d+ pixels, more than limits\.pixels/
    );
    assert.throws(
        () => tiledCollision(small(), { images: imgs }, { limits: { cells: 4 } }),
        /more than limits\.cells \(4\)/
    );
    assert.ok(process.memoryUsage().rss - before < 256 << 20, 'memory stayed bounded');
});

test('options are checked: solid, alphaThreshold, limits', () => {
    assert.throws(() => tiledCollision(small(), { images: imgs }, { solid: 'pixels' as never }), RangeError);
    assert.throws(() => tiledCollision(small(), { images: imgs }, { alphaThreshold: 300 }), RangeError);
    assert.throws(() => tiledCollision(small(), { images: imgs }, { limits: { cells: -1 } }), RangeError);
    assert.throws(
        () => tiledCollision(small(), { images: imgs }, { solid: () => 'yes' as never }),
        /options\.solid returned yes for gid \d+/
    );
    // alphaThreshold moves which pixels count.
    const a = tiledCollision(small(), { images: imgs }, { solid: 'alpha', alphaThreshold: 254 });
    const b = tiledCollision(small(), { images: imgs }, { solid: 'alpha', alphaThreshold: 0 });
    const count = (c: TiledCollision) =>
        c.layers.reduce((n, l) => n + l.layer.tiles.reduce((s, t) => s + (t as Mask).count(), 0), 0);
    assert.ok(count(a) < count(b));
});

test('TileMap origin: every query is moved by (x, y)', () => {
    const tile = Mask.fromText('##\n#.');
    const a = new TileMap(2, 2, 3, 2, [tile], [0, -1, 0, -1, 0, 0]);
    const b = new TileMap(2, 2, 3, 2, [tile], [0, -1, 0, -1, 0, 0], { x: -7, y: 5 });
    const probe = new Mask(2, 1, true);
    for (let y = -2; y < 6; y++)
        for (let x = -2; x < 8; x++) {
            assert.equal(b.hitTest(x - 7, y + 5), a.hitTest(x, y));
            assert.equal(b.overlaps(probe, x - 7, y + 5), a.overlaps(probe, x, y));
            assert.equal(b.overlapArea(probe, x - 7, y + 5), a.overlapArea(probe, x, y));
            const p = a.overlap(probe, x, y),
                q = b.overlap(probe, x - 7, y + 5);
            assert.deepEqual(q, p && { x: p.x - 7, y: p.y + 5 });
        }
    assert.deepEqual(b.bounds(), { x: -7, y: 5, width: 6, height: 4 });
    const r = a.raycast(-3, 0.5, 9, 3.5)!,
        s = b.raycast(-10, 5.5, 2, 8.5)!;
    assert.deepEqual([s.px, s.py, s.x, s.y, s.nx, s.ny], [r.px - 7, r.py + 5, r.x - 7, r.y + 5, r.nx, r.ny]);
    assert.equal(b.toString(), '<TileMap 3x2 of 2x2 at -7,5>');
    assert.throws(() => new TileMap(2, 2, 1, 1, [tile], [0], { x: 0.5 }), RangeError);
});

test("readTiledMap decodes with Node's zlib and refuses the same hostile data: a bomb, corrupt base64, truncation", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hitmask-tiled-hostile-'));
    try {
        const { map, images } = randomMap(21);
        for (const [name, img] of Object.entries(images)) writeFileSync(join(dir, name), png(img));
        const write = (m: Json) => {
            writeFileSync(join(dir, 'm.tmj'), JSON.stringify(m));
            return join(dir, 'm.tmj');
        };
        // The same collision as the JavaScript decoder gives, for zlib, gzip and zstd.
        for (const c of ['zlib', 'gzip', 'zstd', ''])
            same(
                await readTiledMap(write(withEncoding(map, c))),
                tiledCollision(map, { images }),
                `node ${c || 'plain'}`
            );
        const bomb = structuredClone(map);
        bomb.layers[0].encoding = 'base64';
        bomb.layers[0].compression = 'gzip';
        bomb.layers[0].data = gzipSync(Buffer.alloc(64 << 20)).toString('base64');
        await assert.rejects(
            readTiledMap(write(bomb)),
            /layer "ground": the gzip data inflates to more than \d+ bytes/
        );
        const z = withEncoding(map, 'zlib');
        const bad = structuredClone(z);
        bad.layers[0].data = bad.layers[0].data.slice(0, 4) + '!' + bad.layers[0].data.slice(5);
        await assert.rejects(readTiledMap(write(bad)), /the base64 data holds "!" at 4; it is corrupt/);
        const padded = structuredClone(z);
        padded.layers[0].data = 'AAAA=AAA' + padded.layers[0].data;
        await assert.rejects(readTiledMap(write(padded)), /the base64 data holds "A" at 5; it is corrupt/);
        const cut = structuredClone(z);
        const b = Buffer.from(cut.layers[0].data, 'base64');
        cut.layers[0].data = b.subarray(0, b.length - 9).toString('base64');
        await assert.rejects(
            readTiledMap(write(cut)),
            /layer "ground": the zlib data (is corrupt or truncated|inflates to \d+ bytes)/
        );
        // A run of spaces before a foreign character is refused in linear time (no backtracking).
        const spaces = structuredClone(z);
        spaces.layers[0].data = 'AAAA' + ' '.repeat(1 << 20) + '!';
        const t = process.cpuUsage();
        await assert.rejects(readTiledMap(write(spaces)), /the base64 data holds "!"/);
        const used = process.cpuUsage(t);
        console.log(`# a 1 MiB run of spaces refused in ${((used.user + used.system) / 1e3).toFixed(1)} ms of CPU`);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
});

test('hitmask inspect level.tmx lists the layers, the tilesets with the tiles that have shapes, and the objects', () => {
    const { dir } = writeMapFiles(14);
    try {
        const cli = fileURLToPath(new URL('../src/node/cli.ts', import.meta.url));
        const run = (...args: string[]) =>
            spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { encoding: 'utf8' });
        const r = run('inspect', join(dir, 'maps', 'level.tmx'));
        assert.equal(r.status, 0, r.stderr);
        const lines = r.stdout.split('\n');
        assert.match(lines[0], /level\.tmx: \d+x\d+ px of \d+x\d+ tiles, 2 tile layers, 15 objects$/);
        assert.match(
            r.stdout,
            /^layer ground( \(hidden\))?: \d+x\d+ cells at -?\d+,-?\d+, \d+ with solid pixels, \d+ tile masks$/m
        );
        assert.match(
            r.stdout,
            /^tileset grid \(firstgid 1, \.\.\/tilesets\/grid\.tsx\): 6 tiles, 3 with collision shapes \(ids 0, 2, 4\)$/m
        );
        assert.match(
            r.stdout,
            /^tileset things \(firstgid 7, \.\.\/tilesets\/things\.tsj\): 3 tiles, 1 with collision shapes \(ids 2\)$/m
        );
        assert.match(r.stdout, /^object 100 "o0" on things: point at /m);
        assert.match(r.stdout, /^object 101 "o1" \(enemy\) on things: \d+x\d+ mask at -?\d+,-?\d+, \d+ px$/m);
        const iso = join(dir, 'maps', 'iso.tmj');
        writeFileSync(iso, JSON.stringify({ ...randomMap(1).map, orientation: 'isometric' }));
        const bad = run('inspect', iso);
        assert.equal(bad.status, 2);
        assert.match(bad.stderr, /iso\.tmj: the map is isometric/);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
});
