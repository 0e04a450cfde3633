// @test slow browser phaser3
// hitmask/phaser in headless Chromium with the real Phaser: a generated, trimmed texture atlas (PNG + TexturePacker
// JSON, and its .hitmask built by buildAtlas), seeded placements against a reference that inverts Phaser's own
// vertex formula, what Phaser renders against the placed masks, Arcade's processCallback, and the loader.
// Phaser 4 by default; HITMASK_PHASER=phaser3 bundles the page with Phaser 3 (the devDependency `phaser3`, an
// alias of phaser@3), as scripts/test.ts does in its Phaser 3 suite; the Phaser 4 run also loads a Phaser 3 page
// beside it and compares 150 seeded poses on both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import type Phaser from 'phaser';
import { serve } from '../examples/serve.js';
import { buildAtlas } from '../src/node.js';
import { MaskAtlas } from '../src/index.js';
import { Mask } from '../src/index.js';
import {
    addMaskAtlas,
    drawHitmask,
    forgetFrameMask,
    frameMask,
    hitmaskFor,
    hitTest,
    overlap,
    overlaps,
    pixelHitArea,
    setAlphaThreshold,
    setFrameMask,
    shapeOf,
    type HitmaskOptions,
    type PhaserSpriteLike
} from '../src/phaser.js';
import { TransformCache } from '../src/index.js';
import { mulberry32 } from './reference.js';
import type { ExpectedFrame, HitmaskTestApi, Params } from './phaser-page.js';
import { flipX, flipY } from '../src/index.js';
import { chromiumMissing, openBrowser, waitFor } from './chromium.js';
import { clickBox, pointerRounds } from './pointer-clicks.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
// Which package the page bundles as 'phaser'.
const PHASER = process.env.HITMASK_PHASER ?? 'phaser';
// Poses compared between Phaser 3 and 4.
const POSES = 150;

let site = '',
    browser: Browser | null = null,
    page: Page | null = null,
    close: (() => void) | null = null;
const errors: string[] = [],
    warnings: string[] = [];
let frames: ExpectedFrame[] = [];

/** A seeded sheet of trimmed frames: blobs of opaque white, some pixels at alpha 200 (solid) and 100 (not), transparent margins. */
function makeSheet(seed: number): { png: Buffer; json: object; frames: ExpectedFrame[] } {
    const rnd = mulberry32(seed),
        out: ExpectedFrame[] = [],
        cells: { f: ExpectedFrame; alpha: Uint8Array }[] = [];
    for (let i = 0; i < 14; i++) {
        const sw = 8 + Math.floor(rnd() * 33),
            sh = 8 + Math.floor(rnd() * 33),
            alpha = new Uint8Array(sw * sh);
        const blobs = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => ({
            cx: sw * (0.2 + rnd() * 0.6),
            cy: sh * (0.2 + rnd() * 0.6),
            rx: 2 + rnd() * sw * 0.4,
            ry: 2 + rnd() * sh * 0.4
        }));
        for (let y = 0; y < sh; y++)
            for (let x = 0; x < sw; x++) {
                if (!blobs.some(b => ((x + 0.5 - b.cx) / b.rx) ** 2 + ((y + 0.5 - b.cy) / b.ry) ** 2 < 1)) continue;
                const r = rnd();
                alpha[y * sw + x] = r < 0.08 ? 0 : r < 0.12 ? 100 : r < 0.16 ? 200 : 255;
            }
        // Trim to the pixels with any alpha (as TexturePacker does); two frames stay untrimmed.
        let x0 = sw,
            y0 = sh,
            x1 = 0,
            y1 = 0;
        for (let y = 0; y < sh; y++)
            for (let x = 0; x < sw; x++)
                if (alpha[y * sw + x]) {
                    x0 = Math.min(x0, x);
                    y0 = Math.min(y0, y);
                    x1 = Math.max(x1, x + 1);
                    y1 = Math.max(y1, y + 1);
                }
        if (i < 2 || x1 <= x0) [x0, y0, x1, y1] = [0, 0, sw, sh];
        const rows = Array.from({ length: sh }, (_, y) =>
            Array.from({ length: sw }, (_, x) => (alpha[y * sw + x] > 127 ? '#' : '.')).join('')
        );
        const f: ExpectedFrame = {
            name: `f${i}`,
            sw,
            sh,
            tx: x0,
            ty: y0,
            tw: x1 - x0,
            th: y1 - y0,
            rows,
            pivot: i === 5
        };
        out.push(f);
        cells.push({ f, alpha });
    }
    // Shelf packing with 2 px gaps.
    const W = 256;
    let cx = 0,
        cy = 0,
        shelf = 0;
    const at: [number, number][] = [];
    for (const { f } of cells) {
        if (cx + f.tw > W) {
            cx = 0;
            cy += shelf + 2;
            shelf = 0;
        }
        at.push([cx, cy]);
        cx += f.tw + 2;
        shelf = Math.max(shelf, f.th);
    }
    const H = cy + shelf;
    const png = new PNG({ width: W, height: H });
    png.data.fill(0);
    const json: { frames: Record<string, object>; meta: object } = {
        frames: {},
        meta: { image: 'sheet.png', size: { w: W, h: H }, scale: '1', format: 'RGBA8888' }
    };
    cells.forEach(({ f, alpha }, k) => {
        const [px, py] = at[k];
        for (let y = 0; y < f.th; y++)
            for (let x = 0; x < f.tw; x++) {
                const a = alpha[(f.ty + y) * f.sw + f.tx + x],
                    o = 4 * ((py + y) * W + px + x);
                png.data[o] = png.data[o + 1] = png.data[o + 2] = a ? 255 : 0;
                png.data[o + 3] = a;
            }
        json.frames[f.name] = {
            frame: { x: px, y: py, w: f.tw, h: f.th },
            rotated: false,
            trimmed: f.tw !== f.sw || f.th !== f.sh,
            spriteSourceSize: { x: f.tx, y: f.ty, w: f.tw, h: f.th },
            sourceSize: { w: f.sw, h: f.sh },
            ...(f.pivot ? { pivot: { x: 0.3, y: 0.7 } } : {})
        };
    });
    return { png: PNG.sync.write(png), json, frames: out };
}

