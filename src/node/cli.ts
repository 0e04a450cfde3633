#!/usr/bin/env node
import { inspectTiled, isTiledMap } from './cli-tiled.js';
import { outOfRange } from '../base/check.js';
// The `hitmask` command: build mask atlases, inspect masks, test two masks for overlap, trace masks into polygons.
// Exit codes: 0 success (overlap: hit), 1 overlap: no hit, 2 any error (one line on stderr).
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { Command, CommanderError } from 'commander';
import type { SingleBar } from 'cli-progress';
import { createRequire } from 'node:module';
import type { PNG as PNGType } from 'pngjs';
import { MaskAtlas } from '../core/atlas.js';
import type { AtlasFrame } from '../core/atlas-frame.js';
import { buildAtlas } from './build.js';
import { readInput } from './read.js';
import { removeTemporaryFiles } from './write.js';
import { toRGBA } from '../core/to-rgba.js';
import { boundingRect } from '../core/shape.js';
import {
    buildOptions,
    distance,
    legacyTolerance,
    maskFlags,
    maxVertices,
    point,
    sheetFlags,
    sheetOptions,
    type BuildFlags,
    type CommonFlags,
    type PolygonsFlags
} from './cli-flags.js';
import { checkOutputPath, writeOutput } from './cli-output.js';

// Loads a .hitmask file, or builds an atlas from an image or atlas JSON; `sources` are the files read.
async function loadAtlas(path: string, flags: CommonFlags): Promise<{ atlas: MaskAtlas; sources: string[] }> {
    if (extname(path).toLowerCase() === '.hitmask') {
        // Under the decode budget, as images are: regular files only, none larger than --max-mib.
        const bytes = await readInput(path, (flags.maxMib ?? 256) * 1048576, '', true);
        try {
            return { atlas: MaskAtlas.from(bytes), sources: [path] };
        } catch (e) {
            throw new Error(`${path}: ${(e as Error).message}`, { cause: e });
        }
    }
    const { atlas, sources } = await buildAtlas([path], buildOptions(flags));
    return { atlas, sources };
}

// `file#frame`, or a file with exactly one frame. A spec naming an existing file is that file, `#` and all
// (`shot#2.png`); otherwise the frame name follows the last `#`.
async function loadFrame(spec: string, flags: CommonFlags): Promise<AtlasFrame> {
    const whole = (await stat(spec).catch(() => null))?.isFile() ?? false;
    const hash = whole ? -1 : spec.lastIndexOf('#');
    const path = hash > 0 ? spec.slice(0, hash) : spec;
    const { atlas } = await loadAtlas(path, flags);
    if (hash > 0) return atlas.frame(spec.slice(hash + 1));
    if (atlas.size !== 1)
        throw new Error(`${path} has ${atlas.size} frames; pick one as ${path}#NAME (e.g. ${path}#${atlas.names[0]}).`);
    return atlas.frames[0];
}

function percent(f: AtlasFrame): string {
    const area = f.mask.width * f.mask.height;
    return area === 0 ? '0.0%' : `${((100 * f.mask.count()) / area).toFixed(1)}%`;
}

// A name as printed by inspect: control characters (C0, DEL, C1, the Unicode line and paragraph separators) and
// backslashes escaped as JSON writes them (\n, \t, \u0000), so that no name can break a row or forge one.
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\\': '\\\\' };
function printable(name: string): string {
    return name.replace(
        /[\p{Cc}\u2028\u2029\\]/gu,
        c => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
    );
}

function table(rows: string[][]): string {
    const widths = rows[0].map((_, c) => Math.max(...rows.map(r => r[c].length)));
    return rows
        .map(r => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]))).join('  '))
        .join('\n');
}

