// @test slow
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from '../src/base/crc32.js'; // internal: crc32 has no public entry
import { Mask, MaskAtlas, type AtlasFrame, type HitBox } from '../src/index.js';
import { convexPieces, toPolygons, type Polygon } from '../src/shapes.js';
import { buildAtlas } from '../src/node.js';
import { cliRunner, ensureBuilt } from './cli-run.js';
import { mulberry32 } from './reference.js';
import { patch } from './atlas-bytes.js';
import { cost, costText } from './work.js';

// Format version 2: polygons and convex pieces stored per frame (docs/format.md); version 1 still read and written.

function randomMask(w: number, h: number, seed: number, density = 0.5): Mask {
    const r = mulberry32(seed),
        m = new Mask(w, h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (r() < density) m.set(x, y);
    return m;
}

function shapesOf(mask: Mask, tolerance = 0): { polygons: Polygon[]; pieces: number[][] } {
    const polygons = toPolygons(mask, { tolerance });
    return { polygons, pieces: polygons.flatMap(p => convexPieces(p)) };
}

// Frames with polygons and pieces (exact and simplified, with holes), with polygons only, with none, and an empty mask.
function sample(): MaskAtlas {
    const ring = Mask.fromText('#####\n#...#\n#.#.#\n#...#\n#####');
    const blob = randomMask(20, 13, 5);
    return new MaskAtlas()
        .add('ring', ring, {
            x: 2,
            y: -1,
            sourceWidth: 9,
            sourceHeight: 7,
            duration: 50,
            boxes: [{ name: 'core', x: 2, y: 2, width: 1, height: 1 }],
            ...shapesOf(ring)
        })
        .add('plain', randomMask(33, 4, 2))
        .add('blob', blob, shapesOf(blob, 1.5))
        .add('outline only', blob, { polygons: toPolygons(blob) })
        .add('empty', new Mask(0, 0), { polygons: [], pieces: [] })
        .add('pieces only', new Mask(2, 2).fill(), { pieces: [[0, 0, 2, 0, 2, 2, 0, 2]] })
        .addTag('all', 0, 5, 'reverse');
}

function sameFrame(a: AtlasFrame, b: AtlasFrame): void {
    assert.equal(a.name, b.name);
    assert.ok(a.mask.equals(b.mask), a.name);
    assert.deepEqual(
        [a.index, a.x, a.y, a.sourceWidth, a.sourceHeight, a.duration],
        [b.index, b.x, b.y, b.sourceWidth, b.sourceHeight, b.duration]
    );
    assert.deepEqual(a.boxes, b.boxes);
    assert.deepEqual(a.polygons, b.polygons, `${a.name} polygons`);
    assert.deepEqual(a.pieces, b.pieces, `${a.name} pieces`);
    assert.equal('polygons' in a, 'polygons' in b);
    assert.equal('pieces' in a, 'pieces' in b);
}

// Start of the polygons section: after the mask words.
function polygonsAt(dv: DataView): number {
    const [F, T, B, S, W] = [12, 16, 20, 24, 28].map(p => dv.getUint32(p, true));
    return 32 + 32 * F + 16 * T + 24 * B + Math.ceil(S / 4) * 4 + 4 * W;
}

// A version 1 file written by hand from docs/format.md, as the code before version 2 wrote it.
function writeV1(
    frames: { name: string; mask: Mask; x?: number; y?: number; duration?: number; boxes?: HitBox[] }[]
): Uint8Array {
    const enc = new TextEncoder();
    const names = [
        ...frames.map(f => enc.encode(f.name)),
        ...frames.flatMap(f => (f.boxes ?? []).map(b => enc.encode(b.name)))
    ];
    const S = names.reduce((s, n) => s + n.length, 0),
        W = frames.reduce((s, f) => s + f.mask.words.length, 0);
    const B = frames.reduce((s, f) => s + (f.boxes ?? []).length, 0),
        F = frames.length;
    const wordsAt = 32 + 32 * F + 24 * B + Math.ceil(S / 4) * 4,
        len = wordsAt + 4 * W + 4;
    const out = new Uint8Array(len),
        dv = new DataView(out.buffer);
    out.set([0x48, 0x4d, 0x53, 0x4b]);
    dv.setUint16(4, 1, true);
    [len, F, 0, B, S, W].forEach((v, i) => dv.setUint32(8 + 4 * i, v, true));
    let p = 32;
    frames.forEach((f, i) => {
        [
            names[i].length,
            f.mask.width,
            f.mask.height,
            f.x ?? 0,
            f.y ?? 0,
            f.mask.width,
            f.mask.height,
            f.duration ?? 0
        ].forEach(v => {
            dv.setUint32(p, v >>> 0, true);
            p += 4;
        });
    });
    let s = F;
    frames.forEach((f, i) => {
        for (const b of f.boxes ?? [])
            [names[s++].length, i, b.x, b.y, b.width, b.height].forEach(v => {
                dv.setUint32(p, v >>> 0, true);
                p += 4;
            });
    });
    for (const n of names) {
        out.set(n, p);
        p += n.length;
    }
    p = wordsAt;
    for (const f of frames)
        for (const w of f.mask.words) {
            dv.setUint32(p, w, true);
            p += 4;
        }
    dv.setUint32(len - 4, crc32(out, 0, len - 4), true);
    return out;
}

test('atlas v2: polygons and pieces round-trip exactly, byte for byte', () => {
    const a = sample();
    const bytes = a.toBytes();
    const dv = new DataView(bytes.buffer);
    assert.equal(MaskAtlas.VERSION, 2);
    assert.equal(dv.getUint16(4, true), 2);
    const b = MaskAtlas.from(bytes);
    assert.deepEqual(b.names, a.names);
    for (let i = 0; i < a.size; i++) sameFrame(a.frames[i], b.frames[i]);
    assert.deepEqual(b.tags, a.tags);
    assert.deepEqual(b.toBytes(), bytes);
    // At tolerance 0 every coordinate is an integer; simplified rings and pieces may not be, and come back as written.
    assert.ok(b.frame('ring').polygons?.[0].holes.length === 1);
    assert.equal(b.frame('plain').polygons, undefined);
    assert.equal(b.frame('outline only').pieces, undefined);
    assert.deepEqual(b.frame('empty').polygons, []);
    assert.equal(b.frame('pieces only').polygons, undefined);
    // Unaligned buffer: the same atlas.
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    assert.deepEqual(MaskAtlas.from(shifted.subarray(1)).toBytes(), bytes);
    // Non-integer coordinates (and -0) are kept exactly.
    const odd = new MaskAtlas().add('f', new Mask(1, 1), { pieces: [[0.1, -0, 1 / 3, 1e-300, 2 ** 40, -7.25]] });
    assert.deepEqual(MaskAtlas.from(odd.toBytes()).frame('f').pieces, [[0.1, -0, 1 / 3, 1e-300, 2 ** 40, -7.25]]);
});

test('atlas v2: the exact byte layout of the polygons section', () => {
    const m = Mask.fromText('##\n##');
    const bytes = new MaskAtlas()
        .add('a', m, {
            polygons: [{ outer: [0, 0, 2, 0, 2, 2, 0, 2], holes: [] }],
            pieces: [
                [0, 0, 2, 0, 2, 2],
                [0, 0, 2, 2, 0.5, 2]
            ]
        })
        .add('b', new Mask(0, 0))
        .toBytes();
    const dv = new DataView(bytes.buffer);
    const at = 32 + 2 * 32 + 4 + 2 * 4;
    assert.equal(polygonsAt(dv), at);
    // Header (polygons, rings, vertices), frame records (flags, polygons, pieces), hole counts, vertex counts, f64 pairs.
    const u32 = (p: number) => dv.getUint32(p, true);
    assert.deepEqual(
        [0, 4, 8].map(p => u32(at + p)),
        [1, 3, 10]
    );
    assert.deepEqual(
        [0, 4, 8, 12, 16, 20].map(p => u32(at + 12 + p)),
        [3, 1, 2, 0, 0, 0]
    );
    assert.equal(u32(at + 36), 0);
    assert.deepEqual(
        [0, 4, 8].map(p => u32(at + 40 + p)),
        [4, 3, 3]
    );
    const coords = Array.from({ length: 20 }, (_, i) => dv.getFloat64(at + 52 + 8 * i, true));
    assert.deepEqual(coords, [0, 0, 2, 0, 2, 2, 0, 2, 0, 0, 2, 0, 2, 2, 0, 0, 2, 2, 0.5, 2]);
    assert.equal(bytes.length, at + 52 + 160 + 4);
    assert.equal(u32(8), bytes.length);
    assert.equal(u32(bytes.length - 4), crc32(bytes, 0, bytes.length - 4));
});

test('atlas v1: files without polygons are written as version 1, byte-identical to the version 1 layout, and still read', () => {
    const frames = [
        {
            name: 'hero',
            mask: randomMask(33, 5, 1),
            x: -3,
            y: 4,
            duration: 100,
            boxes: [{ name: 'head', x: 1, y: 2, width: 3, height: 4 }]
        },
        { name: 'ünïcode', mask: randomMask(70, 2, 2) },
        { name: 'empty', mask: new Mask(0, 3) }
    ];
    const v1 = writeV1(frames);
    const a = MaskAtlas.from(v1);
    assert.deepEqual(a.names, ['hero', 'ünïcode', 'empty']);
    assert.ok(a.get('hero').equals(frames[0].mask) && a.get('ünïcode').equals(frames[1].mask));
    assert.deepEqual(a.frame('hero').boxes, frames[0].boxes);
    for (const f of a.frames) assert.ok(!('polygons' in f) && !('pieces' in f));
    assert.deepEqual(a.toBytes(), v1);
    const built = new MaskAtlas();
    for (const f of frames) built.add(f.name, f.mask, { x: f.x, y: f.y, duration: f.duration, boxes: f.boxes });
    assert.deepEqual(built.toBytes(), v1);
    assert.equal(new DataView(built.toBytes().buffer).getUint16(4, true), 1);
    // Adding polygons to one frame makes it version 2; the rest reads the same.
    const v2 = new MaskAtlas();
    for (const f of a.frames)
        v2.add(f.name, f.mask, {
            x: f.x,
            y: f.y,
            duration: f.duration,
            boxes: f.boxes,
            ...(f.name === 'hero' ? shapesOf(f.mask) : {})
        });
    const back = MaskAtlas.from(v2.toBytes());
    assert.equal(new DataView(v2.toBytes().buffer).getUint16(4, true), 2);
    assert.deepEqual(back.frame('hero').polygons, toPolygons(frames[0].mask));
    // A version 1 file with a polygons section appended (and its byte length fixed) is refused.
    const grown = new Uint8Array(v1.length + 12);
    grown.set(v1.subarray(0, v1.length - 4));
    new DataView(grown.buffer).setUint32(8, grown.length, true);
    assert.throws(
        () => MaskAtlas.from(patch(grown, () => undefined)),
        /section sizes \(3 frames, 0 tags, 1 boxes, \d+ string bytes, \d+ words\) add up to \d+ bytes, not \d+/
    );
});

test('atlas v2: add() validates polygons and pieces, naming the value', () => {
    const m = new Mask(2, 2);
    const add = (o: object) => new MaskAtlas().add('f', m, o);
    assert.throws(() => add({ polygons: 'x' }), {
        name: 'TypeError',
        message: /polygons must be an array of \{ outer, holes \} \(as toPolygons returns\), got "x"/
    });
    assert.throws(() => add({ polygons: [null] }), {
        name: 'TypeError',
        message: /polygons\[0\] must be an object \{ outer: number\[\], holes: number\[\]\[\] \}, got null/
    });
    assert.throws(() => add({ polygons: [{ outer: [0, 0, 1, 0, 1, 1] }] }), {
        name: 'TypeError',
        message: /polygons\[0\]\.holes must be an array of rings, got undefined/
    });
    assert.throws(() => add({ polygons: [{ outer: [0, 0, 1, 0], holes: [] }] }), {
        name: 'TypeError',
        message: /polygons\[0\]\.outer must hold at least 3 \(x, y\) pairs, got 4 numbers/
    });
    assert.throws(() => add({ polygons: [{ outer: [0, 0, 1, 0, 1, 1, 2], holes: [] }] }), {
        name: 'TypeError',
        message: /got 7 numbers/
    });
    assert.throws(() => add({ polygons: [{ outer: [0, 0, 1, 0, 1, 1], holes: [[0, 0, 1, NaN, 1, 1]] }] }), {
        name: 'TypeError',
        message: /polygons\[0\]\.holes\[0\]\[3\] must be a finite number, got NaN/
    });
    assert.throws(() => add({ pieces: [[0, 0, 1, 0, 1, Infinity]] }), {
        name: 'TypeError',
        message: /pieces\[0\]\[5\] must be a finite number, got Infinity/
    });
    assert.throws(() => add({ pieces: [[0, 0, 1, 0, 1, '1']] }), {
        name: 'TypeError',
        message: /pieces\[0\]\[5\] must be a finite number, got "1"/
    });
    assert.throws(() => add({ pieces: {} }), { name: 'TypeError', message: /pieces must be an array of flat rings/ });
    assert.throws(() => add({ pieces: [5] }), {
        name: 'TypeError',
        message: /pieces\[0\] must be an array of numbers/
    });
    // The atlas keeps copies: changing the caller's arrays afterwards changes nothing.
    const outer = [0, 0, 2, 0, 2, 2, 0, 2];
    const a = new MaskAtlas().add('f', m.clone().fill(), { polygons: [{ outer, holes: [] }] });
    outer[0] = 99;
    assert.equal(a.frame('f').polygons?.[0].outer[0], 0);
});

test('atlas v2: corrupt or hostile polygons sections throw clear errors, fast', () => {
    const good = sample().toBytes();
    const at = polygonsAt(new DataView(good.buffer));
    const F = 6,
        P = new DataView(good.buffer).getUint32(at, true),
        R = new DataView(good.buffer).getUint32(at + 4, true);
    const holes = at + 12 + 12 * F,
        rings = holes + 4 * P,
        coords = rings + 4 * R;
    const cases: [string, Uint8Array, RegExp][] = [
        ['version 3', patch(good, dv => dv.setUint16(4, 3, true)), /Got a v3 hitmask atlas, expected v1 or v2/],
        ['as v1', patch(good, dv => dv.setUint16(4, 1, true)), /section sizes .* add up to \d+ bytes, not \d+/],
        [
            'huge polygon count',
            patch(good, dv => dv.setUint32(at, 0xffffffff, true)),
            /polygons section sizes \(4294967295 polygons, .*\) add up to \d+ bytes, but \d+ are there/
        ],
        ['huge vertex count', patch(good, dv => dv.setUint32(at + 8, 0xffffffff, true)), /4294967295 vertices/],
        [
            'no section',
            (() => {
                const b = good.slice(0, at + 4);
                const dv = new DataView(b.buffer);
                dv.setUint32(8, b.length, true);
                return patch(b, () => undefined);
            })(),
            /the polygons section\) add up to at least \d+ bytes, not \d+/
        ],
        ['flags', patch(good, dv => dv.setUint32(at + 12, 4, true)), /frame 0 polygons flags are 4, expected 0\.\.3/],
        [
            'count without flag',
            patch(good, dv => dv.setUint32(at + 12 + 12 + 4, 1, true)),
            /frame 1 has no polygons but a polygon count of 1/
        ],
        [
            'pieces without flag',
            patch(good, dv => dv.setUint32(at + 12 + 36 + 8, 1, true)),
            /frame 3 has no pieces but a piece count of 1/
        ],
        [
            'polygon counts',
            patch(good, dv => dv.setUint32(at + 12 + 4, 1000, true)),
            /frames have more than the \d+ polygons/
        ],
        [
            'no frame has any',
            patch(good, dv => {
                for (let i = 0; i < F; i++) for (let k = 0; k < 3; k++) dv.setUint32(at + 12 + 12 * i + 4 * k, 0, true);
            }),
            /frames have 0 polygons but the polygons section declares|no frame has polygons or pieces/
        ],
        [
            'hole counts',
            patch(good, dv => dv.setUint32(holes, 0xfffffff0, true)),
            /polygons have more than the \d+ rings/
        ],
        ['short ring', patch(good, dv => dv.setUint32(rings, 2, true)), /ring 0 has 2 vertices, fewer than 3/],
        [
            'ring sizes',
            patch(good, dv => dv.setUint32(rings, 0xffffffff, true)),
            /rings have more than the \d+ vertices/
        ],
        [
            'NaN',
            patch(good, dv => dv.setFloat64(coords + 8, NaN, true)),
            /ring 0 coordinate 1 is NaN, not a finite number/
        ],
        ['Infinity', patch(good, dv => dv.setFloat64(coords, -Infinity, true)), /ring 0 coordinate 0 is -Infinity/]
    ];
    for (const [what, bytes, re] of cases) {
        // Hostile counts are refused before anything is allocated or walked: well under a millisecond of CPU.
        const c = cost(() => assert.throws(() => MaskAtlas.from(bytes), re, what));
        assert.ok(c.cpuMs < 200, `${what}: refused after ${costText(c)}`);
    }
    // Only the flags zeroed: a version 2 file that should have been version 1.
    const none = new MaskAtlas().add('a', new Mask(1, 1), { pieces: [] }).toBytes();
    const noneAt = polygonsAt(new DataView(none.buffer));
    assert.throws(
        () => MaskAtlas.from(patch(none, dv => dv.setUint32(noneAt + 12, 0, true))),
        /no frame has polygons or pieces, so the file should be version 1/
    );
    // Every truncation throws.
    for (let n = at; n < good.length; n++) assert.throws(() => MaskAtlas.from(good.subarray(0, n)), Error);
});

