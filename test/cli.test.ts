// @test slow
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
    copyFileSync,
    existsSync,
    linkSync,
    mkdirSync,
    mkdtempSync,
    readdirSync,
    readFileSync,
    rmSync,
    symlinkSync,
    writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { Mask, MaskAtlas } from '../src/index.js';
import { CLI, cliRunner, ensureBuilt } from './cli-run.js';

// The real binary as npm installs it: `npm test` builds dist/ before running the tests.
const SPRITES = fileURLToPath(new URL('./fixtures/sprites/', import.meta.url));
const expected = JSON.parse(readFileSync(join(SPRITES, 'expected.json'), 'utf8')) as {
    masks: Record<string, { count: number; rows: string[] }>;
};
let dir = '';

const { run, fails } = cliRunner(() => dir);

before(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'hitmask-cli-'));
    mkdirSync(join(dir, 'sprites'));
    for (const f of ['alien1.png', 'chimp.png', 'shot.gif', 'player1.gif'])
        copyFileSync(join(SPRITES, f), join(dir, 'sprites', f));
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('cli: --help everywhere', () => {
    assert.match(readFileSync(CLI, 'utf8').split('\n')[0], /^#!\/usr\/bin\/env node$/);
    for (const args of [['--help'], ['build', '--help'], ['inspect', '--help'], ['overlap', '--help']]) {
        const r = run(...args);
        assert.equal(r.code, 0, args.join(' '));
        assert.match(r.out, /Usage: hitmask/);
    }
    assert.match(run('build', '--help').out, /--grid <WxH>[\s\S]*Examples:/);
    // The version of the package the CLI comes with.
    const { version } = JSON.parse(readFileSync(join(CLI, '..', '..', '..', 'package.json'), 'utf8')) as {
        version: string;
    };
    for (const flag of ['--version', '-V']) assert.deepEqual(run(flag), { code: 0, out: `${version}\n`, err: '' });
    assert.match(run('--help').out, /-V, --version +print hitmask's version/);
});

test('cli: a reader that closes the pipe early (| head) ends the CLI quietly with exit 0', () => {
    // 600x600 px drawn as text is 360 KB, far past a pipe's buffer, so the write meets the closed pipe.
    const png = new PNG({ width: 600, height: 600 });
    png.data.fill(255);
    writeFileSync(join(dir, 'big.png'), PNG.sync.write(png));
    const r = spawnSync(
        'bash',
        ['-c', `set -o pipefail; "${process.execPath}" "${CLI}" inspect big.png --frame big | head -c 100 > /dev/null`],
        { cwd: dir, encoding: 'utf8' }
    );
    assert.equal(r.stderr, '', 'no unhandled EPIPE error');
    assert.equal(r.status, 0);
});

test('cli build: files, folders and globs; the summary line; loadable output', () => {
    const r = run('build', 'sprites/alien1.png', 'sprites/shot.gif', '-o', 'a.hitmask');
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, '', 'no progress bar when stderr is not a terminal');
    const bits = expected.masks['alien1.png'].count + expected.masks['shot.gif'].count;
    const bytes = readFileSync(join(dir, 'a.hitmask'));
    assert.match(
        r.out,
        new RegExp(
            `^a\\.hitmask: 2 frames from 2 files, ${bits} bits set, ${bytes.length} bytes written in \\d+\\.\\d\\d s \\(2 images, 0\\.\\d\\d Mpx at \\d+\\.\\d Mpx/s\\)\\n$`
        )
    );
    const atlas = MaskAtlas.from(bytes);
    assert.deepEqual(atlas.names, ['alien1', 'shot']);
    assert.equal(atlas.get('shot').toText(), expected.masks['shot.gif'].rows.join('\n'));

    // Worker threads change nothing in the output.
    assert.equal(run('build', 'sprites/alien1.png', 'sprites/shot.gif', '-o', 'a2.hitmask', '--workers', '2').code, 0);
    assert.deepEqual(readFileSync(join(dir, 'a2.hitmask')), bytes);
    assert.match(
        run('build', 'sprites/alien1.png', '-o', 'a3.hitmask', '--workers', '65').err,
        /^hitmask: option '--workers <n>' argument '65' is invalid/
    );
    assert.equal(run('build', 'sprites', '-o', 'b.hitmask').code, 0);
    assert.deepEqual(MaskAtlas.from(readFileSync(join(dir, 'b.hitmask'))).names, [
        'alien1',
        'chimp',
        'player1',
        'shot'
    ]);
    assert.equal(run('build', 'sprites/*.gif', '--trim', '-o', 'c.hitmask').code, 0);
    const c = MaskAtlas.from(readFileSync(join(dir, 'c.hitmask')));
    assert.deepEqual(c.names, ['player1', 'shot']);
    assert.equal(c.get('player1').count(), expected.masks['player1.gif'].count);
});

test('cli build: grids with names, thresholds, colour keys and atlas JSON', () => {
    // Two 80x71 frames side by side.
    const alien = PNG.sync.read(readFileSync(join(SPRITES, 'alien1.png')));
    const sheet = new PNG({ width: 160, height: 71 });
    PNG.bitblt(alien, sheet, 0, 0, 80, 71, 0, 0);
    PNG.bitblt(alien, sheet, 0, 0, 80, 71, 80, 0);
    writeFileSync(join(dir, 'sheet.png'), PNG.sync.write(sheet));
    let r = run('build', 'sheet.png', '--grid', '80x71', '--names', 'alien_{row}_{col}', '-o', 'g.hitmask');
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, '', 'the grid fills the sheet: no note');
    assert.match(r.out, /2 frames from 1 files, 6402 bits set/);
    assert.deepEqual(MaskAtlas.from(readFileSync(join(dir, 'g.hitmask'))).names, ['alien_0_0', 'alien_0_1']);
    // Leftover pixels are named on stderr (they were dropped silently).
    r = run('build', 'sheet.png', '--grid', '50x70', '-o', 'left.hitmask');
    assert.equal(r.code, 0, r.err);
    assert.equal(
        r.err,
        'hitmask: note: sheet.png: the 50x70 grid (margin 0, spacing 0) leaves 10 px at the right and 1 px at the ' +
            'bottom of the 160x71 image in no frame; check the frame size, margin and spacing\n'
    );
    r = run('build', 'sheet.png', '--grid', '80x71', '--color-key', '000000', '-o', 'k.hitmask');
    assert.equal(r.code, 0, r.err);
    let notBlack = 0;
    for (let y = 0; y < 71; y++)
        for (let x = 0; x < 80; x++) {
            const p = (y * 160 + x) * 4;
            if (sheet.data[p] || sheet.data[p + 1] || sheet.data[p + 2]) notBlack++;
        }
    assert.equal(
        MaskAtlas.from(readFileSync(join(dir, 'k.hitmask')))
            .get('sheet/0')
            .count(),
        notBlack
    );
    writeFileSync(
        join(dir, 'sheet.json'),
        JSON.stringify({ frames: { right: { frame: { x: 80, y: 0, w: 80, h: 71 } } } })
    );
    r = run('build', 'sheet.png', '--atlas', 'sheet.json', '--threshold', '0', '-o', 'j.hitmask');
    assert.equal(r.code, 0, r.err);
    assert.equal(
        MaskAtlas.from(readFileSync(join(dir, 'j.hitmask')))
            .get('right')
            .count(),
        3201
    );
});

