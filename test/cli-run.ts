// Runs the built CLI (dist/node/cli.js) for the CLI tests, in a working folder the test chooses.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The built CLI. */
export const CLI = join(ROOT, 'dist', 'node', 'cli.js');

/** Builds dist/ with tsc when the CLI is not built yet (npm test builds it first). */
export function ensureBuilt(): void {
    if (existsSync(CLI)) return;
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { encoding: 'utf8' });
    assert.ok(existsSync(CLI), `building dist failed: ${r.stdout}${r.stderr}`);
}

/** `run(...args)` runs the CLI in `cwd()`; `fails(args, re)` checks a one-line `hitmask: …` error, exit 2, nothing on stdout. */
export function cliRunner(cwd: () => string): {
    run(...args: string[]): { code: number | null; out: string; err: string };
    fails(args: string[], re: RegExp): void;
} {
    const run = (...args: string[]) => {
        const r = spawnSync(process.execPath, [CLI, ...args], { cwd: cwd(), encoding: 'utf8', maxBuffer: 1 << 28 });
        return { code: r.status, out: r.stdout, err: r.stderr };
    };
    const fails = (args: string[], re: RegExp) => {
        const r = run(...args);
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
        assert.equal(r.out, '');
        assert.match(r.err, re);
        assert.equal(r.err.trim().split('\n').length, 1, `one line: ${r.err}`);
        assert.match(r.err, /^hitmask: /);
    };
    return { run, fails };
}