function api(): Page {
    assert.ok(page, 'the page is up');
    return page;
}

before(async () => {
    if (chromiumMissing) return;
    site = mkdtempSync(join(tmpdir(), 'hitmask-phaser-'));
    const sheet = makeSheet(16);
    frames = sheet.frames;
    writeFileSync(join(site, 'sheet.png'), sheet.png);
    writeFileSync(join(site, 'sheet.json'), JSON.stringify(sheet.json));
    const built = await buildAtlas([join(site, 'sheet.json')], { cwd: site, workers: 0 });
    writeFileSync(join(site, 'sheet.hitmask'), built.atlas.toBytes());
    // A corrupt atlas: the real bytes with one flipped in the middle (the CRC catches it).
    const bad = built.atlas.toBytes();
    bad[bad.length >> 1] ^= 0xff;
    writeFileSync(join(site, 'corrupt.hitmask'), bad);
    copyFileSync(join(HERE, 'phaser-page.html'), join(site, 'index.html'));
    await build({
        entryPoints: [join(HERE, 'phaser-page.ts')],
        outfile: join(site, 'page.js'),
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        logLevel: 'warning',
        alias: PHASER === 'phaser' ? {} : { phaser: PHASER }
    });
    // The same page on Phaser 3 (its own page, so each Phaser has its window and its global `Phaser`), for the test
    // that compares the majors (in the Phaser 4 run).
    if (PHASER === 'phaser') {
        await build({
            entryPoints: [join(HERE, 'phaser-page.ts')],
            outfile: join(site, 'page3.js'),
            bundle: true,
            format: 'esm',
            platform: 'browser',
            target: 'es2022',
            logLevel: 'warning',
            alias: { phaser: 'phaser3' }
        });
        writeFileSync(
            join(site, 'phaser3.html'),
            readFileSync(join(HERE, 'phaser-page.html'), 'utf8').replace('src="page.js"', 'src="page3.js"')
        );
    }
    const server = await serve(site, 0);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const b = (browser = await openBrowser('webgl'));
    close = () => {
        void b.close();
        server.close();
    };
    page = await browser.newPage();
    page.on('console', m => {
        if (m.type() === 'error') errors.push(m.text());
        if (m.type() === 'warning' && m.text().startsWith('hitmask:')) warnings.push(m.text());
    });
    page.on('pageerror', e => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${port}/`);
    await waitFor(page, 'the test page to load (window.hitmaskTest)', () => 'hitmaskTest' in window);
    const r = await page.evaluate(() => (window as unknown as { hitmaskTest: HitmaskTestApi }).hitmaskTest.ready());
    assert.deepEqual(r.loadErrors, []);
});

after(() => {
    close?.();
    if (site) rmSync(site, { recursive: true, force: true });
});

// Runs one method of the page's API.
function call<K extends keyof HitmaskTestApi>(
    name: K,
    ...args: Parameters<HitmaskTestApi[K]>
): Promise<Awaited<ReturnType<HitmaskTestApi[K]>>> {
    return api().evaluate(
        ([n, a]) => {
            const t = (window as unknown as { hitmaskTest: Record<string, (...x: unknown[]) => unknown> }).hitmaskTest;
            return t[n](...a);
        },
        [name, args] as [string, unknown[]]
    ) as Promise<Awaited<ReturnType<HitmaskTestApi[K]>>>;
}

const skip = chromiumMissing;

test(
    'phaser: frame masks from the .hitmask atlas and from the pixels both equal the generated frames, trim offsets included',
    { skip },
    async () => {
        const r = await call('frames', frames);
        for (const f of r) {
            assert.equal(f.atlas, 0, `${f.name}: atlas mask`);
            assert.equal(f.pixels, 0, `${f.name}: pixel mask`);
            assert.equal(f.sources, 'atlas pixels', `${f.name}: 'sheet' uses the bound atlas, 'pix' reads pixels`);
        }
        assert.ok(r.filter(f => f.trimmed).length >= 10, 'most frames are trimmed in the sheet');
    }
);

test(
    'phaser: 1,200 seeded placements (rotated, scaled, mirrored, flipped, trimmed, origin-shifted, custom pivot) equal the reference',
    { skip },
    async t => {
        const r = await call('placements', frames, 7, 1200);
        t.diagnostic(`${r.set} set pixels, ${r.ties} ties, ${r.hits} pixel hits, ${r.boxOnly} box-only overlaps`);
        assert.deepEqual(r.failures, []);
        assert.equal(r.bad, 0);
        assert.equal(r.wrongAnswer, 0, 'overlaps() is the placed pixels touching');
        assert.ok(r.set > 200_000, `${r.set} set pixels compared`);
        assert.ok(r.ties < r.set / 4, `${r.ties} ties (centres exactly on a frame pixel edge) of ${r.set}`);
        assert.ok(r.hits > 150 && r.boxOnly > 50, `a mix: ${r.hits} pixel hits, ${r.boxOnly} box-only overlaps`);
    }
);

test(
    `phaser: Phaser 3 and 4 give identical placed masks, overlaps() and hitTest() on the same ${POSES} seeded poses`,
    { skip },
    async t => {
        if (PHASER !== 'phaser') {
            t.skip('the Phaser 4 run compares both majors');
            return;
        }
        const three = await (browser as Browser).newPage();
        const threeErrors: string[] = [];
        three.on('console', m => {
            if (m.type() === 'error') threeErrors.push(m.text());
        });
        three.on('pageerror', e => threeErrors.push(e.message));
        try {
            await three.goto(
                api()
                    .url()
                    .replace(/\/[^/]*$/, '/phaser3.html')
            );
            await waitFor(three, 'the Phaser 3 page to load (window.hitmaskTest)', () => 'hitmaskTest' in window);
            const ready = await three.evaluate(() =>
                (window as unknown as { hitmaskTest: HitmaskTestApi }).hitmaskTest.ready()
            );
            assert.deepEqual(ready.loadErrors, []);
            const [on4, on3] = await Promise.all([
                call('poses', frames, 27, POSES),
                three.evaluate(
                    ([f, n]) => (window as unknown as { hitmaskTest: HitmaskTestApi }).hitmaskTest.poses(f, 27, n),
                    [frames, POSES] as const
                )
            ]);
            assert.deepEqual([on4.version.split('.')[0], on3.version.split('.')[0]], ['4', '3']);
            const hits = on4.lines.reduce((n, l) => n + (/overlaps (\d*)/.exec(l)?.[1].split('1').length ?? 1) - 1, 0);
            t.diagnostic(
                `Phaser ${on4.version} and ${on3.version}; first pose: ${on4.lines[0]}; ${hits} of ${8 * POSES - 36} pairs overlap`
            );
            assert.equal(on4.lines.length, POSES);
            assert.ok(hits > 50, 'pairs both overlap and not');
            assert.deepEqual(on3.lines, on4.lines);
            assert.ok(
                on4.lines.every(l => l.endsWith('hitTest 64/64')),
                'hitTest agrees with the placed mask'
            );
        } finally {
            await three.close();
        }
        assert.deepEqual(threeErrors, []);
    }
);

test(
    'phaser: what Phaser renders is the placed mask up to the 1-pixel rounding band, and exactly when the offset is whole; drawHitmask draws it exactly',
    { skip },
    async t => {
        const rnd = mulberry32(3),
            poses: Params[] = [];
        const names = frames.map(f => f.name);
        for (let k = 0; k < 10; k++) {
            poses.push({
                frame: names[k % names.length],
                x: 96 + (rnd() - 0.5) * 10,
                y: 96 + (rnd() - 0.5) * 10,
                ox: rnd(),
                oy: rnd(),
                sx: (rnd() < 0.5 ? -1 : 1) * (1 + rnd() * 1.5),
                sy: 1 + rnd() * 1.5,
                angle: k < 3 ? (k * Math.PI) / 2 : rnd() * 7,
                fx: rnd() < 0.5,
                fy: rnd() < 0.5
            });
        }
        const r = await call('render', poses, frames);
        t.diagnostic(
            `boundary-band differences ${r.map(x => `${x.inBand}/${x.setPixels}`).join(' ')}; aligned: near an edge ${r.map(x => x.alignedNearEdge).join(' ')}`
        );
        for (const [k, x] of r.entries()) {
            assert.equal(
                x.outsideBand,
                0,
                `pose ${k} ${JSON.stringify(poses[k])}: rendered vs mask outside the boundary band (${JSON.stringify(x)})`
            );
            assert.ok(x.setPixels > 20, `pose ${k}: a visible sprite`);
            assert.ok(
                x.inBand < x.setPixels / 2,
                `pose ${k}: boundary differences are a minority (${JSON.stringify(x)})`
            );
            assert.equal(x.drawDiff, 0, `pose ${k}: drawHitmask's fill is the placed mask`);
            assert.equal(
                x.alignedDiff,
                0,
                `pose ${k}: with a whole offset, Phaser draws exactly the mask but for centres within 1/64 px of an edge (${JSON.stringify(x)})`
            );
        }
    }
);

