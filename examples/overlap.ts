// `npm run example -- overlap`: builds masks from real sprite images, slides one sprite into another, and shows
// where their bounding boxes meet (too early) and where their pixels really touch, as an ASCII picture.
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { boundingRect, Mask } from '../src/index.js';

const sprite = (name: string) => {
    const png = PNG.sync.read(readFileSync(new URL(`./sprites/${name}.png`, import.meta.url)));
    return { name, mask: Mask.fromRGBA(png.data, png.width, png.height) };
};
const a = sprite('alien1'),
    b = sprite('alien3');
const A = a.mask,
    B = b.mask;

// Slide b toward a along a diagonal, from the bottom right, one pixel per step.
let boxStep = -1,
    pixelStep = -1;
const start = { x: A.width + 4, y: Math.round(A.height * 0.55) + 4 };
const at = (step: number) => ({ x: start.x - step, y: start.y - Math.floor(step * 0.25) });
for (let step = 0; step < 200 && pixelStep < 0; step++) {
    const { x, y } = at(step);
    const boxes = x < A.width && x + B.width > 0 && y < A.height && y + B.height > 0;
    if (boxes && boxStep < 0) boxStep = step;
    if (A.overlaps(B, x, y)) pixelStep = step;
}
const final = at(pixelStep + 3);
const hit = A.overlap(B, final.x, final.y);
const area = A.overlapArea(B, final.x, final.y);
const both = A.overlapMask(B, final.x, final.y);

console.log(
    `hitmask ${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}: pixel-perfect collision between two real sprites\n`
);
console.log(
    `${a.name}.png → ${A}, ${A.count()} solid pixels (alpha > 127); ${b.name}.png → ${B}, ${B.count()} solid pixels`
);
console.log(`${b.name} slides toward ${a.name} from (${start.x}, ${start.y}), one pixel left (and ¼ up) per step:`);
console.log(
    `  bounding boxes meet at step ${boxStep}, at (${at(boxStep).x}, ${at(boxStep).y}) — a box test would report a hit here`
);
console.log(
    `  pixels first touch at step ${pixelStep}, at (${at(pixelStep).x}, ${at(pixelStep).y}) — ${pixelStep - boxStep} steps later\n`
);

// ASCII picture around the intersection zone of the final placement (3 steps past first contact).
const ix0 = Math.max(0, final.x),
    iy0 = Math.max(0, final.y);
const ix1 = Math.min(A.width, final.x + B.width),
    iy1 = Math.min(A.height, final.y + B.height);
const M = 10;
const x0 = Math.max(Math.min(0, final.x), ix0 - M),
    x1 = Math.min(Math.max(A.width, final.x + B.width), ix1 + M);
const y0 = Math.max(Math.min(0, final.y), iy0 - M),
    y1 = Math.min(Math.max(A.height, final.y + B.height), iy1 + M);
console.log(
    `${b.name} at (${final.x}, ${final.y}), view x ${x0}..${x1 - 1}, y ${y0}..${y1 - 1}:  o = ${a.name}   x = ${b.name}   @ = both   + = boxes overlap, pixels don't`
);
for (let y = y0; y < y1; y++) {
    let row = '';
    for (let x = x0; x < x1; x++) {
        const inA = A.get(x, y),
            inB = B.get(x - final.x, y - final.y);
        const inZone = x >= ix0 && x < ix1 && y >= iy0 && y < iy1;
        row += inA && inB ? '@' : inA ? 'o' : inB ? 'x' : inZone ? '+' : ' ';
    }
    console.log('  ' + row);
}
console.log(
    `\nfirst overlapping pixel (row-major): ${hit ? `(${hit.x}, ${hit.y}) in ${a.name}'s coordinates` : 'none'}`
);
console.log(
    `overlap area: ${area} pixels (check: overlapMask().count() = ${both.count()}); overlap box: ${JSON.stringify(boundingRect(both))}`
);
console.log(
    `intersection zone of the boxes: ${ix1 - ix0}×${iy1 - iy0} = ${(ix1 - ix0) * (iy1 - iy0)} pixels, of which ${area} really collide`
);

// Timings (median of 9 samples, each a loop long enough to be measured).
const ns = (fn: () => unknown) => {
    let n = 1;
    for (;;) {
        const t = performance.now();
        for (let i = 0; i < n; i++) fn();
        if (performance.now() - t > 5) break;
        n *= 2;
    }
    const s: number[] = [];
    for (let k = 0; k < 9; k++) {
        const t = performance.now();
        for (let i = 0; i < n; i++) fn();
        s.push(((performance.now() - t) * 1e6) / n);
    }
    return s.sort((p, q) => p - q)[4];
};
const miss = at(pixelStep - 1);
console.log('\ntimings (median ns per call):');
console.log(
    `  overlaps at contact        ${ns(() => A.overlaps(B, final.x, final.y))
        .toFixed(0)
        .padStart(6)} ns`
);
console.log(
    `  overlaps, near miss        ${ns(() => A.overlaps(B, miss.x, miss.y))
        .toFixed(0)
        .padStart(6)} ns  (boxes overlap, every word of the zone is ANDed)`
);
console.log(
    `  overlap (first point)      ${ns(() => A.overlap(B, final.x, final.y))
        .toFixed(0)
        .padStart(6)} ns`
);
console.log(
    `  overlapArea                ${ns(() => A.overlapArea(B, final.x, final.y))
        .toFixed(0)
        .padStart(6)} ns`
);
console.log(
    `  overlapMask                ${ns(() => A.overlapMask(B, final.x, final.y))
        .toFixed(0)
        .padStart(6)} ns`
);
console.log('\nMore: `npm test` (all tests), `npm run bench -- mask` (kernels vs naive loop and pygame), README.md.');
