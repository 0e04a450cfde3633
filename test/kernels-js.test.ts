// The JavaScript kernels' separate loops (src/kernels/js.ts) at their edges, on both kernel paths
// (overlap, overlaps, overlapArea, overlapMask, draw, erase):
// aligned offsets (dx a multiple of 32, no shift), left and right edge strips, two-word strips taken
// in pairs, four-row blocks with every tail length, and first-point ties between neighbouring strips.
import assert from 'node:assert/strict';
import { Mask } from '../src/index.js';
import { Ref, sameMask, testKernels } from './reference.js';

const WIDTHS = [1, 31, 32, 33, 63, 64, 65, 97, 130];

// Offsets around every multiple of 32 that meets A, negative ones included, and the clip's ends.
function offsets(aw: number, bw: number): number[] {
    const out = new Set<number>([-bw + 1, aw - 1]);
    for (let k = -Math.ceil(bw / 32); k * 32 < aw; k++)
        for (const dx of [k * 32 - 1, k * 32, k * 32 + 1]) if (dx > -bw && dx < aw) out.add(dx);
    return [...out];
}

function check(a: Ref, b: Ref, ma: Mask, mb: Mask, dx: number, dy: number): void {
    const at = `${a.w}x${a.h} / ${b.w}x${b.h} at ${dx},${dy}`;
    const want = a.overlap(b, dx, dy);
    assert.deepEqual(ma.overlap(mb, dx, dy), want, `overlap ${at}`);
    assert.equal(ma.overlaps(mb, dx, dy), want !== null, `overlaps ${at}`);
    assert.equal(ma.overlapArea(mb, dx, dy), a.overlapArea(b, dx, dy), `overlapArea ${at}`);
    assert.ok(sameMask(ma.overlapMask(mb, dx, dy), a.overlapMask(b, dx, dy)), `overlapMask ${at}`);
    assert.ok(sameMask(ma.clone().draw(mb, dx, dy), a.draw(b, dx, dy)), `draw ${at}`);
    assert.ok(sameMask(ma.clone().erase(mb, dx, dy), a.draw(b, dx, dy, true)), `erase ${at}`);
}

testKernels('aligned, edge and paired strips at word-boundary widths, every tail of the four-row blocks', () => {
    let seed = 1;
    for (const aw of WIDTHS) {
        for (const bw of WIDTHS) {
            // Heights 5..8 give every row count mod 4 (and mod 2 for the paired loop) at dy = 0 and ±1.
            const a = Ref.random(aw, 8, 0.15, seed++),
                b = Ref.random(bw, 7, 0.15, seed++);
            const ma = a.toMask(),
                mb = b.toMask();
            for (const dx of offsets(aw, bw)) for (const dy of [-2, -1, 0, 1, 3]) check(a, b, ma, mb, dx, dy);
        }
    }
});

testKernels('dense tall masks: every word has bit 31 set somewhere, rows past several four-row blocks', () => {
    let seed = 100;
    for (const [aw, bw] of [
        [130, 97],
        [97, 130],
        [64, 65],
        [200, 64]
    ]) {
        const a = Ref.random(aw, 37, 0.9, seed++),
            b = Ref.random(bw, 29, 0.9, seed++);
        const ma = a.toMask(),
            mb = b.toMask();
        for (const dx of offsets(aw, bw)) for (const dy of [-5, 0, 6]) check(a, b, ma, mb, dx, dy);
    }
});

testKernels('sparse tall masks: the first point is found in the right strip and row', () => {
    let seed = 200;
    for (let n = 0; n < 40; n++) {
        const a = Ref.random(160, 40, 0.01, seed++),
            b = Ref.random(140, 40, 0.01, seed++);
        const ma = a.toMask(),
            mb = b.toMask();
        for (const dx of [-75, -64, -33, -1, 0, 1, 19, 32, 45])
            for (const dy of [-20, -3, 0, 7]) check(a, b, ma, mb, dx, dy);
    }
});

testKernels(
    'first point ties: same row in both strips of a pair goes left; an earlier row in a later strip wins',
    () => {
        // A full; B has pixels in its strips 1 and 2 (x = 40, 70) on row 5 and in strip 3 (x = 100) on row 3.
        const a = new Mask(160, 12, true),
            b = new Mask(130, 12);
        b.set(40, 5);
        b.set(70, 5);
        for (const dx of [0, 5, 32, -7])
            assert.deepEqual(a.overlap(b, dx, 0), { x: dx + 40, y: 5 }, `same row at dx ${dx}`);
        b.set(100, 3);
        for (const dx of [0, 5, 32, -7])
            assert.deepEqual(a.overlap(b, dx, 0), { x: dx + 100, y: 3 }, `earlier row at dx ${dx}`);
        // Only the right strip of a pair hits.
        const c = new Mask(130, 12);
        c.set(70, 9);
        assert.deepEqual(a.overlap(c, 5, 1), { x: 75, y: 10 });
        assert.equal(a.overlapArea(c, 5, 1), 1);
    }
);
