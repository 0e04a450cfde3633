// APNG decoding: frames composited per the specification, a zlib bomb refused at its declared size,
// bytes read where the view says (not from the start of its buffer), every structural error named, frame
// rasters equal to pngjs's RGBA for the same pixels, and no fixed cost per frame beyond its pixels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { syncBuiltinESMExports } from 'node:module';
import zlib, { deflateSync, type InputType, type ZlibOptions } from 'node:zlib';
import { buildAtlas, decodeFrames, decodeImage, readFrames } from '../src/node.js';
import { decodePngMask } from '../src/node/decode.js'; // internal: decodePngMask has no public entry
import { hiddenDefault } from './fixtures/animations.js';
import { concat, pngChunk, writeApngSpec, writePng, type ApngFrameSpec, type PngSpec } from './fixtures/png-writer.js';
import { allocations, cost, costText } from './work.js';
import { mulberry32 } from '../bench/timing.js';

// Every zlib.inflateSync call made while `fn` runs (the decoder's named import sees the wrapper once the
// builtin's exports are synced): how many, how many without an output limit, and the bytes they produced,
// a call stopped at its limit counting the limit.
async function inflation(fn: () => Promise<unknown>): Promise<{ calls: number; unlimited: number; bytes: number }> {
    const real = zlib.inflateSync,
        seen = { calls: 0, unlimited: 0, bytes: 0 };
    zlib.inflateSync = ((buf: InputType, options?: ZlibOptions) => {
        seen.calls++;
        const limit = options?.maxOutputLength;
        if (limit === undefined) seen.unlimited++;
        try {
            const out = real(buf, options) as Buffer | { buffer: Buffer };
            // With the `info` option the result is { buffer, engine }.
            seen.bytes += (Buffer.isBuffer(out) ? out : out.buffer).length;
            return out;
        } catch (e) {
            seen.bytes += limit ?? 0;
            throw e;
        }
    }) as typeof real;
    syncBuiltinESMExports();
    try {
        await fn();
    } finally {
        zlib.inflateSync = real;
        syncBuiltinESMExports();
    }
    return seen;
}

const rgba8 = (width: number, height: number, pixel: PngSpec['pixel']): PngSpec => ({
    width,
    height,
    colorType: 6,
    depth: 8,
    pixel
});
const solid =
    (r: number, g: number, b: number, a = 255) =>
    () => [r, g, b, a];
const px = (data: Uint8Array, width: number, x: number, y: number) =>
    Array.from(data.subarray((y * width + x) * 4, (y * width + x) * 4 + 4));
const frame = (
    x: number,
    y: number,
    width: number,
    height: number,
    pixel: ApngFrameSpec['pixel'],
    dispose: 0 | 1 | 2 = 0,
    blend: 0 | 1 = 0
): ApngFrameSpec => ({ x, y, width, height, pixel, dispose, blend });

// Samples as 8-bit RGBA the way the PNG specification maps them (grey scaled to 0..255, tRNS key transparent).
function expectedRgba(spec: PngSpec, samples: number[]): number[] {
    const max = 2 ** spec.depth - 1;
    const scale = (s: number) => (spec.depth === 16 ? Math.round((s * 255) / 65535) : Math.round((s * 255) / max));
    if (spec.colorType === 0) {
        const key = spec.trns ? (spec.trns[0] << 8) | spec.trns[1] : -1;
        const g = scale(samples[0]);
        return samples[0] === key ? [0, 0, 0, 0] : [g, g, g, 255];
    }
    if (spec.colorType === 6) return samples.map(scale);
    throw new Error(`no expectation for colour type ${spec.colorType}`);
}

