// The seeded PRNG that the demo's scenes, the benchmarks (bench/timing.ts re-exports it) and the tests share, so
// a seed gives the same numbers in each. Free of imports, so page bundles take it as it is.

/** mulberry32: a tiny seeded PRNG with a 2^32 state, identical in every JavaScript engine; numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
