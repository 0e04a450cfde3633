// Every row of the speed table (where hitmask trailed its anchor) against that anchor, in one run:
// overlap() on the early-hit scenes and overlapMask 256² against pygame.mask (in-process timeit; overlapMask also
// against its kernel in C, bench/c/and.c, when a C compiler is present), the World at
// 1,000 sprites stepped interleaved with sort-and-sweep in this process (which has run the code above it),
// `hitmask build` on a real game's sprite folder against a pygame load + from_surface script (whole processes),
// and the demo at ?stress=10000 in headless Chromium against 60 fps. A row whose data or tool is missing
// (pygame, Chromium, the sprite folder, dist/) prints why and is skipped. Seeded; ratios are hitmask / anchor.
// Run: npm run bench -- speed   (about a minute; SPRITES=<folder of PNGs> picks another sprite folder)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Mask, World, type Body } from '../src/index.js';
import { banner, fmt, fmtTiming, table, time, type Timing } from './harness.js';
import { naiveFirst, pointScenes } from './point-scenes.js';
import { makeScene as makePairScene, toRGBA } from './scenes.js';
import { sortAndSweep } from './sweep.js';
import { advance, loadSprites, makeScene } from './world-scene.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const python = '/usr/bin/python3';
const SPRITES = process.env.SPRITES ?? '/usr/share/games/hedgewars/Data/Graphics';
const CHROMIUM = '/usr/bin/chromium';

banner('hitmask speed table: each row against its anchor (issue 28)');
const started = performance.now();
/** The summary: where, hitmask, anchor, hitmask / anchor, target. */
const summary: (string | number)[][] = [];
const skip = (where: string, why: string): void => {
    console.log(`${where}: skipped, ${why}\n`);
    summary.push([where, 'skipped', why, '', '']);
};
const ratio = (ours: number, anchor: number): string => `${(ours / anchor).toFixed(2)}×`;
const spread = (xs: number[]): { median: number; min: number; max: number } => {
    const s = [...xs].sort((a, b) => a - b);
    return { median: s[s.length >> 1], min: s[0], max: s[s.length - 1] };
};
const ms = (t: { median: number; min: number; max: number }, digits = 1): string =>
    `${t.median.toFixed(digits)} ms (${t.min.toFixed(digits)}–${t.max.toFixed(digits)})`;

