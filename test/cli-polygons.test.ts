// @test slow
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { Mask, MaskAtlas } from '../src/index.js';
import { CLI, cliRunner, ensureBuilt } from './cli-run.js';

// `hitmask polygons`, run as the built binary (dist/), as test/cli.test.ts runs the other commands.
const SPRITES = fileURLToPath(new URL('./fixtures/sprites/', import.meta.url));
const IMAGES = [
    'alien1.png',
    'alien2.png',
    'bomb.gif',
    'chimp.png',
    'city.png',
    'explosion1.gif',
    'player1.gif',
    'shot.gif'
];
let dir = '';

interface Poly {
    outer: number[];
    holes: number[][];
}
interface Frame {
    width: number;
    height: number;
    x: number;
    y: number;
    sourceWidth: number;
    sourceHeight: number;
    polygons: Poly[];
    pieces: number[][];
}
interface Output {
    version: number;
    tolerance: number;
    maxVertices: number;
    frames: Record<string, Frame>;
}

const { run, fails } = cliRunner(() => dir);

function polygons(...args: string[]): Output {
    const r = run('polygons', ...args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    return JSON.parse(r.out) as Output;
}

function atlasOf(...args: string[]): MaskAtlas {
    const out = `b${Math.random().toString(36).slice(2)}.hitmask`;
    const r = run('build', ...args, '-o', out);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    const atlas = MaskAtlas.from(readFileSync(join(dir, out)));
    rmSync(join(dir, out));
    return atlas;
}

// Twice the signed area (A > 0 for outer rings in y-down coordinates).
function area2(ring: number[]): number {
    let s = 0;
    for (let i = 0, n = ring.length; i < n; i += 2) {
        const j = (i + 2) % n;
        s += ring[i] * ring[j + 1] - ring[j] * ring[i + 1];
    }
    return s;
}

// Even-odd over every ring of the frame, at each pixel centre.
function rasterise(width: number, height: number, polys: readonly Poly[]): Mask {
    const m = new Mask(width, height);
    const rings = polys.flatMap(p => [p.outer, ...p.holes]);
    for (let y = 0; y < height; y++) {
        const py = y + 0.5;
        for (let x = 0; x < width; x++) {
            const px = x + 0.5;
            let inside = false;
            for (const r of rings) {
                for (let i = 0, n = r.length; i < n; i += 2) {
                    const j = (i + 2) % n,
                        ay = r[i + 1],
                        by = r[j + 1];
                    if (ay > py !== by > py && px < r[i] + ((py - ay) * (r[j] - r[i])) / (by - ay)) inside = !inside;
                }
            }
            if (inside) m.set(x, y);
        }
    }
    return m;
}

// Pieces: convex, A > 0, at most maxVertices vertices, areas adding up to the polygons' (outer minus holes).
function checkPieces(name: string, f: Frame, maxVertices: number): void {
    let want = 0,
        got = 0;
    for (const p of f.polygons) {
        assert.ok(area2(p.outer) > 0, `${name}: outer ring A > 0`);
        want += area2(p.outer);
        for (const h of p.holes) {
            assert.ok(area2(h) < 0, `${name}: hole A < 0`);
            want += area2(h);
        }
    }
    for (const piece of f.pieces) {
        const n = piece.length / 2;
        assert.ok(n >= 3 && n <= maxVertices, `${name}: a piece of ${n} vertices, max ${maxVertices}`);
        for (let i = 0; i < n; i++) {
            const a = 2 * i,
                b = 2 * ((i + 1) % n),
                c = 2 * ((i + 2) % n);
            const cross =
                (piece[b] - piece[a]) * (piece[c + 1] - piece[a + 1]) -
                (piece[b + 1] - piece[a + 1]) * (piece[c] - piece[a]);
            assert.ok(cross >= 0, `${name}: piece not convex: ${piece.join(',')}`);
        }
        got += area2(piece);
    }
    assert.ok(Math.abs(got - want) < 1e-6, `${name}: pieces' area ${got / 2} vs polygons' ${want / 2}`);
}

// The exact polygons reproduce each frame's mask as `build` stores it; names, sizes and offsets as in the atlas.
function sameAsAtlas(out: Output, atlas: MaskAtlas, maxVertices = 8): void {
    assert.equal(out.version, 1);
    assert.equal(out.tolerance, 0);
    assert.equal(out.maxVertices, maxVertices);
    assert.deepEqual(Object.keys(out.frames).sort(), [...atlas.names].sort());
    for (const af of atlas.frames) {
        const f = out.frames[af.name];
        assert.deepEqual(
            [f.width, f.height, f.x, f.y, f.sourceWidth, f.sourceHeight],
            [af.mask.width, af.mask.height, af.x, af.y, af.sourceWidth, af.sourceHeight],
            af.name
        );
        assert.ok(
            rasterise(f.width, f.height, f.polygons).equals(af.mask),
            `${af.name}: the polygons re-rasterised differ from the mask`
        );
        checkPieces(af.name, f, maxVertices);
        assert.equal(
            f.pieces.reduce((s, p) => s + area2(p), 0) / 2,
            af.mask.count(),
            `${af.name}: pieces cover the set pixels`
        );
    }
}

before(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'hitmask-cli-polygons-'));
    mkdirSync(join(dir, 'sprites'));
    for (const f of IMAGES) copyFileSync(join(SPRITES, f), join(dir, 'sprites', f));
    // alien1.gif would clash with alien1.png over the name "alien1".
    mkdirSync(join(dir, 'anim'));
    copyFileSync(join(SPRITES, 'alien1.gif'), join(dir, 'anim', 'alien1.gif'));
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('cli polygons: --help, and listed in the usage', () => {
    const r = run('polygons', '--help');
    assert.equal(r.code, 0);
    assert.match(r.out, /^Usage: hitmask polygons \[options\] <inputs\.\.\.>/);
    assert.match(
        r.out,
        /--tolerance-px <T>[\s\S]*--max-vertices <N>[\s\S]*-o, --output <file\.json>[\s\S]*--grid <WxH>[\s\S]*--key-tolerance <n>[\s\S]*Output:[\s\S]*Examples:/
    );
    assert.match(run('--help').out, /polygons \[options\] <inputs\.\.\.>/);
    assert.match(run().err, /polygons \[options\] <inputs\.\.\.>/);
});

