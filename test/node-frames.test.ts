import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { boundingRect, limits, Mask, MaskAtlas } from '../src/index.js';
import {
    buildAtlas,
    cutSheet,
    decodeImage,
    gridFrames,
    parseSheetJson,
    type RGBAImage,
    type SheetFrame
} from '../src/node.js';
import { resolveInputs } from '../src/node/build.js'; // internal: resolveInputs has no public entry

const SPRITES = new URL('./fixtures/sprites/', import.meta.url);
let dir = '';

function sprite(name: string): RGBAImage {
    return decodeImage(readFileSync(new URL(name, SPRITES)));
}

function blank(width: number, height: number): RGBAImage {
    return { width, height, data: new Uint8Array(width * height * 4) };
}

// Copies src's rectangle (sx, sy, w, h) to dst at (dx, dy), turned 90° clockwise when `rotate` (how packers store rotated frames).
function blit(
    dst: RGBAImage,
    src: RGBAImage,
    sx: number,
    sy: number,
    w: number,
    h: number,
    dx: number,
    dy: number,
    rotate = false
): void {
    for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
            const tx = rotate ? h - 1 - y : x,
                ty = rotate ? x : y;
            const s = ((sy + y) * src.width + sx + x) * 4,
                d = ((dy + ty) * dst.width + dx + tx) * 4;
            dst.data.set(src.data.subarray(s, s + 4), d);
        }
    }
}

function writePngFile(path: string, image: RGBAImage): void {
    const png = new PNG({ width: image.width, height: image.height });
    png.data.set(image.data);
    writeFileSync(path, PNG.sync.write(png));
}

const maskOf = (im: RGBAImage) => Mask.fromRGBA(im.data, im.width, im.height);

// A TexturePacker-style sheet: shot untrimmed, bomb trimmed, alien1 trimmed and rotated.
function packSheet(): { sheet: RGBAImage; frames: Record<string, unknown> } {
    const shot = sprite('shot.gif'),
        bomb = sprite('bomb.gif'),
        alien = sprite('alien1.png');
    const b = boundingRect(maskOf(bomb))!,
        a = boundingRect(maskOf(alien))!;
    const sheet = blank(128, 96);
    blit(sheet, shot, 0, 0, 9, 18, 0, 0);
    blit(sheet, bomb, b.x, b.y, b.width, b.height, 10, 0);
    blit(sheet, alien, a.x, a.y, a.width, a.height, 30, 0, true);
    return {
        sheet,
        frames: {
            'shot.png': {
                frame: { x: 0, y: 0, w: 9, h: 18 },
                rotated: false,
                trimmed: false,
                spriteSourceSize: { x: 0, y: 0, w: 9, h: 18 },
                sourceSize: { w: 9, h: 18 }
            },
            'bomb.png': {
                frame: { x: 10, y: 0, w: b.width, h: b.height },
                rotated: false,
                trimmed: true,
                spriteSourceSize: { x: b.x, y: b.y, w: b.width, h: b.height },
                sourceSize: { w: 16, h: 24 }
            },
            'alien1.png': {
                frame: { x: 30, y: 0, w: a.width, h: a.height },
                rotated: true,
                trimmed: true,
                spriteSourceSize: { x: a.x, y: a.y, w: a.width, h: a.height },
                sourceSize: { w: 80, h: 71 }
            }
        }
    };
}

