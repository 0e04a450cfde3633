import { lastWordMask, popcnt } from '../base/bits.js';
import { checkCoord, checkSize, MAX_WORDS, outOfRange, typeError } from '../base/check.js';
import { contentBox } from '../kernels/content-box.js';
import { clip, JS, newClip, pick, pickFor, pickWasm, WASM, type Clip } from '../kernels/kernels.js';
import { buffer, buffers, generation, K, wasmOn } from '../kernels/memory.js';
import { allocMask, freeMask, holdMask, noteJsMask, type MaskHolding } from '../kernels/storage.js';
import {
    checkRGBA,
    colorKeyOf,
    thresholdOf,
    toleranceOf,
    type ColorKey,
    type ColorKeyOptions,
    type RGBAColors,
    type ThresholdOptions
} from './rgba.js';
import { textRows, textToWords, wordsToText } from './text.js';
import type { Point, Rect, RGBAData } from '../base/types.js';

// Re-exported for the importers of mask.ts.
export type { Point, Rect, RGBAData };

export type { ColorKey, ColorKeyOptions, RGBAColors, ThresholdOptions };

// Small masks on the JS heap take their words from shared 64 KiB slabs: a typed array over V8's
// on-heap limit (64 bytes) gets its own backing store, over ten times the cost of a view into a slab.
// A slab stays alive while any mask in it does (at most 64 KiB per live small mask, in the worst case).
const SLAB_WORDS = 16384,
    SLAB_MAX_WORDS = 512;
let slab: ArrayBuffer | null = null,
    slabUsed = SLAB_WORDS;

function allocWords(n: number): Uint32Array {
    if (n > SLAB_MAX_WORDS) return new Uint32Array(n);
    if (slabUsed + n > SLAB_WORDS) {
        slab = new ArrayBuffer(SLAB_WORDS * 4);
        slabUsed = 0;
    }
    const words = new Uint32Array(slab as ArrayBuffer, slabUsed * 4, n);
    slabUsed += n;
    return words;
}

const NO_WORDS = new Uint32Array(0);
const DISPOSED = -1,
    STALE = -2;

/** @internal How the constructor gets its words: adopted ones (Mask.fromWords), or fresh ones it need not zero. */
export class Init {
    constructor(readonly words: Uint32Array | null) {}
}
/** @internal A fresh mask every word of which the caller writes (overlapMask, clone, fromRGBA): no zeroing. */
export const UNZEROED = new Init(null);

// Whether `m` is a Mask: a brand check (the object was built by Mask's constructor), set in the class's
// static block. `instanceof Mask` compiles to a generic builtin call in the pair calls' optimized code,
// several times the cost of the whole call when it rejects a far pair.
let isMask: (m: unknown) => m is Mask;

/** @internal Whether `m` is a Mask, by the brand check (for callers that must not throw, unlike checkMask). */
export function isMaskObject(m: unknown): m is Mask {
    return isMask(m);
}

// Masks that are part of another object (a CollisionRaster's planes), with what dispose() should say:
// disposing one would break its owner for good.
const owners = new WeakMap<Mask, string>();

/** @internal Makes `m.dispose()` throw `message` (the mask belongs to another object that keeps using it). */
export function keepAlive(m: Mask, message: string): void {
    owners.set(m, message);
}

// Clip scratch of the pair calls (each fills it, then passes it to the kernel; nothing reads it later).
const C: Clip = newClip();

// Pair queries on clips of at least this many words clip to the boxes: below it a scan ends about as soon.
const BOX_MIN_WORDS = 256;