test('APNG zlib bomb: frame data inflating past the frame size is refused fast, in every entry point', async () => {
    // A 100x100 frame needs 40,100 bytes; this stream inflates to 64 MiB (UPNG inflated it all, then accepted the file).
    const bomb = deflateSync(new Uint8Array(64 << 20), { level: 1 });
    const spec = rgba8(100, 100, solid(1, 2, 3));
    const files = [
        writeApngSpec(spec, [{ ...frame(0, 0, 100, 100, spec.pixel), zlib: bomb }]),
        writeApngSpec(spec, [
            frame(0, 0, 100, 100, spec.pixel),
            { ...frame(10, 10, 100 - 10, 100 - 10, spec.pixel), zlib: bomb }
        ])
    ];
    for (const [i, file] of files.entries()) {
        // Counted, not timed: zlib stops at the frame's size. UPNG inflated a 1 GiB stream whole (9.7 s, 2.1 GB).
        const sync = await inflation(async () =>
            assert.throws(
                () => decodeFrames(file),
                new RegExp(
                    `APNG frame ${i} is corrupt: its image data inflates to more than the \\d+ bytes a \\d+x\\d+ image needs`
                )
            )
        );
        const async = await inflation(() => assert.rejects(readFrames(file), /inflates to more than/));
        for (const n of [sync, async]) {
            assert.equal(n.unlimited, 0, 'every inflate has an output limit');
            // Frame 0 is 100x100 (40,100 bytes), frame 1 90x90 (32,490): at most both, never the 64 MiB.
            assert.ok(n.calls >= 1 && n.bytes <= 40_100 + 32_490, `inflated ${n.bytes} bytes in ${n.calls} calls`);
        }
    }
    assert.throws(
        () => decodeImage(files[0]),
        /PNG is corrupt: its image data inflates to more than the 40100 bytes a 100x100 image needs/
    );
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'hitmask-bomb-'));
    try {
        writeFileSync(join(dir, 'bomb.png'), files[1]);
        await assert.rejects(
            buildAtlas(['bomb.png'], { cwd: dir }),
            /bomb\.png: APNG frame 1 is corrupt: its image data inflates to more than/
        );
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
});

test('APNG in a Buffer view: the bytes the view covers are decoded, not its whole buffer', () => {
    const spec = rgba8(3, 2, solid(10, 20, 30));
    const before = writeApngSpec(rgba8(3, 2, solid(200, 0, 0)), [
        frame(0, 0, 3, 2, solid(200, 0, 0)),
        frame(0, 0, 1, 1, solid(0, 200, 0))
    ]);
    const apng = writeApngSpec(spec, [frame(0, 0, 3, 2, spec.pixel), frame(2, 1, 1, 1, solid(0, 0, 99))]);
    const want = decodeFrames(Uint8Array.from(apng));
    assert.deepEqual(px(want[1].data, 3, 2, 1), [0, 0, 99, 255]);
    // An earlier image in the same memory (a Buffer pool, a file read into a larger buffer): UPNG decoded that one.
    const pool = Buffer.concat([before, apng]);
    assert.deepEqual(decodeFrames(pool.subarray(before.length)), want);
    const shifted = Buffer.concat([new Uint8Array(5), apng]).subarray(5);
    assert.deepEqual(decodeFrames(shifted), want);
    assert.deepEqual(decodeFrames(new Uint8Array(pool.buffer, pool.byteOffset + before.length, apng.length)), want);
});

test('APNG compositing: dispose PREVIOUS after BACKGROUND restores the cleared canvas', () => {
    const spec = rgba8(4, 1, solid(255, 0, 0));
    const frames = decodeFrames(
        writeApngSpec(spec, [
            frame(0, 0, 4, 1, spec.pixel, 1),
            frame(0, 0, 2, 1, solid(0, 255, 0), 2),
            frame(3, 0, 1, 1, solid(0, 0, 255))
        ])
    );
    const row = (i: number) => [0, 1, 2, 3].map(x => px(frames[i].data, 4, x, 0));
    const clear = [0, 0, 0, 0],
        red = [255, 0, 0, 255],
        green = [0, 255, 0, 255],
        blue = [0, 0, 255, 255];
    assert.deepEqual(row(0), [red, red, red, red]);
    assert.deepEqual(row(1), [green, green, clear, clear]);
    assert.deepEqual(row(2), [clear, clear, clear, blue]);
});

