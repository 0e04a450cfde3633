// @test fast no-shared
// TileMap against a naive per-pixel oracle, plus edits and error paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Mask } from '../src/index.js';
import { TileMap } from '../src/index.js';
import { mulberry32 } from './reference.js';
import { warnsOnce } from './deprecations.js';
import { hashBytes } from '../src/base/snapshot-bytes.js'; // internal: the checksum a snapshot ends with

function randomMask(rnd: () => number, w: number, h: number, d: number): Mask {
    const m = new Mask(w, h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (rnd() < d) m.set(x, y);
    return m;
}

// Oracle: the solid pixel at (x, y) straight from the tile masks.
function solid(map: TileMap, x: number, y: number): boolean {
    if (x < 0 || y < 0 || x >= map.width || y >= map.height) return false;
    const c = Math.floor(x / map.tileWidth),
        r = Math.floor(y / map.tileHeight);
    const t = map.cells[r * map.columns + c];
    return t >= 0 && map.tiles[t] !== null && (map.tiles[t] as Mask).get(x - c * map.tileWidth, y - r * map.tileHeight);
}

test('overlaps, overlapArea, overlap and hitTest match a per-pixel oracle', () => {
    fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), seed => {
            const rnd = mulberry32(seed);
            const tw = 1 + Math.floor(rnd() * 12),
                th = 1 + Math.floor(rnd() * 12);
            const cols = 1 + Math.floor(rnd() * 6),
                rows = 1 + Math.floor(rnd() * 6);
            const tiles = [randomMask(rnd, tw, th, 0.3), new Mask(tw, th, true), null];
            const cells = Array.from({ length: cols * rows }, () => Math.floor(rnd() * 4) - 1);
            const map = new TileMap(tw, th, cols, rows, tiles, cells);
            for (let k = 0; k < 10; k++) {
                const m = randomMask(rnd, Math.floor(rnd() * 40), Math.floor(rnd() * 20), 0.4);
                const x = Math.floor(rnd() * (map.width + 40)) - 20,
                    y = Math.floor(rnd() * (map.height + 40)) - 20;
                let area = 0;
                let first: { x: number; y: number } | null = null;
                for (let yy = 0; yy < m.height; yy++) {
                    for (let xx = 0; xx < m.width; xx++) {
                        if (m.get(xx, yy) && solid(map, x + xx, y + yy)) {
                            area++;
                            if (!first) first = { x: x + xx, y: y + yy };
                        }
                    }
                }
                assert.equal(map.overlapArea(m, x, y), area);
                assert.equal(map.overlaps(m, x + 0.9, y + 0.2), area > 0);
                assert.deepEqual(map.overlap(m, x, y), first);
                const px = x + Math.floor(rnd() * 10),
                    py = y + Math.floor(rnd() * 10);
                assert.equal(map.hitTest(px + 0.5, py), solid(map, px, py));
            }
        }),
        { seed: 11, numRuns: 60 }
    );
});

test('0.3 names: test, hitPoint and testPixel warn once each, then answer as overlaps, overlap and hitTest', () => {
    const rnd = mulberry32(36);
    const tiles = [randomMask(rnd, 6, 5, 0.4), randomMask(rnd, 6, 5, 0.8), null];
    const cells = Array.from({ length: 8 * 6 }, () => Math.floor(rnd() * 4) - 1);
    const map = new TileMap(6, 5, 8, 6, tiles, cells);
    for (let i = 0; i < 200; i++) {
        const m = randomMask(rnd, 1 + Math.floor(rnd() * 9), 1 + Math.floor(rnd() * 9), 0.5),
            x = Math.floor(rnd() * 60) - 6,
            y = Math.floor(rnd() * 40) - 6,
            out = { x: -1, y: -1 };
        assert.equal(
            warnsOnce('TileMap.test', 'TileMap.overlaps', () => map.test(m, x, y)),
            map.overlaps(m, x, y)
        );
        assert.deepEqual(
            warnsOnce('TileMap.hitPoint', 'TileMap.overlap', () => map.hitPoint(m, x, y)),
            map.overlap(m, x, y)
        );
        const got = warnsOnce('TileMap.hitPoint', 'TileMap.overlap', () => map.hitPoint(m, x, y, out));
        if (got !== null) assert.equal(got, out, 'out is written and returned');
        assert.equal(
            warnsOnce('TileMap.testPixel', 'TileMap.hitTest', () => map.testPixel(x + 0.5, y)),
            map.hitTest(x + 0.5, y)
        );
    }
});

