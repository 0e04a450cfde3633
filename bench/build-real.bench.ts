// `hitmask build <folder>` against pygame (pygame.image.load + pygame.mask.from_surface(img, 127)) on a generated
// folder of varied PNGs: palette 1/2/4/8-bit (with and without tRNS), grey 1..16-bit (with and without tRNS),
// grey+alpha, RGB (with and without tRNS) and RGBA at 8 and 16 bits, 8 to 800 px, some interlaced, scanlines
// filtered adaptively as encoders do. Files are written by the small encoder below (not our decoder), seeded, into a
// temporary folder that is removed afterwards. Both sides are whole processes, start-up included, run alternately;
// then the masks are compared bit for bit. Run: npm run bench -- build-real (FILES=600 REPS=5 SEED=1 SKIP_TSC=1;
// KEEP=1 keeps the folder, e.g. for profiling).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { MaskAtlas } from '../src/index.js';
import { pngChunk as chunk } from '../test/fixtures/png-writer.js';
import { banner, mulberry32, table } from './harness.js';

const FILES = Number(process.env.FILES ?? 600),
    REPS = Number(process.env.REPS ?? 5),
    SEED = Number(process.env.SEED ?? 1);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

// ---- A minimal PNG encoder: any colour type and depth, tRNS, Adam7, per-row adaptive filters (libpng's heuristic). ----

interface Spec {
    kind: string;
    width: number;
    height: number;
    colorType: 0 | 2 | 3 | 4 | 6;
    depth: 1 | 2 | 4 | 8 | 16;
    interlace: boolean;
    /** Samples, `channels` per pixel, row-major, at `depth` bits. */
    samples: Uint16Array;
    palette?: Uint8Array;
    trns?: Uint8Array;
}

const CHANNELS = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 } as const;
const PASSES = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2]
];

function paeth(a: number, b: number, c: number): number {
    const p = a + b - c,
        pa = Math.abs(p - a),
        pb = Math.abs(p - b),
        pc = Math.abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// Packs the pixels of columns x0, x0+dx, … of row y into `row`, then appends the row with the filter of smallest sum of |signed bytes|.
function encodeRows(s: Spec, x0: number, y0: number, dx: number, dy: number, out: number[][]): void {
    const ch = CHANNELS[s.colorType],
        bits = ch * s.depth,
        w = Math.ceil((s.width - x0) / dx);
    if (w <= 0 || y0 >= s.height) return;
    const bytes = Math.ceil((w * bits) / 8),
        bpp = Math.max(1, bits >> 3);
    let prev = new Uint8Array(bytes),
        row = new Uint8Array(bytes);
    const cand = Array.from({ length: 5 }, () => new Uint8Array(bytes + 1));
    for (let y = y0; y < s.height; y += dy) {
        row.fill(0);
        let bit = 0;
        for (let i = 0, x = x0; i < w; i++, x += dx) {
            for (let c = 0; c < ch; c++) {
                const v = s.samples[(y * s.width + x) * ch + c];
                if (s.depth === 16) {
                    row[bit >> 3] = v >> 8;
                    row[(bit >> 3) + 1] = v & 255;
                } else if (s.depth === 8) row[bit >> 3] = v;
                else row[bit >> 3] |= v << (8 - s.depth - (bit & 7));
                bit += s.depth;
            }
        }
        let best = 0,
            bestSum = Infinity;
        for (let f = 0; f < 5; f++) {
            const o = cand[f];
            o[0] = f;
            let sum = 0;
            for (let i = 0; i < bytes; i++) {
                const a = i >= bpp ? row[i - bpp] : 0,
                    b = prev[i],
                    c = i >= bpp ? prev[i - bpp] : 0;
                const pred = f === 0 ? 0 : f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : paeth(a, b, c);
                const v = (row[i] - pred) & 255;
                o[i + 1] = v;
                sum += v < 128 ? v : 256 - v;
            }
            if (sum < bestSum) {
                bestSum = sum;
                best = f;
            }
        }
        out.push(Array.from(cand[best]));
        [prev, row] = [row, prev];
    }
}

function encode(s: Spec): Uint8Array {
    const rows: number[][] = [];
    if (s.interlace) for (const [x0, y0, dx, dy] of PASSES) encodeRows(s, x0, y0, dx, dy, rows);
    else encodeRows(s, 0, 0, 1, 1, rows);
    const raw = new Uint8Array(rows.reduce((n, r) => n + r.length, 0));
    let p = 0;
    for (const r of rows) {
        raw.set(r, p);
        p += r.length;
    }
    const ihdr = new Uint8Array(13),
        dv = new DataView(ihdr.buffer);
    dv.setUint32(0, s.width);
    dv.setUint32(4, s.height);
    ihdr.set([s.depth, s.colorType, 0, 0, s.interlace ? 1 : 0], 8);
    const parts = [Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr)];
    if (s.palette) parts.push(chunk('PLTE', s.palette));
    if (s.trns) parts.push(chunk('tRNS', s.trns));
    parts.push(chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0)));
    return Buffer.concat(parts);
}