async function build(inputs: string[], flags: BuildFlags): Promise<void> {
    checkOutputPath(flags.output, '-o/--output');
    legacyTolerance(flags, 'keyTolerance', 'build');
    const options = sheetOptions(flags, buildOptions(flags));
    if (flags.polygons) {
        options.polygons = { tolerance: flags.tolerancePx ?? 0, maxVertices: flags.maxVertices ?? 8 };
    } else if (flags.tolerancePx !== undefined || flags.maxVertices !== undefined) {
        throw new Error('--tolerance-px and --max-vertices need --polygons.');
    }
    const t0 = performance.now();
    let bar: SingleBar | null = null;
    // A progress bar only on a terminal, and only once a build has run long enough to need one.
    if (process.stderr.isTTY) {
        const { SingleBar } = (await import('cli-progress')).default;
        options.onProgress = (done, total) => {
            if (!bar && performance.now() - t0 > 300 && done < total) {
                bar = new SingleBar({
                    stream: process.stderr,
                    format: 'hitmask build [{bar}] {value}/{total} files',
                    hideCursor: true,
                    clearOnComplete: true
                });
                bar.start(total, done);
            }
            bar?.update(done);
        };
    }
    let result;
    try {
        result = await buildAtlas(inputs, options);
    } finally {
        (bar as SingleBar | null)?.stop();
    }
    for (const note of result.notes) process.stderr.write(`hitmask: note: ${note}\n`);
    const bytes = result.atlas.toBytes();
    const report = await writeOutput(flags.output, bytes, result.sources);
    const s = result.stats;
    const secs = (performance.now() - t0) / 1000;
    const mpx = s.rgbaBytes / 4e6;
    const shapes = flags.polygons ? `, ${shapeCounts(result.atlas.frames)}` : '';
    report.write(
        `${flags.output}: ${s.frames} frames from ${s.files} files, ${s.bitsSet} bits set${shapes}, ${bytes.length} bytes written in ${secs.toFixed(2)} s (${s.files} image${s.files === 1 ? '' : 's'}, ${mpx.toFixed(mpx < 10 ? 2 : 1)} Mpx at ${(mpx / Math.max(secs, 1e-3)).toFixed(1)} Mpx/s)\n`
    );
}

// Every frame's polygons and convex pieces as JSON, to stdout or (atomically, never over an input) to -o.
async function polygons(inputs: string[], flags: PolygonsFlags): Promise<void> {
    checkOutputPath(flags.output, '-o/--output');
    legacyTolerance(flags, 'tolerancePx', 'polygons');
    const options = sheetOptions(flags, buildOptions(flags));
    const t0 = performance.now();
    const result = await buildAtlas(inputs, options);
    for (const note of result.notes) process.stderr.write(`hitmask: note: ${note}\n`);
    // Loaded here: the tracing modules are this command's alone (a cheaper start for the others).
    const { polygonsJson } = await import('./polygons-json.js');
    const json = polygonsJson(result.atlas, { tolerance: flags.tolerancePx ?? 0, maxVertices: flags.maxVertices ?? 8 });
    if (flags.output === undefined) {
        process.stdout.write(json.text);
        return;
    }
    const bytes = Buffer.from(json.text, 'utf8');
    const report = await writeOutput(flags.output, bytes, result.sources);
    const secs = (performance.now() - t0) / 1000;
    report.write(
        `${flags.output}: ${json.frames} frames, ${json.polygons} polygons, ${json.pieces} convex pieces, ${bytes.length} bytes written in ${secs.toFixed(2)} s\n`
    );
}

// "N polygons (H holes), M convex pieces, V vertices" over the frames that store them.
function shapeCounts(frames: readonly AtlasFrame[]): string {
    let polygons = 0,
        holes = 0,
        pieces = 0,
        vertices = 0;
    for (const f of frames) {
        for (const p of f.polygons ?? []) {
            polygons++;
            holes += p.holes.length;
            vertices += p.outer.length / 2;
            for (const h of p.holes) vertices += h.length / 2;
        }
        for (const r of f.pieces ?? []) {
            pieces++;
            vertices += r.length / 2;
        }
    }
    return `${polygons} polygon${polygons === 1 ? '' : 's'} (${holes} hole${holes === 1 ? '' : 's'}), ${pieces} convex piece${pieces === 1 ? '' : 's'}, ${vertices} vertices`;
}

