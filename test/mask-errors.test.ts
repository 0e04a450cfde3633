// @test fast no-shared
// Every bad input to the Mask API throws a clear error naming the value, and leaves the mask untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as hitmask from '../src/index.js';
import {
    connectedComponent,
    connectedComponents,
    convolve,
    crop,
    Mask,
    outline,
    rotate90,
    scale,
    toRGBA
} from '../src/index.js';
import { withKernels } from './reference.js';

const bad = (fn: () => unknown, type: typeof Error, pattern: RegExp) =>
    assert.throws(fn, (e: unknown) => {
        assert.ok(e instanceof type, `expected ${type.name}, got ${String(e)}`);
        assert.match((e as Error).message, pattern);
        return true;
    });

test('constructor rejects bad sizes', () => {
    bad(() => new Mask(-1, 2), RangeError, /width must be an integer .* got -1/);
    bad(() => new Mask(2, 1.5), RangeError, /height .* got 1\.5/);
    bad(() => new Mask(NaN, 2), RangeError, /got NaN/);
    bad(() => new Mask(Infinity, 2), RangeError, /got Infinity/);
    bad(() => new Mask('3' as unknown as number, 2), RangeError, /got "3"/);
    bad(() => new Mask(2 ** 31, 1), RangeError, /width must be an integer in 0\.\.1073741824/);
    bad(() => new Mask(2 ** 20, 2 ** 20), RangeError, /needs 34359738368 words.*split it into tiles/);
});

test('fromRGBA / fromImageData / fromColorKey reject bad buffers and options', () => {
    const px = new Uint8Array(16);
    bad(() => Mask.fromRGBA(new Uint8Array(15), 2, 2), RangeError, /data has length 15, expected 16/);
    bad(
        () => Mask.fromRGBA([0, 0, 0, 0] as unknown as Uint8Array, 1, 1),
        TypeError,
        /Uint8Array or Uint8ClampedArray .* got Array\(4\)/
    );
    bad(() => Mask.fromRGBA(new Float32Array(4) as unknown as Uint8Array, 1, 1), TypeError, /got Float32Array\(4\)/);
    bad(() => Mask.fromRGBA(px, -2, -2), RangeError, /width .* got -2/);
    bad(
        () => Mask.fromRGBA(px, 2, 2, { threshold: 256 }),
        RangeError,
        /threshold must be an integer in 0\.\.255, got 256/
    );
    bad(() => Mask.fromRGBA(px, 2, 2, { threshold: -1 }), RangeError, /threshold .* got -1/);
    bad(() => Mask.fromRGBA(px, 2, 2, { threshold: 12.5 }), RangeError, /got 12\.5/);
    bad(() => Mask.fromImageData(null as unknown as ImageData), TypeError, /ImageData-like object, got null/);
    bad(() => Mask.fromColorKey(px, 2, 2, 0x1000000), RangeError, /color key must be an integer in 0\.\.16777215/);
    bad(
        () => Mask.fromColorKey(px, 2, 2, [1, 2] as unknown as [number, number, number]),
        TypeError,
        /0xRRGGBB or \[r, g, b\], got Array\(2\)/
    );
    bad(() => Mask.fromColorKey(px, 2, 2, [1, 2, 300]), RangeError, /blue .* got 300/);
    bad(() => Mask.fromColorKey(px, 2, 2, 0, { tolerance: 999 }), RangeError, /tolerance .* got 999/);
});

test('fromText and fromWords reject malformed input', () => {
    bad(() => Mask.fromText('##\n#'), Error, /row 1 is 1 characters wide, expected 2/);
    bad(() => Mask.fromText('#x'), Error, /"x" at row 0, column 1/);
    bad(() => Mask.fromText(3 as unknown as string), TypeError, /text must be a string, got 3/);
    bad(() => Mask.fromWords(33, 2, new Uint32Array(3)), RangeError, /length 3, expected 4/);
    bad(() => Mask.fromWords(4, 1, [0] as unknown as Uint32Array), TypeError, /Uint32Array, got Array\(1\)/);
    bad(() => Mask.fromWords(4, 2, new Uint32Array([0, 16])), RangeError, /bits set past width 4 in row 1/);
});

