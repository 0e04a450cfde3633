// The engine adapters keep one function set: hitmask/phaser, hitmask/pixi, hitmask/kaplay and hitmask/excalibur all
// satisfy HitmaskAdapter (checked by tsc, which compiles this file), export the same functions at run time, and
// nothing else but the documented engine-specific names and the deprecated aliases; the aliases answer as their replacements and warn once. In
// Node, with stand-ins for the engines' frames and textures (the browser tests use the real engines).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as Phaser from 'phaser';
import type { Texture } from 'pixi.js';
import * as phaser from '../src/phaser.js';
import * as pixi from '../src/pixi.js';
import type { HitmaskAdapter, PhaserTypes } from '../src/phaser.js';
import type { PixiTypes } from '../src/pixi.js';
import * as kaplay from '../src/kaplay.js';
import * as excalibur from '../src/excalibur.js';
import type { KaplayTypes } from '../src/kaplay.js';
import type { ExcaliburTypes } from '../src/excalibur.js';
import { Mask, MaskAtlas } from '../src/index.js';

// Type level: each entry point is a HitmaskAdapter (tsc fails here when a function is missing or differs).
const phaserAdapter: HitmaskAdapter<PhaserTypes> = phaser;
const pixiAdapter: HitmaskAdapter<PixiTypes> = pixi;
const kaplayAdapter: HitmaskAdapter<KaplayTypes> = kaplay;
const excaliburAdapter: HitmaskAdapter<ExcaliburTypes> = excalibur;

// The adapter's functions, as a record that tsc holds to exactly the keys of HitmaskAdapter (a missing or an extra
// key fails to compile), so that the run-time lists below follow the type.
const ADAPTER: Record<keyof HitmaskAdapter<PhaserTypes>, true> = {
    overlaps: true,
    overlap: true,
    hitmaskFor: true,
    hitTest: true,
    pixelHitArea: true,
    drawHitmask: true,
    shapeOf: true,
    frameMask: true,
    setFrameMask: true,
    forgetFrameMask: true,
    setAlphaThreshold: true,
    addMaskAtlas: true,
    maskAtlasFor: true,
    placeSprite: true,
    poseBounds: true,
    defaultTransformCache: true
};

// What each entry exports besides the adapter's functions: engine-specific functions and deprecated aliases (to go
// in 0.5.0). tsc holds these records to exactly the entries' other value exports too.
type Others<M> = Exclude<keyof M, keyof HitmaskAdapter<PhaserTypes>>;
const PHASER_ONLY: Record<Others<typeof phaser>, 'engine-specific' | 'deprecated'> = {
    registerHitmaskLoader: 'engine-specific',
    spritePose: 'deprecated',
    spritesOverlap: 'deprecated'
};
const PIXI_ONLY: Record<Others<typeof pixi>, 'engine-specific' | 'deprecated'> = {
    spritesOverlap: 'deprecated'
};
const KAPLAY_ONLY: Record<Others<typeof kaplay>, 'engine-specific' | 'deprecated'> = {
    hitmaskPlugin: 'engine-specific',
    pixelArea: 'engine-specific'
};
const EXCALIBUR_ONLY: Record<Others<typeof excalibur>, 'engine-specific' | 'deprecated'> = {
    pixelCollisions: 'engine-specific'
};
// The newer adapters, with what each exports besides the adapter's functions.
const NEWER = [
    ['kaplay', kaplay as Record<string, unknown>, KAPLAY_ONLY],
    ['excalibur', excalibur as Record<string, unknown>, EXCALIBUR_ONLY]
] as const;

const sorted = (names: Iterable<string>) => [...names].sort();

// Captures console.warn while `run` runs.
function warnings(run: () => void): string[] {
    const got: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void got.push(args.join(' '));
    try {
        run();
    } finally {
        console.warn = warn;
    }
    return got;
}

const deprecation = (old: string, now: string) =>
    `hitmask: ${old} is deprecated and will be removed in 0.5.0; use ${now} instead.`;