test('cli polygons: every fixture sprite, exact and trimmed; the same frames as build', () => {
    const out = polygons('sprites');
    const atlas = atlasOf('sprites');
    assert.deepEqual(Object.keys(out.frames), [...atlas.names], 'frames in atlas order');
    assert.equal(atlas.size, IMAGES.length);
    sameAsAtlas(out, atlas);
    // Holes: the alien has eyes, so some polygon has a hole.
    assert.ok(
        Object.values(out.frames).some(f => f.polygons.some(p => p.holes.length > 0)),
        'some sprite has a hole'
    );
    const trimmed = polygons('sprites', '--trim', '--threshold', '0');
    const tatlas = atlasOf('sprites', '--trim', '--threshold', '0');
    sameAsAtlas(trimmed, tatlas);
    assert.ok(
        tatlas.frames.some(f => f.x > 0 || f.y > 0),
        'some frame is trimmed'
    );
    // Other spellings of the same inputs: a glob and named files.
    const gifs = polygons('sprites/*.gif');
    assert.deepEqual(Object.keys(gifs.frames), [...atlasOf('sprites/*.gif').names]);
    assert.deepEqual(polygons('sprites/shot.gif', 'sprites/chimp.png').frames.shot, out.frames.shot);
    sameAsAtlas(polygons('anim/alien1.gif', 'sprites/shot.gif'), atlasOf('anim/alien1.gif', 'sprites/shot.gif'));
});

