// WebAssembly SIMD backend of the mask kernels: feature detection, the memory arenas that hold mask
// words, their allocator, and the switch between the WebAssembly and the pure-JS kernels.
//
// Storage. Masks created while the WebAssembly kernels are on keep their words in an arena: one
// WebAssembly.Memory plus an instance of src/wasm/kernels.wat over it, so kernels read the words
// where they live and no call copies mask data. Mask.words is an ordinary Uint32Array view.
// Growth never detaches a view: where shared memory exists (Node, cross-origin-isolated pages) the
// arena's memory is shared and grows in place (growing a SharedArrayBuffer-backed memory leaves old
// views valid); elsewhere an arena never grows, and a full arena is followed by a new one. Kernels
// run in WebAssembly when both masks sit in the same arena, and in JS otherwise, with equal results.
// Freeing: masks over 2 KiB get their own block, returned to the arena's free lists by a
// FinalizationRegistry once their words view is garbage-collected. Smaller masks share 64 KiB slabs
// (as the JS heap's masks do, src/mask.ts): registering every small view cost ~130 ns per mask
// (GC of the weak cells included), registering a slab token held by its masks costs that once per slab.
// The slab returns to the free lists when all its masks are collected. WebAssembly memory never
// shrinks; arenas stop at 1 GiB in all, after which new masks live on the JS heap (JS kernels).
import { PLAIN_WASM, SHARED_WASM } from './kernels.js';

/** Which implementation runs the mask kernels. */
export type KernelMode = 'js' | 'wasm';

/** The exports of src/wasm/kernels.wat. */
export interface KernelExports {
    overlaps(ap: number, ah: number, bp: number, bh: number, bn: number, dx: number, dy: number, x0: number, x1: number, y0: number, y1: number): number;
    area(ap: number, ah: number, bp: number, bh: number, bn: number, dx: number, dy: number, x0: number, x1: number, y0: number, y1: number): number;
    combine(ap: number, ah: number, bp: number, bh: number, bn: number, dx: number, dy: number, x0: number, x1: number, y0: number, y1: number,
        cp: number, op: number, lastStrip: number, edge: number): void;
    overlapsBatch(tp: number, n: number, rp: number): number;
    fill32(p: number, n: number, value: number): void;
    copy32(dst: number, src: number, n: number): void;
    rasterQuery(tp: number, k: number, ah: number, bp: number, bh: number, bn: number, dx: number, dy: number,
        x0: number, x1: number, y0: number, y1: number, op: number): number;
    rgbaMask(src: number, stride: number, cols: number, rows: number, dst: number, ah: number, op: number, key: number, t: number): void;
}

/** Runs a batch of overlap records (see overlapsBatch in kernels.wat) on an arena: a ThreadPool. */
export interface BatchRunner {
    /** Tests the `n` records at byte `tp` of `arena`, writes results at `rp`, returns the hit count; `work` estimates the words scanned. */
    run(arena: Arena, tp: number, n: number, rp: number, work: number): number;
}

/** The part of a WebAssembly.Memory an arena uses (declared here so the shipped types need no WebAssembly lib). */
export interface WasmMemory {
    readonly buffer: ArrayBuffer | SharedArrayBuffer;
    grow(pages: number): number;
}

const PAGE = 65536;
// Blocks up to 1 MiB are powers of two (at least 16 bytes, so v128 rows start aligned); larger ones
// are multiples of 64 KiB, so a 1 GiB mask does not reserve 2 GiB.
const SMALL_MAX = 1 << 20;
const PLAIN_ARENA_PAGES = 256; // 16 MiB per non-shared arena (virtual until touched)
const MAX_PAGES = 16384; // 1 GiB of arenas in all
const SLAB_BYTES = 65536, SLAB_MAX_BYTES = 2048;

function blockSize(bytes: number): number {
    if (bytes <= 16) return 16;
    if (bytes <= SMALL_MAX) return 2 ** Math.ceil(Math.log2(bytes));
    return Math.ceil(bytes / PAGE) * PAGE;
}

/** One WebAssembly memory with its kernels instance and a block allocator over it. */
export class Arena {
    /** The kernels, bound to this arena's memory. */
    readonly k: KernelExports;
    /** Current `memory.buffer` (refreshed after each grow). */
    buf: ArrayBuffer | SharedArrayBuffer;
    private top = 16; // byte 0..15 unused, so no block starts at 0
    private readonly free = new Map<number, number[]>();
    /** Batch scratch: a table of 8-int records (see overlapsBatch in kernels.wat) and one result byte per pair. */
    table: Int32Array = new Int32Array(0);
    results: Uint8Array = new Uint8Array(0);
    tablePtr = 0;
    resultsPtr = 0;

    constructor(readonly index: number, readonly memory: WasmMemory, readonly shared: boolean, k: KernelExports) {
        this.k = k;
        this.buf = memory.buffer;
    }