before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hitmask-frames-'));
    const { sheet, frames } = packSheet();
    writePngFile(join(dir, 'packed.png'), sheet);
    writeFileSync(
        join(dir, 'packed-hash.json'),
        JSON.stringify({
            frames,
            meta: { app: 'https://www.codeandweb.com/texturepacker', image: 'packed.png', size: { w: 128, h: 96 } }
        })
    );
    writeFileSync(
        join(dir, 'packed-array.json'),
        JSON.stringify({
            frames: Object.entries(frames).map(([filename, f]) => ({ filename, ...(f as object) })),
            meta: { image: 'packed.png' }
        })
    );
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('TexturePacker hash and array: trimmed and rotated frames come back in untrimmed sprite space', async () => {
    const originals: Record<string, Mask> = {
        'shot.png': maskOf(sprite('shot.gif')),
        'bomb.png': maskOf(sprite('bomb.gif')),
        'alien1.png': maskOf(sprite('alien1.png'))
    };
    for (const json of ['packed-hash.json', 'packed-array.json']) {
        const { atlas, stats } = await buildAtlas([join(dir, json)]);
        assert.deepEqual(atlas.names.sort(), Object.keys(originals).sort(), json);
        assert.equal(stats.files, 1);
        for (const [name, original] of Object.entries(originals)) {
            assert.ok(atlas.untrimmed(name).equals(original), `${json} ${name}`);
            assert.equal(atlas.get(name).count(), original.count());
        }
        const alien = atlas.frame('alien1.png'),
            r = boundingRect(originals['alien1.png'])!;
        assert.deepEqual(
            [alien.x, alien.y, alien.mask.width, alien.mask.height, alien.sourceWidth, alien.sourceHeight],
            [r.x, r.y, r.width, r.height, 80, 71]
        );
        // The same sprite position means the same thing whatever the trim: overlaps agree with the untrimmed masks.
        const full = originals['alien1.png'],
            shot = originals['shot.png'];
        for (const [dx, dy] of [
            [30, 20],
            [0, 0],
            [75, 60],
            [-5, 3]
        ]) {
            assert.deepEqual(
                alien.mask.overlap(shot, dx - alien.x, dy - alien.y)?.x === undefined
                    ? null
                    : alien.mask.overlapArea(shot, dx - alien.x, dy - alien.y),
                full.overlap(shot, dx, dy) === null ? null : full.overlapArea(shot, dx, dy)
            );
        }
    }
});

test('cutSheet: random frames packed trimmed and rotated are recovered exactly (property)', () => {
    fc.assert(
        fc.property(
            fc.array(
                fc.record({
                    w: fc.integer({ min: 1, max: 40 }),
                    h: fc.integer({ min: 1, max: 12 }),
                    bits: fc.array(fc.boolean(), { minLength: 480, maxLength: 480 }),
                    rotated: fc.boolean()
                }),
                { minLength: 1, maxLength: 5 }
            ),
            specs => {
                const sheet = blank(60 * specs.length, 60);
                const frames: SheetFrame[] = [];
                const originals: Mask[] = [];
                specs.forEach((s, i) => {
                    const src = blank(s.w, s.h);
                    for (let p = 0; p < s.w * s.h; p++) src.data[p * 4 + 3] = s.bits[p] ? 255 : 0;
                    const m = maskOf(src),
                        r = boundingRect(m) ?? { x: 0, y: 0, width: 0, height: 0 };
                    originals.push(m);
                    blit(sheet, src, r.x, r.y, r.width, r.height, 60 * i, 0, s.rotated);
                    frames.push({
                        name: `f${i}`,
                        x: 60 * i,
                        y: 0,
                        width: s.rotated ? r.height : r.width,
                        height: s.rotated ? r.width : r.height,
                        rotated: s.rotated,
                        offsetX: r.x,
                        offsetY: r.y,
                        sourceWidth: s.w,
                        sourceHeight: s.h,
                        duration: 0,
                        boxes: []
                    });
                });
                const atlas = new MaskAtlas();
                for (const { frame, mask } of cutSheet(sheet, frames)) {
                    atlas.add(frame.name, mask, {
                        x: frame.offsetX,
                        y: frame.offsetY,
                        sourceWidth: frame.sourceWidth,
                        sourceHeight: frame.sourceHeight
                    });
                }
                const loaded = MaskAtlas.from(atlas.toBytes());
                originals.forEach((m, i) => assert.ok(loaded.untrimmed(`f${i}`).equals(m), `frame ${i}`));
            }
        ),
        { seed: 5, numRuns: 60 }
    );
});

