// @test slow
// The README's quick start, run as a new user runs it: the package packed as `npm pack` packs it, then the README's
// own commands (the fenced blocks after its `<!-- quick-start: NAME -->` markers, read from README.md, not copied)
// in an empty folder beside it, then `node main.js` with the README's code, then the TypeScript commands. Also: the
// packed manifest has no install-time scripts (installing the tarball prints no npm warning at all), and the
// engines' own declarations need exactly the settings docs/phaser.md and docs/pixi.md name.
// Runtime dependencies come from npm's cache when it has them (prefer-offline); `npm test` builds dist/ first.
// HITMASK_TSC=/path/to/tsc also type-checks the engine projects with that compiler (another TypeScript major).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const { version: VERSION } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
// The README's one command this test cannot run as written (it names no repository): its stand-in is the
// `npm pack` in before(), writing the same file, hitmask/hitmask-VERSION.tgz, beside the project folder.
const CLONE = /^git clone <this repository> hitmask && \(cd hitmask && npm ci && npm pack\)\s+#.*$/;

let tmp = '';
let tarball = '';

// npm run exports npm_* variables (npm_config_*, lifecycle state): the child npm must not inherit them. Our own
// settings: the cache first (frugal with the registry), no audit or funding requests.
function env(): NodeJS.ProcessEnv {
    const out: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) out[k] = v;
    return {
        ...out,
        npm_config_prefer_offline: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false'
    };
}

function sh(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
    return spawnSync(cmd, args, { cwd, encoding: 'utf8', env: env(), maxBuffer: 64 << 20 });
}

