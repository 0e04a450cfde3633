import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import omggif from 'omggif';
import { Mask } from '../src/index.js';
import { decodeFrames, decodeImage, readFrames, readImage } from '../src/node.js';
import { imageSize } from '../src/node/decode.js'; // internal: imageSize has no public entry
import { DEFAULT_MAX_BYTES } from '../src/node/image.js'; // internal: DEFAULT_MAX_BYTES has no public entry
import { concat, pngChunk, writeApng, writePng, type PngSpec } from './fixtures/png-writer.js';

const SPRITES = new URL('./fixtures/sprites/', import.meta.url);
const expected = JSON.parse(readFileSync(new URL('expected.json', SPRITES), 'utf8')) as {
    masks: Record<string, { width: number; height: number; count: number; rows: string[] }>;
};

test('golden: pygame sprites decode to the masks pygame computes', async () => {
    const names = Object.keys(expected.masks);
    assert.ok(names.length >= 9);
    for (const name of names) {
        const e = expected.masks[name];
        const image = await readImage(new URL(name, SPRITES).pathname);
        assert.deepEqual(
            [image.width, image.height, image.data.length],
            [e.width, e.height, e.width * e.height * 4],
            name
        );
        const mask = Mask.fromRGBA(image.data, image.width, image.height, { threshold: 127 });
        assert.equal(mask.count(), e.count, name);
        assert.equal(mask.toText(), e.rows.join('\n'), name);
    }
});

const W = 13,
    H = 11;
const v = (x: number, y: number, mod: number) => (x * 7 + y * 13 + x * y) % mod;

interface Variant {
    name: string;
    spec: PngSpec;
    rgba: (x: number, y: number) => number[];
}

function variants(): Variant[] {
    const out: Variant[] = [];
    for (const interlace of [false, true]) {
        const il = interlace ? ' interlaced' : '';
        out.push({
            name: `rgba8${il}`,
            spec: {
                width: W,
                height: H,
                colorType: 6,
                depth: 8,
                interlace,
                pixel: (x, y) => [v(x, y, 256), x * 19, y * 23, v(x, y, 251)]
            },
            rgba: (x, y) => [v(x, y, 256), x * 19, y * 23, v(x, y, 251)]
        });
        out.push({
            name: `rgba16${il}`,
            spec: {
                width: W,
                height: H,
                colorType: 6,
                depth: 16,
                interlace,
                pixel: (x, y) => [v(x, y, 256) * 257, x * 19 * 257, 5, v(x, y, 251) * 257]
            },
            // 5 / 65535 scaled to 8 bits rounds to 0.
            rgba: (x, y) => [v(x, y, 256), x * 19, 0, v(x, y, 251)]
        });
        for (const depth of [8, 16] as const) {
            const k = depth === 16 ? 257 : 1;
            out.push({
                name: `grey+alpha${depth}${il}`,
                spec: {
                    width: W,
                    height: H,
                    colorType: 4,
                    depth,
                    interlace,
                    pixel: (x, y) => [v(x, y, 256) * k, v(x, y, 199) * k]
                },
                rgba: (x, y) => {
                    const g = v(x, y, 256);
                    return [g, g, g, v(x, y, 199)];
                }
            });
        }
        for (const depth of [1, 2, 4, 8, 16] as const) {
            const max = 2 ** depth - 1,
                mod = Math.min(max + 1, 256),
                scale = depth === 16 ? 257 : 1;
            const key = 1 % mod;
            out.push({
                name: `grey${depth}+tRNS${il}`,
                spec: {
                    width: W,
                    height: H,
                    colorType: 0,
                    depth,
                    interlace,
                    pixel: (x, y) => [v(x, y, mod) * scale],
                    trns: [(key * scale) >>> 8, (key * scale) & 255]
                },
                rgba: (x, y) => {
                    const s = v(x, y, mod),
                        g = depth === 16 ? s : Math.round((s * 255) / max);
                    return s === key ? [0, 0, 0, 0] : [g, g, g, 255];
                }
            });
        }
        out.push({
            name: `rgb8+tRNS${il}`,
            spec: {
                width: W,
                height: H,
                colorType: 2,
                depth: 8,
                interlace,
                pixel: (x, y) => [v(x, y, 3) * 10, 20, 30],
                trns: [0, 10, 0, 20, 0, 30]
            },
            rgba: (x, y) => (v(x, y, 3) === 1 ? [0, 0, 0, 0] : [v(x, y, 3) * 10, 20, 30, 255])
        });
        out.push({
            name: `rgb16${il}`,
            spec: {
                width: W,
                height: H,
                colorType: 2,
                depth: 16,
                interlace,
                pixel: (x, y) => [v(x, y, 256) * 257, 0xffff, 0]
            },
            rgba: (x, y) => [v(x, y, 256), 255, 0, 255]
        });
        for (const depth of [1, 2, 4, 8] as const) {
            const n = 2 ** depth;
            const palette = Array.from(
                { length: n },
                (_, i) => [i, 255 - i, (i * 37) & 255] as [number, number, number]
            );
            const alphas = [0, 100, 200].slice(0, Math.min(3, n - 1));
            out.push({
                name: `palette${depth}+tRNS${il}`,
                spec: {
                    width: W,
                    height: H,
                    colorType: 3,
                    depth,
                    interlace,
                    palette,
                    pixel: (x, y) => [v(x, y, n)],
                    trns: alphas
                },
                rgba: (x, y) => {
                    const i = v(x, y, n);
                    return [...palette[i], i < alphas.length ? alphas[i] : 255];
                }
            });
        }
    }
    return out;
}

