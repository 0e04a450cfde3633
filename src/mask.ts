import { bitIndexSum, bitRange, ctz, lastWordMask, msb, popcnt, rev32 } from './bits.js';
import { checkCoord, checkInt, checkSize, describe, MAX_WORDS } from './check.js';
import { labelRuns, traceOutline, type Runs } from './components.js';
import { ThreadPool } from './threads.js';
import { allocWasm, lastArena, lastKeep, lastPtr, wasmMinWords, wasmOn, type Arena, type BatchRunner } from './wasm/simd.js';

/** A pixel position. */
export interface Point { x: number; y: number }

/** An axis-aligned rectangle in pixels; `x + width` and `y + height` are exclusive. */
export interface Rect { x: number; y: number; width: number; height: number }

/** RGBA pixels, 4 bytes per pixel, rows top to bottom (canvas `ImageData.data` works as is). */
export type RGBAData = Uint8Array | Uint8ClampedArray;

/** Options of {@link Mask.fromRGBA}. */
export interface ThresholdOptions {
    /** A pixel is solid where its alpha is strictly greater than this (0..255). @default 127 */
    threshold?: number;
}

/** Options of {@link Mask.fromColorKey}. */
export interface ColorKeyOptions {
    /** A pixel is solid where some channel differs from the key by more than this (0..255). @default 0 */
    tolerance?: number;
}

/** A colour key: `0xRRGGBB` or `[r, g, b]`. */
export type ColorKey = number | readonly [number, number, number];

// Intersection of two placed masks in the first mask's coordinates, set by clip(); reused to avoid allocation.
let X0 = 0, X1 = 0, Y0 = 0, Y1 = 0;

// Words adopted by the constructor instead of a fresh allocation (see Mask.fromWords).
let adopted: Uint32Array | null = null;

// Small masks take their words from shared 64 KiB slabs: a typed array over V8's on-heap limit
// (64 bytes) gets its own backing store, ~300-550 ns each, while a view into a slab costs ~20 ns.
// A slab stays alive while any mask in it does (at most 64 KiB per live small mask, in the worst case).
const SLAB_WORDS = 16384, SLAB_MAX_WORDS = 512;
let slab: ArrayBuffer | null = null, slabUsed = SLAB_WORDS;

function allocWords(n: number): Uint32Array {
    if (n > SLAB_MAX_WORDS) return new Uint32Array(n);
    if (slabUsed + n > SLAB_WORDS) { slab = new ArrayBuffer(SLAB_WORDS * 4); slabUsed = 0; }
    const words = new Uint32Array(slab as ArrayBuffer, slabUsed * 4, n);
    slabUsed += n;
    return words;
}

/** Internal (not exported by the package): the arena holding a mask's words, null for JS-heap words. */
export let arenaOf: (m: Mask) => Arena | null;
/** Internal: the byte offset of a mask's words in its arena. */
export let ptrOf: (m: Mask) => number;
/**
 * Internal: {@link Mask.overlapsMany} without argument checks, for the World's narrow phase; with a
 * runner (a ThreadPool) the pairs may be split across threads when `work` (estimated words) is large.
 */
export let overlapsBatch: (masks: readonly (Mask | null)[], pairs: Int32Array, out: Uint8Array, count: number, runner: BatchRunner | null, work: number) => number;

/**
 * A 1-bit-per-pixel collision mask.
 *
 * Storage is pygame's strip layout with 32-bit words: the word holding pixel (x, y) is
 * `words[(x >>> 5) * height + y]`, at bit `x & 31` (pixel x = 0 is the least-significant bit).
 * Each 32-pixel-wide vertical strip is `height` consecutive words, so a vertical offset is
 * just a start index and overlap loops walk memory linearly. Bits past `width` are always zero.
 */
export class Mask {
    /** Width in pixels. */
    readonly width: number;
    /** Height in pixels. */
    readonly height: number;
    /** Number of 32-pixel strips, `ceil(width / 32)`. */
    readonly strips: number;
    /**
     * Packed bits, `strips * height` words; see the class comment for the layout. Small masks share
     * an underlying ArrayBuffer with other masks: copy (`words.slice()`) before transferring it.
     */
    readonly words: Uint32Array;
    // The WebAssembly arena holding `words` and their byte offset in it; null for JS-heap words
    // (masks made while the JS kernels were selected, Mask.fromWords, or when WebAssembly memory ran out).
    readonly #arena: Arena | null;
    readonly #ptr: number;
    // A small WebAssembly mask's slab token: the slab is freed once no mask holds it (never read, only held).
    // eslint-disable-next-line no-unused-private-class-members
    readonly #keep: object | null;

    static {
        arenaOf = m => m.#arena;
        ptrOf = m => m.#ptr;
        overlapsBatch = Mask.#batch;
    }

    /** Creates an empty (or, with `filled`, a full) mask of `width` × `height` pixels. */
    constructor(width: number, height: number, filled = false) {
        checkSize('Mask width', width);
        checkSize('Mask height', height);
        const strips = (width + 31) >>> 5;
        const n = strips * height;
        if (n > MAX_WORDS) {
            throw new RangeError(`Mask ${width}x${height} needs ${n} words, more than the ${MAX_WORDS} allowed; split it into tiles.`);
        }
        this.width = width;
        this.height = height;
        this.strips = strips;
        this.#arena = null;
        this.#ptr = 0;
        this.#keep = null;
        if (adopted) {
            this.words = adopted;
            adopted = null;
            return;
        }
        const w = wasmOn && n > 0 ? allocWasm(n) : null;
        if (w !== null) {
            this.words = w;
            this.#arena = lastArena;
            this.#ptr = lastPtr;
            this.#keep = lastKeep;
        } else {
            this.words = allocWords(n);
        }
        if (filled) this.fill();
    }

