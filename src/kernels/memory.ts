// The one owner of WebAssembly memory: feature detection, the kernels instance, the block allocator,
// and the switch between the WebAssembly and the pure-JS kernels. Mask storage on top of the allocator
// (slabs, tokens, finalization, counters) is in storage.ts.
//
// One memory, one kernels instance. Where SharedArrayBuffer exists (Node, cross-origin-isolated
// pages) the memory is shared and grows in place, so views stay valid and ThreadPool workers can run
// kernels on it. Elsewhere (most web pages) it is a plain memory: growing it detaches the old buffer,
// so every view is rebuilt lazily from `generation` (Mask.words is a getter that checks it).
//
// Allocation. Blocks are multiples of 16 bytes (v128 rows start aligned). Free blocks coalesce with
// their neighbours and sit in power-of-two bins (first fit in the bin of the size, then any block of a
// larger bin); a free block that ends at the top lowers the top. Memory above `clean` was never
// written, so fresh blocks are zeroed only where they lie below it. How masks are placed on these
// blocks, and freed, is storage.ts's. WebAssembly memory never shrinks. Ceiling: `limits.memoryBytes`
// (base/limits.ts); a mask that does not fit lives on the JS heap with the JS kernels.
import { typeError } from '../base/check.js';
import { MEMORY_LIMIT } from '../base/limits.js';
import { LAYOUT, LS_AT, PLAIN_AT, PLAIN_FLAG, SH_AT, WASM, WASM_KEY } from './module.js';

/** Which implementation runs the mask kernels. */
export type KernelMode = 'js' | 'wasm';

/** The exports of the kernels module (src/kernels/wasm-kernels.wat and its parts). */
export interface KernelExports {
    overlaps(
        ap: number,
        ah: number,
        bp: number,
        bh: number,
        bn: number,
        dx: number,
        dy: number,
        x0: number,
        x1: number,
        y0: number,
        y1: number
    ): number;
    first(
        ap: number,
        ah: number,
        bp: number,
        bh: number,
        bn: number,
        dx: number,
        dy: number,
        x0: number,
        x1: number,
        y0: number,
        y1: number,
        out: number
    ): number;
    area(
        ap: number,
        ah: number,
        bp: number,
        bh: number,
        bn: number,
        dx: number,
        dy: number,
        x0: number,
        x1: number,
        y0: number,
        y1: number
    ): number;
    combine(
        ap: number,
        ah: number,
        bp: number,
        bh: number,
        bn: number,
        dx: number,
        dy: number,
        x0: number,
        x1: number,
        y0: number,
        y1: number,
        cp: number,
        op: number,
        lastStrip: number,
        edge: number
    ): void;
    overlapsBatch(tp: number, n: number, rp: number): number;
    fill32(p: number, n: number, value: number): void;
    copy32(dst: number, src: number, n: number): void;
    rasterQuery(
        tp: number,
        k: number,
        ah: number,
        bp: number,
        bh: number,
        bn: number,
        dx: number,
        dy: number,
        x0: number,
        x1: number,
        y0: number,
        y1: number,
        op: number
    ): number;
    rgbaMask(
        src: number,
        stride: number,
        cols: number,
        rows: number,
        dst: number,
        ah: number,
        op: number,
        key: number,
        t: number
    ): void;
}

/** What kernelStats() reports. */
export interface KernelStats {
    /** The kernels selected now: `'wasm'` only where the WebAssembly module really runs. */
    kernels: KernelMode;
    /**
     * Whether this runtime runs the WebAssembly SIMD kernels (so `setKernels('wasm')` works), whichever kernels are
     * selected.
     */
    wasmAvailable: boolean;
    /**
     * Why the WebAssembly kernels are not running (unavailable here, or the JS kernels selected), or `null` when they
     * are.
     */
    reason: string | null;
    /**
     * Whether the WebAssembly memory is shared (Node, cross-origin-isolated pages): `ThreadPool` (hitmask/threads)
     * needs it.
     */
    sharedMemory: boolean;
    /** Bytes of WebAssembly memory reserved (it never shrinks). */
    memoryBytes: number;
    /** Bytes of WebAssembly memory in live blocks (masks, slabs of small masks, scratch). */
    usedBytes: number;
    /** The ceiling on WebAssembly memory. */
    memoryLimitBytes: number;
    /** Live masks whose words are in WebAssembly memory. */
    wasmMasks: number;
    /**
     * Live masks whose words are on the JS heap although the WebAssembly kernels are selected (`Mask.fromWords`,
     * fallbacks); they use the JS kernels.
     */
    jsMasks: number;
    /** Masks placed on the JS heap since start-up because WebAssembly memory was at its ceiling. */
    fallbacks: number;
}