test('cli inspect: list, text drawing and PNG preview', () => {
    assert.equal(run('build', 'sprites/alien1.png', 'sprites/shot.gif', '-o', 'i.hitmask').code, 0);
    let r = run('inspect', 'i.hitmask');
    assert.equal(r.code, 0, r.err);
    assert.match(
        r.out,
        /^i\.hitmask: 2 frames\nframe +size +offset +source +duration +fill\nalien1 +80x71 +0,0 +80x71 +- +56\.4%\nshot +9x18 +0,0 +9x18 +- +82\.7%\n$/
    );
    r = run('inspect', 'i.hitmask', '--frame', 'shot');
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, `shot: 9x18 at 0,0 in 9x18, fill 82.7%\n${expected.masks['shot.gif'].rows.join('\n')}\n`);
    r = run('inspect', 'sprites/chimp.png', '--png', 'chimp-mask.png');
    assert.equal(r.code, 0, r.err);
    const png = PNG.sync.read(readFileSync(join(dir, 'chimp-mask.png')));
    const rows = expected.masks['chimp.png'].rows;
    assert.deepEqual([png.width, png.height], [61, 89]);
    for (let y = 0; y < 89; y++) {
        let row = '';
        for (let x = 0; x < 61; x++) row += png.data[(y * 61 + x) * 4] === 255 ? '#' : '.';
        assert.equal(row, rows[y], `row ${y}`);
    }
    fails(
        ['inspect', 'i.hitmask', '--png', 'x.png'],
        /i\.hitmask has 2 frames; choose one with --frame NAME \(e\.g\. --frame alien1\)/
    );
    fails(
        ['inspect', 'i.hitmask', '--frame', 'ufo'],
        /No frame named "ufo" in the atlas; it has 2 frame\(s\): "alien1", "shot"/
    );
});

