// buildAtlas with worker threads gives the atlas a build without them gives, byte for byte, in the same order,
// with the same errors (naming the file), for mixed folders: still PNGs of every kind, GIFs, APNGs, sheets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import { buildAtlas } from '../src/node.js';
import { startWorkers } from '../src/node/build.js'; // internal: startWorkers has no public entry
import type { WorkerResult } from '../src/node/build-worker.js'; // internal: the worker protocol has no public entry
import { decodePngMask } from '../src/node/decode.js'; // internal: decodePngMask has no public entry
import { animations } from './fixtures/animations.js';
import { writePng, type PngSpec } from './fixtures/png-writer.js';
import { mulberry32 } from '../bench/timing.js';

const sprite = (f: string) => new URL(`./fixtures/sprites/${f}`, import.meta.url).pathname;

function folder(): string {
    const dir = mkdtempSync(join(os.tmpdir(), 'hitmask-workers-'));
    const rnd = mulberry32(99);
    const kinds: [PngSpec['colorType'], PngSpec['depth']][] = [
        [6, 8],
        [6, 16],
        [4, 8],
        [3, 4],
        [3, 8],
        [0, 8],
        [2, 8],
        [0, 2]
    ];
    for (let i = 0; i < 90; i++) {
        const [colorType, depth] = kinds[i % kinds.length],
            max = 2 ** depth - 1;
        const width = 1 + Math.floor(rnd() * 50),
            height = 1 + Math.floor(rnd() * 50),
            ch = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
        const spec: PngSpec = {
            width,
            height,
            colorType,
            depth,
            interlace: i % 5 === 0,
            pixel: (x, y) =>
                Array.from({ length: ch }, (_, c) => (((x * 7 + y * 13 + c * 5 + i) * 2654435761) >>> 0) % (max + 1))
        };
        if (colorType === 3) {
            spec.palette = Array.from({ length: max + 1 }, (_, k) => [k, k, k] as [number, number, number]);
            spec.trns = Array.from({ length: max + 1 }, (_, k) => (k * 37) % 256);
        }
        if (colorType === 0 || colorType === 2) spec.trns = colorType === 0 ? [0, 1] : [0, 1, 0, 2, 0, 3];
        mkdirSync(join(dir, `k${i % 3}`), { recursive: true });
        writeFileSync(join(dir, `k${i % 3}`, `s${String(i).padStart(3, '0')}.png`), writePng(spec));
    }
    copyFileSync(sprite('shot.gif'), join(dir, 'k1', 'shot.gif'));
    copyFileSync(sprite('chimp.png'), join(dir, 'k2', 'chimp.png'));
    const apng = animations().find(a => a.type === 'image/png');
    if (apng) writeFileSync(join(dir, 'k0', 'anim.png'), apng.bytes);
    return dir;
}

test('buildAtlas: worker threads give the same atlas, in the same order, as one thread', async () => {
    const dir = folder();
    try {
        for (const options of [{}, { trim: true }, { threshold: 0 }, { threshold: 254 }]) {
            const one = await buildAtlas([dir], { ...options, workers: 0 });
            const two = await buildAtlas([dir], { ...options, workers: 2 });
            assert.deepEqual(two.atlas.names, one.atlas.names);
            assert.deepEqual(
                Buffer.from(two.atlas.toBytes()),
                Buffer.from(one.atlas.toBytes()),
                JSON.stringify(options)
            );
            assert.equal(two.stats.rgbaBytes, one.stats.rgbaBytes);
            assert.equal(two.stats.files, one.stats.files);
            // How many files the workers answer in time depends on the machine; none may be answered at all.
            assert.equal(one.stats.workerFiles, 0);
            assert.deepEqual(two.sources.sort(), one.sources.sort());
        }
        // Auto: 64 or more still images start workers on a machine with more than one core.
        const auto = await buildAtlas([dir]);
        assert.deepEqual(
            Buffer.from(auto.atlas.toBytes()),
            Buffer.from((await buildAtlas([dir], { workers: 0 })).atlas.toBytes())
        );
        await assert.rejects(buildAtlas([dir], { workers: -1 }), /workers/);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
});

test('buildAtlas: with worker threads, a corrupt or unreadable file fails with the error one thread gives, naming the file', async () => {
    const dir = folder();
    try {
        const bad = join(dir, 'k1', 's040.png');
        const bytes = writePng({ width: 9, height: 9, colorType: 6, depth: 8, pixel: () => [1, 2, 3, 4] });
        bytes[bytes.length - 20] ^= 0xff;
        writeFileSync(bad, bytes);
        const errors: string[] = [];
        for (const workers of [0, 2]) {
            await assert.rejects(buildAtlas([dir], { workers }), (e: Error) => {
                errors.push(e.message);
                return e.message.startsWith(bad);
            });
        }
        assert.equal(errors[1], errors[0]);
        // A budget error as well.
        const small = [0, 2].map(workers =>
            buildAtlas([dir], { workers, maxBytes: 2000 }).then(
                () => 'built',
                (e: Error) => e.message
            )
        );
        const [a, b] = await Promise.all(small);
        assert.match(a, /MiB budget/);
        assert.equal(b, a);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
});

test('build worker: answers each still PNG with the words of decodePngMask, and anything else (GIF, APNG, corrupt, missing) with redo', async () => {
    const dir = folder();
    try {
        const bad = join(dir, 'k1', 'bad.png');
        writeFileSync(bad, Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]));
        const files = readdirSync(dir, { recursive: true })
            .map(String)
            .filter(f => /\.(png|gif)$/.test(f))
            .map(f => join(dir, f));
        files.push(join(dir, 'missing.png'));
        const [w] = startWorkers(1, 1) ?? [];
        assert.ok(w);
        const answers = new Map<number, WorkerResult>();
        await new Promise<void>((res, rej) => {
            w.on('error', rej);
            w.on('message', (r: WorkerResult) => {
                answers.set(r.k, r);
                if (answers.size === files.length) res();
            });
            files.forEach((path, k) => w.postMessage({ k, path, threshold: 100, maxBytes: 1 << 20 }));
        });
        await w.terminate();
        let built = 0;
        files.forEach((path, k) => {
            const r = answers.get(k) as WorkerResult;
            let want;
            try {
                want = decodePngMask(readFileSync(path), 100);
            } catch {
                want = null;
            }
            if (want === null) {
                assert.ok('redo' in r, path);
            } else {
                assert.ok(!('redo' in r), path);
                assert.deepEqual(
                    [r.width, r.height, Array.from(r.words)],
                    [want.width, want.height, Array.from(want.words)],
                    path
                );
                built++;
            }
        });
        assert.ok(built >= 90, `${built} built`);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
});
