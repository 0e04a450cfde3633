// @test slow
// Packaging: the tarball `npm pack` makes, installed into a fresh project the way a user would install it,
// then used from plain ESM, from strict TypeScript (NodeNext, skipLibCheck off) and through its CLI; and beside
// each engine major (Phaser 3 and 4, PixiJS 7 and 8, from this repository's node_modules) in a strict user project.
// Needs the npm registry (or npm's cache) for the runtime dependencies; `npm test` builds dist/ first.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
    copyFileSync,
    existsSync,
    mkdirSync,
    mkdtempSync,
    readFileSync,
    realpathSync,
    rmSync,
    writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const SPRITES = fileURLToPath(new URL('./fixtures/sprites/', import.meta.url));
const expected = JSON.parse(readFileSync(join(SPRITES, 'expected.json'), 'utf8')) as {
    masks: Record<string, { width: number; height: number; count: number }>;
};

interface PackResult {
    filename: string;
    files: { path: string }[];
}
interface Point {
    x: number;
    y: number;
}

let tmp = '';
let app = '';
let packed: PackResult;

// npm run exports npm_* variables (npm_config_*, lifecycle state); the child npm must not inherit them.
function cleanEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
    return env;
}

function sh(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
    return spawnSync(cmd, args, { cwd, encoding: 'utf8', env: cleanEnv(), maxBuffer: 64 << 20 });
}