test('setTile edits the map; accessors; far-away and empty masks never hit', () => {
    const map = new TileMap(4, 4, 3, 2, [new Mask(4, 4, true)]);
    assert.equal(map.width, 12);
    assert.equal(map.height, 8);
    assert.equal(map.getTile(1, 1), -1);
    const probe = new Mask(1, 1, true);
    assert.equal(map.overlaps(probe, 5, 5), false);
    map.setTile(1, 1, 0);
    assert.equal(map.getTile(1, 1), 0);
    assert.equal(map.overlaps(probe, 5, 5), true);
    assert.deepEqual(map.overlap(new Mask(12, 8, true), 0, 0), { x: 4, y: 4 });
    assert.equal(map.overlaps(probe, 2 ** 52, -(2 ** 52)), false);
    assert.equal(map.overlaps(new Mask(0, 0), 5, 5), false);
    assert.equal(map.hitTest(-1, 5), false);
    assert.equal(String(map), '<TileMap 3x2 of 4x4>');
});

test('bad input throws with the value and the fix', () => {
    const t = new Mask(4, 4);
    assert.throws(() => new TileMap(0, 4, 1, 1, [t]), /tileWidth must be an integer in 1/);
    assert.throws(() => new TileMap(4, 4, -1, 1, [t]), /columns must be an integer/);
    assert.throws(() => new TileMap(4, 4, 1, 1, 'x' as never), /tiles must be an array/);
    assert.throws(() => new TileMap(4, 4, 1, 1, [{} as Mask]), /tiles\[0\] must be a Mask, got Object/);
    assert.throws(() => new TileMap(4, 4, 1, 1, [new Mask(4, 5)]), /tiles\[0\] is 4x5, expected 4x4/);
    assert.throws(() => new TileMap(4, 4, 2, 1, [t], [0]), /cells must be an array of 2 tile indices/);
    assert.throws(() => new TileMap(4, 4, 1, 1, [t], [1]), /cells\[0\] must be an integer in -1..0, got 1/);
    const map = new TileMap(4, 4, 2, 2, [t]);
    assert.throws(() => map.setTile(2, 0, 0), /column must be an integer in 0..1, got 2/);
    assert.throws(() => map.setTile(0, 0, 5), /tile index must be an integer in -1..0/);
    assert.throws(() => map.overlaps(null as never, 0, 0), /mask must be a Mask/);
    assert.throws(() => map.overlapArea(t, NaN, 0), /x must be a finite number/);
    assert.throws(() => map.overlap(t, 0, Infinity), /y must be a finite number/);
    assert.throws(() => map.hitTest(0, NaN), RangeError);
});

test('a disposed mask: the same Error from the constructor and every query', () => {
    const tile = new Mask(4, 4, true),
        gone = new Mask(4, 4, true);
    gone.dispose();
    const message = 'was disposed; create a new Mask (or stop calling dispose() on masks still in use).';
    assert.throws(() => new TileMap(4, 4, 1, 1, [tile, gone]), {
        name: 'Error',
        message: `tiles[1] (<Mask 4x4>) ${message}`
    });
    const map = new TileMap(4, 4, 2, 2, [tile], [0, -1, -1, 0]);
    const disposed = { name: 'Error', message: `mask (<Mask 4x4>) ${message}` };
    assert.throws(() => map.overlaps(gone, 0, 0), disposed);
    assert.throws(() => map.overlapArea(gone, 0, 0), disposed);
    assert.throws(() => map.overlap(gone, 0, 0), disposed);
    assert.equal(map.overlaps(tile, 0, 0), true);
});