// CLI: `hitmask build --polygons`, `hitmask inspect`, run as the built binary (dist/).
const SPRITES = fileURLToPath(new URL('./fixtures/sprites/', import.meta.url));
let dir = '';
const { run, fails } = cliRunner(() => dir);

before(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'hitmask-atlas-polygons-'));
    mkdirSync(join(dir, 'sprites'));
    for (const f of ['alien1.png', 'alien2.png', 'bomb.gif', 'chimp.png', 'explosion1.gif', 'shot.gif'])
        copyFileSync(join(SPRITES, f), join(dir, 'sprites', f));
});

after(() => rmSync(dir, { recursive: true, force: true }));

interface Json {
    frames: Record<string, { polygons: Polygon[]; pieces: number[][] }>;
}

test('cli build --polygons: stores what `hitmask polygons` traces; without it, the version 1 file as before', () => {
    // build's flags with --polygons; the same for `hitmask polygons`; build's flags without --polygons.
    const cases: { args: string[]; polys: string[]; plain: string[] }[] = [
        { args: [], polys: [], plain: [] },
        { args: ['--trim'], polys: ['--trim'], plain: ['--trim'] },
        {
            args: ['--tolerance-px', '1.5', '--max-vertices', '5'],
            polys: ['--tolerance-px', '1.5', '--max-vertices', '5'],
            plain: []
        },
        {
            args: ['--color-key', '000000', '--key-tolerance', '10'],
            polys: ['--color-key', '000000', '--key-tolerance', '10'],
            plain: ['--color-key', '000000', '--key-tolerance', '10']
        }
    ];
    for (const { args, polys, plain: plainArgs } of cases) {
        const r = run('build', 'sprites', '--polygons', ...args, '-o', 'p.hitmask');
        assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
        assert.match(
            r.out,
            /^p\.hitmask: \d+ frames from 6 files, \d+ bits set, \d+ polygons? \(\d+ holes?\), \d+ convex pieces?, \d+ vertices, \d+ bytes written/
        );
        const bytes = readFileSync(join(dir, 'p.hitmask'));
        assert.equal(bytes.readUInt16LE(4), 2);
        const atlas = MaskAtlas.from(new Uint8Array(bytes));
        const p = run('polygons', 'sprites', ...polys);
        assert.equal(p.code, 0, p.err);
        const json = JSON.parse(p.out) as Json;
        assert.deepEqual(Object.keys(json.frames), atlas.names);
        for (const f of atlas.frames) {
            assert.deepEqual(f.polygons, json.frames[f.name].polygons, `${args.join(' ')} ${f.name}`);
            assert.deepEqual(f.pieces, json.frames[f.name].pieces, `${args.join(' ')} ${f.name}`);
            if (args.length === 0) assert.deepEqual(f.polygons, toPolygons(f.mask));
        }
        // Without --polygons: version 1, the same masks.
        const plain = run('build', 'sprites', ...plainArgs, '-o', 'v1.hitmask');
        assert.equal(plain.code, 0, plain.err);
        const v1 = new Uint8Array(readFileSync(join(dir, 'v1.hitmask')));
        assert.equal(new DataView(v1.buffer).getUint16(4, true), 1);
        const stripped = new MaskAtlas();
        for (const f of atlas.frames)
            stripped.add(f.name, f.mask, {
                x: f.x,
                y: f.y,
                sourceWidth: f.sourceWidth,
                sourceHeight: f.sourceHeight,
                duration: f.duration,
                boxes: f.boxes
            });
        for (const t of atlas.tags) stripped.addTag(t.name, t.from, t.to, t.direction);
        assert.deepEqual(stripped.toBytes(), v1);
    }
});

