// @test slow browser
// hitmask/excalibur against the real Excalibur in headless Chromium (test/excalibur-page.ts, bundled with esbuild):
// seeded poses drawn by Excalibur against the placed masks, but for the 1-px boundary band; src/engines/excalibur*.ts
// never import Excalibur at run time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build } from 'esbuild';
import { serve } from '../examples/serve.js';
import { chromiumMissing, openBrowser, waitFor } from './chromium.js';
import { pointerRounds } from './pointer-clicks.js';
import { clickBoxByFrames } from './engine-clicks.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SEED = 0x39e1;
const POSES = 150;

let site = '';
let browser: Browser | null = null;
let page: Page | null = null;
let close: (() => void) | null = null;
const errors: string[] = [];

before(async () => {
    if (chromiumMissing) return;
    site = mkdtempSync(join(tmpdir(), 'hitmask-excalibur-'));
    mkdirSync(join(site, 'sprites'));
    for (const f of readdirSync(join(ROOT, 'examples', 'sprites')))
        if (f.endsWith('.png')) copyFileSync(join(ROOT, 'examples', 'sprites', f), join(site, 'sprites', f));
    await build({
        entryPoints: [join(ROOT, 'test', 'excalibur-page.ts')],
        outfile: join(site, 'main.js'),
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        logLevel: 'warning'
    });
    writeFileSync(
        join(site, 'index.html'),
        '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>loading</title><script type="module" src="main.js"></script>'
    );
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

test('excalibur: src/engines/excalibur*.ts import Excalibur for types only, and the adapter bundles without it', async () => {
    for (const f of readdirSync(join(ROOT, 'src', 'engines')).filter(f => /^excalibur.*\.ts$/.test(f))) {
        const src = readFileSync(join(ROOT, 'src', 'engines', f), 'utf8');
        for (const m of src.matchAll(/^import\s+(type\s+)?[^;]*from\s+'excalibur'/gm))
            assert.ok(m[1], `${f}: ${m[0]} must be import type`);
    }
    const r = await build({
        entryPoints: [join(ROOT, 'src', 'excalibur.ts')],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        metafile: true,
        logLevel: 'silent'
    });
    const inputs = Object.keys(r.metafile.inputs);
    assert.ok(inputs.some(i => i.endsWith('src/engines/excalibur-adapter.ts')));
    assert.ok(!inputs.some(i => i.includes('node_modules/excalibur')), 'no Excalibur module in the bundle');
});

test(`excalibur: on ${POSES} seeded poses the placed mask equals the alpha Excalibur renders, but for the 1-px band`, async t => {
    if (!page) {
        t.skip(chromiumMissing || 'the page did not start');
        return;
    }
    const r = await page.evaluate(([seed, n]) => window.excaliburTests.renderPoses(seed, n), [SEED, POSES] as const);
    t.diagnostic(JSON.stringify(r));
    assert.equal(r.poses, POSES);
    assert.equal(r.far, 0, `no difference away from the boundary (${r.worst})`);
    assert.equal(r.misaligned, 0, `no pose fits the rendering twice as well moved by 1 px (${r.worst})`);
    assert.equal(r.hitTestWrong, 0, 'hitTest agrees with the placed mask');
    assert.ok(r.band < 0.35 * r.rendered, `band ${r.band} vs ${r.rendered} rendered pixels`);
    assert.ok(r.rendered > POSES * 200 && r.solid > POSES * 200, 'something drawn');
    for (const k of ['nested', 'flipped', 'sheetFrames', 'animated', 'graphicPosed', 'stretched'] as const)
        assert.ok(r[k] > POSES / 12, `${k}: ${r[k]}`);
    assert.deepEqual(errors, []);
});

test('excalibur: with pixelCollisions(), collisionstart, precollision, postcollision, collisionend and resolution follow the pixels, frame by frame', async t => {
    if (!page) {
        t.skip(chromiumMissing || 'the page did not start');
        return;
    }
    const r = await page.evaluate(n => window.excaliburTests.collisionRun(n), 240);
    const touching = new Set(r.touching);
    const rising = r.touching.filter(s => !touching.has(s - 1));
    const falling = r.touching.filter(s => !touching.has(s + 1) && s + 1 < r.frames).map(s => s + 1);
    t.diagnostic(`${r.touching.length} of ${r.frames} frames touch, in ${rising.length} runs; boxes: ${r.boxPre}`);
    assert.ok(r.touching.length > 10 && r.touching.length < r.frames - 10, 'the pixels touch in some frames, not all');
    assert.ok(rising.length >= 2, 'several separate contacts');
    assert.equal(r.boxPre, r.frames, 'without pixelCollisions() the boxes collide in every frame');
    assert.deepEqual(r.pre, r.touching, 'precollision exactly in the touching frames');
    assert.deepEqual(r.otherSide, r.touching, "the other actor's precollision too");
    assert.deepEqual(r.post, r.touching, 'the contact resolves (postcollision) exactly in the touching frames');
    assert.deepEqual(r.start, rising, 'collisionstart where a contact begins');
    assert.deepEqual(r.end, falling, 'collisionend in the frame after it ends');
    assert.deepEqual(errors, []);
});

test('excalibur: with pixelCollisions(), pointerdown fires exactly where hitTest says, over the solid pixels Excalibur draws', async t => {
    if (!page) {
        t.skip(chromiumMissing || 'the page did not start');
        return;
    }
    const p = page;
    t.diagnostic(
        await pointerRounds('Excalibur', async seed => {
            const box = await p.evaluate(s => window.excaliburTests.pointerSetup(s), seed);
            const canvas = await p.locator('canvas').first().boundingBox();
            assert.ok(canvas);
            const made = await clickBoxByFrames(p, canvas, box, 200);
            return { made, clicks: await p.evaluate(() => window.excaliburTests.pointerCheck()) };
        })
    );
    assert.deepEqual(errors, []);
});

test("excalibur: drawHitmask draws into Excalibur's WebGL context: its runs fill the placed mask, its outline runs along the boundary", async t => {
    if (!page) {
        t.skip(chromiumMissing || 'the page did not start');
        return;
    }
    const r = await page.evaluate(seed => window.excaliburTests.drawCheck(seed), SEED);
    t.diagnostic(JSON.stringify(r));
    assert.ok(r.solid > 2000, 'the placed mask has pixels');
    assert.equal(r.far, 0, 'the filled runs equal the placed mask but for the 1-px band');
    assert.ok(r.drawn > r.boundary, `the outline is drawn (${r.drawn} pixels)`);
    assert.equal(r.off, 0, 'every outline pixel lies within 1 px of the boundary');
    assert.deepEqual(errors, []);
});

test('excalibur: a sprite of an ImageSource made from a canvas is refused until its image has loaded, then read whole', async t => {
    if (!page) {
        t.skip(chromiumMissing || 'the page did not start');
        return;
    }
    const r = await page.evaluate(seed => window.excaliburTests.canvasSourceCheck(seed), SEED);
    t.diagnostic(JSON.stringify(r));
    // Excalibur calls it loaded before its blob image is: an empty mask read then would be cached for good.
    assert.equal(r.loadedEarly, true);
    assert.match(r.early, /is not loaded yet/);
    assert.ok(r.opaque > 100, 'the canvas has opaque pixels');
    assert.equal(r.count, r.opaque);
});
