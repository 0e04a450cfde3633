// @test slow
// Real Tiled maps the repository does not contain: the examples Debian's `tiled` package installs (desert,
// sewers, the RPG island, perspective walls, the outside map, Sticker Knight's sandboxes with image-collection
// tilesets, stretched, flipped and rotated tile objects and templates). Each is read from its own TMX with
// readTiledMap and compared pixel by pixel with the reference over the JSON that Tiled itself exports of it
// (tilesets embedded, templates detached), with solid 'alpha' and 'shapes'; other orientations are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { gunzipSync, inflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { readTiledMap, decodeImage } from '../src/node.js';
import type { TiledCollision } from '../src/tiled.js';
import { objectsOf, refLayer, refObject, tileLayers, type Img } from './tiled-maps.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- maps are loose JSON

const EXAMPLES = '/usr/share/doc/tiled/examples';
const skip =
    !existsSync(EXAMPLES) || !existsSync('/usr/bin/tiled') ? 'Tiled is not installed (apt install tiled)' : false;

const ORTHOGONAL = [
    'desert.tmx',
    'sewers.tmx',
    'rpg/island.tmx',
    'perspective_walls.tmx',
    'orthogonal-outside.tmx',
    'sticker-knight/map/sandbox.tmx',
    'sticker-knight/map/sandbox2.tmx'
];
const OTHER = ['isometric_grass_and_water.tmx', 'hexagonal-mini.tmx', 'isometric_staggered_grass_and_water.tmx'];

// A copy of the examples with every .gz file unpacked (Debian compresses the larger ones).
function examples(): string {
    const dir = mkdtempSync(join(tmpdir(), 'hitmask-tiled-real-'));
    cpSync(EXAMPLES, dir, { recursive: true });
    const walk = (d: string): void => {
        for (const e of readdirSync(d, { withFileTypes: true })) {
            const p = join(d, e.name);
            if (e.isDirectory()) walk(p);
            else if (e.name.endsWith('.gz')) writeFileSync(p.slice(0, -3), gunzipSync(readFileSync(p)));
        }
    };
    walk(dir);
    return dir;
}

// The JSON Tiled writes of a map, with everything in it.
function exportJson(file: string): Json {
    const out = file.replace(/\.tmx$/, '.export.tmj');
    const r = spawnSync('tiled', ['--embed-tilesets', '--detach-templates', '--export-map', 'json', file, out], {
        env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' },
        encoding: 'utf8',
        timeout: 120_000
    });
    assert.equal(r.status, 0, `tiled --export-map ${file}: ${r.stderr}`);
    const map = JSON.parse(readFileSync(out, 'utf8'));
    // The reference reads gid arrays: base64 data decoded here with Node's own zlib.
    const gids = (data: unknown, compression: string | undefined): number[] => {
        if (Array.isArray(data)) return data;
        let b = Buffer.from(String(data), 'base64');
        if (compression === 'zlib') b = inflateSync(b);
        else if (compression === 'gzip') b = gunzipSync(b);
        else if (compression) throw new Error(`unexpected compression ${compression}`);
        return Array.from({ length: b.length / 4 }, (_, i) => b.readUInt32LE(i * 4));
    };
    for (const { l } of tileLayers(map)) {
        if (l.chunks) for (const c of l.chunks) c.data = gids(c.data, l.compression);
        else l.data = gids(l.data, l.compression);
    }
    return map;
}

function compareReal(
    got: TiledCollision,
    map: Json,
    images: Record<string, Img>,
    solid: string,
    label: string
): number {
    let n = 0;
    tileLayers(map).forEach(({ l, gx, gy }, i) => {
        const ref = refLayer(map, images, l, gx, gy, solid);
        const layer = got.layers[i].layer;
        for (const [key, v] of ref) {
            const [x, y] = key.split(',').map(Number);
            if (v === 1 && !layer.hitTest(x, y)) assert.fail(`${label}: layer ${l.name} ${x},${y} should be solid`);
        }
        const b = layer.bounds();
        if (b)
            for (let y: number = b.y; y < b.y + b.height; y++)
                for (let x: number = b.x; x < b.x + b.width; x++, n++)
                    if (layer.hitTest(x, y) && !ref.has(`${x},${y}`))
                        assert.fail(`${label}: layer ${l.name} ${x},${y} is solid, the reference says empty`);
    });
    objectsOf(map).forEach(({ o, lx, ly }, i) => {
        const g = got.objects[i];
        assert.equal(g.id, o.id, label);
        if (!g.mask) return;
        for (let y = 0; y < g.mask.height; y++)
            for (let x = 0; x < g.mask.width; x++, n++) {
                const r = refObject(map, images, o, lx, ly, solid, g.x + x, g.y + y);
                if (r !== 2 && g.mask.get(x, y) !== (r === 1))
                    assert.fail(`${label}: object ${o.id} pixel ${g.x + x},${g.y + y}: reference ${r}`);
            }
    });
    return n;
}

test(
    'Tiled example maps: every layer pixel and object mask equals the reference, alpha and shapes',
    { skip },
    async () => {
        const dir = examples();
        try {
            let pixels = 0;
            for (const name of ORTHOGONAL) {
                const file = join(dir, name);
                const json = exportJson(file);
                // The exported JSON names images relative to its own folder, as the TMX does.
                const images: Record<string, Img> = {};
                for (const ts of json.tilesets)
                    for (const img of [ts.image, ...(ts.tiles ?? []).map((t: Json) => t.image)])
                        if (typeof img === 'string' && !images[img])
                            images[img] = decodeImage(readFileSync(join(dirname(file), img)));
                for (const solid of ['alpha', 'shapes']) {
                    const got = await readTiledMap(file, { solid: solid as 'alpha' });
                    assert.equal(got.layers.length, tileLayers(json).length, name);
                    assert.equal(got.objects.length, objectsOf(json).length, name);
                    pixels += compareReal(got, json, images, solid, `${name} ${solid}`);
                }
            }
            assert.ok(pixels > 1e6, `compared ${pixels} pixels`);
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    }
);

test('Tiled example maps of other orientations are refused naming the orientation', { skip }, async () => {
    const dir = examples();
    try {
        for (const name of OTHER)
            await assert.rejects(
                readTiledMap(join(dir, name)),
                /the map is (isometric|hexagonal|staggered); hitmask reads orthogonal maps only/
            );
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
});