test('APNG compositing: a first frame disposed to PREVIOUS is disposed to BACKGROUND (the specification), not refused', () => {
    const spec = rgba8(3, 3, solid(9, 9, 9));
    const frames = decodeFrames(
        writeApngSpec(spec, [frame(0, 0, 3, 3, spec.pixel, 2), frame(1, 1, 1, 1, solid(5, 6, 7))])
    );
    assert.equal(frames.length, 2);
    assert.deepEqual(px(frames[0].data, 3, 0, 0), [9, 9, 9, 255]);
    const second = new Uint8Array(36);
    second.set([5, 6, 7, 255], 16);
    assert.deepEqual(frames[1].data, second);
});

test('APNG compositing: interlaced sub-frames and 1/2/4-bit grey rows decode to their own pixels', () => {
    const sub = (x: number, y: number) => (x * 3 + y * 5) % 7;
    const specs: PngSpec[] = [
        { ...rgba8(9, 7, (x, y) => [x * 20, y * 30, 7, 255]), interlace: true },
        ...[1, 2, 4].flatMap(depth =>
            [false, true].map(interlace => ({
                width: 9,
                height: 7,
                colorType: 0 as const,
                depth: depth as 1 | 2 | 4,
                interlace,
                trns: [0, 1],
                pixel: (x: number, y: number) => [(x + 2 * y) % 2 ** depth]
            }))
        )
    ];
    for (const spec of specs) {
        const name = `colour type ${spec.colorType}, ${spec.depth}-bit${spec.interlace ? ', interlaced' : ''}`;
        const subPixel = (x: number, y: number) =>
            spec.colorType === 6 ? [sub(x, y) * 30, 255 - x * 9, y, 255] : [sub(x, y) % 2 ** spec.depth];
        // Odd sizes and offsets: interlace passes with empty columns and partial bytes at row ends.
        const frames = decodeFrames(
            writeApngSpec(spec, [
                frame(0, 0, 9, 7, spec.pixel),
                frame(2, 1, 5, 3, subPixel),
                frame(8, 6, 1, 1, subPixel)
            ])
        );
        for (let y = 0; y < 7; y++) {
            for (let x = 0; x < 9; x++) {
                assert.deepEqual(
                    px(frames[0].data, 9, x, y),
                    expectedRgba(spec, spec.pixel(x, y)),
                    `${name}: frame 0 (${x}, ${y})`
                );
                const inside = x >= 2 && x < 7 && y >= 1 && y < 4;
                assert.deepEqual(
                    px(frames[1].data, 9, x, y),
                    expectedRgba(spec, inside ? subPixel(x - 2, y - 1) : spec.pixel(x, y)),
                    `${name}: frame 1 (${x}, ${y})`
                );
            }
        }
        assert.deepEqual(px(frames[2].data, 9, 8, 6), expectedRgba(spec, subPixel(0, 0)), name);
    }
});

test('APNG compositing: blend OVER mixes straight alpha; SOURCE replaces', () => {
    const spec = rgba8(2, 1, solid(200, 100, 0, 128));
    const frames = decodeFrames(
        writeApngSpec(spec, [
            frame(0, 0, 2, 1, spec.pixel),
            frame(0, 0, 1, 1, solid(0, 0, 255, 128), 0, 1),
            frame(1, 0, 1, 1, solid(0, 0, 255, 0), 0, 1),
            frame(1, 0, 1, 1, solid(0, 0, 255, 0), 0, 0)
        ])
    );
    // alpha = 128 + 128 * 127 / 255 = 191.75; colour = (src * 128 * 255 + dst * 128 * 127) / (191.75 * 255), rounded.
    assert.deepEqual(px(frames[1].data, 2, 0, 0), [66, 33, 170, 192]);
    assert.deepEqual(px(frames[2].data, 2, 1, 0), [200, 100, 0, 128]);
    assert.deepEqual(px(frames[3].data, 2, 1, 0), [0, 0, 255, 0]);
});

test('APNG whose default image is not a frame: decodeFrames gives the animation, decodeImage the default image', () => {
    const a = hiddenDefault();
    const frames = decodeFrames(a.bytes);
    assert.equal(frames.length, 2);
    assert.deepEqual(px(frames[0].data, 6, 0, 0), [0, 0, 0, 0]);
    assert.deepEqual(px(decodeImage(a.bytes).data, 6, 0, 0), [255, 0, 255, 255]);
});