/** The part of a WebAssembly.Memory used here (declared so the shipped types need no WebAssembly lib). */
export interface WasmMemory {
    readonly buffer: ArrayBuffer | SharedArrayBuffer;
    grow(pages: number): number;
}

const PAGE = 65536;
const MAX_PAGES = MEMORY_LIMIT / PAGE;
// The ceiling in force: MAX_PAGES, or the largest maximum the runtime accepted.
let limitPages = MAX_PAGES;
// Growth: double while small, then at most 16 MiB at a time (memory stays near the live data).
const GROW_MAX_PAGES = 256;
// Bytes 16..271: the query table (32 plane pointers and the x a first-point query writes back).
/** Byte offset of the kernels' table scratch (32 words). */
export const TABLE = 16;
const HEAP_START = 512;

// The blob is shipped one char per byte, XORed with WASM_KEY (scripts/build-wasm.ts: it gzips ~860 bytes
// smaller in a bundle than base64, and needs no atob).
function decode(s: string): Uint8Array<ArrayBuffer> {
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) ^ WASM_KEY;
    return out;
}

let memory: WasmMemory | null = null;
let module: WebAssembly.Module | null = null;
/** The kernels instance over the memory (null where WebAssembly SIMD does not run). */
export let K: KernelExports = null as unknown as KernelExports;
let shared = false;
let reason: string | null = null;

// A memory of `maximum` pages, or a smaller maximum where the address space for it is refused (32-bit
// and some mobile browsers reserve the maximum up front); sets limitPages. Throws when even 64 MiB is refused.
function newMemory(shared: boolean): WebAssembly.Memory {
    for (let max = MAX_PAGES; ; max >>= 1) {
        try {
            const mem = new WebAssembly.Memory({ initial: 16, maximum: max, shared });
            limitPages = max;
            return mem;
        } catch (e) {
            if (max <= 1024) throw e;
        }
    }
}

/**
 * @internal The kernels module (shared-memory variant). Its constant-shift functions ship once each; the 31
 * copies of each are written back here with their shift immediates (scripts/build-wasm.ts): 4.4 KB in the
 * bundle instead of 24.6 KB, about 20 µs at load.
 */
export function moduleBytes(): Uint8Array<ArrayBuffer> {
    const blob = decode(WASM),
        nt = SH_AT.length,
        [head, before] = LAYOUT,
        tpl = LAYOUT.slice(2, 2 + nt);
    const [after, tail, count] = LAYOUT.slice(2 + nt),
        body = tpl.reduce((s, n) => s + n, 0);
    const countLeb = leb(count),
        size = countLeb.length + before + 31 * body + after,
        sizeLeb = leb(size);
    const out = new Uint8Array(head + 1 + sizeLeb.length + size + tail);
    out.set(blob.subarray(0, head));
    let o = head,
        i = head;
    out[o++] = 10; // the code section
    out.set(sizeLeb, o);
    o += sizeLeb.length;
    out.set(countLeb, o);
    o += countLeb.length;
    out.set(blob.subarray(i, i + before), o);
    o += before;
    i += before;
    for (let sh = 1; sh <= 31; sh++) {
        for (let t = 0, ti = i; t < nt; ti += tpl[t], o += tpl[t], t++) {
            out.set(blob.subarray(ti, ti + tpl[t]), o);
            for (const p of SH_AT[t]) out[o + p] = sh;
            for (const p of LS_AT[t]) out[o + p] = 32 - sh;
        }
    }
    out.set(blob.subarray(i + body, i + body + after + tail), o);
    return out;
}

// Unsigned LEB128.
function leb(v: number): number[] {
    const b: number[] = [];
    do {
        const x = v & 127;
        v >>>= 7;
        b.push(v !== 0 ? x | 128 : x);
    } while (v !== 0);
    return b;
}

