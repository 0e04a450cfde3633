// @test fast no-shared
// CollisionRaster snapshot, restore and hash on seeded random scenes, on both kernel paths: a raster restored to a
// snapshot answers every query as the original did there and replays the same later calls to the same answers and
// hashes; the hash is the snapshot's checksum and the same on both kernel paths (and pinned); bad bytes are refused
// with an Error that names the problem and leave the raster unchanged; snapshot(out) allocates nothing. Deltas
// (snapshotChanges): rings of keyframes and deltas against full copies, refusals, and the bytes a frame copies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CollisionRaster, Mask, TileMap } from '../src/index.js';
import { hashBytes } from '../src/base/snapshot-bytes.js'; // internal: the hash the snapshot ends with
import { restoreWork } from '../src/raster/raster-snapshot.js'; // internal: plane words restore wrote
import { TILE_ROWS } from '../src/raster/changes.js'; // internal: rows of a tracked tile
import { KERNELS, mulberry32, testKernels, withKernels } from './reference.js';
import { allocations, cost, costText } from './work.js';

const SEED = 20261126;
const W = 83,
    H = 47,
    LAYERS = 3;

function sprite(w: number, h: number, density: number, seed: number): Mask {
    const rnd = mulberry32(seed),
        m = new Mask(w, h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (rnd() < density) m.set(x, y);
    return m;
}
const SPRITES = [
    sprite(9, 18, 0.8, 1),
    sprite(37, 5, 0.6, 2),
    sprite(1, 1, 1, 3),
    sprite(33, 33, 0.3, 4),
    new Mask(64, 40, true)
];

// One call on the raster, as data, so a run can be replayed.
type Op = (r: CollisionRaster) => void;

function randomOps(seed: number, n: number): Op[] {
    const rnd = mulberry32(seed),
        int = (a: number, b: number) => a + Math.floor(rnd() * (b - a + 1));
    const ops: Op[] = [];
    for (let i = 0; i < n; i++) {
        const m = SPRITES[int(0, SPRITES.length - 1)],
            x = int(-40, W),
            y = int(-40, H),
            layer = int(0, LAYERS - 1);
        const id = rnd() < 0.7 ? int(0, 2 ** 31 - 1) : int(0, 5),
            k = rnd();
        const maybe = rnd() < 0.2 ? -1 : id;
        if (k < 0.3) ops.push(r => r.stamp(m, x, y, { id: maybe, layer }));
        else if (k < 0.45) {
            const c = int(1, 12),
                xs = Array.from({ length: c }, () => int(-10, W)),
                ys = Array.from({ length: c }, () => int(-10, H));
            const ids = Array.from({ length: c }, () => int(-1, 9));
            ops.push(
                rnd() < 0.8 ? r => r.stampMany(m, xs, ys, { ids, layer }) : r => r.stampMany(m, xs, ys, { layer })
            );
        } else if (k < 0.55) {
            const c = int(1, 30),
                xs = Array.from({ length: c }, () => int(-2, W)),
                ys = Array.from({ length: c }, () => int(-2, H));
            const ids = Array.from({ length: c }, () => int(-1, 3));
            ops.push(r => r.stampPoints(xs, ys, { ids, layer }));
        } else if (k < 0.62) ops.push(r => r.stampPixel(x, y, { id, layer }));
        else if (k < 0.77) ops.push(r => r.erase(m, x, y, { layer }));
        else if (k < 0.84) {
            const ex = int(0, W - 1),
                ey = int(0, H - 1);
            ops.push(r => r.erasePixel(ex, ey, { layer }));
        } else if (k < 0.93) ops.push(r => r.clear(layer));
        else if (k < 0.96) ops.push(r => r.clear());
        else ops.push(r => r.stamp(m, x, y, { layer })); // anonymous stamps over ids
    }
    return ops;
}

// Every query's answer for a fixed set of probes, as one string to compare.
function answers(r: CollisionRaster, seed: number): string {
    const rnd = mulberry32(seed),
        out: unknown[] = [];
    for (let i = 0; i < 12; i++) {
        const m = SPRITES[i % SPRITES.length],
            x = Math.floor(rnd() * (W + 40)) - 30,
            y = Math.floor(rnd() * (H + 40)) - 30;
        const layers = 1 + Math.floor(rnd() * ((1 << LAYERS) - 1));
        out.push(
            r.overlaps(m, x, y, { layers }),
            r.overlapArea(m, x, y, { layers }),
            r.overlap(m, x, y, { layers }),
            r.queryMask(m, x, y, { layers }),
            r.hitTest(x + 5, y + 5, { layers }),
            r.raycast(x, y, W - x, H - y - 1, { layers }),
            r.view(layers).bounds()
        );
    }
    for (let l = 0; l < LAYERS; l++) out.push(r.plane(l).count(), r.layer(l).bounds());
    return JSON.stringify(out);
}

// Runs ops on a fresh raster: the answers and hash after each, and the snapshot taken after op `at` (and its hash).
function run(
    ops: Op[],
    at: number,
    seed: number
): {
    trace: string[];
    hashes: number[];
    snap: Uint8Array;
    snapHash: number;
    snapAnswers: string;
    raster: CollisionRaster;
} {
    const r = new CollisionRaster(W, H, { layers: LAYERS }),
        trace: string[] = [],
        hashes: number[] = [];
    let snap: Uint8Array = new Uint8Array(0),
        snapHash = 0,
        snapAnswers = '';
    ops.forEach((op, i) => {
        op(r);
        trace.push(answers(r, seed + i));
        hashes.push(r.hash());
        if (i === at) {
            snap = r.snapshot();
            snapHash = r.hash();
            snapAnswers = trace[i];
        }
    });
    return { trace, hashes, snap, snapHash, snapAnswers, raster: r };
}

testKernels(
    'restore puts a random scene back: the same answers and hash, then the same replay as the original run',
    () => {
        for (let t = 0; t < 12; t++) {
            const ops = randomOps(SEED + t, 60),
                at = Math.floor(mulberry32(SEED - t)() * ops.length);
            const { trace, hashes, snap, snapHash, snapAnswers, raster } = run(ops, at, SEED * 3 + t);
            // The same raster (its later state, ids and pool discarded) and a fresh one, restored.
            for (const r of [raster, new CollisionRaster(W, H, { layers: LAYERS })]) {
                r.restore(snap);
                assert.equal(r.hash(), snapHash, `scene ${t}: hash after restore`);
                assert.equal(answers(r, SEED * 3 + t + at), snapAnswers, `scene ${t}: answers after restore`);
                assert.deepEqual(
                    r.snapshot(),
                    snap,
                    `scene ${t}: the snapshot of the restored raster is the same bytes`
                );
                for (let i = at + 1; i < ops.length; i++) {
                    ops[i](r);
                    assert.equal(answers(r, SEED * 3 + t + i), trace[i], `scene ${t}: answers after replayed op ${i}`);
                    assert.equal(r.hash(), hashes[i], `scene ${t}: hash after replayed op ${i}`);
                }
            }
        }
    }
);

test("the hash is the snapshot's last 4 bytes, hashBytes of the rest, and the same on both kernel paths (pinned)", () => {
    const ops = randomOps(SEED + 99, 80);
    const seqs = KERNELS.map(mode =>
        withKernels(mode, () => {
            const r = new CollisionRaster(W, H, { layers: LAYERS }),
                seq: number[] = [];
            for (const op of ops) {
                op(r);
                const bytes = r.snapshot(),
                    h = r.hash();
                assert.equal(h, new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 4, true));
                assert.equal(h, hashBytes(bytes, bytes.length - 4));
                seq.push(h);
            }
            return seq;
        })
    );
    for (const seq of seqs) assert.deepEqual(seq, seqs[0]);
    // The same value on every machine and engine: integer arithmetic over little-endian bytes.
    let all = 0;
    for (const h of seqs[0]) all = Math.imul(all ^ h, 0x01000193) >>> 0;
    assert.equal(all, PINNED, `hash sequence digest ${all}`);
});
const PINNED = 4119230267;