function ok(r: SpawnSyncReturns<string>, what: string): string {
    assert.equal(r.error, undefined, `${what}: ${String(r.error)}`);
    assert.equal(r.status, 0, `${what} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
}

function write(path: string, text: string): void {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
}

/** The fenced block right after `<!-- quick-start: NAME -->` in README.md, and its language. */
function block(name: string): { lang: string; code: string } {
    const marker = `<!-- quick-start: ${name} -->\n`;
    const at = README.indexOf(marker);
    assert.ok(at >= 0, `README.md has no ${marker.trim()} marker`);
    assert.equal(README.indexOf(marker, at + 1), -1, `README.md has two ${marker.trim()} markers`);
    const m = /^```(\w+)\n([\s\S]*?)^```$/m.exec(README.slice(at + marker.length));
    assert.ok(m && m.index === 0, `README.md: a fenced block right after ${marker.trim()}`);
    return { lang: m[1], code: m[2] };
}

/** A shell block's commands: one per line, without `# …` comments. */
function commands(code: string): string[] {
    return code
        .split('\n')
        .map(l => l.replace(/\s+#.*$/, '').trim())
        .filter(l => l !== '');
}

/** Runs shell commands as one `bash -e` script in `cwd`; returns stdout and stderr together. */
function bash(lines: string[], cwd: string, what: string): string {
    const r = spawnSync('bash', ['-e', '-c', lines.join('\n')], {
        cwd,
        encoding: 'utf8',
        env: env(),
        maxBuffer: 64 << 20
    });
    assert.equal(r.error, undefined, `${what}: ${String(r.error)}`);
    assert.equal(r.status, 0, `${what} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
    return r.stdout + r.stderr;
}

/** What the README says its code prints: the `// →` texts, in order. */
function expected(code: string): string[] {
    const out: string[] = [];
    for (const line of code.split('\n')) {
        const m = /\/\/ → (.*)$/.exec(line);
        if (m) out.push(m[1].trimEnd());
    }
    return out;
}

const lines = (text: string): string[] => text.trimEnd().split('\n');

before(() => {
    if (!existsSync(join(ROOT, 'dist', 'node', 'cli.js')))
        ok(sh(process.execPath, [TSC, '-p', 'tsconfig.build.json'], ROOT), 'building dist');
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'hitmask-quickstart-')));
    mkdirSync(join(tmp, 'hitmask'));
    // --ignore-scripts: dist/ is already built; prepack would rebuild it while other test files use it.
    const out = ok(
        sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', join(tmp, 'hitmask')], ROOT),
        'npm pack'
    );
    tarball = join(tmp, 'hitmask', (JSON.parse(out) as { filename: string }[])[0].filename);
});

after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test('quick start: the README commands make a project in an empty folder; installing prints no warning', () => {
    const { lang, code } = block('setup');
    assert.equal(lang, 'sh');
    const [clone, ...rest] = commands(code);
    assert.match(code.split('\n')[0], CLONE, 'the first command packs hitmask in a clone');
    assert.ok(clone.startsWith('git clone'));
    const file = `hitmask-${VERSION}.tgz`;
    assert.ok(
        rest.some(c => c.includes(`../hitmask/${file}`)),
        `the README installs the tarball npm pack writes for this version, ${file}`
    );
    assert.equal(tarball, join(tmp, 'hitmask', file), 'npm pack wrote it');
    const output = bash(rest, tmp, 'the quick-start commands');
    const app = join(tmp, 'my-game');
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as {
        type?: string;
        dependencies?: Record<string, string>;
    };
    assert.equal(manifest.type, 'module', 'an ES module project');
    assert.ok(manifest.dependencies?.hitmask?.endsWith(file), 'hitmask is a dependency, from the tarball');
    // No `npm warn` of any kind: install scripts not covered by allowScripts (a packed `prepare`), EBADENGINE, …
    assert.deepEqual(
        lines(output).filter(l => /\bnpm (warn|WARN|error|ERR)\b/.test(l)),
        [],
        `npm printed warnings:\n${output}`
    );
});

test('quick start: the packed manifest has no install-time scripts; the build runs before packing', () => {
    const installed = join(tmp, 'my-game', 'node_modules', 'hitmask', 'package.json');
    assert.ok(existsSync(installed), 'the quick-start test installed the tarball');
    const packed = JSON.parse(readFileSync(installed, 'utf8')) as { scripts?: Record<string, string> };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
        assert.equal(packed.scripts?.[hook], undefined, `the packed package.json has no ${hook} script`);
    assert.match(packed.scripts?.prepack ?? '', /\bnpm run build\b/, 'npm pack and npm publish build dist/ first');
});

test("quick start: main.js, the README's code as written, prints what its // → comments say", () => {
    const { lang, code } = block('main');
    assert.equal(lang, 'ts', 'the README shows it as TypeScript (docs.test.ts runs and type-checks it too)');
    const app = join(tmp, 'my-game');
    assert.ok(existsSync(join(app, 'node_modules', 'hitmask')), 'the quick-start test installed hitmask');
    writeFileSync(join(app, 'main.js'), code);
    const want = expected(code);
    assert.ok(want.length >= 5);
    assert.deepEqual(lines(ok(sh(process.execPath, ['main.js'], app), 'node main.js')), want);
});

test('quick start: the TypeScript commands check main.ts in a strict project and run it', () => {
    const { lang, code } = block('typescript');
    assert.equal(lang, 'sh');
    const app = join(tmp, 'my-game');
    assert.ok(existsSync(join(app, 'main.js')), 'the main.js test wrote main.js');
    // The one substitution: TypeScript and tsx come from this repository's node_modules (no download), so the
    // compiler is the repository's (see HITMASK_TSC for another one).
    const install = 'npm install -D typescript tsx';
    const cmds = commands(code);
    assert.ok(cmds[0].startsWith(`${install} && `), `the first command installs TypeScript and tsx: ${cmds[0]}`);
    cmds[0] = cmds[0].replace(
        install,
        `npm install -D ${join(ROOT, 'node_modules', 'typescript')} ${join(ROOT, 'node_modules', 'tsx')}`
    );
    const output = bash(cmds, app, 'the TypeScript commands');
    const config = readFileSync(join(app, 'tsconfig.json'), 'utf8');
    assert.match(config, /^\s*"strict": true/m, 'tsc --init writes a strict tsconfig.json');
    // Past npm's and tsc --init's own lines: tsc --noEmit prints nothing when it passes, tsx what node printed.
    const chatter = /^(added|changed|up to date)\b|^Created a new tsconfig\.json$|^You can learn more at |^$/;
    assert.deepEqual(
        lines(output).filter(l => !chatter.test(l)),
        expected(block('main').code),
        `tsc found errors, or tsx printed something else:\n${output}`
    );
});

// A strict browser project (bundler resolution, as a bundled game has) importing an engine and its adapter.
const GAME = {
    phaser: `import Phaser from 'phaser';
import { overlaps, registerHitmaskLoader } from 'hitmask/phaser';

registerHitmaskLoader(Phaser);
class Play extends Phaser.Scene {
    create(): void {
        const ship = this.add.sprite(0, 0, 'ship'), rock = this.add.sprite(8, 4, 'rock');
        console.log(overlaps(ship, rock));
    }
}
new Phaser.Game({ width: 320, height: 240, scene: Play });
`,
    pixi: `import { Sprite, Texture } from 'pixi.js';
import { overlaps } from 'hitmask/pixi';

const ship = new Sprite(Texture.WHITE), rock = new Sprite(Texture.WHITE);
console.log(overlaps(ship, rock));
`
} as const;

/** A project with the engine from this repository's node_modules (a link, no network) and the tarball. */
function engineProject(dir: string, name: 'phaser' | 'pixi.js', source: string): string {
    const app = join(tmp, dir);
    write(
        join(app, 'package.json'),
        JSON.stringify(
            { name: dir, private: true, type: 'module', dependencies: { [name]: `file:${source}` } },
            null,
            4
        )
    );
    ok(sh('npm', ['install', tarball, '--ignore-scripts', '--loglevel=error'], app), `npm install in ${dir}`);
    write(join(app, 'src', 'main.ts'), GAME[name === 'phaser' ? 'phaser' : 'pixi']);
    return app;
}

/** tsc on the project with these compiler options; the error lines, each `file(line,col): error TSnnnn: …`. */
function typecheck(tsc: string, app: string, options: Record<string, unknown>): string[] {
    const compilerOptions = {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        strict: true,
        noEmit: true,
        ...options
    };
    write(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['src/main.ts'] }, null, 4));
    const r = spawnSync(tsc === TSC ? process.execPath : tsc, tsc === TSC ? [TSC, '-p', '.'] : ['-p', '.'], {
        cwd: app,
        encoding: 'utf8'
    });
    assert.equal(r.error, undefined, String(r.error));
    const errors = r.stdout.split('\n').filter(l => /error TS\d+/.test(l));
    assert.equal(r.status === 0, errors.length === 0, `tsc exited ${r.status}:\n${r.stdout}${r.stderr}`);
    return errors;
}

// Without a lib list the default libs include ScriptHost, and skipLibCheck off passes (test/pack.test.ts).
test('Phaser 3: a project that lists lib needs "ScriptHost" in it, as docs/phaser.md says', () => {
    const app = engineProject('engine-phaser3', 'phaser', join(ROOT, 'node_modules', 'phaser3'));
    const listed = typecheck(TSC, app, { lib: ['ES2022', 'DOM'] });
    assert.equal(listed.length, 1, listed.join('\n'));
    assert.match(listed[0], /node_modules\/phaser3?\/types\/phaser\.d\.ts\(\d+,\d+\): error TS2304: .*'ActiveXObject'/);
    assert.deepEqual(typecheck(TSC, app, { lib: ['ES2022', 'DOM', 'ScriptHost'] }), []);
    const doc = readFileSync(join(ROOT, 'docs', 'phaser.md'), 'utf8');
    assert.ok(doc.includes('"lib": ["ES2022", "DOM", "ScriptHost"]'), 'docs/phaser.md gives the lib list');
    assert.ok(doc.includes("'ActiveXObject'"), 'docs/phaser.md names the error');
});

// What the guides say each TypeScript major needs with each engine's own declarations, skipLibCheck off.
const NEEDS_SKIP: Record<string, string[]> = {
    '5': ['phaser 4'],
    '7': ['phaser 4', 'pixi.js 7']
};

test('HITMASK_TSC: the engines need skipLibCheck: true exactly where the guides say, for that TypeScript', t => {
    const tsc = process.env.HITMASK_TSC;
    if (!tsc) {
        t.skip('set HITMASK_TSC to a tsc binary (e.g. of the TypeScript `npm install -D typescript` installs now)');
        return;
    }
    const version = /Version (\d+)\.\d+/.exec(spawnSync(tsc, ['--version'], { encoding: 'utf8' }).stdout);
    assert.ok(version, `${tsc} --version`);
    const major = version[1];
    assert.ok(NEEDS_SKIP[major], `docs/phaser.md and docs/pixi.md say nothing about TypeScript ${major}`);
    const needs: string[] = [];
    for (const [dir, name, major] of [
        ['phaser3', 'phaser', '3'],
        ['phaser', 'phaser', '4'],
        ['pixi7', 'pixi.js', '7'],
        ['pixi.js', 'pixi.js', '8']
    ] as const) {
        const app = engineProject(`engine-tsc-${dir}`, name, join(ROOT, 'node_modules', dir));
        const errors = typecheck(tsc, app, {});
        if (errors.length > 0) needs.push(`${name} ${major}`);
        for (const l of errors)
            assert.match(l, new RegExp(`node_modules/(${dir.replace('.', '\\.')}|@pixi)/`), `not ${name}'s own:\n${l}`);
        assert.deepEqual(typecheck(tsc, app, { skipLibCheck: true }), [], `${name} ${major}, skipLibCheck: true`);
    }
    t.diagnostic(`TypeScript ${version[0]}: skipLibCheck: true needed by ${needs.join(', ') || 'none'}`);
    assert.deepEqual(needs, NEEDS_SKIP[major]);
});