function init(): boolean {
    try {
        if (typeof WebAssembly !== 'object') {
            reason = 'WebAssembly is unavailable';
            return false;
        }
        const bytes = moduleBytes(),
            plain = bytes.slice();
        plain[PLAIN_AT] = PLAIN_FLAG;
        if (!WebAssembly.validate(plain)) {
            reason = 'this runtime has no WebAssembly 128-bit SIMD';
            return false;
        }
        if (typeof SharedArrayBuffer === 'function') {
            try {
                const m = new WebAssembly.Module(bytes);
                const mem = newMemory(true);
                K = new WebAssembly.Instance(m, { env: { memory: mem } }).exports as unknown as KernelExports;
                memory = mem;
                module = m;
                shared = true;
                return true;
            } catch {
                /* shared memory refused here: a plain one */
            }
        }
        const m = new WebAssembly.Module(plain);
        const mem = newMemory(false);
        K = new WebAssembly.Instance(m, { env: { memory: mem } }).exports as unknown as KernelExports;
        memory = mem;
        module = m;
        return true;
    } catch (e) {
        reason = `the WebAssembly kernels failed to load: ${(e as Error)?.message ?? String(e)}`;
        return false;
    }
}

// Compiles the module and creates the memory once, at load: whether this runtime runs the WebAssembly
// SIMD kernels (kernelStats().wasmAvailable); `reason` says why not.
const wasmLoaded: boolean = init();

/** Bumped each time a plain (non-shared) memory grows, which detaches every view of the old buffer. */
export let generation = 0;
/** The memory's current buffer. */
export let buffer: ArrayBuffer | SharedArrayBuffer =
    memory !== null ? (memory as WasmMemory).buffer : new ArrayBuffer(0);

// Views over the whole memory, rebuilt after growth (a grown shared memory keeps old views valid, but at the old
// length).
// Every buffer the memory has had. A grown shared memory hands out a new SharedArrayBuffer while views of
// the old ones stay valid over the same bytes, so `=== buffer` misses them (Mask.fromWords copies these).
/** @internal Every buffer object the WebAssembly memory has had (the current one and those before growth). */
export const buffers = new WeakSet<object>([buffer]);

let u32 = new Uint32Array(buffer),
    u8 = new Uint8Array(buffer);

/** A Uint32Array over the whole memory (valid until the next allocation). */
export function heap32(): Uint32Array {
    if (u32.buffer !== buffer) refreshViews();
    return u32;
}

/** A Uint8Array over the whole memory (valid until the next allocation). */
export function heap8(): Uint8Array {
    if (u8.buffer !== buffer) refreshViews();
    return u8;
}

function refreshViews(): void {
    u32 = new Uint32Array(buffer);
    u8 = new Uint8Array(buffer);
}

function envMode(): KernelMode | undefined {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
        ?.HITMASK_KERNELS;
    return env === 'js' || env === 'wasm' ? env : undefined;
}

/** True while the WebAssembly kernels are selected (and loaded). */
export let wasmOn: boolean = wasmLoaded && envMode() !== 'js';

/**
 * Selects the kernels for masks created from now on and for every later call: `'wasm'` (the default
 * where WebAssembly SIMD runs) or `'js'` (plain JavaScript, identical results). The environment
 * variable `HITMASK_KERNELS=js` selects `'js'` at start-up in Node.
 */
export function setKernels(mode: KernelMode): void {
    if (mode !== 'js' && mode !== 'wasm') throw typeError('kernel mode', "'js' or 'wasm'", mode);
    if (mode === 'wasm' && !wasmLoaded) throw new Error(`kernel mode 'wasm' is unavailable: ${reason}.`);
    wasmOn = mode === 'wasm';
}

// ---- the heap ----

let top = HEAP_START; // first byte never allocated (or returned to the top)
let bufferBytes = buffer.byteLength; // the buffer's length, kept here (a SharedArrayBuffer's byteLength getter is not free)
let clean = HEAP_START; // bytes from here on were never written
let used = 0;
const freeAt = new Map<number, number>(); // start -> size of each free block
const freeEnd = new Map<number, number>(); // end -> start
const bins: Set<number>[] = Array.from({ length: 32 }, () => new Set<number>());
// Bit b set while bins[b] is not empty: alloc() goes straight to a non-empty larger bin (iterating the
// ~18 empty Sets above a mask's own bin took ~40 ns of each allocation from the top).
let binBits = 0;

function bin(size: number): number {
    return 31 - Math.clz32(size);
}

function addFree(p: number, size: number): void {
    freeAt.set(p, size);
    freeEnd.set(p + size, p);
    const b = bin(size);
    bins[b].add(p);
    binBits |= 1 << b;
}

function removeFree(p: number, size: number): void {
    freeAt.delete(p);
    freeEnd.delete(p + size);
    const b = bin(size),
        set = bins[b];
    set.delete(p);
    if (set.size === 0) binBits &= ~(1 << b);
}

