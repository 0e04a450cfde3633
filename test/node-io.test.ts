// Files an attacker chooses for the Node code: outputs that are devices, FIFOs or /dev/stdout are written
// through, never replaced; inputs are read under the byte budget, so that a link to /dev/zero or an endless FIFO
// costs at most that budget; an interrupted CLI removes its temporary file. Linux: FIFOs come from mkfifo, a
// private character device from mknod (as root only); each test is skipped, saying why, where these are missing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
    copyFileSync,
    existsSync,
    lstatSync,
    mkdirSync,
    mkdtempSync,
    readdirSync,
    readFileSync,
    rmSync,
    symlinkSync,
    writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import { MaskAtlas } from '../src/index.js';
import { writeFileAtomic } from '../src/node/write.js'; // internal: writeFileAtomic has no public entry
import { ensureBuilt, PAUSE_BEFORE_RENAME, REPORT_MAX_RSS, startCli } from './cli-run.js';

const SPRITES = fileURLToPath(new URL('./fixtures/sprites/', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MIB = 1024 * 1024;
// Peak RSS allowed for a run refused at a 1 MiB budget, in KiB: Node itself takes 50-100 MB.
const MAX_RSS_KIB = 256 * 1024;
// CPU time allowed to a run that must stop at a 1 MiB budget (it needs well under a second).
const CPU_SECONDS = 60;
let dir = '';
let reference: Buffer;

before(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'hitmask-io-'));
    mkdirSync(join(dir, 'sprites'));
    copyFileSync(join(SPRITES, 'shot.gif'), join(dir, 'sprites', 'shot.gif'));
    const r = spawnSync(
        process.execPath,
        [join(ROOT, 'dist', 'node', 'cli.js'), 'build', 'sprites/shot.gif', '-o', 'reference.hitmask'],
        { cwd: dir, encoding: 'utf8' }
    );
    assert.equal(r.status, 0, r.stderr);
    reference = readFileSync(join(dir, 'reference.hitmask'));
});

after(() => rmSync(dir, { recursive: true, force: true }));

// Null where it worked, else why not (for a skip message).
function tool(cmd: string, ...args: string[]): string | null {
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    return r.error
        ? `${cmd} is missing (${r.error.message})`
        : r.status === 0
          ? null
          : `${cmd} ${args.join(' ')} failed: ${r.stderr.trim()}`;
}

const leftovers = (folder: string) => readdirSync(folder).filter(f => f.endsWith('.tmp'));

test('hitmask -o FIFO: the atlas is written into the FIFO, which stays a FIFO', async t => {
    const fifo = join(dir, 'out.fifo');
    const why = tool('mkfifo', fifo);
    if (why) return t.skip(why);
    const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
    const got: Buffer[] = [];
    reader.stdout.on('data', (d: Buffer) => got.push(d));
    const read = new Promise(resolve => reader.on('close', resolve));
    const r = await startCli(['build', 'sprites/shot.gif', '-o', 'out.fifo'], dir).done;
    const isFifo = lstatSync(fifo).isFIFO();
    // A FIFO replaced by a file has no writer left: cat would wait for one for ever.
    if (!isFifo) reader.kill();
    await read;
    assert.equal(r.code, 0, r.err);
    assert.ok(isFifo, 'out.fifo is still a FIFO');
    assert.deepEqual(Buffer.concat(got), reference);
    assert.deepEqual(leftovers(dir), []);
    rmSync(fifo);
});

