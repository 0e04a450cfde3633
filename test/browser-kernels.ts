// Bundled by test/browser-kernels.test.ts and run in a plain page and in a cross-origin-isolated one: the
// JS and WebAssembly kernels against each other and a naive per-pixel reference, memory growth (which
// detaches a plain memory's views), and a CollisionRaster.
import { CollisionRaster, Mask, kernelStats, setKernels, type KernelMode, type Point } from '../src/index.js';
import { setWasmMinWords, wasmMinWords } from '../src/kernels/memory.js'; // internal: the JS/WebAssembly cut-over has no public entry
import { mulberry32 } from '../bench/timing.js';

/** What {@link environment} reports: the page's isolation and the kernels it got at load. */
export interface EnvironmentCheck {
    isolated: boolean;
    sharedArrayBuffer: string;
    kernels: string;
    reason: string | null;
    sharedMemory: boolean;
}

/** What a correctness check reports: comparisons made, mismatches, and the first few described. */
export interface Mismatches {
    compared: number;
    mismatches: number;
    samples: string[];
}

/** What {@link growth} reports: memory and usage around the allocation of big masks, and the kept masks' answers. */
export interface GrowthCheck extends Mismatches {
    memoryBefore: number;
    memoryAfter: number;
    usedBefore: number;
    usedPeak: number;
    usedAfter: number;
    /** Lengths of the kept masks' views taken before the growth (0 once detached). */
    staleLengths: number[];
    /** Their expected lengths, strips × height. */
    wordCounts: number[];
}

/** One byte per pixel, row-major: the reference's picture of a mask. */
class Pixels {
    readonly px: Uint8Array;
    constructor(
        readonly w: number,
        readonly h: number,
        px?: Uint8Array
    ) {
        this.px = px ?? new Uint8Array(w * h);
    }
    /** Random pixels of the given density. */
    static random(w: number, h: number, density: number, rnd: () => number): Pixels {
        const p = new Pixels(w, h);
        for (let i = 0; i < p.px.length; i++) p.px[i] = rnd() < density ? 1 : 0;
        return p;
    }
    /** A disc of random pixels somewhere inside, clear margins around it (what the content boxes skip). */
    static blob(w: number, h: number, density: number, rnd: () => number): Pixels {
        const p = new Pixels(w, h),
            cx = rnd() * w,
            cy = rnd() * h,
            r = 2 + rnd() * Math.min(w, h) * 0.4;
        for (let y = 0; y < h; y++)
            for (let x = 0; x < w; x++)
                if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r && rnd() < density) p.px[y * w + x] = 1;
        return p;
    }
    /** The pixels of a mask, read with get(). */
    static of(m: Mask): Pixels {
        const p = new Pixels(m.width, m.height);
        for (let y = 0; y < m.height; y++)
            for (let x = 0; x < m.width; x++) p.px[y * m.width + x] = m.get(x, y) ? 1 : 0;
        return p;
    }
    /** Whether (x, y) is set; outside is clear. */
    at(x: number, y: number): boolean {
        return x >= 0 && y >= 0 && x < this.w && y < this.h && this.px[y * this.w + x] === 1;
    }
    /** Number of set pixels. */
    count(): number {
        return this.px.reduce((n, v) => n + v, 0);
    }
    /** A mask built with set(). */
    toMask(): Mask {
        const m = new Mask(this.w, this.h);
        for (let y = 0; y < this.h; y++)
            for (let x = 0; x < this.w; x++) if (this.px[y * this.w + x] === 1) m.set(x, y);
        return m;
    }
    /** A mask built with fromRGBA (alpha above 127 where set, at most 127 elsewhere). */
    toMaskRGBA(rnd: () => number): Mask {
        const data = new Uint8ClampedArray(this.w * this.h * 4);
        for (let i = 0; i < this.px.length; i++)
            data[4 * i + 3] = this.px[i] === 1 ? 128 + Math.floor(rnd() * 128) : Math.floor(rnd() * 128);
        return Mask.fromRGBA(data, this.w, this.h);
    }
    /** The first pixel (row-major) set here and in `o` placed at (dx, dy). */
    overlap(o: Pixels, dx: number, dy: number): Point | null {
        for (let y = 0; y < this.h; y++)
            for (let x = 0; x < this.w; x++) if (this.at(x, y) && o.at(x - dx, y - dy)) return { x, y };
        return null;
    }
    /** This picture combined with `o` at (dx, dy): AND, OR (draw) or AND NOT (erase). */
    combine(o: Pixels, dx: number, dy: number, op: 'and' | 'or' | 'andNot'): Pixels {
        const r = new Pixels(this.w, this.h);
        for (let y = 0; y < this.h; y++)
            for (let x = 0; x < this.w; x++) {
                const a = this.at(x, y),
                    b = o.at(x - dx, y - dy);
                r.px[y * this.w + x] = (op === 'and' ? a && b : op === 'or' ? a || b : a && !b) ? 1 : 0;
            }
        return r;
    }
    /** Whether both pictures hold the same pixels. */
    same(o: Pixels): boolean {
        return this.w === o.w && this.h === o.h && this.px.every((v, i) => v === o.px[i]);
    }
}

