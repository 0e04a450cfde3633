// WebAssembly SIMD kernels vs the JS kernels vs the naive per-pixel loop vs pygame.mask, in one run; then
// the WebAssembly kernels in Node with and without SharedArrayBuffer and in Chromium pages with and
// without cross-origin isolation (bench/simd-page.ts).
// Run: npm run bench -- simd   (`npm run bench -- simd --js`: only the JS fallback vs pygame table; pygame columns
// need Debian's python3-pygame, the browser table /usr/bin/chromium; each is skipped with a note otherwise)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import type { Browser } from 'playwright-core';
import { kernelStats, Mask, overlapsMany } from '../src/index.js';
import { setKernels } from '../src/index.js';
import { setWasmMinWords, wasmMinWords } from '../src/kernels/memory.js'; // internal: the JS/WebAssembly cut-over has no public entry
import { banner, fmt, mulberry32, table, time, type Timing } from './harness.js';
import { makeScene, toRGBA, type HitKind } from './scenes.js';
import { run as runSimdPage, type SimdRun } from './simd-page.js';

const SIZES = [32, 64, 256, 1024];
const KINDS: HitKind[] = ['early', 'late', 'none'];
const QUICK = { samples: 7, sampleMs: 10 };
const AUTO_MIN = wasmMinWords;

banner('hitmask WebAssembly SIMD kernels vs JS kernels vs naive loop vs pygame.mask');

function naiveOverlaps(a: Uint8Array, b: Uint8Array, s: number, dx: number, dy: number): boolean {
    for (let y = Math.max(0, dy); y < Math.min(s, dy + s); y++) {
        for (let x = Math.max(0, dx); x < Math.min(s, dx + s); x++)
            if (a[y * s + x] && b[(y - dy) * s + x - dx]) return true;
    }
    return false;
}

// Both backends' masks for every scene, built while that backend is selected (it decides where words live).
const dir = mkdtempSync(join(tmpdir(), 'hitmask-simd-'));
const scenes = SIZES.flatMap(size =>
    KINDS.map(kind => {
        const sc = makeScene(size, kind),
            ra = toRGBA(sc.a),
            rb = toRGBA(sc.b);
        const pa = join(dir, `${size}-${kind}-a.rgba`),
            pb = join(dir, `${size}-${kind}-b.rgba`);
        writeFileSync(pa, ra);
        writeFileSync(pb, rb);
        setKernels('js');
        const js = [Mask.fromRGBA(ra, size, size), Mask.fromRGBA(rb, size, size), new Mask(size, size)];
        setKernels('wasm');
        const wasm = [Mask.fromRGBA(ra, size, size), Mask.fromRGBA(rb, size, size), new Mask(size, size)];
        return { ...sc, js, wasm, pa, pb };
    })
);

const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const py = spawnSync(python, [new URL('./pygame-bench.py', import.meta.url).pathname], {
    input: JSON.stringify(scenes.map(s => ({ size: s.size, kind: s.kind, a: s.pa, b: s.pb, dx: s.dx, dy: s.dy }))),
    encoding: 'utf8',
    maxBuffer: 16 << 20
});
rmSync(dir, { recursive: true, force: true });
type PyTiming = { median: number; min: number };
type PyResult = {
    size: number;
    kind: string;
    check: number;
    overlap: PyTiming;
    overlap_area?: PyTiming;
    overlap_mask?: PyTiming;
    call_overhead?: PyTiming;
};
let pyOut: { pygame: string; python: string; results: PyResult[] } | null = null;
if (py.status === 0) pyOut = JSON.parse(py.stdout);
else
    console.log(
        `pygame columns skipped: ${(py.stderr || py.error?.message || 'python3 failed').trim().split('\n').pop()}\n`
    );
if (pyOut)
    console.log(
        `pygame ${pyOut.pygame} on Python ${pyOut.python}, timed in-process with timeit on the same masks and offsets\n`
    );
const pyFor = (size: number, kind: string) => pyOut?.results.find(r => r.size === size && r.kind === kind);
const r = (ours: Timing, other: { median: number } | undefined) =>
    other ? (ours.median / other.median).toFixed(2) : 'n/a';

