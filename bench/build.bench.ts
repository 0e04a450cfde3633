// `hitmask build` on a generated 4096x4096 grid sheet of 4096 frames (64x64): decode vs mask time, frames/s,
// and mask building from RGBA in MB/s against plain reads of the same bytes. Run: npm run bench -- build
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { kernelStats, Mask, MaskAtlas, setKernels, type KernelMode } from '../src/index.js';
import { buildAtlas, cutSheet, gridFrames, readImage } from '../src/node.js';
import { fmt, mulberry32, time } from './harness.js';

const SIZE = 4096,
    CELL = 64,
    REPS = Number(process.env.REPS ?? 5);

// One random ellipse per cell, with soft (random) alpha at the edge so the threshold matters.
function makeSheet(): PNG {
    const rnd = mulberry32(1234);
    const png = new PNG({ width: SIZE, height: SIZE });
    const d = png.data;
    for (let cy = 0; cy < SIZE; cy += CELL) {
        for (let cx = 0; cx < SIZE; cx += CELL) {
            const rx = 8 + rnd() * 23,
                ry = 8 + rnd() * 23,
                ox = cx + 32 + (rnd() - 0.5) * 10,
                oy = cy + 32 + (rnd() - 0.5) * 10;
            const r = rnd() * 255,
                g = rnd() * 255,
                b = rnd() * 255;
            for (let y = cy; y < cy + CELL; y++) {
                for (let x = cx; x < cx + CELL; x++) {
                    const e = ((x - ox) / rx) ** 2 + ((y - oy) / ry) ** 2;
                    if (e > 1.1) continue;
                    const p = (y * SIZE + x) * 4;
                    d[p] = r;
                    d[p + 1] = g;
                    d[p + 2] = b;
                    d[p + 3] = e < 0.9 ? 255 : (rnd() * 256) | 0;
                }
            }
        }
    }
    return png;
}

let sink = 0;

