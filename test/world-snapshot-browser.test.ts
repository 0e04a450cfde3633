// @test browser
// Determinism across engines' hosts: the rollback scenario (test/rollback-scenario.ts) run in headless Chromium, on
// its WebAssembly and its JS kernels, gives the same hashes, events and pair counts as in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { chromiumMissing as skip, openBrowser } from './chromium.js';
import { runScenario, type ScenarioLog } from './rollback-scenario.js';

test('the rollback scenario in Chromium (both kernel paths) equals the run in Node', { skip }, async () => {
    const bundle = await esbuild.build({
        stdin: {
            contents: `import { runScenario } from './rollback-scenario.ts'; import { setKernels, kernelStats } from '../src/index.ts';
                export function run(seed, steps, kernels) { setKernels(kernels); const log = runScenario(seed, steps); return { log, kernels: kernelStats().kernels }; }`,
            resolveDir: fileURLToPath(new URL('.', import.meta.url)),
            loader: 'ts',
            sourcefile: 'page.ts'
        },
        bundle: true,
        format: 'iife',
        globalName: 'hitmaskRollback',
        write: false,
        target: 'es2022',
        logLevel: 'silent'
    });
    const node = runScenario(5, 40);
    const browser = await openBrowser('plain');
    try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', e => errors.push(e.message));
        await page.setContent('<!doctype html><title>rollback</title>');
        await page.addScriptTag({ content: bundle.outputFiles[0].text });
        for (const kernels of ['wasm', 'js'] as const) {
            const r = (await page.evaluate(`hitmaskRollback.run(5, 40, '${kernels}')`)) as {
                log: ScenarioLog;
                kernels: string;
            };
            assert.equal(r.kernels, kernels);
            assert.deepEqual(r.log, node, `Chromium with the ${kernels} kernels`);
        }
        assert.deepEqual(errors, []);
    } finally {
        await browser.close();
    }
});