function ok(r: SpawnSyncReturns<string>, what: string): string {
    assert.equal(r.error, undefined, `${what}: ${String(r.error)}`);
    assert.equal(r.status, 0, `${what} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
}

function write(path: string, text: string): void {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
}

before(() => {
    if (!existsSync(join(ROOT, 'dist', 'node', 'cli.js')))
        ok(sh(process.execPath, [TSC, '-p', 'tsconfig.build.json'], ROOT), 'building dist');
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'hitmask-pack-')));
    // --ignore-scripts: dist/ is already built (see above); running `prepare` here would rewrite dist/ while
    // the other test files run in parallel and use it.
    const out = ok(sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], ROOT), 'npm pack');
    packed = (JSON.parse(out) as PackResult[])[0];
    app = join(tmp, 'app');
    mkdirSync(app);
    writeFileSync(
        join(app, 'package.json'),
        JSON.stringify({ name: 'hitmask-consumer', private: true, type: 'module' }, null, 4)
    );
    ok(
        sh(
            'npm',
            [
                'install',
                join(tmp, packed.filename),
                '--no-audit',
                '--no-fund',
                '--prefer-offline',
                '--ignore-scripts',
                '--loglevel=error'
            ],
            app
        ),
        'npm install <tarball>'
    );
    for (const f of ['alien1.png', 'shot.gif']) copyFileSync(join(SPRITES, f), join(app, f));
});

after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test('pack: the tarball holds dist with declarations, the CLI and docs, and no tests or benchmarks', () => {
    const files = packed.files.map(f => f.path);
    for (const f of [
        'package.json',
        'README.md',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/node.js',
        'dist/node.d.ts',
        'dist/node/cli.js',
        'dist/core/mask.d.ts',
        'docs/format.md'
    ]) {
        assert.ok(files.includes(f), `${f} is packed`);
    }
    const bad = files.filter(f =>
        /^(test|bench|examples|demo|\.ci|node_modules)\/|\.test\.|\.tgz$|(^|\/)tsconfig|eslint\.config/.test(f)
    );
    assert.deepEqual(bad, [], 'nothing but the library, its sources, README and docs');
    // Every compiled module has its declaration next to it, and comes from a source file of today (no stale
    // output of a file that moved or was removed).
    for (const js of files.filter(f => /^dist\/.*\.js$/.test(f))) {
        assert.ok(files.includes(js.replace(/\.js$/, '.d.ts')), `${js} has a .d.ts`);
        assert.ok(
            files.includes(js.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts')),
            `${js} is built from a source file in src/ (a stale build? npm run build cleans dist/)`
        );
    }
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules', 'hitmask', 'package.json'), 'utf8')) as {
        bin: Record<string, string>;
    };
    assert.equal(manifest.bin.hitmask, './dist/node/cli.js');
});

test('pack: ESM consumers import hitmask, hitmask/node and hitmask/shapes from the installed tarball', () => {
    write(
        join(app, 'esm.mjs'),
        `
import { Mask, MaskAtlas, World } from 'hitmask';
import { ThreadPool } from 'hitmask/threads';
import * as node from 'hitmask/node';
import pkg from 'hitmask/package.json' with { type: 'json' };

const exportsMap = pkg.exports;
const debug = exportsMap['./debug'] ? Object.keys(await import('hitmask/debug')).sort() : null;
const shapes = await import('hitmask/shapes');
// The engine adapters load without their engines installed (optional peers, imported for types only).
const adapters = [typeof (await import('hitmask/phaser')).overlaps, typeof (await import('hitmask/pixi')).overlaps];
const ring = Mask.fromText(\`
.####.
#....#
#....#
.####.\`);
const dot = Mask.fromText('##');
const alien = await node.readImage('alien1.png');
const alienMask = Mask.fromImageData(alien);
const atlas = new MaskAtlas().add('ring', ring).add('alien', alienMask);
const back = MaskAtlas.from(atlas.toBytes());
const { atlas: built } = await node.buildAtlas(['alien1.png', 'shot.gif']);
const world = new World();
world.add({ mask: ring, x: 10, y: 10 });
const b = world.add({ mask: dot, x: 11, y: 10 });
const pairs = [world.step()];
world.move(b, 12, 11);
pairs.push(world.step());
console.log(JSON.stringify({
    resolved: import.meta.resolve('hitmask'),
    nodeHasCore: 'Mask' in node,
    threads: typeof ThreadPool,
    adapters,
    hits: [ring.overlaps(dot, 1, 0), ring.overlaps(dot, 2, 1), ring.overlaps(dot, 4, 2)],
    first: ring.overlap(dot, 0, 1),
    area: ring.overlapArea(dot, 0, 0),
    alien: [alien.width, alien.height, alienMask.count()],
    roundTrip: [back.names, back.get('alien').equals(alienMask), back.get('ring').toText() === ring.toText()],
    built: [built.names, built.get('alien1').count()],
    world: pairs,
    debug,
    polygons: shapes.toPolygons(Mask.fromText('####\\n#..#\\n####')),
}));
`
    );
    const r = JSON.parse(ok(sh(process.execPath, ['esm.mjs'], app), 'node esm.mjs')) as {
        resolved: string;
        nodeHasCore: boolean;
        threads: string;
        adapters: string[];
        hits: boolean[];
        first: { x: number; y: number } | null;
        area: number;
        alien: number[];
        roundTrip: [string[], boolean, boolean];
        built: [string[], number];
        world: number[];
        debug: string[] | null;
        polygons: { outer: number[]; holes: number[][] }[];
    };
    assert.equal(
        r.resolved,
        `file://${join(app, 'node_modules', 'hitmask', 'dist', 'index.js')}`,
        'the installed copy, not the repository'
    );
    assert.equal(r.nodeHasCore, false, 'hitmask/node does not re-export the core');
    assert.equal(r.threads, 'function', 'hitmask/threads exports ThreadPool');
    assert.deepEqual(
        r.adapters,
        ['function', 'function'],
        'hitmask/phaser and hitmask/pixi load without Phaser or PixiJS'
    );
    for (const engine of ['phaser', 'pixi.js'])
        assert.ok(
            !existsSync(join(app, 'node_modules', engine)),
            `${engine} is an optional peer: not installed with hitmask`
        );
    assert.deepEqual(r.hits, [true, false, true]);
    assert.deepEqual(r.first, { x: 0, y: 1 });
    assert.equal(r.area, 1);
    const alien1 = expected.masks['alien1.png'];
    assert.deepEqual(r.alien, [alien1.width, alien1.height, alien1.count]);
    assert.deepEqual(r.roundTrip, [['ring', 'alien'], true, true]);
    assert.deepEqual(r.built, [['alien1', 'shot'], alien1.count]);
    assert.deepEqual(r.world, [1, 0], 'one colliding pair, then none');
    if (r.debug !== null) assert.ok(r.debug.length > 0, 'hitmask/debug exports something');
    // A 4x3 frame: one polygon, pixel-corner coordinates from its top-left corner, and its hole.
    assert.deepEqual(
        r.polygons,
        [{ outer: [0, 0, 4, 0, 4, 3, 0, 3], holes: [[1, 1, 1, 2, 3, 2, 3, 1]] }],
        'hitmask/shapes traces the frame'
    );
});