test('adapters: hitmask/phaser and hitmask/pixi export the same functions, and only the listed others', () => {
    assert.equal(typeof phaserAdapter.overlaps, 'function');
    assert.equal(typeof pixiAdapter.overlaps, 'function');
    const fns = sorted(Object.keys(ADAPTER));
    const phaserNames = Object.keys(phaser),
        pixiNames = Object.keys(pixi);
    assert.deepEqual(sorted(phaserNames.filter(n => !(n in PHASER_ONLY))), fns);
    assert.deepEqual(sorted(pixiNames.filter(n => !(n in PIXI_ONLY))), fns);
    assert.deepEqual(sorted(phaserNames), sorted([...fns, ...Object.keys(PHASER_ONLY)]));
    assert.deepEqual(sorted(pixiNames), sorted([...fns, ...Object.keys(PIXI_ONLY)]));
    for (const n of fns) {
        assert.equal(typeof (phaser as Record<string, unknown>)[n], 'function', `hitmask/phaser ${n}`);
        assert.equal(typeof (pixi as Record<string, unknown>)[n], 'function', `hitmask/pixi ${n}`);
    }
    // The engine-neutral ones are the same functions.
    for (const n of ['placeSprite', 'poseBounds', 'defaultTransformCache'] as const) assert.equal(phaser[n], pixi[n]);
    // Every engine-specific name is one: only hitmask/pixi lacks it.
    for (const [n, why] of Object.entries(PHASER_ONLY)) if (why === 'engine-specific') assert.ok(!(n in pixi));
    // hitmask/kaplay and hitmask/excalibur: the same functions, the engine-neutral ones the same objects, and only
    // their listed others (no deprecated alias: they are new).
    assert.equal(typeof kaplayAdapter.overlaps, 'function');
    assert.equal(typeof excaliburAdapter.overlaps, 'function');
    for (const [name, mod, only] of NEWER) {
        assert.deepEqual(sorted(Object.keys(mod)), sorted([...fns, ...Object.keys(only)]), name);
        for (const n of fns) assert.equal(typeof mod[n], 'function', `hitmask/${name} ${n}`);
        for (const n of ['placeSprite', 'poseBounds', 'defaultTransformCache'] as const)
            assert.equal(mod[n], phaser[n], `hitmask/${name} ${n}`);
        assert.ok(!Object.values(only).includes('deprecated'), name);
    }
});

// A Phaser game with one loaded single-image texture, and a frame of it (what frameMask reads).
function phaserStandIn(key: string, width: number, height: number) {
    const game = {
        textures: {
            exists: (k: string) => k === key,
            get: () => ({ getFrameNames: (base?: boolean) => (base ? ['__BASE'] : []) })
        }
    } as unknown as Phaser.Game;
    const frame = {
        texture: { key, manager: { game } },
        name: '__BASE',
        realWidth: width,
        realHeight: height,
        customPivot: false
    } as unknown as Phaser.Textures.Frame;
    return { game, frame };
}

test('adapters: addMaskAtlas(atlas, textures, host?) binds and counts the frames it serves, in both adapters', () => {
    const atlas = new MaskAtlas().add('ship', Mask.fromText('##\n#.\n'), {
        x: 1,
        y: 0,
        sourceWidth: 4,
        sourceHeight: 3
    });
    // Phaser: texture keys and the game; a key not loaded yet binds too, and counts no frame.
    const { game, frame } = phaserStandIn('ship', 4, 3);
    assert.equal(phaser.maskAtlasFor(frame), undefined);
    assert.equal(phaser.addMaskAtlas(atlas, ['ship', 'later'], game), 1);
    assert.equal(phaser.maskAtlasFor(frame), atlas);
    assert.deepEqual(phaser.frameMask(frame), {
        mask: atlas.get('ship'),
        x: 1,
        y: 0,
        width: 4,
        height: 3,
        source: 'atlas'
    });
    // PixiJS: textures by name; no host.
    const texture = {
        orig: { width: 4, height: 3 },
        frame: { x: 0, y: 0, width: 4, height: 3 },
        source: {},
        destroyed: false
    } as unknown as Texture;
    assert.equal(pixi.addMaskAtlas(atlas, { ship: texture, other: texture }), 1);
    assert.equal(pixi.maskAtlasFor(texture), atlas);
    assert.equal(pixi.frameMask(texture).source, 'atlas');
    pixi.setFrameMask(texture, new Mask(1, 1, true));
    assert.equal(pixi.maskAtlasFor(texture), undefined, 'a mask of your own comes from no atlas');
    assert.equal(pixi.addMaskAtlas(atlas, new Map([['ship', texture]])), 1);
    pixi.forgetFrameMask(texture);
    assert.equal(pixi.maskAtlasFor(texture), undefined);
});