function measure(name: string, fn: () => void, reps = REPS): { median: number; min: number; max: number } {
    fn(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < reps; i++) {
        const t = performance.now();
        fn();
        times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const r = { median: times[times.length >> 1], min: times[0], max: times[times.length - 1] };
    console.log(
        `${name.padEnd(44)} ${r.median.toFixed(1).padStart(8)} ms  (min ${r.min.toFixed(1)}, max ${r.max.toFixed(1)})`
    );
    return r;
}

async function measureAsync(
    name: string,
    fn: () => Promise<void>,
    reps = REPS
): Promise<{ median: number; min: number; max: number }> {
    await fn();
    const times: number[] = [];
    for (let i = 0; i < reps; i++) {
        const t = performance.now();
        await fn();
        times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const r = { median: times[times.length >> 1], min: times[0], max: times[times.length - 1] };
    console.log(
        `${name.padEnd(44)} ${r.median.toFixed(1).padStart(8)} ms  (min ${r.min.toFixed(1)}, max ${r.max.toFixed(1)})`
    );
    return r;
}

const cpus = os.cpus();
console.log(
    `hitmask build benchmark: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, Node ${process.version}, ${REPS} reps (median, min, max)`
);
const dir = mkdtempSync(join(os.tmpdir(), 'hitmask-bench-'));
try {
    const sheet = makeSheet();
    const file = join(dir, 'sheet.png');
    const bytes = PNG.sync.write(sheet);
    writeFileSync(file, bytes);
    const frames = (SIZE / CELL) ** 2;
    const rgbaMB = (SIZE * SIZE * 4) / 1e6;
    console.log(
        `sheet: ${SIZE}x${SIZE} PNG, ${(bytes.length / 1e6).toFixed(1)} MB on disk, ${rgbaMB.toFixed(1)} MB RGBA, ${frames} frames of ${CELL}x${CELL}\n`
    );

    const image = await readImage(file);
    const data = image.data;
    const mbps = (ms: number) => `${(rgbaMB / (ms / 1000)).toFixed(0)} MB/s`;

    const copy = measure('baseline: copy RGBA (Uint8Array.slice)', () => {
        sink += data.slice()[7];
    });
    const read = measure('baseline: read every alpha byte', () => {
        let s = 0;
        for (let i = 3; i < data.length; i += 4) s += data[i];
        sink += s;
    });
    const mask = measure('Mask.fromRGBA, whole sheet', () => {
        sink += Mask.fromRGBA(data, SIZE, SIZE).words[5];
    });
    // The same builds on each kernel path (WebAssembly SIMD where the runtime has it), and one 64x64 frame.
    const { wasmAvailable, kernels: prevMode } = kernelStats(),
        modes: KernelMode[] = wasmAvailable ? ['js', 'wasm'] : ['js'];
    const frame = new Uint8Array(CELL * CELL * 4);
    for (let y = 0; y < CELL; y++) frame.set(data.subarray(y * SIZE * 4, (y * SIZE + CELL) * 4), y * CELL * 4);
    const byMode = modes.map(mode => {
        setKernels(mode);
        const rgba = measure(`Mask.fromRGBA, whole sheet [${mode}]`, () => {
            sink += Mask.fromRGBA(data, SIZE, SIZE).words[5];
        });
        const key = measure(`Mask.fromColorKey, whole sheet [${mode}]`, () => {
            sink += Mask.fromColorKey(data, SIZE, SIZE, 0).words[5];
        });
        const small = time(() => Mask.fromRGBA(frame, CELL, CELL), { samples: 15, sampleMs: 20 });
        console.log(
            `${`Mask.fromRGBA, one ${CELL}x${CELL} frame [${mode}]`.padEnd(44)} ${fmt(small.median).padStart(11)}  (min ${fmt(small.min)}, max ${fmt(small.max)})`
        );
        return { mode, rgba: rgba.median, key: key.median, small: small.median };
    });
    setKernels(prevMode);
    const layout = gridFrames('sheet', SIZE, SIZE, { frameWidth: CELL, frameHeight: CELL });
    const cut = measure('cutSheet: fromRGBA + crop 4096 frames', () => {
        sink += cutSheet(image, layout).length;
    });
    const decode = await measureAsync(
        'readImage (read + PNG decode)',
        async () => {
            sink += (await readImage(file)).width;
        },
        3
    );
    let stats = { decodeMs: 0, maskMs: 0 };
    let atlas: MaskAtlas | null = null;
    const build = await measureAsync(
        'buildAtlas --grid 64x64 (end to end)',
        async () => {
            const r = await buildAtlas([file], { grid: { frameWidth: CELL, frameHeight: CELL } });
            stats = r.stats;
            atlas = r.atlas;
        },
        3
    );
    const a = atlas as unknown as MaskAtlas;
    let out: Uint8Array = new Uint8Array(0);
    const write = measure('atlas.toBytes', () => {
        out = a.toBytes();
    });
    const load = measure('MaskAtlas.from (CRC + validation)', () => {
        sink += MaskAtlas.from(out).size;
    });

    console.log('\nsummary');
    console.log(`  copy RGBA            ${mbps(copy.median)}`);
    console.log(`  read alpha bytes     ${mbps(read.median)}`);
    console.log(
        `  Mask.fromRGBA        ${mbps(mask.median)}  = ${(read.median / mask.median).toFixed(2)}x the plain read loop, ${(copy.median / mask.median).toFixed(2)}x memcpy`
    );
    for (const m of byMode) {
        console.log(
            `    [${m.mode}]`.padEnd(23) +
                `${mbps(m.rgba)}; fromColorKey ${mbps(m.key)}; one ${CELL}x${CELL} frame ${((CELL * CELL * 4) / 1e6 / (m.small / 1e9)).toFixed(0)} MB/s`
        );
    }
    if (byMode.length === 2) {
        const [j, w] = byMode;
        console.log(
            `    wasm / js time       fromRGBA ${(w.rgba / j.rgba).toFixed(2)}, fromColorKey ${(w.key / j.key).toFixed(2)}, one ${CELL}x${CELL} frame ${(w.small / j.small).toFixed(2)}`
        );
    }
    console.log(`  cutSheet             ${(frames / (cut.median / 1000)).toFixed(0)} frames/s`);
    console.log(
        `  PNG decode           ${decode.median.toFixed(0)} ms = ${((100 * decode.median) / (decode.median + cut.median)).toFixed(0)}% of decode + masks`
    );
    console.log(
        `  build end to end     ${(frames / (build.median / 1000)).toFixed(0)} frames/s (last run: decode ${stats.decodeMs.toFixed(0)} ms, masks ${stats.maskMs.toFixed(0)} ms)`
    );
    console.log(
        `  atlas file           ${(out.length / 1e6).toFixed(2)} MB (${((out.length / ((SIZE * SIZE) / 8)) * 100).toFixed(0)}% of 1 bit per pixel); load ${(out.length / 1e6 / (load.median / 1000)).toFixed(0)} MB/s, write ${(out.length / 1e6 / (write.median / 1000)).toFixed(0)} MB/s`
    );
    console.log(
        `  (checksum ${sink & 0xffff}; numbers from a shared 2-core machine, compare ratios rather than absolute times)`
    );
} finally {
    rmSync(dir, { recursive: true, force: true });
}