test('pack: the names external code relies on keep working, and the mask functions import from hitmask', () => {
    write(
        join(app, 'names.mjs'),
        `
import { Mask, MaskAtlas, World, CollisionRaster, outline, scale, flipX, rotate90, crop, trim, centroid, raycast, toRGBA, overlapsMany, boundingRect, connectedComponents } from 'hitmask';
import { readImage } from 'hitmask/node';

const rgba = new Uint8Array(4 * 4 * 4);
for (let i = 0; i < 16; i++) { rgba[i * 4] = i < 8 ? 255 : 0; rgba[i * 4 + 3] = i % 4 < 2 ? 255 : 0; }
const a = Mask.fromRGBA(rgba, 4, 4, { threshold: 127 }), b = Mask.fromImageData({ data: rgba, width: 4, height: 4 });
const key = Mask.fromColorKey(rgba, 4, 4, 0x000000), t = Mask.fromText('#.\\n.#');
const m = new Mask(3, 3).set(1, 1);
const atlas = MaskAtlas.from(new MaskAtlas().add('a', a).toBytes());
const world = new World();
const wa = world.add({ mask: a, x: 0, y: 0, data: 'a' }), wb = world.add({ mask: b, x: 1, y: 0, data: 'b' });
const pairs = [...world.collisions()].map(p => [p.a.data, p.b.data]);
world.move(wb, 50, 50);
const apart = [...world.collisions()].length;
world.remove(wa);
const raster = new CollisionRaster(16, 16);
raster.stamp(a, 2, 2, { id: 7 });
const hit = [raster.overlaps(b, 3, 2), raster.overlapArea(b, 3, 2), raster.queryMask(b, 3, 2)];
raster.erase(a, 2, 2);
const erased = raster.overlaps(b, 3, 2);
raster.stamp(a, 2, 2);
raster.clear();
const img = await readImage('alien1.png');
const out = new Uint8Array(1);
console.log(JSON.stringify({
    masks: [a.count(), b.count(), key.count(), t.toText(), a.get(0, 0), m.get(1, 1)],
    pair: [a.overlaps(b, 1, 0), a.overlap(b, 1, 0), a.overlapArea(b, 1, 0), a.overlapMask(b, 1, 0).count(), boundingRect(a), connectedComponents(a).length],
    atlas: [atlas.names, atlas.get('a').equals(a)],
    world: [pairs, apart],
    raster: [hit, erased, raster.overlaps(b, 3, 2)],
    image: [img.width > 0, img.data.length === img.width * img.height * 4],
    functions: [outline(a).length, scale(a, 8, 8).count(), flipX(a).get(3, 0), rotate90(a).width, crop(a, 0, 0, 2, 2).count(),
        trim(a).mask.width, centroid(a), raycast(a, -1, 0.5, 3, 0.5)?.px, toRGBA(t)[3], overlapsMany([a, b], new Int32Array([0, 1, 1, 0]), out)]
}));
`
    );
    const r = JSON.parse(ok(sh(process.execPath, ['names.mjs'], app), 'node names.mjs'));
    assert.deepEqual(r.masks, [8, 8, 8, '#.\n.#', true, true]);
    assert.deepEqual(r.pair, [true, { x: 1, y: 0 }, 4, 4, { x: 0, y: 0, width: 2, height: 4 }, 1]);
    assert.deepEqual(r.atlas, [['a'], true]);
    assert.deepEqual(r.world, [[['a', 'b']], 0], 'one pair with a and b, none once apart');
    assert.deepEqual(r.raster, [[true, 4, [7]], false, false]);
    assert.deepEqual(r.image, [true, true]);
    assert.deepEqual(r.functions, [9, 32, true, 4, 4, 2, { x: 0.5, y: 1.5 }, 0, 255, 1]);
});