test('Aseprite JSON: durations, frame tags and slices as hit-boxes', async () => {
    const sheet = blank(32, 8);
    for (let i = 0; i < 4; i++) for (let k = 0; k <= i; k++) sheet.data[(k * 32 + 8 * i + k) * 4 + 3] = 255;
    writePngFile(join(dir, 'walker.png'), sheet);
    const json = {
        frames: [0, 1, 2, 3].map(i => ({
            filename: `walker ${i}.aseprite`,
            frame: { x: 8 * i, y: 0, w: 8, h: 8 },
            rotated: false,
            trimmed: false,
            spriteSourceSize: { x: 0, y: 0, w: 8, h: 8 },
            sourceSize: { w: 8, h: 8 },
            duration: 100 + i
        })),
        meta: {
            app: 'https://www.aseprite.org/',
            image: 'walker.png',
            format: 'RGBA8888',
            size: { w: 32, h: 8 },
            frameTags: [
                { name: 'idle', from: 0, to: 0, direction: 'forward' },
                { name: 'walk', from: 1, to: 3, direction: 'pingpong' }
            ],
            slices: [
                {
                    name: 'hitbox',
                    color: '#0000ffff',
                    keys: [
                        { frame: 0, bounds: { x: 1, y: 1, w: 4, h: 4 } },
                        { frame: 2, bounds: { x: 2, y: 2, w: 3, h: 3 } }
                    ]
                },
                { name: 'late', keys: [{ frame: 3, bounds: { x: 0, y: 0, w: 1, h: 1 } }] }
            ]
        }
    };
    writeFileSync(join(dir, 'walker.json'), JSON.stringify(json));
    const { atlas } = await buildAtlas([join(dir, 'walker.json'), join(dir, 'packed-hash.json')]);
    assert.equal(atlas.size, 7);
    assert.deepEqual(
        atlas.frames.slice(0, 4).map(f => f.duration),
        [100, 101, 102, 103]
    );
    assert.deepEqual(
        atlas.frames.slice(0, 4).map(f => f.mask.count()),
        [1, 2, 3, 4]
    );
    assert.deepEqual(atlas.tags, [
        { name: 'idle', from: 0, to: 0, direction: 'forward' },
        { name: 'walk', from: 1, to: 3, direction: 'pingpong' }
    ]);
    assert.deepEqual(
        atlas.tagFrames('walk').map(f => f.name),
        ['walker 1.aseprite', 'walker 2.aseprite', 'walker 3.aseprite']
    );
    const box = (i: number) => atlas.frames[i].boxes;
    assert.deepEqual(box(1), [{ name: 'hitbox', x: 1, y: 1, width: 4, height: 4 }]);
    assert.deepEqual(box(2), [{ name: 'hitbox', x: 2, y: 2, width: 3, height: 3 }]);
    assert.deepEqual(
        box(3).map(b => b.name),
        ['hitbox', 'late']
    );
    // Tags and boxes survive the file format.
    const loaded = MaskAtlas.from(atlas.toBytes());
    assert.deepEqual(loaded.tags, atlas.tags);
    assert.deepEqual(loaded.frames[3].boxes, box(3));
    // Tags of a second sheet are shifted to its frames.
    const { atlas: two } = await buildAtlas([join(dir, 'packed-hash.json'), join(dir, 'walker.json')]);
    assert.deepEqual(
        two.tags.map(t => [t.from, t.to]),
        [
            [3, 3],
            [4, 6]
        ]
    );
});