test('PNG: every colour type, bit depth, tRNS and interlacing decodes to 8-bit RGBA', () => {
    const list = variants();
    assert.equal(list.length, 30);
    for (const { name, spec, rgba } of list) {
        const image = decodeImage(writePng(spec));
        assert.deepEqual([image.width, image.height], [W, H], name);
        const want = new Uint8Array(W * H * 4);
        for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) want.set(rgba(x, y), (y * W + x) * 4);
        assert.deepEqual(image.data, want, name);
    }
});

test('PNG: imageSize reads the header only', () => {
    const png = writePng({ width: 300, height: 7, colorType: 6, depth: 8, pixel: () => [0, 0, 0, 0] });
    assert.deepEqual(imageSize(png), { width: 300, height: 7 });
    assert.deepEqual(imageSize(readFileSync(new URL('player1.gif', SPRITES))), { width: 90, height: 61 });
});

// A PNG whose IHDR declares width x height, with a tiny (wrong) IDAT: only the header may be trusted.
function hugePng(width: number, height: number): Uint8Array {
    const ihdr = new Uint8Array(13);
    new DataView(ihdr.buffer).setUint32(0, width);
    new DataView(ihdr.buffer).setUint32(4, height);
    ihdr.set([8, 6, 0, 0, 0], 8);
    return concat([
        Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        pngChunk('IHDR', ihdr),
        pngChunk('IDAT', deflateSync(new Uint8Array(10))),
        pngChunk('IEND', new Uint8Array(0))
    ]);
}

test('budget: images larger than the budget are refused from the header', () => {
    assert.equal(DEFAULT_MAX_BYTES, 256 * 1024 * 1024);
    assert.throws(
        () => decodeImage(hugePng(100000, 100000)),
        /Image is 100000x100000, which needs 38147 MiB of RGBA, more than the 256 MiB budget; raise maxBytes/
    );
    assert.throws(() => decodeImage(hugePng(2 ** 31 - 1, 2 ** 31 - 1)), /more than the 256 MiB budget/);
    const small = writePng({ width: 20, height: 20, colorType: 6, depth: 8, pixel: () => [1, 2, 3, 4] });
    assert.throws(
        () => decodeImage(small, { maxBytes: 1599 }),
        /Image is 20x20, which needs 0.002 MiB of RGBA, more than the 0.002 MiB budget/
    );
    assert.equal(decodeImage(small, { maxBytes: 1600 }).data.length, 1600);
    // A GIF declaring a 65535x65535 screen.
    const gif = readFileSync(new URL('shot.gif', SPRITES)).slice();
    gif.set([0xff, 0xff, 0xff, 0xff], 6);
    assert.throws(() => decodeImage(gif), /Image is 65535x65535, which needs 16384 MiB/);
    assert.throws(() => decodeImage(small, { maxBytes: -1 }), /maxBytes must be an integer/);
});