test('pack: the shipped declarations hold no internals', () => {
    const dist = join(app, 'node_modules', 'hitmask', 'dist');
    const body = readFileSync(join(dist, 'world', 'body.d.ts'), 'utf8'),
        world = readFileSync(join(dist, 'world', 'world.d.ts'), 'utf8');
    const mask = readFileSync(join(dist, 'core', 'mask.d.ts'), 'utf8'),
        raster = readFileSync(join(dist, 'raster', 'raster.d.ts'), 'utf8');
    assert.doesNotMatch(body, /\bslot\b|\bstate[:;]/, 'Body.slot and Body.state are internal');
    // `#private;` is how TypeScript declares that a class has private fields; a `private x` member would be a leak.
    assert.doesNotMatch(
        world.replace(/^\s*#private;$/m, ''),
        /\bposX\b|\bprivate\b|\bdetect\b|WorldState/,
        'World internals'
    );
    assert.doesNotMatch(mask, /_ptr|\bInit\b|UNZEROED|getBit/, 'Mask internals');
    assert.doesNotMatch(raster, /\bprivate\b/, 'CollisionRaster internals');
    const index = readFileSync(join(dist, 'index.d.ts'), 'utf8');
    for (const gone of ['crc32', 'WORKER_SOURCE', 'wasmMemoryBytes', 'ThreadPool'])
        assert.doesNotMatch(index, new RegExp(`\\b${gone}\\b`), `${gone} is not exported by 'hitmask'`);
});

test('pack: strict TypeScript (NodeNext, skipLibCheck off; Node and browser set-ups) compiles against the shipped declarations and reports misuse', () => {
    // Two usual set-ups: a Node project (lib ES2022 + @types/node, no DOM; @types/node is borrowed from this
    // repository) and a browser project (lib ES2022 + DOM, no @types/node) that uses the core only.
    const options = {
        target: 'ES2022',
        lib: ['ES2022'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules', '@types')],
        outDir: 'out',
        rootDir: 'ts'
    };
    const browser = { ...options, lib: ['ES2022', 'DOM'], types: [], typeRoots: [], noEmit: true };
    write(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: ['ts/good.ts'] }, null, 4));
    write(
        join(app, 'tsconfig.browser.json'),
        JSON.stringify({ compilerOptions: browser, files: ['ts/browser.ts'] }, null, 4)
    );
    write(
        join(app, 'tsconfig.bad.json'),
        JSON.stringify({ compilerOptions: { ...options, noEmit: true }, files: ['ts/bad.ts'] }, null, 4)
    );
    write(
        join(app, 'ts', 'browser.ts'),
        `import { Mask, World } from 'hitmask';

const data = new ImageData(2, 1);
data.data[3] = 255;
const world = new World();
world.add({ mask: Mask.fromImageData(data), x: 0, y: 0 });
document.title = String(world.step());
`
    );
    write(
        join(app, 'ts', 'good.ts'),
        `import { Mask, MaskAtlas, type Point, type AtlasFrame } from 'hitmask';
import { readImage, type RGBAImage } from 'hitmask/node';

const image: RGBAImage = await readImage('alien1.png');
const alien: Mask = Mask.fromImageData(image, { threshold: 127 });
const atlas = new MaskAtlas().add('alien', alien, { x: 0, y: 0 });
const frame: AtlasFrame = atlas.frame('alien');
const p: Point | null = alien.overlap(frame.mask, 5, 3);
const hit: boolean = alien.overlaps(Mask.fromText('#'), p?.x ?? 0, p?.y ?? 0);
console.log(JSON.stringify({ size: [alien.width, alien.height], count: alien.count(), p, hit }));
`
    );
    write(
        join(app, 'ts', 'bad.ts'),
        `import { Mask } from 'hitmask';
import { readImage } from 'hitmask/node';
import { Mask as Deep } from 'hitmask/dist/mask.js';

const m = new Mask(4, 4);
m.overlaps('not a mask', 0, 0);
const n: string = m.count();
void readImage(42);
void Deep;
`
    );
    // The older "node" (node10) resolution ignores the exports map: the subpath entries resolve through typesVersions.
    write(
        join(app, 'tsconfig.legacy.json'),
        JSON.stringify(
            {
                compilerOptions: {
                    ...browser,
                    module: 'ESNext',
                    moduleResolution: 'node',
                    types: ['node'],
                    typeRoots: [join(ROOT, 'node_modules', '@types')],
                    noEmit: true
                },
                files: ['ts/legacy.ts']
            },
            null,
            4
        )
    );
    write(
        join(app, 'ts', 'legacy.ts'),
        `import { Mask } from 'hitmask';
import { toPolygons } from 'hitmask/shapes';
import { drawMask } from 'hitmask/debug';
import type { ThreadPool } from 'hitmask/threads';
import { readImage } from 'hitmask/node';

const pool: ThreadPool | null = null;
console.log(toPolygons(new Mask(2, 2, true)).length, typeof drawMask, pool, typeof readImage);
`
    );
    ok(sh(process.execPath, [TSC, '-p', 'tsconfig.legacy.json'], app), 'tsc legacy.ts (moduleResolution "node")');
    ok(sh(process.execPath, [TSC, '-p', 'tsconfig.browser.json'], app), 'tsc browser.ts (browser project)');
    ok(sh(process.execPath, [TSC, '-p', 'tsconfig.json'], app), 'tsc good.ts (Node project)');
    const run = JSON.parse(ok(sh(process.execPath, [join('out', 'good.js')], app), 'node out/good.js')) as {
        size: number[];
        count: number;
        p: Point | null;
        hit: boolean;
    };
    const alien1 = expected.masks['alien1.png'];
    assert.deepEqual(run.size, [alien1.width, alien1.height]);
    assert.equal(run.count, alien1.count);
    assert.ok(run.p !== null && run.hit, 'an alien overlaps itself shifted by (5, 3), and its first pixel is set');

    const bad = sh(process.execPath, [TSC, '-p', 'tsconfig.bad.json'], app);
    assert.equal(bad.status, 2, `tsc must fail on bad.ts:\n${bad.stdout}`);
    const errors = bad.stdout.split('\n').filter(l => /error TS\d+/.test(l));
    const at = (line: number, code: string) =>
        errors.some(l => l.startsWith(`ts/bad.ts(${line},`) && l.includes(`error ${code}:`));
    assert.ok(at(3, 'TS2307'), `a deep import past the exports map is refused:\n${bad.stdout}`);
    assert.ok(at(6, 'TS2345'), `a string is not a Mask:\n${bad.stdout}`);
    assert.ok(at(7, 'TS2322'), `count() is a number:\n${bad.stdout}`);
    assert.ok(at(8, 'TS2345'), `readImage takes a path or bytes:\n${bad.stdout}`);
    assert.equal(
        errors.length,
        4,
        `exactly the four planted errors, none from the shipped declarations:\n${bad.stdout}`
    );
});

