// The numeric limits of the library in one place: the constants the checks compare against, and the
// frozen `limits` object that the root entry exports for users.

/** @internal Largest |x| or |y| of a World position: 2^50, so boxes and offsets stay exact integers in doubles. */
export const MAX_COORD = 2 ** 50;

/**
 * @internal Longest sweep, in pixel steps (|dx| + |dy|): each step is tested, so a sweep costs up to that many tests.
 */
export const MAX_SWEEP = 2 ** 20;

/**
 * @internal Most candidate pairs (bodies whose boxes overlap, filters passed) one World step collects: 2^20.
 * It bounds a step's memory (about 32 bytes a pair) and its narrow phase: a game's worst scene makes tens of
 * thousands; a million means bodies piled on one spot, refused before their pixels are tested.
 */
export const MAX_PAIRS = 2 ** 20;

/** @internal Largest number of layers in one raster: a layer set is one 32-bit word. */
export const MAX_LAYERS = 32;

/** @internal Largest stamp id of a raster; `-1` means "no id". */
export const MAX_ID = 2 ** 31 - 1;

/** @internal Ceiling on WebAssembly memory: 1 GiB (less where the runtime refuses to reserve that much). */
export const MEMORY_LIMIT = 2 ** 30;

/**
 * The library's numeric limits; past each one a call throws a RangeError (or, for memory, falls back to the JS heap).
 */
export const limits = Object.freeze({
    /** Largest |x| or |y| of a World body's position: 2^50 (boxes and offsets stay exact integers). */
    coord: MAX_COORD,
    /** Longest `World.sweep()` path, in pixel steps |dx| + |dy|: 2^20. */
    sweepPixels: MAX_SWEEP,
    /** Most pairs of bodies whose boxes overlap in one `World.step()`: 2^20. */
    pairs: MAX_PAIRS,
    /** Most layers of one `CollisionRaster`: 32. */
    rasterLayers: MAX_LAYERS,
    /** Largest stamp id of a `CollisionRaster`: 2^31 − 1. */
    rasterId: MAX_ID,
    /** Ceiling on WebAssembly memory in bytes: 1 GiB (kernelStats().memoryLimitBytes says the one in force). */
    memoryBytes: MEMORY_LIMIT
});
