// @test fast no-shared
// Transformed masks: exact quarter turns and flips, nearest-neighbour rotation against an independent
// per-pixel rasteriser, cache quantisation, and the world's pixel-exact use of the cached masks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { kernelStats, limits, Mask } from '../src/index.js';
import { overlaps as pixiOverlaps, placeSprite } from '../src/pixi.js';
import { transformMask, TransformCache } from '../src/index.js';
import { World } from '../src/index.js';
import { mulberry32 } from './reference.js';
import { convolve, crop, flipX, flipY, rotate90, scale, trim } from '../src/index.js';
import { readImage } from '../src/node.js';
import { crc32 } from '../src/base/crc32.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

function randomMask(rnd: () => number, w: number, h: number): Mask {
    const m = new Mask(w, h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (rnd() < 0.5) m.set(x, y);
    return m;
}

test('quarter turns and flips are exact and match rotate90/flipX/flipY', () => {
    const rnd = mulberry32(3);
    for (let k = 0; k < 20; k++) {
        const m = randomMask(rnd, 1 + Math.floor(rnd() * 40), 1 + Math.floor(rnd() * 40));
        for (let t = -4; t <= 4; t++) {
            const r = transformMask(m, { angle: (t * Math.PI) / 2 });
            assert.ok(r.mask.equals(t % 4 === 0 ? m : rotate90(m, t)), `turn ${t}`);
            const odd = ((t % 2) + 2) % 2 === 1;
            assert.deepEqual(
                [r.x, r.y],
                odd ? [Math.floor((m.width - m.height) / 2), Math.floor((m.height - m.width) / 2)] : [0, 0]
            );
        }
        assert.ok(transformMask(m, { flipX: true }).mask.equals(flipX(m)));
        assert.ok(transformMask(m, { flipY: true }).mask.equals(flipY(m)));
        assert.ok(transformMask(m, { angle: Math.PI, flipX: true, flipY: true }).mask.equals(m));
        assert.ok(transformMask(m).mask.equals(m) && transformMask(m, {}).mask.equals(m));
    }
});

test('arbitrary angles and scales match an independent per-pixel nearest-neighbour rasteriser', () => {
    fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), seed => {
            const rnd = mulberry32(seed);
            const m = randomMask(rnd, 1 + Math.floor(rnd() * 30), 1 + Math.floor(rnd() * 30));
            const angle = (rnd() - 0.5) * 10,
                sx = 0.5 + rnd() * 2,
                sy = 0.5 + rnd() * 2,
                fx = rnd() < 0.5,
                fy = rnd() < 0.5;
            const r = transformMask(m, { angle, scaleX: sx, scaleY: sy, flipX: fx, flipY: fy });
            // Oracle: every world pixel (relative to the body's floored position) near the sprite, sampled at its centre.
            const cx = m.width / 2,
                cy = m.height / 2,
                cos = Math.cos(angle),
                sin = Math.sin(angle);
            const reach = Math.ceil(Math.hypot(m.width * sx, m.height * sy)) + 2;
            for (let y = -reach; y < m.height + reach; y++) {
                for (let x = -reach; x < m.width + reach; x++) {
                    const qx = x + 0.5 - cx,
                        qy = y + 0.5 - cy;
                    let u = (cos * qx + sin * qy) / sx,
                        v = (-sin * qx + cos * qy) / sy;
                    if (fx) u = -u;
                    if (fy) v = -v;
                    const px = cx + u,
                        py = cy + v;
                    // Skip samples within 1e-6 of a source pixel edge, where float rounding may go either way.
                    const nearEdge = Math.abs(px - Math.round(px)) < 1e-6 || Math.abs(py - Math.round(py)) < 1e-6;
                    if (nearEdge) continue;
                    const want = px >= 0 && py >= 0 && px < m.width && py < m.height && m.get(px, py);
                    assert.equal(r.mask.get(x - r.x, y - r.y), want, `pixel (${x}, ${y})`);
                }
            }
        }),
        { seed: 5, numRuns: 40 }
    );
});