// A user's game on each engine major: the engine installed from this repository's copy (a `file:` dependency, no
// network), then the tarball beside it with plain `npm install` (the peer ranges must accept it), then `tsc` on a
// strict project (`strict: true`, skipLibCheck off, bundler resolution as a bundled browser game has) that imports
// hitmask, the adapter and the engine. Phaser 4's own phaser.d.ts does not pass skipLibCheck off: every error must
// be in that file, the project must pass with `skipLibCheck: true`, and docs/phaser.md must say so.
const ENGINES = [
    { dir: 'phaser3', name: 'phaser', major: '3', adapter: 'phaser', skipLibCheck: false },
    { dir: 'phaser', name: 'phaser', major: '4', adapter: 'phaser', skipLibCheck: true },
    { dir: 'pixi7', name: 'pixi.js', major: '7', adapter: 'pixi', skipLibCheck: false },
    { dir: 'pixi.js', name: 'pixi.js', major: '8', adapter: 'pixi', skipLibCheck: false }
] as const;

const USER_GAME: Record<'phaser' | 'pixi', string> = {
    phaser: `import Phaser from 'phaser';
import { Mask, World } from 'hitmask';
import { drawHitmask, hitmaskFor, hitTest, overlaps, pixelHitArea, registerHitmaskLoader } from 'hitmask/phaser';

registerHitmaskLoader(Phaser);

class Play extends Phaser.Scene {
    preload(): void {
        this.load.atlas('aliens', 'aliens.png', 'aliens.json');
        this.load.hitmask('aliens', 'aliens.hitmask');
    }

    create(): void {
        const ship = this.physics.add.sprite(100, 100, 'aliens', 'ship'), rock = this.add.sprite(120, 100, 'aliens', 'rock');
        this.physics.add.overlap(ship, rock, () => rock.destroy(), overlaps);
        rock.setInteractive(pixelHitArea(rock));
        const placed: { mask: Mask; x: number; y: number } = hitmaskFor(ship);
        const hit: boolean = overlaps(ship, rock) || hitTest(rock, 110, 100);
        drawHitmask(this.add.graphics(), ship, { color: null, outline: 0x00ff00 });
        // @ts-expect-error: a number is not a game object (an unused directive would fail the check)
        overlaps(ship, 42);
        const world = new World();
        world.add({ mask: placed.mask, x: placed.x, y: placed.y });
        console.log(hit, world.step());
    }
}

new Phaser.Game({ width: 320, height: 240, physics: { default: 'arcade' }, scene: Play });
`,
    pixi: `import { Graphics, Sprite, Texture } from 'pixi.js';
import { Mask, World } from 'hitmask';
import { drawHitmask, hitmaskFor, hitTest, overlap, overlaps, pixelHitArea } from 'hitmask/pixi';

const ship = new Sprite(Texture.WHITE), rock = new Sprite(Texture.WHITE);
ship.anchor.set(0.5);
rock.position.set(8, 4);
rock.rotation = 0.5;
rock.eventMode = 'static';
rock.hitArea = pixelHitArea(rock);
const placed: { mask: Mask; x: number; y: number } = hitmaskFor(ship);
const hit: boolean = overlaps(ship, rock) || hitTest(rock, 10, 4);
const first: { x: number; y: number } | null = overlap(ship, rock);
drawHitmask(new Graphics(), ship, { color: null, outline: 0x00ff00 });
// @ts-expect-error: a number is not a sprite (an unused directive would fail the check)
overlaps(ship, 42);
const world = new World();
world.add({ mask: placed.mask, x: placed.x, y: placed.y });
console.log(hit, first, world.step());
`
};