// The pure-JavaScript fallback (no WebAssembly SIMD) against pygame's C, op by op: full scans (no hit)
// for overlaps and overlap(), the "late" scene (one hit, at the last pixel) for overlapArea and
// overlapMask, as pygame-bench.py times them. Both sides also give their best sample (here of 41 short
// ones): on a loaded machine the two processes run at different moments, and best samples compare more
// steadily than medians. Each op is timed twice: first as the process starts, then after an ArrayBuffer
// has been detached (a transfer to a worker, a plain WebAssembly memory growing, loading playwright-core):
// from then on V8 checks every typed-array access for a detached buffer (~25% slower full scans here).
// `--js` prints this table alone.
{
    type Case = readonly [string, () => unknown, PyTiming | undefined];
    const cases: { size: number; kind: string; c: Case }[] = [];
    for (const size of [64, 256, 1024]) {
        for (const kind of ['none', 'late'] as const) {
            const s = scenes.find(x => x.size === size && x.kind === kind);
            if (s === undefined) continue;
            const { dx, dy } = s,
                [ja, jb, jo] = s.js,
                p = pyFor(size, kind);
            const list: Case[] =
                kind === 'none'
                    ? [
                          ['overlaps', () => ja.overlaps(jb, dx, dy), p?.overlap],
                          ['overlap (first point)', () => ja.overlap(jb, dx, dy), p?.overlap]
                      ]
                    : [
                          ['overlapArea', () => ja.overlapArea(jb, dx, dy), p?.overlap_area],
                          [
                              'overlapMask + dispose',
                              () => {
                                  ja.overlapMask(jb, dx, dy).dispose();
                                  return 0;
                              },
                              p?.overlap_mask
                          ],
                          ['overlapMask(…, out)', () => ja.overlapMask(jb, dx, dy, jo), p?.overlap_mask]
                      ];
            for (const c of list) cases.push({ size, kind, c });
        }
    }
    setKernels('js');
    const run = () =>
        cases.map(({ c: [, fn] }) => {
            // ~50 ms of calls first: on a loaded machine the optimizing compiler (a background thread) can
            // finish after time()'s short warm-up, and the first samples would time unoptimized code.
            for (const t0 = performance.now(); performance.now() - t0 < 50;) for (let k = 0; k < 100; k++) fn();
            return time(fn as () => number, { samples: 41, sampleMs: 5 });
        });
    const clean = run();
    const buf = new ArrayBuffer(8);
    structuredClone(buf, { transfer: [buf] });
    const detached = run();
    table(
        [
            'size',
            'op (JS fallback kernels)',
            'scene',
            'JS',
            'JS best',
            'JS best, buffer detached',
            'pygame',
            'pygame best',
            'JS / pygame',
            'best / best',
            'detached best / best'
        ],
        cases.map(({ size, kind, c: [name, , pt] }, k) => {
            const t = clean[k],
                d = detached[k];
            return [
                `${size}²`,
                name,
                kind,
                fmt(t.median),
                fmt(t.min),
                fmt(d.min),
                pt ? fmt(pt.median) : 'n/a',
                pt ? fmt(pt.min) : 'n/a',
                r(t, pt),
                pt ? (t.min / pt.min).toFixed(2) : 'n/a',
                pt ? (d.min / pt.min).toFixed(2) : 'n/a'
            ];
        })
    );
    if (process.argv.includes('--js')) process.exit(0);
}

const rows: (string | number)[][] = [],
    ops: (string | number)[][] = [];