test('cli inspect: control characters in frame, tag and box names are escaped, so no name forges a row', () => {
    const forged = 'a\nevil  9x9  0,0  9x9  -  100.0%';
    const atlas = new MaskAtlas()
        .add(forged, new Mask(2, 2, true), { boxes: [{ name: 'hit\tbox\u0000', x: 0, y: 0, width: 1, height: 1 }] })
        .add('back\\slash\u2028', new Mask(1, 1, true))
        .addTag('run\r', 0, 1);
    writeFileSync(join(dir, 'names.hitmask'), atlas.toBytes());
    let r = run('inspect', 'names.hitmask');
    assert.equal(r.code, 0, r.err);
    const lines = r.out.split('\n');
    assert.equal(lines.length, 7, r.out);
    assert.ok(lines[2].startsWith(`${forged.replace('\n', '\\n')} `), lines[2]);
    assert.match(lines[2], / 2x2 +0,0 +2x2 +- +100\.0%$/);
    assert.match(lines[3], /^back\\\\slash\\u2028 +1x1 /);
    assert.equal(lines[4], 'tag run\\r: frames 0..1 forward');
    assert.equal(lines[5], 'box hit\\tbox\\u0000 on a\\nevil  9x9  0,0  9x9  -  100.0%: 0,0 1x1');
    r = run('inspect', 'names.hitmask', '--frame', forged);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'a\\nevil  9x9  0,0  9x9  -  100.0%: 2x2 at 0,0 in 2x2, fill 100.0%\n##\n##\n');
});

