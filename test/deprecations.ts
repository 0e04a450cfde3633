// Helpers for the tests of the 0.3 names kept as deprecated aliases: what console.warn said during a call, and
// that a deprecated name warns exactly once per process however often it is used.
import assert from 'node:assert/strict';
import { deprecationsWarned } from '../src/base/deprecate.js'; // internal: the names warned about so far

/** Runs `fn` with console.warn captured; returns fn's result and the messages. */
export function captureWarnings<T>(fn: () => T): { result: T; warnings: string[] } {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    try {
        return { result: fn(), warnings };
    } finally {
        console.warn = warn;
    }
}

/**
 * Calls `fn` three times and checks that the deprecated `name` warned once in this process, naming `replacement`
 * (during these calls when it had not warned before, else not again); returns fn's last result.
 */
export function warnsOnce<T>(name: string, replacement: string, fn: () => T): T {
    const before = deprecationsWarned().includes(name);
    const { result, warnings } = captureWarnings(() => (fn(), fn(), fn()));
    const mine = warnings.filter(w => w.includes(` ${name} is deprecated`));
    assert.equal(mine.length, before ? 0 : 1, `${name}: ${warnings.join(' | ')}`);
    if (!before)
        assert.equal(
            mine[0],
            `hitmask: ${name} is deprecated and will be removed in 0.5.0; use ${replacement} instead.`
        );
    assert.ok(deprecationsWarned().includes(name), `${name} is listed as warned`);
    return result;
}