for (const s of scenes) {
    const { size, kind, dx, dy } = s,
        [ja, jb] = s.js,
        [wa, wb] = s.wasm,
        p = pyFor(size, kind);
    const want = naiveOverlaps(s.a, s.b, size, dx, dy);
    if (ja.overlaps(jb, dx, dy) !== want || wa.overlaps(wb, dx, dy) !== want || want !== (kind !== 'none'))
        throw new Error(`overlaps disagrees at ${size} ${kind}`);
    if (p && (p.check !== ja.overlapArea(jb, dx, dy) || p.check !== wa.overlapArea(wb, dx, dy)))
        throw new Error(`area disagrees with pygame at ${size} ${kind}`);
    setKernels('js');
    const tj = time(() => ja.overlaps(jb, dx, dy), QUICK);
    setKernels('wasm');
    const tw = time(() => wa.overlaps(wb, dx, dy), QUICK);
    const naive =
        kind === 'none' ? time(() => naiveOverlaps(s.a, s.b, size, dx, dy), { samples: 3, sampleMs: 10 }) : null;
    rows.push([
        `${size}²`,
        kind,
        fmt(tj.median),
        fmt(tw.median),
        (tj.median / tw.median).toFixed(1) + '×',
        naive ? fmt(naive.median) : '',
        p ? fmt(p.overlap.median) : 'n/a',
        r(tj, p?.overlap),
        r(tw, p?.overlap)
    ]);
    if (kind === 'none') {
        // overlap() (the first point) scans everything when nothing hits: against pygame's overlap on the same scene.
        setKernels('js');
        const j = time(() => ja.overlap(jb, dx, dy), QUICK);
        setKernels('wasm');
        const w = time(() => wa.overlap(wb, dx, dy), QUICK);
        ops.push([
            `${size}²`,
            'overlap (first point), no hit',
            fmt(j.median),
            fmt(w.median),
            (j.median / w.median).toFixed(1) + '×',
            p ? fmt(p.overlap.median) : 'n/a',
            r(j, p?.overlap),
            r(w, p?.overlap)
        ]);
    }
    if (kind !== 'late') continue;
    for (const [name, fj, fw, pt] of [
        ['overlapArea', () => ja.overlapArea(jb, dx, dy), () => wa.overlapArea(wb, dx, dy), p?.overlap_area],
        // Each result is disposed: a timing loop never yields, so dropped results would never be freed and
        // every call would map fresh memory (the cost of the loop, not of the kernel; README, Memory).
        [
            'overlapMask + dispose',
            () => {
                ja.overlapMask(jb, dx, dy).dispose();
                return 0;
            },
            () => {
                wa.overlapMask(wb, dx, dy).dispose();
                return 0;
            },
            p?.overlap_mask
        ],
        [
            'overlapMask(…, out)',
            () => ja.overlapMask(jb, dx, dy, s.js[2]),
            () => wa.overlapMask(wb, dx, dy, s.wasm[2]),
            p?.overlap_mask
        ],
        ['draw', () => ja.draw(jb, dx, dy), () => wa.draw(wb, dx, dy), undefined]
    ] as const) {
        setKernels('js');
        const j = time(fj, QUICK);
        setKernels('wasm');
        const w = time(fw, QUICK);
        ops.push([
            `${size}²`,
            name,
            fmt(j.median),
            fmt(w.median),
            (j.median / w.median).toFixed(1) + '×',
            pt ? fmt(pt.median) : 'n/a',
            r(j, pt),
            r(w, pt)
        ]);
    }
}
table(
    [
        'size',
        'hit',
        'overlaps JS',
        'overlaps WASM SIMD',
        'JS / SIMD',
        'naive loop',
        'pygame overlap',
        'JS / pygame',
        'SIMD / pygame'
    ],
    rows
);
table(['size', 'op', 'JS', 'WASM SIMD', 'JS / SIMD', 'pygame', 'JS / pygame', 'SIMD / pygame'], ops);
const oh = pyOut?.results.find(x => x.call_overhead)?.call_overhead;
if (oh) console.log(`pygame's per-call floor (an early-rejected overlap, Python call included): ${fmt(oh.median)}.\n`);

