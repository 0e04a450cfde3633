// Argument checks used at API boundaries only, never inside hot loops.
import { MAX_COORD } from './limits.js';

/** Largest width or height accepted for a mask (2^30), so `x + dx` stays exact in int32 arithmetic. */
export const MAX_SIDE = 2 ** 30;

/** Largest number of 32-bit words one mask may hold (2^28 words = 1 GiB, about 8.6 gigapixels). */
export const MAX_WORDS = 2 ** 28;

/** Throws unless `value` is an integer in 0..MAX_SIDE. */
export function checkSize(name: string, value: unknown): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_SIDE) {
        throw new RangeError(`${name} must be an integer in 0..${MAX_SIDE}, got ${describe(value)}.`);
    }
    return value;
}

/** Throws unless `value` is a finite number; returns it floored. */
export function checkCoord(name: string, value: unknown): number {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new RangeError(`${name} must be a finite number, got ${describe(value)}.`);
    }
    return Math.floor(value);
}

/** Throws unless `value` is an integer in min..max. */
export function checkInt(name: string, value: unknown, min: number, max: number): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
        throw new RangeError(`${name} must be an integer in ${min}..${max}, got ${describe(value)}.`);
    }
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
        throw new RangeError(`${name} must be a finite number within ±2^50, got ${describe(v)}.`);
    }
    return v;
}

/** Throws unless `v` is a 32-bit set of category bits; returns it as an int32. */
export function checkBits(name: string, v: unknown): number {
    return checkInt(name, v, 0, 0xffffffff) | 0;
}
