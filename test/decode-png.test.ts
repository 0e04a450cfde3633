// The PNG chunk walk: what an APNG frame is decoded from (header, PLTE, tRNS) must be what the default image
// uses, so chunks that pngjs would read differently on the whole file are refused before either is decoded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFrames, decodeImage } from '../src/node.js';
import { concat, pngChunk, writeApngSpec, writePng, type PngSpec } from './fixtures/png-writer.js';

const grey: PngSpec = { width: 3, height: 2, colorType: 0, depth: 4, trns: [0, 1], pixel: (x, y) => [x + y] };
const palette: PngSpec = {
    width: 3,
    height: 2,
    colorType: 3,
    depth: 2,
    palette: [
        [1, 2, 3],
        [4, 5, 6],
        [7, 8, 9]
    ],
    pixel: x => [x]
};

// Inserts `chunks` before the chunk at index `at` of `file` (0 = IHDR).
function insert(file: Uint8Array, at: number, ...chunks: Uint8Array[]): Uint8Array {
    const dv = new DataView(file.buffer, file.byteOffset, file.length);
    let p = 8;
    for (let i = 0; i < at; i++) p += 12 + dv.getUint32(p);
    return concat([file.subarray(0, p), ...chunks, file.subarray(p)]);
}

test('PNG chunks: types, unknown critical chunks and a second IHDR are refused by name', () => {
    const png = writePng(grey);
    const ihdr = png.subarray(8, 33);
    const cases: [string, Uint8Array, RegExp][] = [
        [
            'type not letters',
            insert(png, 1, pngChunk('ab1d', new Uint8Array(2))),
            /PNG is corrupt: chunk type "ab1d" at byte 33 is not four ASCII letters/
        ],
        [
            'unknown critical',
            insert(png, 1, pngChunk('ABCD', new Uint8Array(2))),
            /PNG is corrupt: unknown critical chunk "ABCD" at byte 33/
        ],
        ['second IHDR', insert(png, 1, ihdr), /unknown critical chunk "IHDR" at byte 33 \(a second IHDR\)/]
    ];
    for (const [what, bytes, re] of cases) {
        assert.throws(() => decodeImage(bytes), re, what);
        assert.throws(() => decodeFrames(bytes), re, what);
    }
    // Unknown ancillary chunks (lower-case first letter) are skipped.
    assert.equal(decodeImage(insert(png, 1, pngChunk('abCd', new Uint8Array(2)))).width, 3);
});

test('PNG chunks: PLTE and tRNS are checked against the colour type', () => {
    const cases: [string, Uint8Array, RegExp][] = [
        [
            'grey key of 1 byte',
            writePng({ ...grey, trns: [1] }),
            /tRNS at byte 33 has 1 bytes, which colour type 0 does not allow/
        ],
        [
            'RGB key of 2 bytes',
            writePng({ width: 1, height: 1, colorType: 2, depth: 8, trns: [0, 1], pixel: () => [1, 2, 3] }),
            /tRNS at byte 33 has 2 bytes, which colour type 2 does not allow/
        ],
        [
            'more alphas than colours',
            writePng({ ...palette, trns: [1, 2, 3, 4] }),
            /tRNS at byte 54 has 4 bytes, which colour type 3 with 3 palette entries does not allow/
        ],
        [
            'tRNS before PLTE',
            insert(writePng({ ...palette, trns: undefined }), 1, pngChunk('tRNS', Uint8Array.from([0]))),
            /tRNS at byte 33 has 1 bytes, which colour type 3 with 0 palette entries does not allow/
        ],
        [
            'PLTE of 4 bytes',
            insert(writePng({ ...grey, trns: undefined }), 1, pngChunk('PLTE', new Uint8Array(4))),
            /PLTE at byte 33 has 4 bytes; expected 3 to 768, a multiple of 3, before tRNS/
        ],
        [
            'second tRNS',
            insert(writePng(grey), 2, pngChunk('tRNS', Uint8Array.from([0, 2]))),
            /a second tRNS chunk at byte 47/
        ]
    ];
    for (const [what, bytes, re] of cases) {
        assert.throws(() => decodeImage(bytes), re, what);
        assert.throws(() => decodeFrames(bytes), re, what);
    }
    // A tRNS on a colour type with alpha is ignored (by libpng and pngjs too), in the default image and the frames alike.
    const rgba: PngSpec = { width: 2, height: 1, colorType: 6, depth: 8, pixel: x => [x, 0, 0, 200] };
    const apng = writeApngSpec(rgba, [{ x: 0, y: 0, width: 2, height: 1, pixel: rgba.pixel, dispose: 0, blend: 0 }]);
    const withTrns = insert(apng, 2, pngChunk('tRNS', Uint8Array.from([0, 1, 2])));
    assert.deepEqual(decodeFrames(withTrns)[0].data, decodeImage(withTrns).data);
    assert.deepEqual(decodeImage(withTrns).data, Uint8Array.from([0, 0, 0, 200, 1, 0, 0, 200]));
});

test('PNG: bytes after IEND are ignored, as browsers do', () => {
    for (const file of [
        writePng(grey),
        writeApngSpec(grey, [{ x: 0, y: 0, width: 3, height: 2, pixel: grey.pixel, dispose: 0, blend: 0 }])
    ]) {
        const trailing = concat([file, Uint8Array.from([1, 2, 3, 0x49, 0x45])]);
        assert.deepEqual(decodeImage(trailing), decodeImage(file));
        assert.deepEqual(decodeFrames(trailing), decodeFrames(file));
    }
});