// The physical-limit anchor: the same full scans in C with SSE2 and AVX2 (bench/c/overlaps.c), built
// here when a C compiler is present, on the same words and offsets.
{
    const cc = ['cc', 'gcc', 'clang'].find(c => spawnSync(c, ['--version']).status === 0);
    if (cc === undefined) {
        console.log('C reference loops skipped: no C compiler (cc, gcc or clang) on PATH.\n');
    } else {
        const tmp = mkdtempSync(join(tmpdir(), 'hitmask-c-')),
            src = fileURLToPath(new URL('./c/overlaps.c', import.meta.url));
        const builds = [
            ['SSE2', ['-msse2']],
            ['AVX2', ['-mavx2', '-DUSE_AVX2']]
        ] as const;
        const exe: Record<string, string | null> = {};
        for (const [name, flags] of builds) {
            const out = join(tmp, name);
            exe[name] = spawnSync(cc, ['-O3', ...flags, src, '-o', out]).status === 0 ? out : null;
        }
        const crow: (string | number)[][] = [];
        for (const s of scenes.filter(x => x.kind === 'none' && x.size >= 256)) {
            const [wa, wb] = s.wasm,
                file = join(tmp, `${s.size}.bin`);
            const head = new Int32Array([wa.width, wa.height, wb.width, wb.height, s.dx, s.dy]);
            writeFileSync(
                file,
                Buffer.concat([
                    Buffer.from(head.buffer),
                    Buffer.from(wa.words.slice().buffer),
                    Buffer.from(wb.words.slice().buffer)
                ])
            );
            const ours = time(() => wa.overlaps(wb, s.dx, s.dy), QUICK).median;
            const c: Record<string, number | null> = {};
            for (const [name] of builds) {
                const r = exe[name] ? spawnSync(exe[name] as string, [file], { encoding: 'utf8' }) : null;
                const [hit, ns] = r?.status === 0 ? r.stdout.trim().split(' ').map(Number) : [NaN, NaN];
                if (r?.status === 0 && hit !== 0) throw new Error(`C reference disagrees at ${s.size}²`);
                c[name] = r?.status === 0 ? ns : null;
            }
            crow.push([
                `${s.size}²`,
                fmt(ours),
                c.SSE2 === null ? 'n/a' : fmt(c.SSE2),
                c.AVX2 === null ? 'n/a (no AVX2 build or CPU)' : fmt(c.AVX2),
                c.SSE2 === null ? 'n/a' : (ours / c.SSE2).toFixed(2),
                c.AVX2 === null ? 'n/a' : (ours / c.AVX2).toFixed(2)
            ]);
        }
        rmSync(tmp, { recursive: true, force: true });
        table(['overlaps, no hit', 'hitmask WASM', `C SSE2 (${cc} -O3)`, 'C AVX2', 'WASM / SSE2', 'WASM / AVX2'], crow);
    }
}

// Where a single call should switch to WebAssembly: full scans (no hit) of small square pairs (the pair
// queries no longer switch: WebAssembly won at every size here, down to 2 words).
const thr: (string | number)[][] = [];
for (const size of [15, 16, 20, 24, 32, 48, 64]) {
    const sc = makeScene(size, 'none'),
        ra = toRGBA(sc.a),
        rb = toRGBA(sc.b);
    setKernels('js');
    const [ja, jb] = [Mask.fromRGBA(ra, size, size), Mask.fromRGBA(rb, size, size)];
    setKernels('wasm');
    const [wa, wb] = [Mask.fromRGBA(ra, size, size), Mask.fromRGBA(rb, size, size)];
    const words = (size - sc.dy) * (((size - 1) >> 5) - (sc.dx >> 5) + 1);
    setKernels('js');
    const j = time(() => ja.overlaps(jb, sc.dx, sc.dy), QUICK);
    setKernels('wasm');
    setWasmMinWords(0);
    const w = time(() => wa.overlaps(wb, sc.dx, sc.dy), QUICK);
    setWasmMinWords(AUTO_MIN);
    thr.push([`${size}²`, words, fmt(j.median), fmt(w.median), j.median < w.median ? 'JS' : 'WASM']);
}
table(['size (no hit)', 'words scanned', 'JS', 'WASM (forced)', 'faster'], thr);
console.log(
    `overlaps, overlapArea and overlap use WebAssembly at every size (kernels.ts, pickWasm); draw, erase and overlapMask from ${AUTO_MIN} words of intersection (wasmMinWords).\n`
);