test('hitmask -o FIFO without a reader: it says it waits, SIGINT or SIGTERM ends it (130, 143), a late reader gets the atlas', async t => {
    const fifo = join(dir, 'lonely.fifo');
    const why = tool('mkfifo', fifo);
    if (why) return t.skip(why);
    // Gives up after WAIT_S, naming what it waited for: an unfixed CLI never ends, and would hang the test.
    const WAIT_S = 60;
    const within = <T>(what: string, p: Promise<T>, run: ReturnType<typeof startCli>): Promise<T> => {
        let timer: NodeJS.Timeout | undefined;
        const giveUp = new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
                run.child.kill('SIGKILL');
                reject(new Error(`gave up after ${WAIT_S} s waiting for ${what}`));
            }, WAIT_S * 1000);
        });
        return Promise.race([p, giveUp]).finally(() => clearTimeout(timer));
    };
    const note = 'hitmask: note: waiting for a reader of the FIFO "lonely.fifo" (Ctrl-C stops).\n';
    const waiting = (run: ReturnType<typeof startCli>) =>
        new Promise<void>(resolve => {
            let err = '';
            run.child.stderr?.on('data', (d: string) => {
                err += d;
                if (err.includes(note)) resolve();
            });
        });
    try {
        for (const [signal, code] of [
            ['SIGINT', 130],
            ['SIGTERM', 143]
        ] as const) {
            const run = startCli(['build', 'sprites/shot.gif', '-o', 'lonely.fifo'], dir);
            await within('the note that the CLI waits for a reader', waiting(run), run);
            run.child.kill(signal);
            const r = await within(`the CLI to end after ${signal}`, run.done, run);
            assert.deepEqual([r.code, r.signal], [code, null], `${signal}: ${r.err}`);
            assert.equal(r.err, `${note}hitmask: interrupted by ${signal}.\n`);
            assert.ok(lstatSync(fifo).isFIFO());
        }
        // A reader that comes while the CLI waits gets the whole atlas.
        const run = startCli(['build', 'sprites/shot.gif', '-o', 'lonely.fifo'], dir);
        await within('the note that the CLI waits for a reader', waiting(run), run);
        const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
        const got: Buffer[] = [];
        reader.stdout.on('data', (d: Buffer) => got.push(d));
        const read = new Promise(resolve => reader.on('close', resolve));
        const r = await within('the CLI to write to its reader', run.done, run);
        await read;
        assert.equal(r.code, 0, r.err);
        assert.deepEqual(Buffer.concat(got), reference);
    } finally {
        rmSync(fifo, { force: true });
    }
});

test('hitmask -o DEVICE: a private copy of /dev/null stays a character device', async t => {
    const dev = join(dir, 'null');
    const why = process.getuid?.() !== 0 ? 'mknod needs root' : tool('mknod', dev, 'c', '1', '3');
    if (why) return t.skip(why);
    try {
        const r = await startCli(['build', 'sprites/shot.gif', '-o', 'null'], dir).done;
        assert.equal(r.code, 0, r.err);
        assert.ok(
            lstatSync(dev).isCharacterDevice(),
            `null is still a character device, not ${lstatSync(dev).isFile() ? 'a regular file' : 'something else'}`
        );
        assert.deepEqual(leftovers(dir), []);
    } finally {
        rmSync(dev, { force: true });
    }
});

test('hitmask -o LINK-TO-/proc/self/fd/1 (what /dev/stdout is): the atlas goes to stdout, the summary to stderr; the link stays', async t => {
    if (!existsSync('/proc/self/fd/1')) return t.skip('no /proc/self/fd');
    // A private link: an unfixed CLI would replace /dev/stdout itself.
    symlinkSync('/proc/self/fd/1', join(dir, 'stdout'));
    try {
        // stdout is a socket here (Node's pipes to a child are), which open() cannot reopen by name.
        const r = await startCli(['build', 'sprites/shot.gif', '-o', 'stdout'], dir).done;
        assert.equal(r.code, 0, r.err);
        assert.ok(lstatSync(join(dir, 'stdout')).isSymbolicLink(), 'the link stays a link');
        assert.deepEqual(r.out, reference, 'stdout holds the atlas, nothing else');
        assert.match(r.err, /^stdout: 1 frames from 1 files, \d+ bits set, \d+ bytes written in /);
        assert.deepEqual(MaskAtlas.from(r.out).names, ['shot']);
        assert.deepEqual(leftovers(dir), []);
    } finally {
        rmSync(join(dir, 'stdout'));
    }
});

