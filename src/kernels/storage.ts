// Mask storage on the allocator of memory.ts: small masks share 64 KiB slabs, larger ones get a block each;
// what each mask holds so that dispose() or the FinalizationRegistry returns its memory; the counters of
// kernelStats(); the fallback to the JS heap at the ceiling.
//
// Masks up to 2 KiB share a slab: one FinalizationRegistry entry per slab instead of per mask. A slab
// returns to the heap when all its masks are disposed or collected; the current slab restarts when its
// masks are all disposed (a create/dispose loop stays in one slab), and what it had used is zeroed only
// when a mask that needs zeros is placed there again (an overlapMask result writes every word itself). A larger mask
// holds a token
// registered with its block record; dispose() frees the block and keeps the token for the next larger
// mask, so a create/dispose loop registers nothing (measured 1.9x faster). Freeing: Mask.dispose() at
// once; otherwise the registry's callback once the mask's token (its own, or its slab's once every mask
// of the slab is gone) is garbage-collected, which only happens after the program yields to the event loop.
import { alloc, buffer, free, K, memoryFacts, wasmOn, type KernelStats } from './memory.js';

const SLAB_BYTES = 65536,
    SLAB_MAX_BYTES = 2048;

/** Storage the FinalizationRegistry watches; `freed` once returned (by dispose() or by the registry). */
export class Holding {
    freed = false;
}

/** A slab of small masks (64 KiB); freed when all its masks are disposed or collected. */
export class Slab extends Holding {
    used = 0;
    live = 0;
    // Bytes from the start that may hold old words (the slab was restarted after use); zero beyond.
    dirty = 0;
    constructor(readonly ptr: number) {
        super();
    }
}

/**
 * What a small mask holds on to: its slab's token (registered for finalization; the slab record does not reference it).
 */
export class SlabRef {
    constructor(readonly slab: Slab) {}
}

/** The block of one larger mask; `freed` while it holds none (its token is then spare, or collected). */
export class Block extends Holding {
    ptr = -1;
    size = 0;
}

/** What a larger mask holds on to: a token registered once, with its block record; reused after dispose(). */
export class BlockRef {
    readonly block = new Block();
}

/** A mask on the JS heap counted in kernelStats().jsMasks. */
export class JsCount extends Holding {}

/** What a mask holds for its storage: its slab's token, its block's token, or its JS-heap count. */
export type MaskHolding = SlabRef | BlockRef | JsCount;

let slab: SlabRef | null = null;
// Tokens of disposed larger masks, each still registered with its (empty) block record: the next larger
// mask takes one instead of registering itself. A registration costs more than the rest of a small
// allocation, and each registered mask later costs the GC a weak cell and the registry a callback even
// once disposed. Bounded: a token past SPARE_MAX is dropped, and its callback finds its block freed.
const spare: BlockRef[] = [];
const SPARE_MAX = 64;
let wasmMasks = 0,
    jsMasks = 0,
    fallbacks = 0,
    warned = false;

// Holdings are records, registered without an unregister token: dispose() only marks them freed
// (unregistering would double the cost of a registration). The registry watches tokens the masks hold (a
// slab's, a block's), not the masks. No Map keyed by pointer either: a block freed and taken again at the
// same address re-adds the same key, and V8 keeps the deleted entries in that key's hash chain until the
// table is rebuilt (a set/delete then slows down a hundredfold among many other keys).
const registry = new FinalizationRegistry<Holding>(held => {
    if (held.freed) return;
    held.freed = true;
    if (held instanceof Slab) {
        // Every mask of the slab is gone; those not disposed are still counted.
        wasmMasks -= held.live;
        held.live = 0;
        free(held.ptr, SLAB_BYTES);
    } else if (held instanceof Block) {
        wasmMasks--;
        free(held.ptr, held.size);
    } else {
        jsMasks--;
    }
});

/** Bytes a mask of `n` words takes in WebAssembly memory (16-byte aligned). */
function maskBytes(n: number): number {
    return (n * 4 + 15) & ~15;
}

/**
 * Storage for a mask of `n` words (n > 0) in WebAssembly memory: its byte offset, or -1 when it does
 * not fit (the caller then puts it on the JS heap). Small masks are cut from the current slab, larger
 * ones get a block; zeroed when `zero` is true. The mask then takes its holding from {@link holdMask}.
 */
export function allocMask(n: number, zero: boolean): number {
    const bytes = maskBytes(n);
    if (bytes <= SLAB_MAX_BYTES) {
        let r = slab;
        if (r === null || r.slab.used + bytes > SLAB_BYTES) {
            const p = alloc(SLAB_BYTES, true);
            if (p < 0) return outOfMemory(n);
            const s = new Slab(p);
            r = slab = new SlabRef(s);
            registry.register(r, s);
        }
        const s = r.slab,
            p = s.ptr + s.used;
        if (zero && s.used < s.dirty) K.fill32(p, Math.min(bytes, s.dirty - s.used) >>> 2, 0);
        s.used += bytes;
        s.live++;
        wasmMasks++;
        hint(bytes);
        return p;
    }
    const p = alloc(bytes, zero);
    if (p < 0) return outOfMemory(n);
    wasmMasks++;
    hint(bytes);
    return p;
}