test('APNG: truncated or short frame data is refused, not decoded to a partial frame', () => {
    const spec = rgba8(4, 4, solid(1, 2, 3));
    const full = deflateSync(new Uint8Array(2 * (1 + 2 * 4)));
    const cases: [string, Uint8Array, RegExp][] = [
        // The zlib stream of a 2x2 frame cut in half: UPNG accepted it.
        [
            'cut stream',
            full.subarray(0, full.length >> 1),
            /APNG frame 1 is corrupt: its image data does not inflate \(unexpected end of file\)/
        ],
        // A complete stream holding one row of two.
        [
            'short stream',
            deflateSync(new Uint8Array(1 + 2 * 4)),
            /APNG frame 1 is truncated or corrupt: its image data inflates to 9 bytes, expected 18/
        ],
        ['empty stream', new Uint8Array(0), /APNG frame 1 is corrupt: its image data does not inflate/]
    ];
    for (const [what, zlib, re] of cases) {
        const file = writeApngSpec(spec, [
            frame(0, 0, 4, 4, spec.pixel),
            { ...frame(1, 1, 2, 2, solid(9, 9, 9)), zlib }
        ]);
        assert.throws(() => decodeFrames(file), re, what);
    }
});

test("APNG: data after the end of a frame's zlib stream (a repeated IDAT or fdAT) is refused, as pngjs refuses it in a still PNG", () => {
    const spec = rgba8(4, 4, solid(1, 2, 3));
    const z = deflateSync(new Uint8Array(2 * (1 + 2 * 4))),
        twice = concat([z, z]);
    const file = writeApngSpec(spec, [
        frame(0, 0, 4, 4, spec.pixel),
        { ...frame(1, 1, 2, 2, solid(9, 9, 9)), zlib: twice }
    ]);
    assert.throws(
        () => decodeFrames(file),
        new RegExp(
            `^Error: APNG frame 1 is corrupt: its image data has ${z.length} bytes after the end of its zlib stream\\.$`
        )
    );
    // The default image as frame 0, and the still PNG's every path: the same refusal.
    const still = rechunk(writePng(spec), (t, d) => (t === 'IDAT' ? [pngChunk(t, d), pngChunk(t, d)] : null));
    const animated = rechunk(file, (t, d) => (t === 'IDAT' ? [pngChunk(t, d), pngChunk(t, d)] : null));
    assert.throws(
        () => decodeFrames(animated),
        /^Error: APNG frame 0 is corrupt: its image data has \d+ bytes after the end of its zlib stream/
    );
    assert.throws(
        () => decodeImage(animated),
        /^Error: PNG is corrupt: its image data has \d+ bytes after the end of its zlib stream/
    );
    assert.throws(
        () => decodeImage(still),
        /^Error: PNG is corrupt: its image data has \d+ bytes after the end of its zlib stream/
    );
    assert.throws(
        () => decodePngMask(still, 127),
        /^Error: PNG is corrupt: its image data has \d+ bytes after the end of its zlib stream/
    );
});

// Rewrites the chunks of `file` with `edit` (type, data) → replacement chunks, CRCs recomputed.
function rechunk(
    file: Uint8Array,
    edit: (type: string, data: Uint8Array, index: number) => Uint8Array[] | null
): Uint8Array {
    const parts = [file.subarray(0, 8)];
    const dv = new DataView(file.buffer, file.byteOffset, file.length);
    for (let p = 8, i = 0; p < file.length; i++) {
        const len = dv.getUint32(p),
            type = String.fromCharCode(...file.subarray(p + 4, p + 8)),
            data = file.subarray(p + 8, p + 8 + len);
        parts.push(...(edit(type, data, i) ?? [pngChunk(type, data)]));
        p += 12 + len;
    }
    return concat(parts);
}