test('the cache quantises angles to steps, reuses masks and passes the identity through', () => {
    const m = Mask.fromText('####\n#...\n#...');
    const cache = new TransformCache(64);
    assert.equal(cache.get(m, 0, 1, 1, false, false).mask, m);
    assert.equal(cache.get(m, 2 * Math.PI, 1, 1, false, false).mask, m);
    const step = (2 * Math.PI) / 64;
    const a = cache.get(m, 5 * step + 0.4 * step, 1, 1, false, false);
    assert.equal(cache.get(m, 5 * step - 0.4 * step, 1, 1, false, false), a);
    const t = transformMask(m, { angle: 5 * step });
    assert.ok(a.mask.equals(t.mask) && a.x === t.x && a.y === t.y);
    assert.equal(cache.quantise(5.3 * step), 5 * step);
    assert.ok(cache.get(m, 16 * step, 1, 1, false, false).mask.equals(rotate90(m, 1)));
    cache.clear();
    assert.notEqual(cache.get(m, 5 * step, 1, 1, false, false), a);
    assert.throws(() => new TransformCache(3), /angleSteps must be an integer in 4..65536/);
});

test('rotated, scaled and flipped bodies collide pixel-exactly against their cached masks', () => {
    const rnd = mulberry32(8);
    const world = new World<number>({ angleSteps: 32 });
    const masks = [randomMask(rnd, 12, 5), randomMask(rnd, 7, 9), new Mask(15, 2, true)];
    const bodies = [];
    for (let i = 0; i < 80; i++) {
        bodies.push(
            world.add({
                x: rnd() * 120,
                y: rnd() * 120,
                mask: masks[i % 3],
                angle: rnd() * 7,
                scaleX: 0.5 + rnd() * 1.5,
                scaleY: 0.5 + rnd() * 1.5,
                flipX: rnd() < 0.5,
                flipY: rnd() < 0.5,
                data: i
            })
        );
    }
    const got = world.collisions().map(p => `${p.a.id}-${p.b.id}`);
    const exp: string[] = [];
    for (let i = 0; i < bodies.length; i++) {
        for (let j = i + 1; j < bodies.length; j++) {
            const p = world.placedMask(bodies[i]),
                q = world.placedMask(bodies[j]);
            let hit = false;
            for (let y = 0; y < p.mask.height && !hit; y++) {
                for (let x = 0; x < p.mask.width && !hit; x++)
                    hit = p.mask.get(x, y) && q.mask.get(p.x + x - q.x, p.y + y - q.y);
            }
            if (hit) exp.push(`${bodies[i].id}-${bodies[j].id}`);
        }
    }
    assert.ok(exp.length > 0);
    assert.deepEqual(got, exp);
    // The placed mask is the cached rasterisation at the quantised angle, offset from the floored position.
    const b = bodies[0],
        t = world.getTransform(b),
        pm = world.placedMask(b);
    const ref = transformMask(b.mask as Mask, { ...t, angle: new TransformCache(32).quantise(t.angle) });
    assert.ok(pm.mask.equals(ref.mask));
    assert.deepEqual([pm.x, pm.y], [Math.floor(b.x) + ref.x, Math.floor(b.y) + ref.y]);
});

test('bad transform parameters throw', () => {
    const m = new Mask(2, 2);
    assert.throws(() => transformMask({} as Mask), /mask must be a Mask/);
    assert.throws(() => transformMask(m, { angle: Infinity }), /angle must be a finite number of radians/);
    assert.throws(
        () => transformMask(m, { scaleX: -1 }),
        /scaleX must be a finite number > 0, got -1; use flipX\/flipY to mirror/
    );
    assert.throws(() => transformMask(m, { scaleY: NaN }), /scaleY must be a finite number > 0/);
    assert.throws(() => transformMask(m, { flipX: 1 as never }), TypeError);
    assert.throws(() => transformMask(m, { flipY: 'yes' as never }), /flipY must be true or false, got "yes"/);
    // The positional form of 0.x: refused with what is expected.
    assert.throws(
        () => transformMask(m, Math.PI as never),
        /transform must be an object like \{ angle, scaleX, scaleY, flipX, flipY \}, got 3\.14/
    );
    assert.throws(() => transformMask(m, null as never), TypeError);
    assert.deepEqual(transformMask(new Mask(0, 3), { angle: 1 }).mask.width, 0);
});