/** Whether the bits past the width in the last strip are all clear. */
function paddingClear(m: Mask): boolean {
    // _words: reading `words` would switch off the content box the pair queries below are to use
    const words = m._words,
        rem = m.width & 31;
    if (rem === 0) return true;
    for (let i = (m.strips - 1) * m.height; i < words.length; i++) if (words[i] >>> rem !== 0) return false;
    return true;
}

/** A kernel configuration: the selected kernels, and whether every call is forced into WebAssembly. */
interface Config {
    name: string;
    kernels: KernelMode;
    minWordsZero: boolean;
}

const CONFIGS: readonly Config[] = [
    { name: 'js', kernels: 'js', minWordsZero: false },
    { name: 'wasm', kernels: 'wasm', minWordsZero: false },
    { name: 'wasm/minWords=0', kernels: 'wasm', minWordsZero: true }
];

/** Runs `fn` under a configuration, then restores the WebAssembly kernels and the previous wasmMinWords. */
function under<T>(config: Config, fn: () => T): T {
    const previous = wasmMinWords;
    setKernels(config.kernels);
    if (config.minWordsZero) setWasmMinWords(0);
    try {
        return fn();
    } finally {
        setWasmMinWords(previous);
        setKernels('wasm');
    }
}

/** Collects mismatches, keeping the first few descriptions. */
class Tally implements Mismatches {
    compared = 0;
    mismatches = 0;
    samples: string[] = [];
    /** Counts one comparison; a failed one is described by `what()`. */
    check(ok: boolean, what: () => string): void {
        this.compared++;
        if (ok) return;
        this.mismatches++;
        if (this.samples.length < 10) this.samples.push(what());
    }
}

/** A JSON string of any value, for mismatch descriptions. */
const show = (v: unknown): string => JSON.stringify(v);

/** The page's isolation and kernels, read before anything else runs. */
export function environment(): EnvironmentCheck {
    const s = kernelStats();
    return {
        isolated: globalThis.crossOriginIsolated,
        sharedArrayBuffer: typeof SharedArrayBuffer,
        kernels: s.kernels,
        reason: s.reason,
        sharedMemory: s.sharedMemory
    };
}

/** One random pair: two pictures and an offset (negative, edge-aligned or far apart now and then). */
interface Pair {
    a: Pixels;
    b: Pixels;
    dx: number;
    dy: number;
}

const DENSITIES = [0, 0.01, 0.05, 0.2, 0.5, 0.9, 1];

/** A random pair of pictures up to 200x120 with an offset in -b.w-8..a.w+8 (a multiple of 32 one time in five). */
function randomPair(rnd: () => number): Pair {
    const size = (max: number) => 1 + Math.floor(rnd() * max);
    const density = () => DENSITIES[Math.floor(rnd() * DENSITIES.length)];
    const picture = (w: number, h: number) => (rnd() < 0.5 ? Pixels.blob : Pixels.random)(w, h, density(), rnd);
    const a = picture(size(200), size(120)),
        b = picture(size(200), size(120));
    const offset = (along: number, across: number) => {
        const d = Math.floor(rnd() * (along + across + 17)) - across - 8;
        return rnd() < 0.2 ? d - (d & 31) : d;
    };
    return { a, b, dx: offset(a.w, b.w), dy: Math.floor(rnd() * (a.h + b.h + 17)) - b.h - 8 };
}

/** What one configuration computes for a pair. */
interface Answers {
    overlaps: boolean;
    area: number;
    first: Point | null;
    and: Mask;
    or: Mask;
    andNot: Mask;
}