test('pack: beside Phaser 3.90, Phaser 4, PixiJS 7.4 and PixiJS 8, npm install of the tarball needs no flags and a strict user project type-checks', async t => {
    for (const e of ENGINES) {
        await t.test(`${e.name} ${e.major} (node_modules/${e.dir})`, () => {
            const source = join(ROOT, 'node_modules', e.dir);
            const version = (JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { version: string })
                .version;
            assert.equal(version.split('.')[0], e.major);
            const dir = join(tmp, `engine-${e.dir}`);
            write(
                join(dir, 'package.json'),
                JSON.stringify(
                    {
                        name: `game-${e.adapter}${e.major}`,
                        private: true,
                        type: 'module',
                        dependencies: { [e.name]: `file:${source}` }
                    },
                    null,
                    4
                )
            );
            // No --legacy-peer-deps, no --force: the peer ranges must take this engine.
            ok(
                sh(
                    'npm',
                    [
                        'install',
                        join(tmp, packed.filename),
                        '--no-audit',
                        '--no-fund',
                        '--prefer-offline',
                        '--ignore-scripts',
                        '--loglevel=error'
                    ],
                    dir
                ),
                `npm install <tarball> beside ${e.name}@${version}`
            );
            assert.equal(
                (
                    JSON.parse(readFileSync(join(dir, 'node_modules', e.name, 'package.json'), 'utf8')) as {
                        version: string;
                    }
                ).version,
                version
            );
            assert.ok(existsSync(join(dir, 'node_modules', 'hitmask', 'dist', `${e.adapter}.d.ts`)));
            write(join(dir, 'src', 'main.ts'), USER_GAME[e.adapter]);
            const options = {
                target: 'ES2022',
                module: 'ESNext',
                moduleResolution: 'bundler',
                strict: true,
                noEmit: true
            };
            write(
                join(dir, 'tsconfig.json'),
                JSON.stringify({ compilerOptions: options, files: ['src/main.ts'] }, null, 4)
            );
            const strict = sh(process.execPath, [TSC, '-p', 'tsconfig.json'], dir);
            if (!e.skipLibCheck) {
                assert.equal(
                    strict.status,
                    0,
                    `tsc (strict, skipLibCheck off) with ${e.name}@${version}:\n${strict.stdout}${strict.stderr}`
                );
                return;
            }
            // Fails, and only in the engine's own declarations; passes once they are skipped.
            const errors = strict.stdout.split('\n').filter(l => /error TS\d+/.test(l));
            assert.equal(
                strict.status,
                2,
                `tsc fails on ${e.name}@${version}'s own declarations (else drop skipLibCheck from this test and the docs):\n${strict.stdout}`
            );
            assert.ok(errors.length > 0);
            for (const l of errors)
                assert.match(
                    l,
                    new RegExp(`^\\S*node_modules/${e.dir.replace('.', '\\.')}/`),
                    `an error outside ${e.name}'s own .d.ts:\n${strict.stdout}`
                );
            t.diagnostic(
                `${e.name}@${version}, skipLibCheck off: ${errors.length} errors, all in its own declarations: ${errors.map(l => l.replace(/^.*node_modules\//, '').replace(/:.*?(error TS\d+).*/, ' $1')).join(', ')}`
            );
            write(
                join(dir, 'tsconfig.skip.json'),
                JSON.stringify({ compilerOptions: { ...options, skipLibCheck: true }, files: ['src/main.ts'] }, null, 4)
            );
            ok(
                sh(process.execPath, [TSC, '-p', 'tsconfig.skip.json'], dir),
                `tsc (strict, skipLibCheck on) with ${e.name}@${version}`
            );
            const doc = readFileSync(join(ROOT, 'docs', `${e.adapter}.md`), 'utf8');
            assert.ok(
                doc.includes('skipLibCheck: true') &&
                    doc.includes(`${e.name === 'phaser' ? 'Phaser' : 'PixiJS'} ${version}`),
                `docs/${e.adapter}.md says that ${e.name}@${version} needs skipLibCheck: true`
            );
        });
    }
});