test('a disposed mask: the same Error from every transform function', () => {
    const m = Mask.fromText('##\n#.');
    m.dispose();
    const disposed = {
        name: 'Error',
        message: 'mask (<Mask 2x2>) was disposed; create a new Mask (or stop calling dispose() on masks still in use).'
    };
    assert.throws(() => transformMask(m), disposed);
    assert.throws(() => transformMask(m, { angle: 0.3 }), disposed);
    assert.throws(() => new TransformCache(16).get(m, 1, 1, 1, false, false), disposed);
    for (const fn of [flipX, flipY, rotate90, trim, (x: Mask) => scale(x, 3, 3), (x: Mask) => crop(x, 0, 0, 1, 1)]) {
        assert.throws(() => fn(m), disposed, fn.name);
    }
    assert.throws(() => convolve(m, new Mask(1, 1)), { name: 'Error', message: /^a \(<Mask 2x2>\) was disposed/ });
    assert.throws(() => convolve(new Mask(1, 1), m), { name: 'Error', message: /^b \(<Mask 2x2>\) was disposed/ });
});

// Rotated masks of fixtures, recorded: the rotation's sine and cosine come from src/base/trig.ts, not from the
// engine's Math, so every engine must produce these pixels. Each answer: offset, size and CRC-32 of toText().
const GOLDEN: Record<string, string[]> = {
    heart: [
        '0,1 8x7 39d312bf',
        '0,0 8x8 a681e941',
        '0,0 8x8 7f18ef7b',
        '0,0 8x8 9928a1ec',
        '1,1 7x7 fdb0f70e',
        '0,0 8x8 319d7c75',
        '0,1 8x7 3a9758b8',
        '-1,-1 10x9 9ccfe94e',
        '0,1 8x6 afc6cd0e',
        '0,0 8x8 a3af35a7',
        '-4,-2 16x14 81139b6'
    ],
    arrow: [
        '0,1 8x5 22e20ab5',
        '0,1 8x4 b2b768bd',
        '1,0 6x7 8ae59efa',
        '2,1 5x7 9d6a6877',
        '1,1 6x6 fd8453ae',
        '1,1 6x7 679a6ade',
        '0,1 8x5 951ac5ec',
        '0,0 9x8 d380042f',
        '3,1 5x5 96a22957',
        '1,2 7x4 43c6535f',
        '-4,-2 16x10 80c28f6a'
    ],
    chimp: [
        '-1,-1 63x91 408922f9',
        '-12,-7 85x103 ea0d8f76',
        '-23,-7 107x103 de48d32b',
        '-23,-4 107x97 9a8f5f88',
        '-21,-9 103x107 4c86a8d8',
        '-23,-4 107x97 c4bee61a',
        '-6,-4 73x97 378ba194',
        '-26,-10 113x109 e23b8312',
        '-27,-4 115x97 70694c55',
        '-16,-9 93x107 3c2eed33',
        '-35,-47 131x183 6679c7f4'
    ],
    alien1: [
        '0,0 79x68 7ab50adb',
        '-1,0 78x72 40d08d19',
        '4,3 66x70 5a3031be',
        '3,-4 70x73 aa37b981',
        '2,0 70x65 104e75ec',
        '8,-3 65x72 f1f42217',
        '1,0 78x66 2d7af750',
        '-9,-2 94x82 213cfc8',
        '0,7 79x59 b852d31e',
        '1,3 75x66 7b6f49fc',
        '-40,-36 158x135 3d6e3b06'
    ]
};

