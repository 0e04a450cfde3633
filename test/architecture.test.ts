// The house keeps its shape: the import graph of src/ (type imports included) has no circle, every import
// between parts is one that docs/architecture.md's map allows, the root holds only entry points, and no
// source file grows past 600 lines. The map is read from the doc, so the doc and the code cannot drift apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const MAX_LINES = 600,
    MAX_ROOT_FILES = 10;

function walk(dir: string): string[] {
    return readdirSync(dir).flatMap(f => {
        const p = join(dir, f);
        return statSync(p).isDirectory() ? walk(p) : [p];
    });
}

// Every file of src/ by its path below src/, and what each imports (static, re-exports, dynamic; type-only too).
const files = walk(SRC).map(p => relative(SRC, p).replaceAll('\\', '/'));
const sources = files.filter(f => /\.ts$/.test(f));
const IMPORT =
    /(?:\bimport|\bexport)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
    const text = readFileSync(join(SRC, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
    const out: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
        const spec = m[1] ?? m[2];
        if (!spec.startsWith('.')) continue;
        out.push(
            relative(SRC, resolve(SRC, dirname(file), spec))
                .replaceAll('\\', '/')
                .replace(/\.js$/, '.ts')
        );
    }
    return out;
}
const graph = new Map(sources.map(f => [f, importsOf(f)]));
const partOf = (f: string): string => (f.includes('/') ? f.slice(0, f.indexOf('/')) : '');

