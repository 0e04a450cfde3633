// GIF decoding: disposal 3 restores the canvas as it was before its frame, and one budget, in bytes of
// RGBA, covers the whole file: every canvas returned plus every pixel decoded outside the screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import omggif from 'omggif';
import { decodeFrames, decodeImage } from '../src/node/index.js';
import { allocations } from './work.js';

const PALETTE = [0x000000, 0xff0000, 0x00ff00, 0x0000ff];

interface GifFrame { x: number; y: number; w: number; h: number; index: number; disposal?: number }

function writeGif(width: number, height: number, frames: GifFrame[]): Uint8Array {
    const buf = new Uint8Array(1 << 20);
    const gw = new omggif.GifWriter(buf, width, height, { palette: PALETTE, loop: 0 });
    for (const f of frames) gw.addFrame(f.x, f.y, f.w, f.h, new Array(f.w * f.h).fill(f.index), { delay: 1, disposal: f.disposal ?? 0 });
    return buf.slice(0, gw.end());
}

const px = (data: Uint8Array, width: number, x: number, y: number) => Array.from(data.subarray((y * width + x) * 4, (y * width + x) * 4 + 4));

test('GIF disposal 3 after disposal 2 restores the cleared area, not the pixels that were cleared', () => {
    // Red screen; a green 2x1 patch then cleared (2); a blue dot shown then restored (3); a last dot.
    const frames = decodeFrames(writeGif(4, 1, [
        { x: 0, y: 0, w: 4, h: 1, index: 1, disposal: 1 },
        { x: 0, y: 0, w: 2, h: 1, index: 2, disposal: 2 },
        { x: 3, y: 0, w: 1, h: 1, index: 3, disposal: 3 },
        { x: 2, y: 0, w: 1, h: 1, index: 3, disposal: 3 },
        { x: 2, y: 0, w: 1, h: 1, index: 2 }
    ]));
    const row = (i: number) => [0, 1, 2, 3].map(x => px(frames[i].data, 4, x, 0));
    const clear = [0, 0, 0, 0], red = [255, 0, 0, 255], green = [0, 255, 0, 255], blue = [0, 0, 255, 255];
    assert.deepEqual(row(1), [green, green, red, red]);
    assert.deepEqual(row(2), [clear, clear, red, blue]);
    // Before frame 3 the canvas is frame 2's state before frame 2 was drawn: cleared patch, no blue dot. The
    // old decoder restored frame 1's output here, bringing the cleared green patch back.
    assert.deepEqual(row(3), [clear, clear, blue, red]);
    assert.deepEqual(row(4), [clear, clear, green, red]);
});

test('GIF budget: pixels decoded outside the screen count, summed over the whole file', () => {
    // A 1x1 screen with 300x300 frames: each decodes 89,999 pixels nobody sees, 360 KB of RGBA at 4 bytes a pixel.
    const gif = writeGif(1, 1, [0, 1, 2].map(i => ({ x: 0, y: 0, w: 300, h: 300, index: i + 1 })));
    assert.equal(decodeFrames(gif).length, 3);
    assert.equal(decodeFrames(gif, { maxBytes: 3 * 300 * 300 * 4 }).length, 3);
    // The old check compared each frame's pixel count (90,000) with the byte budget, frame by frame: 1 MiB let every frame through.
    assert.throws(() => decodeFrames(gif, { maxBytes: 1 << 20 }),
        (e: Error) => e instanceof RangeError && /^GIF frame 2 is 300x300 at \(0, 0\) on a 1x1 screen: it decodes 89999 pixels outside the screen, which needs 0.343 MiB of RGBA on top of the 0.687 MiB its other frames take, more than the 1 MiB budget; raise maxBytes/.test(e.message));
    // decodeImage decodes only the first frame, so only that one is charged.
    assert.equal(decodeImage(gif, { maxBytes: 1 << 20 }).width, 1);
});

test('GIF budget: a 16000x16000 frame on a 1x1 screen is refused before it is decoded', () => {
    // Only the frame's descriptor is large: its LZW data is the 2-pixel stream written for a 1x2 frame.
    const gif = writeGif(1, 1, [{ x: 0, y: 0, w: 1, h: 2, index: 1 }]);
    const at = gif.indexOf(0x2c, 13 + 12);
    new DataView(gif.buffer).setUint16(at + 5, 16000, true);
    new DataView(gif.buffer).setUint16(at + 7, 16000, true);
    // The old decoder compared 256,000,000 pixels with 268,435,456 bytes, let the frame through and allocated 256 MB for its indices.
    const a = allocations(() => {
        assert.throws(() => decodeFrames(gif), /^RangeError: GIF frame 0 is 16000x16000 at \(0, 0\) on a 1x1 screen: it decodes 255999999 pixels outside the screen, which needs 977 MiB of RGBA/);
        assert.throws(() => decodeImage(gif), /GIF frame 0 is 16000x16000/);
    });
    // Refused before the frame's indices or RGBA exist: nothing larger than the 1x1 screen and LZW tables.
    assert.ok(a.largest < 65536, `allocated ${a.bytes} bytes in ${a.count} arrays, the largest ${a.largest}`);
});

test('GIF budget: every canvas is charged before the first is allocated', () => {
    const gif = writeGif(100, 100, [1, 2, 3, 1, 2].map(index => ({ x: 0, y: 0, w: 1, h: 1, index })));
    assert.throws(() => decodeFrames(gif, { maxBytes: 5 * 100 * 100 * 4 - 1 }), /^RangeError: Image is 100x100 with 5 frames, which needs 0.191 MiB of RGBA, more than the 0.191 MiB budget/);
    assert.equal(decodeFrames(gif, { maxBytes: 5 * 100 * 100 * 4 }).length, 5);
});

test('GIF disposal 4 restores as 3 does (Chromium and Firefox read it so); 5 to 7 keep the frame', () => {
    for (const [disposal, restored] of [[4, true], [5, false], [6, false], [7, false]] as const) {
        const gif = writeGif(2, 1, [{ x: 0, y: 0, w: 2, h: 1, index: 1, disposal: 1 }, { x: 0, y: 0, w: 1, h: 1, index: 2 }, { x: 1, y: 0, w: 1, h: 1, index: 3 }]);
        // The second frame's graphic control extension: 21 F9 04, then the packed byte with the disposal in bits 2..4.
        const gce = gif.indexOf(0xf9, gif.indexOf(0xf9) + 1) + 2;
        gif[gce] = (gif[gce] & ~0x1c) | (disposal << 2);
        const frames = decodeFrames(gif);
        assert.deepEqual(px(frames[2].data, 2, 0, 0), restored ? [255, 0, 0, 255] : [0, 255, 0, 255], `disposal ${disposal}`);
    }
});
