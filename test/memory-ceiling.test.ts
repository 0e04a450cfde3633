// @test no-shared
// At the 1 GiB ceiling of WebAssembly memory a new mask lives on the JS heap with the JS kernels: the
// fallback is counted by kernelStats(), warned about once, and gives the same results. A file of its own:
// WebAssembly memory never shrinks, so the process that fills it should run nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Mask, kernelStats, limits } from '../src/index.js';

const { wasmAvailable } = kernelStats();

test(
    'at the ceiling new masks fall back to the JS heap, visibly, and come back once memory is freed',
    { skip: !wasmAvailable },
    t => {
        const warn = t.mock.method(console, 'warn', () => {});
        const big: Mask[] = [];
        // 8 MiB masks, never written: fresh WebAssembly pages cost no resident memory.
        while (big.length < 200) {
            const m = new Mask(256, 262144);
            if (m._ptr < 0) {
                big.push(m);
                break;
            }
            big.push(m);
        }
        const spilled = big[big.length - 1],
            s = kernelStats();
        assert.ok(spilled._ptr < 0, 'a mask went to the JS heap');
        assert.ok(
            s.memoryBytes <= limits.memoryBytes && s.memoryBytes > limits.memoryBytes - 16 * 2 ** 20,
            `memory ${s.memoryBytes}`
        );
        assert.equal(s.fallbacks, 1);
        assert.equal(s.jsMasks, 1);
        assert.equal(s.kernels, 'wasm');
        assert.equal(warn.mock.callCount(), 1);
        assert.match(
            String(warn.mock.calls[0].arguments[0]),
            /WebAssembly memory is at its 1024 MiB ceiling.*use the JS heap and the slower JS kernels.*dispose\(\).*kernelStats\(\)/
        );
        // Same answers on the fallback path.
        spilled.set(3, 5).set(200, 100);
        const probe = new Mask(8, 8, true);
        assert.equal(spilled.overlapArea(probe, 0, 0), 1);
        assert.equal(big[0].overlapArea(probe, 0, 0), 0);
        assert.equal(probe.overlapArea(spilled, -197, -97), 1);
        // A second fallback is counted but not warned about again.
        assert.ok(new Mask(256, 262144)._ptr < 0);
        assert.equal(kernelStats().fallbacks, 2);
        assert.equal(warn.mock.callCount(), 1);
        // Freeing brings new masks back into WebAssembly memory.
        for (const m of big) m.dispose();
        const back = new Mask(256, 262144);
        assert.ok(back._ptr >= 0);
        assert.equal(kernelStats().jsMasks, 1); // the second spilled one, not yet collected
    }
);

test(
    'where the runtime refuses to reserve 1 GiB, a smaller ceiling is used and reported, and masks still run in WebAssembly',
    { skip: !wasmAvailable },
    () => {
        const script = `const { Mask, kernelStats } = await import(${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)});
const a = new Mask(300, 300, true), b = new Mask(100, 100, true);
console.log(JSON.stringify({ stats: kernelStats(), area: a.overlapArea(b, 250, 250), ptr: a._ptr >= 0 }));`;
        const r = spawnSync(
            process.execPath,
            ['--import', 'tsx', '--import', './test/env/small-address-space.mjs', '--input-type=module', '-e', script],
            { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' }
        );
        assert.equal(r.status, 0, r.stderr);
        const out = JSON.parse(r.stdout) as { stats: ReturnType<typeof kernelStats>; area: number; ptr: boolean };
        assert.equal(out.stats.kernels, 'wasm');
        assert.equal(out.stats.memoryLimitBytes, 256 * 2 ** 20);
        assert.equal(out.area, 50 * 50);
        assert.equal(out.ptr, true);
    }
);