test("adapters: Phaser's 0.3 call forms (addMaskAtlas(game, …), maskAtlasFor(game, key), spritePose) still work and warn once each", () => {
    const atlas = new MaskAtlas().add('rock', new Mask(3, 3, true), { sourceWidth: 3, sourceHeight: 3 });
    const { game, frame } = phaserStandIn('rock', 3, 3);
    const sprite: phaser.PhaserSpriteLike = {
        frame,
        x: 10,
        y: 20,
        displayOriginX: 1.5,
        displayOriginY: 1.5,
        scaleX: 2,
        scaleY: 1,
        rotation: 0.25,
        flipX: true,
        flipY: false
    };
    const got = warnings(() => {
        for (let i = 0; i < 2; i++) {
            assert.equal(phaser.addMaskAtlas(game, atlas, 'rock'), 1);
            assert.equal(phaser.maskAtlasFor(game, 'rock'), atlas);
            assert.deepEqual(phaser.spritePose(sprite), phaser.shapeOf(sprite).pose);
        }
    });
    assert.deepEqual(got, [
        deprecation('addMaskAtlas(game, atlas, textures)', 'addMaskAtlas(atlas, textures, game)'),
        deprecation('maskAtlasFor(game, textureKey)', 'maskAtlasFor(frame)'),
        deprecation('spritePose(sprite)', 'shapeOf(sprite).pose')
    ]);
    assert.equal(phaser.maskAtlasFor(frame), atlas);
    // The new forms warn about nothing.
    assert.deepEqual(
        warnings(() => phaser.addMaskAtlas(atlas, 'rock', game)),
        []
    );
});

test('adapters: every function that tests an object takes a posed mask ({ mask, pose }) too, with the same answers', () => {
    const m = Mask.fromText('.##\n###\n##.\n');
    const a = { mask: m, pose: { x: 10, y: 10, originX: 1.5, originY: 1.5, scaleX: 2, scaleY: 2, angle: 0.7 } },
        b = { mask: m, pose: { ...a.pose, x: 14 } };
    for (const [name, adapter] of [
        ['phaser', phaserAdapter as HitmaskAdapter<PhaserTypes>],
        ['pixi', pixiAdapter as unknown as HitmaskAdapter<PhaserTypes>],
        ['kaplay', kaplayAdapter as unknown as HitmaskAdapter<PhaserTypes>],
        ['excalibur', excaliburAdapter as unknown as HitmaskAdapter<PhaserTypes>]
    ] as const) {
        assert.equal(adapter.shapeOf(a), a, name);
        const placed = adapter.placeSprite(m, a.pose);
        assert.deepEqual(adapter.hitmaskFor(a), placed, name);
        assert.equal(adapter.overlaps(a, b), true, name);
        assert.equal(adapter.overlaps(a, { ...b, pose: { ...b.pose, x: 40 } }), false, name);
        const first = adapter.overlap(a, b);
        assert.ok(first && adapter.hitTest(a, first.x + 0.5, first.y + 0.5) && adapter.hitTest(b, first.x, first.y));
        assert.equal(adapter.hitTest(a, placed.x - 1, placed.y), false, name);
    }
});

