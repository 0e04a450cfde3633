// @test slow browser
// The demo in a real browser: Debian's headless Chromium driven by playwright-core (never a downloaded
// browser). Loads the page from the `npm start` server, runs scripted frames with a fixed seed, checks the
// counts against the same simulation run here in Node on the same atlas, checks the console stays clean,
// and compares a screenshot of the canvas with a golden PNG (UPDATE_GOLDEN=1 re-records it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissing as skip, openBrowser, waitFor } from './chromium.js';
import { MaskAtlas } from '../src/index.js';
import { DemoSim, withoutTimings, type SimOptions } from '../demo/sim.js';
import type { DemoHook } from '../demo/demo.js';
import type { ThreadsCheck } from './browser-threads.js';
import * as esbuild from 'esbuild';
import { startDemo, type DemoServer } from '../demo/serve.js';

const GOLDEN = fileURLToPath(new URL('./fixtures/golden/', import.meta.url));
// A pixel counts as different when a channel differs by more than this; the screenshot fails when more
// than MAX_DIFF of its pixels differ (room for another Chromium's image smoothing and alpha blending).
const CHANNEL_TOLERANCE = 48,
    MAX_DIFF = 0.005;

// Where two PNGs differ: the fraction of pixels over the tolerance, and a picture of them in red.
function diff(actual: PNG, expected: PNG): { fraction: number; image: PNG } {
    const image = new PNG({ width: actual.width, height: actual.height });
    let bad = 0;
    for (let p = 0; p < actual.data.length; p += 4) {
        let d = 0;
        for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(actual.data[p + c] - expected.data[p + c]));
        const off = d > CHANNEL_TOLERANCE;
        if (off) bad++;
        const grey = (actual.data[p] + actual.data[p + 1] + actual.data[p + 2]) / 12;
        image.data[p] = off ? 255 : grey;
        image.data[p + 1] = off ? 0 : grey;
        image.data[p + 2] = off ? 0 : grey;
        image.data[p + 3] = 255;
    }
    return { fraction: bad / (actual.width * actual.height), image };
}

function compareGolden(name: string, png: Buffer): void {
    const file = `${GOLDEN}${name}.png`;
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
        mkdirSync(GOLDEN, { recursive: true });
        writeFileSync(file, png);
        if (process.env.UPDATE_GOLDEN !== '1')
            assert.fail(`${file} did not exist; recorded it now: look at it, then commit it.`);
        return;
    }
    const actual = PNG.sync.read(png),
        expected = PNG.sync.read(readFileSync(file));
    const failed = (why: string) => {
        writeFileSync(`${GOLDEN}${name}.error.png`, png);
        return `${why}; the screenshot is in ${GOLDEN}${name}.error.png (UPDATE_GOLDEN=1 npm test re-records the golden image)`;
    };
    // failed() writes the screenshot next to the golden one: only call it once the check has failed.
    if (actual.width !== expected.width || actual.height !== expected.height) {
        assert.fail(
            failed(`screenshot is ${actual.width}x${actual.height}, golden ${expected.width}x${expected.height}`)
        );
    }
    const d = diff(actual, expected);
    if (d.fraction > MAX_DIFF) {
        writeFileSync(`${GOLDEN}${name}.diff.error.png`, PNG.sync.write(d.image));
        assert.fail(
            failed(
                `${(d.fraction * 100).toFixed(2)}% of the pixels differ (allowed ${MAX_DIFF * 100}%); differences in ${name}.diff.error.png`
            )
        );
    }
}