async function inspect(file: string, flags: CommonFlags & { frame?: string; png?: string }): Promise<void> {
    checkOutputPath(flags.png, '--png');
    legacyTolerance(flags, 'keyTolerance', 'inspect');
    if (isTiledMap(file)) {
        if (flags.frame !== undefined || flags.png !== undefined)
            throw new Error(
                `${file} is a Tiled map: inspect lists its layers, tilesets and objects (no --frame or --png).`
            );
        process.stdout.write(await inspectTiled(file, printable));
        return;
    }
    const { atlas, sources } = await loadAtlas(file, flags);
    if (flags.frame === undefined && flags.png === undefined) {
        // Columns for polygons and convex pieces only when some frame stores them (a version 2 file).
        const shapes = atlas.frames.some(f => f.polygons !== undefined || f.pieces !== undefined);
        const rows = [
            ['frame', 'size', 'offset', 'source', 'duration', ...(shapes ? ['polygons', 'pieces'] : []), 'fill']
        ];
        for (const f of atlas.frames) {
            const extra = shapes
                ? [f.polygons ? `${f.polygons.length}` : '-', f.pieces ? `${f.pieces.length}` : '-']
                : [];
            rows.push([
                printable(f.name),
                `${f.mask.width}x${f.mask.height}`,
                `${f.x},${f.y}`,
                `${f.sourceWidth}x${f.sourceHeight}`,
                f.duration ? `${f.duration}ms` : '-',
                ...extra,
                percent(f)
            ]);
        }
        const lines = [
            `${file}: ${atlas.size} frame${atlas.size === 1 ? '' : 's'}${shapes ? `; ${shapeCounts(atlas.frames)}` : ''}`,
            table(rows)
        ];
        for (const t of atlas.tags) lines.push(`tag ${printable(t.name)}: frames ${t.from}..${t.to} ${t.direction}`);
        for (const f of atlas.frames)
            for (const b of f.boxes)
                lines.push(`box ${printable(b.name)} on ${printable(f.name)}: ${b.x},${b.y} ${b.width}x${b.height}`);
        process.stdout.write(lines.join('\n') + '\n');
        return;
    }
    let frame: AtlasFrame;
    if (flags.frame !== undefined) frame = atlas.frame(flags.frame);
    else if (atlas.size === 1) frame = atlas.frames[0];
    else
        throw new Error(
            `${file} has ${atlas.size} frames; choose one with --frame NAME (e.g. --frame ${printable(atlas.names[0])}).`
        );
    const m = frame.mask;
    if (flags.png !== undefined) {
        const report = await writeOutput(flags.png, previewPng(frame, flags.maxMib ?? 256), sources);
        report.write(`${flags.png}: ${printable(frame.name)} ${m.width}x${m.height}, ${m.count()} bits set\n`);
    } else {
        const shapes = frame.polygons !== undefined || frame.pieces !== undefined ? `, ${shapeCounts([frame])}` : '';
        process.stdout.write(
            `${printable(frame.name)}: ${m.width}x${m.height} at ${frame.x},${frame.y} in ${frame.sourceWidth}x${frame.sourceHeight}, fill ${percent(frame)}${shapes}\n${m.toText()}\n`
        );
    }
}

// A white-on-black PNG of the frame's mask; its RGBA must fit in `maxMib` (the decode budget) before anything is
// allocated.
function previewPng(frame: AtlasFrame, maxMib: number): Uint8Array {
    const m = frame.mask,
        width = Math.max(1, m.width),
        height = Math.max(1, m.height);
    const need = width * height * 4;
    if (need > maxMib * 1048576) {
        throw outOfRange(
            `Frame ${JSON.stringify(frame.name)} is ${m.width}x${m.height}: its PNG preview needs ${(need / 1048576).toFixed(0)} MiB of RGBA, more than --max-mib ${maxMib}; raise --max-mib, or draw it with --frame as text.`
        );
    }
    try {
        // pngjs only here, loaded on demand: builds start faster without it.
        const { PNG } = createRequire(import.meta.url)('pngjs') as { PNG: typeof PNGType };
        const png = new PNG({ width, height });
        if (m.width > 0 && m.height > 0) png.data.set(toRGBA(m, { onColor: 0xffffffff, offColor: 0x000000ff }));
        return PNG.sync.write(png);
    } catch (e) {
        throw outOfRange(
            `Frame ${JSON.stringify(frame.name)} is ${m.width}x${m.height}: cannot allocate or encode its ${(need / 1048576).toFixed(0)} MiB PNG preview (${(e as Error).message}); draw it with --frame as text.`,
            e
        );
    }
}

