// The project's commands: a few npm scripts, one `npm run bench -- NAME` and one `npm run example -- NAME` that
// list their names when given none and refuse an unknown one, every `npm run …` that README.md, docs/ and the
// scripts' own headers name is one that exists, and the test runner's tag lines (scripts/test-tags.ts) are
// read as documented, in every test file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseTags, readTags } from '../scripts/test-tags.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const scripts = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> })
    .scripts;

function tsx(file: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
    const r = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], { cwd: ROOT, encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// The names a dispatcher lists: the first word of each indented line of its listing.
function listed(listing: string): string[] {
    return [...listing.matchAll(/^ {2}(\S+) {2}/gm)].map(m => m[1]);
}

test('package.json: at most 15 scripts, one per job (no bench:* or example:* names)', () => {
    const names = Object.keys(scripts);
    assert.ok(names.length <= 15, `${names.length} scripts: ${names.join(', ')}`);
    assert.deepEqual(
        names.filter(n => /^(bench|example):/.test(n)),
        [],
        'benchmarks and examples are names of `npm run bench -- NAME` and `npm run example -- NAME`'
    );
    for (const n of ['start', 'test', 'bench', 'example']) assert.ok(n in scripts, `the script ${n} exists`);
});

test('npm run bench: lists every bench/*.bench.ts without a name, refuses an unknown name with exit code 2', () => {
    const files = readdirSync(`${ROOT}bench`)
        .filter(f => f.endsWith('.bench.ts'))
        .map(f => f.replace(/\.bench\.ts$/, ''))
        .sort();
    const list = tsx('bench/run-bench.ts');
    assert.equal(list.status, 0, list.stderr);
    assert.deepEqual(listed(list.stdout), files);
    const unknown = tsx('bench/run-bench.ts', 'no-such-bench');
    assert.equal(unknown.status, 2);
    assert.equal(unknown.stdout, '');
    assert.match(unknown.stderr, /no benchmark named "no-such-bench"; expected one of build, build-real, /);
});

test('npm run example: lists the terminal, browser and server examples without a name, refuses an unknown one', () => {
    const list = tsx('examples/run-example.ts');
    assert.equal(list.status, 0, list.stderr);
    const names = listed(list.stdout);
    for (const n of [
        'overlap',
        'phaser',
        'phaser3',
        'pixi',
        'pixi7',
        'matter',
        'phaser-move',
        'pixi-move',
        'kaplay',
        'excalibur',
        'server'
    ])
        assert.ok(names.includes(n), `${n} in the listing:\n${list.stdout}`);
    const unknown = tsx('examples/run-example.ts', 'no-such-example');
    assert.equal(unknown.status, 2);
    assert.equal(unknown.stdout, '');
    assert.match(unknown.stderr, /no example named "no-such-example"; expected one of overlap, /);
});

test('every `npm run NAME [-- NAME]` in README.md, docs/ and the bench, example, demo and script files exists', () => {
    const benches = listed(tsx('bench/run-bench.ts').stdout),
        examples = listed(tsx('examples/run-example.ts').stdout);
    const files = [
        'README.md',
        ...readdirSync(`${ROOT}docs`)
            .filter(f => f.endsWith('.md'))
            .map(f => `docs/${f}`),
        ...['bench', 'examples', 'demo', 'scripts', 'src'].flatMap(dir =>
            (readdirSync(`${ROOT}${dir}`, { recursive: true }) as string[])
                .filter(f => f.endsWith('.ts') && !f.includes('dist/'))
                .map(f => `${dir}/${f}`)
        )
    ];
    const wrong: string[] = [];
    let seen = 0;
    for (const file of files)
        for (const m of readFileSync(`${ROOT}${file}`, 'utf8').matchAll(/npm run ([\w:-]+)(?: -- ([a-z][\w-]*))?/g)) {
            seen++;
            const [all, script, name] = m;
            if (!(script in scripts)) wrong.push(`${file}: ${all} (no such script)`);
            else if (name !== undefined && script === 'bench' && !benches.includes(name))
                wrong.push(`${file}: ${all} (no such benchmark)`);
            else if (name !== undefined && script === 'example' && !examples.includes(name))
                wrong.push(`${file}: ${all} (no such example)`);
        }
    assert.ok(seen > 50, `only ${seen} mentions of npm run found`);
    assert.deepEqual(wrong, []);
});

test('test tags: read from line 1 only, unknown, repeated and misplaced tags are errors', () => {
    assert.deepEqual([...parseTags('// @test fast no-shared\n// header\n', 'a')], ['fast', 'no-shared']);
    assert.deepEqual([...parseTags('// @test\nimport x;\n', 'a')], []);
    assert.deepEqual([...parseTags('// a header that never tags\n', 'a')], []);
    assert.throws(() => parseTags('// @test fast quick\n', 'test/a.test.ts'), {
        message: /^test\/a\.test\.ts: unknown test tag "quick" on line 1; expected some of fast, no-shared, /
    });
    assert.throws(() => parseTags('// @test slow slow\n', 'a'), {
        message: 'a: test tag "slow" given twice on line 1'
    });
    assert.throws(() => parseTags('// header\n// @test fast\n', 'a'), {
        message: 'a: a test tag line must be line 1, got one on line 2: // @test fast'
    });
    assert.throws(() => parseTags('// @tests fast\n', 'a'), { message: /^a: line 1 is not a tag line/ });
});

test('test tags: every test file has a valid tag line or none, and no file of the fast set drives a browser', () => {
    const dir = new URL('./', import.meta.url);
    const tags = readdirSync(dir)
        .filter(f => f.endsWith('.test.ts'))
        .map(f => ({ f, tags: readTags(new URL(f, dir), `test/${f}`) }));
    assert.ok(tags.some(t => t.tags.has('fast')));
    // The fast set runs without build or Chromium: no file in it may need a browser.
    assert.deepEqual(
        tags.filter(t => t.tags.has('fast') && t.tags.has('browser')).map(t => t.f),
        []
    );
});