test(
    'phaser: with roundPixels, an unrotated, unscaled sprite at any position is drawn exactly as its placed mask',
    { skip },
    async () => {
        // Phaser 3 floors the sprite's position before it rounds the quad's corner: exact at whole positions
        // (fractional origins included); at fractional ones it may draw 1 px left of or above the mask (docs/phaser.md).
        assert.deepEqual(await call('roundPixels', 5, PHASER === 'phaser3'), new Array(12).fill(0));
    }
);

test(
    'phaser: Arcade overlap with processCallback = overlaps calls back exactly the pairs whose pixels touch',
    { skip },
    async t => {
        const r = await call('arcade', frames, 11);
        t.diagnostic(JSON.stringify(r));
        assert.equal(r.mismatch, 0);
        assert.ok(r.direct, 'overlaps passed itself as the process callback lets the same pairs through');
        assert.ok(
            r.want > 0 && r.called > r.want,
            `box overlaps ${r.called}, pixel hits ${r.want}, callbacks ${r.hits}`
        );
        assert.equal(r.hits, r.want);
    }
);

test(
    'phaser: sprites in rotated, scaled containers; forgetFrameMask after a redraw; setAlphaThreshold; a bound atlas serves single-image textures and refuses a frame of another size',
    { skip },
    async () => {
        assert.deepEqual(await call('containers', frames, 21), { compared: 100, differ: 0 });
        const b = await call('baseFrame');
        assert.deepEqual(
            { ...b, error: b.error.replace(/ was the atlas.*/, '') },
            {
                before: 120,
                stale: 120,
                redrawn: [60, 6],
                threshold: [0, 120],
                source: 'atlas',
                count: 50,
                x: 1,
                matched: [1, 1],
                bound: [true, true, true],
                error: 'Error: hitmask atlas frame "x" is 11x10, but texture "solid2" frame "__BASE" is 12x10;'
            }
        );
    }
);