test('APNG: structural errors are named', () => {
    const spec = rgba8(4, 4, solid(1, 2, 3));
    const good = writeApngSpec(spec, [frame(0, 0, 4, 4, spec.pixel), frame(1, 1, 2, 2, solid(9, 9, 9), 1, 1)]);
    assert.equal(decodeFrames(good).length, 2);
    const u32 = (d: Uint8Array, at: number, v: number) => {
        const c = d.slice();
        new DataView(c.buffer).setUint32(at, v);
        return c;
    };
    const cases: [string, Uint8Array, RegExp][] = [
        [
            'sequence',
            rechunk(good, (t, d) => (t === 'fdAT' ? [pngChunk(t, u32(d, 0, 7))] : null)),
            /APNG is corrupt: fdAT at byte \d+ has sequence number 7, expected 2/
        ],
        [
            'fcTL sequence',
            rechunk(good, (t, d) => (t === 'fcTL' && d[3] === 1 ? [pngChunk(t, u32(d, 0, 0))] : null)),
            /fcTL at byte \d+ has sequence number 0, expected 1/
        ],
        [
            'dispose op',
            rechunk(good, (t, d) =>
                t === 'fcTL' && d[3] === 1 ? [pngChunk(t, Uint8Array.from([...d.subarray(0, 24), 3, 0]))] : null
            ),
            /APNG is corrupt: frame 1 has dispose op 3 and blend op 0, expected 0..2 and 0..1/
        ],
        [
            'outside',
            rechunk(good, (t, d) => (t === 'fcTL' && d[3] === 1 ? [pngChunk(t, u32(d, 12, 3))] : null)),
            /APNG is corrupt: frame 1 is 2x2 at \(3, 1\), outside the 4x4 canvas/
        ],
        [
            'first frame smaller',
            rechunk(good, (t, d) => (t === 'fcTL' && d[3] === 0 ? [pngChunk(t, u32(d, 4, 3))] : null)),
            /the frame before the image data is not the first or does not cover the whole canvas/
        ],
        [
            'no fdAT',
            rechunk(good, t => (t === 'fdAT' ? [] : null)),
            /APNG is corrupt: frame 1 has no image data \(no fdAT chunk\)/
        ],
        [
            'frame count',
            rechunk(good, (t, d) => (t === 'acTL' ? [pngChunk(t, u32(d, 0, 3))] : null)),
            /acTL declares 3 frames but 2 fcTL chunks follow/
        ],
        [
            'zero frames',
            rechunk(good, (t, d) => (t === 'acTL' ? [pngChunk(t, u32(d, 0, 0))] : null)),
            /acTL declares 0 frames/
        ],
        [
            'acTL after IDAT',
            rechunk(writePng(spec), (t, d) =>
                t === 'IDAT' ? [pngChunk(t, d), pngChunk('acTL', Uint8Array.from([0, 0, 0, 1, 0, 0, 0, 0]))] : null
            ),
            /acTL at byte \d+ must come once, before the image data/
        ],
        [
            'two acTL',
            rechunk(good, (t, d) => (t === 'acTL' ? [pngChunk(t, d), pngChunk(t, d)] : null)),
            /acTL at byte \d+ must come once/
        ],
        [
            'fcTL without acTL',
            rechunk(good, t => (t === 'acTL' ? [] : null)),
            /fcTL at byte \d+ comes before any acTL chunk/
        ],
        [
            'fdAT for the default image',
            rechunk(good, (t, d) =>
                t === 'fcTL' && d[3] === 1 ? [] : t === 'fdAT' ? [pngChunk(t, u32(d, 0, 1))] : null
            ),
            /fdAT at byte \d+ belongs to no frame/
        ],
        [
            'short fcTL',
            rechunk(good, (t, d) => (t === 'fcTL' && d[3] === 1 ? [pngChunk(t, d.subarray(0, 25))] : null)),
            /fcTL at byte \d+ has 25 bytes, expected 26/
        ],
        [
            'short fdAT',
            rechunk(good, t => (t === 'fdAT' ? [pngChunk(t, Uint8Array.from([0, 0, 2]))] : null)),
            /fdAT at byte \d+ is shorter than 4 bytes/
        ],
        [
            'split IDAT',
            rechunk(good, (t, d) =>
                t === 'IDAT'
                    ? [
                          pngChunk(t, d.subarray(0, 5)),
                          pngChunk('tEXt', Uint8Array.from([97, 0, 98])),
                          pngChunk(t, d.subarray(5))
                      ]
                    : null
            ),
            /IDAT at byte \d+ does not follow the other IDAT chunks/
        ],
        [
            'second PLTE',
            rechunk(good, (t, d) =>
                t === 'IHDR'
                    ? [pngChunk(t, d), pngChunk('PLTE', new Uint8Array(3)), pngChunk('PLTE', new Uint8Array(3))]
                    : null
            ),
            /a second PLTE chunk at byte \d+/
        ],
        [
            'tRNS after IDAT',
            rechunk(good, (t, d) => (t === 'IEND' ? [pngChunk('tRNS', new Uint8Array(6)), pngChunk(t, d)] : null)),
            /tRNS at byte \d+ comes after the image data/
        ]
    ];
    for (const [what, file, re] of cases) assert.throws(() => decodeFrames(file), re, what);
});

