// @test slow browser
// The browser examples (examples/phaser, examples/pixi, examples/matter, the platformers examples/phaser-move and
// examples/pixi-move, examples/kaplay and examples/excalibur, and the other engine majors: examples/phaser3, the
// Phaser page's source bundled with Phaser 3, and examples/pixi7, on PixiJS 7): they bundle with esbuild against the
// real Phaser, PixiJS, Matter.js, Kaplay, Excalibur and hitmask sources, type-check under the repository's strict
// settings (PixiJS 7's page against hitmask's declarations and PixiJS 7's own types), and, where headless Chromium
// is installed (/usr/bin/chromium), run: Phaser, PixiJS, Kaplay and Excalibur report pixel hits that Arcade's bodies,
// the box test, area() or the colliders alone would not; in Matter.js the mask-built bodies come to rest on the mask
// terrain, and a shot's crater rebuilds the terrain body with the mask's exact area; the platformers read their level
// from a Tiled map (Phaser: tiledCollision over its loader's caches; PixiJS: loadTiledMap) to the solid pixels
// readTiledMap reads in Node, and their hero climbs and lands by moveAndSlide, its placed mask never inside the
// terrain.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
    copyFileSync,
    existsSync,
    mkdirSync,
    mkdtempSync,
    readdirSync,
    readFileSync,
    rmSync,
    writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleExample, EXAMPLES, MAJORS, NAMES, serve, type ExampleName } from '../examples/serve.js';
