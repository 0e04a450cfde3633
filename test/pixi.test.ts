// @test slow browser pixi7
// hitmask/pixi against the real PixiJS in headless Chromium (test/pixi-page.ts, bundled with esbuild). PixiJS 8 by
// default; HITMASK_PIXI=pixi7 bundles the page with PixiJS 7 (the devDependency `pixi7`, an alias of pixi.js@7), as
// scripts/test.ts does in its PixiJS 7 suite. The same checks, on both:
// seeded placements of rotated, scaled, flipped, trimmed, packed-rotated sprites with anchors, pivots, origins
// and parent containers against a reference computed from the same parameters; the alpha PixiJS renders
// against the placed masks; texture reading, caching and errors. Also: src/engines/pixi*.ts never import PixiJS at runtime.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build } from 'esbuild';
import { serve } from '../examples/serve.js';
import { chromiumMissing, openBrowser, PAGE_WAIT_MS, waitFor } from './chromium.js';
import { clickBox, pointerRounds } from './pointer-clicks.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SEED = 0x16a1;
const PIXI = process.env.HITMASK_PIXI ?? 'pixi.js';
const V7 = PIXI !== 'pixi.js';
// esbuild's alias: the page's (and the docs example's) `pixi.js` is the PixiJS under test.
const ALIAS: Record<string, string> = V7 ? { 'pixi.js': PIXI } : {};
const PLACEMENTS = 1200;
const POSES = 150;

let site = '';
let browser: Browser | null = null;
let page: Page | null = null;
let close: (() => void) | null = null;
const errors: string[] = [];