test('cli polygons: a generated grid sheet with holes, islands and diagonal contacts; names, margin and spacing', () => {
    // 4x3 frames of 20x16 with 1 px spacing and 2 px margin, each random blobs with a ring around a hole.
    const fw = 20,
        fh = 16,
        cols = 4,
        rows = 3,
        margin = 2,
        spacing = 1;
    const w = 2 * margin + cols * fw + (cols - 1) * spacing,
        h = 2 * margin + rows * fh + (rows - 1) * spacing;
    const sheet = new PNG({ width: w, height: h });
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let r = 0; r < rows; r++)
        for (let c = 0; c < cols; c++) {
            const ox = margin + c * (fw + spacing),
                oy = margin + r * (fh + spacing),
                density = (r * cols + c) / (rows * cols);
            for (let y = 0; y < fh; y++)
                for (let x = 0; x < fw; x++) {
                    const ring = Math.abs(Math.hypot(x - 10, y - 8) - 5) < 1.5;
                    const on = r * cols + c === 0 ? false : r * cols + c === 1 ? true : ring || rnd() < density;
                    sheet.data[((oy + y) * w + ox + x) * 4 + 3] = on ? 255 : 0;
                }
        }
    writeFileSync(join(dir, 'grid.png'), PNG.sync.write(sheet));
    const args = [
        'grid.png',
        '--grid',
        `${fw}x${fh}`,
        '--margin',
        `${margin}`,
        '--spacing',
        `${spacing}`,
        '--names',
        'blob_{row}_{col}'
    ];
    const atlas = atlasOf(...args);
    for (const mv of [3, 4, 8, 20]) {
        const out = polygons(...args, '--max-vertices', `${mv}`);
        assert.deepEqual(Object.keys(out.frames), [...atlas.names]);
        assert.equal(out.frames.blob_0_0.polygons.length, 0, 'an empty frame has no polygons');
        assert.deepEqual(out.frames.blob_0_0.pieces, []);
        assert.deepEqual(
            out.frames.blob_0_1.polygons,
            [{ outer: [0, 0, fw, 0, fw, fh, 0, fh], holes: [] }],
            'a full frame is its rectangle'
        );
        sameAsAtlas(out, atlas, mv);
        if (mv === 3)
            assert.ok(
                Object.values(out.frames).every(f => f.pieces.every(p => p.length === 6)),
                'triangles'
            );
    }
    // Trimmed: the empty frame is 0x0, the offsets are the atlas'.
    const tout = polygons(...args, '--trim');
    sameAsAtlas(tout, atlasOf(...args, '--trim'));
    assert.deepEqual(
        [tout.frames.blob_0_0.width, tout.frames.blob_0_0.height, tout.frames.blob_0_0.polygons],
        [0, 0, []]
    );
    // A TexturePacker JSON cut of the same sheet, and a colour key with its tolerance (--key-tolerance here).
    writeFileSync(
        join(dir, 'grid.json'),
        JSON.stringify({ frames: { first: { frame: { x: margin + fw + spacing, y: margin, w: fw, h: fh } } } })
    );
    const j = polygons('grid.png', '--atlas', 'grid.json');
    assert.deepEqual(j.frames.first, polygons(...args).frames.blob_0_1);
    sameAsAtlas(
        polygons('grid.png', '--atlas', 'grid.json', '--threshold', '0'),
        atlasOf('grid.png', '--atlas', 'grid.json', '--threshold', '0')
    );
    sameAsAtlas(
        polygons('sprites/chimp.png', '--color-key', '000000', '--key-tolerance', '40'),
        atlasOf('sprites/chimp.png', '--color-key', '000000', '--key-tolerance', '40')
    );
});

test('cli polygons: --tolerance-px simplifies within T of the exact outline; pieces still add up', () => {
    const inputs = ['sprites/alien2.png', 'sprites/alien1.png', 'sprites/player1.gif'];
    const exact = polygons(...inputs);
    const count = (fr: Frame) =>
        fr.polygons.reduce((s, p) => s + p.outer.length + p.holes.reduce((a, h) => a + h.length, 0), 0);
    let last = Infinity;
    for (const t of ['0.5', '1', '2.5', '1e1']) {
        const out = polygons(...inputs, '--tolerance-px', t);
        assert.equal(out.tolerance, Number(t));
        let total = 0;
        for (const name of Object.keys(exact.frames)) {
            const f = out.frames[name],
                e = exact.frames[name];
            checkPieces(`${name} at ${t}`, f, 8);
            total += count(f);
            assert.ok(count(f) <= count(e), `${name} at ${t}: no more vertices (${count(f)} vs ${count(e)})`);
            // Simplified vertices are exact ones (on the pixel grid, inside the frame).
            for (const p of f.polygons)
                for (const ring of [p.outer, ...p.holes]) {
                    assert.ok(
                        ring.every(v => Number.isInteger(v)),
                        `${name}: integer vertices`
                    );
                    for (let i = 0; i < ring.length; i += 2)
                        assert.ok(ring[i] >= 0 && ring[i] <= f.width && ring[i + 1] >= 0 && ring[i + 1] <= f.height);
                }
        }
        if (t !== '0.5') assert.ok(total < last, `fewer vertices at ${t} (${total} vs ${last})`);
        last = total;
    }
    assert.equal(polygons('sprites/shot.gif', '--tolerance-px', '0').tolerance, 0);
});