test('cli overlap: text, JSON and exit codes; trimmed atlases give the same answers as images', () => {
    let r = run('overlap', 'sprites/alien1.png', 'sprites/shot.gif', '--at', '30,20');
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'hit at 34,20; area 134 px; overlap box 30,20 9x18\n');
    r = run('overlap', 'sprites/alien1.png', 'sprites/shot.gif', '--at', '200,0');
    assert.equal(r.code, 1);
    assert.equal(r.out, 'no hit\n');
    assert.equal(run('build', 'sprites', '--trim', '-o', 't.hitmask').code, 0);
    for (const at of ['-3,-10', '70,60', '10,5']) {
        const a = run('overlap', 'sprites/alien1.png', 'sprites/shot.gif', '--at', at, '--json');
        const b = run('overlap', 't.hitmask#alien1', 't.hitmask#shot', '--at', at, '--json');
        assert.ok(a.code === 0 || a.code === 1);
        assert.equal(a.code, b.code, at);
        const ja = JSON.parse(a.out),
            jb = JSON.parse(b.out);
        assert.deepEqual({ ...ja, a: 0, b: 0 }, { ...jb, a: 0, b: 0 }, at);
        assert.equal(typeof ja.hit, 'boolean');
        assert.equal(ja.hit, ja.point !== null);
    }
    r = run('overlap', 't.hitmask#alien1', 't.hitmask#shot', '--at', '30,20', '--json');
    assert.deepEqual(JSON.parse(r.out), {
        hit: true,
        point: { x: 34, y: 20 },
        area: 134,
        box: { x: 30, y: 20, width: 9, height: 18 },
        at: { x: 30, y: 20 },
        a: 'alien1',
        b: 'shot'
    });
    fails(
        ['overlap', 't.hitmask', 'sprites/shot.gif', '--at', '0,0'],
        /t\.hitmask has 4 frames; pick one as t\.hitmask#NAME/
    );
});

test("cli: an empty output path (-o '', --png '') is refused before any input is read", () => {
    // The inputs do not exist: the refusal comes first, so nothing was read or built.
    fails(['build', 'nope.png', '-o', ''], /^hitmask: -o\/--output is empty: give the path of the file to write\.$/m);
    fails(['polygons', 'nope.png', '-o', ''], /^hitmask: -o\/--output is empty/);
    fails(['inspect', 'nope.hitmask', '--png', ''], /^hitmask: --png is empty/);
});

test('cli errors: one line on stderr, exit code 2', () => {
    writeFileSync(join(dir, 'bad.hitmask'), 'HMSK not really');
    fails(['build', 'nope.png', '-o', 'x.hitmask'], /Input "nope.png" does not exist/);
    fails(
        ['build', 'sprites', '-o', 'x.hitmask', '--threshold', '300'],
        /option '--threshold <n>' argument '300' is invalid\. expected an integer in 0\.\.255/
    );
    fails(
        ['build', 'sprites', '-o', 'x.hitmask', '--threshold', '3', '--color-key', 'ff00ff'],
        /Use --threshold or --color-key, not both/
    );
    fails(['build', 'sprites', '-o', 'x.hitmask', '--color-key', 'pink'], /expected a colour as RRGGBB hex/);
    fails(['build', 'sprites', '-o', 'x.hitmask', '--grid', '0x4'], /expected WxH with positive integers/);
    fails(['build', 'sprites'], /required option '-o, --output <file>' not specified/);
    fails(['build', 'sprites', '-o', 'x.hitmask', '--bogus'], /unknown option '--bogus'/);
    fails(['inspect', 'bad.hitmask'], /bad\.hitmask: Corrupt hitmask atlas: 15 bytes is too short/);
    fails(['inspect', 'missing.hitmask'], /Cannot read "missing.hitmask": no such file/);
    fails(['overlap', 'sprites/shot.gif', 'sprites/shot.gif'], /required option '--at <DX,DY>' not specified/);
    fails(
        ['overlap', 'sprites/shot.gif', 'sprites/shot.gif', '--at', '1;2'],
        /expected DX,DY as two finite numbers \(e\.g\. 10,-4 or 2\.5,0\), got "1;2"/
    );
    fails(['frobnicate'], /unknown command 'frobnicate'/);
    assert.ok(!existsSync(join(dir, 'x.hitmask')), 'nothing written on error');
});

test('cli: no arguments prints the usage on stderr and exits 2', () => {
    const r = run();
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.match(r.err, /^Usage: hitmask \[options\] \[command\][\s\S]*build \[options\] <inputs\.\.\.>/);
});