test('grid builds say where a grid leaves pixels in no frame (they were dropped silently)', async () => {
    writePngFile(join(dir, 'odd.png'), blank(23, 13));
    const grid = { frameWidth: 5, frameHeight: 4, margin: 1, spacing: 2 };
    const { atlas, notes } = await buildAtlas(['odd.png'], { cwd: dir, grid });
    assert.equal(atlas.size, 6);
    assert.deepEqual(notes, [
        'odd.png: the 5x4 grid (margin 1, spacing 2) leaves 2 px at the right and 1 px at the bottom of the 23x13 ' +
            'image in no frame; check the frame size, margin and spacing'
    ]);
    // A grid that fills the image (its margin included), or a count of frames that stops early: no note.
    writePngFile(join(dir, 'exact.png'), blank(21, 12));
    assert.deepEqual((await buildAtlas(['exact.png'], { cwd: dir, grid })).notes, []);
    assert.deepEqual((await buildAtlas(['exact.png'], { cwd: dir, grid: { ...grid, count: 2 } })).notes, []);
    writePngFile(join(dir, 'tall.png'), blank(21, 14));
    assert.match(
        (await buildAtlas(['tall.png'], { cwd: dir, grid })).notes[0],
        /leaves 2 px at the bottom of the 21x14/
    );
});

test('grid sheets: frame size, margin, spacing and names', async () => {
    const frames = gridFrames('tiles', 23, 12, { frameWidth: 5, frameHeight: 4, margin: 1, spacing: 2 });
    assert.deepEqual(
        frames.map(f => [f.name, f.x, f.y]),
        [
            ['tiles/0', 1, 1],
            ['tiles/1', 8, 1],
            ['tiles/2', 15, 1],
            ['tiles/3', 1, 7],
            ['tiles/4', 8, 7],
            ['tiles/5', 15, 7]
        ]
    );
    assert.deepEqual(
        gridFrames('t', 10, 4, { frameWidth: 5, frameHeight: 4, names: '{name}_{row}_{col}' }).map(f => f.name),
        ['t_0_0', 't_0_1']
    );
    assert.equal(gridFrames('t', 10, 8, { frameWidth: 5, frameHeight: 4, count: 3 }).length, 3);
    assert.throws(
        () => gridFrames('t', 4, 4, { frameWidth: 5, frameHeight: 4 }),
        /A 5x4 grid \(margin 0, spacing 0\) does not fit even one frame in the 4x4 image "t"/
    );
    assert.throws(
        () => gridFrames('t', 10, 4, { frameWidth: 5, frameHeight: 4, names: '{name}' }),
        /must contain \{index\}/
    );
    assert.throws(
        () => gridFrames('t', 10, 4, { frameWidth: 0, frameHeight: 4 }),
        /grid frameWidth must be an integer in 1..1073741824, got 0/
    );
    assert.throws(
        () => gridFrames('t', 10, 4, { frameWidth: 5, frameHeight: 4, count: 3 }),
        /grid count must be an integer in 1..2, got 3/
    );

    // A grid of real sprites: alien1, alien2 and chimp's top-left 61x71 side by side, with 1 px spacing.
    const a1 = sprite('alien1.png'),
        a2 = sprite('alien2.png');
    const sheet = blank(80 * 2 + 1, 71);
    blit(sheet, a1, 0, 0, 80, 71, 0, 0);
    blit(sheet, a2, 0, 0, 80, 71, 81, 0);
    writePngFile(join(dir, 'aliens.png'), sheet);
    const { atlas } = await buildAtlas([join(dir, 'aliens.png')], {
        grid: { frameWidth: 80, frameHeight: 71, spacing: 1 }
    });
    assert.deepEqual(atlas.names, ['aliens/0', 'aliens/1']);
    assert.ok(atlas.get('aliens/0').equals(maskOf(a1)));
    assert.ok(atlas.get('aliens/1').equals(maskOf(a2)));
    const trimmed = (
        await buildAtlas([join(dir, 'aliens.png')], {
            grid: { frameWidth: 80, frameHeight: 71, spacing: 1 },
            trim: true
        })
    ).atlas;
    assert.ok(trimmed.untrimmed('aliens/1').equals(maskOf(a2)));
    assert.ok(trimmed.get('aliens/1').width < 80);
});