test('the demo in headless Chromium: same counts as Node, clean console, golden screenshot', { skip }, async t => {
    let demo: DemoServer | null = null,
        browser: Browser | null = null;
    try {
        demo = await startDemo({ port: 0 });
        const atlas = MaskAtlas.from(demo.atlas);
        browser = await openBrowser('plain');
        const page = await browser.newPage({ viewport: { width: 900, height: 800 }, deviceScaleFactor: 1 });
        const problems: string[] = [];
        page.on('console', m => {
            if (m.type() === 'error') problems.push(`console.${m.type()}: ${m.text()}`);
        });
        page.on('pageerror', e => problems.push(`page error: ${e.message}`));
        page.on('requestfailed', r => problems.push(`request failed: ${r.url()}`));
        page.on('response', r => {
            if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
        });

        const open = async (query: string): Promise<void> => {
            await page.goto(`${(demo as DemoServer).url}?${query}`);
            await waitFor(page, 'the demo to start (window.hitmaskDemo)', () => window.hitmaskDemo !== undefined);
        };
        const step = (p: Page, n: number) => p.evaluate(k => (window.hitmaskDemo as DemoHook).step(k), n);
        const node = (options: SimOptions) => new DemoSim(atlas, options);
        const advance = (sim: DemoSim, n: number) => {
            for (let i = 0; i < n; i++) sim.step();
            return sim.stats();
        };

        await t.test('scripted frames give the counts Node computes for the same scene', async () => {
            await open('seed=1&auto=1&pause=1&debug=1');
            const sim = node({ seed: 1, mode: 'pixel', stress: 0, auto: true });
            const inBrowser = await step(page, 160);
            assert.deepEqual(withoutTimings(inBrowser), withoutTimings(advance(sim, 160)));
            assert.ok(inBrowser.totals.boxPairs > 0 && inBrowser.totals.craters > 0, JSON.stringify(inBrowser.totals));
            assert.match(await page.locator('#hud').innerText(), /PIXEL-EXACT.*frame 160/s);
            assert.match(page.url(), /debug=1.*auto=1.*pause=1.*frame=160/);

            compareGolden('demo-pixel-debug', await page.locator('#game').screenshot({ animations: 'disabled' }));

            // Switch to box collisions mid-game, on both sides.
            await page.evaluate(() => (window.hitmaskDemo as DemoHook).setMode('box'));
            sim.setMode('box');
            const boxed = await step(page, 140);
            assert.deepEqual(withoutTimings(boxed), withoutTimings(advance(sim, 140)));
            assert.equal(boxed.mode, 'box');
            assert.equal(boxed.pairs, boxed.boxPairs);
            assert.match(page.url(), /mode=box/);
            assert.ok(boxed.totals.nearMisses > 0);
        });

        await t.test('a shared URL replays to its frame', async () => {
            await open('seed=4&auto=1&pause=1&frame=90');
            const stats = await page.evaluate(() => (window.hitmaskDemo as DemoHook).stats());
            assert.deepEqual(
                withoutTimings(stats),
                withoutTimings(advance(node({ seed: 4, mode: 'pixel', stress: 0, auto: true }), 90))
            );
        });

        await t.test(
            "the physics-shapes overlay draws every sprite's polygons and pieces, rebuilds the bunkers' after craters, and changes no count",
            async () => {
                await open('seed=1&auto=1&pause=1&shapes=1');
                const shaped = await step(page, 300);
                assert.deepEqual(
                    withoutTimings(shaped),
                    withoutTimings(advance(node({ seed: 1, mode: 'pixel', stress: 0, auto: true }), 300)),
                    'drawing only'
                );
                const drawn = await page.evaluate(() => (window.hitmaskDemo as DemoHook).shapesDrawn());
                assert.ok(
                    drawn.sprites > 0 && drawn.polygons >= drawn.sprites && drawn.pieces >= drawn.polygons,
                    JSON.stringify(drawn)
                );
                assert.ok(
                    drawn.terrainPolygons > 0 && drawn.terrainPieces >= drawn.terrainPolygons,
                    JSON.stringify(drawn)
                );
                assert.ok(shaped.totals.craters > 0, 'bunkers were hit');
                await page.evaluate(() => (window.hitmaskDemo as DemoHook).setShapes(false));
                assert.match(page.url(), /^(?!.*shapes=1)/, 'the toggle leaves the URL');
            }
        );

        await t.test('stress mode runs 10,000 sprites', async () => {
            await open('stress=10000&seed=2&auto=1&pause=1');
            const stats = await step(page, 3);
            assert.ok(stats.sprites >= 10_000, `${stats.sprites} sprites`);
            assert.deepEqual(
                withoutTimings(stats),
                withoutTimings(advance(node({ seed: 2, mode: 'pixel', stress: 10_000, auto: true }), 3))
            );
            assert.deepEqual(
                await page.evaluate(() => [
                    document.querySelector('canvas')?.width,
                    document.querySelector('canvas')?.height
                ]),
                [1280, 960]
            );
        });

        await t.test(
            'a ThreadPool of web Workers gives single-thread results in the cross-origin-isolated page',
            async () => {
                await open('seed=1&pause=1');
                const bundle = await esbuild.build({
                    entryPoints: [fileURLToPath(new URL('./browser-threads.ts', import.meta.url))],
                    bundle: true,
                    format: 'iife',
                    globalName: 'hitmaskThreadsCheck',
                    write: false,
                    target: 'es2022'
                });
                const r = (await page.evaluate(
                    `${bundle.outputFiles[0].text}\nhitmaskThreadsCheck.run()`
                )) as ThreadsCheck;
                assert.deepEqual(
                    {
                        isolated: r.isolated,
                        kernels: r.kernels,
                        shared: r.shared,
                        ready: r.ready,
                        mismatches: r.mismatches
                    },
                    { isolated: true, kernels: 'wasm', shared: true, ready: 2, mismatches: 0 },
                    JSON.stringify(r)
                );
                assert.ok(r.workerChunks > 0, `the workers took part (${r.workerChunks} chunks)`);
                assert.equal(r.worldPairs[1], r.worldPairs[0]);
                assert.ok(r.worldPairs[0] > 0);
            }
        );

        assert.deepEqual(problems, [], 'no console errors, page errors or failed requests');
    } finally {
        await browser?.close();
        await demo?.close();
    }
});