test('cli: an output that is also an input is refused, exit 2, nothing written', () => {
    mkdirSync(join(dir, 'same'));
    copyFileSync(join(SPRITES, 'chimp.png'), join(dir, 'same', 'hero.png'));
    const hero = readFileSync(join(dir, 'same', 'hero.png'));
    fails(
        ['build', 'same/hero.png', '-o', 'same/hero.png'],
        /Output "same\/hero\.png" is also an input \(.*hero\.png\); write it to another file/
    );
    fails(['build', 'same', '-o', 'same/hero.png'], /is also an input/);
    // Another spelling, a hard link: the same file.
    linkSync(join(dir, 'same', 'hero.png'), join(dir, 'hero-link.png'));
    fails(['build', 'same/../same/hero.png', '-o', 'hero-link.png'], /Output "hero-link\.png" is also an input/);
    assert.deepEqual(readFileSync(join(dir, 'same', 'hero.png')), hero);
    assert.equal(run('build', 'same/hero.png', '-o', 'same.hitmask').code, 0);
    const atlas = readFileSync(join(dir, 'same.hitmask'));
    fails(['inspect', 'same.hitmask', '--png', 'same.hitmask'], /Output "same\.hitmask" is also an input/);
    fails(['inspect', 'same/hero.png', '--png', 'same/hero.png'], /is also an input/);
    assert.deepEqual(readFileSync(join(dir, 'same.hitmask')), atlas);
    assert.deepEqual(readFileSync(join(dir, 'same', 'hero.png')), hero);
    // The image a JSON layout names counts too.
    writeFileSync(
        join(dir, 'same', 'hero.json'),
        JSON.stringify({ frames: { a: { frame: { x: 0, y: 0, w: 2, h: 2 } } }, meta: { image: 'hero.png' } })
    );
    fails(['build', 'same/hero.json', '-o', 'same/hero.png'], /is also an input/);
    assert.deepEqual(readFileSync(join(dir, 'same', 'hero.png')), hero);
});

