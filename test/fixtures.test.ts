// @test no-shared
// Worked examples from the seed documents, with recorded answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { boundingRect, Mask } from '../src/index.js';

const fx = JSON.parse(readFileSync(new URL('./fixtures/heart-arrow.json', import.meta.url), 'utf8'));

test('heart and arrow (course slides): first hit, area and overlap mask', () => {
    const heart = Mask.fromText(fx.heart.join('\n')),
        arrow = Mask.fromText(fx.arrow.join('\n'));
    const [dx, dy] = fx.offset;
    assert.deepEqual(heart.overlap(arrow, dx, dy), fx.expected.overlap);
    assert.equal(heart.overlaps(arrow, dx, dy), true);
    assert.equal(heart.overlapArea(arrow, dx, dy), fx.expected.overlapArea);
    assert.equal(heart.overlapMask(arrow, dx, dy).toText(), fx.expected.overlapMask.join('\n'));
    assert.deepEqual(boundingRect(heart), fx.expected.heartBoundingRect);
    assert.deepEqual(boundingRect(arrow), fx.expected.arrowBoundingRect);
    // seen from the arrow, the same pixel is (7 - 6, 3 - 1)
    assert.deepEqual(arrow.overlap(heart, -dx, -dy), { x: 1, y: 2 });
    // the slides' loop: heart_mask[i] & (arrow_mask[i - 1] >> 6) stops at i = 3, the third row tested (i = 1, 2, 3)
    assert.equal(fx.expected.overlap.y - dy + 1, fx.expected.rowsTestedUntilHit);
    // one pixel further right the arrow's tip only touches the heart's right edge from outside
    assert.equal(heart.overlaps(arrow, 8, 1), false);
    assert.equal(heart.overlapArea(arrow, 7, 1), 1); // only the shaft end (7, 4)
});

test("the slides' 8x8 sprite: mask built from alpha with the slides' threshold matches their stored bytes", () => {
    const rows: string[] = fx.sprite.bytes;
    const rgba = new Uint8Array(8 * 8 * 4);
    rows.forEach((row, y) =>
        [...row].forEach((bit, x) => {
            rgba[(y * 8 + x) * 4 + 3] = bit === '1' ? 200 : 40;
        })
    );
    const m = Mask.fromRGBA(rgba, 8, 8, { threshold: fx.sprite.alphaThresholdInSlides });
    assert.equal(m.toText(), rows.map(r => r.replace(/1/g, '#').replace(/0/g, '.')).join('\n'));
    assert.equal(m.count(), 38);
    for (let y = 0; y < 8; y++) {
        let byte = 0;
        for (let x = 0; x < 8; x++) if (m.get(x, y)) byte |= 0x80 >> x;
        assert.equal(byte.toString(2).padStart(8, '0'), rows[y]);
    }
});