test('a file whose name is not valid UTF-8 is skipped with a note, in a folder and by a glob; others still build', async () => {
    const folder = join(dir, 'latin1');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'good.png'), readFileSync(new URL('alien1.png', SPRITES)));
    // "caf\xe9.png" and a lone 0xff: Latin-1 bytes, which a UTF-8 listing shows as U+FFFD.
    writeFileSync(Buffer.concat([Buffer.from(folder + '/caf'), Buffer.from([0xe9, 0x2e, 0x70, 0x6e, 0x67])]), 'x');
    writeFileSync(Buffer.concat([Buffer.from(folder + '/'), Buffer.from([0xff, 0x2e, 0x70, 0x6e, 0x67])]), 'x');
    // A name that holds a real U+FFFD is valid UTF-8, and builds.
    writeFileSync(join(folder, 'real\uFFFD.png'), readFileSync(new URL('alien1.png', SPRITES)));
    const note = (name: string) =>
        `skipped ${JSON.stringify(name)}: its name is not valid UTF-8 (shown with U+FFFD), so it cannot be opened ` +
        'by a name nor give a frame one; rename it in UTF-8';
    for (const input of ['latin1', 'latin1/*.png']) {
        const { atlas, notes } = await buildAtlas([input], { cwd: dir });
        assert.deepEqual(atlas.names, ['good', 'real\uFFFD'], input);
        assert.deepEqual(notes, [note('latin1/caf\uFFFD.png'), note('latin1/\uFFFD.png')], input);
    }
});

test('single images, animations, folders and globs', async () => {
    const sub = join(dir, 'tree', 'enemies');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(dir, 'tree', 'shot.gif'), readFileSync(new URL('shot.gif', SPRITES)));
    writeFileSync(join(sub, 'alien1.png'), readFileSync(new URL('alien1.png', SPRITES)));
    writeFileSync(join(sub, 'notes.txt'), 'ignored');
    const inputs = await resolveInputs(['tree'], dir);
    assert.deepEqual(
        inputs.map(i => i.name),
        ['enemies/alien1', 'shot']
    );
    const { atlas } = await buildAtlas(['tree'], { cwd: dir });
    assert.deepEqual(atlas.names, ['enemies/alien1', 'shot']);
    assert.equal(atlas.get('enemies/alien1').count(), 3201);
    const globbed = await buildAtlas(['tree/**/*.png', join(dir, 'tree', 'shot.gif')], { cwd: dir });
    // A glob names frames by their path below its fixed prefix ("tree/"), as the folder form does.
    assert.deepEqual(globbed.atlas.names, ['enemies/alien1', 'shot']);
    // Threshold and colour key.
    const t0 = (await buildAtlas([join(sub, 'alien1.png')], { threshold: 254 })).atlas.get('alien1');
    assert.equal(t0.count(), 3201);
    const key = (await buildAtlas([join(dir, 'aliens.png')], { colorKey: 0x000000 })).atlas.get('aliens');
    const rgba = decodeImage(readFileSync(join(dir, 'aliens.png')));
    assert.ok(key.equals(Mask.fromColorKey(rgba.data, rgba.width, rgba.height, 0)));
    // An animated PNG becomes name/0.. with delays and a tag.
    const { writeApng } = await import('./fixtures/png-writer.js');
    const f = (a: number) => ({
        x: 0,
        y: 0,
        width: 2,
        height: 1,
        rgba: Uint8Array.from([0, 0, 0, a, 0, 0, 0, 255]),
        delayNum: 1,
        delayDen: 10,
        dispose: 0 as const,
        blend: 0 as const
    });
    writeFileSync(join(dir, 'blink.png'), writeApng(2, 1, [f(0), f(255)]));
    const anim = (await buildAtlas([join(dir, 'blink.png')])).atlas;
    assert.deepEqual(anim.names, ['blink/0', 'blink/1']);
    assert.deepEqual(
        anim.frames.map(g => [g.mask.count(), g.duration]),
        [
            [1, 100],
            [2, 100]
        ]
    );
    assert.deepEqual(anim.tags, [{ name: 'blink', from: 0, to: 1, direction: 'forward' }]);
});

