// Argument checks of a value's type at API boundaries: objects, options objects, booleans, functions, strings,
// arrays, array-likes, byte arrays and one-of sets. Each throws a TypeError (a RangeError for a value outside a
// set) whose message names the value got and what was expected; the expectation is worded by the caller
// where a plain "an object" says too little ("a RayHit object", "an object like { layer }").
import { typeError, rangeError } from './check.js';

/** Throws unless `value` is an object (not null; arrays pass). */
export function checkObject(name: string, value: unknown, expected = 'an object'): asserts value is object {
    if (value === null || typeof value !== 'object') throw typeError(name, expected, value);
}

/**
 * Throws unless `value` is an options object: an object that is neither an array nor a typed array (an
 * array there is usually an argument of an older positional form). `shape` names its fields: "{ layer }".
 */
export function checkOptions(name: string, value: unknown, shape = ''): asserts value is object {
    if (!isOptions(value)) throw typeError(name, shape === '' ? 'an object' : `an object like ${shape}`, value);
}

/** {@link checkOptions}'s test, for the core's few options objects (`import { Mask }` counts its bytes). */
export function isOptions(value: unknown): value is object {
    return value !== null && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value);
}

/** Throws unless `value` is true or false (`expected` words it: "a boolean", "true or false"). */
export function checkBoolean(name: string, value: unknown, expected = 'a boolean'): asserts value is boolean {
    if (typeof value !== 'boolean') throw typeError(name, expected, value);
}

/** Throws unless `value` is a function (`expected` may give its signature: "a function (x, y) => void"). */
export function checkFunction(
    name: string,
    value: unknown,
    expected = 'a function'
): asserts value is (...args: never[]) => unknown {
    if (typeof value !== 'function') throw typeError(name, expected, value);
}

/** Throws unless `value` is a string (non-empty when `nonEmpty`). */
export function checkString(name: string, value: unknown, nonEmpty = false): asserts value is string {
    if (typeof value !== 'string' || (nonEmpty && value === ''))
        throw typeError(name, nonEmpty ? 'a non-empty string' : 'a string', value);
}

/** Throws unless `value` is an array (`expected` says of what: "an array of Masks"). */
export function checkArray(name: string, value: unknown, expected = 'an array'): asserts value is unknown[] {
    if (!Array.isArray(value)) throw typeError(name, expected, value);
}

/** Throws unless `value` is an array or a typed array (anything with a numeric length). */
export function checkArrayLike(
    name: string,
    value: unknown,
    expected = 'an array or typed array of numbers'
): asserts value is ArrayLike<unknown> {
    if (value == null || typeof value !== 'object' || typeof (value as ArrayLike<unknown>).length !== 'number')
        throw typeError(name, expected, value);
}

/** Throws unless `value` is a Uint8Array (`expected` may say where it comes from). */
export function checkBytes(name: string, value: unknown, expected = 'a Uint8Array'): asserts value is Uint8Array {
    if (!(value instanceof Uint8Array)) throw typeError(name, expected, value);
}

/** Throws a RangeError unless `value` is one of `values` (the message lists them, or says `expected`). */
export function checkOneOf<T>(name: string, value: unknown, values: readonly T[], expected?: string): T {
    if (!values.includes(value as T)) throw rangeError(name, expected ?? `one of ${values.join(', ')}`, value);
    return value as T;
}