test('adapters: a destroyed sprite touches nothing in every adapter (false, null), and hitmaskFor names it', () => {
    const live = {
        mask: new Mask(4, 4, true),
        pose: { x: 0, y: 0, originX: 0, originY: 0, scaleX: 1, scaleY: 1, angle: 0 }
    };
    // What destroy() leaves: PixiJS 7 and 8 flag `destroyed` and drop the texture and the anchor; Phaser 4 flags
    // `isDestroyed` (Phaser 3 takes the scene away).
    // Kaplay: a destroyed object no longer exists() in the scene; Excalibur: a killed actor isKilled().
    const gone = {
        phaser: { isDestroyed: true, scene: undefined, destroy: () => undefined },
        pixi: { destroyed: true, texture: null, anchor: null },
        kaplay: { exists: () => false, sprite: 'bean', frame: 0, flipX: false, flipY: false, parent: null },
        excalibur: { isKilled: () => true, graphics: {}, transform: {} }
    };
    for (const [name, adapter] of [
        ['phaser', phaserAdapter as HitmaskAdapter<PhaserTypes>],
        ['pixi', pixiAdapter as unknown as HitmaskAdapter<PhaserTypes>],
        ['kaplay', kaplayAdapter as unknown as HitmaskAdapter<PhaserTypes>],
        ['excalibur', excaliburAdapter as unknown as HitmaskAdapter<PhaserTypes>]
    ] as const) {
        const dead = gone[name] as unknown as Phaser.GameObjects.Sprite;
        assert.equal(adapter.overlaps(dead, live), false, name);
        assert.equal(adapter.overlaps(live, dead), false, name);
        assert.equal(adapter.overlap(dead, live), null, name);
        assert.equal(adapter.hitTest(dead, 1, 1), false, name);
        assert.throws(() => adapter.hitmaskFor(dead), /^Error: .*was destroyed/, name);
        assert.throws(() => adapter.shapeOf(dead), /^Error: .*was destroyed/, name);
    }
});

test("an Arcade body with a size that is not finite is refused naming the body's size, not an internal mask", () => {
    // Stand-ins for Arcade bodies: what the adapter reads of one.
    const body = (width: number, height: number) =>
        ({ x: 0, y: 0, width, height }) as unknown as Phaser.Physics.Arcade.Body;
    assert.throws(() => phaser.shapeOf(body(NaN, 8)), {
        name: 'RangeError',
        message: 'body.width must be a finite number, got NaN.'
    });
    assert.throws(
        () =>
            phaser.overlaps(body(8, 8), {
                body: body(8, Infinity)
            } as unknown as Phaser.Types.Physics.Arcade.GameObjectWithBody),
        {
            name: 'RangeError',
            message: 'body.height must be a finite number, got Infinity.'
        }
    );
    assert.throws(
        () =>
            phaser.overlaps(body(8, 8), {
                body: { ...body(8, 8), x: NaN }
            } as unknown as Phaser.Types.Physics.Arcade.GameObjectWithBody),
        /^RangeError: body.x must/
    );
    assert.throws(() => phaser.shapeOf(body(2 ** 40, 1)), /^RangeError: body.width in whole pixels must be an integer/);
    assert.equal(phaser.overlaps(body(8, 8), body(8, 8)), true);
});

test('phaser: a frame stored rotated in its atlas warns once, naming the frame and the packer option', t => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const { game, frame } = phaserStandIn('packed', 4, 3);
    const rotated = Object.assign(frame, { rotated: true });
    const why =
        'texture "packed" frame "__BASE" is stored rotated in its atlas (the packer\'s "Allow rotation", rotated: ' +
        'true), which Phaser does not draw upright: what it shows differs from any mask; pack the atlas again with ' +
        'rotation off';
    // Its pixels are not read: an Error, and no mask (the advice is to repack, not a .hitmask atlas).
    assert.throws(() => phaser.frameMask(rotated), { name: 'Error', message: `${why}.` });
    assert.equal(warn.mock.callCount(), 0);
    // With a mask from an atlas (or setFrameMask) the frame works, and says once what the player will see.
    phaser.addMaskAtlas(new MaskAtlas().add('packed', new Mask(4, 3, true)), 'packed', game);
    for (let i = 0; i < 3; i++) assert.equal(phaser.frameMask(rotated).mask.count(), 12);
    assert.deepEqual(
        warn.mock.calls.map(c => c.arguments),
        [[`hitmask: ${why}.`]]
    );
    const other = phaserStandIn('upright', 4, 3);
    phaser.setFrameMask(other.frame, new Mask(4, 3, true));
    phaser.frameMask(other.frame);
    assert.equal(warn.mock.callCount(), 1, 'an upright frame does not warn');
});