test('APNG budget: every frame of the canvas is charged before any is decoded', () => {
    const spec = rgba8(4, 3, solid(1, 1, 1));
    const file = writeApngSpec(spec, [
        frame(0, 0, 4, 3, spec.pixel),
        frame(0, 0, 1, 1, solid(2, 2, 2)),
        frame(0, 0, 1, 1, solid(3, 3, 3))
    ]);
    assert.equal(decodeFrames(file, { maxBytes: 4 * 3 * 4 * 3 }).length, 3);
    assert.throws(
        () => decodeFrames(file, { maxBytes: 4 * 3 * 4 * 3 - 1 }),
        (e: Error) =>
            e instanceof RangeError &&
            /Image is 4x3 with 3 frames, which needs 0.000 MiB of RGBA, more than the 0.000 MiB budget; raise maxBytes/.test(
                e.message
            )
    );
});

const COMBOS: [PngSpec['colorType'], PngSpec['depth']][] = [
    [0, 1],
    [0, 2],
    [0, 4],
    [0, 8],
    [0, 16],
    [2, 8],
    [2, 16],
    [3, 1],
    [3, 2],
    [3, 4],
    [3, 8],
    [4, 8],
    [4, 16],
    [6, 8],
    [6, 16]
];

// A random image of one colour type and depth with a random filter type per scanline: palettes of any size
// with tRNS alphas for some entries; a grey or RGB tRNS key that about a third of the pixels hit, and more miss by one sample.
function randomImage(colorType: PngSpec['colorType'], depth: PngSpec['depth'], rnd: () => number): PngSpec {
    const int = (n: number) => Math.floor(rnd() * n),
        max = 2 ** depth - 1;
    const width = 1 + int(19),
        height = 1 + int(11),
        channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
    const entries = colorType === 3 ? 1 + int(max + 1) : 0;
    const key =
        (colorType === 0 || colorType === 2) && rnd() < 0.8
            ? Array.from({ length: channels }, () => int(max + 1))
            : null;
    // The key, the key with one sample off by one, or random samples.
    const pick = (r: number) =>
        key && r < 0.3
            ? key
            : key && r < 0.5
              ? key.map((v, c) => (c === int(channels) ? (v + 1) % (max + 1) : v))
              : null;
    const samples = Array.from(
        { length: width * height },
        () => pick(rnd()) ?? Array.from({ length: channels }, () => int(entries || max + 1))
    );
    const spec: PngSpec = {
        width,
        height,
        colorType,
        depth,
        interlace: rnd() < 0.5,
        filter: () => int(5),
        pixel: (x, y) => samples[y * width + x]
    };
    if (entries) spec.palette = Array.from({ length: entries }, () => [int(256), int(256), int(256)]);
    const alphas = int(entries + 1);
    if (alphas) spec.trns = Array.from({ length: alphas }, () => [0, 255, int(256)][int(3)]);
    if (key) spec.trns = key.flatMap(k => [k >> 8, k & 255]);
    return spec;
}

