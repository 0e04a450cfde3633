import { bitIndexSum, bitRange, ctz, lastWordMask, msb, popcnt, rev32 } from './bits.js';
import { checkCoord, checkInt, checkSize, describe, MAX_WORDS } from './check.js';
import { labelRuns, traceOutline, type Runs } from './components.js';
import { clearOutside, clip, JS, newClip, overlapsBatch, pick, pickFor, type BatchRunner, type Clip } from './kernels.js';
import type { ThreadPool } from './threads.js';
import { allocMask, buffer, freeMask, generation, holdMask, K, noteJsMask, wasmOn, type MaskHolding } from './wasm/simd.js';
import { castMask, newRayHit, type RayHit } from './ray.js';

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

// Small masks on the JS heap take their words from shared 64 KiB slabs: a typed array over V8's
// on-heap limit (64 bytes) gets its own backing store, ~300-550 ns each, while a view into a slab costs
// ~20 ns. A slab stays alive while any mask in it does (at most 64 KiB per live small mask, in the worst case).
const SLAB_WORDS = 16384, SLAB_MAX_WORDS = 512;
let slab: ArrayBuffer | null = null, slabUsed = SLAB_WORDS;

function allocWords(n: number): Uint32Array {
    if (n > SLAB_MAX_WORDS) return new Uint32Array(n);
    if (slabUsed + n > SLAB_WORDS) { slab = new ArrayBuffer(SLAB_WORDS * 4); slabUsed = 0; }
    const words = new Uint32Array(slab as ArrayBuffer, slabUsed * 4, n);
    slabUsed += n;
    return words;
}

const NO_WORDS = new Uint32Array(0);

// Longest toText(): 2^27 characters (an 11,000² mask), a quarter of V8's string limit.
const MAX_TEXT = 2 ** 27;

/** @internal How the constructor gets its words: adopted ones (Mask.fromWords), or fresh ones it need not zero. */
export class Init {
    constructor(readonly words: Uint32Array | null) {}
}
// A fresh mask every word of which the caller writes (overlapMask, clone, fromRGBA): no zeroing.
const UNZEROED = new Init(null);

// Clip scratch of the pair calls (each fills it, then passes it to the kernel; nothing reads it later).
const C: Clip = newClip();

/**
 * A 1-bit-per-pixel collision mask.
 *
 * Storage is pygame's strip layout with 32-bit words: the word holding pixel (x, y) is
 * `words[(x >>> 5) * height + y]`, at bit `x & 31` (pixel x = 0 is the least-significant bit).
 * Each 32-pixel-wide vertical strip is `height` consecutive words, so a vertical offset is
 * just a start index and overlap loops walk memory linearly. Bits past `width` are always zero.
 *
 * Words live in WebAssembly memory while the WebAssembly kernels are selected (see `kernelStats()`).
 * Call {@link dispose} when a mask is no longer needed; otherwise its memory returns after garbage
 * collection, once the program yields to the event loop.
 */
export class Mask {
    /** Width in pixels. */
    readonly width: number;
    /** Height in pixels. */
    readonly height: number;
    /** Number of 32-pixel strips, `ceil(width / 32)`. */
    readonly strips: number;
    // Byte offset of the words in WebAssembly memory; −1 for words on the JS heap (and once disposed).
    #ptr = -1;
    // What the storage needs the mask to hold: a small mask's slab token (the slab lives while the mask
    // does), a larger one's block, or the count of a JS-heap mask; null for other JS-heap masks.
    #ref: MaskHolding | null = null;
    #words: Uint32Array;
    // The memory generation #words was made in (a plain WebAssembly memory detaches its views when it grows); −1 once disposed.
    #gen: number;

    /** Creates an empty (or, with `filled`, a full) mask of `width` × `height` pixels. */
    constructor(width: number, height: number, filled?: boolean);
    /** @internal */
    constructor(width: number, height: number, filled: boolean | Init);
    constructor(width: number, height: number, filled: boolean | Init = false) {
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
        this.#gen = generation;
        // typeof, not instanceof Init: 12 ns less per new Mask (55 -> 43 ns for 32², JS kernels).
        if (typeof filled === 'object' && filled.words !== null) {
            this.#words = filled.words;
            if (wasmOn) this.#ref = noteJsMask(this);
            return;
        }
        if (n === 0) {
            this.#words = new Uint32Array(0);
            return;
        }
        if (wasmOn) {
            const p = allocMask(n, filled !== UNZEROED);
            if (p >= 0) {
                this.#ptr = p;
                this.#ref = holdMask(this, n, p);
                this.#words = new Uint32Array(buffer, p, n);
                if (filled === true) this.fill();
                return;
            }
            this.#ref = noteJsMask(this);
        }
        this.#words = allocWords(n);
        if (filled === true) this.fill();
    }

