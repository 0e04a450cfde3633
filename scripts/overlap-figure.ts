// Draws docs/overlap.svg, the README's picture of a collision: two masks on a pixel grid, the zone where their
// boxes meet (the only words a test ANDs), the pixels set in both, and overlap()'s first point. The figures in
// the picture come from the library itself; test/docs.test.ts checks that the committed file is up to date.
// Run: node --import tsx scripts/overlap-figure.ts   (rewrites docs/overlap.svg)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Mask } from '../src/index.js';

/** The picture's masks and offset: also the example at the top of docs/masks.md. */
export const SHIP = `
.....#.....
....###....
....###....
..#######..
.#########.
###########
##.##.##.##`;
export const ROCK = `
..###..
.#####.
#######
#######
.#####.
..###..`;
export const DX = 7,
    DY = 3;

/** The SVG text of docs/overlap.svg. */
export function overlapFigure(): string {
    const ship = Mask.fromText(SHIP),
        rock = Mask.fromText(ROCK);
    const p = ship.overlap(rock, DX, DY);
    if (p === null) throw new Error('the figure needs masks that overlap');
    const area = ship.overlapArea(rock, DX, DY);
    const S = 16,
        PAD = 8;
    const W = Math.max(ship.width, DX + rock.width),
        H = Math.max(ship.height, DY + rock.height);
    const w = W * S + 2 * PAD + 250,
        h = H * S + 2 * PAD;
    const out: string[] = [];
    out.push(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="sans-serif" font-size="13">`
    );
    out.push(
        `<title>Two sprite masks, ship and rock, with the rock at (${DX}, ${DY}) in the ship's coordinates: the boxes meet in the dashed rectangle, ` +
            `the ${area} red pixels are set in both, the ringed one is overlap()'s first point</title>`
    );
    out.push(`<rect width="${w}" height="${h}" fill="#ffffff"/>`);
    out.push(`<g transform="translate(${PAD} ${PAD})">`);
    for (let x = 0; x <= W; x++) out.push(`<line x1="${x * S}" y1="0" x2="${x * S}" y2="${H * S}" stroke="#e4e4e4"/>`);
    for (let y = 0; y <= H; y++) out.push(`<line x1="0" y1="${y * S}" x2="${W * S}" y2="${y * S}" stroke="#e4e4e4"/>`);
    for (let y = 0; y < H; y++) {
        for (let x = 0; x < W; x++) {
            const a = ship.get(x, y),
                b = rock.get(x - DX, y - DY);
            const fill = a && b ? '#e0202a' : a ? '#3b6fd8' : b ? '#35a853' : null;
            if (fill)
                out.push(
                    `<rect x="${x * S + 1}" y="${y * S + 1}" width="${S - 2}" height="${S - 2}" fill="${fill}"${a && b ? '' : ' fill-opacity="0.75"'}/>`
                );
        }
    }
    out.push(
        `<rect x="0.5" y="0.5" width="${ship.width * S - 1}" height="${ship.height * S - 1}" fill="none" stroke="#3b6fd8" stroke-width="1"/>`
    );
    out.push(
        `<rect x="${DX * S + 0.5}" y="${DY * S + 0.5}" width="${rock.width * S - 1}" height="${rock.height * S - 1}" fill="none" stroke="#35a853" stroke-width="1"/>`
    );
    const ix0 = Math.max(0, DX),
        iy0 = Math.max(0, DY),
        ix1 = Math.min(ship.width, DX + rock.width),
        iy1 = Math.min(ship.height, DY + rock.height);
    out.push(
        `<rect x="${ix0 * S}" y="${iy0 * S}" width="${(ix1 - ix0) * S}" height="${(iy1 - iy0) * S}" fill="none" stroke="#222" stroke-width="2" stroke-dasharray="5 3"/>`
    );
    out.push(
        `<circle cx="${p.x * S + S / 2}" cy="${p.y * S + S / 2}" r="${S * 0.75}" fill="none" stroke="#222" stroke-width="2"/>`
    );
    out.push('</g>');
    // The legend, right of the grid.
    const tx = W * S + 2 * PAD + 12;
    const keys: [string, string][] = [
        ['#3b6fd8', `ship (${ship.width}×${ship.height})`],
        ['#35a853', `rock (${rock.width}×${rock.height}) at dx = ${DX}, dy = ${DY}`],
        ['#e0202a', `set in both: overlapArea = ${area}`]
    ];
    keys.forEach(([c, t], i) => {
        out.push(`<rect x="${tx}" y="${PAD + 6 + i * 22}" width="12" height="12" fill="${c}"/>`);
        out.push(`<text x="${tx + 18}" y="${PAD + 16 + i * 22}">${t}</text>`);
    });
    out.push(`<text x="${tx}" y="${PAD + 16 + 3 * 22}">dashed: where the boxes meet,</text>`);
    out.push(`<text x="${tx}" y="${PAD + 16 + 3 * 22 + 16}">the only words ANDed</text>`);
    out.push(`<text x="${tx}" y="${PAD + 16 + 5 * 22 + 6}">ringed: overlap() = { x: ${p.x}, y: ${p.y} }</text>`);
    out.push('</svg>');
    return out.join('\n') + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    writeFileSync(new URL('../docs/overlap.svg', import.meta.url), overlapFigure());
    console.log('wrote docs/overlap.svg');
}