test('build and layout errors are clear', async () => {
    await assert.rejects(
        buildAtlas(['missing.png'], { cwd: dir }),
        /Input "missing.png" does not exist; expected a file, a folder or a glob/
    );
    await assert.rejects(
        buildAtlas(['nothing/*.png'], { cwd: dir }),
        /No .png, .gif or .json files match "nothing\/\*.png"/
    );
    await assert.rejects(buildAtlas([]), /inputs must be a non-empty array/);
    await assert.rejects(
        buildAtlas([join(dir, 'packed.png'), join(dir, 'tree', 'shot.gif')], { atlas: join(dir, 'packed-hash.json') }),
        /--atlas applies to exactly one image input, got 2/
    );
    await assert.rejects(
        buildAtlas([join(dir, 'packed.png')], { atlas: 'x.json', grid: { frameWidth: 1, frameHeight: 1 } }),
        /either a grid or an atlas JSON/
    );
    await assert.rejects(
        buildAtlas([join(dir, 'tree', 'shot.gif'), join(dir, 'tree', 'shot.gif')]),
        /Frame name "shot" comes from both .*shot.gif and .*shot.gif; rename one/
    );
    const cut = (await buildAtlas([join(dir, 'packed.png')], { atlas: join(dir, 'packed-hash.json') })).atlas;
    assert.equal(cut.size, 3);
    writeFileSync(
        join(dir, 'outside.json'),
        JSON.stringify({ frames: { big: { frame: { x: 120, y: 0, w: 20, h: 5 } } }, meta: { image: 'packed.png' } })
    );
    await assert.rejects(
        buildAtlas([join(dir, 'outside.json')]),
        /frame "big" at \(120, 0\) size 20x5 lies outside the 128x96 image/
    );
    writeFileSync(join(dir, 'noimage.json'), JSON.stringify({ frames: {}, meta: { image: 'gone.png' } }));
    await assert.rejects(
        buildAtlas([join(dir, 'noimage.json')]),
        /Cannot read image of .*noimage.json ".*gone.png": no such file/
    );
    writeFileSync(join(dir, 'broken.json'), '{"frames": [');
    await assert.rejects(buildAtlas([join(dir, 'broken.json')]), /broken.json is not valid JSON/);
    assert.throws(
        () => parseSheetJson({ frames: 3 }),
        /atlas JSON has no "frames" object or array \(got 3\); expected TexturePacker or Aseprite JSON/
    );
    assert.throws(
        () => parseSheetJson({ frames: { a: { frame: { x: 0, y: 0, w: '5', h: 1 } } } }),
        /atlas JSON: frames\["a"\].frame.w must be an integer in 0..2147483647, got "5"/
    );
    assert.throws(
        () => parseSheetJson({ frames: [{ frame: { x: 0, y: 0, w: 1, h: 1 } }] }),
        /frames\[0\].filename must be a string, got undefined/
    );
    assert.throws(
        () => parseSheetJson({ frames: { a: { frame: { x: 0, y: 0, w: 1, h: 1 }, rotated: 'yes' } } }),
        /frames\["a"\].rotated must be true or false, got "yes"/
    );
    assert.throws(
        () =>
            parseSheetJson({
                frames: { a: { frame: { x: 0, y: 0, w: 1, h: 1 } } },
                meta: { frameTags: [{ name: 't', from: 0, to: 1 }] }
            }),
        /meta.frameTags\[0\].to must be an integer in 0..0, got 1/
    );
    assert.throws(
        () =>
            parseSheetJson({
                frames: { a: { frame: { x: 0, y: 0, w: 1, h: 1 } } },
                meta: { frameTags: [{ name: 't', from: 0, to: 0, direction: 'up' }] }
            }),
        /direction must be forward, reverse, pingpong or pingpong_reverse, got "up"/
    );
    assert.throws(
        () => parseSheetJson({ frames: {}, meta: { slices: [{ name: 's', keys: [{ frame: 0 }] }] } }),
        /meta.slices\[0\].keys\[0\].bounds must be an object, got undefined/
    );
});