// ---- Sprite-like content: a few blobs with soft edges on a clear background. ----

function makeSpec(i: number, rnd: () => number): Spec {
    // Sizes log-uniform, small sprites far more common than large sheets; 8 and 800 always occur.
    const side = () => Math.round(Math.min(800, Math.max(8, 8 * 100 ** (rnd() ** 1.6))));
    const width = i === 0 ? 800 : i === 1 ? 8 : side(),
        height = i === 0 ? 800 : i === 1 ? 8 : Math.round(Math.min(800, Math.max(8, width * (0.5 + rnd() * 1.5))));
    const kinds = [
        'rgba8',
        'rgba8',
        'rgba8',
        'rgba16',
        'ga8',
        'ga16',
        'rgb8',
        'rgb8-trns',
        'rgb16-trns',
        'grey8',
        'grey8-trns',
        'grey16-trns',
        'grey1-trns',
        'grey2-trns',
        'grey4-trns',
        'pal1',
        'pal2-trns',
        'pal4-trns',
        'pal4',
        'pal8-trns',
        'pal8-trns',
        'pal8'
    ] as const;
    const kind = kinds[i % kinds.length];
    const blobs = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => ({
        x: rnd() * width,
        y: rnd() * height,
        rx: width * (0.1 + rnd() * 0.4),
        ry: height * (0.1 + rnd() * 0.4),
        soft: 0.05 + rnd() * 0.3
    }));
    // Coverage 0..1 of a pixel: 1 deep inside a blob, a ramp across its soft edge.
    const cover = (x: number, y: number) => {
        let best = 0;
        for (const b of blobs) {
            const e = Math.sqrt(((x - b.x) / b.rx) ** 2 + ((y - b.y) / b.ry) ** 2);
            best = Math.max(best, Math.min(1, Math.max(0, (1 - e) / b.soft)));
        }
        return best;
    };
    const [, type, depthText, trnsText] = /^(rgba|ga|rgb|grey|pal)(\d+)(-trns)?$/.exec(kind) as RegExpExecArray;
    const depth = Number(depthText) as Spec['depth'],
        hasTrns = trnsText !== undefined;
    const colorType: Spec['colorType'] = ({ rgba: 6, ga: 4, rgb: 2, grey: 0, pal: 3 } as const)[
        type as 'rgba'
    ] as Spec['colorType'];
    const ch = CHANNELS[colorType],
        max = 2 ** depth - 1,
        n = width * height;
    const samples = new Uint16Array(n * ch);
    const spec: Spec = { kind, width, height, colorType, depth, interlace: rnd() < 0.12, samples };
    const shade = (x: number, y: number, c: number) =>
        Math.floor((((x * (3 + c) + y * (5 - c) + c * 40) % 97) / 96) * max);
    if (colorType === 3) {
        const entries = depth === 8 ? 16 + Math.floor(rnd() * 241) : 2 ** depth;
        spec.palette = Uint8Array.from({ length: entries * 3 }, () => Math.floor(rnd() * 256));
        // Entry 0 transparent; a few partly transparent entries (some at 127/128, the threshold's edge); the rest opaque.
        if (hasTrns)
            spec.trns = Uint8Array.from(
                { length: Math.max(1, Math.min(entries, 1 + Math.floor(rnd() * entries))) },
                (_, k) => (k === 0 ? 0 : [255, 255, 127, 128, 200, 30][Math.floor(rnd() * 6)])
            );
        for (let y = 0, p = 0; y < height; y++)
            for (let x = 0; x < width; x++, p++) {
                const c = cover(x, y);
                samples[p] = c === 0 ? 0 : 1 + (Math.floor(c * (entries - 2) + ((x + y) & 1)) % (entries - 1));
            }
        return spec;
    }
    const alpha = colorType === 4 || colorType === 6;
    // Colour keys: the background's colour, never drawn inside a blob.
    const key = Math.floor(rnd() * (max + 1));
    if (hasTrns) {
        const k16 = [key >> 8, key & 255];
        spec.trns = Uint8Array.from(colorType === 0 ? k16 : [...k16, ...k16, ...k16]);
    }
    for (let y = 0, p = 0; y < height; y++)
        for (let x = 0; x < width; x++, p++) {
            const c = cover(x, y);
            for (let k = 0; k < ch; k++) {
                const isAlpha = alpha && k === ch - 1;
                let v = isAlpha ? Math.round(c * max) : c === 0 && !alpha ? key : shade(x, y, k);
                if (!isAlpha && !alpha && c > 0 && v === key) v = (v + 1) % (max + 1);
                samples[p * ch + k] = v;
            }
        }
    return spec;
}