import { chromiumMissing, openBrowser, waitFor } from './chromium.js';
import { readTiledMap } from '../src/node.js';
import { levelSolid, solidPixels } from '../examples/move-terrain.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// A string of each example's own code (or its engine's) that must be in its bundle.
const MARKER: Record<ExampleName, string> = {
    phaser: 'a textured Phaser game object',
    phaser3: 'a textured Phaser game object',
    pixi: 'a PixiJS Sprite (with a texture and an anchor)',
    pixi7: 'a PixiJS Sprite (with a texture and an anchor)',
    matter: 'function matterBody',
    'phaser-move': 'Phaser platformer: frames',
    'pixi-move': 'PixiJS platformer: frames',
    kaplay: 'frames with area() overlaps',
    excalibur: 'frames with collider contacts'
};
// The engine package each page of another major bundles (the alias of the other major).
const ALIASED: Partial<Record<ExampleName, string>> = { phaser3: 'phaser3', pixi7: 'pixi7' };
const TSC = join(fileURLToPath(new URL('..', import.meta.url)), 'node_modules', 'typescript', 'bin', 'tsc');
let site = '';

before(() => {
    // A copy of examples/ to serve, so the tests never touch examples/*/dist of a running `npm run example -- NAME`.
    site = mkdtempSync(join(tmpdir(), 'hitmask-examples-'));
    for (const dir of ['sprites', 'levels']) {
        mkdirSync(join(site, dir));
        for (const f of readdirSync(join(EXAMPLES, dir)))
            if (/\.(png|tmj)$/.test(f)) copyFileSync(join(EXAMPLES, dir, f), join(site, dir, f));
    }
    for (const name of NAMES) {
        mkdirSync(join(site, name));
        copyFileSync(join(EXAMPLES, name, 'index.html'), join(site, name, 'index.html'));
    }
});

after(() => {
    if (site) rmSync(site, { recursive: true, force: true });
});

test('examples: each bundles with esbuild, with the engine and hitmask inside', async () => {
    for (const name of NAMES) {
        const out = await bundleExample(name, join(site, name, 'dist', 'main.js'));
        const js = readFileSync(out, 'utf8');
        // (assert.ok, not assert.match: a failure must not print megabytes of bundle)
        assert.ok(js.includes('an integer in 0..'), `${name}: hitmask's argument checks are bundled`);
        assert.ok(/\bMask = class\b/.test(js), `${name}: hitmask's Mask is bundled`);
        assert.ok(js.includes(MARKER[name]), `${name}: the engine and the example's own code are bundled`);
        assert.match(
            readFileSync(join(EXAMPLES, name, 'index.html'), 'utf8'),
            /<script type="module" src="dist\/main\.js"><\/script>/
        );
        // esbuild heads each module's code with its path.
        const engine = ALIASED[name];
        if (engine) assert.ok(js.includes(`// node_modules/${engine}/`), `${name}: bundles ${engine}`);
    }
    // And what the bundle pulls in: the real packages from node_modules and the library's sources.
    const meta = await build({
        entryPoints: NAMES.filter(n => !MAJORS[n]).map(n => join(EXAMPLES, n, 'main.ts')),
        bundle: true,
        write: false,
        outdir: join(site, 'meta'),
        format: 'esm',
        metafile: true,
        logLevel: 'silent'
    });
    const inputs = Object.keys(meta.metafile.inputs);
    for (const p of [
        'node_modules/phaser/',
        'node_modules/pixi.js/',
        'node_modules/matter-js/',
        'node_modules/kaplay/',
        'node_modules/excalibur/',
        'src/core/mask.ts',
        'src/shapes/convex.ts',
        'src/debug/draw.ts',
        'examples/phaser/main.ts',
        'examples/pixi/main.ts',
        'examples/matter/main.ts',
        'examples/phaser-move/main.ts',
        'examples/pixi-move/main.ts',
        'examples/kaplay/main.ts',
        'examples/excalibur/main.ts',
        'src/movement/move-and-slide.ts',
        'src/tiled/tiled-collision.ts',
        'src/tiled/tiled-load.ts'
    ]) {
        assert.ok(
            inputs.some(i => i.includes(p)),
            `bundle inputs include ${p}`
        );
    }
});

test('examples: they type-check under the repository tsconfig (strict, DOM)', () => {
    const config = join(site, 'tsconfig.json');
    // Phaser 3's page is the Phaser page's source; PixiJS 7's is checked against PixiJS 7's types below.
    const sources = NAMES.filter(n => !MAJORS[n]).map(n => join(EXAMPLES, n, 'main.ts'));
    writeFileSync(
        config,
        JSON.stringify({
            extends: join(ROOT, 'tsconfig.json'),
            compilerOptions: { typeRoots: [join(ROOT, 'node_modules', '@types')] },
            files: [...sources, join(EXAMPLES, 'serve.ts')],
            include: []
        })
    );
    const r = spawnSync(process.execPath, [TSC, '-p', config], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
});

test("examples: the PixiJS 7 page type-checks against the declarations hitmask ships and PixiJS 7's own types (skipLibCheck off)", () => {
    // hitmask's declarations as a PixiJS 7 project gets them (dist/, which `npm test` builds first; else emitted
    // here from the sources, written against PixiJS 8's types); the page's `pixi.js` is PixiJS 7, as in the bundle.
    let decl = join(ROOT, 'dist');
    if (!existsSync(join(decl, 'pixi.d.ts'))) {
        const emit = join(site, 'tsconfig.emit.json');
        decl = join(site, 'decl');
        writeFileSync(
            emit,
            JSON.stringify({
                extends: join(ROOT, 'tsconfig.json'),
                files: [join(ROOT, 'src', 'pixi.ts')],
                include: [],
                compilerOptions: {
                    typeRoots: [join(ROOT, 'node_modules', '@types')],
                    noEmit: false,
                    emitDeclarationOnly: true,
                    declarationMap: false,
                    sourceMap: false,
                    outDir: decl,
                    rootDir: join(ROOT, 'src')
                }
            })
        );
        const e = spawnSync(process.execPath, [TSC, '-p', emit], { encoding: 'utf8' });
        assert.equal(e.status, 0, e.stdout + e.stderr);
    }
    const page = join(site, 'pixi7-main.mts'),
        source = readFileSync(join(EXAMPLES, 'pixi7', 'main.ts'), 'utf8');
    assert.ok(source.includes("from '../../src/pixi.js'"));
    writeFileSync(page, source.replace("from '../../src/pixi.js'", `from ${JSON.stringify(join(decl, 'pixi.js'))}`));
    const config = join(site, 'tsconfig.pixi7.json');
    writeFileSync(
        config,
        JSON.stringify({
            extends: join(ROOT, 'tsconfig.json'),
            files: [page],
            include: [],
            compilerOptions: {
                typeRoots: [join(ROOT, 'node_modules', '@types')],
                paths: { 'pixi.js': [join(ROOT, 'node_modules', 'pixi7', 'lib', 'index.d.ts')] },
                skipLibCheck: false
            }
        })
    );
    const r = spawnSync(process.execPath, [TSC, '-p', config], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
});

// A new page, and the console errors and page errors it reports, collected as they come.
async function openPage(
    browser: import('playwright-core').Browser
): Promise<{ page: import('playwright-core').Page; errors: string[] }> {
    const page = await browser.newPage(),
        errors: string[] = [];
    page.on('console', m => {
        if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', e => errors.push(e.message));
    return { page, errors };
}

// Serves the examples on a free port and runs `fn` with a headless Chromium; closes both after.
async function inChromium(
    fn: (browser: import('playwright-core').Browser, port: number) => Promise<void>
): Promise<void> {
    const server = await serve(site, 0);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const browser = await openBrowser('webgl');
    try {
        await fn(browser, port);
    } finally {
        await browser.close();
        server.close();
    }
}

test(
    'examples: in headless Chromium the Phaser 3 and 4, PixiJS 7 and 8, Kaplay and Excalibur pages run and report pixel hits, and box-only overlaps they rejected',
    { skip: chromiumMissing },
    async () => {
        for (const name of NAMES)
            if (!existsSync(join(site, name, 'dist', 'main.js')))
                await bundleExample(name, join(site, name, 'dist', 'main.js'));
        await inChromium(async (browser, port) => {
            for (const name of ['phaser', 'phaser3', 'pixi', 'pixi7', 'kaplay', 'excalibur'] as const) {
                const { page, errors } = await openPage(browser);
                await page.goto(`http://127.0.0.1:${port}/${name}/`);
                // The ship sweeps across three rocks: boxes meet before pixels do, so both counts grow.
                await waitFor(
                    page,
                    'a pixel hit and more box overlaps than pixel hits (#status data-pixel, data-box)',
                    () => {
                        const s = document.getElementById('status')?.dataset;
                        return s !== undefined && Number(s.pixel) > 0 && Number(s.box) > Number(s.pixel);
                    }
                ).catch((e: unknown) => errors.push(String(e)));
                const status = await page.evaluate(() => ({
                    box: Number(document.getElementById('status')?.dataset.box),
                    pixel: Number(document.getElementById('status')?.dataset.pixel)
                }));
                await page.close();
                assert.deepEqual(errors, [], `${name}: no console errors`);
                assert.ok(status.pixel > 0, `${name}: a pixel hit (${JSON.stringify(status)})`);
                assert.ok(
                    status.box > status.pixel,
                    `${name}: box overlaps whose pixels did not touch were rejected (${JSON.stringify(status)})`
                );
            }
        });
    }
);

test(
    'examples: in headless Chromium the Phaser and PixiJS platformers read their Tiled level as Node does, and move the hero with moveAndSlide: it climbs, lands, and is never inside the terrain',
    { skip: chromiumMissing },
    async () => {
        // The level's solid pixels as readTiledMap reads examples/levels/level.tmj in Node, with the pages' rule.
        const level = await readTiledMap(join(EXAMPLES, 'levels', 'level.tmj'), { solid: levelSolid });
        const solid = solidPixels(level.layer('ground'));
        assert.ok(solid > 10_000);
        for (const name of ['phaser-move', 'pixi-move'] as const)
            if (!existsSync(join(site, name, 'dist', 'main.js')))
                await bundleExample(name, join(site, name, 'dist', 'main.js'));
        await inChromium(async (browser, port) => {
            for (const name of ['phaser-move', 'pixi-move'] as const) {
                const { page, errors } = await openPage(browser);
                await page.goto(`http://127.0.0.1:${port}/${name}/`);
                // The auto-pilot drops the hero onto the ground, walks up the slope, jumps every 150 frames.
                const seen = await waitFor(
                    page,
                    '300 frames with a climb and two landings (#status data-frames, data-climbs, data-landings)',
                    () => {
                        const d = document.getElementById('status')?.dataset;
                        return d !== undefined &&
                            Number(d.frames) >= 300 &&
                            Number(d.climbs) > 0 &&
                            Number(d.landings) >= 2
                            ? { ...d }
                            : null;
                    }
                ).catch((e: unknown) => {
                    errors.push(String(e));
                    return null;
                });
                await page.close();
                assert.equal(errors.length, 0, `${name}: no console errors: ${errors.join(' | ')}`);
                const s = Object.fromEntries(Object.entries(seen ?? {}).map(([k, v]) => [k, Number(v)]));
                assert.equal(s.solid, solid, `${name}: the page's level has the solid pixels Node reads`);
                assert.ok(s.moves > 100, `${name}: the hero moved (${JSON.stringify(s)})`);
                assert.equal(
                    s.inside,
                    0,
                    `${name}: the hero's placed mask never overlapped the terrain (${JSON.stringify(s)})`
                );
            }
        });
    }
);

test(
    'examples: in headless Chromium the Matter.js bodies from masks come to rest on the mask terrain, and a shot rebuilds it exactly',
    { skip: chromiumMissing },
    async () => {
        if (!existsSync(join(site, 'matter', 'dist', 'main.js')))
            await bundleExample('matter', join(site, 'matter', 'dist', 'main.js'));
        await inChromium(async (browser, port) => {
            const { page, errors } = await openPage(browser);
            // The page's #status data-* of one frame, as numbers.
            const parse = (d: Record<string, string | undefined>) => ({
                bodies: Number(d.bodies),
                resting: Number(d.resting),
                sunk: Number(d.sunk),
                carves: Number(d.carves),
                terrainArea: Number(d.terrainArea),
                maskCount: Number(d.maskCount),
                terrainPieces: Number(d.terrainPieces),
                positions: JSON.parse(d.positions ?? '[]') as [number, number][]
            });
            const status = async () =>
                parse(await page.evaluate(() => ({ ...document.getElementById('status')?.dataset })));
            await page.goto(`http://127.0.0.1:${port}/matter/`);
            // Every body still for half a second (speed < 0.05 px/step), none fallen out, none sunk into the ground.
            // (The frame that met the condition: a resting body may stir again a few steps later.)
            const rest = parse(
                (await waitFor(page, 'every Matter.js body at rest (#status data-resting = data-bodies)', () => {
                    const d = document.getElementById('status')?.dataset;
                    return d !== undefined && Number(d.bodies) > 0 && d.resting === d.bodies ? { ...d } : null;
                }).catch((e: unknown) => {
                    errors.push(String(e));
                    return {};
                })) ?? {}
            );
            // (assert.equal on the length: deepEqual with [] would narrow `errors` to never[] for the checks below)
            assert.equal(errors.length, 0, `no console errors: ${errors.join(' | ')}`);
            assert.equal(rest.bodies, 6);
            assert.equal(rest.resting, 6, `all bodies at rest above the terrain (${JSON.stringify(rest)})`);
            assert.equal(rest.sunk, 0, `no piece of a body inside the terrain (${JSON.stringify(rest)})`);
            assert.equal(rest.carves, 0);
            assert.ok(rest.terrainPieces > 1, 'the terrain is a compound body');
            assert.ok(
                Math.abs(rest.terrainArea - rest.maskCount) < 1e-6,
                `terrain body area = mask count before a shot (${JSON.stringify(rest)})`
            );
            // A real click on the ground right under the first body (its centre is about 25 px above its lowest
            // pixel): a crater, and the rebuilt body has the new mask's area.
            const box = await page.locator('#stage').boundingBox();
            assert.ok(box);
            const [bx, by] = rest.positions[0];
            await page.mouse.click(box.x + bx, box.y + by + 30);
            await waitFor(
                page,
                'the first crater (#status data-carves = 1)',
                () => document.getElementById('status')?.dataset.carves === '1'
            );
            const shot = await status();
            assert.ok(
                shot.maskCount < rest.maskCount,
                `the crater cleared terrain pixels (${rest.maskCount} -> ${shot.maskCount})`
            );
            assert.ok(
                rest.maskCount - shot.maskCount <= Math.PI * 18 * 18 + 4 * 18,
                'no more than a disc of radius 18'
            );
            assert.ok(
                Math.abs(shot.terrainArea - shot.maskCount) < 1e-6,
                `terrain body area = mask count after the shot (${JSON.stringify(shot)})`
            );
            // Two more shots either side: the crater is now wider than the alien (80 px), which falls into it.
            await page.mouse.click(box.x + bx - 26, box.y + by + 30);
            await page.mouse.click(box.x + bx + 26, box.y + by + 30);
            await waitFor(
                page,
                'three craters (#status data-carves = 3)',
                () => document.getElementById('status')?.dataset.carves === '3'
            );
            const wide = await status();
            assert.ok(wide.maskCount < shot.maskCount);
            assert.ok(
                Math.abs(wide.terrainArea - wide.maskCount) < 1e-6,
                `terrain body area = mask count after three shots (${JSON.stringify(wide)})`
            );
            // And the bodies settle again on the carved terrain, the first one lower than before: wait for both,
            // since right after the craters that body may not have started to fall yet.
            const after = parse(
                (await waitFor(
                    page,
                    `the bodies at rest again, the first below y ${by + 3} (in the crater)`,
                    (y: number) => {
                        const d = document.getElementById('status')?.dataset;
                        return d !== undefined &&
                            d.resting === d.bodies &&
                            (JSON.parse(d.positions ?? '[]') as number[][])[0]?.[1] > y
                            ? { ...d }
                            : null;
                    },
                    by + 3
                ).catch((e: unknown) => {
                    errors.push(String(e));
                    return {};
                })) ?? {}
            );
            await page.close();
            assert.deepEqual(errors, [], 'no console errors after the shot');
            assert.equal(after.sunk, 0, `no body sunk after the shot (${JSON.stringify(after)})`);
            // The body that lay on the carved ground fell into the crater: the physics saw the rebuilt terrain.
            assert.ok(
                after.positions[0][1] > by + 3,
                `the body over the crater fell into it (y ${by} -> ${after.positions[0][1]})`
            );
        });
    }
);