test('pixel access rejects non-finite coordinates and writes outside the mask', () => {
    const m = new Mask(4, 4);
    bad(() => m.get(NaN, 0), RangeError, /x must be a finite number, got NaN/);
    bad(() => m.get(0, Infinity), RangeError, /y must be a finite number, got Infinity/);
    bad(() => m.set(4, 0), RangeError, /Pixel \(4, 0\) is outside the 4x4 mask/);
    bad(() => m.set(0, -1), RangeError, /outside/);
    assert.equal(m.count(), 0);
});

test('pairwise operations reject non-masks and non-finite offsets without touching the mask', () => {
    const m = new Mask(8, 8, true),
        o = new Mask(2, 2, true);
    for (const op of ['overlap', 'overlaps', 'overlapArea', 'overlapMask', 'draw', 'erase'] as const) {
        bad(() => m[op]({} as Mask, 0, 0), TypeError, /other must be a Mask, got Object/);
        bad(() => m[op](null as unknown as Mask, 0, 0), TypeError, /got null/);
        bad(() => m[op](o, NaN, 0), RangeError, /dx must be a finite number, got NaN/);
        bad(() => m[op](o, 0, -Infinity), RangeError, /dy must be a finite number, got -Infinity/);
        bad(() => m[op](o, '1' as unknown as number, 0), RangeError, /dx .* got "1"/);
    }
    bad(() => m.overlap(o, NaN, 0, { x: 0, y: 0 }), RangeError, /dx/);
    bad(() => m.overlapMask(o, 0, 0, new Mask(7, 8)), RangeError, /out is 7x8, expected 8x8/);
    bad(() => m.overlapMask(o, 0, 0, {} as Mask), TypeError, /out must be a Mask/);
    bad(() => m.equals(3 as unknown as Mask), TypeError, /other must be a Mask, got 3/);
    bad(() => convolve(m, [] as unknown as Mask), TypeError, /got Array\(0\)/);
    assert.equal(m.count(), 64);
});

test('shape operations reject bad arguments', () => {
    const m = new Mask(5, 5, true);
    bad(() => outline(m, 0), RangeError, /every must be an integer in 1\.\./);
    bad(() => outline(m, 1.5), RangeError, /every .* got 1\.5/);
    bad(() => connectedComponent(m, 5, 0), RangeError, /Pixel \(5, 0\) is outside the 5x5 mask/);
    bad(() => connectedComponent(m, 0), RangeError, /y must be a finite number, got undefined/);
    bad(() => connectedComponent(new Mask(3, 3), 9, 9), RangeError, /outside/);
    bad(() => connectedComponents(m, 0.5), RangeError, /minArea .* got 0\.5/);
    bad(() => scale(m, -1, 2), RangeError, /scale width .* got -1/);
    bad(() => scale(m, 2, NaN), RangeError, /scale height .* got NaN/);
    bad(() => rotate90(m, 0.5), RangeError, /turns .* got 0\.5/);
    bad(() => crop(m, 0, 0, -1, 2), RangeError, /crop width .* got -1/);
    bad(() => crop(m, NaN, 0, 1, 2), RangeError, /x must be a finite number/);
    bad(() => toRGBA(m, { onColor: -1 }), RangeError, /onColor .* got -1/);
    bad(
        () => toRGBA(m, 0xffffffff as never),
        TypeError,
        /options must be an object like \{ onColor, offColor \}, got 4294967295/
    );
    bad(
        () => toRGBA(m, new Uint8ClampedArray(100) as never),
        TypeError,
        /options must be an object like \{ onColor, offColor \}, got Uint8ClampedArray\(100\)/
    );
    bad(() => m.overlapMask(m, 0, 0, 'out' as never), TypeError, /out must be a Mask, got "out"/);
    bad(() => toRGBA(m, { onColor: 0, offColor: 2 ** 32 }), RangeError, /offColor .* got 4294967296/);
    bad(
        () => toRGBA(m, { onColor: 0, offColor: 0 }, new Uint8Array(99)),
        RangeError,
        /length 100, got Uint8Array\(99\)/
    );
    assert.equal(m.count(), 25);
});