test('PNG: corrupt and hostile files throw clear errors', () => {
    const png = writePng({ width: 16, height: 16, colorType: 6, depth: 8, pixel: (x, y) => [x, y, 0, 255] });
    const sig = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const ihdr = png.subarray(8, 33);
    const end = pngChunk('IEND', new Uint8Array(0));
    const flipped = png.slice();
    flipped[40] ^= 4;
    // Interlaced 4x4 RGBA needs 4+4+4+8+8+16+16 = ... bytes; give it far more (a small zip bomb).
    const bombIhdr = new Uint8Array(13);
    new DataView(bombIhdr.buffer).setUint32(0, 16);
    new DataView(bombIhdr.buffer).setUint32(4, 16);
    bombIhdr.set([8, 6, 0, 0, 1], 8);
    const cases: [string, Uint8Array, RegExp][] = [
        [
            'truncated',
            png.subarray(0, png.length - 20),
            /PNG is truncated or corrupt: chunk "IDAT" at byte \d+ declares \d+ bytes, past the end/
        ],
        ['no IEND', png.subarray(0, png.length - 12), /PNG is truncated: it ends before its IEND chunk/],
        ['cut header', png.subarray(0, 14), /PNG is truncated: chunk header at byte 8 is cut off/],
        ['crc', flipped, /PNG is corrupt: chunk "IDA." at byte 33 fails its CRC check/],
        ['first chunk', concat([sig, end]), /first chunk is "IEND" \(0 bytes\), expected a 13-byte IHDR/],
        ['no IDAT', concat([sig, ihdr, end]), /PNG is corrupt: it has no IDAT image data/],
        [
            'bad depth',
            concat([sig, pngChunk('IHDR', Uint8Array.from([0, 0, 0, 1, 0, 0, 0, 1, 3, 2, 0, 0, 0])), end]),
            /colour type 2 with bit depth 3 is not a valid combination/
        ],
        ['zero size', hugePng(0, 5), /size 0x5 is invalid/],
        [
            'short data',
            concat([sig, ihdr, pngChunk('IDAT', deflateSync(new Uint8Array(100))), end]),
            /image data inflates to 100 bytes, expected 1040/
        ],
        [
            'zip bomb',
            concat([sig, pngChunk('IHDR', bombIhdr), pngChunk('IDAT', deflateSync(new Uint8Array(1 << 22))), end]),
            /inflates to more than the \d+ bytes a 16x16 image needs/
        ],
        [
            'bad zlib',
            concat([sig, ihdr, pngChunk('IDAT', Uint8Array.from([1, 2, 3, 4])), end]),
            /image data does not inflate/
        ],
        [
            'no palette',
            writePng({ width: 2, height: 2, colorType: 3, depth: 8, pixel: () => [0] }),
            /palette image has no PLTE chunk/
        ],
        [
            'format',
            new TextEncoder().encode('hello world'),
            /Unsupported image format \(first bytes: 68 65 6c 6c 6f 20 77 6f\); expected a PNG or GIF file/
        ]
    ];
    for (const [what, bytes, re] of cases) assert.throws(() => decodeImage(bytes), re, what);
});

test('readImage: file errors name the file', async () => {
    await assert.rejects(
        readImage('/nonexistent/alien.png'),
        /Cannot read image "\/nonexistent\/alien.png": no such file/
    );
    await assert.rejects(readImage(new URL('README.md', SPRITES).pathname), /README.md: Unsupported image format/);
    await assert.rejects(readImage(42 as unknown as string), /source must be a file path or a Uint8Array, got 42/);
});

