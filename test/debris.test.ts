// @test fast no-shared
// detachIslands against the per-pixel rules (test/debris-reference.ts) on seeded generated terrains with
// craters, on masks and raster layers, with every kind of anchor (rectangles, masks, raster views, tile maps, a
// layer of one's own), plus its options and hostile input. Runs on both kernel paths (the words of the terrain
// and of the islands live in WebAssembly memory on the wasm path, which island masks may grow).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
    CollisionRaster,
    Mask,
    detachIslands,
    limits,
    type CollisionLayer,
    type DetachedIsland,
    type Rect
} from '../src/index.js';
import { floodWork } from '../src/kernels/flood.js'; // internal: the words the floods processed (counted work)
import { mulberry32, testKernels } from './reference.js';
import { islands as refIslands, rectAnchors, held, type AnchorTest, type Bytes } from './debris-reference.js';
import { tileMapOf } from './tiles.js';

const SEED = 20261128;

function bytesOf(m: Mask): Bytes {
    const t: Bytes = { w: m.width, h: m.height, px: new Uint8Array(m.width * m.height) };
    for (let y = 0; y < m.height; y++) for (let x = 0; x < m.width; x++) if (m.get(x, y)) t.px[y * m.width + x] = 1;
    return t;
}

/** A filled disc of radius r (a crater), (2r+1)² px. */
function disc(r: number): Mask {
    const m = new Mask(2 * r + 1, 2 * r + 1);
    for (let y = -r; y <= r; y++) for (let x = -r; x <= r; x++) if (x * x + y * y <= r * r) m.set(x + r, y + r);
    return m;
}

// A terrain: hills from the bottom, floating blobs, noise specks, then craters.
function terrain(w: number, h: number, rnd: () => number): Mask {
    const m = new Mask(w, h);
    const base = h * (0.3 + 0.4 * rnd()),
        a = rnd() * 0.2,
        b = rnd() * h * 0.2;
    for (let x = 0; x < w; x++) {
        const top = Math.floor(base + b * Math.sin(x * a));
        for (let y = Math.max(0, top); y < h; y++) m.set(x, y);
    }
    for (let k = Math.floor(rnd() * 6); k > 0; k--) m.draw(disc(1 + Math.floor(rnd() * 8)), rnd() * w - 4, rnd() * h);
    for (let k = Math.floor(rnd() * w * h * 0.002); k > 0; k--) m.set(Math.floor(rnd() * w), Math.floor(rnd() * h));
    for (let k = Math.floor(rnd() * 12); k > 0; k--) {
        const r = 1 + Math.floor(rnd() * Math.min(12, h / 3));
        m.erase(disc(r), Math.floor(rnd() * w) - r, Math.floor(rnd() * h) - r);
    }
    return m;
}

// The islands as sorted pixel lists (layer indices), in a canonical order.
function pixelsOf(found: DetachedIsland[], w: number): number[][] {
    return found
        .map(({ mask, x, y }) => {
            const p: number[] = [];
            for (let j = 0; j < mask.height; j++)
                for (let i = 0; i < mask.width; i++) if (mask.get(i, j)) p.push((y + j) * w + x + i);
            return p.sort((a, b) => a - b);
        })
        .sort((a, b) => a[0] - b[0]);
}

const canon = (l: number[][]) => [...l].sort((a, b) => a[0] - b[0]);

// Checks a call against the reference: the islands are the reference's, each mask as small as its pixels' box,
// the layer lost exactly them, and every pixel left is held.
function check(before: Bytes, after: Mask, found: DetachedIsland[], anchor: AnchorTest, note: string): void {
    const want = refIslands(before, anchor);
    const got = pixelsOf(found, before.w);
    assert.deepEqual(got, canon(want), `${note}: islands`);
    for (const { mask, x, y } of found) {
        assert.ok(mask.width > 0 && mask.height > 0, `${note}: island mask not empty`);
        // The layer's pair queries (which keep a box of its pixels) see the cut.
        assert.equal(after.overlaps(mask, x, y), false, `${note}: the island is gone from the layer`);
        const box = { x0: mask.width, y0: mask.height, x1: -1, y1: -1 };
        for (let j = 0; j < mask.height; j++)
            for (let i = 0; i < mask.width; i++)
                if (mask.get(i, j)) {
                    box.x0 = Math.min(box.x0, i);
                    box.y0 = Math.min(box.y0, j);
                    box.x1 = Math.max(box.x1, i);
                    box.y1 = Math.max(box.y1, j);
                }
        assert.deepEqual(box, { x0: 0, y0: 0, x1: mask.width - 1, y1: mask.height - 1 }, `${note}: tight mask`);
    }
    // Island pixels plus the terrain left are the terrain before, pixel for pixel.
    const left = bytesOf(after),
        sum = new Uint8Array(left.px);
    for (const p of got) for (const i of p) sum[i] += 1;
    assert.deepEqual(sum, before.px, `${note}: islands + terrain left = terrain before`);
    // Every pixel left is held.
    const hold = held(left, anchor);
    for (let i = 0; i < left.px.length; i++)
        if (left.px[i] === 1 && hold[i] === 0)
            assert.fail(`${note}: pixel (${i % left.w}, ${Math.floor(i / left.w)}) left but not held`);
}