test('cli build --polygons: worker threads store the same bytes', () => {
    assert.equal(run('build', 'sprites', '--polygons', '--trim', '--workers', '0', '-o', 'w0.hitmask').code, 0);
    const r = run('build', 'sprites', '--polygons', '--trim', '--workers', '2', '-o', 'w2.hitmask');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(readFileSync(join(dir, 'w2.hitmask')), readFileSync(join(dir, 'w0.hitmask')));
});

test("buildAtlas: the polygons option stores each frame's polygons and pieces, and is checked", async () => {
    const { atlas } = await buildAtlas(['sprites/shot.gif', 'sprites/alien1.png'], {
        cwd: dir,
        trim: true,
        polygons: { tolerance: 0.5, maxVertices: 6 }
    });
    for (const f of atlas.frames) {
        const polygons = toPolygons(f.mask, { tolerance: 0.5 });
        assert.deepEqual(f.polygons, polygons);
        assert.deepEqual(
            f.pieces,
            polygons.flatMap(p => convexPieces(p, { maxVertices: 6 }))
        );
    }
    assert.deepEqual(
        (await buildAtlas(['sprites/shot.gif'], { cwd: dir, polygons: true })).atlas.frames[0].polygons,
        toPolygons((await buildAtlas(['sprites/shot.gif'], { cwd: dir })).atlas.frames[0].mask)
    );
    assert.equal(
        (await buildAtlas(['sprites/shot.gif'], { cwd: dir, polygons: false })).atlas.frames[0].polygons,
        undefined
    );
    await assert.rejects(buildAtlas(['sprites/shot.gif'], { cwd: dir, polygons: { tolerance: -1 } }), {
        name: 'RangeError',
        message: /polygons\.tolerance must be a finite number >= 0 \(pixels\), got -1/
    });
    await assert.rejects(buildAtlas(['sprites/shot.gif'], { cwd: dir, polygons: { maxVertices: 2 } }), {
        name: 'RangeError',
        message: /polygons\.maxVertices must be an integer in 3\.\.1073741824, got 2/
    });
    await assert.rejects(buildAtlas(['sprites/shot.gif'], { cwd: dir, polygons: 'yes' as unknown as boolean }), {
        name: 'TypeError',
        message: /polygons must be a boolean or a \{ tolerance, maxVertices \} object, got "yes"/
    });
});