testKernels(
    "restoring a state before a layer's first id removes its id plane; ids stamped later come back on replay",
    () => {
        const r = new CollisionRaster(40, 30, { layers: 2 }),
            m = new Mask(5, 5, true);
        r.stamp(m, 3, 3, { layer: 0 });
        const before = r.snapshot(),
            h0 = r.hash();
        r.stamp(m, 5, 5, { id: 7, layer: 0 }).stamp(m, 6, 6, { id: 8, layer: 0 });
        const h1 = r.hash();
        assert.deepEqual(r.queryMask(m, 5, 5, { layers: 1 }), [7, 8]);
        r.restore(before);
        assert.equal(r.hash(), h0);
        assert.deepEqual(r.queryMask(m, 5, 5, { layers: 1 }), []);
        r.stamp(m, 5, 5, { id: 7, layer: 0 }).stamp(m, 6, 6, { id: 8, layer: 0 });
        assert.equal(r.hash(), h1);
        assert.deepEqual(r.queryMask(m, 5, 5, { layers: 1 }), [7, 8]);
    }
);

// A snapshot's bytes with the checksum recomputed, so structural checks (not the checksum) must catch the change.
function reseal(b: Uint8Array): Uint8Array {
    new DataView(b.buffer, b.byteOffset).setUint32(b.length - 4, hashBytes(b, b.length - 4), true);
    return b;
}
function setI32(b: Uint8Array, at: number, v: number): Uint8Array {
    const c = b.slice();
    new DataView(c.buffer).setInt32(at, v, true);
    return c;
}

