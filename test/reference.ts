// Naive pixel-by-pixel reference implementation: one byte per pixel, no cleverness. Test oracle only.
import { test } from 'node:test';
import { Mask } from '../src/index.js';
import { setKernels } from '../src/index.js';
import { setWasmMinWords, wasmMinWords } from '../src/kernels/memory.js'; // internal: the JS/WebAssembly cut-over has no public entry
import { kernelStats } from '../src/index.js';

/** Deterministic PRNG (mulberry32), shared with the benchmarks. */
export { mulberry32 } from '../bench/harness.js';
import { mulberry32 } from '../bench/harness.js';

export class Ref {
    readonly px: Uint8Array;
    constructor(
        readonly w: number,
        readonly h: number,
        px?: Uint8Array
    ) {
        this.px = px ?? new Uint8Array(w * h);
    }
    static random(w: number, h: number, density: number, seed: number): Ref {
        const r = new Ref(w, h),
            rnd = mulberry32(seed);
        for (let i = 0; i < r.px.length; i++) r.px[i] = rnd() < density ? 1 : 0;
        return r;
    }
    static of(m: Mask): Ref {
        const r = new Ref(m.width, m.height);
        for (let y = 0; y < m.height; y++)
            for (let x = 0; x < m.width; x++) r.px[y * m.width + x] = m.get(x, y) ? 1 : 0;
        return r;
    }
    toMask(): Mask {
        const m = new Mask(this.w, this.h);
        for (let y = 0; y < this.h; y++) for (let x = 0; x < this.w; x++) if (this.px[y * this.w + x]) m.set(x, y);
        return m;
    }
    at(x: number, y: number): boolean {
        return x >= 0 && y >= 0 && x < this.w && y < this.h && this.px[y * this.w + x] === 1;
    }
    count(): number {
        let n = 0;
        for (const v of this.px) n += v;
        return n;
    }
    overlap(o: Ref, dx: number, dy: number): { x: number; y: number } | null {
        for (let y = 0; y < this.h; y++)
            for (let x = 0; x < this.w; x++) if (this.at(x, y) && o.at(x - dx, y - dy)) return { x, y };
        return null;
    }
    overlapArea(o: Ref, dx: number, dy: number): number {
        let n = 0;
        for (let y = 0; y < this.h; y++)
            for (let x = 0; x < this.w; x++) if (this.at(x, y) && o.at(x - dx, y - dy)) n++;
        return n;
    }
    overlapMask(o: Ref, dx: number, dy: number): Ref {
        const r = new Ref(this.w, this.h);
        for (let y = 0; y < this.h; y++)
            for (let x = 0; x < this.w; x++) r.px[y * this.w + x] = this.at(x, y) && o.at(x - dx, y - dy) ? 1 : 0;
        return r;
    }
    draw(o: Ref, dx: number, dy: number, erase = false): Ref {
        const r = new Ref(this.w, this.h, this.px.slice());
        for (let y = 0; y < this.h; y++) {
            for (let x = 0; x < this.w; x++) {
                if (o.at(x - dx, y - dy)) r.px[y * this.w + x] = erase ? 0 : 1;
            }
        }
        return r;
    }
    boundingRect(): { x: number; y: number; width: number; height: number } | null {
        let x0 = Infinity,
            y0 = Infinity,
            x1 = -1,
            y1 = -1;
        for (let y = 0; y < this.h; y++)
            for (let x = 0; x < this.w; x++)
                if (this.at(x, y)) {
                    x0 = Math.min(x0, x);
                    y0 = Math.min(y0, y);
                    x1 = Math.max(x1, x);
                    y1 = Math.max(y1, y);
                }
        return x1 < 0 ? null : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
    }
    /** 8-connected components by flood fill, ordered by their first pixel in row-major order. */
    components(): Ref[] {
        const label = new Int32Array(this.w * this.h).fill(-1);
        const out: Ref[] = [];
        for (let y = 0; y < this.h; y++)
            for (let x = 0; x < this.w; x++) {
                if (!this.at(x, y) || label[y * this.w + x] >= 0) continue;
                const comp = new Ref(this.w, this.h);
                const stack = [x, y];
                label[y * this.w + x] = out.length;
                while (stack.length) {
                    const cy = stack.pop()!,
                        cx = stack.pop()!;
                    comp.px[cy * this.w + cx] = 1;
                    for (let ny = cy - 1; ny <= cy + 1; ny++)
                        for (let nx = cx - 1; nx <= cx + 1; nx++) {
                            if (this.at(nx, ny) && label[ny * this.w + nx] < 0) {
                                label[ny * this.w + nx] = out.length;
                                stack.push(nx, ny);
                            }
                        }
                }
                out.push(comp);
            }
        return out;
    }
    centroid(): { x: number; y: number } | null {
        let n = 0,
            sx = 0,
            sy = 0;
        for (let y = 0; y < this.h; y++)
            for (let x = 0; x < this.w; x++)
                if (this.at(x, y)) {
                    n++;
                    sx += x;
                    sy += y;
                }
        return n ? { x: sx / n, y: sy / n } : null;
    }
    angle(): number {
        const c = this.centroid();
        if (!c) return 0;
        let m20 = 0,
            m02 = 0,
            m11 = 0;
        for (let y = 0; y < this.h; y++)
            for (let x = 0; x < this.w; x++)
                if (this.at(x, y)) {
                    m20 += (x - c.x) ** 2;
                    m02 += (y - c.y) ** 2;
                    m11 += (x - c.x) * (y - c.y);
                }
        return (-0.5 * Math.atan2(2 * m11, m20 - m02) * 180) / Math.PI;
    }
    convolve(o: Ref): Ref {
        const w = Math.max(0, this.w + o.w - 1),
            h = Math.max(0, this.h + o.h - 1);
        const r = new Ref(w, h);
        for (let j = 0; j < h; j++)
            for (let i = 0; i < w; i++) {
                r.px[j * w + i] = this.overlap(o, i - (o.w - 1), j - (o.h - 1)) ? 1 : 0;
            }
        return r;
    }
    scale(w: number, h: number): Ref {
        const r = new Ref(w, h);
        if (this.w === 0 || this.h === 0) return r;
        for (let y = 0; y < h; y++)
            for (let x = 0; x < w; x++) {
                r.px[y * w + x] = this.px[Math.floor((y * this.h) / h) * this.w + Math.floor((x * this.w) / w)];
            }
        return r;
    }
    map(w: number, h: number, f: (x: number, y: number) => [number, number]): Ref {
        const r = new Ref(w, h);
        for (let y = 0; y < this.h; y++)
            for (let x = 0; x < this.w; x++)
                if (this.at(x, y)) {
                    const [nx, ny] = f(x, y);
                    r.px[ny * w + nx] = 1;
                }
        return r;
    }
    crop(x0: number, y0: number, w: number, h: number): Ref {
        const r = new Ref(w, h);
        for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) r.px[y * w + x] = this.at(x + x0, y + y0) ? 1 : 0;
        return r;
    }
}

