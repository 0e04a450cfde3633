// @test slow
// Decoder fuzz: mutated PNG, GIF and APNG files (byte flips, interesting values in size fields, cuts,
// inserted and repeated bytes, shuffled chunks, zlib streams swapped for bombs; PNG CRCs usually rewritten
// so that mutations get past the checksum). Each file must give an Error or images within the budget; a
// hang, a crash, a file that costs too much CPU or growing memory fails. The files run in a child process,
// watched from here: HITMASK_FUZZ_FILES files (default 60,000; more for a long run), the same work on any
// machine however busy. Replay a run with HITMASK_FUZZ_SEED (default 1): file n of a seed is always the same file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { decodeFrames, decodeImage, type ImageFrame, type RGBAImage } from '../src/node.js';
import { imageSize } from '../src/node/decode.js'; // internal: imageSize has no public entry
import { scanPng } from '../src/node/png.js'; // internal: scanPng has no public entry
import { animations } from './fixtures/animations.js';
import { fixCrcs, writePng } from './fixtures/png-writer.js';
import { mulberry32 } from '../bench/timing.js';

const FILES = Number(process.env.HITMASK_FUZZ_FILES ?? 60000);
const SEED = Number(process.env.HITMASK_FUZZ_SEED ?? 1);
// Small, so that a mutated size field is refused at once and an accepted file decodes in microseconds.
const MAX_BYTES = 1 << 20;
// CPU time allowed for one file (the slowest take about 15 ms), and peak RSS growth allowed over the child's
// RSS after its first 100 files.
const MAX_FILE_CPU_MS = 1000,
    MAX_RSS_GROWTH = 256 << 20;
// A hang, not slowness: the child reports every 1,000 files, so this long without a report is a file that never ends.
const SILENCE_MS = 120_000;
const FORMATS = ['png', 'gif', 'apng'] as const;
type Format = (typeof FORMATS)[number];

interface Summary {
    files: number;
    byFormat: Record<Format, number>;
    decoded: number;
    errors: number;
    slowestCpuMs: number;
    slowest: number;
    rssGrowth: number;
    seconds: number;
    failures: string[];
}

function seeds(): Record<Format, Uint8Array[]> {
    // Copied out of the Buffer: Buffer#slice() does not copy, and the mutations would edit the seeds.
    const sprite = (f: string) => Uint8Array.from(readFileSync(new URL(`./fixtures/sprites/${f}`, import.meta.url)));
    const v = (x: number, y: number, mod: number) => (x * 7 + y * 13 + x * y) % mod;
    const anim = animations();
    return {
        png: [
            sprite('chimp.png'),
            sprite('city.png'),
            writePng({
                width: 9,
                height: 7,
                colorType: 6,
                depth: 8,
                interlace: true,
                pixel: (x, y) => [x * 20, y * 30, 5, v(x, y, 256)]
            }),
            writePng({
                width: 11,
                height: 5,
                colorType: 3,
                depth: 4,
                palette: Array.from({ length: 16 }, (_, i) => [i * 16, i, 255 - i] as [number, number, number]),
                trns: [0, 128],
                pixel: (x, y) => [v(x, y, 16)]
            }),
            writePng({
                width: 6,
                height: 6,
                colorType: 0,
                depth: 2,
                interlace: true,
                trns: [0, 1],
                pixel: (x, y) => [v(x, y, 4)]
            }),
            writePng({ width: 5, height: 4, colorType: 2, depth: 16, pixel: (x, y) => [x * 9000, y * 9000, 77] })
        ],
        gif: [sprite('shot.gif'), sprite('bomb.gif'), ...anim.filter(a => a.type === 'image/gif').map(a => a.bytes)],
        apng: anim.filter(a => a.type === 'image/png').map(a => a.bytes)
    };
}

// zlib streams of zeros (up to a 4 MiB bomb) and of random bytes, made once: deflating per file cost more than decoding.
const ZLIB = [0, 17, 1000, 40000, 1 << 20, 4 << 20].flatMap(n => {
    const r = mulberry32(n + 1);
    return [
        deflateSync(new Uint8Array(n), { level: 1 }),
        deflateSync(Uint8Array.from({ length: Math.min(n, 4096) }, () => Math.floor(r() * 256)))
    ];
});

const INTERESTING = [
    0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x3fff, 0x7fff, 0xffff, 16000, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff
];