test('bad bytes throw an Error naming the problem and leave the raster unchanged', () => {
    const ops = randomOps(SEED + 7, 40);
    const src = new CollisionRaster(W, H, { layers: LAYERS });
    ops.forEach(op => op(src));
    src.stamp(SPRITES[0], 10, 10, { id: 1, layer: 1 }).stamp(SPRITES[0], 11, 11, { id: 2, layer: 1 });
    const good = src.snapshot();
    const r = new CollisionRaster(W, H, { layers: LAYERS });
    randomOps(SEED + 8, 30).forEach(op => op(r));
    const keep = r.snapshot(),
        keepAnswers = answers(r, 5);
    const refused = (bytes: unknown, message: RegExp, type: new () => Error = Error) => {
        assert.throws(
            () => r.restore(bytes as Uint8Array),
            (e: Error) => e.constructor === type && message.test(e.message),
            String(message)
        );
        assert.deepEqual(r.snapshot(), keep);
        assert.equal(answers(r, 5), keepAnswers);
    };
    refused([1, 2, 3], /bytes must be a Uint8Array .* got Array/, TypeError);
    refused(new Uint8Array(0), /ends after 0 bytes.*truncated/);
    refused(new Uint8Array(64), /do not start with the raster snapshot tag "HMRS"/);
    refused(setI32(good, 4, 2), /format version 2, expected 1/);
    refused(
        new CollisionRaster(W + 1, H, { layers: LAYERS }).snapshot(),
        /snapshot is of a 84x47 raster with 3 layers, this raster is 83x47 with 3 layers/
    );
    refused(new CollisionRaster(W, H, { layers: 1 }).snapshot(), /with 1 layer, this raster is 83x47 with 3 layers/);
    // Truncated anywhere, and any one byte changed.
    const rnd = mulberry32(SEED);
    for (let i = 0; i < 40; i++)
        refused(good.subarray(0, 20 + Math.floor(rnd() * (good.length - 20))), /checksum does not match|ends after/);
    refused(good.subarray(0, 12), /ends after 12 bytes/);
    for (let i = 0; i < 60; i++) {
        const c = good.slice(),
            at = 20 + Math.floor(rnd() * (c.length - 20));
        c[at] ^= 1 << Math.floor(rnd() * 8);
        refused(c, /checksum does not match/);
    }
    // Well sealed but inconsistent: the layer 0 header starts at byte 20 (x0, y0, x1, y1, flags).
    refused(reseal(setI32(good, 28, W + 1)), /layer 0's stamped box is .* not inside the 83x47 raster/);
    refused(reseal(setI32(good, 36, 2)), /layer 0's flags are 2, expected 0 or 1/);
    const extra = new Uint8Array(good.length + 4);
    extra.set(good.subarray(0, good.length - 4));
    refused(reseal(extra), /4 bytes after its data/);
    // A set pixel outside its box: a one-layer raster with one pixel at (3, 2), box (3, 2)-(4, 3), then x0 → 4.
    const one = new CollisionRaster(8, 8).stampPixel(3, 2, { id: 5 }),
        small = new CollisionRaster(8, 8);
    const ob = one.snapshot(),
        keepSmall = small.snapshot();
    small.restore(ob);
    assert.deepEqual(small.queryMask(new Mask(1, 1, true), 3, 2), [5]);
    small.restore(keepSmall);
    assert.throws(() => small.restore(reseal(setI32(ob, 20, 4))), /layer 0's stamped box is \(4, 2\)-\(4, 3\)/);
    // Box (3,2)-(4,3): words at 40 (1 word), id section length at 44, entries at 48: [5, 1].
    assert.throws(
        () => small.restore(reseal(setI32(ob, 40, (1 << 2) | (1 << 3)))),
        /layer 0 has set pixels outside its stamped box/
    );
    assert.throws(
        () => small.restore(reseal(setI32(ob, 52, 2))),
        /layer 0's ids cover 2 pixels, but it has 1 set pixels/
    );
    assert.throws(() => small.restore(reseal(setI32(ob, 52, 0))), /id run at entry 0 has no pixel count of at least 1/);
    assert.throws(
        () => small.restore(reseal(setI32(ob, 44, 99))),
        /id section length is 99 in the snapshot, more than the/
    );
    assert.deepEqual(small.snapshot(), keepSmall);
    // A list of two ids with a negative one.
    const two = new CollisionRaster(8, 8).stampPixel(3, 2, { id: 5 }).stampPixel(3, 2, { id: 6 }).snapshot();
    assert.deepEqual(new CollisionRaster(8, 8).restore(two).queryMask(new Mask(1, 1, true), 3, 2), [6, 5]);
    assert.throws(() => small.restore(reseal(setI32(two, 52, -3))), /has id -3 at entry 1, expected 0..2147483647/);
    assert.throws(() => small.restore(reseal(setI32(two, 48, -5))), /id list at entry 0 \(5 ids\) runs past/);
    assert.deepEqual(small.snapshot(), keepSmall);
});

testKernels('snapshot(out) with room writes into out and allocates nothing; a smaller out gets a new array', () => {
    const r = new CollisionRaster(W, H, { layers: LAYERS });
    randomOps(SEED + 3, 50).forEach(op => op(r));
    const bytes = r.snapshot(),
        out = new Uint8Array(bytes.length + 100);
    let got: Uint8Array = new Uint8Array(0);
    const seen = allocations(() => {
        got = r.snapshot(out);
    });
    assert.equal(seen.count, 0, `snapshot(out) allocated ${seen.count} arrays (${seen.bytes} bytes)`);
    assert.equal(got.buffer, out.buffer);
    assert.deepEqual(got, bytes);
    assert.deepEqual(r.snapshot(new Uint8Array(8)), bytes);
    assert.equal(allocations(() => r.hash()).count, 0);
    // An out that does not start at a word boundary works too.
    const odd = new Uint8Array(bytes.length + 3).subarray(3);
    assert.deepEqual(r.snapshot(odd), bytes);
    assert.deepEqual(new CollisionRaster(W, H, { layers: LAYERS }).restore(odd).snapshot(), bytes);
    assert.throws(() => r.snapshot([] as never), /out must be a Uint8Array, got Array/);
});

test("a snapshot holds only each layer's stamped box: its size follows what was stamped, not the raster", () => {
    const r = new CollisionRaster(1920, 1080, { layers: 2 });
    const empty = r.snapshot().length;
    assert.ok(empty <= 80, `empty 1920x1080 snapshot: ${empty} bytes`);
    r.stamp(new Mask(9, 18, true), 100, 100, { id: 3, layer: 1 });
    const one = r.snapshot().length;
    // 18 rows of 1 strip, an id section of one run.
    assert.ok(one - empty <= 18 * 4 + 16, `one 9x18 stamp adds ${one - empty} bytes`);
    r.clear(1);
    assert.equal(r.snapshot().length, empty);
});

test('snapshot + restore of 1,000 bullets on a 1920x1080 2-layer raster with ids, against stampMany (printed, not asserted)', () => {
    const r = new CollisionRaster(1920, 1080, { layers: 2 }),
        shot = sprite(9, 18, 0.9, 9),
        rnd = mulberry32(SEED);
    const xs = Array.from({ length: 1000 }, () => Math.floor(rnd() * 1920)),
        ys = Array.from({ length: 1000 }, () => Math.floor(rnd() * 1080));
    const ids = Array.from({ length: 1000 }, (_, i) => i);
    r.stamp(new Mask(1920, 200, true), 0, 880, { id: 1e6, layer: 0 });
    const frame = () => {
        r.clear(1);
        r.stampMany(shot, xs, ys, { ids, layer: 1 });
    };
    frame();
    const out = new Uint8Array(r.snapshot().length);
    const h = r.hash();
    const stamp = cost(() => {
        for (let i = 0; i < 20; i++) frame();
    });
    const both = cost(() => {
        for (let i = 0; i < 20; i++) r.restore(r.snapshot(out));
    });
    assert.equal(r.hash(), h);
    console.log(
        `# 20x clear + stampMany(1,000 with ids): ${costText(stamp)}; 20x snapshot(out) + restore (${out.length} bytes): ${costText(both)}`
    );
});

test('snapshot(out) of a raster or a tile map refuses an out that is not a Uint8Array', () => {
    const raster = new CollisionRaster(8, 8),
        map = new TileMap(4, 4, 2, 2, [new Mask(4, 4, true)], [0, -1, -1, 0]);
    for (const bad of ['out', [0, 0], new Uint32Array(4)]) {
        assert.throws(() => raster.snapshot(bad as never), /^TypeError: out must be a Uint8Array, got /);
        assert.throws(() => map.snapshot(bad as never), /^TypeError: out must be a Uint8Array, got /);
    }
    // An out too small is not written: a new array comes back, with the same bytes.
    const small = new Uint8Array(4),
        bytes = raster.snapshot(small);
    assert.notEqual(bytes.buffer, small.buffer);
    assert.deepEqual(bytes, raster.snapshot());
});

// ---- Delta snapshots (snapshotChanges) ----

const MAGIC_FULL = 0x53524d48;
const isFull = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset).getUint32(0, true) === MAGIC_FULL;
const tail = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset).getUint32(b.length - 4, true);

// randomOps plus the writers it lacks: a layer stamped onto itself (and onto another layer), a layer erased by itself.
function deltaOps(seed: number, n: number): Op[] {
    const base = randomOps(seed, n),
        rnd = mulberry32(seed ^ 0x5eed),
        ops: Op[] = [];
    for (const op of base) {
        ops.push(op);
        const k = rnd(),
            l = Math.floor(rnd() * LAYERS),
            x = Math.floor(rnd() * 20) - 10,
            y = Math.floor(rnd() * 20) - 10;
        if (k < 0.04) ops.push(r => r.stamp(r.plane(l), x, y, { layer: l, id: 77 }));
        else if (k < 0.07) ops.push(r => r.stamp(r.plane(l), x, y, { layer: (l + 1) % LAYERS }));
        else if (k < 0.09) ops.push(r => r.erase(r.plane(l), x, y, { layer: l }));
    }
    return ops;
}

testKernels(
    'deltas: a ring of keyframes and deltas restores any saved frame to the state a full copy kept, then replays the same',
    () => {
        for (let t = 0; t < 10; t++) {
            const rnd = mulberry32(SEED + 1000 + t),
                ops = deltaOps(SEED + 2000 + t, 400);
            const K = 2 + Math.floor(rnd() * 6),
                RING = 12;
            const r = new CollisionRaster(W, H, { layers: LAYERS }); // under test: keyframes every K frames, deltas between
            const m = new CollisionRaster(W, H, { layers: LAYERS }); // the reference: a full snapshot every frame
            const ring: Uint8Array[] = [],
                full: Uint8Array[] = [];
            let next = 0,
                deltas = 0,
                rollbacks = 0;
            const rollback = (F: number) => {
                let k = F;
                while (!isFull(ring[k])) k--;
                for (let i = k; i <= F; i++) r.restore(ring[i]);
                m.restore(full[F]);
                assert.equal(r.hash(), tail(full[F]), `scene ${t}: hash after restoring frame ${F} from keyframe ${k}`);
                assert.equal(answers(r, t), answers(m, t), `scene ${t}: answers after restoring frame ${F}`);
                ring.length = full.length = F + 1;
                rollbacks++;
            };
            for (let frame = 0; next < ops.length; frame++) {
                for (let j = 1 + Math.floor(rnd() * 4); j > 0 && next < ops.length; j--, next++) {
                    ops[next](r);
                    ops[next](m);
                }
                // A late input mid-frame: roll back with the raster written since its last snapshot.
                if (frame > 0 && rnd() < 0.08) {
                    rollback(Math.max(0, frame - 1 - Math.floor(rnd() * Math.min(RING, frame))));
                    frame = ring.length;
                }
                const bytes = frame % K === 0 ? r.snapshot() : r.snapshotChanges();
                if (!isFull(bytes)) deltas++;
                ring[frame] = bytes;
                full[frame] = m.snapshot();
                assert.equal(r.hash(), m.hash(), `scene ${t}: hash at frame ${frame}`);
                assert.equal(r.hash(), tail(full[frame]));
                if (rnd() < 0.12) {
                    rollback(Math.max(0, frame - Math.floor(rnd() * Math.min(RING, frame + 1))));
                    frame = ring.length - 1;
                }
            }
            assert.ok(deltas > 20 && rollbacks > 5, `scene ${t}: ${deltas} deltas, ${rollbacks} rollbacks`);
        }
    }
);

testKernels('deltas: restoring any delta chain gives the same bytes as the full snapshot of that frame', () => {
    const ops = deltaOps(SEED + 77, 120),
        r = new CollisionRaster(W, H, { layers: LAYERS }),
        m = new CollisionRaster(W, H, { layers: LAYERS });
    const chain: Uint8Array[] = [r.snapshot()],
        full: Uint8Array[] = [m.snapshot()];
    for (const op of ops) {
        op(r);
        op(m);
        chain.push(r.snapshotChanges());
        full.push(m.snapshot());
    }
    const fresh = new CollisionRaster(W, H, { layers: LAYERS });
    for (let i = 0; i < chain.length; i++) {
        fresh.restore(chain[i]);
        assert.equal(fresh.hash(), tail(full[i]), `frame ${i}: hash`);
        assert.equal(answers(fresh, i), answers(m.restore(full[i]), i), `frame ${i}: answers`);
    }
    // snapshot() starts a new base: the next delta of the chain no longer applies (hash() is the check that keeps it).
    const d = chain.findIndex((b, i) => i > 1 && !isFull(b) && !isFull(chain[i - 1]));
    for (let i = 0; i < d; i++) fresh.restore(chain[i]);
    fresh.snapshot();
    assert.throws(() => fresh.restore(chain[d]), /applies only to the state of the snapshot tagged/);
});

test('deltas: one applied to a raster not at its base throws an Error and changes nothing; so do corrupt and truncated ones', () => {
    const r = new CollisionRaster(W, H, { layers: LAYERS });
    deltaOps(SEED + 5, 40).forEach(op => op(r));
    r.clear(0).stamp(sprite(W, 40, 0.7, 5), 0, 3, { id: 1, layer: 0 });
    const key = r.snapshot();
    r.stamp(SPRITES[0], 10, 10, { id: 3, layer: 1 }).erase(new Mask(3, 3, true), 5, 5, { layer: 0 });
    const delta = r.snapshotChanges();
    assert.ok(!isFull(delta), 'a small change gives a delta');
    const target = r.hash();
    r.stampPixel(1, 1, { id: 9 });
    const other = new CollisionRaster(W, H, { layers: LAYERS });
    const keep = (x: CollisionRaster) => [x.hash(), answers(x, 3)];
    const refused = (x: CollisionRaster, bytes: Uint8Array, message: RegExp) => {
        const before = keep(x);
        assert.throws(
            () => x.restore(bytes),
            (e: Error) => e.constructor === Error && message.test(e.message),
            String(message)
        );
        assert.deepEqual(keep(x), before);
    };
    refused(
        other,
        delta,
        /applies only to the state of the snapshot tagged \d+ .* but this raster has taken or restored no snapshot yet/
    );
    refused(r, delta, /but this raster was written since its last snapshot or restore; restore that snapshot first/);
    r.restore(key);
    r.stampPixel(1, 1, { layer: 2 }).clear(2); // a write that changed nothing still leaves the base
    refused(r, delta, /written since/);
    const writers: Op[] = [
        x => x.stamp(SPRITES[2], 200, 0),
        x => x.stamp(SPRITES[0], 3, 3),
        x => x.stampMany(SPRITES[0], [1], [2]),
        x => x.stampPoints([1], [2], { ids: [4] }),
        x => x.stampPixel(2, 2),
        x => x.erase(SPRITES[0], 0, 0),
        x => x.erasePixel(2, 2),
        x => x.clear(1),
        x => x.clear(),
        x => x.stamp(x.plane(0), 1, 0)
    ];
    for (const w of writers) {
        r.restore(key);
        w(r);
        refused(r, delta, /written since/);
    }
    r.restore(key).restore(delta);
    assert.equal(r.hash(), target);
    refused(r, delta, /but this raster is at the snapshot tagged \d+/); // applied twice
    other.restore(r.snapshot()); // a full snapshot: no base needed
    refused(other, delta, /is at the snapshot tagged/);
    // Corrupt, truncated, or well sealed but inconsistent: refused while the raster is at the delta's base, which then still applies.
    r.restore(key);
    const rnd = mulberry32(SEED + 1);
    for (let i = 0; i < 30; i++)
        refused(
            r,
            delta.subarray(0, 24 + Math.floor(rnd() * (delta.length - 24))),
            /checksum does not match|ends after/
        );
    for (let i = 0; i < 30; i++) {
        const c = delta.slice(),
            at = 24 + Math.floor(rnd() * (c.length - 24));
        c[at] ^= 1 << Math.floor(rnd() * 8);
        refused(r, c, /checksum does not match/);
    }
    // Layer 0's section starts at byte 24: kind, x0, y0, x1, y1, flags, runs, then run 0: strip, first row, rows.
    const dv = new DataView(delta.buffer, delta.byteOffset);
    assert.equal(dv.getUint32(24, true), 0, 'layer 0 is sent as changed tiles');
    refused(r, reseal(setI32(delta, 24, 7)), /layer 0's section kind is 7, expected 1 or 0/);
    refused(r, reseal(setI32(delta, 52, 99)), /layer 0's run 0 is strip 99, .* not inside the 3 strips of 47 rows/);
    refused(r, reseal(setI32(delta, 60, 0)), /layer 0's run 0 .* not inside/);
    refused(r, reseal(setI32(delta, 28, 40)), /layer 0 has set pixels outside its stamped box/);
    refused(r, reseal(setI32(delta, 20, 12345)), /applies only to the state of the snapshot tagged 12345/);
    r.restore(delta);
    assert.equal(r.hash(), target);
});

test('deltas: a box shrunk by hand (sealed again) is refused, nothing changed; one shrunk by a clear applies', () => {
    const r = new CollisionRaster(W, H, { layers: LAYERS }),
        blob = new Mask(4, 4, true);
    r.stamp(blob, 0, 0).stamp(blob, 60, 30);
    const key = r.snapshot();
    r.stampPixel(1, 1, { layer: 0 });
    const delta = r.snapshotChanges(),
        target = r.hash();
    assert.ok(!isFull(delta));
    const dv = new DataView(delta.buffer, delta.byteOffset);
    assert.deepEqual(
        [28, 32, 36, 40].map(at => dv.getInt32(at, true)),
        [0, 0, 64, 34],
        'layer 0: changed tiles in the box (0, 0)-(64, 34)'
    );
    // The box cut to the first blob: the run's words still lie inside it, but the second blob is outside it and
    // not rewritten. Taken, it stayed in the plane where snapshot(), hash() and clear() never look again.
    const forged = reseal(setI32(setI32(delta.slice(), 36, 4), 40, 4));
    r.restore(key);
    const before = [r.hash(), answers(r, 7)];
    assert.throws(
        () => r.restore(forged),
        (e: Error) =>
            e.constructor === Error &&
            /layer 0's stamped box \(0, 0\)-\(4, 4\) leaves out set pixels .* near \(32, 30\)/.test(e.message)
    );
    assert.deepEqual([r.hash(), answers(r, 7)], before, 'nothing changed');
    r.restore(delta);
    assert.equal(r.hash(), target, 'the honest delta still applies');
    // Shrunk by a clear: the clear marks the tiles it empties, so the delta rewrites them and applies. (A fresh
    // raster: one restored since knows no stamped tiles, and its clear marks the whole box.)
    const s = new CollisionRaster(W, H, { layers: LAYERS });
    s.stamp(blob, 0, 0).stamp(blob, 60, 30);
    const base = s.snapshot();
    s.clear(0).stamp(blob, 0, 0).stamp(blob, 0, 40);
    const cleared = s.snapshotChanges(),
        after = s.hash();
    assert.ok(!isFull(cleared));
    const cv = new DataView(cleared.buffer, cleared.byteOffset);
    assert.equal(cv.getUint32(24, true), 0, 'layer 0 is sent as changed tiles');
    assert.deepEqual(
        [28, 32, 36, 40].map(at => cv.getInt32(at, true)),
        [0, 0, 4, 44]
    );
    r.restore(base);
    r.restore(cleared);
    assert.equal(r.hash(), after);
    assert.equal(r.hitTest(61, 31), false, 'the second blob is gone');
    assert.deepEqual(r.snapshot(), s.snapshot(), 'the same state, the same bytes');
});

test('deltas: a frame that clears a layer and stamps k small sprites copies O(k × sprite area), not the raster', () => {
    const r = new CollisionRaster(1920, 1080, { layers: 2 }),
        shot = sprite(9, 18, 0.9, 9),
        rnd = mulberry32(SEED);
    r.stamp(new Mask(1920, 200, true), 0, 880, { id: 1e6, layer: 0 });
    for (const k of [1, 10, 100]) {
        const xs = Array.from({ length: k }, () => Math.floor(rnd() * 1900)),
            ys = Array.from({ length: k }, () => Math.floor(rnd() * 1060));
        const ids = xs.map((_, i) => i);
        r.clear(1).stampMany(shot, xs, ys, { ids, layer: 1 });
        const key = r.snapshot(),
            before = r.hash();
        // One frame: the bullets move, a crater is blown into the terrain.
        for (let i = 0; i < k; i++) {
            xs[i] += 3;
            ys[i] -= 5;
        }
        r.clear(1)
            .stampMany(shot, xs, ys, { ids, layer: 1 })
            .erase(new Mask(5, 5, true), 100, 878, { layer: 0 });
        const after = r.hash(),
            delta = r.snapshotChanges();
        // Each 9x18 shot touches at most 2 strips × ceil((18 + TILE_ROWS − 1) / TILE_ROWS) tiles, before and after the
        // move; the 5x5 crater 2 × 2. A tile's bytes: its words, a run header, its ids (at most a run per word).
        const per = 2 * Math.ceil((18 + TILE_ROWS - 1) / TILE_ROWS),
            tiles = 2 * k * per + 4;
        const bound = 100 + tiles * (TILE_ROWS * 4 + 12 + 4 + TILE_ROWS * 2 * 4);
        assert.ok(
            !isFull(delta) && delta.length <= bound,
            `k=${k}: delta ${delta.length} bytes, bound ${bound}, full ${key.length}`
        );
        assert.ok(delta.length * 10 < key.length, `k=${k}: delta ${delta.length} bytes vs full ${key.length}`);
        r.restore(key);
        assert.equal(r.hash(), before);
        const w0 = restoreWork.words;
        r.restore(delta);
        assert.ok(restoreWork.words - w0 <= tiles * TILE_ROWS, `k=${k}: restore wrote ${restoreWork.words - w0} words`);
        assert.equal(r.hash(), after);
        console.log(
            `# k=${k}: delta ${delta.length} bytes, full snapshot ${key.length} bytes, restore wrote ${restoreWork.words - w0} words`
        );
    }
});

testKernels('deltas: most of the raster changed gives a full snapshot; snapshotChanges(out) allocates nothing', () => {
    const r = new CollisionRaster(W, H, { layers: 1 });
    assert.ok(isFull(r.snapshotChanges()), 'no base yet: full');
    r.stamp(new Mask(W, 30, true), 0, 10).snapshotChanges();
    r.stampPixel(3, 3);
    assert.ok(!isFull(r.snapshotChanges()), 'one pixel changed: a delta');
    const dot = new CollisionRaster(W, H).stampPixel(3, 3);
    dot.snapshot();
    assert.ok(isFull(dot.stampPixel(4, 3).snapshotChanges()), 'a 16-word tile is more than the 1-word box: full');
    r.stamp(new Mask(W, H, true), 0, 0);
    const all = r.snapshotChanges();
    assert.ok(isFull(all), 'the whole raster changed: full');
    assert.equal(tail(all), r.hash());
    const out = new Uint8Array(64 * 1024);
    r.stampPixel(5, 5, { id: 4 });
    r.snapshotChanges(out);
    r.stampPixel(6, 5, { id: 4 }).erase(SPRITES[0], 3, 3);
    let got: Uint8Array = new Uint8Array(0);
    const seen = allocations(() => {
        got = r.snapshotChanges(out);
    });
    assert.equal(seen.count, 0, `snapshotChanges(out) allocated ${seen.count} arrays`);
    assert.equal(got.buffer, out.buffer);
    assert.throws(() => r.snapshotChanges([] as never), /^TypeError: out must be a Uint8Array, got Array/);
});

test('isDelta tells a delta (restores onto its base only) from the full snapshot snapshotChanges falls back to', () => {
    const r = new CollisionRaster(256, 64),
        m = new Mask(4, 4, true);
    r.stamp(new Mask(256, 32, true), 0, 32, { id: 1 }); // ground: a full snapshot holds it, a delta need not
    const first = r.snapshotChanges(); // no base yet: a full snapshot
    assert.equal(CollisionRaster.isDelta(first), false);
    r.stamp(m, 10, 10, { id: 3 });
    const delta = r.snapshotChanges();
    assert.equal(CollisionRaster.isDelta(delta), true);
    assert.ok(delta.length < first.length);
    r.stamp(new Mask(256, 64, true), 0, 0); // everything changed: no smaller as a delta
    const whole = r.snapshotChanges();
    assert.equal(CollisionRaster.isDelta(whole), false);
    // The full one restores from any state, the delta only onto its base.
    r.restore(first).restore(delta);
    assert.equal(r.queryMask(m, 10, 10).join(), '3');
    assert.equal(r.queryMask(m, 10, 40).join(), '1');
    r.restore(whole);
    assert.throws(() => r.restore(delta), /^Error: /);
    assert.equal(CollisionRaster.isDelta(new Uint8Array(2)), false);
    assert.throws(() => CollisionRaster.isDelta('HMRD' as never), /^TypeError: bytes must be a Uint8Array/);
});