test(
    'phaser: Arcade with a negative scale moves the body a width away and never asks the process callback; setFlipX mirrors in place and works; overlaps() sees both',
    { skip },
    async () => {
        const r = await call('arcadeMirrored', frames);
        const width = frames[0].sw;
        assert.deepEqual(r.negative, { direct: true, asked: false, hit: false, bodyShift: width }, JSON.stringify(r));
        assert.deepEqual(r.flipped, { direct: true, asked: true, hit: true, bodyShift: 0 }, JSON.stringify(r));
    }
);

test(
    'phaser: a destroyed sprite or its body collides with nothing; hitmaskFor() of it is an Error',
    { skip },
    async () => {
        const r = await call('destroyedSprites');
        assert.deepEqual(r.alive, [true, true, true]);
        assert.deepEqual(r.after, [false, false, false, false]);
        assert.match(r.error, /^Error: The game object was destroyed: it has no pixels to test/);
    }
);

test(
    'phaser: real pointer events with pixelHitArea fire exactly where hitTest says, and where Phaser draws solid pixels up to the 1-px band',
    { skip },
    async t => {
        const canvas = await api().locator('canvas').boundingBox();
        assert.ok(canvas);
        t.diagnostic(
            await pointerRounds('Phaser', async seed => {
                const made = await clickBox(api(), canvas, await call('pointerSetup', frames, seed), 192);
                return { made, clicks: await call('pointerCheck') };
            })
        );
    }
);