test('sheet JSON budgets: frames, slices and hit-boxes are counted before any is made; a key shares its box', () => {
    const cell = (i: number) => ({ filename: `f${i}`, frame: { x: 0, y: 0, w: 1, h: 1 } });
    const key = (frame: number) => ({ frame, bounds: { x: 0, y: 0, w: 1, h: 1 } });
    // Entries that are not frames, slices or keys: refused by the count, before the first one is read.
    const nulls = (n: number) => new Array<null>(n).fill(null);
    assert.throws(
        () => parseSheetJson({ frames: nulls(limits.sheetFrames + 1) }, 'big.json'),
        (e: Error) =>
            e instanceof RangeError &&
            e.message ===
                `big.json lists ${limits.sheetFrames + 1} frames, more than the ${limits.sheetFrames} ` +
                    'one sheet JSON may have (limits.sheetFrames); split it into several sheets.'
    );
    const hash = Object.fromEntries(nulls(limits.sheetFrames + 1).map((v, i) => [`f${i}`, v]));
    assert.throws(() => parseSheetJson({ frames: hash }), /lists 131073 frames, more than the 131072/);
    assert.throws(
        () => parseSheetJson({ frames: [cell(0)], meta: { slices: nulls(limits.sheetSlices + 1) } }),
        (e: Error) => e instanceof RangeError && /meta.slices lists 16385 slices, more than the 16384/.test(e.message)
    );
    assert.throws(
        () => parseSheetJson({ frames: [cell(0)], meta: { slices: [{ name: 's', keys: nulls(2 ** 18 + 1) }] } }),
        (e: Error) => e instanceof RangeError && /at least 262145 hit-boxes .*limits.sheetBoxes/.test(e.message)
    );
    // The file: 20,000 frames, 500 slices keyed at frame 0 (10 million boxes; 97 s and 5.6 GB before).
    // The slice after the one that passes the budget is not even an object: the count came first.
    const frames = Array.from({ length: 20000 }, (_, i) => cell(i));
    const slices: unknown[] = Array.from({ length: 500 }, (_, i) => ({ name: `s${i}`, keys: [key(0)] }));
    slices[14] = null;
    assert.throws(
        () => parseSheetJson({ frames, meta: { slices } }),
        (e: Error) =>
            e instanceof RangeError &&
            e.message.startsWith('atlas JSON: meta.slices give at least 280014 hit-boxes') &&
            e.message.includes(`more than the ${limits.sheetBoxes} one sheet JSON may have`)
    );
    // At the budget: every frame gets its key's own box object, and a key holds until the next one.
    const n = limits.sheetBoxes / 2 - 2;
    const layout = parseSheetJson({
        frames: Array.from({ length: n }, (_, i) => cell(i)),
        meta: {
            slices: [
                { name: 'a', keys: [key(0), key(n - 1)] },
                { name: 'b', keys: [key(n - 1), key(2)] }
            ]
        }
    });
    assert.equal(
        layout.frames.reduce((sum, f) => sum + f.boxes.length, 0),
        n + n - 2
    );
    assert.equal(layout.frames[1].boxes[0], layout.frames[n - 2].boxes[0]);
    assert.notEqual(layout.frames[n - 2].boxes[0], layout.frames[n - 1].boxes[0]);
    assert.deepEqual(
        layout.frames.slice(0, 3).map(f => f.boxes.map(b => b.name)),
        [['a'], ['a'], ['a', 'b']]
    );
});