    /** Byte offset of a fresh block of `size` bytes (a blockSize), or -1 when this arena is full; `reused` tells whether it may hold old data. */
    alloc(size: number): number {
        const list = this.free.get(size);
        if (list !== undefined && list.length > 0) { reused = true; return list.pop() as number; }
        reused = false;
        if (this.top + size > this.buf.byteLength) {
            if (!this.shared) return -1;
            const need = Math.ceil((this.top + size - this.buf.byteLength) / PAGE);
            const have = this.buf.byteLength / PAGE;
            try {
                // Double the memory (fewer grows), or at least take what is needed.
                try { this.memory.grow(Math.max(need, Math.min(have, MAX_PAGES - have))); } catch { this.memory.grow(need); }
            } catch {
                return -1;
            }
            this.buf = this.memory.buffer;
        }
        const p = this.top;
        this.top += size;
        return p;
    }

    /** Returns a block to the free list of its size. */
    release(ptr: number, size: number): void {
        let list = this.free.get(size);
        if (list === undefined) this.free.set(size, list = []);
        list.push(ptr);
    }

    private scratchPtr = 0;
    private scratchBytes = 0;

    /** Byte offset of a scratch block of at least `bytes` bytes, shared by all callers (nothing survives the next call), or -1 when memory ran out. */
    scratch(bytes: number): number {
        if (bytes <= this.scratchBytes) return this.scratchPtr;
        const size = blockSize(Math.max(bytes, 4096));
        const p = this.alloc(size);
        if (p < 0) return -1;
        if (this.scratchBytes > 0) this.release(this.scratchPtr, this.scratchBytes);
        this.scratchPtr = p;
        this.scratchBytes = size;
        return p;
    }

    /** Makes the batch scratch hold `n` records; false when memory ran out. */
    reserveBatch(n: number): boolean {
        if (this.results.length >= n) return true;
        const cap = Math.max(256, 2 ** Math.ceil(Math.log2(n)));
        const tp = this.alloc(blockSize(cap * 32));
        if (tp < 0) return false;
        const rp = this.alloc(blockSize(cap));
        if (rp < 0) { this.release(tp, blockSize(cap * 32)); return false; }
        if (this.results.length > 0) {
            this.release(this.tablePtr, blockSize(this.results.length * 32));
            this.release(this.resultsPtr, blockSize(this.results.length));
        }
        this.tablePtr = tp; this.resultsPtr = rp;
        this.table = new Int32Array(this.buf, tp, cap * 8);
        this.results = new Uint8Array(this.buf, rp, cap);
        return true;
    }
}

let reused = false;
const arenas: Arena[] = [];
let sharedModule: WebAssembly.Module | null = null, plainModule: WebAssembly.Module | null = null;
// The shared-memory module for worker threads (sharedModule is dropped once shared memory fails or fills up).
let threadModule: WebAssembly.Module | null = null;
// Large blocks' sizes, by arena index and pointer (small ones carry their size class in the holdings).
const largeSizes = new Map<number, number>();

function decode(b64: string): Uint8Array<ArrayBuffer> {
    const s = atob(b64), out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
}

function detect(): boolean {
    try {
        if (typeof WebAssembly !== 'object' || typeof atob !== 'function') return false;
        const plain = decode(PLAIN_WASM);
        if (!WebAssembly.validate(plain)) return false; // no SIMD
        plainModule = new WebAssembly.Module(plain);
        try {
            const shared = decode(SHARED_WASM);
            if (typeof SharedArrayBuffer === 'function' && WebAssembly.validate(shared)) threadModule = sharedModule = new WebAssembly.Module(shared);
        } catch { sharedModule = null; }
        return true;
    } catch {
        return false;
    }
}

/** Whether this runtime runs WebAssembly with 128-bit SIMD (checked once, by validating the kernels module). */
export const simdSupported: boolean = detect();

function envMode(): KernelMode | undefined {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.HITMASK_KERNELS;
    return env === 'js' || env === 'wasm' ? env : undefined;
}

/** True while the WebAssembly kernels are selected. */
export let wasmOn: boolean = simdSupported && envMode() !== 'js';

/**
 * Selects the kernels for masks created from now on and for every later call: `'wasm'` (the default
 * where WebAssembly SIMD exists) or `'js'` (plain JavaScript, identical results). The environment
 * variable `HITMASK_KERNELS=js` selects `'js'` at start-up in Node.
 */