/** Asserts that a Mask holds exactly the pixels of a Ref (and its padding bits are zero). */
export function sameMask(m: Mask, r: Ref): boolean {
    if (m.width !== r.w || m.height !== r.h) return false;
    for (let y = 0; y < r.h; y++) for (let x = 0; x < r.w; x++) if (m.get(x, y) !== r.at(x, y)) return false;
    // padding bits of the last strip must stay zero
    const pad = m.width & 31;
    if (pad !== 0) {
        const base = (m.strips - 1) * m.height;
        for (let y = 0; y < m.height; y++) if (m.words[base + y] >>> pad !== 0) return false;
    }
    return true;
}

/** Kernel backends the suite runs on: the JS path always, WebAssembly SIMD where this runtime has it. */
export const KERNELS: ('js' | 'wasm')[] = kernelStats().wasmAvailable ? ['js', 'wasm'] : ['js'];

/** Runs `fn` with the given kernels selected; under 'wasm' every call goes to WebAssembly, however small. */
export function withKernels<T>(mode: 'js' | 'wasm', fn: () => T): T {
    const prevMode = kernelStats().kernels,
        prevMin = wasmMinWords;
    setKernels(mode);
    setWasmMinWords(0);
    try {
        return fn();
    } finally {
        setKernels(prevMode);
        setWasmMinWords(prevMin);
    }
}

/** Registers `fn` once per backend in {@link KERNELS}, named `name [js]` / `name [wasm]`. */
export function testKernels(name: string, fn: () => void): void {
    for (const mode of KERNELS) test(`${name} [${mode}]`, () => withKernels(mode, fn));
}