// ---- 1, 2: overlap() on the early-hit scenes and overlapMask 256² (+ dispose) against pygame.mask ----
{
    const dir = mkdtempSync(join(tmpdir(), 'hitmask-speed-'));
    const late = makePairScene(256, 'late');
    const scenes = [...pointScenes(), { ...late, kind: 'late' }].map(s => {
        const ra = toRGBA(s.a),
            rb = toRGBA(s.b),
            pa = join(dir, `${s.size}-${s.kind}-a.rgba`),
            pb = join(dir, `${s.size}-${s.kind}-b.rgba`);
        writeFileSync(pa, ra);
        writeFileSync(pb, rb);
        return { ...s, ma: Mask.fromRGBA(ra, s.size, s.size), mb: Mask.fromRGBA(rb, s.size, s.size), pa, pb };
    });
    type PyTiming = { median: number; min: number; max: number };
    let py: {
        pygame: string;
        python: string;
        results: { size: number; kind: string; check: number; overlap: PyTiming; overlap_mask?: PyTiming }[];
    } | null = null;
    let why = `${python} is missing`;
    if (existsSync(python)) {
        const r = spawnSync(python, [join(root, 'bench/pygame-bench.py')], {
            input: JSON.stringify(
                scenes.map(s => ({ size: s.size, kind: s.kind, a: s.pa, b: s.pb, dx: s.dx, dy: s.dy }))
            ),
            encoding: 'utf8',
            maxBuffer: 16 << 20
        });
        if (r.status === 0) py = JSON.parse(r.stdout);
        else why = `pygame did not run: ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}`;
    }
    rmSync(dir, { recursive: true, force: true });
    const rows: (string | number)[][] = [];
    for (const s of scenes) {
        const where = s.kind === 'late' ? 'overlapMask 256² + dispose' : `overlap() ${s.kind} ${s.size}²`;
        if (s.kind !== 'late') {
            const want = naiveFirst(s.a, s.b, s.size, s.dx, s.dy),
                got = s.ma.overlap(s.mb, s.dx, s.dy);
            if (got?.x !== want?.x || got?.y !== want?.y)
                throw new Error(`overlap point disagrees at ${s.size}² ${s.kind}`);
        }
        const p = py?.results.find(r => r.size === s.size && r.kind === s.kind);
        if (p && p.check !== s.ma.overlapArea(s.mb, s.dx, s.dy))
            throw new Error(`pygame's area disagrees at ${s.size}² ${s.kind}`);
        // overlapMask results are disposed: a timing loop never yields, so dropped ones would wait for the GC.
        const t: Timing =
            s.kind === 'late'
                ? time(
                      () => {
                          s.ma.overlapMask(s.mb, s.dx, s.dy).dispose();
                          return 0;
                      },
                      { samples: 21 }
                  )
                : time(() => s.ma.overlap(s.mb, s.dx, s.dy), { samples: 21 });
        const anchor = s.kind === 'late' ? p?.overlap_mask : p?.overlap;
        rows.push([
            where,
            fmtTiming(t),
            anchor ? `${fmt(anchor.median)} (${fmt(anchor.min)}–${fmt(anchor.max)})` : 'n/a',
            anchor ? ratio(t.median, anchor.median) : 'n/a'
        ]);
        if (anchor)
            summary.push([
                where,
                fmt(t.median),
                `pygame ${fmt(anchor.median)}`,
                ratio(t.median, anchor.median),
                '≤ 0.60×'
            ]);
        else skip(where, why);
    }
    if (py)
        console.log(
            `pygame ${py.pygame} on Python ${py.python}, timed in-process with timeit on the same masks and offsets`
        );
    table(['op', 'hitmask', 'pygame', 'hitmask / pygame'], rows);

    // The physical-limit anchor of the overlapMask row: its kernel in C with SSE2 (bench/c/and.c) on the same
    // words, writing into one reused result; against hitmask's overlapMask(…, out) and the allocating call.
    const cc = ['cc', 'gcc', 'clang'].find(c => spawnSync(c, ['--version']).status === 0);
    const m = scenes.find(x => x.kind === 'late') as (typeof scenes)[number];
    if (cc === undefined)
        console.log('overlapMask 256² against C SSE2: skipped, no C compiler (cc, gcc or clang) on PATH.\n');
    else {
        const tmp = mkdtempSync(join(tmpdir(), 'hitmask-speed-c-')),
            exe = join(tmp, 'and'),
            file = join(tmp, 'in.bin');
        try {
            const built = spawnSync(cc, ['-O3', '-msse2', join(root, 'bench/c/and.c'), '-o', exe], {
                encoding: 'utf8'
            });
            if (built.status !== 0) throw new Error(`${cc} failed on bench/c/and.c: ${built.stderr}`);
            const head = new Int32Array([m.ma.width, m.ma.height, m.mb.width, m.mb.height, m.dx, m.dy]);
            writeFileSync(
                file,
                Buffer.concat([
                    Buffer.from(head.buffer),
                    Buffer.from(m.ma.words.slice().buffer),
                    Buffer.from(m.mb.words.slice().buffer)
                ])
            );
            const r = spawnSync(exe, [file], { encoding: 'utf8' });
            const [bits, median, min, max] = r.stdout.trim().split(' ').map(Number);
            if (r.status !== 0 || bits !== m.ma.overlapArea(m.mb, m.dx, m.dy))
                throw new Error(`the C reference disagrees (${r.status}: ${r.stdout}${r.stderr})`);
            const out = new Mask(m.size, m.size);
            const into = time(() => m.ma.overlapMask(m.mb, m.dx, m.dy, out), { samples: 21 });
            const alloc = time(
                () => {
                    m.ma.overlapMask(m.mb, m.dx, m.dy).dispose();
                    return 0;
                },
                { samples: 21 }
            );
            out.dispose();
            const c = { median, min, max, samples: 15 };
            table(
                ['overlapMask 256²', 'time', '/ C SSE2'],
                [
                    [`C SSE2 (${cc} -O3), result reused`, fmtTiming(c), '1'],
                    ['hitmask overlapMask(…, out)', fmtTiming(into), ratio(into.median, median)],
                    ['hitmask overlapMask + dispose', fmtTiming(alloc), ratio(alloc.median, median)]
                ]
            );
        } finally {
            rmSync(tmp, { recursive: true, force: true });
        }
    }
}

