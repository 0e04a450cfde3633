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
 * @internal Most frames one sheet JSON (TexturePacker or Aseprite) may list: 2^17. A frame costs a mask in the
 * build; a million-frame JSON took 12.5 s and 1.3 GB before this cap.
 */
export const MAX_SHEET_FRAMES = 2 ** 17;

/** @internal Most Aseprite slices (`meta.slices`) one sheet JSON may list: 2^14. */
export const MAX_SHEET_SLICES = 2 ** 14;

/**
 * @internal Most hit-boxes one sheet JSON may give its frames: 2^18, counted before any is made as the slice keys
 * plus, for each slice, the frames from its first key on (a key holds until the next one). 20,000 frames and 500
 * slices ask for 10 million, which took 97 s, 5.6 GB and a 279 MB atlas before this budget.
 */
export const MAX_SHEET_BOXES = 2 ** 18;

/**
 * @internal Most pixels a transform that scales or rotates off the quarter turns may make (its box before
 * trimming): 2^26, 8192 × 8192 (8 MiB of words). Each is computed, so this bounds the work too.
 */
export const MAX_TRANSFORM_PIXELS = 2 ** 26;

/** @internal Default byte budget of one `TransformCache`: 64 MiB of transformed masks. */
export const TRANSFORM_CACHE_BYTES = 2 ** 26;

/**
 * @internal Most pixels of a layer `detachIslands` floods (its strips of 32 × its rows): 2^28, 16384 × 16384. Its
 * scratch is a bit per pixel (32 MiB there), allocated for the call.
 */
export const MAX_DEBRIS_PIXELS = 2 ** 28;

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
    memoryBytes: MEMORY_LIMIT,
    /** Most pixels a scaling or rotating `transformMask` (a World body, a sprite) may make, before trimming: 2^26. */
    transformPixels: MAX_TRANSFORM_PIXELS,
    /** Default budget of a `TransformCache`: 64 MiB of transformed masks (2^26 bytes), least recently used dropped. */
    transformCacheBytes: TRANSFORM_CACHE_BYTES,
    /** Most frames of one sheet JSON (TexturePacker or Aseprite) read by `hitmask/node`: 2^17. */
    sheetFrames: MAX_SHEET_FRAMES,
    /** Most Aseprite slices of one sheet JSON: 2^14. */
    sheetSlices: MAX_SHEET_SLICES,
    /** Most hit-boxes one sheet JSON gives its frames (slice keys, each slice's frames from its first key): 2^18. */
    sheetBoxes: MAX_SHEET_BOXES,
    /** Most pixels of a layer that `detachIslands` takes (width rounded up to 32 × height): 2^28. */
    debrisPixels: MAX_DEBRIS_PIXELS
});