test('snapshot, restore and hash: setTile edits roll back and replay to the same answers and hashes', () => {
    const rnd = mulberry32(20261126),
        tiles = [randomMask(rnd, 8, 6, 0.5), new Mask(8, 6, true), null];
    const map = new TileMap(8, 6, 7, 5, tiles),
        probe = randomMask(rnd, 13, 9, 0.6);
    const edits = Array.from({ length: 60 }, () => [
        Math.floor(rnd() * 7),
        Math.floor(rnd() * 5),
        Math.floor(rnd() * 4) - 1
    ]);
    const answers = () =>
        JSON.stringify(
            Array.from({ length: 30 }, (_, i) => {
                const x = ((i * 7) % 60) - 5,
                    y = ((i * 5) % 34) - 3;
                return [
                    map.overlaps(probe, x, y),
                    map.overlapArea(probe, x, y),
                    map.overlap(probe, x, y),
                    map.raycast(x, y, 60 - x, 33 - y)
                ];
            })
        );
    const trace: string[] = [],
        hashes: number[] = [];
    let snap: Uint8Array = new Uint8Array(0);
    const at = 25;
    edits.forEach(([c, r, t], i) => {
        map.setTile(c, r, t);
        trace.push(answers());
        hashes.push(map.hash());
        const bytes = map.snapshot();
        assert.equal(hashes[i], new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 4, true));
        if (i === at) snap = bytes;
    });
    for (const target of [map, new TileMap(8, 6, 7, 5, tiles)]) {
        target.restore(snap);
        assert.equal(target.hash(), hashes[at]);
        for (let i = at + 1; i < edits.length; i++) {
            const [c, r, t] = edits[i];
            target.setTile(c, r, t);
            assert.equal(target.hash(), hashes[i]);
        }
    }
    map.restore(snap);
    assert.equal(answers(), trace[at]);
    for (let i = at + 1; i < edits.length; i++) {
        const [c, r, t] = edits[i];
        map.setTile(c, r, t);
        assert.equal(answers(), trace[i]);
    }
    // snapshot(out) writes into out.
    const out = new Uint8Array(snap.length + 8),
        got = map.snapshot(out);
    assert.equal(got.buffer, out.buffer);
    assert.deepEqual(got, map.snapshot());
});

test('TileMap.restore refuses bad bytes with an Error naming the problem and changes nothing', () => {
    const t = new Mask(4, 4, true),
        map = new TileMap(4, 4, 3, 2, [t, null], [0, 1, -1, 0, 0, 1]);
    const good = map.snapshot(),
        other = new TileMap(4, 4, 3, 2, [t, null], [1, 1, 1, 1, 1, 1]),
        keep = other.snapshot();
    const refused = (bytes: unknown, message: RegExp, type: new () => Error = Error) => {
        assert.throws(
            () => other.restore(bytes as Uint8Array),
            (e: Error) => e.constructor === type && message.test(e.message),
            String(message)
        );
        assert.deepEqual(other.snapshot(), keep);
    };
    refused('x', /bytes must be a Uint8Array from TileMap.snapshot\(\), got/, TypeError);
    refused(new Uint8Array(2), /ends after 2 bytes/);
    refused(new Uint8Array(40), /tag "HMTM"/);
    refused(
        new TileMap(4, 4, 2, 3, [t, null]).snapshot(),
        /snapshot is of a 2x3 map of 4x4 tiles with 2 tile masks, this map is 3x2 of 4x4 with 2/
    );
    refused(new TileMap(4, 4, 3, 2, [t]).snapshot(), /with 1 tile masks/);
    refused(good.subarray(0, good.length - 1), /has 55 bytes, expected 56/);
    const flipped = good.slice();
    flipped[30] ^= 4;
    refused(flipped, /checksum does not match/);
    // A cell index past the tiles, resealed with a valid checksum: cell 1 is at byte 28 + 4.
    const bad = good.slice(),
        dv = new DataView(bad.buffer);
    dv.setInt32(28 + 4, 7, true);
    dv.setUint32(bad.length - 4, hashBytes(bad, bad.length - 4), true);
    refused(bad, /cell 1 holds tile index 7 in the snapshot, expected -1..1/);
    other.restore(good);
    assert.deepEqual([...other.cells], [0, 1, -1, 0, 0, 1]);
});