test('pack: the installed hitmask CLI builds, compares and fails with exit 2', () => {
    const bin = join(app, 'node_modules', '.bin', 'hitmask');
    assert.ok(existsSync(bin), 'npm linked the bin');
    const help = sh(bin, ['--help'], app);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /Usage: hitmask[\s\S]*build[\s\S]*inspect[\s\S]*overlap/);

    const build = ok(sh(bin, ['build', 'alien1.png', 'shot.gif', '-o', 'sprites.hitmask'], app), 'hitmask build');
    const alien1 = expected.masks['alien1.png'],
        shot = expected.masks['shot.gif'];
    assert.match(build, new RegExp(`^sprites\\.hitmask: 2 frames from 2 files, ${alien1.count + shot.count} bits set`));

    const same = sh(bin, ['overlap', 'sprites.hitmask#alien1', 'sprites.hitmask#alien1', '--at', '0,0', '--json'], app);
    assert.equal(same.status, 0, same.stderr);
    const hit = JSON.parse(same.stdout) as { hit: boolean; area: number; a: string; b: string };
    assert.deepEqual([hit.hit, hit.area, hit.a, hit.b], [true, alien1.count, 'alien1', 'alien1']);

    const far = sh(
        bin,
        ['overlap', 'sprites.hitmask#alien1', 'sprites.hitmask#shot', '--at', '500,500', '--json'],
        app
    );
    assert.equal(far.status, 1, 'exit 1: no hit');
    assert.deepEqual(JSON.parse(far.stdout), {
        hit: false,
        point: null,
        area: 0,
        box: null,
        at: { x: 500, y: 500 },
        a: 'alien1',
        b: 'shot'
    });

    const missing = sh(bin, ['inspect', 'missing.hitmask'], app);
    assert.equal(missing.status, 2);
    assert.equal(missing.stdout, '');
    assert.match(missing.stderr, /^hitmask: Cannot read "missing\.hitmask": no such file\.\n$/);
});

test('pack: the API reference (TypeDoc) covers every exported entry point and builds without warnings', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
        exports: Record<string, string | { types?: string }>;
    };
    const sources = Object.values(manifest.exports).flatMap(e =>
        typeof e === 'object' && e.types ? [e.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts')] : []
    );
    const config = JSON.parse(readFileSync(join(ROOT, 'typedoc.json'), 'utf8')) as { entryPoints: string[] };
    assert.ok(sources.length >= 2);
    for (const src of sources)
        assert.ok(config.entryPoints.includes(src), `typedoc.json documents the entry point ${src}`);
    for (const src of config.entryPoints) assert.ok(existsSync(join(ROOT, src)), `typedoc.json: ${src} exists`);
    const r = sh(
        process.execPath,
        [join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--emit', 'none', '--treatWarningsAsErrors'],
        ROOT
    );
    assert.equal(r.status, 0, `typedoc warnings or errors:\n${r.stdout}${r.stderr}`);
});