function chunks(b: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    const dv = new DataView(b.buffer, b.byteOffset, b.length);
    for (let p = 8; p + 12 <= b.length;) {
        const len = dv.getUint32(p);
        if (p + 12 + len > b.length) break;
        out.push(b.subarray(p, p + 12 + len));
        p += 12 + len;
    }
    return out;
}

function join(parts: Uint8Array[]): Uint8Array {
    return Uint8Array.from(Buffer.concat(parts));
}

type Mutation = (b: Uint8Array, at: number, int: (k: number) => number, png: boolean) => Uint8Array;

const flip: Mutation = (b, at, int) => {
    b[at] ^= 1 << int(8);
    return b;
};
const setByte: Mutation = (b, at, int) => {
    b[at] = [0, 0xff, 0x7f, 0x80, 1][int(5)];
    return b;
};
// A size or offset field set to an interesting value: PNG is big-endian, GIF little-endian.
const field: Mutation = (b, at, int, png) => {
    const value = INTERESTING[int(INTERESTING.length)],
        bytes = int(2) ? 4 : 2;
    for (let k = 0; k < bytes && at + k < b.length; k++)
        b[at + k] = png ? value >>> (8 * (bytes - 1 - k)) : value >>> (8 * k);
    return b;
};
const cut: Mutation = (b, at) => b.slice(0, at);
const insert: Mutation = (b, at, int) =>
    join([b.subarray(0, at), Uint8Array.from({ length: 1 + int(16) }, () => int(256)), b.subarray(at)]);
const repeat: Mutation = (b, at, int) => join([b.subarray(0, at), b.subarray(at, at + 1 + int(64)), b.subarray(at)]);
// Chunks dropped, repeated or swapped.
const shuffle: Mutation = (b, _, int) => {
    const c = chunks(b);
    if (c.length < 2) return b;
    const i = int(c.length),
        j = int(c.length),
        op = int(3);
    if (op === 0) c.splice(i, 1);
    else if (op === 1) c.splice(i, 0, c[j]);
    else [c[i], c[j]] = [c[j], c[i]];
    return join([b.subarray(0, 8), ...c]);
};
// An IDAT or fdAT stream swapped for one that inflates to up to 4 MiB (a small bomb) or to random bytes.
const swapZlib: Mutation = (b, _, int) => {
    const c = chunks(b);
    const data = c
        .map((x, i) => [x, i] as const)
        .filter(([x]) => (x[4] === 0x49 && x[5] === 0x44) || (x[4] === 0x66 && x[5] === 0x64));
    if (data.length === 0) return b;
    const [x, i] = data[int(data.length)];
    const payload = join([x[4] === 0x66 ? x.subarray(8, 12) : new Uint8Array(0), ZLIB[int(ZLIB.length)]]);
    const out = new Uint8Array(12 + payload.length);
    new DataView(out.buffer).setUint32(0, payload.length);
    out.set(x.subarray(4, 8), 4);
    out.set(payload, 8);
    c[i] = out;
    return join([b.subarray(0, 8), ...c]);
};
// Valid-preserving: an fcTL's dispose and blend ops set to 0..2 and 0..1, to reach every compositing path.
const tweakApng: Mutation = (b, _, int) => {
    const c = chunks(b).filter(x => x[4] === 0x66 && x[5] === 0x63 && x.length === 38);
    if (c.length === 0) return b;
    const f = c[int(c.length)];
    f[8 + 24] = int(3);
    f[8 + 25] = int(2);
    return b;
};
// Valid-preserving: a GIF graphic control extension's disposal (0..7) and transparency flag.
const tweakGif: Mutation = (b, _, int) => {
    const at: number[] = [];
    for (let p = 13; p + 3 < b.length; p++) if (b[p] === 0x21 && b[p + 1] === 0xf9 && b[p + 2] === 4) at.push(p + 3);
    if (at.length > 0) b[at[int(at.length)]] = (int(8) << 2) | int(2);
    return b;
};

const COMMON = [flip, setByte, field, field, cut, insert, repeat];
const MUTATIONS: Record<Format, Mutation[]> = {
    png: [...COMMON, shuffle, swapZlib],
    apng: [...COMMON, shuffle, swapZlib, tweakApng, tweakApng],
    gif: [...COMMON, tweakGif, tweakGif]
};