// ---- 3: the World at 1,000 sprites, interleaved step by step with sort-and-sweep ----
{
    const n = 1000,
        warm = 60,
        steps = 400;
    const { masks, source } = loadSprites();
    const s = makeScene(n, masks, 1);
    const world = new World(),
        bodies: Body[] = [];
    for (let i = 0; i < n; i++) bodies.push(world.add({ x: s.x[i], y: s.y[i], mask: masks[s.kind[i]] }));
    const sap = sortAndSweep(s, masks);
    const tw: number[] = [],
        ts: number[] = [],
        pairRatios: number[] = [];
    for (let k = 0; k < warm + steps; k++) {
        advance(s);
        let w = 0,
            p = 0,
            a = 0,
            b = 0;
        // Alternate which goes first: neither always runs right after the scene's update.
        for (const which of k % 2 === 0 ? [0, 1] : [1, 0]) {
            const t0 = performance.now();
            if (which === 0) {
                for (let i = 0; i < n; i++) world.move(bodies[i], s.x[i], s.y[i]);
                a = world.step();
                w = performance.now() - t0;
            } else {
                b = sap();
                p = performance.now() - t0;
            }
        }
        if (a !== b) throw new Error(`step ${k}: the World found ${a} pixel pairs, sort-and-sweep ${b}`);
        if (k >= warm) {
            tw.push(w);
            ts.push(p);
            pairRatios.push(w / p);
        }
    }
    const w = spread(tw),
        p = spread(ts),
        r = spread(pairRatios),
        sorted = [...pairRatios].sort((x, y) => x - y);
    // A step lasts about 0.1 ms, near the timer's resolution: the paired ratios' spread is given as p10–p90.
    const p10 = sorted[Math.floor(sorted.length * 0.1)],
        p90 = sorted[Math.floor(sorted.length * 0.9)];
    console.log(
        `World at ${n} sprites (${source}), ${steps} steps after ${warm}, each interleaved with a sort-and-sweep step on the same positions:`
    );
    table(
        ['', 'ms per step', 'World / sort-and-sweep'],
        [
            [
                'hitmask World (move every body, step)',
                ms(w, 3),
                `${r.median.toFixed(2)}× (median of paired ratios; p10–p90 ${p10.toFixed(2)}–${p90.toFixed(2)})`
            ],
            ['sort-and-sweep + the same overlaps()', ms(p, 3), '']
        ]
    );
    summary.push([
        `World ${n} sprites, interleaved`,
        `${w.median.toFixed(3)} ms`,
        `sort-and-sweep ${p.median.toFixed(3)} ms`,
        `${r.median.toFixed(2)}×`,
        '≤ 1.10×'
    ]);
}