// A CollisionLayer of one's own over a mask, without bounds(): the generic path of the anchors.
function ownLayer(m: Mask): CollisionLayer {
    return {
        overlaps: (o, x, y) => m.overlaps(o, x, y),
        overlap: (o, x, y, out) => m.overlap(o, x, y, out),
        overlapArea: (o, x, y) => m.overlapArea(o, x, y),
        hitTest: (x, y) => x >= 0 && y >= 0 && x < m.width && y < m.height && m.get(Math.floor(x), Math.floor(y))
    };
}

const maskAnchor =
    (m: Mask): AnchorTest =>
    (x, y) =>
        x >= 0 && y >= 0 && x < m.width && y < m.height && m.get(x, y);
// A layer's anchor pixels count inside the terrain's rectangle only.
const inside =
    (t: AnchorTest, w: number, h: number): AnchorTest =>
    (x, y) =>
        x >= 0 && y >= 0 && x < w && y < h && t(x, y);

testKernels('detachIslands equals the per-pixel rules on generated terrains (rectangle anchors, masks)', () => {
    const rnd = mulberry32(SEED);
    for (let k = 0; k < 120; k++) {
        const w = 1 + Math.floor(rnd() * (k < 60 ? 70 : 200)),
            h = 1 + Math.floor(rnd() * (k < 60 ? 50 : 120));
        const m = terrain(w, h, rnd),
            before = bytesOf(m);
        const rects: Rect[] = [];
        const kind = k % 4;
        if (kind === 0) rects.push({ x: 0, y: h, width: w, height: 1 }); // the floor under the map
        if (kind === 1) rects.push({ x: 0, y: h - 1, width: w, height: 1 }); // the bottom row
        if (kind >= 2)
            for (let j = Math.floor(rnd() * 4); j >= 0; j--)
                // Whole pixels, or fractions on odd terrains (pixel px is in when x <= px < x + width).
                rects.push({
                    x: Math.floor(rnd() * (w + 20)) - 10 + (k % 2) * Math.floor(rnd() * 4) * 0.25,
                    y: Math.floor(rnd() * (h + 20)) - 10 + (k % 2) * Math.floor(rnd() * 4) * 0.25,
                    width: Math.floor(rnd() * w * 0.5) + (k % 2) * rnd(),
                    height: Math.floor(rnd() * 6) + (k % 2) * rnd()
                });
        const found = detachIslands(m, rects);
        check(before, m, found, rectAnchors(rects), `terrain ${k} (${w}x${h}), anchors ${JSON.stringify(rects)}`);
    }
});

testKernels('detachIslands on raster layers: anchors from masks, raster views, tile maps and layers of its own', () => {
    const rnd = mulberry32(SEED + 1);
    for (let k = 0; k < 48; k++) {
        const w = 20 + Math.floor(rnd() * 150),
            h = 10 + Math.floor(rnd() * 90);
        const ground = terrain(w, h, rnd);
        // Bedrock: a few blocks in its own layer (layer 1), sometimes larger than the terrain's raster.
        const rock = new Mask(w + (k % 3 === 0 ? 40 : 0), h + (k % 3 === 0 ? 30 : 0));
        for (let j = 1 + Math.floor(rnd() * 4); j > 0; j--)
            rock.draw(new Mask(4 + Math.floor(rnd() * 30), 2 + Math.floor(rnd() * 8), true), rnd() * w, rnd() * h);
        const raster = new CollisionRaster(w, h, { layers: 2 }).stamp(ground, 0, 0).stamp(rock, 0, 0, { layer: 1 });
        const before = bytesOf(ground);
        const kind = k % 4;
        const anchors =
            kind === 0
                ? raster.layer(1)
                : kind === 1
                  ? rock
                  : kind === 2
                    ? tileMapOf(rock, 1 + Math.floor(rnd() * 20))
                    : ownLayer(rock);
        const hash = raster.hash(),
            rockPixels = raster.plane(1).count();
        const found =
            k % 2 === 0
                ? detachIslands(raster, anchors)
                : detachIslands(raster.layer(0), anchors, { layer: undefined });
        check(before, raster.plane(0), found, inside(maskAnchor(rock), w, h), `raster ${k} (${w}x${h}), kind ${kind}`);
        // Bedrock is untouched; the raster's hash changed exactly when something was cut.
        assert.equal(raster.plane(1).count(), rockPixels, `raster ${k}: bedrock untouched`);
        assert.equal(raster.hash() !== hash, found.length > 0, `raster ${k}: the raster saw the cut`);
    }
});