/**
 * `n` random pairs built (A with fromRGBA, B with set) and compared under each configuration: overlaps,
 * overlapArea, overlap, overlapMask, draw and erase against the reference and across configurations, the
 * pair queries once before and again after the masks know their content boxes.
 */
export function pairs(n: number, seed: number): Mismatches {
    const rnd = mulberry32(seed),
        tally = new Tally();
    for (let i = 0; i < n; i++) {
        const { a, b, dx, dy } = randomPair(rnd);
        const where = `pair ${i} (${a.w}x${a.h} with ${b.w}x${b.h} at ${dx},${dy})`;
        const and = a.combine(b, dx, dy, 'and'),
            area = and.count();
        const want = {
            overlaps: area > 0,
            area,
            first: a.overlap(b, dx, dy),
            and,
            or: a.combine(b, dx, dy, 'or'),
            andNot: a.combine(b, dx, dy, 'andNot')
        };
        const all: Answers[] = [];
        for (const config of CONFIGS) {
            under(config, () => {
                const ma = a.toMaskRGBA(rnd),
                    mb = b.toMask(),
                    at = `${where} under ${config.name}`;
                const inWasm = config.kernels === 'wasm';
                tally.check(
                    ma._ptr >= 0 === inWasm && mb._ptr >= 0 === inWasm,
                    () => `${at}: words in the wrong memory (${ma._ptr}, ${mb._ptr})`
                );
                tally.check(
                    Pixels.of(ma).same(a) && Pixels.of(mb).same(b) && paddingClear(ma),
                    () => `${at}: the masks built differ from their pixels`
                );
                // Twice before the answers kept: the second large query computes each mask's content box, the
                // third and later clip to it (src/core/mask.ts), so every answer after the first round uses it.
                for (let round = 0; round < 2; round++) {
                    const first = ma.overlap(mb, dx, dy),
                        area = ma.overlapArea(mb, dx, dy);
                    tally.check(
                        show(first) === show(want.first) && area === want.area,
                        () => `${at}: round ${round}: overlap ${show(first)}, overlapArea ${area}`
                    );
                }
                const got: Answers = {
                    overlaps: ma.overlaps(mb, dx, dy),
                    area: ma.overlapArea(mb, dx, dy),
                    first: ma.overlap(mb, dx, dy),
                    and: ma.overlapMask(mb, dx, dy),
                    or: ma.clone().draw(mb, dx, dy),
                    andNot: ma.clone().erase(mb, dx, dy)
                };
                tally.check(
                    got.overlaps === want.overlaps,
                    () => `${at}: overlaps ${got.overlaps}, expected ${want.overlaps}`
                );
                tally.check(got.area === want.area, () => `${at}: overlapArea ${got.area}, expected ${want.area}`);
                tally.check(
                    show(got.first) === show(want.first),
                    () => `${at}: overlap ${show(got.first)}, expected ${show(want.first)}`
                );
                for (const op of ['and', 'or', 'andNot'] as const) {
                    tally.check(
                        Pixels.of(got[op]).same(want[op]) && paddingClear(got[op]),
                        () => `${at}: ${op} differs from the reference`
                    );
                }
                for (const other of all) {
                    for (const op of ['and', 'or', 'andNot'] as const)
                        tally.check(
                            got[op].equals(other[op]),
                            () => `${at}: ${op} words differ between configurations`
                        );
                }
                all.push(got);
                ma.dispose();
                mb.dispose();
            });
        }
        for (const got of all) for (const m of [got.and, got.or, got.andNot]) m.dispose();
    }
    return tally;
}

/**
 * Keeps a few WebAssembly masks, allocates `count` 512x512 masks (growing the memory), checks the kept
 * masks' answers and views, then disposes the big ones.
 */
