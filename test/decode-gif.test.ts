// GIF decoding: disposal 3 restores the canvas as it was before its frame; a frame without a Graphic Control
// Extension has no transparency, delay or disposal of its own; one budget, in bytes of RGBA, covers the whole
// file: every canvas returned plus every pixel decoded outside the screen; a tiny frame costs about its pixels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFrames, decodeImage } from '../src/node.js';
import { allocations, cost, costText } from './work.js';
import { COMMENT, writeGif, type GifFrameSpec } from './fixtures/gif-writer.js';

const PALETTE = [0x000000, 0xff0000, 0x00ff00, 0x0000ff];
const makeGif = (width: number, height: number, frames: GifFrameSpec[]) => writeGif(width, height, frames, PALETTE);

const px = (data: Uint8Array, width: number, x: number, y: number) =>
    Array.from(data.subarray((y * width + x) * 4, (y * width + x) * 4 + 4));

test('GIF disposal 3 after disposal 2 restores the cleared area, not the pixels that were cleared', () => {
    // Red screen; a green 2x1 patch then cleared (2); a blue dot shown then restored (3); a last dot.
    const frames = decodeFrames(
        makeGif(4, 1, [
            { x: 0, y: 0, w: 4, h: 1, index: 1, disposal: 1 },
            { x: 0, y: 0, w: 2, h: 1, index: 2, disposal: 2 },
            { x: 3, y: 0, w: 1, h: 1, index: 3, disposal: 3 },
            { x: 2, y: 0, w: 1, h: 1, index: 3, disposal: 3 },
            { x: 2, y: 0, w: 1, h: 1, index: 2 }
        ])
    );
    const row = (i: number) => [0, 1, 2, 3].map(x => px(frames[i].data, 4, x, 0));
    const clear = [0, 0, 0, 0],
        red = [255, 0, 0, 255],
        green = [0, 255, 0, 255],
        blue = [0, 0, 255, 255];
    assert.deepEqual(row(1), [green, green, red, red]);
    assert.deepEqual(row(2), [clear, clear, red, blue]);
    // Before frame 3 the canvas is frame 2's state before frame 2 was drawn: cleared patch, no blue dot. The
    // old decoder restored frame 1's output here, bringing the cleared green patch back.
    assert.deepEqual(row(3), [clear, clear, blue, red]);
    assert.deepEqual(row(4), [clear, clear, green, red]);
});

test('GIF budget: pixels decoded outside the screen count, summed over the whole file', () => {
    // A 1x1 screen with 300x300 frames: each decodes 89,999 pixels nobody sees, 360 KB of RGBA at 4 bytes a pixel.
    const gif = makeGif(
        1,
        1,
        [0, 1, 2].map(i => ({ x: 0, y: 0, w: 300, h: 300, index: i + 1 }))
    );
    assert.equal(decodeFrames(gif).length, 3);
    assert.equal(decodeFrames(gif, { maxBytes: 3 * 300 * 300 * 4 }).length, 3);
    // The old check compared each frame's pixel count (90,000) with the byte budget, frame by frame: 1 MiB let every frame through.
    assert.throws(
        () => decodeFrames(gif, { maxBytes: 1 << 20 }),
        (e: Error) =>
            e instanceof RangeError &&
            /^GIF frame 2 is 300x300 at \(0, 0\) on a 1x1 screen: it decodes 89999 pixels outside the screen, which needs 0.343 MiB of RGBA on top of the 0.687 MiB its other frames take, more than the 1 MiB budget; raise maxBytes/.test(
                e.message
            )
    );
    // decodeImage decodes only the first frame, so only that one is charged.
    assert.equal(decodeImage(gif, { maxBytes: 1 << 20 }).width, 1);
});

test('GIF budget: a 16000x16000 frame on a 1x1 screen is refused before it is decoded', () => {
    // Only the frame's descriptor is large: its LZW data is the 2-pixel stream written for a 1x2 frame.
    const gif = makeGif(1, 1, [{ x: 0, y: 0, w: 1, h: 2, index: 1 }]);
    const at = gif.indexOf(0x2c, 13 + 12);
    new DataView(gif.buffer).setUint16(at + 5, 16000, true);
    new DataView(gif.buffer).setUint16(at + 7, 16000, true);
    // The old decoder compared 256,000,000 pixels with 268,435,456 bytes, let the frame through and allocated 256 MB for its indices.
    const a = allocations(() => {
        assert.throws(
            () => decodeFrames(gif),
            /^RangeError: GIF frame 0 is 16000x16000 at \(0, 0\) on a 1x1 screen: it decodes 255999999 pixels outside the screen, which needs 977 MiB of RGBA/
        );
        assert.throws(() => decodeImage(gif), /GIF frame 0 is 16000x16000/);
    });
    // Refused before the frame's indices or RGBA exist: nothing larger than the 1x1 screen and LZW tables.
    assert.ok(a.largest < 65536, `allocated ${a.bytes} bytes in ${a.count} arrays, the largest ${a.largest}`);
});

test('GIF budget: every canvas is charged before the first is allocated', () => {
    const gif = makeGif(
        100,
        100,
        [1, 2, 3, 1, 2].map(index => ({ x: 0, y: 0, w: 1, h: 1, index }))
    );
    assert.throws(
        () => decodeFrames(gif, { maxBytes: 5 * 100 * 100 * 4 - 1 }),
        /^RangeError: Image is 100x100 with 5 frames, which needs 0.191 MiB of RGBA, more than the 0.191 MiB budget/
    );
    assert.equal(decodeFrames(gif, { maxBytes: 5 * 100 * 100 * 4 }).length, 5);
});