test('phaser: typical costs (reported, not asserted)', { skip }, async t => {
    const r = await call('timing');
    t.diagnostic(
        `overlaps, touching, one rotating (cached angles): ${r.touching.toFixed(2)} µs; boxes apart: ${r.apart.toFixed(2)} µs; hitmaskFor, unrotated: ${r.place.toFixed(2)} µs`
    );
    assert.ok(Number.isFinite(r.touching) && Number.isFinite(r.apart) && Number.isFinite(r.place));
});

test(
    'phaser: load.hitmask caches the MaskAtlas; a corrupt file fails to load and binds nothing; no console errors',
    { skip },
    async () => {
        const r = await call('loader');
        assert.deepEqual(r, { inCache: true, completed: true, pixStill: 'pixels', corruptCached: false });
        assert.deepEqual(
            warnings.map(w => w.replace(/[0-9a-f]{8}/g, 'CRC')),
            ['hitmask: corrupt: Corrupt hitmask atlas: CRC-32 is CRC, the file says CRC (damaged bytes).']
        );
        // Phaser reports the failed file itself; nothing else may have logged an error.
        assert.deepEqual(
            errors.filter(e => !/^Failed to process file.*corrupt/.test(e)),
            []
        );
        assert.equal(errors.length, 1, 'Phaser logged the corrupt file');
    }
);

// In Node, without Phaser: a stand-in sprite whose texture's mask comes from a bound atlas (no pixels to read).
const fakeGame = {} as Phaser.Game;
function fakeSprite(
    key: string,
    mask: Mask,
    at: { x: number; y: number; sw: number; sh: number },
    props: Partial<PhaserSpriteLike> = {}
): PhaserSpriteLike {
    addMaskAtlas(
        new MaskAtlas().add(key, mask, { x: at.x, y: at.y, sourceWidth: at.sw, sourceHeight: at.sh }),
        key,
        fakeGame
    );
    const frame = {
        texture: { key, manager: { game: fakeGame } },
        name: '__BASE',
        realWidth: at.sw,
        realHeight: at.sh,
        customPivot: false
    } as unknown as Phaser.Textures.Frame;
    return {
        frame,
        x: 0,
        y: 0,
        displayOriginX: 0,
        displayOriginY: 0,
        scaleX: 1,
        scaleY: 1,
        rotation: 0,
        flipX: false,
        flipY: false,
        ...props
    };
}

