// The test runner behind `npm test` and `npm run test:fast`: every suite runs and every failure is reported
// in one go (no `&&` chain that stops at the first red suite), the exit code is non-zero when anything
// failed. Test files run as separate processes, several at a time, the slow ones first; the browser tests
// share one Chromium per flavour (test/chromium.ts). Nothing here asserts on time: a file that runs past
// its limit is reported as hung, and the limit is generous.
//
//   node --import tsx scripts/test.ts [--fast] [--list] [--jobs N] [file …]
//
// --fast: the core unit tests only (no typecheck, lint, build or browser). --list: print the jobs in the order
// they would start, and run nothing. Files given: only those (both suites where a file is in both).
// HITMASK_TEST_JOBS sets --jobs; HITMASK_TEST_FILE_LIMIT_S the limit.
//
// Every test/*.test.ts file runs; what else happens to a file is said by the file itself, on its first line:
//
//   // @test fast no-shared
//
// fast: also in the fast set; no-shared: again without SharedArrayBuffer; slow: started first; browser: one
// such file at a time; phaser3 / pixi7: again on the other engine major. scripts/test-tags.ts defines the
// tags; an unknown or misplaced tag stops the runner before anything runs. A new test file needs no edit here.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumMissing, shareBrowsers } from '../test/chromium.js';
import { ENGINE_MAJORS, readTags, type Tag } from './test-tags.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE = process.execPath;
const TSC = 'node_modules/typescript/bin/tsc';
const CLEAN_DIST = "require('node:fs').rmSync('dist', { recursive: true, force: true })";

// Files tagged `browser` (scripts/test-tags.ts): at most this many at once.
const BROWSER_JOBS = 1;

interface Job {
    name: string;
    cmd: string[];
    env?: Record<string, string>;
    browser?: boolean;
    // Counted from the spec reporter's summary; null for jobs that are not node:test files.
    tests?: { pass: number; fail: number; skipped: number } | null;
}

interface Done {
    job: Job;
    ok: boolean;
    ms: number;
    output: string;
    why: string;
}

function parseArgs(argv: string[]): { fast: boolean; list: boolean; jobs: number; files: string[] } {
    let fast = false,
        list = false,
        jobs = Number(process.env.HITMASK_TEST_JOBS ?? 0) || Math.max(2, availableParallelism());
    const files: string[] = [];
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--fast') fast = true;
        else if (a === '--list') list = true;
        else if (a === '--jobs') {
            jobs = Number(argv[++i]);
            if (!Number.isInteger(jobs) || jobs < 1)
                throw new RangeError(`--jobs needs a whole number of at least 1, got ${argv[i]}`);
        } else if (a.startsWith('-'))
            throw new Error(`unknown option ${a}; usage: scripts/test.ts [--fast] [--list] [--jobs N] [file …]`);
        else files.push(basename(a).replace(/\.test\.ts$/, ''));
    }
    return { fast, list, jobs, files };
}

const LIMIT_MS = 1000 * Number(process.env.HITMASK_TEST_FILE_LIMIT_S ?? 1800);

function run(job: Job, env: Record<string, string>): Promise<Done> {
    const t0 = performance.now();
    return new Promise(done => {
        const child = spawn(job.cmd[0], job.cmd.slice(1), {
            cwd: ROOT,
            env: { ...process.env, ...env, ...job.env },
            stdio: ['ignore', 'pipe', 'pipe']
        });
        let output = '',
            why = '';
        child.stdout.on('data', (d: Buffer) => {
            output += d.toString();
        });
        child.stderr.on('data', (d: Buffer) => {
            output += d.toString();
        });
        const limit = setTimeout(() => {
            why = `ran past ${LIMIT_MS / 1000} s (HITMASK_TEST_FILE_LIMIT_S): a hang?`;
            child.kill('SIGKILL');
        }, LIMIT_MS);
        child.on('error', e => {
            why = `could not start: ${e.message}`;
        });
        child.on('close', (code, signal) => {
            clearTimeout(limit);
            if (!why && code !== 0) why = signal ? `killed by ${signal}` : `exit code ${code}`;
            if (job.tests !== undefined) job.tests = counts(output);
            done({ job, ok: why === '', ms: performance.now() - t0, output, why });
        });
    });
}