async function overlap(
    a: string,
    b: string,
    flags: CommonFlags & { at: { x: number; y: number }; json?: boolean }
): Promise<void> {
    legacyTolerance(flags, 'keyTolerance', 'overlap');
    const fa = await loadFrame(a, flags),
        fb = await loadFrame(b, flags);
    // Positions are sprite positions: each mask sits at its trim offset inside its own frame.
    const dx = flags.at.x + fb.x - fa.x,
        dy = flags.at.y + fb.y - fa.y;
    const p = fa.mask.overlap(fb.mask, dx, dy);
    const area = p ? fa.mask.overlapArea(fb.mask, dx, dy) : 0;
    const r = p ? boundingRect(fa.mask.overlapMask(fb.mask, dx, dy)) : null;
    const point = p ? { x: p.x + fa.x, y: p.y + fa.y } : null;
    const box = r ? { x: r.x + fa.x, y: r.y + fa.y, width: r.width, height: r.height } : null;
    if (flags.json) {
        process.stdout.write(
            JSON.stringify({ hit: p !== null, point, area, box, at: flags.at, a: fa.name, b: fb.name }) + '\n'
        );
    } else if (point && box) {
        process.stdout.write(
            `hit at ${point.x},${point.y}; area ${area} px; overlap box ${box.x},${box.y} ${box.width}x${box.height}\n`
        );
    } else {
        process.stdout.write('no hit\n');
    }
    process.exitCode = p ? 0 : 1;
}

// The version in the package's package.json: two folders up from src/node/cli.ts and from dist/node/cli.js alike.
function packageVersion(): string {
    return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}

function program(): Command {
    const prog = new Command('hitmask')
        .description(
            'Pixel-perfect collision masks: build compact mask atlases from sprites, inspect them, test overlaps, trace polygons.'
        )
        .version(packageVersion(), '-V, --version', "print hitmask's version")
        .exitOverride()
        .showHelpAfterError(false)
        .configureOutput({ outputError: (str, write) => write(`hitmask: ${str.replace(/^error: /, '').trim()}\n`) });
    maskFlags(
        sheetFlags(
            prog
                .command('build')
                .description(
                    'build a .hitmask atlas from images, folders, globs, grid sheets or TexturePacker/Aseprite JSON'
                )
                .argument('<inputs...>', 'PNG/GIF files, folders, globs (quote them) or atlas JSON files')
                .requiredOption('-o, --output <file>', 'the .hitmask file to write')
                .option(
                    '--polygons',
                    "also store each frame's polygons (with holes) and convex pieces (format version 2)"
                )
                .option(
                    '--tolerance-px <T>',
                    '--polygons: simplify the outlines by up to T pixels (default 0: the exact pixel edges)',
                    distance
                )
                .option(
                    '--max-vertices <N>',
                    '--polygons: most vertices per convex piece (default 8, the Box2D/Planck limit)',
                    maxVertices
                )
        )
    )
        .addHelpText(
            'after',
            '\nExamples:\n  hitmask build sprites/ -o masks.hitmask\n  hitmask build "art/*.png" --threshold 0 -o masks.hitmask\n  hitmask build tiles.png --grid 16x16 --spacing 1 -o tiles.hitmask\n  hitmask build hero.json -o hero.hitmask\n  hitmask build sprites/ --trim --polygons --tolerance-px 1 -o masks.hitmask'
        )
        .action(build);
    maskFlags(
        prog
            .command('inspect')
            .description(
                "list the frames of a .hitmask file or image (draw one as text or to a PNG), or a Tiled map's layers, " +
                    'tilesets and objects'
            )
            .argument('<file>', '.hitmask file, image, atlas JSON, or Tiled map (.tmx, .tmj)')
            .option('--frame <name>', 'draw this frame as text (# set, . clear)')
            .option('--png <out.png>', 'write the frame as a white-on-black PNG')
    )
        .addHelpText(
            'after',
            '\nExamples:\n  hitmask inspect masks.hitmask\n  hitmask inspect masks.hitmask --frame alien1\n  hitmask inspect alien1.png --png alien1-mask.png\n  hitmask inspect level.tmj'
        )
        .action(inspect);
    maskFlags(
        prog
            .command('overlap')
            .description(
                'place b at DX,DY relative to a and report hit, first point, area and overlap box (exit 0 hit, 1 no hit, 2 error)'
            )
            .argument('<a>', 'image, atlas JSON or file.hitmask#FRAME')
            .argument('<b>', 'image, atlas JSON or file.hitmask#FRAME')
            .requiredOption('--at <DX,DY>', "b's position relative to a (any numbers, floored to whole pixels)", point)
            .option('--json', 'print { hit, point, area, box, … } as JSON')
    )
        .addHelpText(
            'after',
            '\nExamples:\n  hitmask overlap alien1.png shot.gif --at 30,20\n  hitmask overlap masks.hitmask#alien1 masks.hitmask#shot --at 30,20 --json'
        )
        .action(overlap);
    maskFlags(
        sheetFlags(
            prog
                .command('polygons')
                .description(
                    'trace every frame (named as build names them) into polygons with holes and convex pieces, as JSON'
                )
                .argument('<inputs...>', 'PNG/GIF files, folders, globs (quote them) or atlas JSON files')
                .option(
                    '--tolerance-px <T>',
                    'simplify the outlines by up to T pixels (default 0: the exact pixel edges)',
                    distance
                )
                .option(
                    '--max-vertices <N>',
                    'most vertices per convex piece (default 8, the Box2D/Planck limit)',
                    maxVertices
                )
                .option('-o, --output <file.json>', 'write the JSON to this file (default: stdout)')
        ),
        'px'
    )
        .addHelpText(
            'after',
            '\nOutput: { "version": 1, "tolerance", "maxVertices", "frames": { NAME: { "width", "height", "x", "y",\n  "sourceWidth", "sourceHeight", "polygons": [{ "outer", "holes" }], "pieces" } } }, rings as flat\n  [x0, y0, x1, y1, …] in the pixel corners of the frame\'s (trimmed) mask; x, y: its offset in the frame.\n\nExamples:\n  hitmask polygons sprites/ -o shapes.json\n  hitmask polygons hero.png --tolerance-px 1 --max-vertices 8\n  hitmask polygons tiles.png --grid 16x16 --trim -o tiles.json'
        )
        .action(polygons);
    for (const c of prog.commands)
        c.exitOverride().configureOutput({
            outputError: (str, write) => write(`hitmask: ${str.replace(/^error: /, '').trim()}\n`)
        });
    return prog;
}