/** Strongly connected components with more than one file, or one file importing itself (Tarjan). */
function circles(g: Map<string, string[]>): string[][] {
    let next = 0;
    const index = new Map<string, number>(),
        low = new Map<string, number>(),
        stack: string[] = [],
        on = new Set<string>(),
        out: string[][] = [];
    const visit = (v: string): void => {
        index.set(v, next);
        low.set(v, next);
        next++;
        stack.push(v);
        on.add(v);
        for (const w of g.get(v) ?? []) {
            if (!g.has(w)) continue;
            if (!index.has(w)) {
                visit(w);
                low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
            } else if (on.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
        }
        if (low.get(v) === index.get(v)) {
            const c: string[] = [];
            let w: string;
            do {
                w = stack.pop() as string;
                on.delete(w);
                c.push(w);
            } while (w !== v);
            if (c.length > 1 || (g.get(v) ?? []).includes(v)) out.push(c.sort());
        }
    };
    for (const v of g.keys()) if (!index.has(v)) visit(v);
    return out;
}

// The map's table: | `folder/` | what it owns | `a/`, `b/` or — |
function readMap(): Map<string, Set<string>> {
    const map = new Map<string, Set<string>>();
    for (const line of readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8').split('\n')) {
        const cells = line.split('|').map(c => c.trim());
        const m = /^`([a-z-]+)\/`$/.exec(cells[1] ?? '');
        if (!m || cells.length < 5) continue;
        map.set(m[1], new Set([...cells[3].matchAll(/`([a-z-]+)\/`/g)].map(x => x[1])));
    }
    return map;
}

test('architecture: no import circle anywhere in src/ (type imports included)', () => {
    assert.ok(sources.length > 50, `read ${sources.length} source files`);
    assert.ok([...graph.values()].reduce((n, e) => n + e.length, 0) > 150, 'imports were read');
    assert.deepEqual(circles(graph), []);
    // The checker itself finds a circle when there is one.
    assert.deepEqual(
        circles(
            new Map([
                ['a', ['b']],
                ['b', ['c']],
                ['c', ['a']],
                ['d', ['a']]
            ])
        ),
        [['a', 'b', 'c']]
    );
});

test('architecture: every import between parts is one docs/architecture.md allows, and every part is on the map', () => {
    const map = readMap();
    assert.ok(map.size >= 10, `the map lists ${map.size} parts`);
    const parts = new Set(sources.map(partOf).filter(p => p !== ''));
    for (const p of parts) assert.ok(map.has(p), `src/${p}/ is on the map in docs/architecture.md`);
    for (const p of map.keys()) assert.ok(parts.has(p), `docs/architecture.md maps ${p}/, which exists in src/`);
    const wrong: string[] = [];
    for (const [file, deps] of graph) {
        const from = partOf(file);
        for (const dep of deps) {
            const to = partOf(dep);
            if (to === '' && from !== '') wrong.push(`${file} imports the entry point ${dep}`);
            if (from === '' || to === '' || to === from) continue;
            if (!(map.get(from) as Set<string>).has(to))
                wrong.push(`${file} → ${dep} (${from}/ may not import ${to}/)`);
        }
    }
    assert.deepEqual(wrong, []);
});

test('architecture: the root holds only entry points (re-exports), at most 10 files', () => {
    const root = files.filter(f => !f.includes('/'));
    assert.ok(root.length <= MAX_ROOT_FILES, `src/ has ${root.length} files at its root: ${root.join(', ')}`);
    for (const f of root) {
        const code = readFileSync(join(SRC, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
        const statements = code
            .split(';')
            .map(s => s.trim())
            .filter(s => s !== '');
        for (const s of statements)
            assert.match(
                s,
                /^export\s+(type\s+)?(\*|\{[^}]*\})\s+from\s+'[^']+'$/,
                `src/${f} only re-exports: ${s.slice(0, 80)}`
            );
    }
});

test('architecture: no source file over 600 lines, and masks are checked in one place', () => {
    const long = files
        .filter(f => /\.(ts|wat)$/.test(f))
        .map(f => [f, readFileSync(join(SRC, f), 'utf8').split('\n').length] as const)
        .filter(([, n]) => n > MAX_LINES)
        .map(([f, n]) => `${f}: ${n} lines`);
    assert.deepEqual(long, []);
    // The brand check of core/mask.ts is the only mask check (instanceof is slow in hot code and lies across realms).
    const instance = sources.filter(f =>
        /instanceof Mask\b/.test(readFileSync(join(SRC, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ''))
    );
    assert.deepEqual(instance, []);
});

test('architecture: no two source files share a name (a name says its part where a concept repeats)', () => {
    const byName = new Map<string, string[]>();
    for (const f of files.filter(f => /\.(ts|wat)$/.test(f))) {
        const name = f.slice(f.lastIndexOf('/') + 1).replace(/\.(ts|wat)$/, '');
        byName.set(name, [...(byName.get(name) ?? []), f]);
    }
    const shared = [...byName.values()].filter(fs => fs.length > 1).map(fs => fs.join(' = '));
    // Generated files are not sources: the WebAssembly module the build writes is named for its job alone.
    assert.deepEqual(
        shared.filter(s => !s.includes('kernels/module.ts')),
        []
    );
});

// A `_` member (an internal field or method of a class) is read in the part of the class that declares it, and
// elsewhere only in the parts a contract interface names: the interface declares the members, so the kernels read
// a Mask's words knowing no Mask. Every contract is listed here; docs/architecture.md states the rule.
interface Contract {
    /** The interface, declared in `file` (below src/). */
    name: string;
    file: string;
    /** The `_` members it declares, and the parts that may read them. */
    members: string[];
    parts: string[];
}
const CONTRACTS: Contract[] = [
    // What a kernel reads of a mask; Mask (core/mask.ts) meets it.
    {
        name: 'MaskWords',
        file: 'kernels/mask-words.ts',
        members: ['_words', '_ptr', '_touch'],
        parts: ['kernels', 'core']
    },
    // PixiJS 7's Texture, whose corners only its `_uvs` holds.
    { name: 'Texture7', file: 'engines/pixi7.ts', members: ['_uvs'], parts: ['engines'] }
];

// Code without its comments, line by line (lines keep their numbers): whole-line comments, block comment lines
// and a `//` after a space go; prettier writes every comment so.
function codeLines(text: string): string[] {
    return text.split('\n').map(l => (/^\s*(\/\/|\/\*|\*)/.test(l) ? '' : l.replace(/\s\/\/.*$/, '')));
}

const DECLARATION = /^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?(class|interface)\s+(\w+)/;
const MODIFIER = '(?:(?:public|private|protected|static|readonly|declare|override|abstract|get|set|async)\\s+)*';
const MEMBER = new RegExp(`^\\s+${MODIFIER}(_[a-zA-Z]\\w*)\\s*[?!]?\\s*[(:=;<]`);

// The `_` members each class and each interface of a file declares (prettier's layout: a declaration opens at
// column 0 and closes with a `}` there).
function declared(text: string): { classes: Set<string>; interfaces: Map<string, Set<string>> } {
    const classes = new Set<string>(),
        interfaces = new Map<string, Set<string>>();
    let open: Set<string> | null = null;
    for (const line of codeLines(text)) {
        const d = DECLARATION.exec(line);
        if (d) {
            open = d[1] === 'class' ? classes : new Set<string>();
            if (d[1] === 'interface') interfaces.set(d[2], open);
        } else if (/^}/.test(line)) open = null;
        const m = open && MEMBER.exec(line);
        if (m) (open as Set<string>).add(m[1]);
    }
    return { classes, interfaces };
}

/** Every read of a `_` member (`._name`) outside the parts that may read it, as `file:line ._name`. */
function strayReads(texts: Map<string, string>, contracts: Contract[]): string[] {
    // The parts whose classes declare each member, and the parts each contract opens it to.
    const may = new Map<string, Set<string>>();
    const allow = (member: string, part: string): void => {
        may.set(member, (may.get(member) ?? new Set()).add(part));
    };
    for (const [file, text] of texts) for (const m of declared(text).classes) allow(m, partOf(file));
    for (const c of contracts) for (const m of c.members) for (const p of c.parts) allow(m, p);
    const out: string[] = [];
    for (const [file, text] of texts)
        codeLines(text).forEach((line, i) => {
            for (const [, m] of line.matchAll(/\.(_[a-zA-Z]\w*)/g))
                if (!may.get(m)?.has(partOf(file))) out.push(`${file}:${i + 1} ._${m.slice(1)}`);
        });
    return out;
}

test('architecture: a `_` member of a class is read only in its own part or through a declared contract', () => {
    const texts = new Map(sources.map(f => [f, readFileSync(join(SRC, f), 'utf8')]));
    // Each contract is an interface that declares the members it lists.
    for (const c of CONTRACTS) {
        const members = declared(texts.get(c.file) ?? '').interfaces.get(c.name);
        assert.ok(members, `src/${c.file} declares interface ${c.name}`);
        for (const m of c.members) assert.ok(members.has(m), `${c.name} declares ${m}`);
    }
    assert.deepEqual(strayReads(texts, CONTRACTS), []);
    // The scan finds the reads it must: without MaskWords, the kernels' reads of Mask's fields are stray.
    const kernels = strayReads(
        texts,
        CONTRACTS.filter(c => c.name !== 'MaskWords')
    );
    assert.ok(kernels.length > 20, `${kernels.length} reads of Mask's fields in kernels/`);
    assert.ok(kernels.every(r => r.startsWith('kernels/')));
    // And on a sample: a class's own part, a contract's part, a stray read, a field nobody declares.
    const sample = new Map([
        ['core/a.ts', 'export class A {\n    _x = 1;\n    get _y(): number {\n        return this._x;\n    }\n}\n'],
        ['kernels/c.ts', 'export interface C {\n    readonly _y: number;\n}\nconst f = (c: C) => c._y;\n'],
        ['rays/r.ts', '// a._x in a comment\nconst g = (a: A) => a._x + a._y; // and a._y\nconst h = (o: O) => o._z;\n']
    ]);
    const c = { name: 'C', file: 'kernels/c.ts', members: ['_y'], parts: ['kernels'] };
    assert.deepEqual([...(declared(sample.get('kernels/c.ts') as string).interfaces.get('C') ?? [])], ['_y']);
    assert.deepEqual(strayReads(sample, [c]), ['rays/r.ts:2 ._x', 'rays/r.ts:2 ._y', 'rays/r.ts:3 ._z']);
    assert.deepEqual(strayReads(sample, [{ ...c, parts: ['kernels', 'rays'] }]), [
        'rays/r.ts:2 ._x',
        'rays/r.ts:3 ._z'
    ]);
});

// Strings and template literals of a TypeScript source (comments skipped), and its code outside them: a small
// scanner, enough for this code base (a `/` after an operator or a bracket opens a regular expression).
function scan(text: string): { strings: string[]; code: string } {
    const strings: string[] = [];
    let code = '';
    // Each entry: the brace depth at which a template's `${` was opened.
    const templates: number[] = [];
    let depth = 0,
        i = 0;
    const template = (): void => {
        // From just after a backquote or a `}` closing `${`: to the closing backquote or the next `${`.
        let s = '';
        while (i < text.length) {
            const c = text[i];
            if (c === '\\') {
                s += text.slice(i, i + 2);
                i += 2;
            } else if (c === '`') {
                i++;
                break;
            } else if (c === '$' && text[i + 1] === '{') {
                i += 2;
                templates.push(depth++);
                break;
            } else s += text[i++];
        }
        strings.push(s);
    };
    while (i < text.length) {
        const c = text[i];
        if (c === '/' && text[i + 1] === '/') while (i < text.length && text[i] !== '\n') i++;
        else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) + 2 || text.length;
        else if (c === "'" || c === '"') {
            let s = '';
            for (i++; i < text.length && text[i] !== c; i++) s += text[i] === '\\' ? text[i] + text[++i] : text[i];
            i++;
            strings.push(s);
        } else if (c === '`') {
            i++;
            template();
        } else if (c === '{') {
            depth++;
            code += text[i++];
        } else if (c === '}') {
            depth--;
            if (templates.length > 0 && templates[templates.length - 1] === depth) {
                templates.pop();
                i++;
                template();
            } else code += text[i++];
        } else if (c === '/' && /[(,=:[!&|?{};]\s*$/.test(code.slice(-40)) && !/\breturn\s*$/.test(code)) {
            // A regular expression: skipped to its closing slash (outside a class).
            let cls = false;
            for (i++; i < text.length && (text[i] !== '/' || cls); i++) {
                if (text[i] === '\\') i++;
                else if (text[i] === '[') cls = true;
                else if (text[i] === ']') cls = false;
            }
            i++;
        } else code += text[i++];
    }
    return { strings, code };
}

// A check message ("x must be …, got …") is built only in base/ (mustBe, typeError, rangeError, …), and only
// base/ constructs a RangeError or TypeError: every argument error goes through base/'s builders, so its
// message keeps one shape and its class follows one rule. Corrupt data (Error) stays with its reader.
const CHECK_MESSAGE = /\bmust (be|have|contain|hold|return|implement)\b/;
const ARGUMENT_ERROR = /\bnew (RangeError|TypeError)\s*\(/;

function checkMessagesOutsideBase(file: string, text: string): string[] {
    const { strings, code } = scan(text);
    return [
        ...strings.filter(s => CHECK_MESSAGE.test(s)).map(s => `${file}: a check message: ${s.slice(0, 70)}`),
        ...(ARGUMENT_ERROR.test(code) ? [`${file}: ${ARGUMENT_ERROR.exec(code)?.[0]} (use base/check.ts)`] : [])
    ];
}

test('architecture: every argument check message is built in base/, and only base/ makes Range- and TypeErrors', () => {
    const wrong = sources
        .filter(f => !f.startsWith('base/'))
        .flatMap(f => checkMessagesOutsideBase(f, readFileSync(join(SRC, f), 'utf8')));
    assert.deepEqual(wrong, []);
    // The scanner finds both in strings and code, and not in comments or regular expressions.
    const sample = [
        '// x must be a number: a comment',
        '/* new RangeError( in a comment */',
        'const re = /must be/;',
        "const a = f('ok', 'fine');",
        'if (bad) throw new TypeError(`${name} must be a finite number, got ${describe(v)}.`);',
        "const b = { k: `${'nested'} text` }; const c = 'y must have a box';"
    ].join('\n');
    assert.deepEqual(checkMessagesOutsideBase('sample.ts', sample), [
        'sample.ts: a check message:  must be a finite number, got ',
        'sample.ts: a check message: y must have a box',
        'sample.ts: new TypeError( (use base/check.ts)'
    ]);
    const { strings } = scan(sample);
    assert.ok(strings.includes('nested') && strings.includes(' text'), 'template literals nest');
});

test('architecture: at most 1 % of source lines are over 120 columns (what the formatter cannot break: strings)', () => {
    const lines = files
        .filter(f => /\.(ts|wat)$/.test(f) && f !== 'kernels/module.ts')
        .flatMap(f => readFileSync(join(SRC, f), 'utf8').split('\n'));
    const long = lines.filter(l => l.length > 120).length;
    assert.ok(lines.length > 15000, `read ${lines.length} lines`);
    assert.ok(long <= lines.length / 100, `${long} of ${lines.length} source lines are over 120 columns`);
});
