// The demo's stress scene in headless Chromium: serves the page as `npm start` does, opens ?stress=N with
// each renderer (default: what the page picks without ?render=), lets it warm up, then records requestAnimationFrame intervals for a few seconds and prints
// their median and spread with the HUD's split of a frame (simulation, collision, render), and on Linux the CPU
// time each Chromium process spent per frame (from /proc): the page's renderer, and the GPU process, which
// under SwiftShader composites every frame on the CPU (the part of a frame the page's own split does not show).
// Run: node --import tsx bench/demo.bench.ts [--stress 10000] [--seconds 5] [--warmup 3] [--render default,webgl,pixels,canvas] [--gpu swiftshader,off]
// (needs /usr/bin/chromium; headless rAF is capped at the display rate, 60 Hz, so 16.7 ms is the floor).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { startDemo } from '../demo/serve.js';
import type { FrameSplit } from '../demo/demo.js';
import { banner, table } from './harness.js';

const CHROMIUM = '/usr/bin/chromium';
// SwiftShader behind ANGLE: WebGL without a GPU, the same path in CI and on a laptop without drivers.
const BASE = [
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic'
];
const GPU: Record<string, string[]> = {
    swiftshader: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
    // No GPU process: Canvas 2D drawn by Skia on the CPU in the renderer, and no WebGL at all.
    off: ['--disable-gpu']
};

const { values } = parseArgs({
    options: {
        stress: { type: 'string', default: '10000' },
        seconds: { type: 'string', default: '5' },
        warmup: { type: 'string', default: '3' },
        render: { type: 'string', default: 'default,webgl,pixels,canvas' },
        gpu: { type: 'string', default: 'swiftshader' }
    }
});
const stress = Number(values.stress),
    seconds = Number(values.seconds),
    warmup = Number(values.warmup);
if (!Number.isInteger(stress) || stress < 0)
    throw new RangeError(`--stress must be an integer ≥ 0, got ${values.stress}.`);
if (!(seconds > 0) || !(warmup >= 0))
    throw new RangeError(`--seconds must be > 0 and --warmup ≥ 0, got ${values.seconds} and ${values.warmup}.`);
if (!existsSync(CHROMIUM)) {
    console.log(`${CHROMIUM} is missing: nothing to measure.`);
    process.exit(0);
}

banner(`hitmask demo at ?stress=${stress} in headless Chromium (${seconds} s of frames after ${warmup} s warm-up)`);

/** What one page run measured. */
interface PageRun {
    intervals: number[];
    split: FrameSplit | null;
    renderer: string;
    sprites: number;
}

// Runs in the page: rAF timestamps for `ms` (after `warm` ms), then the HUD's split; older demos without a
// split (or a renderer name) give null there. Plain JavaScript text: tsx would wrap a function's inner
// closures in a helper the page lacks.
const MEASURE = `(warm, ms) => new Promise(resolve => {
    const stamps = [], start = performance.now();
    const tick = t => {
        if (t - start >= warm) stamps.push(t);
        if (t - start < warm + ms) { requestAnimationFrame(tick); return; }
        const hook = window.hitmaskDemo;
        resolve({
            intervals: stamps.slice(1).map((s, i) => s - stamps[i]),
            split: hook.split ? hook.split() : null,
            renderer: hook.renderer ? hook.renderer() : 'canvas',
            sprites: hook.stats().sprites
        });
    };
    requestAnimationFrame(tick);
})`;

