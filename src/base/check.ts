// Argument checks used at API boundaries only, never inside hot loops, and the builders of every argument
// error: a check message ("<name> must be <what>, got <value>.") is written here and nowhere else (the
// architecture test enforces it). Type checks are in check-types.ts, rings and polygons in check-shapes.ts.
import { MAX_COORD } from './limits.js';

/** Largest width or height accepted for a mask (2^30), so `x + dx` stays exact in int32 arithmetic. */
export const MAX_SIDE = 2 ** 30;

/** Largest number of 32-bit words one mask may hold (2^28 words = 1 GiB, about 8.6 gigapixels). */
export const MAX_WORDS = 2 ** 28;

// ---- messages and errors ------------------------------------------------------------------------

/**
 * `<name> must <rule>, got <got><note>.`: the one shape of an argument check's message (`rule`: "have …"),
 * `got` written by the caller: `describe(value)`, or several values, or a count.
 */
export function must(name: string, rule: string, got: string, note = ''): string {
    return `${name} must ${rule}, got ${got}${note}.`;
}

/** `<name> must be <expected>, got <value><note>.`, the value {@link describe}d. */
export function mustBe(name: string, expected: string, got: unknown, note = ''): string {
    return must(name, `be ${expected}`, describe(got), note);
}

// typeError, rangeError and the checks below write their message out, not through mustBe, and take no note (a
// message with a note: wrongType(mustBe(…)) or outOfRange(mustBe(…))): gzip finds the repeated text cheaper
// than the calls, and every byte counts in `import { Mask }` (12 KB at most, test/bundle.test.ts).

/** A TypeError (a value of the wrong type) saying what `name` must be and what it got. */
export function typeError(name: string, expected: string, got: unknown): TypeError {
    return new TypeError(`${name} must be ${expected}, got ${describe(got)}.`);
}

/** A RangeError (a bad number or size) saying what `name` must be and what it got. */
export function rangeError(name: string, expected: string, got: unknown): RangeError {
    return new RangeError(`${name} must be ${expected}, got ${describe(got)}.`);
}

/**
 * A TypeError with a message of its own, for a misuse no generic check covers (a layer where a body is
 * needed); the message says what was got and what was expected.
 */
export function wrongType(message: string, cause?: unknown): TypeError {
    return new TypeError(message, cause === undefined ? undefined : { cause });
}

/**
 * A RangeError with a message of its own, for a value past a limit or a budget (the message names the limit
 * and what to do), or a bad value no generic check covers.
 */
export function outOfRange(message: string, cause?: unknown): RangeError {
    return new RangeError(message, cause === undefined ? undefined : { cause });
}

// ---- numbers ------------------------------------------------------------------------------------

/** Throws unless `value` is an integer in 0..MAX_SIDE. */
export function checkSize(name: string, value: unknown): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_SIDE) {
        throw new RangeError(`${name} must be an integer in 0..${MAX_SIDE}, got ${describe(value)}.`);
    }
    return value;
}

/**
 * Throws a RangeError unless `value` is a finite number (anything else included); returns it. `unit` follows
 * "a finite number" in the message: " of radians", " (pixels)".
 */
export function checkFinite(name: string, value: unknown, unit = ''): number {
    // x - x is 0 exactly for finite numbers: one test rejects NaN, ±Infinity and non-numbers.
    if (typeof value !== 'number' || value - value !== 0) throw rangeError(name, `a finite number${unit}`, value);
    return value;
}

/**
 * Throws a TypeError unless `value` is a number, a RangeError unless it is finite; returns it. The strict
 * form of {@link checkFinite}, where a string or an object is told apart from NaN.
 */
export function checkNumber(name: string, value: unknown, unit = ''): number {
    if (typeof value !== 'number') throw typeError(name, `a number${unit}`, value);
    if (!Number.isFinite(value)) throw rangeError(name, `a finite number${unit}`, value);
    return value;
}

/** Throws unless `value` is a finite number; returns it floored. */
export function checkCoord(name: string, value: unknown): number {
    if (typeof value !== 'number' || value - value !== 0)
        throw new RangeError(`${name} must be a finite number, got ${describe(value)}.`);
    return Math.floor(value);
}

/** Throws unless `value` is a finite number > 0 (`expected` words it, e.g. "a finite number > 0 (pixels)"). */
export function checkPositive(name: string, value: unknown, expected = 'a positive finite number', note = ''): number {
    if (typeof value !== 'number' || !(value > 0) || value === Infinity)
        throw outOfRange(mustBe(name, expected, value, note));
    return value;
}

/** Throws unless `value` is a finite number >= 0 (`expected` words it, e.g. "a finite number >= 0 (pixels)"). */
export function checkNonNegative(name: string, value: unknown, expected = 'a finite number >= 0'): number {
    if (typeof value !== 'number' || !(value >= 0) || value === Infinity) throw rangeError(name, expected, value);
    return value;
}

/** Throws unless `value` is an integer in min..max. */
export function checkInt(name: string, value: unknown, min: number, max: number): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
        throw new RangeError(`${name} must be an integer in ${min}..${max}, got ${describe(value)}.`);
    }
    return value;
}

/** Throws unless `value` is an integer number of pixels in 0..max. */
export function checkPixels(name: string, value: unknown, max: number): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
        throw rangeError(name, `an integer in 0..${max} (pixels)`, value);
    }
    return value;
}

/** Throws unless `value` is an integer >= `min` (or Infinity when `infinite`). */
export function checkMinInt(name: string, value: unknown, min: number, infinite = false): number {
    const ok =
        typeof value === 'number' && value >= min && (Number.isInteger(value) || (infinite && value === Infinity));
    if (!ok) throw rangeError(name, `an integer >= ${min}${infinite ? ' or Infinity' : ''}`, value);
    return value;
}

/** Short printable form of a bad argument for error messages. */
export function describe(value: unknown): string {
    if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
    if (
        typeof value === 'number' ||
        typeof value === 'boolean' ||
        typeof value === 'bigint' ||
        value === null ||
        value === undefined
    )
        return String(value);
    if (ArrayBuffer.isView(value))
        return `${value.constructor.name}(${(value as unknown as ArrayLike<number>).length})`;
    if (Array.isArray(value)) return `Array(${value.length})`;
    return typeof value === 'object' ? (value.constructor?.name ?? 'object') : typeof value;
}

/** Throws unless `v` is a finite number within ±MAX_COORD (a World position). */
export function coord(name: string, v: unknown): number {
    if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > MAX_COORD) {
        throw rangeError(name, 'a finite number within ±2^50', v);
    }
    return v;
}

/**
 * Throws unless `v` is a 32-bit set of category bits: any 32-bit integer, unsigned (0..2^32−1) or signed (−2^31..−1,
 * what `~BULLET` gives), as Box2D takes them; returns it as an int32 (read back with `>>> 0`).
 */
export function checkBits(name: string, v: unknown): number {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < -(2 ** 31) || v > 0xffffffff)
        throw rangeError(name, 'a 32-bit integer (-2147483648..4294967295, e.g. 0xffffffff or ~BULLET)', v);
    return v | 0;
}