test('phaser (Node): flipX/flipY mirror a trimmed frame inside its untrimmed box, the origin staying put', () => {
    const m = Mask.fromText('##.\n#..\n###\n');
    const s = fakeSprite('t1', m, { x: 2, y: 1, sw: 8, sh: 6 }, { x: 50, y: 40, displayOriginX: 3, displayOriginY: 2 });
    assert.deepEqual(hitmaskFor(s), { mask: m, x: 50 - 3 + 2, y: 40 - 2 + 1 });
    s.flipX = true;
    // Frame column u is drawn at 8 − u: the mask's columns 2..5 land at 3..6 (8 − 2 − 3 = 3), mirrored.
    const fx = hitmaskFor(s);
    assert.ok(fx.mask.equals(flipX(m)));
    assert.deepEqual([fx.x, fx.y], [50 - 3 + 3, 40 - 2 + 1]);
    assert.deepEqual(shapeOf(s).pose, {
        x: 50,
        y: 40,
        originX: 0,
        originY: 1,
        scaleX: 1,
        scaleY: 1,
        angle: 0,
        flipX: true,
        flipY: false
    });
    s.flipY = true;
    const fxy = hitmaskFor(s);
    assert.ok(fxy.mask.equals(flipY(flipX(m))));
    assert.deepEqual([fxy.x, fxy.y], [50 - 3 + 3, 40 - 2 + 2]);
    // A custom pivot flips about the origin instead (Phaser negates the scale only).
    (s.frame as { customPivot: boolean }).customPivot = true;
    s.flipY = false;
    assert.deepEqual(shapeOf(s).pose, {
        x: 50,
        y: 40,
        originX: 1,
        originY: 1,
        scaleX: -1,
        scaleY: 1,
        angle: 0,
        flipX: false,
        flipY: false
    });
    assert.deepEqual([hitmaskFor(s).x, hitmaskFor(s).y], [50 + 1 - 3, 40 - 2 + 1]);
});

test('phaser (Node): a NaN or infinite scale, rotation or position is a RangeError naming that field', () => {
    const m = Mask.fromText('##\n##\n');
    for (const [k, v] of [
        ['scaleX', NaN],
        ['rotation', Infinity],
        ['y', NaN],
        ['scaleY', -Infinity]
    ] as const) {
        const s = fakeSprite(`nan-${k}`, m, { x: 0, y: 0, sw: 2, sh: 2 }, { [k]: v });
        assert.throws(
            () => hitmaskFor(s),
            (e: unknown) => e instanceof RangeError && e.message === `sprite.${k} must be a finite number, got ${v}.`,
            k
        );
        assert.throws(() => overlaps(s, s), RangeError);
    }
});

test('phaser (Node): drawHitmask fills exactly the set pixels and outlines exactly their edges; bodies and tiles are rectangles', () => {
    const m = Mask.fromText('.##..\n#.##.\n#####\n..#.#\n');
    const s = fakeSprite('t2', m, { x: 0, y: 0, sw: 5, sh: 4 }, { x: 10, y: 20 });
    const fills = new Set<string>(),
        edges = new Map<string, number>(),
        boxes: number[][] = [];
    let filled = 0;
    const g = {
        fillStyle: () => g,
        lineStyle: () => g,
        fillRect: (x: number, y: number, w: number, h: number) => {
            assert.equal(h, 1);
            for (let i = 0; i < w; i++) {
                fills.add(`${x + i},${y}`);
                filled++;
            }
            return g;
        },
        lineBetween: (x0: number, y0: number, x1: number, y1: number) => {
            for (let t = 0; t < Math.abs(x1 - x0) + Math.abs(y1 - y0); t++) {
                const k = x0 === x1 ? `v${x0},${Math.min(y0, y1) + t}` : `h${Math.min(x0, x1) + t},${y0}`;
                edges.set(k, (edges.get(k) ?? 0) + 1);
            }
            return g;
        },
        strokeRect: (...r: number[]) => {
            boxes.push(r);
            return g;
        }
    } as unknown as Phaser.GameObjects.Graphics;
    const placed = drawHitmask(g, s, { outline: 0xffffff, box: 0x00ff00 });
    assert.deepEqual(placed, { mask: m, x: 10, y: 20 });
    const want = new Set<string>(),
        wantEdges = new Set<string>();
    for (let y = 0; y < 4; y++)
        for (let x = 0; x < 5; x++) {
            if (!m.get(x, y)) continue;
            want.add(`${10 + x},${20 + y}`);
            if (!m.get(x - 1, y)) wantEdges.add(`v${10 + x},${20 + y}`);
            if (!m.get(x + 1, y)) wantEdges.add(`v${11 + x},${20 + y}`);
            if (!m.get(x, y - 1)) wantEdges.add(`h${10 + x},${20 + y}`);
            if (!m.get(x, y + 1)) wantEdges.add(`h${10 + x},${21 + y}`);
        }
    assert.deepEqual([...fills].sort(), [...want].sort());
    assert.equal(filled, m.count(), 'each pixel filled once');
    assert.deepEqual([...edges.keys()].sort(), [...wantEdges].sort());
    assert.ok(
        [...edges.values()].every(n => n === 1),
        'each edge drawn once'
    );
    assert.deepEqual(boxes, [[10, 20, 5, 4]]);
    // An Arcade body (x, y = top-left) and a tile (world edges) count as their rectangles.
    const body = { x: 12.6, y: 20, width: 2, height: 1 } as unknown as Phaser.Physics.Arcade.Body;
    assert.equal(overlaps(s, body), false, 'the body covers the centres of pixels (13, 20) and (14, 20), both clear');
    body.x = 11.6;
    assert.equal(overlaps(s, body), true, 'now (12, 20), set');
    const tile = {
        tilemapLayer: {},
        getLeft: () => 12,
        getTop: () => 23,
        getRight: () => 13,
        getBottom: () => 24
    } as unknown as Phaser.Tilemaps.Tile;
    assert.equal(overlaps(s, tile), true);
    assert.equal(
        overlaps(tile, { ...tile, getLeft: () => 13, getRight: () => 14 } as unknown as Phaser.Tilemaps.Tile),
        false
    );
});