    /** Builds a mask from RGBA pixels: a bit is set where alpha > `threshold` (pygame's rule). */
    static fromRGBA(data: RGBAData, width: number, height: number, options: ThresholdOptions = {}): Mask {
        checkRGBA(data, width, height);
        const t = checkInt('threshold', options.threshold ?? 127, 0, 255);
        const m = new Mask(width, height);
        if (Mask.#fromRGBAWasm(m, data, 0, 0, t)) return m;
        const { words, strips } = m;
        for (let y = 0; y < height; y++) {
            let p = y * width * 4 + 3;
            for (let s = 0; s < strips; s++) {
                const n = Math.min(32, width - (s << 5));
                let w = 0;
                for (let b = 0; b < n; b++, p += 4) if (data[p] > t) w |= 1 << b;
                words[s * height + y] = w;
            }
        }
        return m;
    }

    /** Builds a mask from a canvas `ImageData` (or any `{ data, width, height }`), alpha > `threshold`. */
    static fromImageData(image: { readonly data: RGBAData; readonly width: number; readonly height: number }, options: ThresholdOptions = {}): Mask {
        if (image == null || typeof image !== 'object') throw new TypeError(`image must be an ImageData-like object, got ${describe(image)}.`);
        return Mask.fromRGBA(image.data, image.width, image.height, options);
    }

    /** Builds a mask from RGBA pixels: a bit is set where some RGB channel differs from `key` by more than `tolerance`; alpha is ignored. */
    static fromColorKey(data: RGBAData, width: number, height: number, key: ColorKey, options: ColorKeyOptions = {}): Mask {
        checkRGBA(data, width, height);
        let kr: number, kg: number, kb: number;
        if (typeof key === 'number') {
            checkInt('color key', key, 0, 0xffffff);
            kr = key >>> 16; kg = (key >>> 8) & 255; kb = key & 255;
        } else if (Array.isArray(key) && key.length === 3) {
            kr = checkInt('color key red', key[0], 0, 255);
            kg = checkInt('color key green', key[1], 0, 255);
            kb = checkInt('color key blue', key[2], 0, 255);
        } else {
            throw new TypeError(`color key must be 0xRRGGBB or [r, g, b], got ${describe(key)}.`);
        }
        const tol = checkInt('tolerance', options.tolerance ?? 0, 0, 255);
        const m = new Mask(width, height);
        if (Mask.#fromRGBAWasm(m, data, 1, kr | (kg << 8) | (kb << 16), tol)) return m;
        const { words, strips } = m;
        for (let y = 0; y < height; y++) {
            let p = y * width * 4;
            for (let s = 0; s < strips; s++) {
                const n = Math.min(32, width - (s << 5));
                let w = 0;
                for (let b = 0; b < n; b++, p += 4) {
                    if (Math.abs(data[p] - kr) > tol || Math.abs(data[p + 1] - kg) > tol || Math.abs(data[p + 2] - kb) > tol) w |= 1 << b;
                }
                words[s * height + y] = w;
            }
        }
        return m;
    }

    // fromRGBA (op 0, threshold t) and fromColorKey (op 1, key 0xBBGGRR, tolerance t) in WebAssembly:
    // the pixels are copied into the mask's arena through a scratch block of at most 256 KiB, and
    // the kernel writes the words in place. False (nothing written) when the mask is not in an arena,
    // has fewer pixels than wasmMinWords full words (break-even: 16x16 px ran 0.96x the JS time, 8x8
    // 1.3x, 32x16 0.58x), or no scratch memory is left. bench/build.bench.ts: 0.43x the JS time on a
    // 4096² sheet (6.9 against 3.0 GB/s), 0.37x per 64x64 frame, fromColorKey 0.23x.
    static #fromRGBAWasm(m: Mask, data: RGBAData, op: number, key: number, t: number): boolean {
        const ar = m.#arena, { width, height } = m, chunk = 256 * 1024;
        if (ar === null || !wasmOn || width * height < wasmMinWords * 32) return false;
        const rowBytes = width * 4;
        // Rows wider than a chunk go in segments of whole strips (chunk / 4 is a multiple of 32 px), one row at a time.
        const rows = rowBytes <= chunk ? Math.min(height, Math.floor(chunk / rowBytes)) : 1;
        const cols = rowBytes <= chunk ? width : chunk >> 2;
        const p = ar.scratch(rows * cols * 4);
        if (p < 0) return false;
        // The copy is about half the time (4.6 of 9.8 ms for a 4096² image, bound by reading the source),
        // the kernel the other half; a Uint8ClampedArray source copies as fast as a Uint8Array.
        const view = new Uint8Array(ar.buf, p, rows * cols * 4);
        const k = ar.k, ptr = m.#ptr;
        if (cols === width) {
            for (let y = 0; y < height; y += rows) {
                const n = Math.min(rows, height - y);
                view.set(data.subarray(y * rowBytes, (y + n) * rowBytes));
                k.rgbaMask(p, rowBytes, width, n, ptr + y * 4, height, op, key, t);
            }
        } else {
            for (let y = 0; y < height; y++) {
                for (let x = 0; x < width; x += cols) {
                    const n = Math.min(cols, width - x), at = (y * width + x) * 4;
                    view.set(data.subarray(at, at + n * 4));
                    k.rgbaMask(p, n * 4, n, 1, ptr + ((x >>> 5) * height + y) * 4, height, op, key, t);
                }
            }
        }
        return true;
    }

    /** Parses rows of `#` (set) and `.` (clear); blank lines and surrounding spaces are ignored. */
    static fromText(text: string): Mask {
        if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describe(text)}.`);
        const rows = text.split('\n').map(r => r.trim()).filter(r => r.length > 0);
        const width = rows.length ? rows[0].length : 0;
        const m = new Mask(width, rows.length);
        for (let y = 0; y < rows.length; y++) {
            const row = rows[y];
            if (row.length !== width) throw new Error(`Mask text row ${y} is ${row.length} characters wide, expected ${width}.`);
            for (let x = 0; x < width; x++) {
                const c = row[x];
                if (c === '#') m.words[(x >>> 5) * m.height + y] |= 1 << (x & 31);
                else if (c !== '.') throw new Error(`Mask text has ${JSON.stringify(c)} at row ${y}, column ${x}; expected "#" or ".".`);
            }
        }
        return m;
    }

    /** Wraps existing packed words (strip layout, see the class comment) without copying them. */
    static fromWords(width: number, height: number, words: Uint32Array): Mask {
        checkSize('Mask width', width);
        checkSize('Mask height', height);
        if (!(words instanceof Uint32Array)) throw new TypeError(`words must be a Uint32Array, got ${describe(words)}.`);
        const strips = (width + 31) >>> 5;
        if (words.length !== strips * height) {
            throw new RangeError(`words has length ${words.length}, expected ${strips * height} for a ${width}x${height} mask.`);
        }
        const edge = lastWordMask(width);
        if (edge !== 0xffffffff) {
            for (let i = (strips - 1) * height; i < words.length; i++) {
                if ((words[i] & ~edge) !== 0) throw new RangeError(`words has bits set past width ${width} in row ${i - (strips - 1) * height}; padding bits must be zero.`);
            }
        }
        adopted = words;
        return new Mask(width, height);
    }

    /** Rows of `#` and `.` joined by newlines. */
    toText(): string {
        const rows: string[] = [];
        for (let y = 0; y < this.height; y++) {
            let row = '';
            for (let x = 0; x < this.width; x++) row += this.getBit(x, y) ? '#' : '.';
            rows.push(row);
        }
        return rows.join('\n');
    }

    /** Whether pixel (x, y) is set; coordinates are floored, and anything outside the mask is clear. */
    get(x: number, y: number): boolean {
        x = checkCoord('x', x);
        y = checkCoord('y', y);
        return x >= 0 && y >= 0 && x < this.width && y < this.height && this.getBit(x, y);
    }

    /** Sets (or with `on = false` clears) pixel (x, y); coordinates are floored and must lie inside the mask. */
    set(x: number, y: number, on = true): this {
        x = checkCoord('x', x);
        y = checkCoord('y', y);
        if (x < 0 || y < 0 || x >= this.width || y >= this.height) {
            throw new RangeError(`Pixel (${x}, ${y}) is outside the ${this.width}x${this.height} mask.`);
        }
        const i = (x >>> 5) * this.height + y;
        if (on) this.words[i] |= 1 << (x & 31);
        else this.words[i] &= ~(1 << (x & 31));
        return this;
    }

    /** Sets every pixel. */
    fill(): this {
        const { words, height, strips } = this;
        if (strips === 0) return this;
        const ar = this.#arena;
        if (ar !== null) {
            // TypedArray.fill on WebAssembly's shared memory is ~10x slower than a memset in WebAssembly.
            ar.k.fill32(this.#ptr, (strips - 1) * height, -1);
            ar.k.fill32(this.#ptr + (strips - 1) * height * 4, height, lastWordMask(this.width));
            return this;
        }
        words.fill(0xffffffff, 0, (strips - 1) * height);
        words.fill(lastWordMask(this.width), (strips - 1) * height);
        return this;
    }

    /** Clears every pixel. */
    clear(): this {
        const ar = this.#arena;
        if (ar !== null) ar.k.fill32(this.#ptr, this.words.length, 0);
        else this.words.fill(0);
        return this;
    }

    /** Flips every pixel. */
    invert(): this {
        const { words, height, strips } = this;
        if (strips === 0) return this;
        const edge = lastWordMask(this.width), last = (strips - 1) * height;
        for (let i = 0; i < last; i++) words[i] = ~words[i];
        for (let i = last; i < words.length; i++) words[i] = ~words[i] & edge;
        return this;
    }

    /** Number of set pixels. */
    count(): number {
        const words = this.words;
        let n = 0;
        for (let i = 0; i < words.length; i++) n += popcnt(words[i]);
        return n;
    }

    /** An independent copy. */
    clone(): Mask {
        const m = new Mask(this.width, this.height), ar = this.#arena;
        if (ar !== null && ar === m.#arena) ar.k.copy32(m.#ptr, this.#ptr, this.words.length);
        else m.words.set(this.words);
        return m;
    }

    /** Whether `other` has the same size and the same pixels. */
    equals(other: Mask): boolean {
        checkMask(other);
        if (other.width !== this.width || other.height !== this.height) return false;
        const a = this.words, b = other.words;
        for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
        return true;
    }

    /**
     * The first pixel set in both masks, in row-major order (top row first, then leftmost), in this
     * mask's coordinates, with `other`'s top-left at (dx, dy); `null` when they do not overlap.
     * Offsets are floored.
     */
    overlap(other: Mask, dx: number, dy: number): Point | null {
        const p = { x: 0, y: 0 };
        return this.overlapInto(other, dx, dy, p) ? p : null;
    }

    /** Allocation-free {@link overlap}: writes the first overlapping pixel into `out` and returns whether there is one. */
    overlapInto(other: Mask, dx: number, dy: number, out: Point): boolean {
        checkMask(other);
        dx = checkCoord('dx', dx);
        dy = checkCoord('dy', dy);
        if (!clip(this, other, dx, dy)) return false;
        const A = this.words, B = other.words, ah = this.height, bh = other.height, bStrips = other.strips;
        const n0 = Y0 - dy;
        let bestY = Y1, bestX = 0;
        for (let s = X0 >> 5, sEnd = (X1 - 1) >> 5; s <= sEnd; s++) {
            const o = (s << 5) - dx, bs = o >> 5, sh = o & 31;
            let ai = s * ah + Y0, bi = bs * bh + n0;
            const rows = bestY - Y0;
            if (sh !== 0 && bs >= 0 && bs + 1 < bStrips) {
                const ls = 32 - sh;
                for (let r = 0; r < rows; r++, ai++, bi++) {
                    const w = A[ai] & ((B[bi] >>> sh) | (B[bi + bh] << ls));
                    if (w !== 0) { bestY = Y0 + r; bestX = (s << 5) + ctz(w); break; }
                }
            } else {
                let rs = sh, ls = 0;
                if (bs < 0) { bi += bh; rs = 0; ls = 32 - sh; }
                for (let r = 0; r < rows; r++, ai++, bi++) {
                    const w = A[ai] & ((B[bi] >>> rs) << ls);
                    if (w !== 0) { bestY = Y0 + r; bestX = (s << 5) + ctz(w); break; }
                }
            }
        }
        if (bestY === Y1) return false;
        out.x = bestX;
        out.y = bestY;
        return true;
    }

    /** Whether any pixel is set in both masks with `other`'s top-left at (dx, dy); stops at the first overlapping word. */
    overlaps(other: Mask, dx: number, dy: number): boolean {
        checkMask(other);
        dx = checkCoord('dx', dx);
        dy = checkCoord('dy', dy);
        if (!clip(this, other, dx, dy)) return false;
        const A = this.words, B = other.words, ah = this.height, bh = other.height, bStrips = other.strips;
        const ar = this.#arena;
        if (ar !== null && ar === other.#arena && wasmOn && (Y1 - Y0) * (((X1 - 1) >> 5) - (X0 >> 5) + 1) >= wasmMinWords) {
            return ar.k.overlaps(this.#ptr, ah, other.#ptr, bh, bStrips, dx, dy, X0, X1, Y0, Y1) !== 0;
        }
        const rows = Y1 - Y0, n0 = Y0 - dy;
        for (let s = X0 >> 5, sEnd = (X1 - 1) >> 5; s <= sEnd; s++) {
            const o = (s << 5) - dx, bs = o >> 5, sh = o & 31;
            const ai = s * ah + Y0;
            let bi = bs * bh + n0;
            // Four rows per test with one OR-accumulated branch: 1.3-1.6x faster full scans than one row per test.
            let r = 0;
            if (sh !== 0 && bs >= 0 && bs + 1 < bStrips) {
                const ls = 32 - sh, bj = bi + bh;
                for (; r + 4 <= rows; r += 4) {
                    const i = ai + r, j = bi + r, k = bj + r;
                    if (((A[i] & ((B[j] >>> sh) | (B[k] << ls))) | (A[i + 1] & ((B[j + 1] >>> sh) | (B[k + 1] << ls))) |
                        (A[i + 2] & ((B[j + 2] >>> sh) | (B[k + 2] << ls))) | (A[i + 3] & ((B[j + 3] >>> sh) | (B[k + 3] << ls)))) !== 0) return true;
                }
                for (; r < rows; r++) if ((A[ai + r] & ((B[bi + r] >>> sh) | (B[bj + r] << ls))) !== 0) return true;
            } else {
                let rs = sh, ls = 0;
                if (bs < 0) { bi += bh; rs = 0; ls = 32 - sh; }
                for (; r + 4 <= rows; r += 4) {
                    const i = ai + r, j = bi + r;
                    if (((A[i] & ((B[j] >>> rs) << ls)) | (A[i + 1] & ((B[j + 1] >>> rs) << ls)) |
                        (A[i + 2] & ((B[j + 2] >>> rs) << ls)) | (A[i + 3] & ((B[j + 3] >>> rs) << ls))) !== 0) return true;
                }
                for (; r < rows; r++) if ((A[ai + r] & ((B[bi + r] >>> rs) << ls)) !== 0) return true;
            }
        }
        return false;
    }

    /**
     * Batched {@link overlaps}: for pair k, `out[k]` becomes 1 when `masks[pairs[4k]]` overlaps
     * `masks[pairs[4k + 1]]` placed at (`pairs[4k + 2]`, `pairs[4k + 3]`), else 0; returns how many overlap.
     * With the WebAssembly kernels every pair (clip included) is tested in one call, so small sprites
     * do not pay a call each; with a {@link ThreadPool} a large batch is split across its threads.
     */
    static overlapsMany(masks: readonly Mask[], pairs: Int32Array, out: Uint8Array, count: number = pairs instanceof Int32Array ? pairs.length >> 2 : 0, threads: ThreadPool | null = null): number {
        if (!Array.isArray(masks)) throw new TypeError(`masks must be an array of Masks, got ${describe(masks)}.`);
        if (!(pairs instanceof Int32Array)) throw new TypeError(`pairs must be an Int32Array of (a, b, dx, dy) quadruples, got ${describe(pairs)}.`);
        checkInt('count', count, 0, pairs.length >> 2);
        if (!(out instanceof Uint8Array) || out.length < count) throw new RangeError(`out must be a Uint8Array of length at least ${count}, got ${describe(out)}.`);
        if (threads !== null && !(threads instanceof ThreadPool)) throw new TypeError(`threads must be a ThreadPool or null, got ${describe(threads)}.`);
        const nm = masks.length;
        let work = 0;
        for (let k = 0, p = 0; k < count; k++, p += 4) {
            const ia = pairs[p], ib = pairs[p + 1];
            if (!(ia >= 0 && ia < nm && ib >= 0 && ib < nm)) throw new RangeError(`pairs[${p}..${p + 1}] = (${ia}, ${ib}) index masks, which has length ${nm}.`);
            if (!(masks[ia] instanceof Mask)) checkMask(masks[ia], `masks[${ia}]`);
            if (!(masks[ib] instanceof Mask)) checkMask(masks[ib], `masks[${ib}]`);
            // Words of the boxes' intersection (as the World estimates it), to decide whether threads pay.
            const a = masks[ia], b = masks[ib], dx = pairs[p + 2], dy = pairs[p + 3];
            const ow = Math.min(a.width, dx + b.width) - Math.max(0, dx), oh = Math.min(a.height, dy + b.height) - Math.max(0, dy);
            if (ow > 0 && oh > 0) work += oh * ((ow + 63) >> 5);
        }
        return Mask.#batch(masks, pairs, out, count, threads, work);
    }

    // overlapsMany without the checks: masks[pairs[4k]] and masks[pairs[4k + 1]] must be Masks. With a
    // `runner` (a ThreadPool) the kernel may be split across threads when `work` (words to scan, estimated) is large.
    static #batch(masks: readonly (Mask | null)[], pairs: Int32Array, out: Uint8Array, count: number, runner: BatchRunner | null, work: number): number {
        let ar: Arena | null = null;
        if (wasmOn) for (let k = 0; k < count && ar === null; k++) ar = (masks[pairs[4 * k]] as Mask).#arena;
        if (ar === null || !ar.reserveBatch(count)) {
            let hits = 0;
            for (let k = 0, p = 0; k < count; k++, p += 4) hits += out[k] = (masks[pairs[p]] as Mask).overlaps(masks[pairs[p + 1]] as Mask, pairs[p + 2], pairs[p + 3]) ? 1 : 0;
            return hits;
        }
        // Pairs outside the arena get an empty record (the kernel answers 0) and are tested in JS after.
        const T = ar.table;
        let mixed = false;
        for (let k = 0, p = 0, t = 0; k < count; k++, p += 4, t += 8) {
            const a = masks[pairs[p]] as Mask, b = masks[pairs[p + 1]] as Mask;
            if (a.#arena === ar && b.#arena === ar) {
                T[t] = a.#ptr; T[t + 1] = a.width; T[t + 2] = a.height;
                T[t + 3] = b.#ptr; T[t + 4] = b.width; T[t + 5] = b.height;
            } else {
                T[t + 1] = T[t + 4] = 0;
                mixed = true;
            }
            T[t + 6] = pairs[p + 2]; T[t + 7] = pairs[p + 3];
        }
        let hits = runner !== null ? runner.run(ar, ar.tablePtr, count, ar.resultsPtr, work) : ar.k.overlapsBatch(ar.tablePtr, count, ar.resultsPtr);
        out.set(ar.results.subarray(0, count));
        if (mixed) {
            for (let k = 0, p = 0; k < count; k++, p += 4) {
                const a = masks[pairs[p]] as Mask, b = masks[pairs[p + 1]] as Mask;
                if ((a.#arena !== ar || b.#arena !== ar) && a.overlaps(b, pairs[p + 2], pairs[p + 3])) { out[k] = 1; hits++; }
            }
        }
        return hits;
    }

    /** Number of pixels set in both masks with `other`'s top-left at (dx, dy). */
    overlapArea(other: Mask, dx: number, dy: number): number {
        checkMask(other);
        dx = checkCoord('dx', dx);
        dy = checkCoord('dy', dy);
        if (!clip(this, other, dx, dy)) return 0;
        const A = this.words, B = other.words, ah = this.height, bh = other.height, bStrips = other.strips;
        const ar = this.#arena;
        if (ar !== null && ar === other.#arena && wasmOn && (Y1 - Y0) * (((X1 - 1) >> 5) - (X0 >> 5) + 1) >= wasmMinWords) {
            return ar.k.area(this.#ptr, ah, other.#ptr, bh, bStrips, dx, dy, X0, X1, Y0, Y1);
        }
        const rows = Y1 - Y0, n0 = Y0 - dy;
        let n = 0;
        // Zero words skip the popcount: contacts are mostly empty words (-23% time on a sparse 1024²
        // overlap, no change on a dense one; bench/layout scenes).
        for (let s = X0 >> 5, sEnd = (X1 - 1) >> 5; s <= sEnd; s++) {
            const o = (s << 5) - dx, bs = o >> 5, sh = o & 31;
            let ai = s * ah + Y0, bi = bs * bh + n0;
            if (sh !== 0 && bs >= 0 && bs + 1 < bStrips) {
                const ls = 32 - sh;
                for (let r = 0; r < rows; r++, ai++, bi++) {
                    let v = A[ai] & ((B[bi] >>> sh) | (B[bi + bh] << ls));
                    if (v === 0) continue;
                    v -= (v >>> 1) & 0x55555555;
                    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
                    n += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
                }
            } else {
                let rs = sh, ls = 0;
                if (bs < 0) { bi += bh; rs = 0; ls = 32 - sh; }
                for (let r = 0; r < rows; r++, ai++, bi++) {
                    let v = A[ai] & ((B[bi] >>> rs) << ls);
                    if (v === 0) continue;
                    v -= (v >>> 1) & 0x55555555;
                    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
                    n += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
                }
            }
        }
        return n;
    }

    /** A new mask of this mask's size holding the pixels set in both masks, `other`'s top-left at (dx, dy). */
    overlapMask(other: Mask, dx: number, dy: number): Mask {
        const out = new Mask(this.width, this.height);
        this.overlapMaskInto(other, dx, dy, out);
        return out;
    }

    /** Allocation-free {@link overlapMask}: overwrites `out` (same size as this mask) with the overlap. */
    overlapMaskInto(other: Mask, dx: number, dy: number, out: Mask): Mask {
        checkMask(other);
        checkMask(out, 'out');
        if (out.width !== this.width || out.height !== this.height) {
            throw new RangeError(`out is ${out.width}x${out.height}, expected ${this.width}x${this.height} (this mask's size).`);
        }
        dx = checkCoord('dx', dx);
        dy = checkCoord('dy', dy);
        out.clear();
        if (!clip(this, other, dx, dy)) return out;
        const A = this.words, B = other.words, C = out.words, ah = this.height, bh = other.height, bStrips = other.strips;
        const ar = this.#arena;
        if (ar !== null && ar === other.#arena && ar === out.#arena && wasmOn && (Y1 - Y0) * (((X1 - 1) >> 5) - (X0 >> 5) + 1) >= wasmMinWords) {
            ar.k.combine(this.#ptr, ah, other.#ptr, bh, bStrips, dx, dy, X0, X1, Y0, Y1, out.#ptr, 0, 0, 0);
            return out;
        }
        const rows = Y1 - Y0, n0 = Y0 - dy;
        for (let s = X0 >> 5, sEnd = (X1 - 1) >> 5; s <= sEnd; s++) {
            const o = (s << 5) - dx, bs = o >> 5, sh = o & 31;
            let ai = s * ah + Y0, bi = bs * bh + n0;
            if (sh !== 0 && bs >= 0 && bs + 1 < bStrips) {
                const ls = 32 - sh;
                for (let r = 0; r < rows; r++, ai++, bi++) C[ai] = A[ai] & ((B[bi] >>> sh) | (B[bi + bh] << ls));
            } else {
                let rs = sh, ls = 0;
                if (bs < 0) { bi += bh; rs = 0; ls = 32 - sh; }
                for (let r = 0; r < rows; r++, ai++, bi++) C[ai] = A[ai] & ((B[bi] >>> rs) << ls);
            }
        }
        return out;
    }

    /** ORs `other` into this mask with its top-left at (dx, dy), clipped to this mask. */
    draw(other: Mask, dx: number, dy: number): this {
        return this.blit(other, dx, dy, false);
    }

    /** Clears the pixels of this mask under `other`'s set pixels (AND NOT), `other`'s top-left at (dx, dy). */
    erase(other: Mask, dx: number, dy: number): this {
        return this.blit(other, dx, dy, true);
    }

    private blit(other: Mask, dx: number, dy: number, erase: boolean): this {
        checkMask(other);
        dx = checkCoord('dx', dx);
        dy = checkCoord('dy', dy);
        if (!clip(this, other, dx, dy)) return this;
        const A = this.words, B = other.words, ah = this.height, bh = other.height, bStrips = other.strips;
        const rows = Y1 - Y0, n0 = Y0 - dy, lastStrip = this.strips - 1;
        // Shifting `other` right can push its bits past this mask's width, into padding that must stay zero.
        const edge = lastWordMask(this.width);
        const ar = this.#arena;
        // Drawing a mask onto itself stays in JS: its row-by-row order is part of the result (rows
        // already drawn are read again), and the 4-row vectors would read them before the update.
        if (ar !== null && ar === other.#arena && other !== this && wasmOn && (Y1 - Y0) * (((X1 - 1) >> 5) - (X0 >> 5) + 1) >= wasmMinWords) {
            ar.k.combine(this.#ptr, ah, other.#ptr, bh, bStrips, dx, dy, X0, X1, Y0, Y1, 0, erase ? 2 : 1, lastStrip, edge);
            return this;
        }
        for (let s = X0 >> 5, sEnd = (X1 - 1) >> 5; s <= sEnd; s++) {
            const o = (s << 5) - dx, bs = o >> 5, sh = o & 31;
            const keep = s === lastStrip ? edge : 0xffffffff;
            let ai = s * ah + Y0, bi = bs * bh + n0;
            let rs = sh, ls = 0, both = false;
            if (sh !== 0 && bs >= 0 && bs + 1 < bStrips) { both = true; ls = 32 - sh; }
            else if (bs < 0) { bi += bh; rs = 0; ls = 32 - sh; }
            if (both) {
                if (erase) for (let r = 0; r < rows; r++, ai++, bi++) A[ai] &= ~((B[bi] >>> rs) | (B[bi + bh] << ls));
                else for (let r = 0; r < rows; r++, ai++, bi++) A[ai] |= ((B[bi] >>> rs) | (B[bi + bh] << ls)) & keep;
            } else {
                if (erase) for (let r = 0; r < rows; r++, ai++, bi++) A[ai] &= ~((B[bi] >>> rs) << ls);
                else for (let r = 0; r < rows; r++, ai++, bi++) A[ai] |= ((B[bi] >>> rs) << ls) & keep;
            }
        }
        return this;
    }

    /** The smallest rectangle holding every set pixel, or `null` for an empty mask. */
    boundingRect(): Rect | null {
        const { words, height, strips } = this;
        let minY = height, maxY = -1, minX = -1, maxX = -1;
        for (let s = 0; s < strips; s++) {
            let col = 0;
            for (let y = 0, i = s * height; y < height; y++, i++) {
                const w = words[i];
                if (w !== 0) {
                    col |= w;
                    if (y < minY) minY = y;
                    if (y > maxY) maxY = y;
                }
            }
            if (col !== 0) {
                if (minX < 0) minX = (s << 5) + ctz(col);
                maxX = (s << 5) + msb(col);
            }
        }
        return maxY < 0 ? null : { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
    }

    /** One bounding rectangle per 8-connected component, in the row-major order of each component's first pixel. */
    boundingRects(): Rect[] {
        const runs = this.runs();
        const rects: Rect[] = [];
        const maxX: number[] = [];
        for (let r = 0; r < runs.count; r++) {
            const c = runs.label[r], x0 = runs.x0[r], x1 = runs.x1[r], y = runs.y[r];
            if (c === rects.length) { rects.push({ x: x0, y, width: 0, height: 0 }); maxX.push(x1); }
            const rect = rects[c];
            if (x0 < rect.x) rect.x = x0;
            if (x1 > maxX[c]) maxX[c] = x1;
            rect.height = y - rect.y + 1;
        }
        for (let c = 0; c < rects.length; c++) rects[c].width = maxX[c] - rects[c].x;
        return rects;
    }

    /** Mean position of the set pixels as floats (pixel (x, y) counts as (x, y); add 0.5 for pixel centres), or `null` when empty. */
    centroid(): Point | null {
        const { words, height, strips } = this;
        let n = 0, sx = 0, sy = 0;
        for (let s = 0; s < strips; s++) {
            for (let y = 0, i = s * height; y < height; y++, i++) {
                const w = words[i];
                if (w === 0) continue;
                const c = popcnt(w);
                n += c;
                sx += c * (s << 5) + bitIndexSum(w);
                sy += c * y;
            }
        }
        return n === 0 ? null : { x: sx / n, y: sy / n };
    }

    /**
     * Orientation of the set pixels in degrees, from second-order central moments (pygame's formula,
     * in floating point): 0 for horizontal, −45 for a `\` diagonal, +45 for `/`; 0 when empty.
     */
    angle(): number {
        const c = this.centroid();
        if (!c) return 0;
        let m20 = 0, m02 = 0, m11 = 0;
        this.forEachSet((x, y) => {
            const ex = x - c.x, ey = y - c.y;
            m20 += ex * ex; m02 += ey * ey; m11 += ex * ey;
        });
        const a = -0.5 * Math.atan2(2 * m11, m20 - m02) * 180 / Math.PI;
        return a === 0 ? 0 : a; // no -0
    }

    /** Calls `fn(x, y)` for every set pixel, strip by strip (not row-major). */
    forEachSet(fn: (x: number, y: number) => void): void {
        const { words, height, strips } = this;
        for (let s = 0; s < strips; s++) {
            for (let y = 0, i = s * height; y < height; y++, i++) {
                let w = words[i] | 0;
                while (w !== 0) {
                    fn((s << 5) + ctz(w), y);
                    w &= w - 1;
                }
            }
        }
    }

    /**
     * Boundary pixels of the first 8-connected component in row-major order, traced clockwise on
     * screen from its first pixel, which is repeated at the end (pygame's Moore-neighbour tracing).
     * Holes and other components are ignored; `every = n` keeps every n-th point. Empty mask: `[]`.
     */
    outline(every = 1): Point[] {
        checkInt('every', every, 1, 2 ** 31 - 1);
        const first = this.firstSet();
        if (!first) return [];
        const flat = traceOutline((x, y) => x >= 0 && y >= 0 && x < this.width && y < this.height && this.getBit(x, y), first);
        const pts: Point[] = [];
        for (let i = 0; i < flat.length / 2; i += every) pts.push({ x: flat[2 * i], y: flat[2 * i + 1] });
        return pts;
    }

    /**
     * The 8-connected component containing pixel (x, y) as a mask of this size (empty if that pixel is
     * clear); without a position, the largest component (ties: the one whose first pixel comes first in row-major order).
     */
    connectedComponent(x?: number, y?: number): Mask {
        const out = new Mask(this.width, this.height);
        const runs = this.runs();
        if (runs.count === 0) {
            if (x !== undefined || y !== undefined) this.checkInside(x, y);
            return out;
        }
        let target: number;
        if (x === undefined && y === undefined) {
            const area = new Float64Array(runs.components);
            for (let r = 0; r < runs.count; r++) area[runs.label[r]] += runs.x1[r] - runs.x0[r];
            target = 0;
            for (let c = 1; c < area.length; c++) if (area[c] > area[target]) target = c;
        } else {
            const [px, py] = this.checkInside(x, y);
            if (!this.getBit(px, py)) return out;
            target = -1;
            for (let r = 0; r < runs.count && target < 0; r++) {
                if (runs.y[r] === py && runs.x0[r] <= px && px < runs.x1[r]) target = runs.label[r];
            }
        }
        for (let r = 0; r < runs.count; r++) if (runs.label[r] === target) out.setRun(runs.x0[r], runs.x1[r], runs.y[r]);
        return out;
    }

    /** Every 8-connected component with at least `minArea` pixels, as masks of this size, in the row-major order of their first pixels. */
    connectedComponents(minArea = 0): Mask[] {
        checkInt('minArea', minArea, -(2 ** 53), 2 ** 53);
        const runs = this.runs();
        const area = new Float64Array(runs.components);
        for (let r = 0; r < runs.count; r++) area[runs.label[r]] += runs.x1[r] - runs.x0[r];
        const masks: (Mask | null)[] = [];
        for (let c = 0; c < runs.components; c++) masks.push(area[c] >= minArea ? new Mask(this.width, this.height) : null);
        for (let r = 0; r < runs.count; r++) masks[runs.label[r]]?.setRun(runs.x0[r], runs.x1[r], runs.y[r]);
        return masks.filter((m): m is Mask => m !== null);
    }

    /**
     * Convolution (pygame's): a mask of (w1 + w2 − 1) × (h1 + h2 − 1) where bit (i, j) is set iff
     * `this.overlaps(other, i − (other.width − 1), j − (other.height − 1))`.
     */
    convolve(other: Mask): Mask {
        checkMask(other);
        const out = new Mask(Math.max(0, this.width + other.width - 1), Math.max(0, this.height + other.height - 1));
        if (out.width === 0 || out.height === 0) return out;
        const ow = other.width - 1, oh = other.height - 1;
        other.forEachSet((x, y) => { out.draw(this, ow - x, oh - y); });
        return out;
    }

    /** A new mask of `width` × `height` by nearest-neighbour sampling: pixel (x, y) takes source (⌊x·w/width⌋, ⌊y·h/height⌋), as pygame. */
    scale(width: number, height: number): Mask {
        checkSize('scale width', width);
        checkSize('scale height', height);
        const out = new Mask(width, height);
        if (this.width === 0 || this.height === 0 || width === 0) return out;
        const sw = this.width, sh = this.height, src = this.words, dst = out.words, strips = out.strips;
        const mapX = new Int32Array(width);
        for (let x = 0; x < width; x++) mapX[x] = Math.floor(x * sw / width);
        let prevSy = -1;
        for (let y = 0; y < height; y++) {
            const sy = Math.floor(y * sh / height);
            if (sy === prevSy) {
                for (let s = 0; s < strips; s++) dst[s * height + y] = dst[s * height + y - 1];
                continue;
            }
            prevSy = sy;
            for (let s = 0; s < strips; s++) {
                let w = 0;
                for (let b = 0, x = s << 5, n = Math.min(32, width - x); b < n; b++, x++) {
                    const sx = mapX[x];
                    if ((src[(sx >>> 5) * sh + sy] >>> (sx & 31)) & 1) w |= 1 << b;
                }
                dst[s * height + y] = w;
            }
        }
        return out;
    }

    /** A new mask mirrored left to right. */
    flipX(): Mask {
        const { width, height, strips, words } = this;
        const out = new Mask(width, height);
        if (strips === 0) return out;
        const pad = (strips << 5) - width, dst = out.words;
        for (let y = 0; y < height; y++) {
            // Reversed row in a strips*32-wide frame has `pad` empty pixels first; shift them out.
            for (let k = 0; k < strips; k++) {
                const lo = rev32(words[(strips - 1 - k) * height + y]);
                const hi = k + 1 < strips ? rev32(words[(strips - 2 - k) * height + y]) : 0;
                dst[k * height + y] = pad === 0 ? lo : (lo >>> pad) | (hi << (32 - pad));
            }
        }
        return out;
    }

    /** A new mask mirrored top to bottom. */
    flipY(): Mask {
        const { width, height, strips, words } = this;
        const out = new Mask(width, height), dst = out.words;
        for (let s = 0; s < strips; s++) {
            const base = s * height;
            for (let y = 0; y < height; y++) dst[base + y] = words[base + height - 1 - y];
        }
        return out;
    }

    /** A new mask rotated by `turns` quarter turns clockwise on screen (y down); negative turns go anticlockwise. */
    rotate90(turns = 1): Mask {
        checkInt('turns', turns, -(2 ** 31), 2 ** 31 - 1);
        const t = ((turns % 4) + 4) % 4;
        if (t === 0) return this.clone();
        if (t === 2) return this.flipX().flipY();
        const { width: w, height: h } = this;
        const out = new Mask(h, w);
        // Clockwise: (x, y) -> (h - 1 - y, x); anticlockwise: (x, y) -> (y, w - 1 - x).
        this.forEachSet(t === 1
            ? (x, y) => { out.words[((h - 1 - y) >>> 5) * w + x] |= 1 << ((h - 1 - y) & 31); }
            : (x, y) => { out.words[(y >>> 5) * w + (w - 1 - x)] |= 1 << (y & 31); });
        return out;
    }

    /** The pixels inside the rectangle (x, y, width, height) as a new mask; parts outside this mask are clear. */
    crop(x: number, y: number, width: number, height: number): Mask {
        x = checkCoord('x', x);
        y = checkCoord('y', y);
        return new Mask(checkSize('crop width', width), checkSize('crop height', height)).draw(this, -x, -y);
    }

    /** The smallest mask holding every set pixel and its offset in this mask (an empty mask gives 0×0 at (0, 0)). */
    trim(): { mask: Mask; x: number; y: number } {
        const r = this.boundingRect();
        if (!r) return { mask: new Mask(0, 0), x: 0, y: 0 };
        return { mask: this.crop(r.x, r.y, r.width, r.height), x: r.x, y: r.y };
    }

    /**
     * RGBA pixels for debug drawing (e.g. `new ImageData(mask.toRGBA(), w, h)`): `onColor` where set,
     * `offColor` elsewhere, both `0xRRGGBBAA`. Writes into `out` when given (length width·height·4).
     */
    toRGBA(onColor = 0xffffffff, offColor = 0x00000000, out?: Uint8ClampedArray | Uint8Array): Uint8ClampedArray | Uint8Array {
        checkInt('onColor', onColor, 0, 0xffffffff);
        checkInt('offColor', offColor, 0, 0xffffffff);
        const { width, height } = this;
        const n = width * height * 4;
        if (out === undefined) out = new Uint8ClampedArray(n);
        else if (!(out instanceof Uint8ClampedArray || out instanceof Uint8Array) || out.length !== n) {
            throw new RangeError(`out must be a Uint8ClampedArray or Uint8Array of length ${n}, got ${describe(out)}.`);
        }
        const le = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
        const swap = (c: number) => le ? (((c & 0xff) << 24) | ((c & 0xff00) << 8) | ((c >>> 8) & 0xff00) | (c >>> 24)) >>> 0 : c;
        const on = swap(onColor), off = swap(offColor);
        if (out.byteOffset % 4 !== 0) {
            for (let y = 0, p = 0; y < height; y++) {
                for (let x = 0; x < width; x++, p += 4) {
                    const c = this.getBit(x, y) ? onColor : offColor;
                    out[p] = c >>> 24; out[p + 1] = (c >>> 16) & 255; out[p + 2] = (c >>> 8) & 255; out[p + 3] = c & 255;
                }
            }
            return out;
        }
        // One 32-bit store per pixel in the platform's byte order instead of four byte stores.
        const px = new Uint32Array(out.buffer, out.byteOffset, width * height);
        for (let y = 0, p = 0; y < height; y++) {
            for (let x = 0; x < width; x++, p++) px[p] = this.getBit(x, y) ? on : off;
        }
        return out;
    }

    /** `<Mask WxH>`. */
    toString(): string {
        return `<Mask ${this.width}x${this.height}>`;
    }

    // Unchecked bit read; callers guarantee 0 <= x < width, 0 <= y < height.
    private getBit(x: number, y: number): boolean {
        return ((this.words[(x >>> 5) * this.height + y] >>> (x & 31)) & 1) !== 0;
    }

    // Sets pixels x0..x1-1 of row y.
    private setRun(x0: number, x1: number, y: number): void {
        const h = this.height, words = this.words;
        for (let s = x0 >>> 5, last = (x1 - 1) >>> 5; s <= last; s++) {
            const lo = s === x0 >>> 5 ? x0 & 31 : 0;
            const hi = s === last ? ((x1 - 1) & 31) + 1 : 32;
            words[s * h + y] |= bitRange(lo, hi);
        }
    }

    private runs(): Runs {
        return labelRuns(this.words, this.width, this.height);
    }

    // First set pixel in row-major order.
    private firstSet(): Point | null {
        const { words, height, strips } = this;
        let bestY = height, bestX = 0;
        for (let s = 0; s < strips; s++) {
            for (let y = 0, i = s * height; y < bestY; y++, i++) {
                if (words[i] !== 0) { bestY = y; bestX = (s << 5) + ctz(words[i]); break; }
            }
        }
        return bestY === height ? null : { x: bestX, y: bestY };
    }

    private checkInside(x: number | undefined, y: number | undefined): [number, number] {
        const px = checkCoord('x', x), py = checkCoord('y', y);
        if (px < 0 || py < 0 || px >= this.width || py >= this.height) {
            throw new RangeError(`Pixel (${px}, ${py}) is outside the ${this.width}x${this.height} mask.`);
        }
        return [px, py];
    }
}

// Intersection of `b` placed at (dx, dy) with `a`, into X0..X1 × Y0..Y1; false when empty.
// Comparisons run on doubles before any int32 arithmetic, so huge offsets never wrap into a false hit.
function clip(a: Mask, b: Mask, dx: number, dy: number): boolean {
    if (dx >= a.width || dy >= a.height || dx <= -b.width || dy <= -b.height) return false;
    X0 = dx > 0 ? dx : 0;
    Y0 = dy > 0 ? dy : 0;
    X1 = Math.min(a.width, dx + b.width);
    Y1 = Math.min(a.height, dy + b.height);
    return true;
}

function checkMask(m: unknown, name = 'other'): asserts m is Mask {
    if (!(m instanceof Mask)) throw new TypeError(`${name} must be a Mask, got ${describe(m)}.`);
}

function checkRGBA(data: unknown, width: number, height: number): void {
    checkSize('width', width);
    checkSize('height', height);
    if (!(data instanceof Uint8Array || data instanceof Uint8ClampedArray)) {
        throw new TypeError(`data must be a Uint8Array or Uint8ClampedArray of RGBA pixels, got ${describe(data)}.`);
    }
    if (data.length !== width * height * 4) {
        throw new RangeError(`data has length ${data.length}, expected ${width * height * 4} (${width}x${height} pixels, 4 bytes each).`);
    }
}