/**
 * What the mask of `n` words placed at `p` by {@link allocMask} must hold (for as long as it keeps its
 * storage): its slab's token, or a token for its block (a spare one, else a new one registered once).
 */
export function holdMask(_owner: object, n: number, p: number): MaskHolding {
    const bytes = maskBytes(n);
    if (bytes <= SLAB_MAX_BYTES) return slab as SlabRef;
    let r = spare.pop();
    if (r === undefined) {
        r = new BlockRef();
        registry.register(r, r.block);
    }
    const b = r.block;
    b.ptr = p;
    b.size = bytes;
    b.freed = false;
    return r;
}

function outOfMemory(n: number): number {
    fallbacks++;
    if (!warned) {
        warned = true;
        const m = memoryFacts();
        console.warn(
            `hitmask: WebAssembly memory is at its ${m.limitBytes / 2 ** 20} MiB ceiling (${m.used} bytes in use); a mask of ${n} words and later ones that do not fit use the JS heap and the slower JS kernels. Call mask.dispose() on masks you no longer need; kernelStats() counts these fallbacks.`
        );
    }
    return -1;
}

// Bytes of mask storage allocated and not disposed since the last GC hint. Masks dropped without
// dispose() are freed through FinalizationRegistry, which V8 serves only after a full (mark-compact) GC;
// a loop of short-lived masks leaves young garbage that scavenges clear without that, so WebAssembly
// memory would fill up. Every 8 MiB of such storage, an ArrayBuffer 4x that size is allocated and kept
// until four later ones replace it: V8 counts old array buffers towards its full-GC limit, so full GCs
// come about every 8-32 MiB of mask storage. The buffers are never touched (no resident memory, an
// mmap each). Measured with many dropped small masks (bench/memory.bench.ts): WebAssembly memory a
// quarter of what it grows to without the hint.
const HINT_BYTES = 8 << 20;
let pressure = 0;
const hints: ArrayBuffer[] = [];

function hint(bytes: number): void {
    pressure += bytes;
    if (pressure >= HINT_BYTES) {
        // Where even virtual memory is short (a 32-bit browser), no hint: the GC then comes later.
        try {
            hints.push(new ArrayBuffer(pressure * 4));
        } catch {
            /* no hint */
        }
        if (hints.length > 4) hints.shift();
        pressure = 0;
    }
}

/**
 * Frees the storage of a mask of `n` words (its holding from {@link holdMask} or {@link noteJsMask}): Mask.dispose(),
 * which then drops the holding.
 */
export function freeMask(h: MaskHolding, n: number): void {
    if (h instanceof SlabRef) {
        wasmMasks--;
        // Disposed storage needs no GC hint (a create/dispose loop must not trigger collections).
        pressure = Math.max(0, pressure - maskBytes(n));
        const s = h.slab;
        s.live--;
        if (s.live > 0 || s.freed) return;
        if (h === slab) {
            // The current slab empties: start it again (a create/dispose loop stays in it); allocMask zeroes
            // what was used as it is handed out again, for the masks that need zeros.
            if (s.used > s.dirty) s.dirty = s.used;
            s.used = 0;
            return;
        }
        s.freed = true;
        free(s.ptr, SLAB_BYTES);
    } else if (h instanceof BlockRef) {
        const b = h.block;
        if (b.freed) return;
        wasmMasks--;
        pressure = Math.max(0, pressure - b.size);
        b.freed = true;
        free(b.ptr, b.size);
        // The mask lets go of the token (Mask.dispose() drops its holding): it serves the next larger mask.
        if (spare.length < SPARE_MAX) spare.push(h);
    } else if (!h.freed) {
        h.freed = true;
        jsMasks--;
    }
}

/**
 * Counts a mask whose words are on the JS heap while the WebAssembly kernels are selected, until it is disposed or
 * collected.
 */
export function noteJsMask(owner: object): JsCount {
    const h = new JsCount();
    jsMasks++;
    registry.register(owner, h);
    return h;
}

/**
 * Memory and kernel counters: which kernels run (and why not WebAssembly), WebAssembly memory reserved
 * and in use, live masks in and outside it, and fallbacks at the ceiling.
 */
export function kernelStats(): KernelStats {
    const m = memoryFacts();
    return {
        kernels: wasmOn ? 'wasm' : 'js',
        wasmAvailable: m.loaded,
        reason: wasmOn ? null : (m.reason ?? "setKernels('js') or HITMASK_KERNELS=js selected the JS kernels"),
        sharedMemory: m.shared,
        memoryBytes: buffer.byteLength,
        usedBytes: m.used,
        memoryLimitBytes: m.limitBytes,
        wasmMasks,
        jsMasks,
        fallbacks
    };
}

/**
 * @internal Bytes of WebAssembly memory reserved for masks (it never shrinks); users read kernelStats().memoryBytes.
 */
export function wasmMemoryBytes(): number {
    return buffer.byteLength;
}
