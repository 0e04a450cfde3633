// Builds the kernels module from the .wat parts in src/kernels/ with wabt (npm) into src/kernels/module.ts
// (generated, gitignored). src/kernels/README.md explains the whole; each step's reason is here.
//
// 1. Merge. Each part is a `(module …)` that wabt reads and validates on its own (test/wasm-build.test.ts):
//    what it uses from another part is declared between `;; @uses` and `;; @end`, and dropped here. The
//    fields of the parts, in PARTS order, make one `(module …)`: the order fixes every function's index.
// 2. Expand. The `;; @each` … `;; @end` block of wasm-kernels.wat is the copy for shift 1 of the
//    constant-shift loops; it is written once per shift 1..31 (`1 (;SH;)` → the shift, `31 (;LS;)` → 32 − it,
//    `$name1` → `$name2` …), and `$name1 (;@each;)` becomes `$name1 … $name31`.
// 3. Assemble twice, importing a shared memory (Node, cross-origin-isolated pages) and a plain one: they
//    must differ in one byte, the memory import's limits flag, which the loader patches. Shipping one
//    binary instead of two halves the bytes the package adds to a bundle.
// 4. Ship each constant-shift function once instead of 31 times, with the offsets of its shift bytes:
//    src/kernels/memory.ts writes the copies back at load. This shrinks the bytes shipped about 7 times.
// 5. Encode the bytes as a string of one char per byte, XORed with the key that gzips smallest (below).
// Run: npm run build:wasm (also the first step of build, typecheck and test).
import { readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { transformSync } from 'esbuild';
import wabtInit from 'wabt';
import { crc32 } from '../src/base/crc32.js';

const SHARED = '(memory (import "env" "memory") 1 65536 shared)';
// Same limits, not shared: the plain memory is created with a maximum no larger than this one.
const PLAIN = '(memory (import "env" "memory") 1 65536)';
/** What the kernels use beyond WebAssembly 1.0: wabt needs them named to read and validate the text. */
export const FEATURES = { simd: true, threads: true, multi_value: true, bulk_memory: true };

const root = new URL('../src/kernels/', import.meta.url);
/** The parts in module order: memory, strip scheme and constant-shift loops first, then the kernels by concern. */
export const PARTS = [
    'wasm-kernels.wat',
    'wasm-pairs.wat',
    'wasm-combine.wat',
    'wasm-batch.wat',
    'wasm-raster.wat',
    'wasm-rgba.wat'
];
const SHIFTS = Array.from({ length: 31 }, (_, i) => i + 1);
const wabt = await wabtInit();

/** A part's text (src/kernels/NAME). */
export function readPart(name: string): string {
    return readFileSync(new URL(name, root), 'utf8');
}

// A line comment marker: `;; @word` at a line's start, with whatever follows on that line.
const marker = (word: string) => `^[ \\t]*;; @${word}\\b[^\\n]*\\n`;
const USES = new RegExp(`${marker('uses')}([\\s\\S]*?)${marker('end')}`, 'gm'),
    EACH = new RegExp(`${marker('each')}([\\s\\S]*?)${marker('end')}`, 'gm');

/** A part's fields: the text inside its `(module …)`, without its @uses block. */
export function partFields(name: string, text: string): string {
    const open = text.search(/^\(module\b/m),
        close = text.lastIndexOf(')');
    // The closing parenthesis ends the file and is not in a comment.
    if (
        open < 0 ||
        text.slice(close + 1).trim() !== '' ||
        text.slice(text.lastIndexOf('\n', close), close).includes(';;')
    )
        throw new Error(`${name}: expected comments, then one (module …) that ends the file`);
    return text.slice(open + '(module'.length, close).replace(USES, '');
}

/**
 * Checks that each function or table a part's @uses block imports from another part ("wasm-pairs",
 * "overlaps") is defined there under the same name, and each type it declares is the same as defined in
 * the module: a declaration that drifted from its definition fails here, not later in a reader's head.
 */
function checkUses(name: string, text: string, merged: string): void {
    const flat = (s: string) => s.replace(/;;[^\n]*/g, '').replace(/\s+/g, ' ');
    for (const [, block] of text.matchAll(USES)) {
        for (const [, kind, id, from, field] of block.matchAll(
            /\((func|table) \$(\w+) \(import "([\w-]+)" "(\w+)"\)/g
        )) {
            const part = `${from}.wat`;
            if (id !== field || !PARTS.includes(part))
                throw new Error(
                    `${name}: $${id} must be imported as "${from}" "${id}" from a part, got "${from}" "${field}"`
                );
            if (!new RegExp(`\\(${kind} \\$${id}[\\s)]`).test(partFields(part, readPart(part))))
                throw new Error(`${name}: ${part} defines no ${kind} $${id}`);
        }
        for (const [type] of block.matchAll(/\(type \$\w+ \(func[^\n]*/g))
            if (!flat(merged).includes(flat(type)))
                throw new Error(`${name}: ${type.trim()} is not the type the module defines under that name`);
    }
}

/**
 * The text with its @each block (the copy for shift 1) written for shifts 1..31 and the table's lists of their
 * names, and the names of the block's functions ("templates": `$scanBoth` for $scanBoth1 … $scanBoth31).
 */
export function expand(text: string): { text: string; templates: string[] } {
    const templates: string[] = [];
    const out = text
        .replace(EACH, (_, body: string) => {
            const names = [...body.matchAll(/\(func (\$\w+)1\s/g)].map(m => m[1]);
            templates.push(...names);
            for (const [at, want] of [
                ['SH', '1'],
                ['LS', '31']
            ])
                for (const [, got] of body.matchAll(new RegExp(`(\\d+) \\(;${at};\\)`, 'g')))
                    if (got !== want)
                        throw new Error(`the @each block is the copy for shift 1: ${got} (;${at};) should be ${want}`);
            return SHIFTS.map(sh => {
                let copy = body.replace(/\d+ \(;SH;\)/g, String(sh)).replace(/\d+ \(;LS;\)/g, String(32 - sh));
                for (const n of names) copy = copy.replace(new RegExp(`\\${n}1(?=\\s)`, 'g'), n + sh);
                return copy;
            }).join('');
        })
        .replace(/(\$\w+)1 \(;@each;\)/g, (_, name: string) => SHIFTS.map(sh => name + sh).join(' '));
    return { text: out, templates };
}

/** The one module's text: the parts' fields in PARTS order, in one `(module …)`, the @each block expanded. */
export function moduleText(): { text: string; templates: string[] } {
    const wat = readdirSync(root).filter(f => f.endsWith('.wat'));
    const missing = wat.filter(f => !PARTS.includes(f)).concat(PARTS.filter(f => !wat.includes(f)));
    if (missing.length > 0)
        throw new Error(
            `PARTS in scripts/build-wasm.ts and the .wat files in src/kernels/ differ: ${missing.join(', ')}`
        );
    const texts = PARTS.map(readPart);
    const merged = `(module${texts.map((t, i) => partFields(PARTS[i], t)).join('\n')})\n`;
    PARTS.forEach((f, i) => checkUses(f, texts[i], merged));
    if (merged.split(SHARED).length !== 2)
        throw new Error(`wasm-kernels.wat, and no other part, must declare ${SHARED}`);
    return expand(merged);
}

/** The binary of a module's text, validated by wabt and by V8 (a throw says why not). */
export function assemble(name: string, text: string): Uint8Array {
    const mod = wabt.parseWat(name, text, FEATURES);
    try {
        // wabt's validate takes the features too (its typings omit them); without them it rejects the shared memory.
        (mod as unknown as { validate(features: typeof FEATURES): void }).validate(FEATURES);
        const bytes = mod.toBinary({}).buffer;
        new WebAssembly.Module(new Uint8Array(bytes)); // a copy typed over a plain ArrayBuffer
        return bytes;
    } finally {
        mod.destroy();
    }
}

function build(): void {
    // Each part alone first: a part that only reads inside the merged module fails here, by name.
    for (const f of PARTS) assemble(f, readPart(f));
    const { text, templates } = moduleText();
    const shared = assemble('kernels module (shared memory)', text),
        plain = assemble('kernels module (plain memory)', text.replace(SHARED, PLAIN));
    const diff = [...shared.keys()].filter(i => shared[i] !== plain[i]);
    if (shared.length !== plain.length || diff.length !== 1)
        throw new Error(
            `the plain variant should differ from the shared one in one byte, not ${diff.length} ` +
                `(lengths ${shared.length}, ${plain.length})`
        );
    // Defined functions in module order: the first copy's index is the count of functions declared before it.
    const first = (text.slice(0, text.indexOf(`(func ${templates[0]}1 `)).match(/^\s*\(func\s/gm) ?? []).length;
    const { blob, layout, shAt, lsAt } = shipOnce(shared, templates, first);
    const { key, gzipped } = bestKey(blob);
    writeFileSync(
        new URL('module.ts', root),
        [
            '// GENERATED by scripts/build-wasm.ts from src/kernels/*.wat; do not edit (npm run build:wasm).',
            `/** The kernels module importing a shared memory (${shared.length} bytes) with its ` +
                `${templates.length} × ${SHIFTS.length} constant-shift functions shipped once each ` +
                `(${blob.length} bytes): one char per byte, XORed with WASM_KEY. */`,
            `export const WASM = ${literal(blob.map(b => b ^ key))}, WASM_KEY = ${key};`,
            '/** Byte lengths in WASM: head (sections before code), bodies before the copies, one body per template, ' +
                'bodies after, tail; then the function count. */',
            `export const LAYOUT = ${JSON.stringify(layout)};`,
            '/** Per template, the body offsets of its shift immediate and of 32 minus it. */',
            `export const SH_AT = ${JSON.stringify(shAt)}, LS_AT = ${JSON.stringify(lsAt)};`,
            '/** The plain-memory variant is the module with byte PLAIN_AT set to PLAIN_FLAG ' +
                '(the memory limits flag). */',
            `export const PLAIN_AT = ${diff[0]}, PLAIN_FLAG = ${plain[diff[0]]};`,
            '/** Length and CRC-32 of the full module, to check the expansion against (tests). */',
            `export const FULL_WASM_LENGTH = ${shared.length}, ` +
                `FULL_WASM_CRC = ${crc32(shared, 0, shared.length) >>> 0};`,
            ''
        ].join('\n')
    );
    console.log(
        `src/kernels/module.ts: ${shared.length} bytes of WebAssembly shipped as ${blob.length} (the plain variant ` +
            `patches byte ${diff[0]}; key ${key}, ${gzipped} bytes gzipped as esbuild prints it)`
    );
}

// Unsigned LEB128 at p: the value and the position after it.
function leb(bytes: Uint8Array, p: number): [number, number] {
    let v = 0,
        shift = 0,
        b: number;
    do {
        b = bytes[p++];
        v |= (b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    return [v >>> 0, p];
}

function cat(...parts: Uint8Array[]): Uint8Array {
    const out = new Uint8Array(parts.reduce((s, x) => s + x.length, 0));
    let o = 0;
    for (const x of parts) {
        out.set(x, o);
        o += x.length;
    }
    return out;
}

/**
 * The module with each constant-shift function once. The 31 copies of each are byte for byte the same but
 * for their shift immediates (1..31 and 32 − that, one LEB128 byte each). They ship once, with the positions
 * of those bytes, and src/kernels/memory.ts writes the functions back at load: the shipped binary is about
 * a seventh the size. `first` is the index of the first copy among the defined functions.
 */
function shipOnce(
    shared: Uint8Array,
    templates: string[],
    first: number
): { blob: Uint8Array; layout: number[]; shAt: number[][]; lsAt: number[][] } {
    let p = 8,
        codeAt = -1,
        codeEnd = -1;
    while (p < shared.length) {
        const id = shared[p],
            [size, q] = leb(shared, p + 1);
        if (id === 10) {
            codeAt = p;
            codeEnd = q + size;
        }
        p = q + size;
    }
    const [count, q0] = leb(shared, leb(shared, codeAt + 1)[1]);
    const bodies: Uint8Array[] = [];
    let q = q0;
    for (let i = 0; i < count; i++) {
        const [size, r] = leb(shared, q);
        bodies.push(shared.subarray(q, r + size));
        q = r + size;
    }
    const n = templates.length,
        copies = SHIFTS.length;
    const tpl = bodies.slice(first, first + n),
        shAt: number[][] = [],
        lsAt: number[][] = [];
    for (let t = 0; t < n; t++) {
        const one = bodies[first + t],
            two = bodies[first + n + t];
        const at = [...one.keys()].filter(i => one[i] !== two[i]);
        shAt.push(at.filter(i => one[i] === 1 && two[i] === 2));
        lsAt.push(at.filter(i => one[i] === 31 && two[i] === 30));
        if (shAt[t].length + lsAt[t].length !== at.length || shAt[t].length === 0)
            throw new Error(
                `${templates[t]}: copies 1 and 2 differ in more than their shifts: ` +
                    `${at.map(i => `${i}:${one[i]}/${two[i]}`).join(' ')} (lengths ${one.length}, ${two.length})`
            );
        for (let sh = 1; sh <= copies; sh++) {
            const body = bodies[first + (sh - 1) * n + t],
                want = one.slice();
            for (const i of shAt[t]) want[i] = sh;
            for (const i of lsAt[t]) want[i] = 32 - sh;
            if (body.length !== want.length || body.some((v, i) => v !== want[i]))
                throw new Error(`${templates[t]}${sh} is not copy 1 with its shifts replaced`);
        }
    }
    const head = shared.subarray(0, codeAt),
        before = cat(...bodies.slice(0, first)),
        after = cat(...bodies.slice(first + n * copies)),
        tail = shared.subarray(codeEnd);
    return {
        blob: cat(head, before, ...tpl, after, tail),
        layout: [head.length, before.length, ...tpl.map(x => x.length), after.length, tail.length, count],
        shAt,
        lsAt
    };
}

// The blob ships as a string of one char per byte, XORed with a key: esbuild prints most chars below 0x80
// as themselves (control chars too; a few as escapes) and the rest as \xNN, and gzip then finds the repeats
// of the binary. Base64 hides them (3 bytes in 4 chars, a repeat only matches at the same alignment): the
// minified `import { Mask }` bundle gzips about 7% smaller so than with base64. The key decides which bytes
// land on the chars printed as one byte: all 256 are tried, and the one whose string, as esbuild minifies
// it by default (ASCII output), gzips smallest is kept (about a quarter smaller than base64).
function literal(bytes: Uint8Array): string {
    let s = "'";
    for (const b of bytes)
        s +=
            b < 0x20 || b >= 0x7f || b === 0x27 || b === 0x5c
                ? `\\x${b.toString(16).padStart(2, '0')}`
                : String.fromCharCode(b);
    return s + "'";
}

function bestKey(blob: Uint8Array): { key: number; gzipped: number } {
    const printed = (key: number) =>
        transformSync(`W=${literal(blob.map(b => b ^ key))}`, { minify: true, charset: 'ascii' }).code;
    let key = 0,
        gzipped = Infinity;
    for (let k = 0; k < 256; k++) {
        const gz = gzipSync(printed(k), { level: 9 }).length;
        if (gz < gzipped) {
            gzipped = gz;
            key = k;
        }
    }
    return { key, gzipped };
}

// The build runs when this file is run as a script (Node loads it from its real path, so symlinks are
// resolved before comparing); test/wasm-build.test.ts imports the functions above.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) build();
