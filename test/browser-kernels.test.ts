// @test slow browser
// The kernels in headless Chromium (Debian's, driven by playwright-core) on a plain static page, where the
// WebAssembly memory is a plain growable one whose views detach when it grows, and on a cross-origin-
// isolated (COOP/COEP) page, where it is shared: JS and WebAssembly kernels against each other and a
// naive reference, memory growth, a CollisionRaster, and a clean console.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissing as skip, openBrowser } from './chromium.js';
import type { EnvironmentCheck, GrowthCheck, Mismatches } from './browser-kernels.js';

const PAGE_HTML =
    '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>hitmask kernels</title><script src="/check.js"></script>';
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

/** Serves /plain.html (no isolation headers), /isolated.html (COOP/COEP) and the bundled check as /check.js on 127.0.0.1. */
async function serve(script: string): Promise<{ server: Server; url: string }> {
    const server = createServer((req, res) => {
        const html = { 'Content-Type': 'text/html; charset=utf-8' };
        if (req.url === '/plain.html') res.writeHead(200, html).end(PAGE_HTML);
        else if (req.url === '/isolated.html') res.writeHead(200, { ...html, ...ISOLATION }).end(PAGE_HTML);
        else if (req.url === '/check.js')
            res.writeHead(200, {
                'Content-Type': 'text/javascript; charset=utf-8',
                'Cross-Origin-Resource-Policy': 'same-origin'
            }).end(script);
        else res.writeHead(404).end();
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Calls a function of the bundled check in the page. */
function call<T>(page: Page, expression: string): Promise<T> {
    return page.evaluate(`hitmaskKernelsCheck.${expression}`) as Promise<T>;
}

/** Asserts a correctness check compared something and found no mismatch. */
function assertClean(r: Mismatches, least: number): void {
    assert.equal(
        r.mismatches,
        0,
        `${r.mismatches} of ${r.compared} comparisons failed, first ones:\n${r.samples.join('\n')}`
    );
    assert.ok(r.compared >= least, `only ${r.compared} comparisons ran`);
}

test(
    'the JS and WebAssembly kernels in headless Chromium, on a plain page and on a cross-origin-isolated one',
    { skip },
    async t => {
        let server: Server | null = null,
            browser: Browser | null = null;
        try {
            const bundle = await esbuild.build({
                entryPoints: [fileURLToPath(new URL('./browser-kernels.ts', import.meta.url))],
                bundle: true,
                format: 'iife',
                globalName: 'hitmaskKernelsCheck',
                write: false,
                target: 'es2022'
            });
            const served = await serve(bundle.outputFiles[0].text);
            server = served.server;
            browser = await openBrowser('plain');
            for (const isolated of [false, true]) {
                const name = isolated ? 'isolated' : 'plain';
                await t.test(`${name} page`, async t => {
                    const page = await (browser as Browser).newPage();
                    const problems: string[] = [];
                    page.on('console', m => {
                        if (m.type() === 'error' || m.type() === 'warning')
                            problems.push(`console.${m.type()}: ${m.text()}`);
                    });
                    page.on('pageerror', e => problems.push(`page error: ${e.message}`));
                    page.on('requestfailed', r => problems.push(`request failed: ${r.url()}`));
                    page.on('response', r => {
                        if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
                    });
                    await page.goto(`${served.url}/${name}.html`);

                    await t.test('isolation, shared memory and the WebAssembly kernels at load', async () => {
                        assert.deepEqual(await call<EnvironmentCheck>(page, 'environment()'), {
                            isolated,
                            sharedArrayBuffer: isolated ? 'function' : 'undefined',
                            kernels: 'wasm',
                            reason: null,
                            sharedMemory: isolated
                        });
                    });

                    await t.test(
                        '300 random pairs: js, wasm and wasm with minWords 0 agree with the reference',
                        async () => {
                            assertClean(await call<Mismatches>(page, 'pairs(300, 11)'), 300 * 33);
                        }
                    );

                    await t.test(
                        'growing the memory keeps earlier masks right; dispose() returns the big ones',
                        async () => {
                            const g = await call<GrowthCheck>(page, 'growth(200, 12)');
                            assertClean(g, 6 * 4);
                            assert.ok(
                                g.memoryAfter > g.memoryBefore,
                                `memory grew: ${g.memoryBefore} -> ${g.memoryAfter} bytes`
                            );
                            assert.ok(
                                g.usedPeak >= g.usedBefore + (200 * 512 * 512) / 8,
                                `200 masks of 512x512 in use: ${g.usedBefore} -> ${g.usedPeak} bytes`
                            );
                            assert.equal(
                                g.usedAfter,
                                g.usedBefore,
                                'usedBytes back where it was once the big masks are disposed'
                            );
                            // A plain memory detaches its old buffer when it grows; a shared one keeps old views at their length.
                            assert.deepEqual(g.staleLengths, isolated ? g.wordCounts : g.wordCounts.map(() => 0));
                        }
                    );

                    await t.test(
                        'a two-layer CollisionRaster: test, overlapArea and hitPoint agree with the reference',
                        async () => {
                            assertClean(await call<Mismatches>(page, 'raster(8, 150, 13)'), 3 * (2 + 150 * 3));
                        }
                    );

                    assert.deepEqual(problems, [], 'no console errors or warnings, page errors or failed requests');
                    await page.close();
                });
            }
        } finally {
            await browser?.close();
            server?.closeAllConnections();
            await new Promise(resolve => (server === null ? resolve(null) : server.close(resolve)));
        }
    }
);
