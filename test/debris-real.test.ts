// @test slow
// detachIslands on real game terrain the repository does not contain: Hedgewars' maps (Debian's hedgewars-data,
// installed by .ci/apt-packages), carved by craters of radius 8 to 48 px as a game's explosions carve them, with
// the islands cut loose after each crater. Every call must equal the per-pixel rules (test/debris-reference.ts),
// and its flood must process about one pass of the layer's words (counted, not timed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CollisionRaster, Mask, crop, detachIslands } from '../src/index.js';
import { decodeImage } from '../src/node.js';
import { floodWork } from '../src/kernels/flood.js'; // internal: the words the floods processed (counted work)
import { held, islands, rectAnchors, type Bytes } from './debris-reference.js';
import { mulberry32 } from './reference.js';

const DATA = '/usr/share/games/hedgewars/Data';
const skip = existsSync(join(DATA, 'Maps'))
    ? false
    : `${DATA} is missing (CI installs Debian's hedgewars-data from .ci/apt-packages; locally: apt-get install hedgewars-data)`;
// Caves, floating islands, towers and plain hills; more with HITMASK_DEBRIS_MAPS (a count, or "all").
const MAPS = ['Cave', 'Islands', 'Castle', 'Bamboo', 'Hogville'];
// Each map's bottom-left 2048 x 1024 (the reference floods every pixel after every crater).
const W = 2048,
    H = 1024;

function bytesOf(m: Mask): Bytes {
    const t: Bytes = { w: m.width, h: m.height, px: new Uint8Array(m.width * m.height) };
    const words = m.words;
    for (let y = 0; y < m.height; y++)
        for (let x = 0; x < m.width; x++) t.px[y * m.width + x] = (words[(x >>> 5) * m.height + y] >>> (x & 31)) & 1;
    return t;
}

function disc(r: number): Mask {
    const m = new Mask(2 * r + 1, 2 * r + 1);
    for (let y = -r; y <= r; y++) for (let x = -r; x <= r; x++) if (x * x + y * y <= r * r) m.set(x + r, y + r);
    return m;
}

test('real terrain (Hedgewars maps): islands cut loose after each crater equal the per-pixel rules', { skip }, t => {
    const wanted = process.env.HITMASK_DEBRIS_MAPS;
    const all = readdirSync(join(DATA, 'Maps'))
        .filter(m => existsSync(join(DATA, 'Maps', m, 'map.png')))
        .sort();
    const names = wanted === 'all' ? all : wanted ? all.slice(0, Number(wanted)) : MAPS.filter(m => all.includes(m));
    assert.ok(names.length > 0, 'maps found');
    const craters = [8, 16, 24, 32, 48].map(disc);
    let calls = 0,
        cut = 0,
        most = 0;
    for (const [mi, name] of names.entries()) {
        const img = decodeImage(readFileSync(join(DATA, 'Maps', name, 'map.png')));
        const full = Mask.fromRGBA(img.data, img.width, img.height);
        const map = crop(full, 0, Math.max(0, full.height - H), Math.min(W, full.width), Math.min(H, full.height));
        const w = map.width,
            h = map.height;
        const raster = new CollisionRaster(w, h).stamp(map, 0, 0);
        const floor = [{ x: 0, y: h, width: w, height: 1 }],
            anchor = rectAnchors(floor);
        const rnd = mulberry32(3800 + mi);
        for (let k = 0; k < 8; k++) {
            // Craters where the terrain is, so slabs come loose: several before each call, as a volley does.
            for (let j = 0; j < 4; j++) {
                const c = craters[Math.floor(rnd() * craters.length)],
                    r = c.width >> 1;
                raster.erase(c, Math.floor(rnd() * w) - r, Math.floor(h * (0.3 + 0.7 * rnd())) - r);
            }
            const before = bytesOf(raster.plane(0));
            const words = floodWork.words;
            const found = detachIslands(raster, floor);
            const work = floodWork.words - words;
            calls++;
            cut += found.length;
            const want = islands(before, anchor).sort((a, b) => a[0] - b[0]);
            const got = found
                .map(({ mask, x, y }) => {
                    const p: number[] = [];
                    const mw = mask.words;
                    for (let j = 0; j < mask.height; j++)
                        for (let i = 0; i < mask.width; i++)
                            if ((mw[(i >>> 5) * mask.height + j] >>> (i & 31)) & 1) p.push((y + j) * w + x + i);
                    return p.sort((a, b) => a - b);
                })
                .sort((a, b) => a[0] - b[0]);
            assert.deepEqual(got, want, `${name}, call ${k}: islands`);
            const after = bytesOf(raster.plane(0));
            const sum = new Uint8Array(after.px);
            for (const p of got) for (const i of p) sum[i]++;
            assert.deepEqual(sum, before.px, `${name}, call ${k}: islands + terrain left = terrain before`);
            const hold = held(after, anchor);
            assert.ok(
                after.px.every((v, i) => v === 0 || hold[i] === 1),
                `${name}, call ${k}: every pixel left is held`
            );
            // About one pass: the solid words plus the words the islands add, never a multiple of the plane.
            const plane = ((w + 31) >>> 5) * h;
            most = Math.max(most, work / plane);
            assert.ok(work <= 2 * plane, `${name}, call ${k}: ${work} words processed for a plane of ${plane}`);
        }
    }
    t.diagnostic(`${cut} islands cut loose in ${calls} calls; at most ${most.toFixed(2)} words processed a word`);
    assert.ok(cut > 0, `${cut} islands cut loose in ${calls} calls`);
});