// Batched small sprites: 2000 pairs of 16² to 48² disc sprites whose boxes intersect, per pair.
const rnd = mulberry32(9);
function sprite(): Uint8Array {
    const n = 16 + Math.floor(rnd() * 33),
        c = (n - 1) / 2,
        px = new Uint8Array(n * n * 4);
    for (let y = 0; y < n; y++)
        for (let x = 0; x < n; x++) if ((x - c) ** 2 + (y - c) ** 2 <= c * c) px[(y * n + x) * 4 + 3] = 255;
    return px;
}
const spritePx = Array.from({ length: 64 }, sprite).map(px => ({ px, n: Math.sqrt(px.length / 4) }));
const build = (mode: 'js' | 'wasm') => {
    setKernels(mode);
    return spritePx.map(s => Mask.fromRGBA(s.px, s.n, s.n));
};
const jm = build('js'),
    wm = build('wasm');
const NP = 2000,
    P = new Int32Array(NP * 4),
    out = new Uint8Array(NP);
for (let k = 0; k < NP; k++) {
    const ia = Math.floor(rnd() * 64),
        ib = Math.floor(rnd() * 64),
        na = spritePx[ia].n,
        nb = spritePx[ib].n;
    P.set([ia, ib, Math.floor(rnd() * (na + nb)) - nb, Math.floor(rnd() * (na + nb)) - nb], 4 * k);
}
const loop = (m: Mask[]) => () => {
    let h = 0;
    for (let k = 0; k < NP; k++) if (m[P[4 * k]].overlaps(m[P[4 * k + 1]], P[4 * k + 2], P[4 * k + 3])) h++;
    return h;
};
setKernels('js');
const hitsJs = loop(jm)();
const bl = time(loop(jm), QUICK),
    bmj = time(() => overlapsMany(jm, P, out), QUICK);
setKernels('wasm');
if (loop(wm)() !== hitsJs || overlapsMany(wm, P, out) !== hitsJs) throw new Error('batch disagrees');
const wl = time(loop(wm), QUICK),
    bmw = time(() => overlapsMany(wm, P, out), QUICK);
setWasmMinWords(0);
const wl0 = time(loop(wm), QUICK);
setWasmMinWords(AUTO_MIN);
table(
    ['2000 pairs, 16²–48² disc sprites, boxes intersecting', 'per pair'],
    [
        ['JS kernels, one overlaps() per pair', fmt(bl.median / NP)],
        ['JS kernels, overlapsMany', fmt(bmj.median / NP)],
        ['WASM kernels, one overlaps() per pair (auto threshold)', fmt(wl.median / NP)],
        ['WASM kernels, one overlaps() per pair (every call in WASM)', fmt(wl0.median / NP)],
        ['WASM kernels, overlapsMany (one call)', fmt(bmw.median / NP)]
    ]
);
console.log(`${hitsJs} of ${NP} pairs overlap. Scenes: two s×s masks, b at (13, 2); "none" = full scan without a hit.`);
console.log('Shared 2-core machine: short runs (7 samples × 10 ms), expect ±10–20 % between runs.');