before(async () => {
    if (chromiumMissing) return;
    site = mkdtempSync(join(tmpdir(), 'hitmask-pixi-'));
    mkdirSync(join(site, 'sprites'));
    for (const f of readdirSync(join(ROOT, 'examples', 'sprites')))
        if (f.endsWith('.png')) copyFileSync(join(ROOT, 'examples', 'sprites', f), join(site, 'sprites', f));
    await build({
        entryPoints: [join(ROOT, 'test', 'pixi-page.ts')],
        outfile: join(site, 'main.js'),
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        logLevel: 'warning',
        alias: ALIAS
    });
    writeFileSync(
        join(site, 'index.html'),
        '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>loading</title><script type="module" src="main.js"></script>'
    );
    // The same page on PixiJS 7, for the test that compares the majors (in the PixiJS 8 run).
    if (!V7) {
        await build({
            entryPoints: [join(ROOT, 'test', 'pixi-page.ts')],
            outfile: join(site, 'main7.js'),
            bundle: true,
            format: 'esm',
            platform: 'browser',
            target: 'es2022',
            logLevel: 'warning',
            alias: { 'pixi.js': 'pixi7' }
        });
        writeFileSync(
            join(site, 'pixi7.html'),
            '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>loading</title><script type="module" src="main7.js"></script>'
        );
    }
    const server = await serve(site, 0);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    browser = await openBrowser('webgl');
    close = () => server.close();
    page = await browser.newPage();
    page.on('console', m => {
        if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', e => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${port}/`);
    await waitFor(page, 'the test page to load (title "ready")', () => document.title === 'ready');
});

after(async () => {
    await browser?.close();
    close?.();
    if (site) rmSync(site, { recursive: true, force: true });
});

test('pixi: src/engines/pixi*.ts import PixiJS for types only, and the core entry does not reach them', () => {
    for (const f of readdirSync(join(ROOT, 'src', 'engines')).filter(f => /^pixi.*\.ts$/.test(f))) {
        const src = readFileSync(join(ROOT, 'src', 'engines', f), 'utf8');
        for (const m of src.matchAll(/^import\s+(type\s+)?[^;]*from\s+'pixi\.js'/gm))
            assert.ok(m[1], `${f}: ${m[0]} must be import type`);
        assert.ok(!/import\(\s*'pixi\.js'\s*\)/.test(src), `${f}: no dynamic import of pixi.js`);
    }
    assert.ok(
        !/pixi/.test(readFileSync(join(ROOT, 'src', 'index.ts'), 'utf8')),
        'src/index.ts does not export the adapter'
    );
});

test('pixi: the adapter bundles without PixiJS', async () => {
    const r = await build({
        entryPoints: [join(ROOT, 'src', 'pixi.ts')],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        metafile: true,
        logLevel: 'silent'
    });
    const inputs = Object.keys(r.metafile.inputs);
    assert.ok(inputs.some(i => i.endsWith('src/engines/pixi-adapter.ts')));
    assert.ok(!inputs.some(i => i.includes('node_modules/pixi.js')), 'no PixiJS module in the bundle');
});

test(`pixi: ${PLACEMENTS} seeded placements equal the reference masks; overlaps() and overlap() agree with them`, async t => {
    if (!page) {
        t.skip(chromiumMissing || 'the page did not start');
        return;
    }
    const r = await page.evaluate(([seed, n]) => window.pixiTests.placements(seed, n), [SEED, PLACEMENTS] as const);
    t.diagnostic(JSON.stringify({ ...r, failures: r.failures.length }));
    assert.deepEqual(r.failures, []);
    assert.equal(r.compared, PLACEMENTS);
    // The mix really covers each feature (counts from the seeded generator).
    for (const k of ['anim', 'rotated', 'trimmed', 'flipped', 'nested', 'cam'] as const)
        assert.ok(r[k] > PLACEMENTS / 10, `${k}: ${r[k]}`);
    assert.ok(r.pixelHits > 50, `pixel hits among neighbours: ${r.pixelHits}`);
    assert.ok(r.boxOnly > 20, `box overlaps without a pixel hit: ${r.boxOnly}`);
    assert.deepEqual(errors, []);
});

test(`pixi: PixiJS 7 and 8 give identical placed masks, overlaps() and hitTest() on the same ${POSES} seeded poses`, async t => {
    if (!browser || !page) {
        t.skip(chromiumMissing || 'the page did not start');
        return;
    }
    if (V7) {
        t.skip('the PixiJS 8 run compares both majors');
        return;
    }
    const seven = await browser.newPage();
    seven.on('pageerror', e => errors.push(e.message));
    try {
        await seven.goto(page.url().replace(/\/[^/]*$/, '/pixi7.html'));
        await waitFor(seven, 'the PixiJS 7 page to load (title "ready")', () => document.title === 'ready');
        const call = (p: Page) => p.evaluate(([seed, n]) => window.pixiTests.poses(seed, n), [SEED, POSES] as const);
        assert.deepEqual(
            await Promise.all([page, seven].map(p => p.evaluate(() => window.pixiTests.version.split('.')[0]))),
            ['8', '7']
        );
        const [on8, on7] = [await call(page), await call(seven)];
        const hits = on8.reduce((n, l) => n + (/overlaps (\d*)/.exec(l)?.[1].split('1').length ?? 1) - 1, 0);
        t.diagnostic(`first pose: ${on8[0]}; ${hits} of ${8 * POSES - 36} pairs overlap`);
        assert.equal(on8.length, POSES);
        assert.ok(hits > 50, 'pairs both overlap and not');
        assert.deepEqual(on7, on8);
        assert.ok(
            on8.every(l => l.endsWith('hitTest 64/64')),
            'hitTest agrees with the placed mask'
        );
    } finally {
        await seven.close();
    }
    assert.deepEqual(errors, []);
});

test('pixi: placed masks match the alpha PixiJS renders (WebGL) within a 1-pixel boundary band; drawHitmask draws them', async t => {
    if (!page) {
        t.skip(chromiumMissing || 'the page did not start');
        return;
    }
    const r = await page.evaluate(seed => window.pixiTests.renderCheck(seed), SEED);
    t.diagnostic(JSON.stringify(r));
    assert.equal(r.results.length, 9);
    for (const x of r.results) {
        assert.equal(x.far, 0, `${x.name}: no difference away from the boundary (${JSON.stringify(x)})`);
        assert.ok(x.solid > 20 && x.rendered > 20, `${x.name}: something drawn (${JSON.stringify(x)})`);
        assert.ok(
            x.aligned,
            `${x.name}: no 1-pixel move of the placed mask fits the rendering markedly better (${JSON.stringify(x)})`
        );
        // Boundary differences are a thin band: well under the shape's area.
        assert.ok(x.band < 0.35 * x.rendered, `${x.name}: band ${x.band} vs ${x.rendered} rendered pixels`);
    }
    assert.equal(r.drawDiff, 0, 'drawHitmask fills exactly the placed pixels');
    assert.ok(r.lineKept, "PixiJS 7: the Graphics' own line style is kept");
    assert.ok(r.drawCount > 100);
    assert.ok(r.outlineDrawn, 'outline and box drawn');
    assert.deepEqual(errors, []);
});

test(`pixi: the ${V7 ? 'PixiJS 7 example of' : 'example at the top of'} docs/pixi.md runs in PixiJS and prints what its comments say`, async t => {
    if (!browser || !page) {
        t.skip(chromiumMissing || 'the page did not start');
        return;
    }
    const doc = readFileSync(join(ROOT, 'docs', 'pixi.md'), 'utf8');
    // PixiJS 7: the first example under the '## PixiJS 7' heading.
    const at = V7 ? doc.indexOf('\n## PixiJS 7') : 0;
    assert.ok(at >= 0, 'docs/pixi.md has a "## PixiJS 7" section');
    const code = /```ts\n([\s\S]*?)```/.exec(doc.slice(at))?.[1] ?? '';
    const expected = [...code.matchAll(/\/\/ → (.*)$/gm)].map(m => m[1]);
    assert.ok(expected.length >= 5, 'the example states its results');
    await build({
        stdin: { contents: code, resolveDir: ROOT, loader: 'ts', sourcefile: 'docs/pixi.md' },
        outfile: join(site, 'doc.js'),
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        logLevel: 'warning',
        alias: { 'hitmask/pixi': join(ROOT, 'src', 'pixi.ts'), hitmask: join(ROOT, 'src', 'index.ts'), ...ALIAS }
    });
    writeFileSync(
        join(site, 'doc.html'),
        '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body><script type="module" src="doc.js"></script>'
    );
    const docPage = await browser.newPage();
    const logs: Promise<string>[] = [];
    docPage.on('console', m => {
        if (m.type() === 'error') errors.push(m.text());
        // Numbers and booleans as console.log prints them, objects as { k: v, … }.
        if (m.type() === 'log')
            logs.push(
                Promise.all(m.args().map(a => a.jsonValue())).then(vs =>
                    vs
                        .map(v =>
                            v !== null && typeof v === 'object'
                                ? `{ ${Object.entries(v as Record<string, unknown>)
                                      .map(([k, x]) => `${k}: ${String(x)}`)
                                      .join(', ')} }`
                                : String(v)
                        )
                        .join(' ')
                )
            );
    });
    docPage.on('pageerror', e => errors.push(e.message));
    await docPage.goto(page.url().replace(/\/[^/]*$/, '/doc.html'));
    // Until every line is printed (the texture loads first), then a few ticks of the debug drawing.
    for (
        const end = Date.now() + PAGE_WAIT_MS;
        logs.length < expected.length && errors.length === 0 && Date.now() < end;
    )
        await docPage.waitForTimeout(50);
    await docPage.waitForTimeout(300);
    const got = await Promise.all(logs);
    await docPage.close();
    t.diagnostic(`printed: ${JSON.stringify(got)}`);
    assert.equal(
        got.length,
        expected.length,
        `logged ${JSON.stringify(got)} (waited up to ${PAGE_WAIT_MS / 1000} s for every line)`
    );
    // A comment may go on after the value: "false: only transparent pixels overlap".
    got.forEach((g, i) =>
        assert.ok(
            expected[i] === g || expected[i].startsWith(`${g}: `),
            `line ${i}: printed ${g}, the comment says ${expected[i]}`
        )
    );
    assert.deepEqual(errors, []);
    // And it type-checks under the repository's strict settings, as the examples do: against the sources with
    // PixiJS 8; with PixiJS 7, against the declarations hitmask ships (emitted here from the sources, which are
    // written against PixiJS 8's types), with PixiJS 7's own types, not skipping their check (skipLibCheck off).
    const tscRun = (config: string) =>
        spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config], {
            encoding: 'utf8'
        });
    let entry = join(ROOT, 'src', 'pixi.js');
    if (V7) {
        const emit = join(site, 'tsconfig.emit.json'),
            out = join(site, 'decl');
        writeFileSync(
            emit,
            JSON.stringify({
                extends: join(ROOT, 'tsconfig.json'),
                compilerOptions: {
                    typeRoots: [join(ROOT, 'node_modules', '@types')],
                    noEmit: false,
                    emitDeclarationOnly: true,
                    declarationMap: false,
                    sourceMap: false,
                    outDir: out,
                    rootDir: join(ROOT, 'src')
                },
                files: [join(ROOT, 'src', 'pixi.ts')],
                include: []
            })
        );
        const e = tscRun(emit);
        assert.equal(e.status, 0, e.stdout + e.stderr);
        entry = join(out, 'pixi.js');
    }
    const file = join(site, 'doc-example.mts'),
        config = join(site, 'tsconfig.json');
    writeFileSync(file, code.replace("from 'hitmask/pixi'", `from ${JSON.stringify(entry)}`));
    const types = V7
        ? join(ROOT, 'node_modules', PIXI, 'lib', 'index.d.ts')
        : join(ROOT, 'node_modules', 'pixi.js', 'lib', 'index.d.ts');
    writeFileSync(
        config,
        JSON.stringify({
            extends: join(ROOT, 'tsconfig.json'),
            compilerOptions: {
                typeRoots: [join(ROOT, 'node_modules', '@types')],
                paths: { 'pixi.js': [types] },
                ...(V7 ? { skipLibCheck: false } : {})
            },
            files: [file],
            include: []
        })
    );
    const tsc = tscRun(config);
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});