export function setKernels(mode: KernelMode): void {
    if (mode !== 'js' && mode !== 'wasm') throw new TypeError(`kernel mode must be 'js' or 'wasm', got ${JSON.stringify(mode)}.`);
    if (mode === 'wasm' && !simdSupported) throw new Error("kernel mode 'wasm' needs WebAssembly with 128-bit SIMD, which this runtime lacks.");
    wasmOn = mode === 'wasm';
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

/** The kernels selected now, `'js'` or `'wasm'`. */
export function getKernels(): KernelMode {
    return wasmOn ? 'wasm' : 'js';
}

function instantiate(module: WebAssembly.Module, memory: WebAssembly.Memory): KernelExports {
    return new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as KernelExports;
}

function newArena(minBytes: number): Arena | null {
    const pages = Math.ceil(minBytes / PAGE);
    if (sharedModule !== null) {
        // One shared arena that grows in place; try the full 4 GiB address space, then 1 GiB.
        if (arenas.length === 0) {
            try {
                const memory = new WebAssembly.Memory({ initial: Math.max(16, pages), maximum: MAX_PAGES, shared: true });
                return new Arena(arenas.length, memory, true, instantiate(sharedModule, memory));
            } catch { /* no shared memory here: plain arenas */ }
        }
        sharedModule = null;
    }
    if (plainModule === null || wasmMemoryBytes() + Math.max(PLAIN_ARENA_PAGES, pages + 1) * PAGE > MAX_PAGES * PAGE) return null;
    try {
        const memory = new WebAssembly.Memory({ initial: Math.max(PLAIN_ARENA_PAGES, pages + 1) });
        return new Arena(arenas.length, memory, false, instantiate(plainModule, memory));
    } catch {
        return null;
    }
}

// Holdings: (arena index * 32 + log2 of the block size, or 31 for a large block) * 2^32 + pointer.
const registry = new FinalizationRegistry<number>(held => {
    const arena = arenas[Math.floor(held / 2 ** 37)];
    const cls = Math.floor(held / 2 ** 32) & 31, ptr = held % 2 ** 32;
    if (cls === 31) {
        const key = arena.index * 2 ** 32 + ptr;
        arena.release(ptr, largeSizes.get(key) as number);
        largeSizes.delete(key);
    } else {
        arena.release(ptr, 2 ** cls);
    }
});

/** The arena of the last successful {@link allocWasm}. */
export let lastArena: Arena | null = null;
/** The byte offset of the last successful {@link allocWasm}. */
export let lastPtr = 0;
/** What the mask of the last successful {@link allocWasm} must hold on to: its slab's token, or null. */
export let lastKeep: object | null = null;

// The slab small masks are cut from now; its token is registered, and held by each of its masks.
let slabToken: object | null = null, slabArena: Arena | null = null, slabPtr = 0, slabUsed = SLAB_BYTES, slabReused = false;

/** A zeroed view of `n` words (n > 0) in WebAssembly memory, or null when none can be had; sets lastArena, lastPtr and lastKeep. */
export function allocWasm(n: number): Uint32Array | null {
    const bytes = (n * 4 + 15) & ~15;
    if (bytes <= SLAB_MAX_BYTES) {
        if (slabUsed + bytes > SLAB_BYTES) {
            if (!allocBlock(SLAB_BYTES)) return null;
            slabArena = lastArena; slabPtr = lastPtr; slabUsed = 0; slabReused = reused;
            slabToken = {};
            registry.register(slabToken, ((slabArena as Arena).index * 32 + Math.log2(SLAB_BYTES)) * 2 ** 32 + slabPtr);
        }
        const words = new Uint32Array((slabArena as Arena).buf, slabPtr + slabUsed, n);
        if (slabReused) (slabArena as Arena).k.fill32(slabPtr + slabUsed, n, 0);
        lastArena = slabArena; lastPtr = slabPtr + slabUsed; lastKeep = slabToken;
        slabUsed += bytes;
        return words;
    }
    const size = blockSize(bytes);
    if (!allocBlock(size)) return null;
    const a = lastArena as Arena, ptr = lastPtr;
    const words = new Uint32Array(a.buf, ptr, n);
    if (reused) a.k.fill32(ptr, n, 0);
    let cls = 31;
    if (size <= SMALL_MAX) cls = Math.log2(size);
    else largeSizes.set(a.index * 2 ** 32 + ptr, size);
    // The view, not the mask, is the target: a caller holding only `mask.words` keeps the block alive.
    registry.register(words, (a.index * 32 + cls) * 2 ** 32 + ptr);
    lastKeep = null;
    return words;
}

// A block of `size` bytes into lastArena/lastPtr (`reused` says whether it may hold old data); false when memory ran out.
function allocBlock(size: number): boolean {
    let arena: Arena | null = null, ptr = -1;
    for (let i = arenas.length - 1; i >= 0 && ptr < 0; i--) { arena = arenas[i]; ptr = arena.alloc(size); }
    if (ptr < 0) {
        arena = newArena(size + 16);
        if (arena === null) return false;
        arenas.push(arena);
        ptr = arena.alloc(size);
        if (ptr < 0) return false;
    }
    lastArena = arena;
    lastPtr = ptr;
    return true;
}

/**
 * The arena over shared WebAssembly memory (created when needed), which worker threads can run
 * kernels on, with its compiled module; null where memory cannot be shared (no SIMD, no
 * SharedArrayBuffer, a page without cross-origin isolation, or the JS kernels selected).
 */
export function sharedArena(): { arena: Arena; module: object } | null {
    if (!wasmOn) return null;
    if (arenas.length === 0 && sharedModule !== null) {
        const a = newArena(PAGE);
        if (a !== null) arenas.push(a);
    }
    const module = threadModule;
    return arenas.length > 0 && arenas[0].shared && module !== null ? { arena: arenas[0], module } : null;
}

/** Bytes of WebAssembly memory reserved for masks, over all arenas (it never shrinks). */
export function wasmMemoryBytes(): number {
    let n = 0;
    for (const a of arenas) n += a.buf.byteLength;
    return n;
}