testKernels('detachIslands options: minPixels clears dust, limit leaves the rest for a later call', () => {
    const rnd = mulberry32(SEED + 2);
    for (let k = 0; k < 40; k++) {
        const w = 30 + Math.floor(rnd() * 120),
            h = 20 + Math.floor(rnd() * 80);
        const m = terrain(w, h, rnd),
            before = bytesOf(m),
            floor = [{ x: 0, y: h, width: w, height: 1 }],
            anchor = rectAnchors(floor);
        const all = canon(refIslands(before, anchor));
        const minPixels = 1 + Math.floor(rnd() * 20);
        const copy = m.clone();
        const big = detachIslands(copy, floor, { minPixels });
        assert.deepEqual(
            pixelsOf(big, w),
            all.filter(p => p.length >= minPixels),
            `terrain ${k}: islands of ${minPixels}+ px`
        );
        // Dust is cleared too: what is left is held, exactly as without minPixels.
        const plain = m.clone();
        detachIslands(plain, floor);
        assert.ok(copy.equals(plain), `terrain ${k}: dust cleared`);
        // limit: at most that many now; the next calls find the rest, and together they are all.
        const limit = 1 + Math.floor(rnd() * 3);
        const parts: DetachedIsland[] = [];
        for (let calls = 0; ; calls++) {
            const got = detachIslands(m, floor, { limit });
            assert.ok(got.length <= limit, `terrain ${k}: at most ${limit}`);
            parts.push(...got);
            if (got.length < limit) break;
            assert.ok(calls < all.length + 1, `terrain ${k}: limit ends`);
        }
        check(before, m, parts, anchor, `terrain ${k}, limit ${limit}`);
        assert.deepEqual(detachIslands(m, floor), [], `terrain ${k}: nothing is left to detach`);
    }
    // Infinity: every island cleared, none returned.
    const m = terrain(100, 60, mulberry32(SEED + 3));
    const plain = m.clone();
    detachIslands(plain, [{ x: 0, y: 60, width: 100, height: 1 }]);
    assert.deepEqual(detachIslands(m, [{ x: 0, y: 60, width: 100, height: 1 }], { minPixels: Infinity }), []);
    assert.ok(m.equals(plain));
    // limit 0 changes nothing.
    const again = terrain(100, 60, mulberry32(SEED + 3)),
        copy = again.clone();
    assert.deepEqual(detachIslands(again, [], { limit: 0 }), []);
    assert.ok(again.equals(copy));
});

testKernels('detachIslands with no anchors: every 4-connected part is an island and the layer is emptied', () => {
    const rnd = mulberry32(SEED + 4);
    for (let k = 0; k < 20; k++) {
        const m = terrain(10 + Math.floor(rnd() * 100), 10 + Math.floor(rnd() * 60), rnd),
            before = bytesOf(m);
        const found = detachIslands(m, []);
        check(before, m, found, () => false, `terrain ${k}`);
        assert.equal(m.count(), 0);
    }
    // 4-connectivity: pixels meeting at a corner are two islands.
    const d = Mask.fromText('#.\n.#');
    assert.equal(detachIslands(d, []).length, 2);
});

