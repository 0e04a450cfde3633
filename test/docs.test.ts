// @test slow
// The examples in README.md and the guides in docs/ run. Every ```ts block runs unless its first line is
// `// not run` (with the reason: a browser, an engine, a file the reader has). Imports of 'hitmask' and
// 'hitmask/…' are rewritten to the repository's sources, each block runs in its own `node --import tsx`
// from the repository root (so relative paths such as examples/sprites/alien1.png resolve), and a
// `console.log(…); // → text` line (or a `// → text` line of its own) must print `text`, in order; the same
// blocks type-check under strict settings. Also: the README stays a short read, every guide opens with an
// example, the README picture is up to date, and relative links point at files and headings that exist.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { overlapFigure } from '../scripts/overlap-figure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The documents this test owns: the README and the guides written against the 0.2 API. */
const DOCS = [
    'README.md',
    'docs/masks.md',
    'docs/world.md',
    'docs/raster.md',
    'docs/rays.md',
    'docs/shapes.md',
    'docs/pipeline.md',
    'docs/performance.md',
    'docs/internals.md',
    'docs/threads.md',
    'docs/limits.md',
    'docs/attacks.md',
    'docs/movement.md',
    'docs/rollback.md',
    'docs/server.md',
    'docs/tiled.md',
    'docs/terrain.md'
];
// Engine guides: their examples need a browser and the engine (test/phaser.test.ts and test/pixi.test.ts run
// and type-check theirs); here they get the structure and link checks.
const ENGINE_DOCS = ['docs/phaser.md', 'docs/pixi.md', 'docs/kaplay.md', 'docs/excalibur.md'];
/** Package entry points → the source files they are built from. */
const ENTRY: Record<string, string> = {
    hitmask: 'src/index.ts',
    'hitmask/node': 'src/node.ts',
    'hitmask/debug': 'src/debug.ts',
    'hitmask/shapes': 'src/shapes.ts',
    'hitmask/threads': 'src/threads.ts',
    'hitmask/phaser': 'src/phaser.ts',
    'hitmask/pixi': 'src/pixi.ts',
    'hitmask/tiled': 'src/tiled.ts',
    'hitmask/kaplay': 'src/kaplay.ts',
    'hitmask/excalibur': 'src/excalibur.ts'
};
const README_MAX_LINES = 250;

interface Block {
    doc: string;
    line: number;
    code: string;
}

/** The ```ts blocks of a Markdown file, with the line of their opening fence. */
function tsBlocks(doc: string): Block[] {
    const lines = readFileSync(join(ROOT, doc), 'utf8').split('\n');
    const blocks: Block[] = [];
    for (let i = 0; i < lines.length; i++) {
        if (lines[i].trim() !== '```ts') continue;
        const start = i;
        const body: string[] = [];
        for (i++; i < lines.length && lines[i].trim() !== '```'; i++) body.push(lines[i]);
        assert.ok(i < lines.length, `${doc}:${start + 1}: unclosed code block`);
        blocks.push({ doc, line: start + 1, code: body.join('\n') });
    }
    return blocks;
}

const runnable = (b: Block): boolean => !/^\s*\/\/ not run\b/.test(b.code);

/**
 * The block with its package imports pointed at the sources, as absolute file URLs (to run it from a temp
 * dir) or absolute paths (for the type checker).
 */
