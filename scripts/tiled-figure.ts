// Draws docs/tiled.svg, docs/tiled.md's picture: a tileset of two 8x8 tiles (one collides by its pixels, one by the
// triangle drawn in Tiled's collision editor), a tile layer using each with flips, and the layer's solid pixels as
// tiledCollision gives them back. The art and the flipped shapes are drawn here; the mask comes from the library,
// and test/tiled.test.ts checks that the committed file is up to date.
// Run: node --import tsx scripts/tiled-figure.ts   (rewrites docs/tiled.svg)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tiledCollision } from '../src/tiled.js';

const T = 8;
// The tiles' art: . transparent; r, R rock; g grass; d dirt.
const ART = [
    ['..rrr...', '.rrrRr..', 'rrrrrRr.', 'rRrrrrrr', '..rrRr..', '..rRr...', '..rrrr..', '.rrrrRr.'],
    ['........', '........', '........', '........', '..g....g', '.ggg.ggd', '..gggddd', '.ggddddd']
];
const COLOURS: Record<string, [number, number, number]> = {
    r: [150, 150, 160],
    R: [95, 95, 110],
    g: [80, 160, 60],
    d: [125, 90, 50]
};
// Tile 2's collision shape: a 2:1 slope (no pixel centre lies on its edge).
const SLOPE = [
    [0, 8],
    [8, 4],
    [8, 8]
];
const H = 0x80000000,
    V = 0x40000000,
    D = 0x20000000;
// The layer: gid 1 in the top row, gid 2 below; per column the same flips.
const FLIPS: [number, string][] = [
    [0, 'no flip'],
    [H, 'H'],
    [V, 'V'],
    [D | H, 'D + H']
];

function tilesetImage(): { width: number; height: number; data: Uint8Array } {
    const width = 2 * T,
        data = new Uint8Array(width * T * 4);
    ART.forEach((rows, t) =>
        rows.forEach((row, y) =>
            [...row].forEach((c, x) => {
                if (c === '.') return;
                data.set([...COLOURS[c], 255], (y * width + t * T + x) * 4);
            })
        )
    );
    return { width, height: T, data };
}

// A tile pixel or shape point moved as the cell's flips move it: the anti-diagonal first (x and y swap), then
// horizontal, then vertical; `size` is T for a point, T - 1 for a pixel's index.
function flip(gid: number, x: number, y: number, size: number): [number, number] {
    if (gid & D) [x, y] = [y, x];
    if (gid & H) x = size - x;
    if (gid & V) y = size - y;
    return [x, y];
}