test('rotated fixtures give the recorded pixels (no engine-dependent math)', async () => {
    const fx = JSON.parse(readFileSync(new URL('./fixtures/heart-arrow.json', import.meta.url), 'utf8'));
    const sprite = async (name: string): Promise<Mask> => {
        const img = await readImage(fileURLToPath(new URL(`./fixtures/sprites/${name}.png`, import.meta.url)));
        return Mask.fromRGBA(img.data, img.width, img.height);
    };
    const masks: Record<string, Mask> = {
        heart: Mask.fromText(fx.heart.join('\n')),
        arrow: Mask.fromText(fx.arrow.join('\n')),
        chimp: await sprite('chimp'),
        alien1: await sprite('alien1')
    };
    const cache = new TransformCache(256);
    const got: Record<string, string[]> = {};
    for (const [name, m] of Object.entries(masks)) {
        // World angles (step 86 is one where V8's Math.cos is 1 ulp off), then scale, flips and far-off angles.
        const placed = [1, 13, 37, 86, 100, 171, 250].map(step =>
            cache.get(m, (step * 2 * Math.PI) / 256, 1, 1, false, false)
        );
        placed.push(
            transformMask(m, { angle: 0.7, scaleX: 1.5, scaleY: 0.75, flipX: true }),
            transformMask(m, { angle: -2.2, scaleX: 0.6, scaleY: 1.3, flipY: true }),
            transformMask(m, { angle: 1e7 }),
            transformMask(m, { angle: -3e15, scaleX: 2, scaleY: 2 })
        );
        got[name] = placed.map(
            p =>
                `${p.x},${p.y} ${p.mask.width}x${p.mask.height} ${crc32(new TextEncoder().encode(p.mask.toText())).toString(16)}`
        );
    }
    assert.deepEqual(got, GOLDEN);
});

test('TransformCache.forget drops the transforms of a mask, made anew from its pixels now; a non-mask is a TypeError', () => {
    const cache = new TransformCache(),
        m = new Mask(6, 6, true);
    const before = cache.get(m, Math.PI / 3, 1, 1, false, false);
    assert.equal(cache.get(m, Math.PI / 3, 1, 1, false, false), before, 'cached');
    m.clear().set(0, 0);
    assert.equal(cache.get(m, Math.PI / 3, 1, 1, false, false), before, 'still the old copy until forget()');
    cache.forget(m);
    const after = cache.get(m, Math.PI / 3, 1, 1, false, false);
    assert.equal(after.mask.count(), transformMask(m, { angle: Math.PI / 3 }).mask.count());
    assert.ok(after.mask.count() < before.mask.count());
    assert.throws(() => cache.forget(null as never), /^TypeError: mask must be a Mask/);
});

test('transforms past limits.transformPixels are refused before any work: transformMask, World, sprites', () => {
    const sprite = new Mask(128, 128, true);
    const stats = () => ({ masks: kernelStats().wasmMasks + kernelStats().jsMasks, used: kernelStats().usedBytes });
    const before = stats();
    const refused = (e: Error) =>
        e instanceof RangeError &&
        e.message.startsWith('transformMask(): 128x128 scaled by 1000 x 1000 is ') &&
        e.message.includes(
            `128000x128000 = 16384000000 pixels, over the ${limits.transformPixels} allowed (limits.transformPixels)`
        );
    assert.throws(() => transformMask(sprite, { scaleX: 1000, scaleY: 1000 }), refused);
    assert.throws(() => new TransformCache().get(sprite, 0, 1000, 1000, false, false), refused);
    assert.deepEqual(stats(), before, 'no mask was made, no memory taken');
    // A thin mask turned by 45°: its box, not its scaled size, is what would be computed.
    assert.throws(() => transformMask(new Mask(16384, 1, true), { angle: Math.PI / 4 }), /11586x11587 = /);
    // At the limit: 8192 x 8192 before trimming.
    assert.equal(transformMask(new Mask(64, 64, true), { scaleX: 128, scaleY: 128 }).mask.width, 8192);

    const world = new World();
    const a = world.add({ x: 0, y: 0, mask: new Mask(16, 16, true), scaleX: 2, scaleY: 2 });
    assert.throws(() => world.add({ x: 0, y: 0, mask: sprite, scaleX: 1000, scaleY: 1000 }), refused);
    assert.equal(world.size, 1, 'no body was added');
    assert.equal(world.add({ x: 0, y: 0, mask: sprite }).id, a.id + 1, 'no id was taken');
    assert.throws(() => world.setTransform(a, { scaleX: 1000, scaleY: 1000 }), /16x16 scaled by 1000 x 1000/);
    assert.deepEqual(world.getTransform(a), { angle: 0, scaleX: 2, scaleY: 2, flipX: false, flipY: false });
    world.setTransform(a, { scaleX: 100, scaleY: 100 });
    assert.throws(() => world.setMask(a, new Mask(1000, 1000)), /1000x1000 scaled by 100 x 100/);
    assert.equal(world.placedMask(a).mask.width, 1600, 'the body keeps its mask');
    assert.equal(world.step(), 1);

    const pose = { x: 0, y: 0, originX: 0, originY: 0, scaleX: 300, scaleY: 300, angle: 0 };
    assert.throws(() => placeSprite(sprite, pose), /38400x38400 = 1474560000 pixels, over the 67108864/);
    const posed = { mask: sprite, pose };
    assert.throws(() => pixiOverlaps(posed, { mask: sprite, pose: { ...pose, scaleX: 1, scaleY: 1 } }), RangeError);
});

