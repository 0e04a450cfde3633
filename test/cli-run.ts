// Runs the built CLI (dist/node/cli.js) for the CLI tests, in a working folder the test chooses.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The built CLI. */
export const CLI = join(ROOT, 'dist', 'node', 'cli.js');

/** Builds dist/ with tsc when the CLI is not built yet (npm test builds it first). */
export function ensureBuilt(): void {
    if (existsSync(CLI)) return;
    const r = spawnSync(
        process.execPath,
        [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')],
        { encoding: 'utf8' }
    );
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

/**
 * Preload (`node --import`) that writes the peak resident set size of the process, in KiB, and a newline to
 * descriptor 3 when it exits: the memory a run cost, counted by the kernel.
 */
export const REPORT_MAX_RSS = preload(`
import { writeSync } from 'node:fs';
process.on('exit', () => writeSync(3, process.resourceUsage().maxRSS + '\\n'));
`);

/**
 * Preload that stops every `FileHandle.sync()` for good after writing "in flight" and a newline to descriptor 3:
 * an atomic write then holds its whole temporary file, not yet renamed, until the process is signalled.
 */
export const PAUSE_BEFORE_RENAME = preload(`
import { writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
const probe = await open(process.execPath);
const FileHandle = Object.getPrototypeOf(probe);
await probe.close();
FileHandle.sync = () => {
    writeSync(3, 'in flight\\n');
    return new Promise(() => setInterval(() => undefined, 60_000));
};
`);

function preload(code: string): string {
    return `data:text/javascript,${encodeURIComponent(code)}`;
}

/** A run of the CLI started by {@link startCli}: its process, the first line it writes to descriptor 3, and its end. */
export interface CliRun {
    child: ChildProcess;
    /** The first line written to descriptor 3 (without its newline), or null when the process ended without one. */
    firstLine: Promise<string | null>;
    done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: Buffer; err: string; fd3: string }>;
}

/**
 * Starts the built CLI with `preloads` (see {@link REPORT_MAX_RSS}) in `cwd`, killed by the kernel after `cpuSeconds`
 * of CPU time when given (a run that would read for ever then fails instead of hanging the test); stdout is kept as
 * bytes, descriptor 3 is a pipe.
 */
export function startCli(args: string[], cwd: string, preloads: string[] = [], cpuSeconds?: number): CliRun {
    const argv = [process.execPath, ...preloads.flatMap(p => ['--import', p]), CLI, ...args];
    const stdio: StdioOptions = ['ignore', 'pipe', 'pipe', 'pipe'];
    const child =
        cpuSeconds === undefined
            ? spawn(argv[0], argv.slice(1), { cwd, stdio })
            : spawn('sh', ['-c', `ulimit -t ${cpuSeconds} && exec "$@"`, 'sh', ...argv], { cwd, stdio });
    const out: Buffer[] = [];
    let err = '',
        fd3 = '',
        first: (line: string | null) => void = () => undefined;
    const firstLine = new Promise<string | null>(resolve => {
        first = resolve;
    });
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
        err += d;
    });
    (child.stdio[3] as Readable).setEncoding('utf8').on('data', (d: string) => {
        fd3 += d;
        // Later calls of a promise's resolve change nothing.
        if (fd3.includes('\n')) first(fd3.slice(0, fd3.indexOf('\n')));
    });
    const done = new Promise<Awaited<CliRun['done']>>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', (code, signal) => {
            first(null);
            resolve({ code, signal, out: Buffer.concat(out), err, fd3 });
        });
    });
    return { child, firstLine, done };
}