async function main(): Promise<void> {
    // A reader that stops early (`hitmask inspect … | head`) closes the pipe: stop quietly, as Unix tools do.
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'EPIPE') process.exit(0);
        throw e;
    });
    // Interrupted (Ctrl-C, kill): remove the temporary files of the writes in flight, so that every output is
    // either whole or as it was, and exit as shells expect (128 + the signal's number), with one line on stderr.
    for (const [signal, code] of [
        ['SIGINT', 130],
        ['SIGTERM', 143]
    ] as const) {
        process.on(signal, () => {
            const outputs = removeTemporaryFiles(),
                n = outputs.length;
            const kept =
                n === 0
                    ? ''
                    : `; removed ${n} unfinished temporary file${n === 1 ? '' : 's'}; ${outputs.map(o => JSON.stringify(o)).join(', ')} ${n === 1 ? 'is' : 'are'} unchanged`;
            process.stderr.write(`hitmask: interrupted by ${signal}${kept}.\n`);
            process.exit(code);
        });
    }
    const prog = program();
    if (process.argv.length <= 2) {
        // No command: the usage, on stderr, as an error (a script calling `hitmask` with nothing has a bug).
        process.stderr.write(prog.helpInformation());
        process.exitCode = 2;
        return;
    }
    try {
        await prog.parseAsync(process.argv);
    } catch (e) {
        if (e instanceof CommanderError) {
            // Commander has already printed help or its one-line error.
            process.exitCode =
                e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version'
                    ? 0
                    : 2;
            return;
        }
        process.stderr.write(`hitmask: ${(e instanceof Error ? e.message : String(e)).replace(/\s*\n\s*/g, ' ')}\n`);
        process.exitCode = 2;
    }
}

await main();