/**
 * A block of `size` bytes (a multiple of 16), zeroed when `zero` is true (only where it may hold old
 * data), or -1 when the memory is at its ceiling.
 */
export function alloc(size: number, zero: boolean): number {
    let p = -1,
        got = 0;
    // First fit among the blocks of the size's own bin (a few looks), then any block of a larger bin.
    const b0 = bin(size);
    if (binBits & (1 << b0)) {
        let looks = 0;
        for (const q of bins[b0]) {
            const s = freeAt.get(q) as number;
            if (s >= size) {
                p = q;
                got = s;
                break;
            }
            if (++looks === 8) break;
        }
    }
    // The lowest non-empty bin above b0 (2 << 31 is 0 in 32 bits: none above bin 31).
    const above = binBits & -(2 << b0);
    if (p < 0 && above !== 0) {
        for (const q of bins[31 - Math.clz32(above & -above)]) {
            p = q;
            got = freeAt.get(q) as number;
            break;
        }
    }
    if (p >= 0) {
        removeFree(p, got);
        if (got > size) addFree(p + size, got - size);
        if (zero) K.fill32(p, size >>> 2, 0);
    } else {
        if (top + size > bufferBytes && !grow(top + size)) return -1;
        p = top;
        top += size;
        if (zero && p < clean) K.fill32(p, (Math.min(top, clean) - p) >>> 2, 0);
        if (top > clean) clean = top;
    }
    used += size;
    return p;
}

/** Returns a block to the heap, merged with free neighbours. */
export function free(p: number, size: number): void {
    used -= size;
    let start = p,
        end = p + size;
    const before = freeEnd.get(start);
    if (before !== undefined) {
        removeFree(before, start - before);
        start = before;
    }
    if (end === top) {
        top = start;
        return;
    } // no free block starts at the top (a lookup less for the last block)
    const after = freeAt.get(end);
    if (after !== undefined) {
        removeFree(end, after);
        end += after;
    }
    if (end === top) top = start;
    else addFree(start, end - start);
}

function grow(bytes: number): boolean {
    const have = buffer.byteLength / PAGE,
        need = Math.ceil(bytes / PAGE) - have;
    if (memory === null || have + need > limitPages) return false;
    try {
        try {
            memory.grow(Math.min(limitPages - have, Math.max(need, Math.min(have, GROW_MAX_PAGES))));
        } catch {
            memory.grow(need);
        }
    } catch {
        return false;
    }
    buffers.add((buffer = memory.buffer));
    bufferBytes = buffer.byteLength;
    if (!shared) generation++;
    return true;
}

/**
 * @internal What kernelStats() reports of the memory: whether the WebAssembly kernels loaded (else why not), whether
 * shared, bytes in use, the ceiling.
 */
export function memoryFacts(): {
    loaded: boolean;
    reason: string | null;
    shared: boolean;
    used: number;
    limitBytes: number;
} {
    return { loaded: wasmLoaded, reason, shared, used, limitBytes: limitPages * PAGE };
}

// ---- scratch blocks ----

/** A block that grows on demand and is reused by every call (nothing in it survives the next call). */
export class Scratch {
    ptr = -1;
    bytes = 0;
    /** Byte offset of at least `bytes` bytes, or -1 when memory ran out. */
    get(bytes: number): number {
        if (bytes <= this.bytes) return this.ptr;
        const size = Math.max(4096, 2 ** Math.ceil(Math.log2(bytes)));
        const p = alloc(size, false);
        if (p < 0) return -1;
        if (this.ptr >= 0) free(this.ptr, this.bytes);
        this.ptr = p;
        this.bytes = size;
        return p;
    }
}

/**
 * The shared memory and compiled module for worker threads, or null where memory is not shared (or the JS kernels are
 * selected).
 */
export function sharedMemory(): { memory: WasmMemory; module: object } | null {
    return wasmOn && shared && memory !== null && module !== null ? { memory, module } : null;
}

/**
 * Single calls switch to WebAssembly from this many words of intersection (rows × strips); below it the
 * JS loop is done before the call into WebAssembly would return (measured in bench/simd.bench.ts).
 */
export let wasmMinWords = 16;

/** Testing hook: sets {@link wasmMinWords} (0 sends every call to WebAssembly). */
export function setWasmMinWords(n: number): void {
    wasmMinWords = n;
}