// ---- pygame side: one process loading every file and building its mask (timed); another dumping the masks (not timed). ----

const PY_PRELUDE = `import os, sys, time
os.environ.setdefault('PYGAME_HIDE_SUPPORT_PROMPT', '1')
os.environ.setdefault('SDL_VIDEODRIVER', 'dummy')
import pygame
files = [l for l in open(sys.argv[1]).read().split('\\n') if l]
`;
const PY_TIME = `${PY_PRELUDE}for f in files:
    pygame.mask.from_surface(pygame.image.load(f), 127)
`;
const PY_DUMP = `${PY_PRELUDE}out = open(sys.argv[2], 'wb')
for f in files:
    m = pygame.mask.from_surface(pygame.image.load(f), 127)
    w, h = m.get_size()
    s = pygame.image.tostring(m.to_surface(setcolor=(255, 255, 255, 255), unsetcolor=(0, 0, 0, 255)), 'RGBA')
    out.write(bytes(s[0::4]))
out.close()
`;

function run(cmd: string, args: string[]): number {
    const t = performance.now();
    const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
    return ms;
}

const stat = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { median: s[s.length >> 1], min: s[0], max: s[s.length - 1] };
};
const ms = (v: number) => `${v.toFixed(0)} ms`;

banner(`hitmask build vs pygame load + from_surface on ${FILES} generated PNGs`);
const pyVersion = spawnSync(
    python,
    [
        '-c',
        'import os; os.environ["PYGAME_HIDE_SUPPORT_PROMPT"]="1"; import pygame, sys; print(pygame.version.ver, "SDL", ".".join(map(str, pygame.get_sdl_version())), "Python", sys.version.split()[0])'
    ],
    { encoding: 'utf8' }
);
if (pyVersion.status !== 0) {
    console.log(`pygame is not available to ${python}: nothing to compare against.\n${pyVersion.stderr}`);
    process.exit(0);
}
console.log(`pygame ${pyVersion.stdout.trim()} (${python})`);
if (!process.env.SKIP_TSC) execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
const cli = join(root, 'dist/node/cli.js');

