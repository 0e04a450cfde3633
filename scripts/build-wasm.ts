// Assembles the kernels module from src/kernels/wasm-kernels.wat and its parts (PARTS, concatenated in that order,
// wrapped in one `(module …)`) with wabt (npm) into src/kernels/module.ts (generated, gitignored): the
// module importing a shared memory (Node, cross-origin-isolated pages), and where the plain-memory
// variant differs from it: one byte, the memory import's limits flag, patched at load. Shipping one
// binary instead of two halves the bytes the package adds to a bundle; shipping each constant-shift
// function once instead of 31 times shrinks it again.
// Run: npm run build:wasm (also the first step of build, typecheck and test).
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { transformSync } from 'esbuild';
import wabtInit from 'wabt';
import { crc32 } from '../src/base/crc32.js';

const SHARED = '(memory (import "env" "memory") 1 65536 shared)';
// Same limits, not shared: the plain memory is created with a maximum no larger than this one.
const PLAIN = '(memory (import "env" "memory") 1 65536)';

const root = new URL('../src/kernels/', import.meta.url);
// The module's fields in a fixed order: memory, strip scheme and constant-shift loops first, then the kernels by concern.
const PARTS = ['wasm-kernels.wat', 'wasm-pairs.wat', 'wasm-batch.wat', 'wasm-raster.wat', 'wasm-rgba.wat'];
const wat = expand(`(module\n${PARTS.map(f => readFileSync(new URL(f, root), 'utf8')).join('\n')})\n`);
if (!wat.includes(SHARED)) throw new Error(`wasm-kernels.wat must declare ${SHARED}`);
const wabt = await wabtInit();

// Expands each `;; @each` … `;; @end` block once per shift 1..31 ({SH} the shift, {LS} 32 − it), and
// `{EACH $name}` into `$name1 … $name31` (the table of those functions).
function expand(text: string): string {
    const shifts = Array.from({ length: 31 }, (_, i) => i + 1);
    return text
        .replace(/;; @each\n([\s\S]*?);; @end\n/g, (_, body: string) =>
            shifts.map(sh => body.replaceAll('{SH}', String(sh)).replaceAll('{LS}', String(32 - sh))).join('')
        )
        .replace(/\{EACH (\$\w+)\}/g, (_, name: string) => shifts.map(sh => name + sh).join(' '));
}

function assemble(text: string, threads: boolean): Uint8Array {
    const mod = wabt.parseWat('wasm-kernels.wat', text, { simd: true, threads });
    try {
        // wabt's own validator rejects shared memories whatever the features say; V8 validates below.
        const bytes = mod.toBinary({}).buffer;
        new WebAssembly.Module(new Uint8Array(bytes)); // a copy typed over a plain ArrayBuffer
        return bytes;
    } finally {
        mod.destroy();
    }
}

const shared = assemble(wat, true),
    plain = assemble(wat.replace(SHARED, PLAIN), false);
const diff = [...shared.keys()].filter(i => shared[i] !== plain[i]);
if (shared.length !== plain.length || diff.length !== 1)
    throw new Error(
        `the plain variant should differ from the shared one in one byte, not ${diff.length} (lengths ${shared.length}, ${plain.length})`
    );

