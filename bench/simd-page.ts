// The WebAssembly kernel timings that bench/simd.bench.ts compares across runtimes: bundled with esbuild
// (iife, globalName hitmaskSimdPage) and run in Chromium pages, and imported as is by Node, so every
// column times the same scenes with the same loop (timing.ts). No Node imports here.
import { Mask, kernelStats } from '../src/index.js';
import { makeScene, toRGBA } from './scenes.js';
import { time } from './timing.js';

/** What one runtime reports: its kernels and memory, and nanoseconds per call for each op. */
export interface SimdRun {
    isolated: boolean | null;
    kernels: string;
    sharedMemory: boolean;
    ns: Record<string, number>;
}

/** Times overlaps and overlapArea (256², 1024²) and overlapMask (256²) on full-scan scenes: the boxes intersect, no pixel does. */
export function run(): SimdRun {
    const [s256, s1024] = [256, 1024].map(size => {
        const sc = makeScene(size, 'none');
        return {
            a: Mask.fromRGBA(toRGBA(sc.a), size, size),
            b: Mask.fromRGBA(toRGBA(sc.b), size, size),
            dx: sc.dx,
            dy: sc.dy
        };
    });
    for (const { a, b, dx, dy } of [s256, s1024]) {
        const m = a.overlapMask(b, dx, dy);
        if (a.overlaps(b, dx, dy) || a.overlapArea(b, dx, dy) !== 0 || m.count() !== 0)
            throw new Error(`the ${a.width}² scene overlaps`);
        m.dispose();
    }
    const ops: [string, () => boolean | number | Mask][] = [
        ['overlaps 256²', () => s256.a.overlaps(s256.b, s256.dx, s256.dy)],
        ['overlaps 1024²', () => s1024.a.overlaps(s1024.b, s1024.dx, s1024.dy)],
        ['overlapArea 256²', () => s256.a.overlapArea(s256.b, s256.dx, s256.dy)],
        ['overlapArea 1024²', () => s1024.a.overlapArea(s1024.b, s1024.dx, s1024.dy)],
        // Disposed inside the timed call: in a synchronous loop nothing collected is freed (finalizers wait
        // for the event loop), so WebAssembly memory would otherwise grow by 8 KiB per call.
        [
            'overlapMask + dispose 256²',
            () => {
                const m = s256.a.overlapMask(s256.b, s256.dx, s256.dy);
                m.dispose();
                return m;
            }
        ]
    ];
    const ns: Record<string, number> = {};
    for (const [name, fn] of ops) ns[name] = time(fn).median;
    const k = kernelStats(),
        isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
    return { isolated: isolated ?? null, kernels: k.kernels, sharedMemory: k.sharedMemory, ns };
}