// Narrows clip c to box b (x0, y0, x1, y1) placed at (dx, dy), when b is known. The top moves down by whole
// blocks of 4 rows: a start off the words' 16-byte alignment made full scans 10% slower.
function narrow(c: Clip, b: Int32Array | null, dx: number, dy: number): void {
    if (b === null) return;
    c.x0 = Math.max(c.x0, b[0] + dx);
    c.y0 += Math.max(0, b[1] + dy - c.y0) & ~3;
    c.x1 = Math.min(c.x1, b[2] + dx);
    c.y1 = Math.min(c.y1, b[3] + dy);
}

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
    // `declare`: the constructor's first assignments create these, so V8 keeps them as constant small-integer
    // fields; class fields would start as undefined and be re-typed, every read checking for a number.
    /** Width in pixels. */
    declare readonly width: number;
    /** Height in pixels. */
    declare readonly height: number;
    /** Number of 32-pixel strips, `ceil(width / 32)`. */
    declare readonly strips: number;
    // Byte offset of the words in WebAssembly memory; −1 for words on the JS heap (and once disposed).
    #ptr = -1;
    // What the storage needs the mask to hold: a small mask's slab token (the slab lives while the mask
    // does), a larger one's block, or the count of a JS-heap mask; null for other JS-heap masks.
    #ref: MaskHolding | null = null;
    #words: Uint32Array = NO_WORDS;
    // The memory generation #words was made in (a plain WebAssembly memory detaches its views when it grows);
    // STALE before the first view, DISPOSED once disposed.
    #gen: number = STALE;
    // What the mask knows of the box of its set pixels, #bounds (see contentBox): 0 nothing (no large query
    // since its last change), 1 asked once (the next large query computes it, so a mask changed before every
    // query never pays for it), 2 the box, 3 known to be most of the mask; −1 never (words adopted by
    // Mask.fromWords, or read through `words`: either may be written unseen).
    #box = 0;
    #bounds: Int32Array | null = null;

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
            throw outOfRange(
                `Mask ${width}x${height} needs ${n} words, more than the ${MAX_WORDS} allowed; split it into tiles.`
            );
        }
        this.width = width;
        this.height = height;
        this.strips = strips;
        this.#gen = generation;
        // typeof, not instanceof Init: instanceof is a generic builtin call, a fifth of a small mask's creation.
        if (typeof filled === 'object' && filled.words !== null) {
            this.#words = filled.words;
            this.#box = -1;
            if (wasmOn) this.#ref = noteJsMask(this);
            return;
        }
        if (n === 0) {
            this.#words = new Uint32Array(0);
            return;
        }
        if (wasmOn) {
            const p = allocMask(n, typeof filled !== 'object');
            if (p >= 0) {
                this.#ptr = p;
                this.#ref = holdMask(this, n, p);
                // The view is made on first use of `words`: a mask only the kernels touch (an overlapMask result
                // counted, tested or disposed) never needs one.
                this.#words = NO_WORDS;
                this.#gen = STALE;
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
     * (`words.slice()`) to keep or transfer it, and keep the mask alive while you use it. Reading it switches
     * off, for good, the box of set pixels that large pair queries on this mask clip to: writes through the
     * view are unseen, so the mask stops trusting what it knew of its pixels.
     */
    get words(): Uint32Array {
        this.#box = -1;
        return this._words;
    }

    /**
     * @internal The words, for reading (kernels, rays, queries): unlike `words`, keeps what the mask knows of its
     * pixels.
     */
    get _words(): Uint32Array {
        if (this.#gen !== generation) this.#refresh();
        // An adopted array whose buffer was transferred (postMessage, structuredClone) reads as empty: an
        // Error rather than a mask that silently lost its pixels.
        if (this.#words.length === 0 && this.height !== 0 && this.strips !== 0) {
            throw new Error(
                `${this} lost its words: the array given to Mask.fromWords was detached (its buffer was transferred). Pass words.slice() to Mask.fromWords to keep a copy.`
            );
        }
        return this.#words;
    }

    /** @internal Tells the mask its pixels changed: every kernel and method that writes a mask calls it. */
    _touch(): void {
        if (this.#box > 0) this.#box = 0;
    }

    // A new view after the WebAssembly memory grew (the old one is detached); throws once disposed.
    #refresh(): void {
        if (this.#gen === DISPOSED)
            throw new Error(
                `${this} was disposed; create a new Mask (or stop calling dispose() on masks still in use).`
            );
        if (this._ptr >= 0) this.#words = new Uint32Array(buffer, this._ptr, this.strips * this.height);
        this.#gen = generation;
    }

    /**
     * Returns the mask's memory at once (WebAssembly memory is otherwise returned only after garbage
     * collection). Idempotent; any later use of the mask throws an Error.
     */
    dispose(): void {
        if (this.#gen === DISPOSED) return;
        const owned = owners.get(this);
        if (owned !== undefined) throw new Error(owned);
        if (this.#ref !== null) freeMask(this.#ref, this.strips * this.height);
        this.#ptr = -1;
        this.#ref = null;
        this.#words = NO_WORDS;
        this.#gen = DISPOSED;
    }

    /** Whether {@link dispose} was called. */
    get disposed(): boolean {
        return this.#gen === DISPOSED;
    }

    /** Builds a mask from RGBA pixels: a bit is set where alpha > `threshold` (pygame's rule). */
    static fromRGBA(data: RGBAData, width: number, height: number, options: ThresholdOptions = {}): Mask {
        checkRGBA(data, width, height);
        return fromPixels(data, width, height, 0, 0, thresholdOf(options));
    }

    /** Builds a mask from a canvas `ImageData` (or any `{ data, width, height }`), alpha > `threshold`. */
    static fromImageData(
        image: { readonly data: RGBAData; readonly width: number; readonly height: number },
        options: ThresholdOptions = {}
    ): Mask {
        // The type tests of this file are written out (with base/'s message): import { Mask } stays within 12 KB.
        if (image === null || typeof image !== 'object') throw typeError('image', 'an ImageData-like object', image);
        return Mask.fromRGBA(image.data, image.width, image.height, options);
    }

    /**
     * Builds a mask from RGBA pixels: a bit is set where some RGB channel differs from `key` by more than `tolerance`;
     * alpha is ignored.
     */
    static fromColorKey(
        data: RGBAData,
        width: number,
        height: number,
        key: ColorKey,
        options: ColorKeyOptions = {}
    ): Mask {
        checkRGBA(data, width, height);
        return fromPixels(data, width, height, 1, colorKeyOf(key), toleranceOf(options));
    }

    /** Parses rows of `#` (set) and `.` (clear); blank lines and surrounding spaces are ignored. */
    static fromText(text: string): Mask {
        const rows = textRows(text);
        const m = new Mask(rows.length === 0 ? 0 : rows[0].length, rows.length);
        textToWords(rows, m._words);
        return m;
    }

    /**
     * Wraps existing packed words (strip layout, see the class comment) without copying them; words that
     * are a view of hitmask's WebAssembly memory (another mask's `words`, taken before or after the memory
     * grew) are always copied, so the new mask never shares bytes a later mask may be given. Transferring
     * the array's buffer afterwards makes the mask throw on use.
     */
    static fromWords(width: number, height: number, words: Uint32Array): Mask {
        checkSize('Mask width', width);
        checkSize('Mask height', height);
        if (!(words instanceof Uint32Array)) throw typeError('words', 'a Uint32Array', words);
        const strips = (width + 31) >>> 5;
        if (strips * height > MAX_WORDS) {
            throw outOfRange(
                `Mask ${width}x${height} needs ${strips * height} words, more than the ${MAX_WORDS} allowed; split it into tiles.`
            );
        }
        if (words.length !== strips * height) {
            throw outOfRange(
                `words has length ${words.length}, expected ${strips * height} for a ${width}x${height} mask.`
            );
        }
        const edge = lastWordMask(width);
        if (edge !== 0xffffffff) {
            for (let i = (strips - 1) * height; i < words.length; i++) {
                if ((words[i] & ~edge) !== 0)
                    throw outOfRange(
                        `words has bits set past width ${width} in row ${i - (strips - 1) * height}; ` +
                            'padding bits stay zero.'
                    );
            }
        }
        // A view of any buffer the WebAssembly memory has had is copied: a plain memory detaches it on growth
        // (the mask would go empty), and a shared one keeps it over bytes that dispose() hands to other masks.
        return new Mask(width, height, new Init(buffers.has(words.buffer) ? words.slice() : words));
    }

    /**
     * Rows of `#` and `.` joined by newlines (for tests and debugging: at most 2^27 characters, a RangeError beyond).
     */
    toText(): string {
        this.#live();
        return wordsToText(this._words, this.width, this.height);
    }

    /**
     * Whether pixel (x, y) is set; coordinates are floored, and anything outside the mask is clear. The pixel
     * accessor (pygame's `get_at`, paired with {@link set}); a CollisionLayer's `hitTest(x, y)` answers the same
     * question for a layer's solid pixels.
     */
    get(x: number, y: number): boolean {
        x = checkCoord('x', x);
        y = checkCoord('y', y);
        return x >= 0 && y >= 0 && x < this.width && y < this.height && getBit(this, x, y);
    }

    /** Sets (or with `on = false` clears) pixel (x, y); coordinates are floored and must lie inside the mask. */
    set(x: number, y: number, on = true): this {
        x = checkCoord('x', x);
        y = checkCoord('y', y);
        if (x < 0 || y < 0 || x >= this.width || y >= this.height) {
            throw outOfRange(`Pixel (${x}, ${y}) is outside the ${this.width}x${this.height} mask.`);
        }
        const i = (x >>> 5) * this.height + y,
            words = this._words;
        this._touch();
        if (on) words[i] |= 1 << (x & 31);
        else words[i] &= ~(1 << (x & 31));
        return this;
    }

    /** Sets every pixel. */
    fill(): this {
        this.#live();
        const { height, strips } = this,
            k = pickFor(this, null, strips * height),
            last = (strips - 1) * height;
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
        const { _words: words, height, strips } = this;
        this._touch();
        if (strips === 0) return this;
        const edge = lastWordMask(this.width),
            last = (strips - 1) * height;
        for (let i = 0; i < last; i++) words[i] = ~words[i];
        for (let i = last; i < words.length; i++) words[i] = ~words[i] & edge;
        return this;
    }

    /** Number of set pixels. */
    count(): number {
        const words = this._words;
        let n = 0;
        for (let i = 0; i < words.length; i++) n += popcnt(words[i]);
        return n;
    }

    /** An independent copy. */
    clone(): Mask {
        this.#live();
        const m = new Mask(this.width, this.height, UNZEROED);
        if (m._ptr >= 0 && this._ptr >= 0) K.copy32(m._ptr, this._ptr, m.strips * m.height);
        else m._words.set(this._words);
        return m;
    }

    /** Whether `other` has the same size and the same pixels. */
    equals(other: Mask): boolean {
        checkMask(other);
        if (other.width !== this.width || other.height !== this.height) return false;
        const a = this._words,
            b = other._words;
        for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
        return true;
    }

    /**
     * The first pixel set in both masks, in row-major order (top row first, then leftmost), in this
     * mask's coordinates, with `other`'s top-left at (dx, dy); `null` when they do not overlap.
     * Offsets are floored. With `out`, the point is written there and `out` is returned.
     */
    overlap(other: Mask, dx: number, dy: number, out?: Point): Point | null {
        if (out === undefined) out = { x: 0, y: 0 };
        else if (out === null || typeof out !== 'object') throw typeError('out', 'a { x, y } object', out);
        if (!this.#pairClip(other, dx, dy)) return null;
        return (pickWasm(this, other) ? WASM.first(this, other, C, out) : JS.first(this, other, C, out)) ? out : null;
    }

    /**
     * Whether any pixel is set in both masks with `other`'s top-left at (dx, dy); stops at the first overlapping word.
     */
    overlaps(other: Mask, dx: number, dy: number): boolean {
        if (!this.#pairClip(other, dx, dy)) return false;
        return pickWasm(this, other) ? WASM.any(this, other, C) : JS.any(this, other, C);
    }

    /** Number of pixels set in both masks with `other`'s top-left at (dx, dy). */
    overlapArea(other: Mask, dx: number, dy: number): number {
        if (!this.#pairClip(other, dx, dy)) return 0;
        return pickWasm(this, other) ? WASM.area(this, other, C) : JS.area(this, other, C);
    }

    /**
     * The pixels set in both masks, `other`'s top-left at (dx, dy), as a mask of this mask's size: a new
     * one, or `out` (same size as this mask) overwritten and returned.
     */
    overlapMask(other: Mask, dx: number, dy: number, out?: Mask): Mask {
        if (out === undefined) {
            const hit = this.#pairClip(other, dx, dy);
            // Every word of the new mask is written below: the clip's by the kernel, the rest zeroed, so it needs no
            // clearing first.
            const m = new Mask(this.width, this.height, UNZEROED);
            this.#and(other, m, hit);
            return m;
        }
        checkMask(out, 'out');
        if (out.width !== this.width || out.height !== this.height) {
            throw outOfRange(
                `out is ${out.width}x${out.height}, expected ${this.width}x${this.height} (this mask's size).`
            );
        }
        const hit = this.#pairClip(other, dx, dy);
        if (out === other) {
            // The kernel would overwrite `other` while still reading it shifted: go through a temporary.
            const t = this.overlapMask(other, dx, dy);
            out.clear().draw(t, 0, 0);
            t.dispose();
            return out;
        }
        this.#and(other, out, hit);
        return out;
    }

    // out = this & other on the clip in C (when `hit`), every other word of out zeroed (by the kernel). The
    // kernel writes all of out, so out's size picks it: a small clip in a large mask takes one WebAssembly call.
    #and(other: Mask, out: Mask, hit: boolean): void {
        const n = out.strips * out.height;
        if (!hit) {
            pickFor(out, null, n).fill(out, 0, n, 0);
            return;
        }
        (out._ptr >= 0 ? pickFor(this, other, n) : JS).and(this, other, C, out);
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
        if (erase) this.erase(copy, dx, dy);
        else this.draw(copy, dx, dy);
        copy.dispose();
        return this;
    }

    // Checks a pair call's arguments and clips `other` at (dx, dy) into C; false when they do not meet.
    // Live masks and int32 offsets (nearly every call) pass one test, a brand check for `other` included
    // (`instanceof Mask` is a generic builtin call inside the class); anything else goes through the
    // checks one by one, which throw in their order or floor the offsets.
    #clip(other: Mask, dx: number, dy: number): boolean {
        if (this.#gen === DISPOSED || !isMask(other) || other.#gen === DISPOSED || (dx | 0) !== dx || (dy | 0) !== dy) {
            this.#live();
            checkMask(other);
            dx = checkCoord('dx', dx);
            dy = checkCoord('dy', dy);
        }
        return clip(this.width, this.height, other.width, other.height, dx, dy, C);
    }

    // #clip for the pair queries, then, on a large clip, C narrowed to the boxes of both masks' set pixels
    // where they are known (the kernels scan only where both have pixels); false when nothing can overlap.
    #pairClip(other: Mask, dx: number, dy: number): boolean {
        const c = C;
        if (!this.#clip(other, dx, dy)) return false;
        // Both boxes known to be most of their masks (3): nothing to narrow, and no call to find that out.
        if ((c.y1 - c.y0) * (((c.x1 - 1) >> 5) - (c.x0 >> 5) + 1) < BOX_MIN_WORDS || this.#box + other.#box === 6)
            return true;
        narrow(c, this.#boxOf(), 0, 0);
        narrow(c, other.#boxOf(), c.dx, c.dy);
        return c.x0 < c.x1 && c.y0 < c.y1;
    }

    // The box of the set pixels (see contentBox), or null while unknown or when it is most of the mask (3):
    // computed on the second large query since the last change.
    #boxOf(): Int32Array | null {
        if (this.#box === 1) {
            const b = contentBox(this._words, this.height, this.strips, (this.#bounds ??= new Int32Array(4)));
            // A box of at least 7/8 of the words saves less than narrowing to it costs (5 ns).
            this.#box = (b[2] - b[0]) * (b[3] - b[1]) < this.strips * this.height * 28 ? 2 : 3;
        } else if (this.#box === 0) this.#box = 1;
        return this.#box === 2 ? this.#bounds : null;
    }

    // Throws once disposed.
    #live(): void {
        if (this.#gen === DISPOSED)
            throw new Error(
                `${this} was disposed; create a new Mask (or stop calling dispose() on masks still in use).`
            );
    }

    /** `<Mask WxH>`. */
    toString(): string {
        return `<Mask ${this.width}x${this.height}>`;
    }

    static {
        isMask = (m: unknown): m is Mask => typeof m === 'object' && m !== null && #gen in m;
    }
}

// fromRGBA (op 0, threshold t) and fromColorKey (op 1, key 0xBBGGRR, tolerance t), arguments checked: the
// kernel writes every word, the WebAssembly one straight into the mask's words in its memory (from
// wasmMinWords full words of pixels); JS when the WebAssembly kernel has no scratch memory left.
function fromPixels(data: RGBAData, width: number, height: number, op: number, key: number, t: number): Mask {
    const m = new Mask(width, height, UNZEROED);
    if (m.strips * height === 0) return m;
    if (!pickFor(m, null, (width * height) >> 5).rgba(m, data, op, key, t)) JS.rgba(m, data, op, key, t);
    return m;
}

/**
 * @internal Whether `m` is a Mask that was not disposed: {@link checkMask}'s test, for loops that name the argument
 * only on failure.
 */
export function isLiveMask(m: unknown): m is Mask {
    return isMask(m) && !m.disposed;
}

/**
 * @internal The one check of a mask argument: a TypeError unless `m` is a Mask, an Error once disposed; `name` names it
 * in the message.
 */
export function checkMask(m: unknown, name = 'other'): asserts m is Mask {
    if (!isMask(m)) throw typeError(name, 'a Mask', m);
    if (m.disposed)
        throw new Error(
            `${name} (${m}) was disposed; create a new Mask (or stop calling dispose() on masks still in use).`
        );
}

/** @internal Unchecked bit read; callers guarantee 0 <= x < width, 0 <= y < height. */
export function getBit(m: Mask, x: number, y: number): boolean {
    return ((m._words[(x >>> 5) * m.height + y] >>> (x & 31)) & 1) !== 0;
}