test('pixi: real pointer events with pixelHitArea(sprite) fire exactly where hitTest says, and where PixiJS draws solid pixels up to the 1-px band', async t => {
    if (!page) {
        t.skip(chromiumMissing || 'the page did not start');
        return;
    }
    const p = page;
    t.diagnostic(
        await pointerRounds('PixiJS', async seed => {
            const box = await p.evaluate(s => window.pixiTests.pointerSetup(s), seed);
            const canvas = await p.locator('#pointer').boundingBox();
            assert.ok(canvas);
            const made = await clickBox(p, canvas, box, 200);
            return { made, clicks: await p.evaluate(() => window.pixiTests.pointerCheck()) };
        })
    );
});

test('pixi: texture masks come from the texture pixels, are cached per frame, and bad input throws', async t => {
    if (!page) {
        t.skip(chromiumMissing || 'the page did not start');
        return;
    }
    const r = await page.evaluate(() => window.pixiTests.readCheck());
    t.diagnostic(JSON.stringify(r));
    assert.ok(r.same, 'mask of the PNG loaded by Assets equals the mask of the PNG drawn on a canvas');
    assert.ok(r.poseOk, 'shapeOf() gives the pose that places like hitmaskFor()');
    assert.ok(r.atlasSame, 'a .hitmask atlas frame bound with addMaskAtlas places like the mask read from the pixels');
    assert.equal(r.forgotten, 'pixels', 'forgetFrameMask drops the bound mask');
    assert.ok(r.custom, 'setFrameMask gives a RenderTexture its mask');
    assert.deepEqual(r.threshold, [0, 24, 0], 'setAlphaThreshold reads the masks again');
    assert.ok(r.count > 500);
    assert.ok(r.again, 'cached');
    assert.ok(r.after > r.before, `a changed frame is read again (${r.before} -> ${r.after})`);
    assert.match(r.threw, /^TypeError: sprite must be a PixiJS Sprite/);
    assert.equal(r.skew, 'RangeError');
    assert.match(
        r.wrongSize,
        /^Error: addMaskAtlas\(\): hitmask atlas frame "alien" is 5x5, but its texture is \d+x\d+; was the atlas built from the same images\?$/
    );
    assert.equal(r.wrongBound, 'read from pixels', 'a refused addMaskAtlas binds nothing');
    assert.match(r.gone, /^Error: texture .*was destroyed; give the sprite a live texture/);
    assert.equal(r.badPick.length, 2);
    assert.match(r.badPick[0], /^RangeError: hitTest\(\): x must be a finite number, got NaN\.$/);
    assert.match(r.badPick[1], /^TypeError: sprite must be a PixiJS Sprite/);
    assert.match(
        r.nan,
        /^RangeError: sprite's transform must be finite, got a=NaN, .*: a NaN or infinite position, scale or rotation on the sprite or a parent\.$/
    );
    assert.equal(r.emptyHits, false, 'a Sprite with Texture.EMPTY collides with nothing');
    assert.match(r.gpuOnly, /^TypeError: texture .* has no pixels to read/);
    t.diagnostic(`timings (not asserted): ${JSON.stringify(await page.evaluate(() => window.pixiTests.timing()))}`);
    assert.deepEqual(errors, []);
});