test('cli polygons: -o writes the same JSON as stdout, atomically, with a summary line', () => {
    const stdout = run('polygons', 'sprites/alien1.png', 'sprites/shot.gif', '--max-vertices', '6');
    assert.equal(stdout.code, 0, stdout.err);
    assert.equal(stdout.err, '');
    assert.match(
        stdout.out,
        /^\{"version":1,"tolerance":0,"maxVertices":6,"frames":\{\n"alien1":\{.*\},\n"shot":\{.*\}\n\}\}\n$/
    );
    const r = run('polygons', 'sprites/alien1.png', 'sprites/shot.gif', '--max-vertices', '6', '-o', 'shapes.json');
    assert.equal(r.code, 0, r.err);
    const text = readFileSync(join(dir, 'shapes.json'), 'utf8');
    assert.equal(text, stdout.out);
    const out = JSON.parse(text) as Output;
    const npoly = Object.values(out.frames).reduce((s, f) => s + f.polygons.length, 0),
        npieces = Object.values(out.frames).reduce((s, f) => s + f.pieces.length, 0);
    assert.match(
        r.out,
        new RegExp(
            `^shapes\\.json: 2 frames, ${npoly} polygons, ${npieces} convex pieces, ${Buffer.byteLength(text)} bytes written in \\d+\\.\\d\\d s\\n$`
        )
    );
    // Over an existing file: replaced whole.
    assert.equal(run('polygons', 'sprites/shot.gif', '--output', 'shapes.json').code, 0);
    assert.deepEqual(Object.keys((JSON.parse(readFileSync(join(dir, 'shapes.json'), 'utf8')) as Output).frames), [
        'shot'
    ]);
});

test('cli: one name per meaning (--key-tolerance, --tolerance-px); the old --tolerance still works in each command with a note, and both together are an error', () => {
    // polygons: --tolerance was the outline simplification.
    const old = run('polygons', 'sprites/alien1.png', '--tolerance', '1.5'),
        now = run('polygons', 'sprites/alien1.png', '--tolerance-px', '1.5');
    assert.equal(old.code, 0, old.err);
    assert.equal(old.out, now.out);
    assert.equal(
        old.err,
        'hitmask: note: --tolerance is now --tolerance-px in polygons (in every command: --key-tolerance for the colour key, --tolerance-px for outlines); the old name still works for now.\n'
    );
    assert.equal(now.err, '');
    // build: --tolerance was the colour-key tolerance.
    const b = run('build', 'sprites/chimp.png', '--color-key', '000000', '--tolerance', '40', '-o', 'legacy.hitmask');
    assert.equal(b.code, 0, b.err);
    assert.match(b.err, /^hitmask: note: --tolerance is now --key-tolerance in build /);
    assert.ok(
        MaskAtlas.from(readFileSync(join(dir, 'legacy.hitmask')))
            .get('chimp')
            .equals(atlasOf('sprites/chimp.png', '--color-key', '000000', '--key-tolerance', '40').get('chimp'))
    );
    rmSync(join(dir, 'legacy.hitmask'));
    fails(
        [
            'build',
            'sprites/chimp.png',
            '--color-key',
            '000000',
            '--tolerance',
            '4',
            '--key-tolerance',
            '4',
            '-o',
            'x.hitmask'
        ],
        /--tolerance is the old name of --key-tolerance in build: give only --key-tolerance\./
    );
    fails(
        ['polygons', 'sprites/alien1.png', '--tolerance', '1', '--tolerance-px', '1'],
        /--tolerance is the old name of --tolerance-px in polygons: give only --tolerance-px\./
    );
    // The help shows only the new names.
    for (const cmd of ['build', 'polygons', 'overlap', 'inspect'])
        assert.doesNotMatch(run(cmd, '--help').out, /--tolerance </, cmd);
});

