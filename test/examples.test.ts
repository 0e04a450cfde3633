// The browser examples (examples/phaser, examples/pixi): they bundle with esbuild against the real Phaser,
// PixiJS and hitmask sources, type-check under the repository's strict settings, and, where headless
// Chromium is installed (/usr/bin/chromium), run and report pixel hits that Arcade's/the box test alone would not.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleExample, EXAMPLES, NAMES, serve } from '../examples/serve.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
let site = '';

before(() => {
    // A copy of examples/ to serve, so the tests never touch examples/*/dist of a running `npm run example:*`.
    site = mkdtempSync(join(tmpdir(), 'hitmask-examples-'));
    mkdirSync(join(site, 'sprites'));
    for (const f of readdirSync(join(EXAMPLES, 'sprites'))) if (f.endsWith('.png')) copyFileSync(join(EXAMPLES, 'sprites', f), join(site, 'sprites', f));
    for (const name of NAMES) {
        mkdirSync(join(site, name));
        copyFileSync(join(EXAMPLES, name, 'index.html'), join(site, name, 'index.html'));
    }
});

after(() => {
    if (site) rmSync(site, { recursive: true, force: true });
});

test('examples: both bundle with esbuild, with the engine and hitmask inside', async () => {
    for (const name of NAMES) {
        const out = await bundleExample(name, join(site, name, 'dist', 'main.js'));
        const js = readFileSync(out, 'utf8');
        // (assert.ok, not assert.match: a failure must not print megabytes of bundle)
        assert.ok(js.includes('must be an integer in 0..'), `${name}: hitmask's argument checks are bundled`);
        assert.ok(/\bMask = class\b/.test(js), `${name}: hitmask's Mask is bundled`);
        assert.ok(js.includes(name === 'phaser' ? 'processCallback' : 'extract.pixels'), `${name}: the engine and the example's own code are bundled`);
        assert.match(readFileSync(join(EXAMPLES, name, 'index.html'), 'utf8'), /<script type="module" src="dist\/main\.js"><\/script>/);
    }
    // And what the bundle pulls in: the real packages from node_modules and the library's sources.
    const meta = await build({ entryPoints: NAMES.map(n => join(EXAMPLES, n, 'main.ts')), bundle: true, write: false, outdir: join(site, 'meta'), format: 'esm', metafile: true, logLevel: 'silent' });
    const inputs = Object.keys(meta.metafile.inputs);
    for (const p of ['node_modules/phaser/', 'node_modules/pixi.js/', 'src/mask.ts', 'examples/phaser/main.ts', 'examples/pixi/main.ts']) {
        assert.ok(inputs.some(i => i.includes(p)), `bundle inputs include ${p}`);
    }
});

test('examples: they type-check under the repository tsconfig (strict, DOM)', () => {
    const config = join(site, 'tsconfig.json');
    writeFileSync(config, JSON.stringify({
        extends: join(ROOT, 'tsconfig.json'),
        compilerOptions: { typeRoots: [join(ROOT, 'node_modules', '@types')] },
        files: [join(EXAMPLES, 'phaser', 'main.ts'), join(EXAMPLES, 'pixi', 'main.ts'), join(EXAMPLES, 'serve.ts')],
        include: []
    }));
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('examples: in headless Chromium each page runs and reports pixel hits, and box-only overlaps it rejected', { timeout: 120_000 }, async t => {
    if (!existsSync(CHROMIUM)) {
        t.skip(`no ${CHROMIUM}`);
        return;
    }
    for (const name of NAMES) if (!existsSync(join(site, name, 'dist', 'main.js'))) await bundleExample(name, join(site, name, 'dist', 'main.js'));
    const { chromium } = await import('playwright-core');
    const server = await serve(site, 0);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-background-networking',
            '--disable-component-update', '--disable-sync', '--no-first-run']
    });
    try {
        for (const name of NAMES) {
            const page = await browser.newPage();
            const errors: string[] = [];
            page.on('console', m => {
                if (m.type() === 'error') errors.push(m.text());
            });
            page.on('pageerror', e => errors.push(e.message));
            await page.goto(`http://127.0.0.1:${port}/${name}/`);
            // The ship sweeps across three rocks: boxes meet before pixels do, so both counts grow.
            await page.waitForFunction(() => {
                const s = document.getElementById('status')?.dataset;
                return s !== undefined && Number(s.pixel) > 0 && Number(s.box) > Number(s.pixel);
            }, null, { timeout: 30_000 }).catch((e: unknown) => errors.push(String(e)));
            const status = await page.evaluate(() => ({ box: Number(document.getElementById('status')?.dataset.box), pixel: Number(document.getElementById('status')?.dataset.pixel) }));
            await page.close();
            assert.deepEqual(errors, [], `${name}: no console errors`);
            assert.ok(status.pixel > 0, `${name}: a pixel hit (${JSON.stringify(status)})`);
            assert.ok(status.box > status.pixel, `${name}: box overlaps whose pixels did not touch were rejected (${JSON.stringify(status)})`);
        }
    } finally {
        await browser.close();
        server.close();
    }
});