    /** @internal Byte offset of the words in WebAssembly memory; −1 for words on the JS heap (and once disposed). */
    get _ptr(): number {
        return this.#ptr;
    }

    /**
     * Packed bits, `strips * height` words; see the class comment for the layout. A view into shared
     * memory: read it again after creating masks (growing WebAssembly memory may replace it), copy it
     * (`words.slice()`) to keep or transfer it, and keep the mask alive while you use it.
     */
    get words(): Uint32Array {
        if (this.#gen !== generation) this.#refresh();
        return this.#words;
    }

    // A new view after the WebAssembly memory grew (the old one is detached); throws once disposed.
    #refresh(): void {
        if (this.#gen < 0) throw new Error(`${this} was disposed; create a new Mask (or stop calling dispose() on masks still in use).`);
        if (this._ptr >= 0) this.#words = new Uint32Array(buffer, this._ptr, this.strips * this.height);
        this.#gen = generation;
    }

    /**
     * Returns the mask's memory at once (WebAssembly memory is otherwise returned only after garbage
     * collection). Idempotent; any later use of the mask throws an Error.
     */
    dispose(): void {
        if (this.#gen < 0) return;
        if (this.#ref !== null) freeMask(this.#ref, this.strips * this.height);
        this.#ptr = -1;
        this.#ref = null;
        this.#words = NO_WORDS;
        this.#gen = -1;
    }

    /** Whether {@link dispose} was called. */
    get disposed(): boolean {
        return this.#gen < 0;
    }

    /** Builds a mask from RGBA pixels: a bit is set where alpha > `threshold` (pygame's rule). */
    static fromRGBA(data: RGBAData, width: number, height: number, options: ThresholdOptions = {}): Mask {
        checkRGBA(data, width, height);
        const t = checkInt('threshold', options.threshold ?? 127, 0, 255);
        return Mask.#fromPixels(data, width, height, 0, 0, t);
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
        return Mask.#fromPixels(data, width, height, 1, kr | (kg << 8) | (kb << 16), tol);
    }

    // fromRGBA (op 0, threshold t) and fromColorKey (op 1, key 0xBBGGRR, tolerance t): the kernel writes
    // every word. WebAssembly from wasmMinWords full words of pixels (break-even: 16x16 px ran 0.96x the
    // JS time, 8x8 1.3x, 32x16 0.58x); JS when the WebAssembly kernel has no scratch memory left.
    static #fromPixels(data: RGBAData, width: number, height: number, op: number, key: number, t: number): Mask {
        const m = new Mask(width, height, UNZEROED);
        if (m.strips * height === 0) return m;
        if (!pickFor(m, null, width * height >> 5).rgba(m, data, op, key, t)) JS.rgba(m, data, op, key, t);
        return m;
    }

    /** Parses rows of `#` (set) and `.` (clear); blank lines and surrounding spaces are ignored. */
    static fromText(text: string): Mask {
        if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describe(text)}.`);
        const rows = text.split('\n').map(r => r.trim()).filter(r => r.length > 0);
        const width = rows.length ? rows[0].length : 0;
        for (let y = 0; y < rows.length; y++) {
            if (rows[y].length !== width) throw new Error(`Mask text row ${y} is ${rows[y].length} characters wide, expected ${width}.`);
        }
        const m = new Mask(width, rows.length), words = m.words;
        for (let y = 0; y < rows.length; y++) {
            const row = rows[y];
            for (let x = 0; x < width; x++) {
                const c = row[x];
                if (c === '#') words[(x >>> 5) * m.height + y] |= 1 << (x & 31);
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
        if (strips * height > MAX_WORDS) {
            throw new RangeError(`Mask ${width}x${height} needs ${strips * height} words, more than the ${MAX_WORDS} allowed; split it into tiles.`);
        }
        if (words.length !== strips * height) {
            throw new RangeError(`words has length ${words.length}, expected ${strips * height} for a ${width}x${height} mask.`);
        }
        const edge = lastWordMask(width);
        if (edge !== 0xffffffff) {
            for (let i = (strips - 1) * height; i < words.length; i++) {
                if ((words[i] & ~edge) !== 0) throw new RangeError(`words has bits set past width ${width} in row ${i - (strips - 1) * height}; padding bits must be zero.`);
            }
        }
        return new Mask(width, height, new Init(words));
    }

    /** Rows of `#` and `.` joined by newlines (for tests and debugging: at most 2^27 characters, a RangeError beyond). */
    toText(): string {
        this.#live();
        const { width, height } = this, chars = Math.max(0, (width + 1) * height - 1);
        // A string past V8's limit (2^29 − 24 characters), or an array of a row string per row of a very
        // tall mask, aborts the process instead of throwing: refuse early, well below both.
        if (chars > MAX_TEXT) {
            throw new RangeError(`Mask ${width}x${height} as text is ${chars} characters, more than the ${MAX_TEXT} allowed; crop() a part of it first.`);
        }
        // One byte per character, decoded once: no per-row strings.
        const bytes = new Uint8Array(chars), words = this.words;
        for (let y = 0, p = 0; y < height; y++, p++) {
            for (let x = 0; x < width; x++, p++) bytes[p] = (words[(x >>> 5) * height + y] >>> (x & 31)) & 1 ? 35 : 46;
            if (p < chars) bytes[p] = 10;
        }
        return new TextDecoder('latin1').decode(bytes);
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
        this.#live();
        const { height, strips } = this, k = pickFor(this, null, strips * height), last = (strips - 1) * height;
        if (strips === 0) return this;
        k.fill(this, 0, last, -1);
        k.fill(this, last, last + height, lastWordMask(this.width));
        return this;
    }

    /** Clears every pixel. */
    clear(): this {
        this.#live();
        pickFor(this, null, this.strips * this.height).fill(this, 0, this.strips * this.height, 0);
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
        this.#live();
        const m = new Mask(this.width, this.height, UNZEROED);
        if (m._ptr >= 0 && this._ptr >= 0) K.copy32(m._ptr, this._ptr, m.strips * m.height);
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
        if (out == null || typeof out !== 'object') throw new TypeError(`out must be a { x, y } object, got ${describe(out)}.`);
        if (!this.#clip(other, dx, dy)) return false;
        return pick(this, other, C).first(this, other, C, out);
    }

    /** Whether any pixel is set in both masks with `other`'s top-left at (dx, dy); stops at the first overlapping word. */
    overlaps(other: Mask, dx: number, dy: number): boolean {
        return this.#clip(other, dx, dy) && pick(this, other, C).any(this, other, C);
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
        if (threads !== null && !isRunner(threads)) throw new TypeError(`threads must be a ThreadPool or null, got ${describe(threads)}.`);
        const nm = masks.length;
        let work = 0;
        for (let k = 0, p = 0; k < count; k++, p += 4) {
            const ia = pairs[p], ib = pairs[p + 1];
            if (!(ia >= 0 && ia < nm && ib >= 0 && ib < nm)) throw new RangeError(`pairs[${p}..${p + 1}] = (${ia}, ${ib}) index masks, which has length ${nm}.`);
            // The names are built only on failure: two template strings per pair cost more than the test.
            if (!(masks[ia] instanceof Mask) || masks[ia].disposed) checkMask(masks[ia], `masks[${ia}]`);
            if (!(masks[ib] instanceof Mask) || masks[ib].disposed) checkMask(masks[ib], `masks[${ib}]`);
            // Words of the boxes' intersection (as the World estimates it), to decide whether threads pay.
            const a = masks[ia], b = masks[ib], dx = pairs[p + 2], dy = pairs[p + 3];
            const ow = Math.min(a.width, dx + b.width) - Math.max(0, dx), oh = Math.min(a.height, dy + b.height) - Math.max(0, dy);
            if (ow > 0 && oh > 0) work += oh * ((ow + 63) >> 5);
        }
        return overlapsBatch(masks, pairs, out, count, threads as BatchRunner | null, work);
    }

    /** Number of pixels set in both masks with `other`'s top-left at (dx, dy). */
    overlapArea(other: Mask, dx: number, dy: number): number {
        return this.#clip(other, dx, dy) ? pick(this, other, C).area(this, other, C) : 0;
    }

    /** A new mask of this mask's size holding the pixels set in both masks, `other`'s top-left at (dx, dy). */
    overlapMask(other: Mask, dx: number, dy: number): Mask {
        const hit = this.#clip(other, dx, dy);
        // Every word of the new mask is written below: the clip's by the kernel, the rest zeroed, so it needs no clearing first.
        const out = new Mask(this.width, this.height, UNZEROED);
        this.#and(other, out, hit);
        return out;
    }

    /** Allocation-free {@link overlapMask}: overwrites `out` (same size as this mask) with the overlap. */
    overlapMaskInto(other: Mask, dx: number, dy: number, out: Mask): Mask {
        checkMask(out, 'out');
        if (out.width !== this.width || out.height !== this.height) {
            throw new RangeError(`out is ${out.width}x${out.height}, expected ${this.width}x${this.height} (this mask's size).`);
        }
        const hit = this.#clip(other, dx, dy);
        if (out === other) {
            // The kernel would overwrite `other` while still reading it shifted: go through a temporary.
            const t = this.overlapMask(other, dx, dy);
            if (out._ptr >= 0 && t._ptr >= 0) K.copy32(out._ptr, t._ptr, out.strips * out.height);
            else out.words.set(t.words);
            t.dispose();
            return out;
        }
        this.#and(other, out, hit);
        return out;
    }

    // out = this & other on the clip in C (when `hit`), every other word of out zeroed.
    #and(other: Mask, out: Mask, hit: boolean): void {
        if (!hit) { pickFor(out, null, out.strips * out.height).fill(out, 0, out.strips * out.height, 0); return; }
        const k = out._ptr >= 0 ? pick(this, other, C) : JS;
        k.and(this, other, C, out);
        clearOutside(k, out, C);
    }

    /** ORs `other` into this mask with its top-left at (dx, dy), clipped to this mask. */
    draw(other: Mask, dx: number, dy: number): this {
        if (!this.#clip(other, dx, dy)) return this;
        if (other === this) return this.#selfOp(dx, dy, false);
        pick(this, other, C).or(this, other, C);
        return this;
    }

    /** Clears the pixels of this mask under `other`'s set pixels (AND NOT), `other`'s top-left at (dx, dy). */
    erase(other: Mask, dx: number, dy: number): this {
        if (!this.#clip(other, dx, dy)) return this;
        if (other === this) return this.#selfOp(dx, dy, true);
        pick(this, other, C).andNot(this, other, C);
        return this;
    }

    // draw/erase of a mask onto itself uses the mask as it was before the call (pygame's result): the
    // kernels would otherwise read rows they have already changed.
    #selfOp(dx: number, dy: number, erase: boolean): this {
        const copy = this.clone();
        clip(this.width, this.height, copy.width, copy.height, Math.floor(dx), Math.floor(dy), C);
        const k = pick(this, copy, C);
        if (erase) k.andNot(this, copy, C);
        else k.or(this, copy, C);
        copy.dispose();
        return this;
    }

    // Checks a pair call's arguments and clips `other` at (dx, dy) into C; false when they do not meet.
    #clip(other: Mask, dx: number, dy: number): boolean {
        this.#live();
        checkMask(other);
        dx = checkCoord('dx', dx);
        dy = checkCoord('dy', dy);
        return clip(this.width, this.height, other.width, other.height, dx, dy, C);
    }

    // Throws once disposed.
    #live(): void {
        if (this.#gen < 0) throw new Error(`${this} was disposed; create a new Mask (or stop calling dispose() on masks still in use).`);
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

    /** The first set pixel the segment from (x0, y0) to (x1, y1) enters, or `null` (rules: docs/rays.md). */
    raycast(x0: number, y0: number, x1: number, y1: number): RayHit | null {
        const out = newRayHit();
        return this.raycastInto(x0, y0, x1, y1, out) ? out : null;
    }

    /** Allocation-free {@link raycast}: fills `out` and returns whether the segment hits a set pixel. */
    raycastInto(x0: number, y0: number, x1: number, y1: number, out: RayHit): boolean {
        this.#live();
        return castMask(this, x0, y0, x1, y1, out);
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

function checkMask(m: unknown, name = 'other'): asserts m is Mask {
    if (!(m instanceof Mask)) throw new TypeError(`${name} must be a Mask, got ${describe(m)}.`);
    if (m.disposed) throw new Error(`${name} (${m}) was disposed; create a new Mask (or stop calling dispose() on masks still in use).`);
}

function isRunner(r: unknown): r is BatchRunner {
    return r !== null && typeof r === 'object' && typeof (r as BatchRunner).run === 'function';
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