testKernels('detachIslands work is linear in the words: maze-like and checkered terrains', () => {
    // A serpentine corridor (every turn a reversal) and a checkerboard (every pixel an island) of 256 x 128.
    const w = 256,
        h = 128;
    const maze = new Mask(w, h);
    for (let y = 0; y < h; y += 2) {
        for (let x = 0; x < w; x++) maze.set(x, y);
        maze.set((y >> 1) % 2 === 0 ? w - 1 : 0, y + 1);
    }
    const before = bytesOf(maze);
    const start = floodWork.words;
    const found = detachIslands(maze, [{ x: 0, y: 0, width: 1, height: 1 }]);
    const words = floodWork.words - start;
    check(before, maze, found, rectAnchors([{ x: 0, y: 0, width: 1, height: 1 }]), 'maze');
    assert.equal(found.length, 0);
    const planeWords = (w / 32) * h;
    assert.ok(words <= 4 * planeWords, `maze: ${words} words processed for a plane of ${planeWords}`);
    const checker = new Mask(64, 64);
    for (let y = 0; y < 64; y++) for (let x = y & 1; x < 64; x += 2) checker.set(x, y);
    const cb = bytesOf(checker);
    const found2 = detachIslands(checker, []);
    check(cb, checker, found2, () => false, 'checkerboard');
    assert.equal(found2.length, 64 * 32);
    // A tall terrain: a strip hands thousands of words to the next at once, more than the stack holds, so the
    // pending bits are scanned for them.
    const tall = terrain(96, 3000, mulberry32(SEED + 5)),
        rescans = floodWork.rescans,
        left = [{ x: -1, y: 0, width: 1, height: 3000 }];
    tall.draw(new Mask(96, 2000, true), 0, 1000);
    check(bytesOf(tall), tall, detachIslands(tall, left), rectAnchors(left), 'tall');
    assert.ok(floodWork.rescans > rescans, 'the stack overflowed and the pending bits were scanned');
});

test('detachIslands hostile input: wrong types, NaN and infinite rectangles, bad options, huge layers', () => {
    const m = Mask.fromText('##\n##');
    const raster = new CollisionRaster(8, 8, { layers: 2 });
    assert.throws(() => detachIslands({} as never, []), /layer must be a Mask, a CollisionRaster or a view/);
    assert.throws(() => detachIslands(null as never, []), TypeError);
    assert.throws(
        () => detachIslands(raster.view(), []),
        /layer must be a view of one layer \(raster.layer\(i\)\), got RasterView of layers 0b11/
    );
    assert.throws(() => detachIslands(m, [], { layer: 0 }), TypeError);
    assert.throws(() => detachIslands(raster.layer(1), [], { layer: 1 }), TypeError);
    assert.throws(() => detachIslands(raster, [], { layer: 2 }), RangeError);
    assert.throws(() => detachIslands(m, 5 as never), /anchors must be an array of rectangles/);
    assert.throws(() => detachIslands(m, {} as never), TypeError);
    assert.throws(() => detachIslands(m, [null] as never), /anchors\[0\] must be a rectangle/);
    assert.throws(() => detachIslands(m, [{ x: NaN, y: 0, width: 1, height: 1 }]), /anchors\[0\]\.x must be a finite/);
    assert.throws(() => detachIslands(m, [{ x: 0, y: 0, width: Infinity, height: 1 }]), RangeError);
    assert.throws(() => detachIslands(m, [{ x: 0, y: 0, width: -1, height: 1 }]), RangeError);
    assert.throws(() => detachIslands(m, [{ x: 0, y: '0', width: 1, height: 1 }] as never), RangeError);
    assert.throws(() => detachIslands(m, [], { minPixels: -1 }), RangeError);
    assert.throws(() => detachIslands(m, [], { minPixels: NaN }), RangeError);
    assert.throws(() => detachIslands(m, [], { limit: 1.5 }), RangeError);
    assert.throws(() => detachIslands(m, [], [] as never), TypeError);
    const disposed = new Mask(4, 4);
    disposed.dispose();
    assert.throws(() => detachIslands(disposed, []), /disposed/);
    assert.throws(() => detachIslands(m, disposed), /disposed/);
    // Nothing changed by a refused call (anchors are checked before the layer is touched).
    assert.equal(m.count(), 4);
    // Huge rectangles, far outside: they hold what they cover and cost no more than the layer.
    const big = Mask.fromText('#.#\n...\n#.#');
    assert.deepEqual(detachIslands(big, [{ x: -1e300, y: -1e300, width: 1e308, height: 1e308 }]), []);
    assert.equal(big.count(), 4);
    assert.equal(detachIslands(big, [{ x: 1e300, y: 0, width: 1, height: 1 }]).length, 4);
    // Empty layers.
    assert.deepEqual(detachIslands(new Mask(0, 5), []), []);
    assert.deepEqual(detachIslands(new Mask(5, 0), [{ x: 0, y: 0, width: 5, height: 5 }]), []);
    // A layer over limits.debrisPixels is refused before any scratch is made.
    assert.equal(limits.debrisPixels, 2 ** 28);
    const huge = new Mask(1, 2 ** 23 + 1);
    assert.throws(() => detachIslands(huge, []), /limits\.debrisPixels/);
    huge.dispose();
});
