// Mask kernels vs (a) the naive per-pixel alpha loop of the DirectDraw chapter and (b) pygame.mask.
// Run: npm run bench -- mask   (pygame column needs Debian's python3-pygame; skipped with a note otherwise)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mask, kernelStats } from '../src/index.js';
import { banner, fmt, fmtTiming, table, time, type Timing } from './harness.js';
import { naiveFirst, pointScenes as makePointScenes } from './point-scenes.js';
import { makeScene, toRGBA, type HitKind } from './scenes.js';

const SIZES = [32, 64, 256, 1024];
const KINDS: HitKind[] = ['early', 'late', 'none'];

// The DirectDraw chapter's SpritesCollide pixel test: walk the intersection rectangle in both
// sprites' local coordinates and report a hit where both pixels are opaque (alpha != 0 here).
function naiveOverlaps(
    a: Uint8Array,
    aw: number,
    ah: number,
    b: Uint8Array,
    bw: number,
    bh: number,
    dx: number,
    dy: number
): boolean {
    const x0 = Math.max(0, dx),
        x1 = Math.min(aw, dx + bw),
        y0 = Math.max(0, dy),
        y1 = Math.min(ah, dy + bh);
    for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
            if (a[(y * aw + x) * 4 + 3] !== 0 && b[((y - dy) * bw + x - dx) * 4 + 3] !== 0) return true;
        }
    }
    return false;
}

function naiveArea(
    a: Uint8Array,
    aw: number,
    ah: number,
    b: Uint8Array,
    bw: number,
    bh: number,
    dx: number,
    dy: number
): number {
    const x0 = Math.max(0, dx),
        x1 = Math.min(aw, dx + bw),
        y0 = Math.max(0, dy),
        y1 = Math.min(ah, dy + bh);
    let n = 0;
    for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
            if (a[(y * aw + x) * 4 + 3] !== 0 && b[((y - dy) * bw + x - dx) * 4 + 3] !== 0) n++;
        }
    }
    return n;
}

function naiveMask(
    a: Uint8Array,
    aw: number,
    ah: number,
    b: Uint8Array,
    bw: number,
    bh: number,
    dx: number,
    dy: number
): Uint8Array {
    const out = new Uint8Array(aw * ah);
    const x0 = Math.max(0, dx),
        x1 = Math.min(aw, dx + bw),
        y0 = Math.max(0, dy),
        y1 = Math.min(ah, dy + bh);
    for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
            if (a[(y * aw + x) * 4 + 3] !== 0 && b[((y - dy) * bw + x - dx) * 4 + 3] !== 0) out[y * aw + x] = 1;
        }
    }
    return out;
}

banner('hitmask Mask kernels vs naive per-pixel loop vs pygame.mask');
// The default backend runs (WebAssembly SIMD where available); HITMASK_KERNELS=js gives the JS kernels.
console.log(`kernels: ${kernelStats().kernels} (npm run bench -- simd compares both)\n`);

// Scenes, and the same pixels written out for pygame.
const dir = mkdtempSync(join(tmpdir(), 'hitmask-bench-'));
const scenes = SIZES.flatMap(size =>
    KINDS.map(kind => {
        const sc = makeScene(size, kind);
        const ra = toRGBA(sc.a),
            rb = toRGBA(sc.b);
        const pa = join(dir, `${size}-${kind}-a.rgba`),
            pb = join(dir, `${size}-${kind}-b.rgba`);
        writeFileSync(pa, ra);
        writeFileSync(pb, rb);
        return { ...sc, ra, rb, ma: Mask.fromRGBA(ra, size, size), mb: Mask.fromRGBA(rb, size, size), pa, pb };
    })
);

// Scenes where the row-major first hit is early but the leftmost strip's first hit is late (bench/point-scenes.ts).
const pointScenes = makePointScenes().map(s => {
    const ra = toRGBA(s.a),
        rb = toRGBA(s.b);
    const pa = join(dir, `${s.size}-${s.kind}-a.rgba`),
        pb = join(dir, `${s.size}-${s.kind}-b.rgba`);
    writeFileSync(pa, ra);
    writeFileSync(pb, rb);
    return { ...s, ma: Mask.fromRGBA(ra, s.size, s.size), mb: Mask.fromRGBA(rb, s.size, s.size), pa, pb };
});

const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const py = spawnSync(python, [new URL('./pygame-bench.py', import.meta.url).pathname], {
    input: JSON.stringify(
        [...scenes, ...pointScenes].map(s => ({ size: s.size, kind: s.kind, a: s.pa, b: s.pb, dx: s.dx, dy: s.dy }))
    ),
    encoding: 'utf8',
    maxBuffer: 16 << 20
});
rmSync(dir, { recursive: true, force: true });
type PyTiming = { median: number; min: number; max: number };
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
        `pygame column skipped: ${(py.stderr || py.error?.message || 'python3 failed').trim().split('\n').pop()}\n`
    );
