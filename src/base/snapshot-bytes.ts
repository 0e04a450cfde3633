// Snapshot bytes: a writer and a reader of little-endian sections (a tag, a length, the data) shared by every
// part that saves its state, and the hash of those bytes. The bytes are the same on every machine and engine:
// integers and IEEE doubles in a fixed byte order, nothing that depends on object identity or hashing.

// Whether typed arrays are little-endian here (every current engine and CPU): columns are then copied with
// typed-array views instead of one DataView call per value.
const LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** @internal Appends typed sections to one growing buffer; `bytes()` returns a copy (or fills `out`). */
export class SnapshotWriter {
    #own = new Uint8Array(1024);
    #buf: Uint8Array = this.#own;
    #view: DataView = new DataView(this.#buf.buffer);
    #n = 0;

    #room(n: number): void {
        const need = this.#n + n;
        if (need <= this.#buf.length) return;
        // Out of an `out` too small: into the own buffer, grown only when it is too small itself (an own buffer
        // doubled at every call with a small `out` would soon pass every size limit).
        let b = this.#own;
        if (b === this.#buf || b.length < need) {
            let cap = Math.max(b.length, 1024);
            while (cap < need) cap *= 2;
            b = new Uint8Array(cap);
        }
        b.set(this.#buf.subarray(0, this.#n));
        this.#buf = this.#own = b;
        this.#view = new DataView(b.buffer);
    }

    /**
     * Starts over, keeping the buffer; with `into`, writes straight into it until it is full (then into a buffer of its
     * own).
     */
    reset(into?: Uint8Array): this {
        const b = into ?? this.#own;
        if (b !== this.#buf) {
            this.#buf = b;
            this.#view = new DataView(b.buffer, b.byteOffset, b.byteLength);
        }
        this.#n = 0;
        return this;
    }

    u32(v: number): this {
        this.#room(4);
        this.#view.setUint32(this.#n, v >>> 0, true);
        this.#n += 4;
        return this;
    }

    i32(v: number): this {
        this.#room(4);
        this.#view.setInt32(this.#n, v | 0, true);
        this.#n += 4;
        return this;
    }

    f64(v: number): this {
        this.#room(8);
        this.#view.setFloat64(this.#n, v, true);
        this.#n += 8;
        return this;
    }

    /** `n` values of a typed array from index `from`, as they are (little-endian on every platform). */
    i32s(a: Int32Array | Uint32Array, n = a.length, from = 0): this {
        this.#room(4 * n);
        if (LE && n > 16) this.#buf.set(new Uint8Array(a.buffer, a.byteOffset + 4 * from, 4 * n), this.#n);
        else for (let i = 0; i < n; i++) this.#view.setInt32(this.#n + 4 * i, a[from + i], true);
        this.#n += 4 * n;
        return this;
    }

    /** `n` doubles of a column, 8-byte aligned, as they are (read back with {@link SnapshotReader.columnF64}). */
    f64col(a: Float64Array, n: number): this {
        this.align8();
        this.#room(8 * n);
        if (LE && ((this.#buf.byteOffset + this.#n) & 7) === 0)
            new Float64Array(this.#buf.buffer, this.#buf.byteOffset + this.#n, n).set(a.subarray(0, n));
        else for (let i = 0; i < n; i++) this.#view.setFloat64(this.#n + 8 * i, a[i], true);
        this.#n += 8 * n;
        return this;
    }

    f64s(a: Float64Array, n = a.length): this {
        this.#room(8 * n);
        for (let i = 0; i < n; i++) this.#view.setFloat64(this.#n + 8 * i, a[i], true);
        this.#n += 8 * n;
        return this;
    }

    /** Pads with zeros to a multiple of 8 bytes, so the next column can be viewed as doubles. */
    align8(): this {
        const pad = (8 - (this.#n & 7)) & 7;
        this.#room(pad);
        this.#buf.fill(0, this.#n, this.#n + pad);
        this.#n += pad;
        return this;
    }

    /** The values a[idx[0..n)] as int32, in that order. */
    gatherI32(a: Int32Array, idx: Int32Array, n: number): this {
        this.align8();
        this.#room(4 * n);
        if (LE && ((this.#buf.byteOffset + this.#n) & 3) === 0) {
            const v = new Int32Array(this.#buf.buffer, this.#buf.byteOffset + this.#n, n);
            for (let k = 0; k < n; k++) v[k] = a[idx[k]];
        } else for (let k = 0; k < n; k++) this.#view.setInt32(this.#n + 4 * k, a[idx[k]], true);
        this.#n += 4 * n;
        return this;
    }

    /** The values a[idx[0..n)] as doubles, in that order (8-byte aligned). */
    gatherF64(a: Float64Array, idx: Int32Array, n: number): this {
        this.align8();
        this.#room(8 * n);
        if (LE && ((this.#buf.byteOffset + this.#n) & 7) === 0) {
            const v = new Float64Array(this.#buf.buffer, this.#buf.byteOffset + this.#n, n);
            for (let k = 0; k < n; k++) v[k] = a[idx[k]];
        } else for (let k = 0; k < n; k++) this.#view.setFloat64(this.#n + 8 * k, a[idx[k]], true);
        this.#n += 8 * n;
        return this;
    }

    /** Bytes written so far. */
    get length(): number {
        return this.#n;
    }

    /**
     * The bytes: into `out` when it is large enough (a view of its first `length` bytes is returned), else a new array.
     */
    bytes(out?: Uint8Array): Uint8Array {
        if (out !== undefined && out === this.#buf) return out.subarray(0, this.#n);
        if (out !== undefined && out.length >= this.#n) {
            out.set(this.#buf.subarray(0, this.#n));
            return out.subarray(0, this.#n);
        }
        return this.#buf.slice(0, this.#n);
    }

    /** The hash of the bytes written so far (see {@link hashBytes}). */
    hash(): number {
        return hashBytes(this.#buf, this.#n);
    }

    /** The checksum of the bytes written so far (see {@link sumBytes}). */
    sum(): number {
        return sumBytes(this.#buf, this.#n);
    }
}

/** @internal Reads what a {@link SnapshotWriter} wrote; every read past the end throws an Error naming `what`. */
export class SnapshotReader {
    #view: DataView;
    #n = 0;

    constructor(
        readonly bytes: Uint8Array,
        readonly what: string
    ) {
        this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }

    #need(n: number): void {
        if (this.#n + n > this.bytes.length)
            throw new Error(
                `${this.what}: the snapshot ends after ${this.bytes.length} bytes, in the middle of its data; it is truncated or not a snapshot of this kind.`
            );
    }

    u32(): number {
        this.#need(4);
        const v = this.#view.getUint32(this.#n, true);
        this.#n += 4;
        return v;
    }

    i32(): number {
        this.#need(4);
        const v = this.#view.getInt32(this.#n, true);
        this.#n += 4;
        return v;
    }

    f64(): number {
        this.#need(8);
        const v = this.#view.getFloat64(this.#n, true);
        this.#n += 8;
        return v;
    }

    /** Reads `n` int32 values into `out` from index `from`. */
    i32s(out: Int32Array | Uint32Array, n: number, from = 0): void {
        this.#need(4 * n);
        if (LE && n > 16)
            new Uint8Array(out.buffer, out.byteOffset + 4 * from, 4 * n).set(
                this.bytes.subarray(this.#n, this.#n + 4 * n)
            );
        else for (let i = 0; i < n; i++) out[from + i] = this.#view.getInt32(this.#n + 4 * i, true);
        this.#n += 4 * n;
    }

    /** Bytes read so far. */
    get offset(): number {
        return this.#n;
    }

    /** Goes back (or on) to byte `at`, to read a section again. */
    seek(at: number): void {
        this.#n = at;
    }

    f64s(out: Float64Array, n: number): void {
        this.#need(8 * n);
        for (let i = 0; i < n; i++) out[i] = this.#view.getFloat64(this.#n + 8 * i, true);
        this.#n += 8 * n;
    }

    /** Skips the zero padding {@link SnapshotWriter.align8} wrote. */
    align8(): void {
        const pad = (8 - (this.#n & 7)) & 7;
        this.#need(pad);
        this.#n += pad;
    }

    /** `n` int32 values written by `gatherI32`, into out[0..n). */
    columnI32(out: Int32Array, n: number): void {
        this.align8();
        this.#need(4 * n);
        const at = this.bytes.byteOffset + this.#n;
        if (LE && (at & 3) === 0) out.set(new Int32Array(this.bytes.buffer, at, n));
        else for (let i = 0; i < n; i++) out[i] = this.#view.getInt32(this.#n + 4 * i, true);
        this.#n += 4 * n;
    }

    /** `n` doubles written by `gatherF64`, into out[0..n). */
    columnF64(out: Float64Array, n: number): void {
        this.align8();
        this.#need(8 * n);
        const at = this.bytes.byteOffset + this.#n;
        if (LE && (at & 7) === 0) out.set(new Float64Array(this.bytes.buffer, at, n));
        else for (let i = 0; i < n; i++) out[i] = this.#view.getFloat64(this.#n + 8 * i, true);
        this.#n += 8 * n;
    }

    /** A count read as u32, refused past `max` (a corrupt count must not allocate gigabytes). */
    count(name: string, max: number): number {
        const v = this.u32();
        if (v > max)
            throw new Error(
                `${this.what}: ${name} is ${v} in the snapshot, more than the ${max} it can hold; the snapshot is corrupt.`
            );
        return v;
    }

    /** Throws unless every byte was read. */
    end(): void {
        if (this.#n !== this.bytes.length)
            throw new Error(
                `${this.what}: the snapshot has ${this.bytes.length - this.#n} bytes after its data; it is corrupt or from another version.`
            );
    }
}

// Scratch for a double's two little-endian words.
const F64 = new Float64Array(1),
    F64_WORDS = new Uint32Array(F64.buffer),
    F64_VIEW = new DataView(F64.buffer);

// {@link hashBytes} of bytes that are never written, fed word by word in their order: hashStart(length), then
// h = hashWord(h, v) or hashF64(h, v) for each value, hashEnd(h). A state hashed this way costs a read of each
// value instead of a write and a read; plain functions of h keep it in a register in the hot loops.

/** @internal The hash state before the first word of `length` bytes (a multiple of 4). */
export function hashStart(length: number): number {
    return 0x811c9dc5 ^ length;
}

/** @internal The hash state after one 32-bit little-endian word. */
export function hashWord(h: number, v: number): number {
    return Math.imul(h ^ v, 0x01000193);
}

/** @internal The hash state after a double's 8 little-endian bytes. */
export function hashF64(h: number, v: number): number {
    if (LE) {
        F64[0] = v;
        return Math.imul(Math.imul(h ^ F64_WORDS[0], 0x01000193) ^ F64_WORDS[1], 0x01000193);
    }
    F64_VIEW.setFloat64(0, v, true);
    return Math.imul(Math.imul(h ^ F64_VIEW.getUint32(0, true), 0x01000193) ^ F64_VIEW.getUint32(4, true), 0x01000193);
}

/** @internal The hash of the words fed, as {@link hashBytes} gives it for the same bytes. */
export function hashEnd(h: number): number {
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
}

/**
 * @internal A 32-bit hash of bytes 0..n−1 (FNV-1a over 32-bit words, then the tail bytes, then a final mix):
 * integer arithmetic only, so every engine and machine gives the same value.
 */
export function hashBytes(b: Uint8Array, n = b.length): number {
    let h = 0x811c9dc5 ^ n;
    const words = n >>> 2;
    if (LE && (b.byteOffset & 3) === 0) {
        // The same words read four bytes at a time.
        const w = new Int32Array(b.buffer, b.byteOffset, words);
        for (let i = 0; i < words; i++) h = Math.imul(h ^ w[i], 0x01000193);
    } else {
        for (let i = 0; i < words; i++) {
            const k = 4 * i;
            h = Math.imul(h ^ (b[k] | (b[k + 1] << 8) | (b[k + 2] << 16) | (b[k + 3] << 24)), 0x01000193);
        }
    }
    for (let k = 4 * words; k < n; k++) h = Math.imul(h ^ b[k], 0x01000193);
    return hashEnd(h);
}

/**
 * @internal A 32-bit checksum of bytes 0..n−1 for snapshots that need no cross-version hash: four FNV-1a lanes over
 * interleaved 32-bit words (4x the throughput of {@link hashBytes}, whose one chain waits on each multiply),
 * then the tail bytes, the lanes folded one after another and a final mix. Each step is a bijection of a lane's
 * state, so any change confined to one 32-bit word (every single-bit flip) changes the sum.
 */
export function sumBytes(b: Uint8Array, n = b.length): number {
    let h0 = 0x811c9dc5 ^ n,
        h1 = 0x050c5d1f,
        h2 = 0x1b873593,
        h3 = 0x6b43a9b5;
    const words = n >>> 2,
        quads = words & ~3;
    const aligned = LE && (b.byteOffset & 3) === 0,
        w = aligned ? new Int32Array(b.buffer, b.byteOffset, words) : null;
    const word = (i: number): number =>
        w !== null ? w[i] : b[4 * i] | (b[4 * i + 1] << 8) | (b[4 * i + 2] << 16) | (b[4 * i + 3] << 24);
    if (w !== null) {
        for (let i = 0; i < quads; i += 4) {
            h0 = Math.imul(h0 ^ w[i], 0x01000193);
            h1 = Math.imul(h1 ^ w[i + 1], 0x01000193);
            h2 = Math.imul(h2 ^ w[i + 2], 0x01000193);
            h3 = Math.imul(h3 ^ w[i + 3], 0x01000193);
        }
    } else {
        for (let i = 0; i < quads; i += 4) {
            h0 = Math.imul(h0 ^ word(i), 0x01000193);
            h1 = Math.imul(h1 ^ word(i + 1), 0x01000193);
            h2 = Math.imul(h2 ^ word(i + 2), 0x01000193);
            h3 = Math.imul(h3 ^ word(i + 3), 0x01000193);
        }
    }
    for (let i = quads; i < words; i++) h0 = Math.imul(h0 ^ word(i), 0x01000193);
    for (let k = 4 * words; k < n; k++) h1 = Math.imul(h1 ^ b[k], 0x01000193);
    let h = Math.imul(h0 ^ hashEnd(h1), 0x01000193);
    h = Math.imul(h ^ hashEnd(h2), 0x01000193);
    h = Math.imul(h ^ hashEnd(h3), 0x01000193);
    return hashEnd(h);
}
