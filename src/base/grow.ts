// Growing the typed arrays of the broad phase and the pair lists: by half again, at least 1024 entries.

/** @internal A capacity for at least n entries: half again as many, at least 1024. */
export function grow(n: number): number {
    return Math.max(1024, Math.ceil(n * 1.5));
}

/** @internal A copy of `a` with room for at least n entries. */
export function growCopy(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
    const b = new Int32Array(grow(n));
    b.set(a);
    return b;
}