test('mask functions reject a non-mask with a TypeError and a disposed mask with an Error', () => {
    // Every function of a mask, with arguments that would be valid for a live 4x4 mask.
    const calls: [string, (m: Mask) => unknown][] = [
        ['boundingRect', m => hitmask.boundingRect(m)],
        ['boundingRects', m => hitmask.boundingRects(m)],
        ['connectedComponents', m => hitmask.connectedComponents(m)],
        ['transformMask', m => hitmask.transformMask(m, { angle: 0.5 })],
        ['centroid', m => hitmask.centroid(m)],
        ['angle', m => hitmask.angle(m)],
        ['forEachSet', m => hitmask.forEachSet(m, () => {})],
        ['outline', m => hitmask.outline(m)],
        ['connectedComponent', m => hitmask.connectedComponent(m)],
        ['scale', m => hitmask.scale(m, 2, 2)],
        ['flipX', m => hitmask.flipX(m)],
        ['flipY', m => hitmask.flipY(m)],
        ['rotate90', m => hitmask.rotate90(m)],
        ['crop', m => hitmask.crop(m, 0, 0, 2, 2)],
        ['trim', m => hitmask.trim(m)],
        ['convolve', m => hitmask.convolve(m, m)],
        ['raycast', m => hitmask.raycast(m, 0, 0.5, 4, 0.5)],
        ['toRGBA', m => hitmask.toRGBA(m)]
    ];
    for (const [name, call] of calls) {
        const live = new Mask(4, 4, true);
        assert.doesNotThrow(() => call(live), name);
        for (const junk of [null, undefined, { width: 4, height: 4 }, 'mask']) {
            bad(() => call(junk as never), TypeError, /^(mask|a) must be a Mask, got /);
        }
        const gone = new Mask(4, 4, true);
        gone.dispose();
        bad(() => call(gone), Error, /^(mask|a) \(<Mask 4x4>\) was disposed; create a new Mask/);
        assert.equal(live.count(), 16, `${name} leaves its mask as it was`);
    }
    bad(() => hitmask.convolve(new Mask(2, 2), 'b' as never), TypeError, /^b must be a Mask, got "b"/);
    bad(
        () => hitmask.forEachSet(new Mask(2, 2), 'fn' as never),
        TypeError,
        /^fn must be a function \(x, y\) => void, got "fn"/
    );
    // A callback that throws stops the walk, its error reaches the caller as is, and the mask is unchanged.
    const walked: number[] = [],
        full = new Mask(3, 2, true);
    assert.throws(
        () =>
            hitmask.forEachSet(full, (x, y) => {
                walked.push(x, y);
                if (walked.length === 4) throw new Error('game over');
            }),
        /^Error: game over$/
    );
    assert.deepEqual(walked, [0, 0, 1, 0]);
    assert.equal(full.count(), 6);
    bad(
        () => hitmask.raycast(new Mask(2, 2), 0, 0, 1, 1, 7 as never),
        TypeError,
        /^out must be a RayHit object, got 7/
    );
    bad(
        () => hitmask.overlapsMany([new Mask(2, 2)], new Int32Array([0, 0, 0, 0]), new Uint8Array(0)),
        RangeError,
        /out must be a Uint8Array of length at least 1/
    );
});

test('toText of a mask too tall or wide for a string throws a RangeError instead of aborting the process', () => {
    bad(
        () => new Mask(0, 2 ** 30).toText(),
        RangeError,
        /as text is 1073741823 characters, more than the 134217728 allowed; crop\(\) a part/
    );
    bad(() => new Mask(1, 2e8).toText(), RangeError, /as text is 399999999 characters/);
    bad(() => new Mask(2 ** 27 + 1, 1).toText(), RangeError, /as text is 134217729 characters/);
    assert.equal(new Mask(3, 2).toText(), '...\n...');
    assert.equal(new Mask(0, 3).toText(), '\n\n');
});

test("toRGBA of a mask too large for one array: our RangeError with the size and the fix, not the engine's", () => {
    // 65536 x 16385 pixels: 134 MB of (zeroed, untouched) words, 4,295,229,440 bytes of RGBA, past V8's 2^32.
    withKernels('js', () => {
        const m = new Mask(65536, 16385);
        bad(
            () => toRGBA(m),
            RangeError,
            /^toRGBA\(\): a 65536x16385 mask needs 4295229440 bytes of RGBA, more than this JavaScript engine allocates in one array; convert it in tiles \(crop\(mask, x, y, w, h\) for each\)\.$/
        );
        m.dispose();
    });
});