test('atlas JSON: a frame whose trimmed pixels do not lie inside its sourceSize is refused, naming the frame', () => {
    const sheet = (x: number, y: number, w = 4, h = 3, sw = 8, sh = 6, rotated = false) => ({
        frames: [
            { filename: 'ok', frame: { x: 0, y: 0, w: 2, h: 2 } },
            {
                filename: 'hero/run 1',
                frame: { x: 0, y: 0, w, h },
                rotated,
                spriteSourceSize: { x, y, w, h },
                sourceSize: { w: sw, h: sh }
            }
        ]
    });
    // Inside, up to the edges (a rotated frame's w and h are its unrotated size): accepted.
    assert.equal(parseSheetJson(sheet(4, 3)).frames[1].offsetX, 4);
    assert.equal(parseSheetJson(sheet(0, 0, 8, 6)).frames[1].sourceWidth, 8);
    assert.equal(parseSheetJson(sheet(4, 3, 4, 3, 8, 6, true)).frames[1].width, 3);
    for (const [x, y, w, h, sw, sh] of [
        [2e9, 0, 4, 3, 8, 6],
        [-9, 0, 4, 3, 8, 6],
        [0, -1, 4, 3, 8, 6],
        [5, 0, 4, 3, 8, 6],
        [0, 4, 4, 3, 8, 6],
        [0, 0, 9, 3, 8, 6],
        [0, 0, 4, 3, 0, 0]
    ]) {
        assert.throws(
            () => parseSheetJson(sheet(x, y, w, h, sw, sh)),
            (e: unknown) =>
                e instanceof Error &&
                !(e instanceof RangeError) &&
                e.message ===
                    `atlas JSON: frames[1] (frame "hero/run 1"): its trimmed pixels, ${w}x${h} at ${x},${y} ` +
                        `(spriteSourceSize.x, .y), do not lie inside its sourceSize ${sw}x${sh}; ` +
                        'expected offsets of 0 or more with the pixels ending within sourceSize.',
            `${w}x${h} at ${x},${y} in ${sw}x${sh}`
        );
    }
});

test('buildAtlas: sources list every file read; unrelated JSON in folders becomes a note; meta.image stays inside the input folders', async () => {
    const base = join(dir, 'safety');
    mkdirSync(join(base, 'art', 'sub'), { recursive: true });
    mkdirSync(join(base, 'elsewhere'));
    writeFileSync(join(base, 'art', 'shot.gif'), readFileSync(new URL('shot.gif', SPRITES)));
    writeFileSync(join(base, 'art', 'sub', 'tsconfig.json'), '{ "compilerOptions": {} }');
    writeFileSync(join(base, 'art', 'list.json'), '[1, 2]');
    const { atlas, sources, notes } = await buildAtlas(['art'], { cwd: base });
    assert.deepEqual(atlas.names, ['shot']);
    assert.deepEqual(notes, [
        `skipped ${join('art', 'list.json')}: no "frames", so not a TexturePacker or Aseprite sheet`,
        `skipped ${join('art', 'sub', 'tsconfig.json')}: no "frames", so not a TexturePacker or Aseprite sheet`
    ]);
    assert.deepEqual(sources.sort(), [
        join(base, 'art', 'list.json'),
        join(base, 'art', 'shot.gif'),
        join(base, 'art', 'sub', 'tsconfig.json')
    ]);
    // Named explicitly, a JSON that is not a layout is an error.
    await assert.rejects(buildAtlas(['art/list.json'], { cwd: base }), /list\.json must be an object, got Array\(2\)/);

    writeFileSync(join(base, 'elsewhere', 'sheet.png'), readFileSync(join(dir, 'packed.png')));
    const layout = {
        frames: { shot: { frame: { x: 0, y: 0, w: 9, h: 18 } } },
        meta: { image: '../elsewhere/sheet.png' }
    };
    writeFileSync(join(base, 'art', 'sheet.json'), JSON.stringify(layout));
    await assert.rejects(
        buildAtlas([join(base, 'art', 'sheet.json')]),
        /sheet\.json: meta\.image "\.\.\/elsewhere\/sheet\.png" is .*elsewhere\/sheet\.png, outside the input folders/
    );
    const allowed = await buildAtlas([join(base, 'art', 'sheet.json')], { allowOutsideImages: true });
    assert.deepEqual(allowed.atlas.names, ['shot']);
    assert.deepEqual(allowed.sources, [join(base, 'art', 'sheet.json'), join(base, 'elsewhere', 'sheet.png')]);
    // A folder input next to it makes it an input folder.
    const both = await buildAtlas([join(base, 'art', 'sheet.json'), join(base, 'elsewhere')]);
    assert.deepEqual(both.atlas.names, ['shot']);
});