test('cli build --polygons: flags checked, help lists them', () => {
    fails(
        ['build', 'sprites', '--tolerance-px', '1', '-o', 'x.hitmask'],
        /--tolerance-px and --max-vertices need --polygons/
    );
    fails(
        ['build', 'sprites', '--max-vertices', '6', '-o', 'x.hitmask'],
        /--tolerance-px and --max-vertices need --polygons/
    );
    fails(
        ['build', 'sprites', '--polygons', '--tolerance-px', '-1', '-o', 'x.hitmask'],
        /--tolerance-px.*expected a finite number >= 0/
    );
    fails(
        ['build', 'sprites', '--polygons', '--max-vertices', '2', '-o', 'x.hitmask'],
        /--max-vertices.*expected an integer >= 3/
    );
    fails(
        ['build', 'sprites', '--polygons', '--key-tolerance', '3', '-o', 'x.hitmask'],
        /--key-tolerance needs --color-key/
    );
    const help = run('build', '--help');
    assert.equal(help.code, 0);
    assert.match(help.out, /--polygons[\s\S]*--tolerance-px <T>[\s\S]*--max-vertices <N>[\s\S]*--key-tolerance <n>/);
});

test('cli inspect: reports stored polygons and pieces', () => {
    assert.equal(run('build', 'sprites', '--polygons', '-o', 'i.hitmask').code, 0);
    const atlas = MaskAtlas.from(new Uint8Array(readFileSync(join(dir, 'i.hitmask'))));
    const r = run('inspect', 'i.hitmask');
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trim().split('\n');
    assert.match(lines[0], /^i\.hitmask: \d+ frames; \d+ polygons \(\d+ holes?\), \d+ convex pieces, \d+ vertices$/);
    assert.match(lines[1], /^frame\s+size\s+offset\s+source\s+duration\s+polygons\s+pieces\s+fill$/);
    const chimp = atlas.frame('chimp');
    assert.ok(
        lines.some(l =>
            new RegExp(
                `^chimp\\s+\\S+\\s+\\S+\\s+\\S+\\s+\\S+\\s+${chimp.polygons?.length}\\s+${chimp.pieces?.length}\\s+\\d`
            ).test(l)
        ),
        r.out
    );
    const one = run('inspect', 'i.hitmask', '--frame', 'shot');
    assert.equal(one.code, 0, one.err);
    assert.match(
        one.out.split('\n')[0],
        /^shot: .*fill [\d.]+%, \d+ polygons? \(\d+ holes?\), \d+ convex pieces?, \d+ vertices$/
    );
    // A version 1 file: no polygon columns.
    assert.equal(run('build', 'sprites', '-o', 'n.hitmask').code, 0);
    const plain = run('inspect', 'n.hitmask');
    assert.doesNotMatch(plain.out, /polygons|pieces/);
});