/** The SVG text of docs/tiled.svg. */
export function tiledFigure(): string {
    const gids = [1, 2].flatMap(g => FLIPS.map(([f]) => (g | f) >>> 0));
    const map = {
        orientation: 'orthogonal',
        width: 4,
        height: 2,
        tilewidth: T,
        tileheight: T,
        infinite: false,
        tilesets: [
            {
                firstgid: 1,
                name: 'tiles',
                tilewidth: T,
                tileheight: T,
                tilecount: 2,
                columns: 2,
                image: 'tiles.png',
                imagewidth: 2 * T,
                imageheight: T,
                tiles: [
                    {
                        id: 1,
                        objectgroup: { objects: [{ id: 1, x: 0, y: 0, polygon: SLOPE.map(([x, y]) => ({ x, y })) }] }
                    }
                ]
            }
        ],
        layers: [{ type: 'tilelayer', id: 1, name: 'ground', width: 4, height: 2, data: gids }]
    };
    const layer = tiledCollision(map, { images: { 'tiles.png': tilesetImage() } }).layer('ground');

    const S = 8, // picture pixels per tile pixel
        C = T * S, // a cell
        PAD = 16,
        TOP = 44;
    const xTiles = PAD + 48,
        xLayer = xTiles + 2 * C + 16 + 72,
        xMask = xLayer + 4 * C + 110;
    const w = xMask + 4 * C + PAD,
        h = TOP + 2 * C + 96;
    const out: string[] = [];
    const px = (x: number, y: number, fill: string) =>
        out.push(`<rect x="${x}" y="${y}" width="${S}" height="${S}" fill="${fill}"/>`);
    const rgb = (c: string) => `rgb(${COLOURS[c].join(',')})`;
    const text = (x: number, y: number, s: string, extra = '') =>
        out.push(`<text x="${x}" y="${y}"${extra}>${s}</text>`);
    // Tile `t`'s art and shape drawn flipped by `gid` into the cell at (x0, y0).
    const cell = (t: number, gid: number, x0: number, y0: number) => {
        out.push(`<rect x="${x0}" y="${y0}" width="${C}" height="${C}" fill="#f4f4f4" stroke="#ccc"/>`);
        for (let y = 0; y < T; y++)
            for (let x = 0; x < T; x++) {
                const c = ART[t][y][x];
                if (c === '.') continue;
                const [fx, fy] = flip(gid, x, y, T - 1);
                px(x0 + fx * S, y0 + fy * S, rgb(c));
            }
        if (t === 1) {
            const pts = SLOPE.map(([x, y]) =>
                flip(gid, x, y, T)
                    .map((v, i) => (i ? y0 : x0) + v * S)
                    .join(',')
            );
            out.push(
                `<polygon points="${pts.join(' ')}" fill="none" stroke="#d22" stroke-width="2" stroke-dasharray="5 3"/>`
            );
        }
    };

    out.push(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" ` +
            'font-family="sans-serif" font-size="13">'
    );
    out.push(
        '<title>A tileset of two tiles, a rock that collides by its pixels and a grassy slope with a triangle ' +
            "drawn in Tiled's collision editor; a tile layer using each with no flip, flipped horizontally, " +
            'vertically, and anti-diagonally then horizontally; and the solid pixels tiledCollision gives back: ' +
            'the rock as drawn, the slope as its triangle, each flipped with its cell</title>'
    );
    out.push(`<rect width="${w}" height="${h}" fill="#ffffff"/>`);
    text(xTiles, 20, 'tileset', ' font-weight="bold"');
    text(xLayer, 20, 'tile layer (gids with flip bits)', ' font-weight="bold"');
    text(xMask, 20, 'tiledCollision: solid pixels', ' font-weight="bold"');
    for (let t = 0; t < 2; t++) {
        cell(t, 0, xTiles + t * (C + 16), TOP);
        text(xTiles + t * (C + 16), TOP + C + 16, `gid ${t + 1}`);
    }
    FLIPS.forEach(([, name], c) => text(xLayer + c * C + C / 2, TOP - 6, name, ' text-anchor="middle"'));
    for (let r = 0; r < 2; r++) {
        text(xLayer - 8, TOP + r * C + C / 2 + 4, `gid ${r + 1}`, ' text-anchor="end"');
        for (let c = 0; c < 4; c++) cell(r, gids[r * 4 + c], xLayer + c * C, TOP + r * C);
    }
    text(xLayer + 4 * C + 12, TOP + C + 4, '→');
    // The mask: every pixel of the layer the library built, coloured by the tile that made it.
    for (let r = 0; r < 2; r++)
        for (let c = 0; c < 4; c++)
            out.push(
                `<rect x="${xMask + c * C}" y="${TOP + r * C}" width="${C}" height="${C}" fill="none" stroke="#ccc"/>`
            );
    for (let y = 0; y < 2 * T; y++)
        for (let x = 0; x < 4 * T; x++)
            if (layer.hitTest(x, y)) px(xMask + x * S, TOP + y * S, y < T ? '#555a66' : '#3b6fd8');
    const ly = TOP + 2 * C + 36;
    out.push(`<rect x="${PAD}" y="${ly - 11}" width="12" height="12" fill="#555a66"/>`);
    text(PAD + 18, ly, 'gid 1 has no shapes: its pixels collide (alpha above 127)');
    out.push(`<rect x="${PAD}" y="${ly + 9}" width="12" height="12" fill="#3b6fd8"/>`);
    text(
        PAD + 18,
        ly + 20,
        "gid 2 has a shape (dashed red) from Tiled's collision editor: the shape collides, not the grass tuft"
    );
    text(
        PAD,
        ly + 42,
        'flip bits: H 0x80000000, V 0x40000000, D 0x20000000 (anti-diagonal, first: x and y swap); ' +
            'a cell flips its shapes as it flips its pixels'
    );
    out.push('</svg>');
    return out.join('\n') + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    writeFileSync(new URL('../docs/tiled.svg', import.meta.url), tiledFigure());
    console.log('wrote docs/tiled.svg');
}
