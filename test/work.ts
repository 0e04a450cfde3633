// How a test says "fast" or "small" without a wall clock, as counted work: the process's own CPU time
// (user + system, every thread of this process), which other processes' load does not inflate, checked
// against a generous bound; and the typed arrays a call allocates. Wall time comes back only to be printed:
// on a shared machine it measures the neighbours too.

/** A call's result with the CPU time and wall time it took, in ms. */
export interface Cost<T> {
    value: T;
    cpuMs: number;
    wallMs: number;
}

/** Runs `fn` and returns its result with its cost. */
export function cost<T>(fn: () => T): Cost<T> {
    const c0 = process.cpuUsage(),
        t0 = performance.now();
    const value = fn();
    const wallMs = performance.now() - t0,
        c = process.cpuUsage(c0);
    return { value, cpuMs: (c.user + c.system) / 1000, wallMs };
}

/** Runs async `fn` and returns its result with its cost (CPU time includes whatever else this process ran meanwhile). */
export async function costAsync<T>(fn: () => Promise<T>): Promise<Cost<T>> {
    const c0 = process.cpuUsage(),
        t0 = performance.now();
    const value = await fn();
    const wallMs = performance.now() - t0,
        c = process.cpuUsage(c0);
    return { value, cpuMs: (c.user + c.system) / 1000, wallMs };
}

/** "12.3 ms CPU (40.1 ms wall)", for diagnostics and assertion messages. */
export function costText(c: Cost<unknown>): string {
    return `${c.cpuMs.toFixed(1)} ms CPU (${c.wallMs.toFixed(1)} ms wall)`;
}

const TYPED = [
    'Uint8Array',
    'Uint8ClampedArray',
    'Int8Array',
    'Uint16Array',
    'Int16Array',
    'Uint32Array',
    'Int32Array',
    'Float32Array',
    'Float64Array',
    'ArrayBuffer'
] as const;

/** What {@link allocations} saw: typed arrays and ArrayBuffers created through the globals, and their bytes. */
export interface Allocations {
    count: number;
    bytes: number;
    largest: number;
}

/**
 * Runs `fn` with the global typed-array constructors (and ArrayBuffer) wrapped, counting what it allocates.
 * Code that reaches them as globals at call time is seen (src/ does); Buffer's pool and engines' own
 * allocations are not.
 */
export function allocations(fn: () => void): Allocations {
    const seen: Allocations = { count: 0, bytes: 0, largest: 0 };
    const g = globalThis as unknown as Record<string, unknown>;
    const saved = TYPED.map(name => g[name]);
    TYPED.forEach((name, i) => {
        const ctor = saved[i] as new (...args: unknown[]) => ArrayBufferView | ArrayBuffer;
        g[name] = new Proxy(ctor, {
            construct(target, args, newTarget) {
                const made = Reflect.construct(target, args, newTarget === g[name] ? target : newTarget) as
                    ArrayBufferView | ArrayBuffer;
                // A view on an existing buffer allocates nothing.
                if (
                    !(args[0] instanceof (saved[TYPED.indexOf('ArrayBuffer')] as typeof ArrayBuffer)) &&
                    !(typeof SharedArrayBuffer !== 'undefined' && args[0] instanceof SharedArrayBuffer)
                ) {
                    seen.count++;
                    seen.bytes += made.byteLength;
                    seen.largest = Math.max(seen.largest, made.byteLength);
                }
                return made;
            }
        });
    });
    try {
        fn();
    } finally {
        TYPED.forEach((name, i) => {
            g[name] = saved[i];
        });
    }
    return seen;
}