test('APNG frames decode to the RGBA pngjs gives for the same pixels in a still PNG: every colour type, bit depth, tRNS, interlacing and filter type', () => {
    const rnd = mulberry32(7070);
    for (let n = 0; n < 450; n++) {
        const [colorType, depth] = COMBOS[n % COMBOS.length];
        const spec = randomImage(colorType, depth, rnd);
        const want = decodeImage(writePng(spec)).data;
        // One frame, the default image, replacing the transparent canvas: the frame's raster exactly.
        const [got] = decodeFrames(writeApngSpec(spec, [frame(0, 0, spec.width, spec.height, spec.pixel)]));
        assert.deepEqual(
            got.data,
            want,
            `image ${n}: colour type ${colorType}, ${depth}-bit, ${spec.width}x${spec.height}${spec.interlace ? ', interlaced' : ''}${spec.trns ? ', tRNS' : ''}`
        );
    }
});

test('APNG frames: a bad filter type or palette index is named, with the frame', () => {
    const spec: PngSpec = {
        width: 3,
        height: 2,
        colorType: 3,
        depth: 2,
        palette: [
            [1, 2, 3],
            [4, 5, 6]
        ],
        pixel: x => [x % 2]
    };
    const file = (zlib: Uint8Array) =>
        writeApngSpec(spec, [frame(0, 0, 3, 2, spec.pixel), { ...frame(0, 0, 3, 2, spec.pixel), zlib }]);
    assert.throws(
        () => decodeFrames(file(deflateSync(Uint8Array.from([0, 0b00011000, 0, 0b00011000])))),
        /^Error: APNG frame 1 is corrupt: palette index 2 at \(2, 0\) is not in its 2-entry palette\.$/
    );
    assert.throws(
        () => decodeFrames(file(deflateSync(Uint8Array.from([0, 0, 5, 0])))),
        /^Error: APNG frame 1 is corrupt: scanline 1 has filter type 5, expected 0..4\.$/
    );
});

// What `fn` allocates: typed arrays (test/work.ts), and Buffers from the Buffer.alloc family, through which
// zlib allocates its output chunks and pngjs its buffers (Buffer.concat too).
function allocated(fn: () => void): { count: number; bytes: number } {
    const B = Buffer as unknown as Record<string, (...args: unknown[]) => Buffer>;
    const names = ['alloc', 'allocUnsafe', 'allocUnsafeSlow'],
        real = names.map(k => B[k]);
    const seen = { count: 0, bytes: 0 };
    names.forEach((k, i) => {
        B[k] = (...args: unknown[]) => {
            const b = real[i].apply(Buffer, args);
            seen.count++;
            seen.bytes += b.length;
            return b;
        };
    });
    try {
        const a = allocations(fn);
        return { count: seen.count + a.count, bytes: seen.bytes + a.bytes };
    } finally {
        names.forEach((k, i) => {
            B[k] = real[i];
        });
    }
}

test("APNG of 20,000 1x1 frames: each frame allocates about its own pixels, not a still PNG's decode", t => {
    const n = 20_000;
    const spec = rgba8(1, 1, solid(0, 0, 0));
    const file = writeApngSpec(
        spec,
        Array.from({ length: n }, (_, i) => frame(0, 0, 1, 1, solid(i & 255, 1, 2)))
    );
    let frames: { data: Uint8Array }[] = [];
    const a = allocated(() => {
        frames = decodeFrames(file);
    });
    assert.equal(frames.length, n);
    assert.deepEqual(Array.from(frames[n - 1].data), [(n - 1) & 255, 1, 2, 255]);
    const c = cost(() => decodeFrames(file));
    t.diagnostic(
        `${file.length} bytes, ${n} frames: ${a.count} allocations, ${a.bytes} bytes (${(a.bytes / n).toFixed(0)} per frame); ${costText(c)}`
    );
    // Each frame needs its 4-byte RGBA and a few bytes of inflated scanlines. Through pngjs each frame cost a
    // still PNG written, parsed and inflated again, and zlib's default 16 KiB output chunk: 16.5 KiB a frame.
    assert.ok(a.bytes / n < 1024, `${(a.bytes / n).toFixed(0)} bytes allocated per frame`);
    assert.ok(a.count / n <= 3, `${(a.count / n).toFixed(1)} allocations per frame`);
});
