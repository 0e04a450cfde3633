// Draws docs/shapes.svg, the README's picture of hitmask/shapes: a real sprite's mask, its exact outline,
// the outline simplified at tolerance 1.5 and the convex pieces of that (maxVertices 8).
// Run: node --import tsx scripts/shapes-figure.ts   (rewrites docs/shapes.svg)
import { writeFileSync } from 'node:fs';
import { Mask } from '../src/index.js';
import { readImage } from '../src/node.js';
import { convexPieces, toPolygons, type Polygon } from '../src/shapes.js';

const S = 4,
    GAP = 24,
    LABEL = 28;
const image = await readImage(new URL('../test/fixtures/sprites/alien1.png', import.meta.url).pathname);
const mask = Mask.fromImageData(image);
const W = mask.width * S,
    H = mask.height * S;

// The set pixels as one path of row runs.
function pixels(dx: number, fill: string): string {
    let d = '';
    for (let y = 0; y < mask.height; y++) {
        for (let x = 0; x < mask.width; x++) {
            if (!mask.get(x, y)) continue;
            let e = x;
            while (e < mask.width && mask.get(e, y)) e++;
            d += `M${dx + x * S} ${y * S}h${(e - x) * S}v${S}h${-(e - x) * S}z`;
            x = e;
        }
    }
    return `<path d="${d}" fill="${fill}"/>`;
}

const ring = (r: number[], dx: number) =>
    'M' + Array.from({ length: r.length / 2 }, (_, i) => `${dx + r[2 * i] * S} ${r[2 * i + 1] * S}`).join('L') + 'Z';
const outline = (ps: Polygon[], dx: number) =>
    ps
        .map(
            p =>
                `<path d="${ring(p.outer, dx)}" fill="none" stroke="#111" stroke-width="1.5"/>` +
                p.holes.map(h => `<path d="${ring(h, dx)}" fill="none" stroke="#d33" stroke-width="1.5"/>`).join('')
        )
        .join('');

const exact = toPolygons(mask),
    simple = toPolygons(mask, { tolerance: 1.5 });
const pieces = simple.flatMap(p => convexPieces(p, { maxVertices: 8 }));
const colours = ['#8ecae6', '#ffb703', '#90be6d', '#f28482', '#cdb4db', '#f6bd60', '#84a59d', '#a2d2ff'];
const count = (ps: Polygon[]) =>
    ps.reduce((n, p) => n + p.outer.length / 2 + p.holes.reduce((m, h) => m + h.length / 2, 0), 0);
const panels = [
    { title: `mask ${mask.width}×${mask.height}, ${mask.count()} px`, body: (dx: number) => pixels(dx, '#555') },
    { title: `toPolygons: ${count(exact)} vertices`, body: (dx: number) => pixels(dx, '#ddd') + outline(exact, dx) },
    {
        title: `tolerance 1.5: ${count(simple)} vertices`,
        body: (dx: number) => pixels(dx, '#ddd') + outline(simple, dx)
    },
    {
        title: `its convexPieces: ${pieces.length}`,
        body: (dx: number) =>
            pieces
                .map(
                    (p, i) =>
                        `<path d="${ring(p, dx)}" fill="${colours[i % colours.length]}" stroke="#333" stroke-width="0.75"/>`
                )
                .join('')
    }
];
const width = panels.length * W + (panels.length - 1) * GAP;
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${H + LABEL}" viewBox="0 0 ${width} ${H + LABEL}" font-family="sans-serif" font-size="14">
<rect width="100%" height="100%" fill="#fff"/>
${panels.map((p, i) => `${p.body(i * (W + GAP))}<text x="${i * (W + GAP) + W / 2}" y="${H + 20}" text-anchor="middle">${p.title}</text>`).join('\n')}
</svg>
`;
writeFileSync(new URL('../docs/shapes.svg', import.meta.url), svg);
console.log(
    `docs/shapes.svg: ${svg.length} bytes; ${count(exact)} exact vertices, ${count(simple)} simplified, ${pieces.length} pieces`
);