/** File number `n` of the fuzz run with `seed`: a seed file of format FORMATS[n % 3], mutated 1–4 times. */
function mutant(base: Record<Format, Uint8Array[]>, seed: number, n: number): { format: Format; bytes: Uint8Array } {
    const r = mulberry32(seed * 1000003 + n);
    const int = (k: number) => Math.floor(r() * k);
    const format = FORMATS[n % 3];
    const list = base[format],
        mutations = MUTATIONS[format];
    let b: Uint8Array = list[int(list.length)].slice();
    const png = format !== 'gif';
    // Mostly one mutation, and mostly past the signature: otherwise a third of the files only test format detection.
    const sig = png ? 8 : 6;
    for (let m = r() < 0.5 ? 1 : 2 + int(3); m > 0 && b.length > 0; m--) {
        const at = b.length > sig && r() < 0.95 ? sig + int(b.length - sig) : int(b.length);
        b = mutations[int(mutations.length)](b, at, int, png);
    }
    if (png && r() < 0.8) fixCrcs(b);
    return { format, bytes: b };
}

// Our errors name the format or the budget; a TypeError or another message is a bug escaping.
function badError(e: unknown): string | null {
    if (e instanceof Error && !(e instanceof TypeError) && /^(PNG|APNG|GIF|Image|Unsupported)/.test(e.message))
        return null;
    return `threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
}

// Whether the first frame is the still image: always for GIF and still PNG; for APNG, when the default image is frame 0.
function firstIsImage(bytes: Uint8Array): boolean {
    if (bytes[0] !== 0x89) return true;
    try {
        const info = scanPng(bytes);
        return info.frames.length === 0 || info.defaultIsFrame;
    } catch {
        return false;
    }
}

// Checks one file: an Error of ours, or frames of the declared size within the budget, the first equal to
// decodeImage's image (colours of fully transparent pixels aside: APNG's OVER blend leaves them black).
function check(bytes: Uint8Array): { ok: boolean; failure: string | null } {
    let frames: ImageFrame[] | null = null,
        image: RGBAImage | null = null;
    try {
        frames = decodeFrames(bytes, { maxBytes: MAX_BYTES });
    } catch (e) {
        const bad = badError(e);
        if (bad) return { ok: false, failure: `decodeFrames ${bad}` };
    }
    try {
        image = decodeImage(bytes, { maxBytes: MAX_BYTES });
    } catch (e) {
        const bad = badError(e);
        if (bad) return { ok: false, failure: `decodeImage ${bad}` };
    }
    if (!frames && !image) return { ok: false, failure: null };
    const { width, height } = imageSize(bytes);
    let total = 0;
    for (const f of [...(frames ?? []), ...(image ? [image] : [])]) {
        if (f.width !== width || f.height !== height || f.data.length !== width * height * 4)
            return {
                ok: true,
                failure: `an image of ${f.width}x${f.height} (${f.data.length} bytes) for a ${width}x${height} file`
            };
        total += f.data.length;
    }
    if (frames?.length === 0 || total > 2 * MAX_BYTES)
        return { ok: true, failure: `${frames?.length} frames, ${total} bytes for a ${MAX_BYTES}-byte budget` };
    if (frames && firstIsImage(bytes)) {
        if (!image) return { ok: true, failure: 'decodeFrames decodes the first frame but decodeImage refuses it' };
        const a = frames[0].data,
            b = image.data;
        for (let p = 0; p < a.length; p += 4) {
            if (
                a[p + 3] !== b[p + 3] ||
                (a[p + 3] > 0 && (a[p] !== b[p] || a[p + 1] !== b[p + 1] || a[p + 2] !== b[p + 2]))
            ) {
                return {
                    ok: true,
                    failure: `frame 0 differs from decodeImage at pixel ${p / 4}: ${a.subarray(p, p + 4)} vs ${b.subarray(p, p + 4)}`
                };
            }
        }
    }
    return { ok: true, failure: null };
}

async function child(): Promise<void> {
    const base = seeds();
    const t0 = performance.now();
    const s: Summary = {
        files: 0,
        byFormat: { png: 0, gif: 0, apng: 0 },
        decoded: 0,
        errors: 0,
        slowestCpuMs: 0,
        slowest: -1,
        rssGrowth: 0,
        seconds: 0,
        failures: []
    };
    let rss0 = 0;
    for (let n = 0; n < FILES; n++) {
        const { format, bytes } = mutant(base, SEED, n);
        const c0 = process.cpuUsage();
        const r = check(bytes);
        const c = process.cpuUsage(c0),
            ms = (c.user + c.system) / 1000;
        s.files++;
        s.byFormat[format]++;
        if (r.ok) s.decoded++;
        else s.errors++;
        if (r.failure && s.failures.length < 10) s.failures.push(`file ${n} (${format}, seed ${SEED}): ${r.failure}`);
        if (ms > s.slowestCpuMs) {
            s.slowestCpuMs = ms;
            s.slowest = n;
        }
        if (n % 100 === 99) {
            // Node's zlib emits a failed inflateSync's error on the next tick, holding its 16 KiB output buffer until
            // then: 20,000 failures in one synchronous loop hold 312 MiB, freed at the next tick. Yield, as callers do.
            await new Promise(setImmediate);
            const rss = process.memoryUsage.rss();
            if (rss0 === 0) rss0 = rss;
            s.rssGrowth = Math.max(s.rssGrowth, rss - rss0);
        }
        if (n % 1000 === 999) process.stdout.write(JSON.stringify({ progress: n }) + '\n');
    }
    s.seconds = (performance.now() - t0) / 1000;
    process.stdout.write(JSON.stringify({ summary: s }) + '\n');
}

if (process.env.HITMASK_FUZZ_CHILD === '1') {
    await child();
} else {
    test(`decoder fuzz: ${FILES} mutated PNG, GIF and APNG files give an Error or images within the budget`, async t => {
        // A child process: a crash (a V8 fatal error, a heap limit) or a hang shows as its exit, not ours.
        const proc = spawn(
            process.execPath,
            ['--import', 'tsx', '--max-old-space-size=512', fileURLToPath(import.meta.url)],
            {
                env: { ...process.env, HITMASK_FUZZ_CHILD: '1' },
                stdio: ['ignore', 'pipe', 'pipe']
            }
        );
        let out = '',
            err = '',
            last = -1,
            summary: Summary | null = null,
            hung = false;
        let watchdog = setTimeout(() => {
            hung = true;
            proc.kill('SIGKILL');
        }, SILENCE_MS);
        proc.stderr.on('data', d => {
            err += d;
        });
        proc.stdout.on('data', d => {
            out += d;
            let nl;
            while ((nl = out.indexOf('\n')) >= 0) {
                const msg = JSON.parse(out.slice(0, nl)) as { progress?: number; summary?: Summary };
                out = out.slice(nl + 1);
                if (msg.progress !== undefined) last = msg.progress;
                if (msg.summary) summary = msg.summary;
                clearTimeout(watchdog);
                watchdog = setTimeout(() => {
                    hung = true;
                    proc.kill('SIGKILL');
                }, SILENCE_MS);
            }
        });
        const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>(done =>
            proc.on('exit', (c, s) => done([c, s]))
        );
        clearTimeout(watchdog);
        assert.ok(
            !hung,
            `a file hung the decoder: no progress for ${SILENCE_MS / 1000} s after file ${last} (seed ${SEED})`
        );
        assert.equal(
            code,
            0,
            `the fuzz process died (exit ${code}, signal ${signal}) after file ${last} (seed ${SEED}): ${err.slice(-2000)}`
        );
        assert.ok(summary, 'no summary from the fuzz process');
        const s = summary as Summary;
        t.diagnostic(
            `${s.files} files in ${s.seconds.toFixed(1)} s (png ${s.byFormat.png}, gif ${s.byFormat.gif}, apng ${s.byFormat.apng}); ${s.decoded} decoded, ${s.errors} refused; slowest file ${s.slowest} took ${s.slowestCpuMs.toFixed(1)} ms of CPU; RSS grew ${(s.rssGrowth / 1048576).toFixed(0)} MiB (seed ${SEED})`
        );
        assert.deepEqual(s.failures, []);
        assert.equal(s.files, FILES);
        assert.ok(
            s.decoded > s.files / 20 && s.errors > s.files / 20,
            `mutations must both keep files valid and break them: ${s.decoded} decoded, ${s.errors} refused`
        );
        assert.ok(s.slowestCpuMs < MAX_FILE_CPU_MS, `file ${s.slowest} took ${s.slowestCpuMs} ms of CPU`);
        assert.ok(s.rssGrowth < MAX_RSS_GROWTH, `RSS grew ${s.rssGrowth} bytes`);
    });
}
