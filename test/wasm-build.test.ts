// @test fast
// The WebAssembly build (scripts/build-wasm.ts; src/kernels/README.md): each .wat part of the kernels module is
// a module that wabt reads and validates on its own, its declarations of what other parts define are what makes
// it valid, the build merges every part, and what it merges is the module src/kernels/module.ts ships.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import wabtInit from 'wabt';
import { assemble, FEATURES, moduleText, PARTS, partFields, readPart } from '../scripts/build-wasm.js';
import { crc32 } from '../src/base/crc32.js';
import { FULL_WASM_CRC, FULL_WASM_LENGTH } from '../src/kernels/module.js';

const wabt = await wabtInit();
const WAT = readdirSync(new URL('../src/kernels/', import.meta.url)).filter(f => f.endsWith('.wat'));

// What wabt says of a module's text: null when it parses and validates, else its error.
function wabtError(name: string, text: string): string | null {
    let mod: ReturnType<typeof wabt.parseWat> | null = null;
    try {
        mod = wabt.parseWat(name, text, FEATURES);
        // wabt's validate takes the features too (its typings omit them); without them it rejects a shared memory.
        (mod as unknown as { validate(features: typeof FEATURES): void }).validate(FEATURES);
        return null;
    } catch (e) {
        return (e as Error).message;
    } finally {
        mod?.destroy();
    }
}

test('wasm build: every .wat file in src/kernels/ is a part the build merges, the memory and shift loops first', () => {
    assert.ok(WAT.length >= 6, `expected the kernels' .wat parts, got ${WAT.join(', ')}`);
    assert.deepEqual([...PARTS].sort(), [...WAT].sort());
    assert.equal(PARTS[0], 'wasm-kernels.wat');
});

test('wasm build: each .wat part is a module that wabt reads and validates on its own', () => {
    for (const f of WAT) assert.equal(wabtError(f, readPart(f)), null, `${f} alone`);
});

test('wasm build: a part without its @uses declarations does not validate (they are what the check reads)', () => {
    const withUses = WAT.filter(f => /^\s*;; @uses\b/m.test(readPart(f)));
    assert.deepEqual(withUses.sort(), WAT.filter(f => f !== 'wasm-kernels.wat').sort());
    for (const f of withUses) assert.notEqual(wabtError(f, `(module${partFields(f, readPart(f))})`), null, f);
});

test('wasm build: the module merged from the parts is the one src/kernels/module.ts ships', () => {
    const { text, templates } = moduleText();
    assert.deepEqual(templates, ['$scanBoth', '$areaBoth', '$andBoth', '$rowsBoth']);
    // 31 copies of each constant-shift loop, and the table lists all of them
    for (const t of templates) {
        assert.equal(text.split(`(func ${t}`).length - 1, 31, t);
        assert.match(text, new RegExp(`\\${t}1 \\${t}2 [\\s\\S]*? \\${t}31\\b`));
    }
    const bytes = assemble('kernels module', text);
    assert.equal(bytes.length, FULL_WASM_LENGTH, 'src/kernels/module.ts is stale: npm run build:wasm');
    assert.equal(crc32(bytes, 0, bytes.length) >>> 0, FULL_WASM_CRC, 'src/kernels/module.ts is stale');
});