// ---- 4: `hitmask build` on a real sprite folder against a pygame load + mask script, whole processes ----
{
    const where = 'hitmask build, real sprite folder';
    const cli = join(root, 'dist/node/cli.js');
    if (!existsSync(SPRITES))
        skip(where, `${SPRITES} is missing (apt-get install hedgewars-data, or SPRITES=<folder of PNGs>)`);
    else if (!existsSync(cli)) skip(where, 'dist/node/cli.js is missing (npm run build)');
    else if (
        spawnSync(python, ['-c', 'import pygame'], { env: { ...process.env, PYGAME_HIDE_SUPPORT_PROMPT: '1' } })
            .status !== 0
    )
        skip(where, `pygame is not available to ${python}`);
    else {
        const dir = mkdtempSync(join(tmpdir(), 'hitmask-speed-build-'));
        try {
            const files = readdirSync(SPRITES, { recursive: true })
                .map(String)
                .filter(f => f.endsWith('.png'))
                .sort()
                .map(f => join(SPRITES, f));
            const list = join(dir, 'files.txt'),
                script = join(dir, 'load.py'),
                out = join(dir, 'out.hitmask');
            writeFileSync(list, files.join('\n'));
            writeFileSync(
                script,
                `import os, sys
os.environ.setdefault('PYGAME_HIDE_SUPPORT_PROMPT', '1')
os.environ.setdefault('SDL_VIDEODRIVER', 'dummy')
import pygame
for f in [l for l in open(sys.argv[1]).read().split('\\n') if l]:
    pygame.mask.from_surface(pygame.image.load(f), 127)
`
            );
            const run = (cmd: string, args: string[]): number => {
                const t0 = performance.now(),
                    r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
                if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
                return performance.now() - t0;
            };
            const ours = () => run(process.execPath, [cli, 'build', SPRITES, '-o', out]),
                theirs = () => run(python, [script, list]);
            // Once each to warm the file cache, then alternately.
            ours();
            theirs();
            const h: number[] = [],
                p: number[] = [];
            for (let k = 0; k < 4; k++) {
                h.push(ours());
                p.push(theirs());
            }
            const hs = spread(h),
                ps = spread(p);
            console.log(
                `${where}: ${SPRITES} (${files.length} PNGs), 4 runs each after one to warm up, whole processes:`
            );
            table(
                ['', 'ms per run', 'hitmask / pygame'],
                [
                    ['hitmask build (node dist/node/cli.js)', ms(hs, 0), ratio(hs.median, ps.median)],
                    ['pygame.image.load + mask.from_surface(img, 127)', ms(ps, 0), '']
                ]
            );
            summary.push([
                where,
                `${hs.median.toFixed(0)} ms`,
                `pygame ${ps.median.toFixed(0)} ms`,
                ratio(hs.median, ps.median),
                '≤ 1.50×'
            ]);
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    }
}

// ---- 5: the demo at ?stress=10000 in headless Chromium against 60 fps (last: loading playwright-core
// detaches an ArrayBuffer, after which every typed-array access in this process checks for it) ----
{
    const where = 'demo ?stress=10000, headless Chromium';
    if (!existsSync(CHROMIUM)) skip(where, `${CHROMIUM} is missing (apt-get install chromium)`);
    else {
        const { chromium } = await import('playwright-core');
        const { startDemo } = await import('../demo/serve.js');
        const demo = await startDemo({ port: 0 });
        // Two compositors: SwiftShader (WebGL and compositing emulated on the CPU, beside the page on the same
        // cores: the GPU process then needs about 21 ms of CPU a frame) and Chromium's software compositor
        // (--disable-gpu: no GPU process, as close to a machine whose GPU does that work as this one gets).
        const BASE = [
            '--no-sandbox',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic'
        ];
        const GPUS: [string, string[]][] = [
            ['SwiftShader', ['--use-angle=swiftshader', '--enable-unsafe-swiftshader']],
            ['software compositing', ['--disable-gpu']]
        ];
        try {
            for (const [gpu, flags] of GPUS) {
                const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...BASE, ...flags] });
                try {
                    const page = await browser.newPage({
                        viewport: { width: 1400, height: 1200 },
                        deviceScaleFactor: 1
                    });
                    await page.goto(`${demo.url}?stress=10000`);
                    await page.waitForFunction('window.hitmaskDemo !== undefined', null, { timeout: 120_000 });
                    // rAF intervals for 6 s after 3 s of warm-up, then the HUD's steps per frame (1: the game runs at
                    // full speed). Plain JavaScript text: tsx would wrap a function's closures in a helper the page lacks.
                    const { intervals, steps } = (await page.evaluate(`new Promise(resolve => {
                        const stamps = [], start = performance.now();
                        const tick = t => {
                            if (t - start >= 3000) stamps.push(t);
                            if (t - start < 9000) requestAnimationFrame(tick);
                            else resolve({ intervals: stamps.slice(1).map((s, i) => s - stamps[i]), steps: window.hitmaskDemo.split().steps });
                        };
                        requestAnimationFrame(tick);
                    })`)) as { intervals: number[]; steps: number };
                    const s = [...intervals].sort((a, b) => a - b),
                        at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
                    const name = `${where} (${gpu})`;
                    console.log(
                        `${name}: Chromium ${browser.version()}, ${s.length} frames over 6 s after 3 s of warm-up, ${steps.toFixed(2)} game steps a frame:`
                    );
                    table(
                        ['frame interval', 'median', 'p90', 'p99', 'max', 'fps (median)'],
                        [
                            [
                                'ms',
                                at(0.5).toFixed(1),
                                at(0.9).toFixed(1),
                                at(0.99).toFixed(1),
                                s[s.length - 1].toFixed(1),
                                (1000 / at(0.5)).toFixed(1)
                            ]
                        ]
                    );
                    summary.push([
                        name,
                        `median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms`,
                        '60 fps: 16.7 ms',
                        `${(at(0.9) / (1000 / 60)).toFixed(2)}× (p90)`,
                        'median ≤ 16.7, p90 ≤ 20 ms'
                    ]);
                } finally {
                    await browser.close();
                }
            }
        } finally {
            await demo.close();
        }
    }
}

console.log('Summary (hitmask / anchor: below 1 is faster than the anchor):');
table(['where', 'hitmask', 'anchor', 'hitmask / anchor', 'target'], summary);
console.log(
    `${((performance.now() - started) / 1000).toFixed(0)} s in all. Shared 2-core machine: compare the load in the banner; rerun a row's own benchmark (npm run bench -- mask, world, build-real or demo) for more samples.`
);
