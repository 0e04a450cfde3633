// Kaplay and Excalibur: a frame of 500 sprite objects with hitmask's pixel component vs the same frame with the
// engine's own rectangle collision only, in headless Chromium, both sides in one run (issue 39's target: ≤ 1.3×).
// The page (bench/engines-page.ts) times each requestAnimationFrame callback, which holds the engine's whole frame
// (update, collision checks, draw calls); the sides alternate, rect, pixel, rect, pixel, … each in a fresh page, and
// the frames of one side's rounds are pooled. Run: npm run bench -- engines [objects] [rounds]   (needs
// /usr/bin/chromium; WebGL through SwiftShader, so the draw calls cost CPU too, on both sides alike)
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { serve } from '../examples/serve.js';
import { banner, table } from './harness.js';
import type { EngineRun } from './engines-page.js';

const CHROMIUM = '/usr/bin/chromium';
const OBJECTS = Number(process.argv[2] ?? 500);
const ROUNDS = Number(process.argv[3] ?? 3);
const WARMUP = 30,
    FRAMES = 150;

banner(`hitmask/kaplay and hitmask/excalibur: a frame of ${OBJECTS} objects, pixel component vs rectangles`);
if (!existsSync(CHROMIUM)) {
    console.log(`skipped: ${CHROMIUM} is missing (apt-get install chromium)`);
    process.exit(0);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const site = mkdtempSync(join(tmpdir(), 'hitmask-engines-'));
mkdirSync(join(site, 'sprites'));
mkdirSync(join(site, 'engines'));
for (const f of readdirSync(join(root, 'examples', 'sprites')))
    if (f.endsWith('.png')) copyFileSync(join(root, 'examples', 'sprites', f), join(site, 'sprites', f));
await build({
    entryPoints: [join(root, 'bench', 'engines-page.ts')],
    outfile: join(site, 'engines', 'main.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    logLevel: 'warning'
});
writeFileSync(
    join(site, 'engines', 'index.html'),
    '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>loading</title>' +
        '<script type="module" src="main.js"></script>'
);
const server = await serve(site, 0);
const address = server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run'
    ]
});

type Engine = 'kaplay' | 'excalibur';
async function once(engine: Engine, pixel: boolean): Promise<EngineRun> {
    const page = await browser.newPage({ viewport: { width: 1000, height: 600 } });
    const errors: string[] = [];
    page.on('pageerror', e => errors.push(e.message));
    page.on('console', m => void (m.type() === 'error' && errors.push(m.text())));
    await page.goto(`http://127.0.0.1:${port}/engines/`);
    await page.waitForFunction(() => document.title === 'ready');
    const run = await page.evaluate(([e, n, p, w, f]) => window.enginesBench.run(e, n, p, w, f), [
        engine,
        OBJECTS,
        pixel,
        WARMUP,
        FRAMES
    ] as const);
    await page.close();
    if (errors.length > 0) throw new Error(`${engine} (${pixel ? 'pixel' : 'rect'}): ${errors.join(' | ')}`);
    return run;
}

function quantile(sorted: number[], q: number): number {
    const i = (sorted.length - 1) * q,
        lo = Math.floor(i);
    return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (i - lo);
}

const rows: string[][] = [];
const ratios: Record<Engine, number> = { kaplay: 0, excalibur: 0 };
try {
    for (const engine of ['kaplay', 'excalibur'] as const) {
        const pooled = { rect: [] as number[], pixel: [] as number[] },
            events = { rect: 0, pixel: 0 };
        for (let round = 0; round < ROUNDS; round++)
            for (const side of ['rect', 'pixel'] as const) {
                const r = await once(engine, side === 'pixel');
                pooled[side].push(...r.frames);
                events[side] += r.events;
            }
        const median = { rect: 0, pixel: 0 };
        for (const side of ['rect', 'pixel'] as const) {
            const s = pooled[side].sort((a, b) => a - b);
            median[side] = quantile(s, 0.5);
            rows.push([
                engine,
                side === 'rect' ? 'rectangles only' : 'pixel component',
                `${median[side].toFixed(2)} ms`,
                `${quantile(s, 0.1).toFixed(2)}–${quantile(s, 0.9).toFixed(2)} ms`,
                String(s.length),
                (events[side] / ROUNDS / FRAMES).toFixed(1)
            ]);
        }
        ratios[engine] = median.pixel / median.rect;
    }
} finally {
    await browser.close();
    server.close();
    rmSync(site, { recursive: true, force: true });
}
table(['engine', 'collision', 'frame (median)', 'p10–p90', 'frames', 'events / frame'], rows);
for (const engine of ['kaplay', 'excalibur'] as const)
    console.log(`${engine}: pixel / rectangles = ${ratios[engine].toFixed(2)}× (target ≤ 1.3×)`);