// CPU ms used so far by each kind of Chromium process this benchmark started (renderer, gpu-process, ...),
// read from /proc (utime + stime of the processes under this one); empty where there is no /proc.
function chromiumCpu(): Map<string, number> {
    const out = new Map<string, number>();
    if (!existsSync('/proc/self/stat')) return out;
    const parent = new Map<string, string>(),
        fields = new Map<string, string[]>();
    for (const pid of readdirSync('/proc')) {
        if (!/^\d+$/.test(pid)) continue;
        try {
            const stat = readFileSync(`/proc/${pid}/stat`, 'utf8'),
                f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
            parent.set(pid, f[1]);
            fields.set(pid, f);
        } catch {
            // Gone meanwhile.
        }
    }
    const ours = (pid: string): boolean => {
        for (let p = parent.get(pid), n = 0; p !== undefined && n < 16; p = parent.get(p), n++)
            if (p === String(process.pid)) return true;
        return false;
    };
    for (const [pid, f] of fields) {
        if (!ours(pid)) continue;
        let cmd: string;
        try {
            cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        } catch {
            continue;
        }
        if (!/chrom/.test(cmd.split('\0')[0])) continue;
        const type = /--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser';
        // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
        out.set(type, (out.get(type) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
    }
    return out;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const demo = await startDemo({ port: 0 });
const rows: (string | number)[][] = [];
try {
    for (const gpu of (values.gpu as string).split(',')) {
        if (!GPU[gpu]) throw new RangeError(`--gpu takes ${Object.keys(GPU).join(', ')}, got ${JSON.stringify(gpu)}.`);
        const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: [...BASE, ...GPU[gpu]] });
        try {
            if (rows.length === 0)
                console.log(
                    `browser: Chromium ${browser.version()}; --gpu off: ${GPU.off.join(' ')}; --gpu swiftshader: ${GPU.swiftshader.join(' ')}\n`
                );
            for (const render of (values.render as string).split(','))
                rows.push([gpu, render, ...(await runPage(browser, render))]);
        } finally {
            await browser.close();
        }
    }
} finally {
    await demo.close();
}

// One page: the row of the table after the GPU setting and the ?render= asked for.
async function runPage(browser: Browser, render: string): Promise<(string | number)[]> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1200 }, deviceScaleFactor: 1 });
    const errors: string[] = [];
    page.on('console', m => {
        if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', e => errors.push(e.message));
    await page.goto(`${demo.url}?stress=${stress}${render === 'default' ? '' : `&render=${render}`}`);
    await page.waitForFunction(() => window.hitmaskDemo !== undefined, null, { timeout: 120_000 });
    await page.waitForTimeout(warmup * 1000);
    const before = chromiumCpu();
    const r = (await page.evaluate(`(${MEASURE})(0, ${seconds * 1000})`)) as PageRun;
    const after = chromiumCpu(),
        frames = r.intervals.length + 1;
    const cpu = (type: string): string =>
        after.has(type) ? (((after.get(type) as number) - (before.get(type) ?? 0)) / frames).toFixed(1) : 'n/a';
    await page.close();
    if (errors.length > 0) console.log(`${render}: page errors: ${errors.join('; ')}`);
    const s = [...r.intervals].sort((x, y) => x - y),
        med = pct(s, 0.5);
    const split = r.split
        ? `${r.split.simMs.toFixed(1)} / ${r.split.collisionMs.toFixed(1)} / ${r.split.renderMs.toFixed(1)} (${r.split.steps.toFixed(2)} steps)`
        : 'n/a';
    const mean = s.reduce((a, b) => a + b, 0) / s.length;
    return [
        r.renderer,
        r.sprites,
        s.length,
        med.toFixed(1),
        mean.toFixed(1),
        `${s[0].toFixed(1)}–${s[s.length - 1].toFixed(1)}`,
        `${pct(s, 0.1).toFixed(1)}–${pct(s, 0.9).toFixed(1)}`,
        (1000 / med).toFixed(1),
        split,
        `${cpu('renderer')} / ${cpu('gpu-process')}`
    ];
}

table(
    [
        '--gpu',
        '?render=',
        'renderer used',
        'sprites',
        'frames',
        'median interval ms',
        'mean ms',
        'min–max ms',
        'p10–p90 ms',
        'fps (median)',
        'HUD split ms: sim / collision / render (steps per frame)',
        'CPU ms per frame: renderer / GPU process'
    ],
    rows
);
console.log(
    'HUD split, per displayed frame over its last quarter second: sim = the fixed 60 Hz step(s) run in that frame, collision'
);
console.log(
    "included; collision = the two Worlds' step() (pixel and box); render = drawing (the script's side; the GPU process or"
);
console.log(
    "the compositor rasterize on other threads). CPU per frame: all threads of the page's renderer process and of the GPU"
);
console.log(
    'process (SwiftShader composites each frame there); on 2 cores their sum bounds the frame rate. Load on the 2 cores'
);
console.log('skews everything: the banner shows it.');