// The same WebAssembly timings in four runtimes: Node with shared memory (this process), Node without
// SharedArrayBuffer (a child with the no-shared-memory preload), and Chromium pages served with and
// without cross-origin isolation (COOP + COEP), where the memory is shared or plain as on the web.
const CHROMIUM = '/usr/bin/chromium';
console.log();
if (!existsSync(CHROMIUM)) {
    console.log(`Browser table skipped: ${CHROMIUM} is missing (apt-get install chromium).`);
} else {
    const expect = (where: string, got: SimdRun, shared: boolean, isolated: boolean | null) => {
        console.log(
            `${where}: kernels ${got.kernels}, sharedMemory ${got.sharedMemory}, crossOriginIsolated ${got.isolated ?? 'n/a'}`
        );
        if (got.kernels !== 'wasm' || got.sharedMemory !== shared || got.isolated !== isolated) {
            throw new Error(`${where}: expected kernels wasm, sharedMemory ${shared}, crossOriginIsolated ${isolated}`);
        }
        return got;
    };
    const root = fileURLToPath(new URL('..', import.meta.url));
    // The tables above dropped ~200,000 masks without dispose(); yielding lets FinalizationRegistry free
    // them: while they are pending, each create/dispose of a mask over 2 KiB costs time in proportion to
    // their number (the Map in src/kernels/memory.ts that holds one entry per block).
    await new Promise(r => setTimeout(r, 10));
    const left = kernelStats();
    console.log(
        `Node shared runs in this process, after the tables above: ${left.wasmMasks} masks live, ${(left.memoryBytes / 2 ** 20).toFixed(0)} MiB of WebAssembly memory.`
    );
    const nodeShared = expect('Node shared', runSimdPage(), true, null);
    const child = spawnSync(
        process.execPath,
        [
            '--import',
            'tsx',
            '--import',
            './test/env/no-shared-memory.mjs',
            '--input-type=module',
            '-e',
            "const { run } = await import('./bench/simd-page.ts'); console.log(JSON.stringify(run()));"
        ],
        { cwd: root, encoding: 'utf8' }
    );
    if (child.status !== 0) throw new Error(`the no-SharedArrayBuffer child failed: ${child.stderr}`);
    const nodePlain = expect('Node no-SAB', JSON.parse(child.stdout) as SimdRun, false, null);

    const server = createServer((req, res) => {
        res.setHeader('Content-Type', 'text/html');
        if (req.url === '/isolated') {
            res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
            res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
        }
        res.end('<!doctype html><title>hitmask SIMD bench</title>');
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    let browser: Browser | null = null;
    try {
        const bundle = await esbuild.build({
            entryPoints: [fileURLToPath(new URL('./simd-page.ts', import.meta.url))],
            bundle: true,
            format: 'iife',
            globalName: 'hitmaskSimdPage',
            write: false,
            target: 'es2022'
        });
        // Imported here, not at the top: loading playwright-core detaches an ArrayBuffer, after which V8
        // checks for detached buffers on every typed-array access (see the JS fallback table).
        const { chromium } = await import('playwright-core');
        browser = await chromium.launch({
            executablePath: CHROMIUM,
            args: [
                '--no-sandbox',
                '--disable-gpu',
                '--disable-background-networking',
                '--disable-component-update',
                '--disable-sync',
                '--no-first-run',
                '--disable-quic'
            ]
        });
        const inPage = async (path: string): Promise<SimdRun> => {
            const page = await (browser as Browser).newPage();
            // A fallback warning (WebAssembly memory at its ceiling) or an error would make the column meaningless.
            page.on('console', m => {
                if (m.type() === 'warning' || m.type() === 'error')
                    console.log(`page ${path} console.${m.type()}: ${m.text()}`);
            });
            await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
            const r = (await page.evaluate(`${bundle.outputFiles[0].text}\nhitmaskSimdPage.run()`)) as SimdRun;
            await page.close();
            return r;
        };
        const isolated = expect('Chromium isolated', await inPage('/isolated'), true, true);
        const plain = expect('Chromium plain', await inPage('/plain'), false, false);
        console.log(
            `Chromium ${browser.version()} (headless, ${CHROMIUM}); each figure: median of 15 samples of ~20 ms after warm-up.\n`
        );
        const us = (ns: number) => (ns / 1e3).toFixed(ns < 1e4 ? 3 : 1);
        const x = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
        table(
            [
                'op (no hit: full scan)',
                'Node shared µs',
                'Node no-SAB µs',
                'Chromium isolated µs',
                'Chromium plain µs',
                'plain / isolated',
                'no-SAB / shared'
            ],
            Object.keys(nodeShared.ns).map(op => [
                op,
                us(nodeShared.ns[op]),
                us(nodePlain.ns[op]),
                us(isolated.ns[op]),
                us(plain.ns[op]),
                x(plain.ns[op], isolated.ns[op]),
                x(nodePlain.ns[op], nodeShared.ns[op])
            ])
        );
    } finally {
        await browser?.close();
        server.close();
    }
}