const dir = mkdtempSync(join(os.tmpdir(), 'hitmask-build-real-'));
try {
    const sprites = join(dir, 'sprites');
    const rnd = mulberry32(SEED);
    const specs: { name: string; spec: Spec }[] = [];
    let bytes = 0,
        pixels = 0;
    const byKind = new Map<string, number>();
    for (let i = 0; i < FILES; i++) {
        const spec = makeSpec(i, rnd);
        const name = `${spec.kind}/${String(i).padStart(4, '0')}-${spec.width}x${spec.height}${spec.interlace ? '-i' : ''}`;
        const file = join(sprites, `${name}.png`);
        mkdirSync(dirname(file), { recursive: true });
        const png = encode(spec);
        writeFileSync(file, png);
        bytes += png.length;
        pixels += spec.width * spec.height;
        byKind.set(spec.kind, (byKind.get(spec.kind) ?? 0) + 1);
        specs.push({ name, spec: { ...spec, samples: new Uint16Array(0) } });
    }
    const interlaced = specs.filter(s => s.spec.interlace).length;
    console.log(
        `corpus: ${FILES} PNGs (seed ${SEED}), ${(bytes / 1e6).toFixed(1)} MB on disk, ${(pixels / 1e6).toFixed(1)} Mpx, ${interlaced} interlaced; ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}\n`
    );
    specs.sort((a, b) => (a.name < b.name ? -1 : 1));
    const list = join(dir, 'files.txt'),
        timePy = join(dir, 'time.py'),
        dumpPy = join(dir, 'dump.py'),
        out = join(dir, 'out.hitmask');
    writeFileSync(list, specs.map(s => join(sprites, `${s.name}.png`)).join('\n'));
    writeFileSync(timePy, PY_TIME);
    writeFileSync(dumpPy, PY_DUMP);

    // Warm the file cache and both runtimes once, then alternate.
    run(process.execPath, [cli, 'build', sprites, '-o', out]);
    run(python, [timePy, list]);
    const hm: number[] = [],
        hm0: number[] = [],
        py: number[] = [];
    for (let r = 0; r < REPS; r++) {
        hm.push(run(process.execPath, [cli, 'build', sprites, '-o', out]));
        hm0.push(run(process.execPath, [cli, 'build', sprites, '-o', out, '--workers', '0']));
        py.push(run(python, [timePy, list]));
    }
    const summary = spawnSync(process.execPath, [cli, 'build', sprites, '-o', out], { encoding: 'utf8' }).stdout.trim();
    const h = stat(hm),
        h0 = stat(hm0),
        p = stat(py);
    table(
        ['', 'median', 'min', 'max'],
        [
            ['hitmask build (node dist/node/cli.js)', ms(h.median), ms(h.min), ms(h.max)],
            ['hitmask build --workers 0 (one thread)', ms(h0.median), ms(h0.min), ms(h0.max)],
            ['pygame load + from_surface(img, 127)', ms(p.median), ms(p.min), ms(p.max)],
            [
                'process start only: node -e 0 / python -c "import pygame"',
                ms(stat([0, 1, 2].map(() => run(process.execPath, ['-e', '0']))).median),
                ms(
                    stat(
                        [0, 1, 2].map(() =>
                            run(python, [
                                '-c',
                                'import os; os.environ["PYGAME_HIDE_SUPPORT_PROMPT"]="1"; import pygame'
                            ])
                        )
                    ).median
                ),
                ''
            ]
        ]
    );
    console.log(`hitmask summary line: ${summary}`);
    console.log(
        `ratio hitmask / pygame (medians): ${(h.median / p.median).toFixed(2)}x (target ≤ 1.5x; one thread ${(h0.median / p.median).toFixed(2)}x); ${(pixels / 1e6 / (h.median / 1000)).toFixed(1)} Mpx/s vs ${(pixels / 1e6 / (p.median / 1000)).toFixed(1)} Mpx/s\n`
    );

    // Bits: every mask against pygame's.
    const dump = join(dir, 'masks.bin');
    run(python, [dumpPy, list, dump]);
    const theirs = readFileSync(dump),
        atlas = MaskAtlas.from(readFileSync(out));
    let at = 0;
    const diff = new Map<string, { files: number; differ: string[]; pixels: number }>();
    for (const { name, spec } of specs) {
        const n = spec.width * spec.height,
            mine = atlas.frame(name).mask;
        let bad = 0;
        for (let y = 0; y < spec.height; y++)
            for (let x = 0; x < spec.width; x++) if (theirs[at + y * spec.width + x] > 127 !== mine.get(x, y)) bad++;
        at += n;
        const d = diff.get(spec.kind) ?? { files: 0, differ: [], pixels: 0 };
        d.files++;
        if (bad > 0) {
            d.differ.push(name);
            d.pixels += bad;
        }
        diff.set(spec.kind, d);
    }
    if (at !== theirs.length) throw new Error(`pygame dumped ${theirs.length} mask bytes, expected ${at}.`);
    table(
        ['kind', 'files', 'masks differing from pygame', 'pixels differing'],
        [...diff].sort().map(([k, d]) => [k, d.files, d.differ.length, d.pixels])
    );
    const differing = [...diff].filter(([, d]) => d.differ.length > 0);
    console.log(
        differing.length === 0
            ? "every mask is bit-identical to pygame's"
            : `masks differ from pygame's for: ${differing.map(([k, d]) => `${k} (${d.differ.length}/${d.files}, e.g. ${d.differ[0]})`).join('; ')}`
    );
} finally {
    if (process.env.KEEP) console.log(`\nkept the corpus in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
}
