// @test browser
// hitmask/tiled in headless Chromium without cross-origin isolation (test/tiled-page.ts, bundled with esbuild):
// loadTiledMap fetches maps with external tilesets (TSX and JSON, in another folder) and PNG images, decodes them
// with createImageBitmap and a canvas, and inflates zlib, gzip and zstd layer data with the JS inflaters; the page's
// tiledCollision reads resources it loaded itself (`<img>` elements). Every layer pixel, tile mask and object mask
// equals what readTiledMap reads in Node from the same files; a missing tileset or image is an Error naming it and
// the file that names it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build } from 'esbuild';
import { PNG } from 'pngjs';
import { serve } from '../examples/serve.js';
import { chromiumMissing as skip, openBrowser, waitFor } from './chromium.js';
import { readTiledMap } from '../src/node.js';
import { randomMap, tilesetXml, toTmx, withEncoding, type Img } from './tiled-maps.js';
import { describeTiled, type TiledDescription } from './tiled-page.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test maps are loose JSON
type Read = TiledDescription | { error: string };

const ROOT = fileURLToPath(new URL('..', import.meta.url));
let site = '';
let browser: Browser | null = null;
let page: Page | null = null;
let close: (() => void) | null = null;
let port = 0;
const errors: string[] = [];
const requested: string[] = [];

function png(img: Img): Buffer {
    const p = new PNG({ width: img.width, height: img.height });
    p.data = Buffer.from(img.data);
    return PNG.sync.write(p);
}

// A random map's tilesets written to tilesets/SEED/ (grid.tsx, things.tsj, their PNGs); the map names them from maps/.
function writeTilesets(seed: number, opts: { infinite?: boolean } = {}): Json {
    const { map, images } = randomMap(seed, opts);
    const dir = join(site, 'tilesets', String(seed));
    mkdirSync(dir, { recursive: true });
    for (const [name, img] of Object.entries(images)) writeFileSync(join(dir, name), png(img));
    const [ts1, ts2] = map.tilesets;
    writeFileSync(join(dir, 'grid.tsx'), `<?xml version="1.0" encoding="UTF-8"?>\n${tilesetXml(ts1, false)}`);
    writeFileSync(join(dir, 'things.tsj'), JSON.stringify({ ...ts2, firstgid: undefined, type: 'tileset' }));
    const m = structuredClone(map);
    m.tilesets = [
        { firstgid: 1, source: `../tilesets/${seed}/grid.tsx` },
        { firstgid: 7, source: `../tilesets/${seed}/things.tsj` }
    ];
    return m;
}

// The files each map of the test names, as the map's folder resolves them.
const tilesetsOf = (seed: number) => [`../tilesets/${seed}/grid.tsx`, `../tilesets/${seed}/things.tsj`];
const imagesOf = (seed: number) => ['grid', 'obj0', 'obj1', 'obj2'].map(n => `../tilesets/${seed}/${n}.png`);

// The maps: zlib JSON, gzip TMX, an infinite zstd JSON (chunks at negative coordinates), and two broken ones.
const MAPS = ['zlib.tmj', 'gzip.tmx', 'zstd.tmj'] as const;
const SEEDS: Record<(typeof MAPS)[number], number> = { 'zlib.tmj': 31, 'gzip.tmx': 32, 'zstd.tmj': 33 };

before(async () => {
    if (skip) return;
    site = mkdtempSync(join(tmpdir(), 'hitmask-tiled-browser-'));
    mkdirSync(join(site, 'maps'));
    writeFileSync(join(site, 'maps', 'zlib.tmj'), JSON.stringify(withEncoding(writeTilesets(31), 'zlib')));
    writeFileSync(join(site, 'maps', 'gzip.tmx'), toTmx(writeTilesets(32), 'base64', 'gzip'));
    const infinite = withEncoding(writeTilesets(33, { infinite: true }), 'zstd');
    writeFileSync(join(site, 'maps', 'zstd.tmj'), JSON.stringify(infinite));
    // A map naming a tileset that is not there, and one whose tileset names an image that is not there.
    const gone = structuredClone(infinite);
    gone.tilesets[1].source = '../tilesets/missing.tsj';
    writeFileSync(join(site, 'maps', 'no-tileset.tmj'), JSON.stringify(gone));
    const noImage = withEncoding(writeTilesets(34), 'gzip');
    rmSync(join(site, 'tilesets', '34', 'obj1.png'));
    writeFileSync(join(site, 'maps', 'no-image.tmj'), JSON.stringify(noImage));

    await build({
        entryPoints: [join(ROOT, 'test', 'tiled-page.ts')],
        outfile: join(site, 'main.js'),
        bundle: true,
        format: 'iife',
        globalName: 'hitmaskTiled',
        platform: 'browser',
        target: 'es2022',
        logLevel: 'warning'
    });
    writeFileSync(
        join(site, 'index.html'),
        '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>loading</title>' +
            '<script src="main.js"></script>'
    );
    const server = await serve(site, 0);
    const address = server.address();
    port = typeof address === 'object' && address ? address.port : 0;
    close = () => server.close();
    browser = await openBrowser('plain');
    page = await browser.newPage();
    page.on('console', m => {
        if (m.type() === 'error' && !m.text().includes('404')) errors.push(m.text());
    });
    page.on('pageerror', e => errors.push(e.message));
    page.on('request', r => requested.push(new URL(r.url()).pathname));
    await page.goto(`http://127.0.0.1:${port}/`);
    await waitFor(page, 'the test page to load (title "ready")', () => document.title === 'ready');
});