test('decoder fuzz: seeded flips and truncations of PNG and GIF files throw or decode to the declared size', () => {
    const files = [
        writePng({
            width: 12,
            height: 9,
            colorType: 3,
            depth: 4,
            interlace: true,
            palette: Array.from({ length: 16 }, (_, i) => [i, i, i] as [number, number, number]),
            trns: [0, 128],
            pixel: (x, y) => [v(x, y, 16)]
        }),
        readFileSync(new URL('chimp.png', SPRITES)),
        readFileSync(new URL('shot.gif', SPRITES)),
        readFileSync(new URL('bomb.gif', SPRITES))
    ];
    for (const file of files) {
        const check = (b: Uint8Array) => {
            let image;
            try {
                image = decodeImage(b);
            } catch (e) {
                assert.ok(e instanceof Error && e.message.length > 0);
                return;
            }
            // GIF has no checksum: a flip inside the pixel data may give other pixels, but never a wrong size.
            assert.equal(image.data.length, image.width * image.height * 4);
        };
        fc.assert(
            fc.property(fc.nat(file.length - 1), fc.integer({ min: 1, max: 255 }), (at, xor) => {
                const b = file.slice();
                b[at] ^= xor;
                check(b);
            }),
            { seed: 11, numRuns: 400 }
        );
        for (let n = 0; n < file.length; n += 3) {
            const b = file.subarray(0, n);
            if (b[0] === 0x89) assert.throws(() => decodeImage(b), Error, `PNG prefix ${n}`);
            else check(b);
        }
    }
});

test('GIF: animation frames, delays, transparency and disposal', () => {
    const w = 6,
        h = 4;
    const buf = new Uint8Array(4096);
    const palette = [0x000000, 0xff0000, 0x00ff00, 0x0000ff];
    const gw = new omggif.GifWriter(buf, w, h, { palette, loop: 0 });
    gw.addFrame(0, 0, w, h, Array(w * h).fill(1), { delay: 10, disposal: 1 });
    // Frame 1: 2x2 at (1,1), index 0 transparent except one pixel; restored to background afterwards.
    gw.addFrame(1, 1, 2, 2, [0, 2, 0, 0], { delay: 20, transparent: 0, disposal: 2 });
    gw.addFrame(4, 0, 2, 1, [3, 3], { delay: 5 });
    const gif = buf.subarray(0, gw.end());
    const frames = decodeFrames(gif);
    assert.deepEqual(
        frames.map(f => f.delay),
        [100, 200, 50]
    );
    const px = (f: number, x: number, y: number) =>
        Array.from(frames[f].data.subarray((y * w + x) * 4, (y * w + x) * 4 + 4));
    assert.deepEqual(px(0, 0, 0), [255, 0, 0, 255]);
    assert.deepEqual(px(1, 1, 1), [255, 0, 0, 255]); // transparent index keeps what was below
    assert.deepEqual(px(1, 2, 1), [0, 255, 0, 255]);
    assert.deepEqual(px(2, 2, 1), [0, 0, 0, 0]); // frame 1's rectangle cleared by disposal 2
    assert.deepEqual(px(2, 3, 3), [255, 0, 0, 255]);
    assert.deepEqual(px(2, 5, 0), [0, 0, 255, 255]);
    assert.deepEqual(decodeImage(gif).data, frames[0].data);
});

test('GIF: interlaced rows are put back in order', () => {
    const w = 3,
        h = 10;
    const rows = Array.from({ length: h }, (_, y) => y % 4);
    const order = [0, 8, 4, 2, 6, 1, 3, 5, 7, 9];
    const buf = new Uint8Array(4096);
    const gw = new omggif.GifWriter(buf, w, h, { palette: [0x000000, 0x111111, 0x222222, 0x333333] });
    gw.addFrame(
        0,
        0,
        w,
        h,
        order.flatMap(y => Array(w).fill(rows[y]))
    );
    const gif = buf.slice(0, gw.end());
    // Set the interlace flag in the image descriptor (its packed byte follows x, y, w, h).
    const at = gif.indexOf(0x2c, 13 + 12);
    gif[at + 9] |= 0x40;
    const image = decodeImage(gif);
    for (let y = 0; y < h; y++) assert.equal(image.data[y * w * 4], rows[y] * 0x11, `row ${y}`);
});