test('GIF disposal 4 restores as 3 does (Chromium and Firefox read it so); 5 to 7 keep the frame', () => {
    for (const [disposal, restored] of [
        [4, true],
        [5, false],
        [6, false],
        [7, false]
    ] as const) {
        const gif = makeGif(2, 1, [
            { x: 0, y: 0, w: 2, h: 1, index: 1, disposal: 1 },
            { x: 0, y: 0, w: 1, h: 1, index: 2, disposal },
            { x: 1, y: 0, w: 1, h: 1, index: 3 }
        ]);
        const frames = decodeFrames(gif);
        assert.deepEqual(
            px(frames[2].data, 2, 0, 0),
            restored ? [255, 0, 0, 255] : [0, 255, 0, 255],
            `disposal ${disposal}`
        );
    }
});

test('GIF frames without a Graphic Control Extension are opaque, with delay 0, whatever the frame before said', () => {
    // Frame 0's GCE makes index 1 (red) transparent and shows it for 500 ms; frame 1 draws index 1 with no GCE.
    const frames = decodeFrames(
        makeGif(2, 1, [
            { x: 0, y: 0, w: 1, h: 1, index: 2, transparent: 1, delay: 50 },
            { x: 1, y: 0, w: 1, h: 1, index: 1, gce: false }
        ])
    );
    // omggif hands every frame the last GCE it read: the old decoder dropped the red pixel and kept the 500 ms.
    assert.deepEqual(px(frames[1].data, 2, 1, 0), [255, 0, 0, 255]);
    assert.deepEqual(
        frames.map(f => f.delay),
        [500, 0]
    );
    // Other extensions between frames (a comment) neither are a GCE nor hide one.
    const commented = decodeFrames(
        makeGif(3, 1, [
            { x: 0, y: 0, w: 1, h: 1, index: 2, transparent: 1, delay: 50, extensions: COMMENT },
            { x: 1, y: 0, w: 1, h: 1, index: 1, gce: false, extensions: COMMENT },
            { x: 2, y: 0, w: 1, h: 1, index: 1, transparent: 1, delay: 7, extensions: [...COMMENT, ...COMMENT] }
        ])
    );
    assert.deepEqual(
        [0, 1, 2].map(x => px(commented[2].data, 3, x, 0)),
        [
            [0, 255, 0, 255],
            [255, 0, 0, 255],
            [0, 0, 0, 0]
        ]
    );
    assert.deepEqual(
        commented.map(f => f.delay),
        [500, 0, 70]
    );
});

test('GIF disposal 2 does not carry over to the next frame when that one has no Graphic Control Extension', () => {
    // Frame 0 is cleared after it shows (disposal 2); frames 1 and 2 have no GCE: disposal unspecified, kept.
    const frames = decodeFrames(
        makeGif(3, 1, [
            { x: 0, y: 0, w: 1, h: 1, index: 1, disposal: 2 },
            { x: 1, y: 0, w: 1, h: 1, index: 2, gce: false },
            { x: 2, y: 0, w: 1, h: 1, index: 3, gce: false }
        ])
    );
    const row = (i: number) => [0, 1, 2].map(x => px(frames[i].data, 3, x, 0));
    const clear = [0, 0, 0, 0],
        red = [255, 0, 0, 255],
        green = [0, 255, 0, 255],
        blue = [0, 0, 255, 255];
    assert.deepEqual(row(0), [red, clear, clear]);
    assert.deepEqual(row(1), [clear, green, clear]);
    // The old decoder cleared frame 1 too (disposal 2 inherited from frame 0): the green pixel was lost.
    assert.deepEqual(row(2), [clear, green, blue]);
    assert.deepEqual(
        frames.map(f => f.delay),
        [100, 0, 0]
    );
});

test('GIF of 10,000 1x1 frames: each frame allocates about its own pixels, not a fresh 24 KiB LZW table', t => {
    const n = 10_000;
    const gif = makeGif(
        1,
        1,
        Array.from({ length: n }, (_, i) => ({ x: 0, y: 0, w: 1, h: 1, index: i & 3, gce: false }))
    );
    let frames: { data: Uint8Array }[] = [];
    const a = allocations(() => {
        frames = decodeFrames(gif);
    });
    assert.equal(frames.length, n);
    assert.deepEqual(Array.from(frames[n - 1].data), [0, 0, 255, 255]);
    const c = cost(() => decodeFrames(gif));
    t.diagnostic(
        `${gif.length} bytes, ${n} frames: ${a.count} typed arrays, ${a.bytes} bytes (${(a.bytes / n).toFixed(0)} per frame); ${costText(c)}`
    );
    // A frame's indices (1 byte a pixel); the LZW table is made once per file.
    assert.ok(a.bytes / n < 1024, `${(a.bytes / n).toFixed(0)} bytes allocated per frame`);
});

test('GIF cut anywhere before its image data: "GIF is truncated", never a leaked TypeError', () => {
    const gif = makeGif(4, 1, [{ x: 0, y: 0, w: 4, h: 1, index: 1 }]);
    // 13-byte header, 12-byte colour table, then the loop extension, the frame's control extension and its image.
    for (let n = 25; n < 60; n++) {
        assert.throws(
            () => decodeImage(gif.subarray(0, n)),
            (e: unknown) => e instanceof Error && !(e instanceof TypeError) && /^GIF is truncated/.test(e.message),
            `cut at ${n} bytes`
        );
    }
    // Cut after the colour table and one byte more: it was "Cannot read properties of undefined (reading 'toString')".
    assert.throws(
        () => decodeImage(gif.subarray(0, 26)),
        /^Error: GIF is truncated: a block runs past the end of the 26-byte file\.$/
    );
    assert.throws(() => decodeImage(gif.subarray(0, 25)), /^Error: GIF is truncated: its 25 bytes end before/);
});