test('writeFileAtomic: a link to a regular file replaces the file and keeps the link; a new file is created; no signal handlers', async () => {
    const handlers = () => ['SIGINT', 'SIGTERM'].map(s => process.listenerCount(s));
    const before = handlers();
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'target.bin'), 'old');
    symlinkSync('target.bin', join(dir, 'lib', 'link.bin'));
    await writeFileAtomic(join(dir, 'lib', 'link.bin'), Uint8Array.of(1, 2, 3));
    await writeFileAtomic(join(dir, 'lib', 'new.bin'), Uint8Array.of(4));
    assert.ok(lstatSync(join(dir, 'lib', 'link.bin')).isSymbolicLink());
    assert.deepEqual([...readFileSync(join(dir, 'lib', 'target.bin'))], [1, 2, 3]);
    assert.deepEqual([...readFileSync(join(dir, 'lib', 'new.bin'))], [4]);
    assert.deepEqual(readdirSync(join(dir, 'lib')).sort(), ['link.bin', 'new.bin', 'target.bin']);
    assert.deepEqual(handlers(), before, 'a library write installs no signal handlers');
});

// Runs `code` (an ES module importing `hitmask/node` from the sources as NODE) in a child process with at most
// CPU_SECONDS of CPU time (a read that never ends then fails the test instead of hanging it); its stdout lines.
function probe(code: string): Promise<string[]> {
    const src = `const NODE = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'src', 'node.ts')).href)});\n${code}`;
    const argv = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', src];
    const child = spawn('sh', ['-c', `ulimit -t ${CPU_SECONDS} && exec "$@"`, 'sh', ...argv], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe']
    });
    let out = '',
        err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
        err += d;
    });
    return new Promise((resolve, reject) =>
        child.on('close', (code, signal) =>
            code === 0
                ? resolve(out.trim().split('\n'))
                : reject(new Error(`probe ended by ${signal ?? `exit code ${code}`}: ${out}${err}`))
        )
    );
}

test('readImage, readFrames: /dev/zero, an endless FIFO and a file over the budget are refused by the budget, memory stays small', async t => {
    const big = join(dir, 'big.png');
    writeFileSync(big, Buffer.alloc(3 * MIB));
    const fifo = join(dir, 'endless.png');
    const noFifo = tool('mkfifo', fifo);
    // The writer of the FIFO: zeros until its reader goes away.
    const writer = noFifo ? null : spawn('sh', ['-c', 'exec cat /dev/zero > "$1"', 'sh', fifo], { stdio: 'ignore' });
    const sources = ['/dev/zero', big, ...(noFifo ? [] : [fifo])];
    try {
        const lines = await probe(`
for (const [i, path] of ${JSON.stringify(sources)}.entries()) {
    try {
        await (i % 2 ? NODE.readFrames : NODE.readImage)(path, { maxBytes: ${MIB} });
        console.log('decoded ' + path);
    } catch (e) {
        console.log(e.constructor.name + ': ' + e.message.replace(/\\n/g, ' '));
    }
}
console.log(process.resourceUsage().maxRSS);
`);
        assert.equal(lines.length, sources.length + 1, lines.join('\n'));
        assert.match(
            lines[0],
            /^RangeError: Cannot read image "\/dev\/zero": it is a character device that gave more than the 1 MiB budget \(1048576 bytes\); raise maxBytes \(CLI: --max-mib\) if the file is trusted\.$/
        );
        assert.match(
            lines[1],
            /^RangeError: Cannot read image ".*big\.png": it is 3145728 bytes, more than the 1 MiB budget; raise maxBytes \(CLI: --max-mib\) if the file is trusted\.$/
        );
        if (!noFifo)
            assert.match(
                lines[2],
                /^RangeError: Cannot read image ".*endless\.png": it is a FIFO that gave more than the 1 MiB budget/
            );
        assert.ok(Number(lines.at(-1)) < MAX_RSS_KIB, `peak RSS ${lines.at(-1)} KiB`);
    } finally {
        writer?.kill();
        rmSync(big);
        rmSync(fifo, { force: true });
    }
    if (noFifo) t.diagnostic(`FIFO case skipped: ${noFifo}`);
});