test('GIF: bad LZW data and palettes throw', () => {
    const shot = readFileSync(new URL('shot.gif', SPRITES));
    const info = new omggif.GifReader(shot).frameInfo(0);
    const cut = shot.slice(0, info.data_offset + 10);
    assert.throws(() => decodeImage(cut), /GIF is truncated or corrupt|GIF is truncated/);
    const badCode = shot.slice();
    badCode[info.data_offset] = 12;
    assert.throws(() => decodeImage(badCode), /LZW minimum code size is 12, expected 1..11/);
    assert.throws(
        () => decodeImage(shot.subarray(0, 10)),
        /GIF is truncated: 10 bytes, shorter than its 13-byte header/
    );
    const noFrames = concat([shot.subarray(0, (info.palette_offset as number) + 48), Uint8Array.from([0x3b])]);
    assert.throws(() => decodeImage(noFrames), /GIF is corrupt: it has no image frames/);
});

test('APNG: frames composite (blend, disposal) to the expected images', () => {
    const w = 4,
        h = 3;
    const full = new Uint8Array(w * h * 4);
    for (let i = 0; i < w * h; i++) full.set([i * 20, 50, 60, i % 3 === 0 ? 0 : 255], i * 4);
    // Frame 1: 2x1 at (1, 2), blended over (alpha 0 keeps what is below), then disposed to transparent.
    const patchRgba = Uint8Array.from([9, 9, 9, 255, 1, 1, 1, 0]);
    // Frame 2: 1x1 at (3, 2), replacing.
    const dot = Uint8Array.from([7, 7, 7, 128]);
    const apng = writeApng(w, h, [
        { x: 0, y: 0, width: w, height: h, rgba: full, delayNum: 1, delayDen: 25, dispose: 0, blend: 0 },
        { x: 1, y: 2, width: 2, height: 1, rgba: patchRgba, delayNum: 80, delayDen: 0, dispose: 1, blend: 1 },
        { x: 3, y: 2, width: 1, height: 1, rgba: dot, delayNum: 3, delayDen: 1000, dispose: 0, blend: 0 }
    ]);
    const frames = decodeFrames(apng);
    assert.deepEqual(
        frames.map(f => f.delay),
        [40, 800, 3]
    );
    assert.deepEqual(frames[0].data, full);
    const f1 = full.slice();
    f1.set([9, 9, 9, 255], (2 * w + 1) * 4);
    assert.deepEqual(frames[1].data, f1);
    const f2 = full.slice();
    f2.fill(0, (2 * w + 1) * 4, (2 * w + 3) * 4);
    f2.set(dot, (2 * w + 3) * 4);
    assert.deepEqual(frames[2].data, f2);
    assert.deepEqual(decodeImage(apng).data, full);
    assert.throws(() => decodeFrames(apng, { maxBytes: w * h * 4 * 2 }), /Image is 4x3 with 3 frames/);
    // A frame outside the canvas is refused before decoding.
    const bad = writeApng(w, h, [
        { x: 0, y: 0, width: w, height: h, rgba: full, delayNum: 1, delayDen: 25, dispose: 0, blend: 0 },
        { x: 3, y: 2, width: 2, height: 1, rgba: patchRgba, delayNum: 1, delayDen: 25, dispose: 0, blend: 0 }
    ]);
    assert.throws(() => decodeFrames(bad), /APNG is corrupt: frame 1 is 2x1 at \(3, 2\), outside the 4x3 canvas/);
});

test('readFrames: a still image is one frame', async () => {
    const frames = await readFrames(new URL('alien1.png', SPRITES).pathname);
    assert.equal(frames.length, 1);
    assert.equal(frames[0].delay, 0);
    assert.equal(Mask.fromRGBA(frames[0].data, 80, 71).count(), expected.masks['alien1.png'].count);
});