function rewrite(code: string, as: 'url' | 'path' = 'url'): string {
    return code.replace(
        /(\bfrom\s+|\bimport\s*\(\s*)(['"])(hitmask(?:\/[a-z]+)?)\2/g,
        (_all, lead: string, q: string, spec: string) => {
            const file = ENTRY[spec];
            assert.ok(file, `unknown entry point '${spec}'`);
            return `${lead}${q}${as === 'url' ? pathToFileURL(join(ROOT, file)).href : join(ROOT, file)}${q}`;
        }
    );
}

/** Expected output lines, in order: the text after `// → ` on a line that calls console.log, or on a comment line of its own. */
function expected(code: string): string[] {
    const out: string[] = [];
    for (const line of code.split('\n')) {
        const m = /console\.log\(.*\/\/ → (.*)$/.exec(line) ?? /^\s*\/\/ → (.*)$/.exec(line);
        if (m) out.push(m[1].trimEnd());
    }
    return out;
}

// The kill after 600 s only stops a hung example (each runs in well under a second): never a speed check.
function run(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise(done => {
        execFile(
            process.execPath,
            ['--import', 'tsx', file],
            { cwd: ROOT, timeout: 600_000, env: { ...process.env, NODE_NO_WARNINGS: '1' } },
            (err, stdout, stderr) =>
                done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr })
        );
    });
}

const tmp = mkdtempSync(join(tmpdir(), 'hitmask-docs-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('documentation examples run', { concurrency: Math.max(1, Math.min(8, availableParallelism())) }, () => {
    for (const doc of DOCS) {
        if (!existsSync(join(ROOT, doc))) continue; // reported by the structure test below
        for (const block of tsBlocks(doc).filter(runnable)) {
            test(`${doc}:${block.line}`, async () => {
                const file = join(tmp, `${doc.replace(/[/.]/g, '_')}_${block.line}.mts`); // .mts: an ES module (top-level await) outside the package
                writeFileSync(file, rewrite(block.code) + '\n');
                const r = await run(file);
                assert.equal(r.code, 0, `${doc}:${block.line} exited with ${r.code}\n${r.stderr.slice(-3000)}`);
                const want = expected(block.code);
                if (want.length === 0) return;
                // Each expected line in order among the printed lines (other output may come between).
                const got = r.stdout.split('\n').map(s => s.trimEnd());
                let at = 0;
                for (const w of want) {
                    const k = got.indexOf(w, at);
                    assert.ok(
                        k >= 0,
                        `${doc}:${block.line}: expected a line '${w}' (after line ${at}); printed:\n${r.stdout}`
                    );
                    at = k + 1;
                }
            });
        }
    }
});

test('runnable examples type-check under strict settings', () => {
    // Running catches most API drift; the type checker also catches calls that run but are typed wrong.
    const dir = mkdtempSync(join(tmp, 'types-'));
    const files: string[] = [];
    for (const doc of DOCS) {
        if (!existsSync(join(ROOT, doc))) continue;
        for (const block of tsBlocks(doc).filter(runnable)) {
            const file = join(dir, `${doc.replace(/[/.]/g, '_')}_${block.line}.mts`);
            writeFileSync(file, rewrite(block.code, 'path') + '\n');
            files.push(file);
        }
    }
    const program = ts.createProgram(files, {
        strict: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        noEmit: true,
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')]
    });
    // Only the examples' own errors: the sources are checked by `npm run typecheck`.
    const errors = ts
        .getPreEmitDiagnostics(program)
        .filter(d => d.file !== undefined && files.includes(resolve(d.file.fileName)))
        .map(d => {
            const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
            const [, doc, at] = /^(.*)_(\d+)\.mts$/.exec(d.file!.fileName.slice(dir.length + 1))!;
            return `${doc.replace(/_md$/, '.md').replace(/^docs_/, 'docs/')}:${Number(at) + 1 + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
        });
    assert.deepEqual(errors, []);
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
    const set = new Set<string>();
    let fence = false;
    for (const line of markdown.split('\n')) {
        if (line.startsWith('```')) fence = !fence;
        const m = !fence && /^#{1,6}\s+(.*)$/.exec(line);
        if (m)
            set.add(
                m[1]
                    .trim()
                    .toLowerCase()
                    .replace(/[^\p{L}\p{N} _-]/gu, '')
                    .replace(/ /g, '-')
            );
    }
    return set;
}

test('README is a short read and every guide opens with an example', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
    assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines, expected at most ${README_MAX_LINES}`);
    for (const doc of [...DOCS.slice(1), ...ENGINE_DOCS]) {
        assert.ok(existsSync(join(ROOT, doc)), `${doc} is missing`);
        const lines = readFileSync(join(ROOT, doc), 'utf8').split('\n');
        assert.match(lines[0], /^# \S/, `${doc} starts with a '# ' title`);
        const next = lines.slice(1).find(l => l.trim() !== '');
        assert.equal(next, '```ts', `${doc}: the first thing after the title is a \`\`\`ts example`);
    }
});

test('docs/overlap.svg, the README picture, is what scripts/overlap-figure.ts draws from the library now', () => {
    assert.equal(
        readFileSync(join(ROOT, 'docs/overlap.svg'), 'utf8'),
        overlapFigure(),
        'run: node --import tsx scripts/overlap-figure.ts'
    );
});

test('relative links in the README and guides point at existing files and headings', () => {
    const broken = new Set<string>();
    for (const doc of [...DOCS, ...ENGINE_DOCS, 'CHANGELOG.md']) {
        if (!existsSync(join(ROOT, doc))) continue;
        const text = readFileSync(join(ROOT, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
        for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
            const target = m[1];
            if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
            const [path, hash] = target.split('#');
            const file = path === '' ? join(ROOT, doc) : resolve(dirname(join(ROOT, doc)), path);
            if (!existsSync(file)) {
                broken.add(`${doc}: ${target} (no such file)`);
                continue;
            }
            if (hash && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(hash))
                broken.add(`${doc}: ${target} (no such heading)`);
        }
    }
    assert.deepEqual([...broken], []);
});