test('hitmask build/inspect: a link to /dev/zero in a sprite folder, as a JSON or as a .hitmask is refused at once, memory stays small', async () => {
    mkdirSync(join(dir, 'zero'));
    copyFileSync(join(SPRITES, 'shot.gif'), join(dir, 'zero', 'shot.gif'));
    symlinkSync('/dev/zero', join(dir, 'zero', 'zero.png'));
    mkdirSync(join(dir, 'zjson'));
    copyFileSync(join(SPRITES, 'shot.gif'), join(dir, 'zjson', 'shot.gif'));
    symlinkSync('/dev/zero', join(dir, 'zjson', 'zero.json'));
    symlinkSync('/dev/zero', join(dir, 'zero.hitmask'));
    // A regular file over the budget is refused from its size, before it is read.
    mkdirSync(join(dir, 'huge'));
    writeFileSync(join(dir, 'huge', 'huge.png'), Buffer.alloc(2 * MIB));
    const cases: [string[], RegExp][] = [
        [
            ['build', 'zero', '--max-mib', '1', '-o', 'z.hitmask'],
            /^hitmask: Cannot read image ".*zero\/zero\.png": it is a character device, not a regular file; /
        ],
        [
            ['build', 'zero', '--max-mib', '1', '--workers', '2', '-o', 'z.hitmask'],
            /^hitmask: Cannot read image ".*zero\/zero\.png": it is a character device, not a regular file; /
        ],
        [
            ['build', 'zjson', '--max-mib', '1', '-o', 'z.hitmask'],
            /^hitmask: Cannot read atlas JSON ".*zjson\/zero\.json": it is a character device, not a regular file; /
        ],
        [
            ['build', '/dev/zero', '-o', 'z.hitmask'],
            /^hitmask: Input "\/dev\/zero" is a character device; expected a regular file, a folder or a glob\.$/m
        ],
        [
            ['inspect', 'zero.hitmask', '--max-mib', '1'],
            /^hitmask: Cannot read "zero\.hitmask": it is a character device, not a regular file; /
        ],
        [
            ['build', 'huge', '--max-mib', '1', '-o', 'z.hitmask'],
            /^hitmask: Cannot read image ".*huge\/huge\.png": it is 2097152 bytes, more than the 1 MiB budget; raise maxBytes \(CLI: --max-mib\) if the file is trusted\.$/m
        ]
    ];
    for (const [args, re] of cases) {
        const r = await startCli(args, dir, [REPORT_MAX_RSS], CPU_SECONDS).done;
        const what = args.join(' ');
        assert.equal(r.code, 2, `${what}: ${r.err}`);
        assert.match(r.err, re, what);
        assert.equal(r.err.trim().split('\n').length, 1, `${what}: one line: ${r.err}`);
        assert.ok(Number(r.fd3) < MAX_RSS_KIB, `${what}: peak RSS ${r.fd3.trim()} KiB`);
    }
    assert.ok(!existsSync(join(dir, 'z.hitmask')));
});

test('hitmask: SIGINT or SIGTERM during a write removes the temporary file, one line on stderr, exit 130 or 143', async () => {
    mkdirSync(join(dir, 'sig'));
    // 1000x1000 of noise: a 125 KB atlas.
    const png = new PNG({ width: 1000, height: 1000 });
    for (let i = 0, seed = 7; i < png.data.length; i++) png.data[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    writeFileSync(join(dir, 'sig', 'noise.png'), PNG.sync.write(png));
    writeFileSync(join(dir, 'sig', 'out.hitmask'), reference);
    for (const [signal, code] of [
        ['SIGINT', 130],
        ['SIGTERM', 143]
    ] as const) {
        const run = startCli(['build', 'sig/noise.png', '-o', 'sig/out.hitmask'], dir, [PAUSE_BEFORE_RENAME]);
        // The preload says so once the temporary file is written and flushing would start.
        assert.equal(await run.firstLine, 'in flight');
        assert.equal(leftovers(join(dir, 'sig')).length, 1, 'the temporary file exists while the write is in flight');
        run.child.kill(signal);
        const r = await run.done;
        assert.deepEqual([r.code, r.signal], [code, null], `${signal}: ${r.err}`);
        assert.match(
            r.err,
            new RegExp(
                `^hitmask: interrupted by ${signal}; removed 1 unfinished temporary file; "sig/out\\.hitmask" is unchanged\\.\\n$`
            )
        );
        assert.deepEqual(leftovers(join(dir, 'sig')), []);
        assert.deepEqual(readFileSync(join(dir, 'sig', 'out.hitmask')), reference);
    }
});