if (pyOut)
    console.log(
        `pygame ${pyOut.pygame} on Python ${pyOut.python} (C bitmask library, 64-bit words), timed in-process with timeit\n`
    );
const pyFor = (size: number, kind: string) => pyOut?.results.find(r => r.size === size && r.kind === kind);

const ratio = (ours: Timing, other: { median: number } | undefined) =>
    other ? (ours.median / other.median).toFixed(3) : 'n/a';
const speedup = (ours: Timing, other: Timing) => (other.median / ours.median).toFixed(0) + '×';

const rows: (string | number)[][] = [];
const summary: (string | number)[][] = [];
for (const s of scenes) {
    const { ma, mb, ra, rb, size, dx, dy, kind } = s;
    // Same answers before timing anything.
    const hit = ma.overlaps(mb, dx, dy);
    if (hit !== naiveOverlaps(ra, size, size, rb, size, size, dx, dy) || hit !== (kind !== 'none'))
        throw new Error(`overlaps disagrees at ${size} ${kind}`);
    const p = pyFor(size, kind);
    if (p && p.check !== ma.overlapArea(mb, dx, dy)) throw new Error(`pygame area disagrees at ${size} ${kind}`);
    const ours = time(() => ma.overlaps(mb, dx, dy));
    const oursPt = time(() => ma.overlap(mb, dx, dy));
    const naive = time(() => naiveOverlaps(ra, size, size, rb, size, size, dx, dy), { samples: size >= 1024 ? 5 : 15 });
    rows.push([
        `${size}²`,
        kind,
        fmtTiming(ours),
        fmtTiming(oursPt),
        fmtTiming(naive),
        speedup(ours, naive),
        p ? fmt(p.overlap.median) : 'n/a',
        ratio(ours, p?.overlap),
        ratio(oursPt, p?.overlap)
    ]);
    if (kind === 'late') {
        if (ma.overlapArea(mb, dx, dy) !== naiveArea(ra, size, size, rb, size, size, dx, dy))
            throw new Error('area disagrees');
        const area = time(() => ma.overlapArea(mb, dx, dy));
        const nArea = time(() => naiveArea(ra, size, size, rb, size, size, dx, dy), { samples: size >= 1024 ? 5 : 15 });
        // Each result is disposed: a timing loop never yields, so dropped results would wait for the GC.
        const om = time(() => {
            ma.overlapMask(mb, dx, dy).dispose();
            return 0;
        });
        const nMask = time(() => naiveMask(ra, size, size, rb, size, size, dx, dy), { samples: size >= 1024 ? 5 : 15 });
        summary.push([
            `${size}²`,
            'overlapArea',
            fmtTiming(area),
            fmtTiming(nArea),
            speedup(area, nArea),
            p?.overlap_area ? fmt(p.overlap_area.median) : 'n/a',
            ratio(area, p?.overlap_area)
        ]);
        summary.push([
            `${size}²`,
            'overlapMask + dispose',
            fmtTiming(om),
            fmtTiming(nMask),
            speedup(om, nMask),
            p?.overlap_mask ? fmt(p.overlap_mask.median) : 'n/a',
            ratio(om, p?.overlap_mask)
        ]);
    }
}
const pointRows = pointScenes.map(s => {
    const { ma, mb, size, kind, dx, dy } = s,
        p = pyFor(size, kind);
    const want = naiveFirst(s.a, s.b, size, dx, dy),
        got = ma.overlap(mb, dx, dy);
    if (got?.x !== want?.x || got?.y !== want?.y) throw new Error(`overlap point disagrees at ${size} ${kind}`);
    if (p && p.check !== ma.overlapArea(mb, dx, dy)) throw new Error(`pygame area disagrees at ${size} ${kind}`);
    const t = time(() => ma.overlap(mb, dx, dy));
    return [
        `${size}²`,
        kind,
        `(${want?.x}, ${want?.y})`,
        fmtTiming(t),
        p ? fmt(p.overlap.median) : 'n/a',
        ratio(t, p?.overlap)
    ];
});
table(
    [
        'size',
        'hit',
        'overlaps',
        'overlap (point)',
        'naive loop',
        'naive / overlaps',
        'pygame overlap',
        'overlaps / pygame',
        'overlap / pygame'
    ],
    rows
);
table(['size', 'op', 'hitmask', 'naive loop', 'naive / hitmask', 'pygame', 'hitmask / pygame'], summary);
table(['size', 'scene', 'first point', 'overlap (point)', 'pygame overlap', 'overlap / pygame'], pointRows);
const oh = pyOut?.results.find(r => r.call_overhead)?.call_overhead;
if (oh)
    console.log(
        `pygame's per-call floor (an early-rejected overlap, Python call included): ${fmt(oh.median)}; it is part of every pygame figure.`
    );
console.log(
    'Scenes: two s×s masks, b at (13, 2); "early"/"late": one overlapping pixel first/last in row-major order; "none": full scan, no hit.'
);
console.log(
    'Point scenes: "triangle": a lower-right triangle under a full square; "blobs": two discs with holes, b at (s/16, s/16).'
);