after(async () => {
    await browser?.close();
    close?.();
    if (site) rmSync(site, { recursive: true, force: true });
});

// A function of test/tiled-page.ts called in the page with JSON arguments.
function inPage(fn: 'load' | 'fromResources', ...args: unknown[]): Promise<Read> {
    return page!.evaluate(`hitmaskTiled.${fn}(${args.map(a => JSON.stringify(a)).join(', ')})`) as Promise<Read>;
}

// A described read, or the test fails with the error the page met.
function described(r: Read, label: string): TiledDescription {
    assert.ok(!('error' in r), `${label}: ${'error' in r ? r.error : ''}`);
    return r;
}

// Two descriptions agree layer by layer and object by object (the failure names which).
function same(got: TiledDescription, want: TiledDescription, label: string): void {
    assert.deepEqual(got.size, want.size, `${label}: the map's extent`);
    assert.equal(got.layers.length, want.layers.length, `${label}: layers`);
    got.layers.forEach((l, i) => assert.deepEqual(l, want.layers[i], `${label}: layer ${want.layers[i].name}`));
    assert.equal(got.objects.length, want.objects.length, `${label}: objects`);
    got.objects.forEach((o, i) => assert.deepEqual(o, want.objects[i], `${label}: object ${want.objects[i].id}`));
}

test(
    'loadTiledMap in Chromium (fetch, createImageBitmap, JS inflaters) reads what readTiledMap reads in Node',
    { skip },
    async () => {
        for (const name of MAPS) {
            const want = describeTiled(await readTiledMap(join(site, 'maps', name)));
            // The maps are not empty: pixels in every layer, masks for most objects.
            assert.ok(want.layers.every(l => l.rows.some(n => n > 0)) && want.objects.filter(o => o.mask).length > 5);
            const got = described(await inPage('load', `maps/${name}`), name);
            same(got, want, `Chromium's loadTiledMap of ${name}`);
            // Everything the map names came over HTTP, relative to the file that names it.
            const seed = SEEDS[name];
            for (const f of [...tilesetsOf(seed), ...imagesOf(seed)])
                assert.ok(requested.includes(f.slice(2)), `${name}: the page fetched ${f.slice(2)}`);
        }
        assert.deepEqual(errors, []);
    }
);

test(
    "tiledCollision in Chromium over the page's own resources (<img> elements, tileset text) equals readTiledMap",
    { skip },
    async () => {
        for (const name of ['zlib.tmj', 'gzip.tmx'] as const) {
            const seed = SEEDS[name];
            const want = describeTiled(await readTiledMap(join(site, 'maps', name)));
            const r = await inPage('fromResources', `maps/${name}`, tilesetsOf(seed), imagesOf(seed));
            same(described(r, name), want, `Chromium's tiledCollision of ${name}`);
        }
        // Without an image the tileset names: an Error naming the tileset's file and the image.
        const r = await inPage('fromResources', 'maps/zlib.tmj', tilesetsOf(31), imagesOf(31).slice(0, 3));
        assert.ok('error' in r, 'a missing image is refused');
        assert.ok(
            r.error.startsWith(
                'Error: ../tilesets/31/things.tsj: tileset "things" names the image "obj2.png", ' +
                    'which resources.images does not hold'
            ),
            r.error
        );
        assert.deepEqual(errors, []);
    }
);

test(
    'loadTiledMap in Chromium: a missing tileset or image is an Error naming it and the file that names it',
    { skip },
    async () => {
        const at = (path: string) => `(http://127.0.0.1:${port}/${path})`;
        const noTileset = await inPage('load', 'maps/no-tileset.tmj');
        assert.ok('error' in noTileset, 'a missing tileset is refused');
        assert.equal(
            noTileset.error,
            `Error: maps/no-tileset.tmj: "../tilesets/missing.tsj" ${at('tilesets/missing.tsj')} answered HTTP 404.`
        );
        const noImage = await inPage('load', 'maps/no-image.tmj');
        assert.ok('error' in noImage, 'a missing image is refused');
        assert.equal(
            noImage.error,
            'Error: ../tilesets/34/things.tsj: "../tilesets/34/obj1.png" ' +
                `${at('tilesets/34/obj1.png')} answered HTTP 404.`
        );
        assert.deepEqual(errors, []);
    }
);