// The spec reporter's closing lines: "ℹ pass 12", "ℹ fail 0", "ℹ skipped 1".
function counts(output: string): { pass: number; fail: number; skipped: number } | null {
    const get = (k: string) => Number(new RegExp(`^ℹ ${k} (\\d+)$`, 'm').exec(output)?.[1] ?? NaN);
    const c = { pass: get('pass'), fail: get('fail'), skipped: get('skipped') };
    return Number.isNaN(c.pass) ? null : c;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function line(d: Done): string {
    const t = d.job.tests;
    const what = t
        ? `${t.pass} passed${t.skipped ? `, ${t.skipped} skipped` : ''}${t.fail ? `, ${t.fail} FAILED` : ''}`
        : '';
    return `${d.ok ? '✔' : '✖'} ${d.job.name.padEnd(40)} ${seconds(d.ms).padStart(8)}  ${what}${d.ok ? '' : `  (${d.why})`}`;
}

// A test file as a job: `suite` null for the plain run, 'no-shared' without SharedArrayBuffer, or an engine major.
function testJob(
    file: string,
    tags: Set<Tag>,
    suite: 'no-shared' | { name: string; env: Record<string, string> } | null = null
): Job {
    const pre = suite === 'no-shared' ? ['--import', './test/env/no-shared-memory.mjs'] : [];
    return {
        name: `${suite === null ? '' : `${suite === 'no-shared' ? suite : suite.name}: `}test/${file}.test.ts`,
        cmd: [NODE, '--import', 'tsx', ...pre, '--test', '--test-reporter=spec', `test/${file}.test.ts`],
        env: suite !== null && suite !== 'no-shared' ? suite.env : undefined,
        browser: tags.has('browser'),
        tests: null
    };
}

async function main(): Promise<number> {
    const { fast, list, jobs, files } = parseArgs(process.argv.slice(2));
    // Every test file with the tags on its first line (scripts/test-tags.ts); a bad tag throws here.
    const tagged = new Map(
        readdirSync(new URL('../test/', import.meta.url))
            .filter(f => f.endsWith('.test.ts'))
            .sort()
            .map(f => [f.replace(/\.test\.ts$/, ''), readTags(new URL(`../test/${f}`, import.meta.url), `test/${f}`)])
    );
    const all = [...tagged.keys()];
    for (const f of files) if (!tagged.has(f)) throw new Error(`no test/${f}.test.ts; the files are ${all.join(', ')}`);
    const pick = (list: string[]) => (files.length > 0 ? list.filter(f => files.includes(f)) : list);
    const tagOf = (f: string) => tagged.get(f) ?? new Set<Tag>();
    const having = (tag: Tag) => all.filter(f => tagOf(f).has(tag));

    // Generated source every job needs, then dist/ for the CLI, pack and docs tests (not in the fast set).
    const prepare: Job[] = [{ name: 'build:wasm', cmd: [NODE, '--import', 'tsx', 'scripts/build-wasm.ts'] }];
    // dist/ is emptied first: tsc never removes the output of a source file that moved, and npm pack would ship it.
    if (!fast)
        prepare.push(
            { name: 'clean dist/', cmd: [NODE, '-e', CLEAN_DIST] },
            { name: 'build (tsc -p tsconfig.build.json)', cmd: [NODE, TSC, '-p', 'tsconfig.build.json'] }
        );

    const queue: Job[] = [];
    if (!fast && files.length === 0) {
        queue.push({ name: 'typecheck (tsc --noEmit)', cmd: [NODE, TSC, '--noEmit'] });
        queue.push({ name: 'typecheck core (tsconfig.core.json)', cmd: [NODE, TSC, '-p', 'tsconfig.core.json'] });
        queue.push({ name: 'lint (eslint .)', cmd: [NODE, 'node_modules/eslint/bin/eslint.js', '.'] });
        queue.push({
            name: 'format (prettier --check .)',
            cmd: [NODE, 'node_modules/prettier/bin/prettier.cjs', '--check', '.']
        });
    }
    const unit = pick(fast ? having('fast') : all),
        noShared = pick(fast ? [] : having('no-shared'));
    for (const f of unit) queue.push(testJob(f, tagOf(f)));
    for (const f of noShared) queue.push(testJob(f, tagOf(f), 'no-shared'));
    if (!fast)
        for (const f of unit)
            for (const tag of tagOf(f)) {
                const major = ENGINE_MAJORS[tag];
                if (major) queue.push(testJob(f, tagOf(f), major));
            }
    // The jobs that are not test files, then the slow files across every suite, then the rest in file order.
    const weight = (j: Job) => {
        const m = /test\/(.*)\.test\.ts$/.exec(j.name);
        return m ? (tagOf(m[1]).has('slow') ? 0 : 1) : -1;
    };
    queue.sort((a, b) => weight(a) - weight(b));

    if (list) {
        for (const j of [...prepare, ...queue])
            console.log(`${j.name}${j.browser ? '  (browser)' : ''}${j.env ? `  ${JSON.stringify(j.env)}` : ''}`);
        return 0;
    }

    const t0 = performance.now();
    const [load1] = loadavg();
    console.log(
        `hitmask tests: Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load ${load1.toFixed(2)}, ${jobs} at a time${fast ? ', fast set' : ''}`
    );

    const results: Done[] = [];
    const report = (d: Done) => {
        results.push(d);
        console.log(line(d));
        if (!d.ok) console.log(indent(d.output));
    };
    for (const job of prepare) report(await run(job, {}));

    let shared: Awaited<ReturnType<typeof shareBrowsers>> | null = null;
    if (!chromiumMissing && queue.some(j => j.browser)) {
        try {
            shared = await shareBrowsers();
        } catch (e) {
            console.log(
                `(Chromium could not be shared: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}; each browser test starts its own)`
            );
        }
    }
    try {
        let browsers = 0;
        await new Promise<void>(finish => {
            let running = 0;
            const next = () => {
                while (running < jobs) {
                    const i = queue.findIndex(j => !j.browser || browsers < BROWSER_JOBS);
                    if (i < 0) break;
                    const [job] = queue.splice(i, 1);
                    running++;
                    if (job.browser) browsers++;
                    void run(job, shared?.env ?? {}).then(d => {
                        running--;
                        if (job.browser) browsers--;
                        report(d);
                        next();
                    });
                }
                if (running === 0 && queue.length === 0) finish();
            };
            next();
        });
    } finally {
        await shared?.close();
    }

    const failed = results.filter(d => !d.ok);
    const tests = results.reduce(
        (n, d) => ({
            pass: n.pass + (d.job.tests?.pass ?? 0),
            fail: n.fail + (d.job.tests?.fail ?? 0),
            skipped: n.skipped + (d.job.tests?.skipped ?? 0)
        }),
        { pass: 0, fail: 0, skipped: 0 }
    );
    console.log('\nslowest:');
    for (const d of [...results].sort((a, b) => b.ms - a.ms).slice(0, 8))
        console.log(`  ${seconds(d.ms).padStart(8)}  ${d.job.name}`);
    console.log(
        `\n${results.length} jobs, ${tests.pass} tests passed, ${tests.skipped} skipped, ${tests.fail} failed; ${seconds(performance.now() - t0)} in all (load now ${loadavg()[0].toFixed(2)})`
    );
    if (failed.length > 0) {
        console.log(`\nFAILED (${failed.length}):`);
        for (const d of failed) console.log(`  ✖ ${d.job.name} (${d.why})`);
        return 1;
    }
    return 0;
}

function indent(text: string): string {
    return text
        .trimEnd()
        .split('\n')
        .map(l => `    ${l}`)
        .join('\n');
}

if (!existsSync(new URL('../node_modules/', import.meta.url))) {
    console.error('node_modules is missing: run npm ci first.');
    process.exit(2);
}
try {
    process.exitCode = await main();
} catch (e) {
    // A bad option, file name or test tag: nothing has run.
    console.error(`scripts/test.ts: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 2;
}