test('TransformCache keeps at most maxBytes of masks, least recently used dropped first', () => {
    const sprite = new Mask(128, 128, true);
    assert.equal(new TransformCache().maxBytes, limits.transformCacheBytes);
    const cache = new TransformCache(256, { maxBytes: 2 ** 20 });
    // A zoom tween through 1,001 scales (1..2): about 9 MB of masks, of which 1 MiB is kept.
    let made = 0;
    const seen = new Set<Mask>();
    for (let i = 0; i <= 1000; i++) {
        const p = cache.get(sprite, 0, 1 + i / 1000, 1 + i / 1000, false, false);
        if (!seen.has(p.mask)) made++;
        seen.add(p.mask);
        assert.ok(cache.bytes <= cache.maxBytes, `${cache.bytes} bytes held after scale ${1 + i / 1000}`);
    }
    assert.equal(made, 1001);
    const last = cache.get(sprite, 0, 2, 2, false, false);
    assert.ok(seen.has(last.mask), 'the most recent entry is kept');
    const first = cache.get(sprite, 0, 1, 1.001, false, false);
    assert.ok(!seen.has(first.mask), 'the oldest was dropped and is made anew');
    assert.ok(first.mask.equals(transformMask(sprite, { scaleX: 1, scaleY: 1.001 }).mask));
    // Used again, an entry moves to the back of the queue.
    const keep = cache.get(sprite, 0, 1.5, 1.5, false, false);
    for (let i = 0; i < 200; i++) {
        cache.get(sprite, 0, 1, 1 + i / 1000, false, false);
        cache.get(sprite, 0, 1.5, 1.5, false, false);
    }
    assert.equal(cache.get(sprite, 0, 1.5, 1.5, false, false), keep);
    cache.forget(sprite);
    assert.equal(cache.bytes, 0);
    cache.get(sprite, 0.5, 1, 1, false, false);
    assert.ok(cache.bytes > 0);
    cache.clear();
    assert.equal(cache.bytes, 0);
    // One entry larger than the budget is still returned (and held until the next).
    const tiny = new TransformCache(256, { maxBytes: 0 });
    assert.equal(tiny.get(sprite, 0.5, 1, 1, false, false).mask.count() > 0, true);
    assert.throws(() => new TransformCache(256, { maxBytes: -1 }), /maxBytes must be an integer in 0\.\./);
});

test('transformMask always returns a new mask, and leaves no other mask alive', () => {
    const live = () => kernelStats().wasmMasks + kernelStats().jsMasks;
    const m = Mask.fromText('##.\n#..');
    for (const t of [{}, { angle: 2 * Math.PI }, { scaleX: 1, angle: -4 * Math.PI }]) {
        const r = transformMask(m, t);
        assert.notEqual(r.mask, m, JSON.stringify(t));
        assert.ok(r.mask.equals(m));
        r.mask.dispose();
        assert.equal(m.count(), 3, 'disposing the result leaves the input alive');
    }
    // Each path makes exactly one mask, the result: the untrimmed raster, flips and half turns are disposed.
    for (const t of [
        { angle: 0.3 },
        { angle: 0.3, scaleX: 2, flipX: true, flipY: true },
        { flipX: true, flipY: true },
        { angle: Math.PI, flipX: true },
        { angle: Math.PI / 2, flipX: true, flipY: true },
        {}
    ]) {
        const before = live();
        const r = transformMask(m, t);
        assert.equal(live(), before + 1, JSON.stringify(t));
        r.mask.dispose();
        assert.equal(live(), before, JSON.stringify(t));
    }
    const before = live();
    rotate90(m, 2).dispose();
    assert.equal(live(), before);
});