export function growth(count: number, seed: number): GrowthCheck {
    const rnd = mulberry32(seed),
        tally = new Tally();
    const pictures = Array.from({ length: 6 }, (_, i) =>
        Pixels.random(20 + 30 * i, 10 + 20 * i, DENSITIES[1 + (i % 5)], rnd)
    );
    const kept = pictures.map(p => p.toMask());
    const stale = kept.map(m => m.words);
    const before = kernelStats();
    const big = Array.from({ length: count }, () => new Mask(512, 512, true));
    const peak = kernelStats();
    const probe = big[big.length - 1];
    kept.forEach((m, i) => {
        const p = pictures[i],
            q = pictures[(i + 1) % pictures.length],
            at = `kept mask ${i} (${p.w}x${p.h})`;
        tally.check(
            m.count() === p.count() && Pixels.of(m).same(p),
            () => `${at}: pixels changed after the memory grew`
        );
        tally.check(
            m.words.length === m.strips * m.height,
            () => `${at}: words are ${m.words.length} long, expected ${m.strips * m.height}`
        );
        tally.check(
            m.overlapArea(kept[(i + 1) % kept.length], 3, -2) === p.combine(q, 3, -2, 'and').count(),
            () => `${at}: overlapArea with mask ${(i + 1) % kept.length} is wrong`
        );
        tally.check(
            probe.overlapArea(m, 5, 7) === p.count(),
            () => `${at}: overlapArea under a full 512x512 mask is ${probe.overlapArea(m, 5, 7)}, expected ${p.count()}`
        );
    });
    for (const m of big) m.dispose();
    const after = kernelStats();
    for (const m of kept) m.dispose();
    return {
        ...tally,
        memoryBefore: before.memoryBytes,
        memoryAfter: peak.memoryBytes,
        usedBefore: before.usedBytes,
        usedPeak: peak.usedBytes,
        usedAfter: after.usedBytes,
        staleLengths: stale.map(w => w.length),
        wordCounts: kept.map(m => m.strips * m.height)
    };
}

/**
 * A 320x200 two-layer raster with `stamps` random masks stamped into alternate layers (some partly
 * outside), queried by `queries` random masks over each layer set with test, overlapArea and hitPoint,
 * under each configuration, against the reference.
 */
export function raster(stamps: number, queries: number, seed: number): Mismatches {
    const W = 320,
        H = 200,
        rnd = mulberry32(seed),
        tally = new Tally();
    const placed = Array.from({ length: stamps }, (_, i) => ({
        p: Pixels.random(
            10 + Math.floor(rnd() * 150),
            10 + Math.floor(rnd() * 100),
            DENSITIES[1 + Math.floor(rnd() * 6)],
            rnd
        ),
        x: Math.floor(rnd() * (W + 60)) - 60,
        y: Math.floor(rnd() * (H + 40)) - 40,
        layer: i % 2
    }));
    const layers = [new Pixels(W, H), new Pixels(W, H)];
    for (const { p, x, y, layer } of placed) layers[layer] = layers[layer].combine(p, x, y, 'or');
    const probes = Array.from({ length: queries }, () => {
        const p = Pixels.random(
            1 + Math.floor(rnd() * 100),
            1 + Math.floor(rnd() * 80),
            DENSITIES[Math.floor(rnd() * 7)],
            rnd
        );
        const x = Math.floor(rnd() * (W + p.w)) - p.w,
            y = Math.floor(rnd() * (H + p.h)) - p.h,
            set = 1 + Math.floor(rnd() * 3);
        const union = new Pixels(W, H);
        for (const [k, layer] of layers.entries())
            if (set & (1 << k))
                layer.px.forEach((v, j) => {
                    union.px[j] |= v;
                });
        return { p, x, y, set, area: union.combine(p, x, y, 'and').count(), first: union.overlap(p, x, y) };
    });
    for (const config of CONFIGS) {
        under(config, () => {
            const r = new CollisionRaster(W, H, { layers: 2 });
            for (const { p, x, y, layer } of placed) {
                const m = p.toMask();
                r.stamp(m, x, y, { layer });
                m.dispose();
            }
            for (const [k, layer] of layers.entries())
                tally.check(
                    Pixels.of(r.plane(k)).same(layer),
                    () => `${config.name}: layer ${k} differs from the reference after stamping`
                );
            probes.forEach(({ p, x, y, set, area, first }, i) => {
                const m = p.toMask(),
                    at = `${config.name}: probe ${i} (${p.w}x${p.h} at ${x},${y}, layers ${set})`;
                const on = { layers: set };
                tally.check(r.overlaps(m, x, y, on) === area > 0, () => `${at}: overlaps is ${!(area > 0)}`);
                tally.check(
                    r.overlapArea(m, x, y, on) === area,
                    () => `${at}: overlapArea ${r.overlapArea(m, x, y, on)}, expected ${area}`
                );
                tally.check(
                    show(r.overlap(m, x, y, on)) === show(first),
                    () => `${at}: overlap ${show(r.overlap(m, x, y, on))}, expected ${show(first)}`
                );
                m.dispose();
            });
        });
    }
    return tally;
}