test("phaser (Node): hitTest answers the placed mask pixel by pixel; pixelHitArea takes Phaser's local point back to it; bad points and objects are refused", () => {
    const m = Mask.fromText('#..#\n.##.\n#..#\n');
    const s = fakeSprite(
        'hit',
        m,
        { x: 1, y: 1, sw: 6, sh: 5 },
        { x: 20.5, y: 30.25, displayOriginX: 2, displayOriginY: 1, scaleX: 2, rotation: 0.5 }
    );
    const p = hitmaskFor(s);
    let on = 0;
    for (let y = p.y - 3; y < p.y + p.mask.height + 3; y++) {
        for (let x = p.x - 3; x < p.x + p.mask.width + 3; x++) {
            const want = p.mask.get(x - p.x, y - p.y);
            assert.equal(hitTest(s, x + 0.25, y + 0.75), want, `(${x}, ${y})`);
            if (want) on++;
        }
    }
    assert.equal(on, p.mask.count());
    // Phaser's hit test hands the callback the point in the object's unrotated, unscaled space plus the display origin.
    const area = pixelHitArea(s),
        { a, b, c, d } = { a: 2 * Math.cos(0.5), b: 2 * Math.sin(0.5), c: -Math.sin(0.5), d: Math.cos(0.5) };
    const withMatrix = Object.assign(s, {
        getWorldTransformMatrix: () => ({ a, b, c, d, tx: 20.5, ty: 30.25 })
    }) as unknown as Phaser.GameObjects.GameObject;
    for (let k = 0; k < 200; k++) {
        const wx = p.x - 2 + ((k % 20) * (p.mask.width + 4)) / 20,
            wy = p.y - 2 + (Math.floor(k / 20) * (p.mask.height + 4)) / 10;
        // The inverse of the world transform, as Phaser's input computes it.
        const det = a * d - b * c,
            ux = wx - 20.5,
            uy = wy - 30.25;
        const lx = (d * ux - c * uy) / det + 2,
            ly = (a * uy - b * ux) / det + 1;
        assert.equal(area.hitAreaCallback(area.hitArea, lx, ly, withMatrix), hitTest(s, wx, wy), `(${wx}, ${wy})`);
    }
    assert.throws(() => hitTest(s, NaN, 0), /^RangeError: hitTest\(\): x must be a finite number, got NaN\.$/);
    assert.throws(
        () => hitTest(s, 0, '1' as unknown as number),
        /^RangeError: hitTest\(\): y must be a finite number, got "1"\.$/
    );
    assert.throws(
        () => pixelHitArea({} as PhaserSpriteLike),
        /^TypeError: sprite must be a textured Phaser game object/
    );
});