// The 31 copies of each constant-shift function are byte for byte the same but for their shift immediates
// (1..31 and 32 − that, one LEB128 byte each). They ship once, with the positions of those bytes, and
// src/kernels/memory.ts writes the 124 functions back at load: the shipped binary is about a fifth the size.
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
const TEMPLATES = ['$scanBoth', '$areaBoth', '$andBoth', '$rowsBoth'];
// Defined functions in module order: the first copy's index is the count of functions declared before it.
const first = (wat.slice(0, wat.indexOf(`(func ${TEMPLATES[0]}1 `)).match(/^\s*\(func\s/gm) ?? []).length;
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
const n = TEMPLATES.length,
    copies = 31;
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
            `${TEMPLATES[t]}: copies 1 and 2 differ in more than their shifts: ${at.map(i => `${i}:${one[i]}/${two[i]}`).join(' ')} (lengths ${one.length}, ${two.length})`
        );
    for (let sh = 1; sh <= copies; sh++) {
        const body = bodies[first + (sh - 1) * n + t],
            want = one.slice();
        for (const i of shAt[t]) want[i] = sh;
        for (const i of lsAt[t]) want[i] = 32 - sh;
        if (body.length !== want.length || body.some((v, i) => v !== want[i]))
            throw new Error(`${TEMPLATES[t]}${sh} is not copy 1 with its shifts replaced`);
    }
}
const cat = (...parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((s, x) => s + x.length, 0));
    let o = 0;
    for (const x of parts) {
        out.set(x, o);
        o += x.length;
    }
    return out;
};
const head = shared.subarray(0, codeAt),
    before = cat(...bodies.slice(0, first)),
    after = cat(...bodies.slice(first + n * copies)),
    tail = shared.subarray(codeEnd);
const blob = cat(head, before, ...tpl, after, tail);
const layout = [head.length, before.length, ...tpl.map(x => x.length), after.length, tail.length, count];
// The blob ships as a string of one char per byte, XORed with a key: esbuild prints most chars below 0x80
// as themselves (control chars too; a few as escapes) and the rest as \xNN, and gzip then finds the repeats
// of the binary. Base64 hides them (3 bytes in 4 chars, a repeat only matches at the same alignment): the
// minified `import { Mask }` bundle gzips about 7% smaller so than with base64. The key decides which bytes
// land on the chars printed as one byte: all 256 are tried, and the one whose string, as esbuild minifies
// it by default (ASCII output), gzips smallest is kept (about a quarter smaller than base64).
const literal = (bytes: Uint8Array) => {
    let s = "'";
    for (const b of bytes)
        s +=
            b < 0x20 || b >= 0x7f || b === 0x27 || b === 0x5c
                ? `\\x${b.toString(16).padStart(2, '0')}`
                : String.fromCharCode(b);
    return s + "'";
};
const printed = (key: number) =>
    transformSync(`W=${literal(blob.map(b => b ^ key))}`, { minify: true, charset: 'ascii' }).code;
let key = 0,
    best = Infinity;
for (let k = 0; k < 256; k++) {
    const gz = gzipSync(printed(k), { level: 9 }).length;
    if (gz < best) {
        best = gz;
        key = k;
    }
}
writeFileSync(
    new URL('module.ts', root),
    [
        '// GENERATED by scripts/build-wasm.ts from src/kernels/wasm-kernels.wat; do not edit (npm run build:wasm).',
        `/** The kernels module importing a shared memory (${shared.length} bytes) with its ${n} × ${copies} constant-shift functions shipped once each (${blob.length} bytes): one char per byte, XORed with WASM_KEY. */`,
        `export const WASM = ${literal(blob.map(b => b ^ key))}, WASM_KEY = ${key};`,
        '/** Byte lengths in WASM: head (sections before code), bodies before the copies, one body per template, bodies after, tail; then the function count. */',
        `export const LAYOUT = ${JSON.stringify(layout)};`,
        '/** Per template, the body offsets of its shift immediate and of 32 minus it. */',
        `export const SH_AT = ${JSON.stringify(shAt)}, LS_AT = ${JSON.stringify(lsAt)};`,
        '/** The plain-memory variant is the module with byte PLAIN_AT set to PLAIN_FLAG (the memory limits flag). */',
        `export const PLAIN_AT = ${diff[0]}, PLAIN_FLAG = ${plain[diff[0]]};`,
        '/** Length and CRC-32 of the full module, to check the expansion against (tests). */',
        `export const FULL_WASM_LENGTH = ${shared.length}, FULL_WASM_CRC = ${crc32(shared, 0, shared.length) >>> 0};`,
        ''
    ].join('\n')
);
console.log(
    `src/kernels/module.ts: ${shared.length} bytes of WebAssembly shipped as ${blob.length} (the plain variant patches byte ${diff[0]}; key ${key}, ${best} bytes gzipped as esbuild prints it)`
);