test('cli polygons: an output that is also an input is refused, exit 2, nothing written', () => {
    mkdirSync(join(dir, 'same'));
    copyFileSync(join(SPRITES, 'shot.gif'), join(dir, 'same', 'hero.gif'));
    const hero = readFileSync(join(dir, 'same', 'hero.gif'));
    fails(
        ['polygons', 'same/hero.gif', '-o', 'same/hero.gif'],
        /Output "same\/hero\.gif" is also an input \(.*hero\.gif\); write it to another file/
    );
    fails(['polygons', 'same', '-o', 'same/../same/hero.gif'], /is also an input/);
    assert.deepEqual(readFileSync(join(dir, 'same', 'hero.gif')), hero);
    // A layout JSON and the image it names are both inputs.
    writeFileSync(
        join(dir, 'same', 'hero.json'),
        JSON.stringify({ frames: { a: { frame: { x: 0, y: 0, w: 4, h: 4 } } }, meta: { image: 'hero.gif' } })
    );
    const layout = readFileSync(join(dir, 'same', 'hero.json'));
    fails(['polygons', 'same/hero.json', '-o', 'same/hero.json'], /is also an input/);
    fails(['polygons', 'same/hero.json', '-o', 'same/hero.gif'], /is also an input/);
    assert.deepEqual(readFileSync(join(dir, 'same', 'hero.json')), layout);
    assert.deepEqual(readFileSync(join(dir, 'same', 'hero.gif')), hero);
});

test('cli polygons errors: bad --tolerance-px and --max-vertices, bad inputs and build flags; one line, exit 2', () => {
    for (const t of ['-1', '-0.5', 'NaN', 'abc', '', 'Infinity', '1,5']) {
        fails(
            ['polygons', 'sprites/shot.gif', `--tolerance-px=${t}`],
            new RegExp(
                `option '--tolerance-px <T>' argument '${t}' is invalid\\. expected a finite number >= 0 \\(pixels, e\\.g\\. 0\\.5\\), got "${t}"`
            )
        );
    }
    for (const n of ['2', '0', '-3', '3.5', 'x', '', '8e0', 'NaN']) {
        fails(
            ['polygons', 'sprites/shot.gif', `--max-vertices=${n}`],
            new RegExp(`option '--max-vertices <N>' argument '${n}' is invalid\\. expected an integer >= 3, got "${n}"`)
        );
    }
    fails(['polygons', 'sprites/shot.gif', '--key-tolerance', '5'], /--key-tolerance needs --color-key/);
    fails(
        ['polygons', 'sprites/shot.gif', '--color-key', 'ff00ff', '--key-tolerance', '256'],
        /option '--key-tolerance <n>' argument '256' is invalid/
    );
    fails(['polygons', 'nope.png'], /Input "nope\.png" does not exist/);
    fails(['polygons'], /missing required argument 'inputs'/);
    fails(['polygons', 'sprites', '--margin', '1'], /--margin, --spacing and --names need --grid WxH/);
    fails(
        ['polygons', 'sprites', '--threshold', '3', '--color-key', 'ff00ff'],
        /Use --threshold or --color-key, not both/
    );
    fails(['polygons', 'sprites', '--bogus'], /unknown option '--bogus'/);
    fails(
        ['polygons', 'sprites/shot.gif', '-o', 'nodir/x.json'],
        /Cannot write "nodir\/x\.json": .*; nothing was written/
    );
    assert.ok(!existsSync(join(dir, 'x.json')));
});

test("cli polygons: a noisy image whose polygon is over convexPieces' vertexLimit fails at once, one line, exit 2, nothing written", () => {
    // 512² noise at 65 % fill: one polygon of 160,000 vertices and 25,000 holes, which ran for hours.
    const size = 512,
        noise = new PNG({ width: size, height: size });
    let seed = 11;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < size * size; i++) noise.data[4 * i + 3] = rnd() < 0.65 ? 255 : 0;
    writeFileSync(join(dir, 'noise.png'), PNG.sync.write(noise));
    // The timeout only keeps a runaway from hanging the suite (SIGKILL: a busy CLI cannot run its SIGTERM
    // handler); the assertions are on the exit and the message.
    const r = spawnSync(process.execPath, [CLI, 'polygons', 'noise.png', '-o', 'noise.json'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 120_000,
        killSignal: 'SIGKILL'
    });
    assert.equal(r.status, 2, `status ${r.status} (signal ${r.signal}): ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(
        r.stderr,
        /^hitmask: Frame "noise": polygon has \d{6} vertices \(outer ring and \d{5} holes\), more than vertexLimit 32768: cutting it could take minutes\. Simplify it first with a tolerance, cut the mask into smaller masks, or raise vertexLimit\.\n$/
    );
    assert.ok(!existsSync(join(dir, 'noise.json')));
});
