// Transformed masks: exact quarter turns and flips, nearest-neighbour rotation against an independent
// per-pixel rasteriser, cache quantisation, and the world's pixel-exact use of the cached masks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Mask } from '../src/index.js';
import { transformMask, TransformCache } from '../src/index.js';
import { World } from '../src/index.js';
import { mulberry32 } from './reference.js';
import { convolve, crop, flipX, flipY, rotate90, scale, trim } from '../src/index.js';

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
            const r = transformMask(m, { angle: t * Math.PI / 2 });
            assert.ok(r.mask.equals(t % 4 === 0 ? m : rotate90(m, t)), `turn ${t}`);
            const odd = ((t % 2) + 2) % 2 === 1;
            assert.deepEqual([r.x, r.y], odd ? [Math.floor((m.width - m.height) / 2), Math.floor((m.height - m.width) / 2)] : [0, 0]);
        }
        assert.ok(transformMask(m, { flipX: true }).mask.equals(flipX(m)));
        assert.ok(transformMask(m, { flipY: true }).mask.equals(flipY(m)));
        assert.ok(transformMask(m, { angle: Math.PI, flipX: true, flipY: true }).mask.equals(m));
        assert.ok(transformMask(m).mask.equals(m) && transformMask(m, {}).mask.equals(m));
    }
});

test('arbitrary angles and scales match an independent per-pixel nearest-neighbour rasteriser', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), seed => {
        const rnd = mulberry32(seed);
        const m = randomMask(rnd, 1 + Math.floor(rnd() * 30), 1 + Math.floor(rnd() * 30));
        const angle = (rnd() - 0.5) * 10, sx = 0.5 + rnd() * 2, sy = 0.5 + rnd() * 2, fx = rnd() < 0.5, fy = rnd() < 0.5;
        const r = transformMask(m, { angle, scaleX: sx, scaleY: sy, flipX: fx, flipY: fy });
        // Oracle: every world pixel (relative to the body's floored position) near the sprite, sampled at its centre.
        const cx = m.width / 2, cy = m.height / 2, cos = Math.cos(angle), sin = Math.sin(angle);
        const reach = Math.ceil(Math.hypot(m.width * sx, m.height * sy)) + 2;
        for (let y = -reach; y < m.height + reach; y++) {
            for (let x = -reach; x < m.width + reach; x++) {
                const qx = x + 0.5 - cx, qy = y + 0.5 - cy;
                let u = (cos * qx + sin * qy) / sx, v = (-sin * qx + cos * qy) / sy;
                if (fx) u = -u;
                if (fy) v = -v;
                const px = cx + u, py = cy + v;
                // Skip samples within 1e-6 of a source pixel edge, where float rounding may go either way.
                const nearEdge = Math.abs(px - Math.round(px)) < 1e-6 || Math.abs(py - Math.round(py)) < 1e-6;
                if (nearEdge) continue;
                const want = px >= 0 && py >= 0 && px < m.width && py < m.height && m.get(px, py);
                assert.equal(r.mask.get(x - r.x, y - r.y), want, `pixel (${x}, ${y})`);
            }
        }
    }), { seed: 5, numRuns: 40 });
});

test('the cache quantises angles to steps, reuses masks and passes the identity through', () => {
    const m = Mask.fromText('####\n#...\n#...');
    const cache = new TransformCache(64);
    assert.equal(cache.get(m, 0, 1, 1, false, false).mask, m);
    assert.equal(cache.get(m, 2 * Math.PI, 1, 1, false, false).mask, m);
    const step = 2 * Math.PI / 64;
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
        bodies.push(world.add({
            x: rnd() * 120, y: rnd() * 120, mask: masks[i % 3], angle: rnd() * 7, scaleX: 0.5 + rnd() * 1.5,
            scaleY: 0.5 + rnd() * 1.5, flipX: rnd() < 0.5, flipY: rnd() < 0.5, data: i
        }));
    }
    const got = world.collisions().map(p => `${p.a.id}-${p.b.id}`);
    const exp: string[] = [];
    for (let i = 0; i < bodies.length; i++) {
        for (let j = i + 1; j < bodies.length; j++) {
            const p = world.placedMask(bodies[i]), q = world.placedMask(bodies[j]);
            let hit = false;
            for (let y = 0; y < p.mask.height && !hit; y++) {
                for (let x = 0; x < p.mask.width && !hit; x++) hit = p.mask.get(x, y) && q.mask.get(p.x + x - q.x, p.y + y - q.y);
            }
            if (hit) exp.push(`${bodies[i].id}-${bodies[j].id}`);
        }
    }
    assert.ok(exp.length > 0);
    assert.deepEqual(got, exp);
    // The placed mask is the cached rasterisation at the quantised angle, offset from the floored position.
    const b = bodies[0], t = world.getTransform(b), pm = world.placedMask(b);
    const ref = transformMask(b.mask as Mask, { ...t, angle: new TransformCache(32).quantise(t.angle) });
    assert.ok(pm.mask.equals(ref.mask));
    assert.deepEqual([pm.x, pm.y], [Math.floor(b.x) + ref.x, Math.floor(b.y) + ref.y]);
});

test('bad transform parameters throw', () => {
    const m = new Mask(2, 2);
    assert.throws(() => transformMask({} as Mask), /mask must be a Mask/);
    assert.throws(() => transformMask(m, { angle: Infinity }), /angle must be a finite number of radians/);
    assert.throws(() => transformMask(m, { scaleX: -1 }), /scaleX must be a finite number > 0, got -1; use flipX\/flipY to mirror/);
    assert.throws(() => transformMask(m, { scaleY: NaN }), /scaleY must be a finite number > 0/);
    assert.throws(() => transformMask(m, { flipX: 1 as never }), TypeError);
    assert.throws(() => transformMask(m, { flipY: 'yes' as never }), /flipY must be true or false, got "yes"/);
    // The positional form of 0.x: refused with what is expected.
    assert.throws(() => transformMask(m, Math.PI as never), /transform must be an object like \{ angle, scaleX, scaleY, flipX, flipY \}, got 3\.14/);
    assert.throws(() => transformMask(m, null as never), TypeError);
    assert.deepEqual(transformMask(new Mask(0, 3), { angle: 1 }).mask.width, 0);
});

test('a disposed mask: the same Error from every transform function', () => {
    const m = Mask.fromText('##\n#.');
    m.dispose();
    const disposed = { name: 'Error', message: 'mask (<Mask 2x2>) was disposed; create a new Mask (or stop calling dispose() on masks still in use).' };
    assert.throws(() => transformMask(m), disposed);
    assert.throws(() => transformMask(m, { angle: 0.3 }), disposed);
    assert.throws(() => new TransformCache(16).get(m, 1, 1, 1, false, false), disposed);
    for (const fn of [flipX, flipY, rotate90, trim, (x: Mask) => scale(x, 3, 3), (x: Mask) => crop(x, 0, 0, 1, 1)]) {
        assert.throws(() => fn(m), disposed, fn.name);
    }
    assert.throws(() => convolve(m, new Mask(1, 1)), { name: 'Error', message: /^a \(<Mask 2x2>\) was disposed/ });
    assert.throws(() => convolve(new Mask(1, 1), m), { name: 'Error', message: /^b \(<Mask 2x2>\) was disposed/ });
});
