// @test slow browser
// hitmask/kaplay against the real Kaplay in headless Chromium (test/kaplay-page.ts, bundled with esbuild): seeded
// poses drawn by Kaplay against the placed masks, but for the 1-px boundary band; src/engines/kaplay*.ts never
// import Kaplay at run time.
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
const SEED = 0x39a1;
const POSES = 150;

let site = '';
let browser: Browser | null = null;
let page: Page | null = null;
let close: (() => void) | null = null;
const errors: string[] = [];

before(async () => {
    if (chromiumMissing) return;
    site = mkdtempSync(join(tmpdir(), 'hitmask-kaplay-'));
    mkdirSync(join(site, 'sprites'));
    for (const f of readdirSync(join(ROOT, 'examples', 'sprites')))
        if (f.endsWith('.png')) copyFileSync(join(ROOT, 'examples', 'sprites', f), join(site, 'sprites', f));
    await build({
        entryPoints: [join(ROOT, 'test', 'kaplay-page.ts')],
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

test('kaplay: src/engines/kaplay*.ts import Kaplay for types only, and the adapter bundles without it', async () => {
    for (const f of readdirSync(join(ROOT, 'src', 'engines')).filter(f => /^kaplay.*\.ts$/.test(f))) {
        const src = readFileSync(join(ROOT, 'src', 'engines', f), 'utf8');
        for (const m of src.matchAll(/^import\s+(type\s+)?[^;]*from\s+'kaplay'/gm))
            assert.ok(m[1], `${f}: ${m[0]} must be import type`);
    }
    const r = await build({
        entryPoints: [join(ROOT, 'src', 'kaplay.ts')],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        metafile: true,
        logLevel: 'silent'
    });
    const inputs = Object.keys(r.metafile.inputs);
    assert.ok(inputs.some(i => i.endsWith('src/engines/kaplay-adapter.ts')));
    assert.ok(!inputs.some(i => i.includes('node_modules/kaplay')), 'no Kaplay module in the bundle');
});

test(`kaplay: on ${POSES} seeded poses the placed mask equals the alpha Kaplay renders, but for the 1-px band`, async t => {
    if (!page) {
        t.skip(chromiumMissing || 'the page did not start');
        return;
    }
    const r = await page.evaluate(([seed, n]) => window.kaplayTests.renderPoses(seed, n), [SEED, POSES] as const);
    t.diagnostic(JSON.stringify(r));
    assert.equal(r.poses, POSES);
    assert.equal(r.far, 0, `no difference away from the boundary (${r.worst})`);
    assert.equal(r.misaligned, 0, `no pose fits the rendering twice as well moved by 1 px (${r.worst})`);
    assert.equal(r.hitTestWrong, 0, 'hitTest agrees with the placed mask');
    assert.ok(r.band < 0.35 * r.rendered, `band ${r.band} vs ${r.rendered} rendered pixels`);
    assert.ok(r.rendered > POSES * 200 && r.solid > POSES * 200, 'something drawn');
    for (const k of ['nested', 'flipped', 'sheetFrames', 'animated', 'nonUniform'] as const)
        assert.ok(r[k] > POSES / 12, `${k}: ${r[k]}`);
    assert.deepEqual(errors, []);
});

test('kaplay: with pixelArea(), onCollide, onCollideUpdate, onCollideEnd and body() resolution follow the pixels, check by check', async t => {
    if (!page) {
        t.skip(chromiumMissing || 'the page did not start');
        return;
    }
    const r = await page.evaluate(n => window.kaplayTests.collisionRun(n), 240);
    const touching = new Set(r.touching);
    const rising = r.touching.filter(s => !touching.has(s - 1));
    t.diagnostic(
        `${r.touching.length} of ${r.checks} collision checks touch, in ${rising.length} runs; boxes: ${r.boxUpdates}`
    );
    assert.ok(r.touching.length > 10 && r.touching.length < r.checks - 10, 'the pixels touch in some checks, not all');
    assert.ok(rising.length >= 2, 'several separate contacts');
    assert.equal(r.boxUpdates, r.checks, 'without pixelArea() the boxes collide in every check');
    assert.deepEqual(r.collideUpdate, r.touching, 'onCollideUpdate exactly in the touching checks');
    assert.deepEqual(r.otherSide, r.touching, "the other object's onCollideUpdate too");
    assert.deepEqual(r.resolved, r.touching, 'body() resolves exactly in the touching checks');
    // area() begins a contact at the first touching check and ends it at the next fixed step without one.
    assert.ok(r.collide.length >= 2 && r.collide.every(s => rising.includes(s)), 'onCollide where contacts begin');
    assert.ok(
        r.collideEnd.every(s => !touching.has(s)),
        'onCollideEnd only where the pixels do not touch'
    );
    const open = touching.has(r.checks - 1) ? 1 : 0;
    assert.equal(r.collideEnd.length + open, r.collide.length, 'each contact ends once');
    for (let i = 0; i < r.collide.length; i++)
        if (i < r.collideEnd.length) assert.ok(r.collide[i] < r.collideEnd[i], 'a contact ends after it begins');
    assert.deepEqual(errors, []);
});

test('kaplay: with pixelArea(), onClick fires exactly where hitTest says, over the solid pixels Kaplay draws', async t => {
    if (!page) {
        t.skip(chromiumMissing || 'the page did not start');
        return;
    }
    const p = page;
    t.diagnostic(
        await pointerRounds('Kaplay', async seed => {
            const box = await p.evaluate(s => window.kaplayTests.pointerSetup(s), seed);
            const canvas = await p.locator('canvas').first().boundingBox();
            assert.ok(canvas);
            const made = await clickBoxByFrames(p, canvas, box, 200);
            return { made, clicks: await p.evaluate(() => window.kaplayTests.pointerCheck()) };
        })
    );
    assert.deepEqual(errors, []);
});
