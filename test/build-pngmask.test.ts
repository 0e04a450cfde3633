// The direct PNG → mask path (decodePngMask) against the RGBA path (pngjs RGBA → Mask.fromRGBA) on generated PNGs
// of every colour type, bit depth, tRNS and interlacing, with every filter type, at thresholds around the edges;
// and on mutated files: both paths must fail, or give the same bits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mask } from '../src/index.js';
import { decodeImage } from '../src/node.js';
import { decodePngMask } from '../src/node/decode.js'; // internal: decodePngMask has no public entry
import { concat, fixCrcs, scanlines, writePng, type PngSpec } from './fixtures/png-writer.js';
import { mulberry32 } from '../bench/timing.js';

const PASSES = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2]
];
const CHANNELS = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 } as const;
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
const THRESHOLDS = [0, 1, 126, 127, 128, 200, 254, 255];

// Re-filters filter-type-0 scanlines with a random filter (0..4) per row.
function refilter(spec: PngSpec, raw: Uint8Array, rnd: () => number): Uint8Array {
    const bits = CHANNELS[spec.colorType] * spec.depth,
        bpp = Math.max(1, bits >> 3),
        out = raw.slice();
    const passes = spec.interlace ? PASSES : [[0, 0, 1, 1]];
    let pos = 0;
    for (const [x0, y0, dx, dy] of passes) {
        const w = Math.ceil((spec.width - x0) / dx),
            h = Math.ceil((spec.height - y0) / dy);
        if (w <= 0 || h <= 0) continue;
        const n = Math.ceil((w * bits) / 8);
        for (let j = 0; j < h; j++) {
            const o = pos + 1,
                p = j > 0 ? o - n - 1 : -1,
                f = Math.floor(rnd() * 5);
            out[pos] = f;
            for (let i = 0; i < n; i++) {
                const a = i >= bpp ? raw[o + i - bpp] : 0,
                    b = p >= 0 ? raw[p + i] : 0,
                    c = p >= 0 && i >= bpp ? raw[p + i - bpp] : 0;
                const pa = Math.abs(b - c),
                    pb = Math.abs(a - c),
                    pc = Math.abs(a + b - 2 * c);
                const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
                out[o + i] = (raw[o + i] - pred) & 255;
            }
            pos = o + n;
        }
    }
    return out;
}

// A PNG of `spec` whose IDAT holds `idat` (scanlines filtered some other way, or the wrong size).
const encode = (spec: PngSpec, idat: Uint8Array): Uint8Array => writePng(spec, [], idat);

// A random image of one colour type and depth: samples near the threshold's edges, tRNS keys that some pixels hit.
function randomSpec(colorType: PngSpec['colorType'], depth: PngSpec['depth'], rnd: () => number): PngSpec {
    const max = 2 ** depth - 1,
        width = 1 + Math.floor(rnd() * 70),
        height = 1 + Math.floor(rnd() * 40);
    const pick = (n: number) => Math.floor(rnd() * n);
    const sample = () => {
        if (rnd() < 0.5) return pick(max + 1);
        // Around 8-bit alpha 127/128 and the ends, at this depth.
        const edge = [
            0,
            max,
            Math.round((127 * max) / 255),
            Math.round((128 * max) / 255),
            Math.round((255 * max) / 255)
        ][pick(5)];
        return Math.min(max, Math.max(0, edge + pick(5) - 2));
    };
    const spec: PngSpec = { width, height, colorType, depth, interlace: rnd() < 0.5, pixel: () => [] };
    if (colorType === 3) {
        const entries = 1 + pick(max + 1);
        spec.palette = Array.from(
            { length: entries },
            () => [pick(256), pick(256), pick(256)] as [number, number, number]
        );
        if (rnd() < 0.7)
            spec.trns = Array.from({ length: 1 + pick(entries) }, () => [0, 255, 127, 128, pick(256)][pick(5)]);
        const px = Array.from({ length: width * height }, () => pick(entries));
        spec.pixel = (x, y) => [px[y * width + x]];
        return spec;
    }
    const ch = CHANNELS[colorType],
        px = Array.from({ length: width * height * ch }, sample);
    if ((colorType === 0 || colorType === 2) && rnd() < 0.8) {
        const key = Array.from({ length: ch }, () => pick(max + 1));
        // Mostly a key in range; sometimes one with bits above the depth, which no sample can equal.
        const wide = rnd() < 0.1 && depth < 16;
        spec.trns = key.flatMap(k => {
            const v = wide ? k | 0x100 : k;
            return [v >> 8, v & 255];
        });
        for (let i = 0; i < width * height; i++) if (rnd() < 0.3) for (let c = 0; c < ch; c++) px[i * ch + c] = key[c];
    }
    spec.pixel = (x, y) => px.slice((y * width + x) * ch, (y * width + x + 1) * ch);
    return spec;
}

function viaRGBA(bytes: Uint8Array, threshold: number): Mask {
    const im = decodeImage(bytes);
    return Mask.fromRGBA(im.data, im.width, im.height, { threshold });
}

test("decodePngMask: every colour type, bit depth, tRNS, interlacing and filter type gives the RGBA path's bits", () => {
    const rnd = mulberry32(18);
    let files = 0;
    for (const [colorType, depth] of COMBOS) {
        for (let k = 0; k < 24; k++) {
            const spec = randomSpec(colorType, depth, rnd);
            const bytes = encode(spec, refilter(spec, scanlines(spec), rnd));
            for (const t of [THRESHOLDS[k % THRESHOLDS.length], THRESHOLDS[(k * 3 + 1) % THRESHOLDS.length]]) {
                const want = viaRGBA(bytes, t),
                    got = decodePngMask(bytes, t);
                const ctx = `type ${colorType} depth ${depth} ${spec.width}x${spec.height}${spec.interlace ? ' interlaced' : ''} tRNS ${JSON.stringify(spec.trns)} threshold ${t}`;
                assert.ok(got, ctx);
                assert.equal(got.toText(), want.toText(), ctx);
            }
            files++;
        }
    }
    assert.equal(files, COMBOS.length * 24);
});

