// @test fast no-shared
// raster.raycast against a per-stamp oracle (the nearest of each stamp's own ray hit, clipped to the raster,
// with the id rule), erased terrain against the naive oracle over its pixels, RasterView, and TileMap.raycast
// against the naive oracle over testPixel; both kernel paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CollisionRaster, Mask, TileMap, type RasterRayHit, type RayHit } from '../src/index.js';
import { mulberry32, testKernels } from './reference.js';
import { fields, refCast, segments, type RefHit } from './ray-reference.js';

const SEED = 20261216;

interface Stamp {
    mask: Mask;
    x: number;
    y: number;
    id: number;
    layer: number;
}

function sprite(w: number, h: number, density: number, rnd: () => number): Mask {
    const m = new Mask(w, h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (rnd() < density) m.set(x, y);
    return m;
}

// The nearest hit over the stamps on the chosen layers, each stamp clipped to the raster; id: among the stamps
// on the hit pixel, the newest with an id in the lowest chosen layer that has one (what hits() lists first).
function perStamp(
    stamps: Stamp[],
    W: number,
    H: number,
    layers: number,
    s: number[]
): (RayHit & { id: number }) | null {
    let best: RefHit | null = null;
    for (const st of stamps) {
        if (((layers >>> st.layer) & 1) === 0) continue;
        const h = refCast(
            (i, j) => st.mask.get(i, j) && st.x + i >= 0 && st.y + j >= 0 && st.x + i < W && st.y + j < H,
            st.mask.width,
            st.mask.height,
            st.x,
            st.y,
            s[0],
            s[1],
            s[2],
            s[3]
        );
        if (h && (!best || h.t < best.t || (h.t === best.t && h.open < best.open))) best = h;
    }
    if (!best) return null;
    let id = -1;
    for (let l = 0; l < 32 && id < 0; l++) {
        if (((layers >>> l) & 1) === 0) continue;
        for (const st of stamps) {
            if (st.layer === l && st.id >= 0 && st.mask.get(best.px - st.x, best.py - st.y)) id = st.id;
        }
    }
    return { ...(fields(best) as RayHit), id };
}

testKernels('raster.raycast equals the per-stamp oracle, ids included, over any set of layers', () => {
    const rnd = mulberry32(SEED);
    const seen = { id: 0, anonymous: 0, miss: 0 };
    for (const [W, H, layerCount] of [
        [97, 61, 3],
        [160, 40, 2],
        [33, 130, 1]
    ] as const) {
        const raster = new CollisionRaster(W, H, { layers: layerCount }),
            stamps: Stamp[] = [];
        for (let k = 0; k < 40; k++) {
            const mask = sprite(1 + Math.floor(rnd() * 24), 1 + Math.floor(rnd() * 20), 0.3, rnd);
            const st = {
                mask,
                x: Math.floor(rnd() * (W + 20)) - 10,
                y: Math.floor(rnd() * (H + 20)) - 10,
                id: rnd() < 0.3 ? -1 : k * 7,
                layer: Math.floor(rnd() * layerCount)
            };
            raster.stamp(mask, st.x, st.y, { id: st.id, layer: st.layer });
            stamps.push(st);
        }
        const inside: [number, number][] = [];
        for (let y = 0; y < H; y++)
            for (let x = 0; x < W; x++) if (raster.hitTest(x, y) && rnd() < 0.05) inside.push([x, y]);
        for (let layers = 1; layers <= raster.allLayers; layers++) {
            for (const s of segments(rnd, W, H, 0, 0, 120, inside)) {
                const want = perStamp(stamps, W, H, layers, s);
                const got = raster.raycast(s[0], s[1], s[2], s[3], { layers });
                assert.deepEqual(got, want, `${W}x${H} layers ${layers}: ${s.join(', ')}`);
                if (!want) seen.miss++;
                else if (want.id >= 0) seen.id++;
                else seen.anonymous++;
                const view = raster.view(layers).raycast(s[0], s[1], s[2], s[3]);
                assert.deepEqual(view, want);
            }
        }
    }
    assert.ok(seen.id > 100 && seen.anonymous > 20 && seen.miss > 100, JSON.stringify(seen));
});

testKernels('raster.raycast after erases and clears: the naive oracle over the remaining pixels', () => {
    const rnd = mulberry32(SEED + 1);
    const W = 120,
        H = 90,
        raster = new CollisionRaster(W, H, { layers: 2 });
    const ground = new Mask(W, 30, true),
        crater = sprite(15, 15, 0.8, rnd);
    raster.stamp(ground, 0, 60);
    for (let k = 0; k < 25; k++) raster.erase(crater, rnd() * W - 7, 50 + rnd() * 40);
    for (let k = 0; k < 30; k++) raster.stampPixel(rnd() * W, rnd() * 60, { id: k, layer: 1 });
    raster.clear(1);
    for (let k = 0; k < 30; k++) raster.stampPixel(rnd() * W, rnd() * 60, { id: 100 + k, layer: 1 });
    const out: RasterRayHit = { px: 0, py: 0, x: 0, y: 0, distance: 0, nx: 0, ny: 0, id: 0 };
    for (const s of segments(rnd, W, H, 0, 0, 600)) {
        const want = fields(refCast((i, j) => raster.hitTest(i, j), W, H, 0, 0, s[0], s[1], s[2], s[3]));
        assert.equal(raster.raycast(s[0], s[1], s[2], s[3], undefined, out) !== null, want !== null);
        if (!want) continue;
        assert.deepEqual(fields(out), want, s.join(', '));
        // Terrain has no ids; bullets on layer 1 have the id of the stamp after the clear.
        assert.equal(
            out.id,
            raster.hitTest(out.px, out.py, { layers: 1 << 0 })
                ? -1
                : raster.queryMask(new Mask(1, 1, true), out.px, out.py, { layers: 1 << 1 })[0]
        );
        assert.ok(out.id === -1 || out.id >= 100);
    }
});

test('raster.raycast: errors name the value', () => {
    const raster = new CollisionRaster(10, 10, { layers: 2 });
    assert.throws(() => raster.raycast(NaN, 0, 1, 1), {
        name: 'RangeError',
        message: 'x0 must be a finite number, got NaN.'
    });
    assert.throws(() => raster.raycast(0, 0, 1, 1, { layers: 4 }), {
        name: 'RangeError',
        message: /layers must be a non-empty set of layer bits .* got 4/
    });
    assert.throws(() => raster.raycast(0, 0, 1, 1, { layers: 0 }), RangeError);
    assert.throws(() => raster.raycast(0, 0, 1, 1, undefined, 7 as unknown as RasterRayHit), {
        name: 'TypeError',
        message: /out must be a RasterRayHit object, got 7/
    });
    assert.equal(new CollisionRaster(0, 5).raycast(0, 0, 3, 3), null);
});

testKernels('TileMap.raycast equals the naive oracle over its pixels, tile by tile and from far away', () => {
    const rnd = mulberry32(SEED + 2);
    for (const [tw, th, cols, rows] of [
        [16, 16, 9, 7],
        [5, 11, 20, 6],
        [40, 3, 3, 30]
    ] as const) {
        const tiles = [sprite(tw, th, 0.05, rnd), new Mask(tw, th, true), null, sprite(tw, th, 0.5, rnd)];
        const cells = Array.from({ length: cols * rows }, () => (rnd() < 0.5 ? -1 : Math.floor(rnd() * tiles.length)));
        const map = new TileMap(tw, th, cols, rows, tiles, cells),
            W = cols * tw,
            H = rows * th;
        const inside: [number, number][] = [];
        for (let y = 0; y < H; y++)
            for (let x = 0; x < W; x++) if (map.hitTest(x, y) && rnd() < 0.02) inside.push([x, y]);
        const out: RayHit = { px: 0, py: 0, x: 0, y: 0, distance: 0, nx: 0, ny: 0 };
        for (const s of segments(rnd, W, H, 0, 0, 400, inside)) {
            const want = fields(refCast((i, j) => map.hitTest(i, j), W, H, 0, 0, s[0], s[1], s[2], s[3]));
            assert.deepEqual(fields(map.raycast(s[0], s[1], s[2], s[3])), want, `${tw}x${th} tiles: ${s.join(', ')}`);
            assert.equal(map.raycast(s[0], s[1], s[2], s[3], out) !== null, want !== null);
        }
        // From far away along a row: the first solid pixel of that row.
        for (let k = 0; k < 20; k++) {
            const y = Math.floor(rnd() * H) + 0.5,
                got = map.raycast(-1e300, y, 1e300, y);
            let x = 0;
            while (x < W && !map.hitTest(x, y)) x++;
            assert.deepEqual(got && [got.px, got.py, got.x, got.nx], x < W ? [x, Math.floor(y), x, -1] : null);
        }
        map.setTile(0, 0, 1);
        assert.deepEqual(
            fields(map.raycast(-3, 0.5, 5, 0.5)),
            { px: 0, py: 0, x: 0, y: 0.5, distance: 3, nx: -1, ny: 0 },
            'setTile is seen at once'
        );
    }
    assert.equal(new TileMap(8, 8, 0, 4, []).raycast(-1, -1, 10, 10), null);
    assert.throws(() => new TileMap(8, 8, 2, 2, []).raycast(0, 0, Infinity, 0), {
        name: 'RangeError',
        message: 'x1 must be a finite number, got Infinity.'
    });
});