test('cli: a failed write leaves the old file whole (temporary file, then rename), and no temporary file', () => {
    mkdirSync(join(dir, 'full'));
    assert.equal(run('build', 'sprites/shot.gif', '-o', 'full/good.hitmask').code, 0);
    const good = readFileSync(join(dir, 'full', 'good.hitmask'));
    // A 300x300 sprite of noise makes a 12 KiB atlas and a 59 KiB preview; a 4 KiB file size limit (ulimit -f)
    // makes the write fail as a full disk does.
    const big = new PNG({ width: 300, height: 300 });
    for (let i = 0, seed = 1; i < big.data.length; i++) big.data[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    writeFileSync(join(dir, 'full', 'big.png'), PNG.sync.write(big));
    for (const args of [
        ['build', 'full/big.png', '-o', 'full/good.hitmask'],
        ['inspect', 'full/big.png', '--png', 'full/good.hitmask']
    ]) {
        const r = spawnSync('bash', ['-c', 'ulimit -f 4 && exec "$@"', 'bash', process.execPath, CLI, ...args], {
            cwd: dir,
            encoding: 'utf8'
        });
        assert.equal(r.status, 2, r.stderr);
        assert.match(
            r.stderr,
            /^hitmask: Cannot write "full\/good\.hitmask": EFBIG: file too large, write; nothing was written\.\n$/
        );
        // In place, the old CLI left the first 4096 bytes of the new atlas here.
        assert.deepEqual(readFileSync(join(dir, 'full', 'good.hitmask')), good);
        assert.deepEqual(readdirSync(join(dir, 'full')).sort(), ['big.png', 'good.hitmask']);
    }
    // Writing through a symbolic link replaces the target and keeps the link.
    symlinkSync('good.hitmask', join(dir, 'full', 'link.hitmask'));
    assert.equal(run('build', 'sprites/alien1.png', '-o', 'full/link.hitmask').code, 0);
    assert.deepEqual(MaskAtlas.from(readFileSync(join(dir, 'full', 'good.hitmask'))).names, ['alien1']);
    assert.deepEqual(readdirSync(join(dir, 'full')).sort(), ['big.png', 'good.hitmask', 'link.hitmask']);
});

test('cli build: a .json in a folder that is not a sheet layout is skipped with a note; a named one is an error', () => {
    mkdirSync(join(dir, 'art'));
    copyFileSync(join(SPRITES, 'shot.gif'), join(dir, 'art', 'shot.gif'));
    writeFileSync(join(dir, 'art', 'settings.json'), JSON.stringify({ volume: 3 }));
    writeFileSync(join(dir, 'art', 'notes.json'), '// not JSON');
    const r = run('build', 'art', '-o', 'art.hitmask');
    assert.equal(r.code, 0, r.err);
    assert.equal(
        r.err,
        'hitmask: note: skipped art/notes.json: not valid JSON, so not a TexturePacker or Aseprite sheet\nhitmask: note: skipped art/settings.json: no "frames", so not a TexturePacker or Aseprite sheet\n'
    );
    assert.match(r.out, /1 frames from 1 files/);
    assert.deepEqual(MaskAtlas.from(readFileSync(join(dir, 'art.hitmask'))).names, ['shot']);
    fails(['build', 'art/settings.json', '-o', 'x.hitmask'], /settings\.json has no "frames" object or array/);
    // A layout with "frames" but a mistake in it is still an error in a folder.
    writeFileSync(
        join(dir, 'art', 'broken.json'),
        JSON.stringify({ frames: { a: { frame: { x: 0, y: 0, w: 'x', h: 1 } } } })
    );
    fails(['build', 'art', '-o', 'x.hitmask'], /frames\["a"\]\.frame\.w must be an integer/);
    rmSync(join(dir, 'art', 'broken.json'));
});

test('cli build: a JSON meta.image outside the input folders is refused unless --allow-outside-images', () => {
    mkdirSync(join(dir, 'secret'));
    mkdirSync(join(dir, 'sheets'));
    copyFileSync(join(SPRITES, 'chimp.png'), join(dir, 'secret', 'private.png'));
    const layout = (image: string) =>
        JSON.stringify({ frames: { a: { frame: { x: 0, y: 0, w: 4, h: 4 } } }, meta: { image } });
    writeFileSync(join(dir, 'sheets', 'up.json'), layout('../secret/private.png'));
    writeFileSync(join(dir, 'sheets', 'abs.json'), layout(join(dir, 'secret', 'private.png')));
    symlinkSync(join(dir, 'secret', 'private.png'), join(dir, 'sheets', 'inside.png'));
    writeFileSync(join(dir, 'sheets', 'link.json'), layout('inside.png'));
    for (const json of ['up', 'abs', 'link']) {
        fails(
            ['build', `sheets/${json}.json`, '-o', 'x.hitmask'],
            new RegExp(
                `${json}\\.json: meta\\.image ".*" is .*secret/private\\.png, outside the input folders \\(.*sheets\\); move the image next to the JSON, or pass --allow-outside-images`
            )
        );
        assert.equal(run('build', `sheets/${json}.json`, '--allow-outside-images', '-o', 'x.hitmask').code, 0, json);
    }
    // The folder of another input counts as an input folder.
    assert.equal(run('build', 'sheets/up.json', 'secret/private.png', '-o', 'x.hitmask').code, 0);
    rmSync(join(dir, 'x.hitmask'));
});

test('cli overlap: file names with # and --at with any numbers, floored', () => {
    copyFileSync(join(SPRITES, 'shot.gif'), join(dir, 'sprites', 'shot#2.gif'));
    const base = run('overlap', 'sprites/alien1.png', 'sprites/shot.gif', '--at', '30,20', '--json');
    assert.equal(base.code, 0, base.err);
    let r = run('overlap', 'sprites/alien1.png', 'sprites/shot#2.gif', '--at', '30,20', '--json');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual({ ...JSON.parse(r.out), b: 0 }, { ...JSON.parse(base.out), b: 0 });
    for (const at of ['30.9,20.1', ' 30.5 , 20.99 ', '3.05e1,20']) {
        r = run('overlap', 'sprites/alien1.png', 'sprites/shot.gif', '--at', at, '--json');
        assert.equal(r.code, 0, `${at}: ${r.err}`);
        assert.deepEqual(JSON.parse(r.out), JSON.parse(base.out), at);
    }
    r = run('overlap', 'sprites/alien1.png', 'sprites/shot.gif', '--at=-0.5,-0.5', '--json');
    assert.deepEqual(JSON.parse(r.out).at, { x: -1, y: -1 });
    for (const at of ['1,', ',1', '1,2,3', 'Infinity,0', 'NaN,1', 'x,1'])
        fails(
            ['overlap', 'sprites/alien1.png', 'sprites/shot.gif', `--at=${at}`],
            /expected DX,DY as two finite numbers/
        );
    // A hitmask file whose name has a # still takes a frame after the last #.
    assert.equal(run('build', 'sprites/alien1.png', 'sprites/shot.gif', '-o', 'a#b.hitmask').code, 0);
    r = run('overlap', 'a#b.hitmask#alien1', 'a#b.hitmask#shot', '--at', '30,20', '--json');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual({ ...JSON.parse(r.out), a: 0, b: 0 }, { ...JSON.parse(base.out), a: 0, b: 0 });
    rmSync(join(dir, 'sprites', 'shot#2.gif'));
});

test('cli inspect --png: a frame too large for a preview is a size error before any allocation', () => {
    writeFileSync(
        join(dir, 'wide.hitmask'),
        new MaskAtlas().add('wide', new Mask(1024, 1024)).add('dot', new Mask(1, 1)).toBytes()
    );
    fails(
        ['inspect', 'wide.hitmask', '--frame', 'wide', '--png', 'wide.png', '--max-mib', '1'],
        /^hitmask: Frame "wide" is 1024x1024: its PNG preview needs 4 MiB of RGBA, more than --max-mib 1; raise --max-mib, or draw it with --frame as text\.$/m
    );
    assert.ok(!existsSync(join(dir, 'wide.png')));
    const r = run('inspect', 'wide.hitmask', '--frame', 'wide', '--png', 'wide.png', '--max-mib', '4');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual([PNG.sync.read(readFileSync(join(dir, 'wide.png'))).width], [1024]);
});

test('cli: the JSON `hitmask polygons` writes into a sprite folder is skipped with a note when found again; named, it is a clear error', () => {
    // A folder holding a sheet layout beside a plain sprite: the layout must still be read as one.
    mkdirSync(join(dir, 'plain'));
    copyFileSync(join(SPRITES, 'shot.gif'), join(dir, 'plain', 'shot.gif'));
    copyFileSync(join(SPRITES, 'alien1.png'), join(dir, 'plain', 'sheet.png'));
    writeFileSync(
        join(dir, 'plain', 'sheet.json'),
        JSON.stringify({
            frames: [{ filename: 'right', frame: { x: 40, y: 0, w: 40, h: 71 } }],
            meta: { image: 'sheet.png' }
        })
    );
    let r = run('polygons', 'plain', '-o', 'plain/shapes.json');
    assert.equal(r.code, 0, r.err);
    // An atlas of no frames gives "frames": {}, which must not pass for an empty layout either.
    writeFileSync(join(dir, 'plain', 'empty.json'), '{"version":1,"tolerance":0,"maxVertices":8,"frames":{}}\n');
    const note =
        'hitmask: note: skipped plain/empty.json: an empty "frames" and no "meta", so not a TexturePacker or Aseprite sheet\n' +
        'hitmask: note: skipped plain/shapes.json: frames["right"] has no "frame": {x, y, w, h} rectangle, so not a TexturePacker or Aseprite sheet\n';
    for (const input of ['plain', 'plain/*']) {
        r = run('build', input, '-o', 'plain.hitmask');
        assert.equal(r.code, 0, `${input}: ${r.err}`);
        assert.equal(r.err, note, input);
        assert.deepEqual(MaskAtlas.from(readFileSync(join(dir, 'plain.hitmask'))).names, ['right', 'shot'], input);
        r = run('polygons', input);
        assert.equal(r.code, 0, `${input}: ${r.err}`);
        assert.equal(r.err, note, input);
        assert.deepEqual(Object.keys((JSON.parse(r.out) as { frames: object }).frames), ['right', 'shot'], input);
    }
    fails(
        ['build', 'plain/shapes.json', '-o', 'x.hitmask'],
        /plain\/shapes\.json: frames\["right"\] has no "frame": \{x, y, w, h\} rectangle; expected TexturePacker or Aseprite JSON \(this is the JSON `hitmask polygons` writes: pass the images it was traced from\)\.$/m
    );
    fails(['polygons', 'plain/empty.json'], /Cannot read image of plain\/empty\.json ".*empty\.png"/);
    rmSync(join(dir, 'plain'), { recursive: true });
    rmSync(join(dir, 'plain.hitmask'));
});

test("cli: a glob over nested folders names frames by their path below the glob's fixed prefix; a name clash names both files and the fix", () => {
    for (const [from, to] of [
        ['alien1.png', 'a/pause.png'],
        ['chimp.png', 'b/pause.png'],
        ['shot.gif', 'b/deep/pause.gif']
    ]) {
        mkdirSync(join(dir, 'nest', to, '..'), { recursive: true });
        copyFileSync(join(SPRITES, from), join(dir, 'nest', to));
    }
    const names = (...args: string[]) => {
        const r = run('build', ...args, '-o', 'nest.hitmask');
        assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
        return MaskAtlas.from(readFileSync(join(dir, 'nest.hitmask'))).names;
    };
    assert.deepEqual(names('nest/**/*.png'), ['a/pause', 'b/pause']);
    assert.deepEqual(names('nest/*/pause.png'), ['a/pause', 'b/pause']);
    assert.deepEqual(names('nest/b/**/*.{png,gif}'), ['deep/pause', 'pause']);
    // The same names as the folder form.
    assert.deepEqual(names('nest/**/*.{png,gif}'), names('nest'));
    assert.equal(run('polygons', 'nest/**/*.png', '-o', 'nest.json').code, 0);
    assert.deepEqual(
        Object.keys((JSON.parse(readFileSync(join(dir, 'nest.json'), 'utf8')) as { frames: object }).frames),
        ['a/pause', 'b/pause']
    );
    // Separate inputs with one base name: both files and the fix.
    for (const cmd of [['build', '-o', 'x.hitmask'], ['polygons']]) {
        fails(
            [...cmd, 'nest/a/pause.png', 'nest/b/pause.png'],
            /^hitmask: Frame name "pause" comes from both nest\/a\/pause\.png and nest\/b\/pause\.png; rename one, or pass their common folder "nest" instead of each file, so that names keep the sub-path \(as in "a\/pause"\)\.$/m
        );
    }
    // One folder, two files named alike: no common folder helps.
    copyFileSync(join(SPRITES, 'shot.gif'), join(dir, 'nest', 'a', 'pause.gif'));
    fails(
        ['build', 'nest', '-o', 'x.hitmask'],
        /^hitmask: Frame name "a\/pause" comes from both nest\/a\/pause\.gif and nest\/a\/pause\.png; rename one\.$/m
    );
    assert.ok(!existsSync(join(dir, 'x.hitmask')));
    rmSync(join(dir, 'nest'), { recursive: true });
    rmSync(join(dir, 'nest.hitmask'));
    rmSync(join(dir, 'nest.json'));
});