test('phaser (Node): wrong arguments throw TypeError, a skewed container RangeError', () => {
    assert.throws(
        () => hitmaskFor(42 as unknown as PhaserSpriteLike),
        /TypeError: expected a textured game object, an Arcade body or a tile, got 42/
    );
    assert.throws(() => addMaskAtlas({} as MaskAtlas, 'x', fakeGame), /TypeError: atlas must be a MaskAtlas/);
    assert.throws(() => addMaskAtlas(new MaskAtlas(), 'x', null as unknown as Phaser.Game), /TypeError: game must be/);
    assert.throws(
        () => addMaskAtlas(new MaskAtlas(), [1] as unknown as string[], fakeGame),
        /TypeError: textures must be a texture key/
    );
    const s = fakeSprite('t3', new Mask(2, 2, true), { x: 0, y: 0, sw: 2, sh: 2 });
    assert.throws(
        () => drawHitmask({} as Phaser.GameObjects.Graphics, s),
        /TypeError: graphics must be a Phaser.GameObjects.Graphics/
    );
    s.parentContainer = {} as Phaser.GameObjects.Container;
    s.getWorldTransformMatrix = (() => ({
        a: 1,
        b: 0,
        c: 0.5,
        d: 1,
        tx: 0,
        ty: 0
    })) as unknown as PhaserSpriteLike['getWorldTransformMatrix'];
    assert.throws(() => hitmaskFor(s), /RangeError: the object's world transform is skewed/);
});

test('phaser (Node): overlap() finds the first shared pixel; options carry the cache; setFrameMask holds until forgotten; a disposed mask is an Error', () => {
    const m = Mask.fromText('.#\n##\n');
    const a = fakeSprite('ov-a', m, { x: 0, y: 0, sw: 2, sh: 2 }, { x: 10, y: 10 });
    const b = fakeSprite('ov-b', new Mask(2, 2, true), { x: 0, y: 0, sw: 2, sh: 2 }, { x: 11, y: 10 });
    assert.deepEqual(overlap(a, b), { x: 11, y: 10 });
    const cache = new TransformCache(4096);
    assert.deepEqual(overlap(a, b, { cache }), { x: 11, y: 10 });
    b.x = 12;
    assert.equal(overlap(a, b), null);
    assert.equal(overlaps(a, b, { cache }), false);
    assert.throws(
        () => overlaps(a, b, { cache: {} as TransformCache }),
        /^TypeError: options\.cache must be a TransformCache, got Object\./
    );
    assert.throws(
        () => hitmaskFor(a, 5 as unknown as HitmaskOptions),
        /^TypeError: options must be an object, got 5\./
    );
    // A mask of your own: it wins over the bound atlas (also after another binding) until forgotten.
    const own = Mask.fromText('###\n');
    setFrameMask(a.frame, own, 0, 1);
    assert.deepEqual(frameMask(a.frame), { mask: own, x: 0, y: 1, width: 2, height: 2, source: 'custom' });
    addMaskAtlas(new MaskAtlas(), 'unrelated', fakeGame);
    assert.deepEqual(hitmaskFor(a), { mask: own, x: 10, y: 11 });
    forgetFrameMask(a.frame);
    assert.equal(frameMask(a.frame).source, 'atlas');
    assert.throws(() => setFrameMask(a.frame, {} as Mask), /^TypeError: mask must be a Mask, got Object\./);
    assert.throws(() => setFrameMask(a.frame, own, NaN), /^RangeError: x must be a finite number, got NaN\./);
    assert.throws(() => setAlphaThreshold(256), /^RangeError: threshold must be an integer in 0\.\.255, got 256\./);
    // A disposed mask: the Error every Mask function gives, from setFrameMask or when the sprite is placed.
    const gone = new Mask(2, 2, true);
    setFrameMask(a.frame, gone);
    gone.dispose();
    assert.throws(() => hitmaskFor(a), /^Error: mask \(.*\) was disposed; create a new Mask/);
    assert.throws(() => overlaps(a, b), /^Error: mask \(.*\) was disposed/);
    assert.throws(() => setFrameMask(a.frame, gone), /^Error: mask \(.*\) was disposed/);
    forgetFrameMask(a.frame);
});

test('phaser (Node): hitmask/phaser bundles without Phaser (type-only imports; the loader takes the namespace)', async () => {
    const r = await build({
        entryPoints: [join(HERE, '..', 'src', 'phaser.ts')],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        metafile: true,
        logLevel: 'silent',
        outdir: join(tmpdir(), 'hitmask-phaser-bundle')
    });
    const inputs = Object.keys(r.metafile.inputs);
    assert.ok(
        inputs.some(i => i.endsWith('src/engines/phaser-frames.ts')) &&
            inputs.some(i => i.endsWith('src/engines/sprite.ts'))
    );
    assert.deepEqual(
        inputs.filter(i => i.includes('node_modules')),
        []
    );
});