test('decodePngMask: GIF and APNG are left to the RGBA path (null); options and thresholds are checked', () => {
    const gif = Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0, 0, 0, 0x3b]);
    assert.equal(decodePngMask(gif, 127), null);
    const spec: PngSpec = { width: 3, height: 2, colorType: 6, depth: 8, pixel: x => [1, 2, 3, x * 100] };
    const png = encode(spec, scanlines(spec));
    assert.throws(() => decodePngMask(png, 256), RangeError);
    assert.throws(() => decodePngMask(png, 127, { maxBytes: 23 }), /needs .* MiB of RGBA/);
    assert.equal(decodePngMask(png, 127, { maxBytes: 24 })?.toText(), '..#\n..#');
    // A zlib bomb stops at the size the image needs, as on the RGBA path.
    const big: PngSpec = { width: 4, height: 4, colorType: 6, depth: 8, pixel: () => [0, 0, 0, 255] };
    const bomb = encode(big, new Uint8Array(64 << 20));
    assert.throws(
        () => decodePngMask(bomb, 127),
        /PNG is corrupt: its image data inflates to more than the 68 bytes a 4x4 image needs/
    );
    assert.throws(() => decodeImage(bomb), /inflates to more than the 68 bytes/);
});

test('decodePngMask: corrupt scanlines (filter types, palette indices, lengths, bombs) fail where the RGBA path fails, and agree where it decodes', () => {
    const rnd = mulberry32(1818);
    let failed = 0,
        agreed = 0;
    for (let n = 0; n < 1500; n++) {
        const [colorType, depth] = COMBOS[n % COMBOS.length];
        const spec = randomSpec(colorType, depth, rnd);
        let raw = refilter(spec, scanlines(spec), rnd);
        // Mutate the inflated data: a byte (often a filter byte or a palette index), a cut, or extra bytes.
        const r = rnd();
        if (r < 0.5) raw[Math.floor(rnd() * raw.length)] = [5, 255, 4, Math.floor(rnd() * 256)][Math.floor(rnd() * 4)];
        else if (r < 0.7) raw = raw.subarray(0, Math.floor(rnd() * raw.length));
        else if (r < 0.85) raw = concat([raw, new Uint8Array(1 + Math.floor(rnd() * 4))]);
        else if (spec.palette) {
            spec.palette = spec.palette.slice(0, 1 + Math.floor(rnd() * spec.palette.length));
            spec.trns = spec.trns?.slice(0, spec.palette.length);
        }
        const bytes = encode(spec, raw);
        let want: string | Error, got: string | Error;
        try {
            want = viaRGBA(bytes, 127).toText();
        } catch (e) {
            want = e as Error;
        }
        try {
            got = (decodePngMask(bytes, 127) as Mask).toText();
        } catch (e) {
            got = e as Error;
        }
        const ctx = `file ${n}: type ${colorType} depth ${depth}: RGBA path ${want instanceof Error ? want.message : 'decodes'}, mask path ${got instanceof Error ? got.message : 'decodes'}`;
        if (want instanceof Error) {
            assert.ok(got instanceof Error, ctx);
            assert.match(got.message, /^PNG is (corrupt|truncated)/, ctx);
            failed++;
        } else {
            assert.equal(got, want, ctx);
            agreed++;
        }
    }
    assert.ok(failed > 300 && agreed > 300, `${failed} failed, ${agreed} decoded`);
});

test('decodePngMask: mutated whole files (bytes flipped, CRCs rewritten) fail where the RGBA path fails, and agree where it decodes', () => {
    const rnd = mulberry32(4242);
    let failed = 0,
        agreed = 0;
    for (let n = 0; n < 3000; n++) {
        const [colorType, depth] = COMBOS[n % COMBOS.length];
        const spec = randomSpec(colorType, depth, rnd);
        const bytes = encode(spec, refilter(spec, scanlines(spec), rnd));
        for (let m = 1 + Math.floor(rnd() * 3); m > 0; m--)
            bytes[8 + Math.floor(rnd() * (bytes.length - 8))] = Math.floor(rnd() * 256);
        // Rewrite every chunk's CRC, so that the mutation reaches the decoders behind the checksum.
        fixCrcs(bytes);
        const t = THRESHOLDS[n % THRESHOLDS.length];
        let want: string | Error, got: string | Error | null;
        try {
            want = viaRGBA(bytes, t).toText();
        } catch (e) {
            want = e as Error;
        }
        try {
            got = decodePngMask(bytes, t)?.toText() ?? null;
        } catch (e) {
            got = e as Error;
        }
        const ctx = `file ${n}: RGBA path ${want instanceof Error ? want.message : 'decodes'}, mask path ${got instanceof Error ? got.message : got === null ? 'declines' : 'decodes'}`;
        if (want instanceof Error) {
            assert.ok(got instanceof Error || got === null, ctx);
            failed++;
        } else {
            assert.ok(got !== null, ctx);
            assert.equal(got, want, ctx);
            agreed++;
        }
    }
    assert.ok(failed > 200 && agreed > 50, `${failed} failed, ${agreed} decoded`);
});
