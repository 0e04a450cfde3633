// moveAndSlide on real game terrain the repository does not contain: Hedgewars' maps (Debian's
// hedgewars-data, installed by .ci/apt-packages), 2048 to 4096 px wide, with its hedgehog, mine and crate
// sprites as walkers. Hundreds of walkers walk, climb, jump, land on one-way platforms and fall while
// craters are carved into the terrain; every move must equal the per-pixel rules (test/move-reference.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
    CollisionRaster,
    Mask,
    moveAndSlide,
    crop,
    type CollisionLayer,
    type MoveOptions,
    type MoveResult
} from '../src/index.js';
import { decodeImage } from '../src/node.js';
import { referenceMove } from './move-reference.js';
import { mulberry32 } from './reference.js';
import { tileMapOf } from './tiles.js';

const DATA = '/usr/share/games/hedgewars/Data';
const skip = existsSync(join(DATA, 'Maps'))
    ? false
    : `${DATA} is missing (CI installs Debian's hedgewars-data from .ci/apt-packages; locally: apt-get install hedgewars-data)`;
// Maps of several sizes and styles (caves, islands, towers); more with HITMASK_MOVE_MAPS (a count, or "all").
const MAPS = ['Cave', 'Castle', 'Islands', 'Bamboo', 'Hogville'];

const mask = (file: string) => {
    const img = decodeImage(readFileSync(file));
    return Mask.fromRGBA(img.data, img.width, img.height);
};

function walkers(): Mask[] {
    // The hedgehog sheet is 8x8 frames of 32 px: take a few standing and walking poses, trimmed by their content.
    const sheet = mask(join(DATA, 'Graphics', 'Hedgehog.png'));
    const frames = [0, 1, 2, 9, 17].map(i => crop(sheet, (i % 8) * 32, Math.floor(i / 8) * 32, 32, 32));
    const others = ['MineOn.png', 'Case.png', 'FirstAid.png', 'Cake_walk.png']
        .filter(f => existsSync(join(DATA, 'Graphics', f)))
        .map(f => {
            const m = mask(join(DATA, 'Graphics', f));
            return m.width > 64 || m.height > 64 ? crop(m, 0, 0, Math.min(m.width, 32), Math.min(m.height, 32)) : m;
        });
    return [...frames, ...others].filter(m => m.count() > 0);
}

test(
    'real terrain (Hedgewars maps): crowds of walkers, jumps, falls, one-way platforms and craters equal the per-pixel rules',
    { skip },
    t => {
        const wanted = process.env.HITMASK_MOVE_MAPS;
        const all = readdirSync(join(DATA, 'Maps'))
            .filter(m => existsSync(join(DATA, 'Maps', m, 'map.png')))
            .sort();
        const names =
            wanted === 'all' ? all : wanted ? all.slice(0, Number(wanted)) : MAPS.filter(m => all.includes(m));
        assert.ok(names.length > 0, 'maps found');
        const shapes = walkers();
        assert.ok(shapes.length >= 5, `${shapes.length} walker shapes`);
        let moves = 0,
            long = 0,
            stops = 0,
            onOneWay = 0;
        for (const [mi, name] of names.entries()) {
            const terrain = mask(join(DATA, 'Maps', name, 'map.png'));
            const rnd = mulberry32(1000 + mi);
            // Solid: a raster (carved as the walkers go). One-way: thin ledges in the air, as a second raster.
            const raster = new CollisionRaster(terrain.width, terrain.height).stamp(terrain, 0, 0),
                solid: CollisionLayer = raster.view();
            const ledges = new Mask(terrain.width, terrain.height);
            for (let k = 0; k < 40; k++) {
                const x0 = Math.floor(rnd() * terrain.width),
                    y = Math.floor(rnd() * terrain.height * 0.8),
                    len = 40 + Math.floor(rnd() * 200);
                for (let x = x0; x < Math.min(terrain.width, x0 + len); x++) {
                    ledges.set(x, y);
                    ledges.set(x, y + 1);
                }
            }
            const oneWay = new CollisionRaster(terrain.width, terrain.height).stamp(ledges, 0, 0).view();
            const crater = new Mask(41, 41);
            for (let y = 0; y < 41; y++)
                for (let x = 0; x < 41; x++) if ((x - 20) ** 2 + (y - 20) ** 2 <= 400) crater.set(x, y);
            const crowd = Array.from({ length: 250 }, (_, i) => ({
                mask: shapes[i % shapes.length],
                x: rnd() * (terrain.width - 40),
                y: rnd() * terrain.height * 0.5,
                vy: 0,
                dir: rnd() < 0.5 ? -1 : 1,
                r: null as MoveResult | null,
                options: {
                    stepUp: i % 3 === 0 ? 0 : 1 + (i % 4),
                    snapDown: i % 2 === 0 ? 0 : 3,
                    oneWay: i % 5 === 0 ? null : oneWay
                } as MoveOptions
            }));
            for (let f = 0; f < 160; f++) {
                if (f % 20 === 10)
                    raster.erase(
                        crater,
                        Math.floor(rnd() * terrain.width) - 20,
                        Math.floor(rnd() * terrain.height) - 20
                    );
                for (const w of crowd) {
                    w.vy = w.r?.onFloor ? (rnd() < 0.03 ? -8 : 0.5) : Math.min(w.vy + 0.5, 40);
                    if (w.r?.onWall || w.x < -32 || w.x > terrain.width) w.dir = -w.dir;
                    // Now and then a dash or a drop from the top of the map, in one call.
                    const dash = rnd() < 0.01,
                        drop = rnd() < 0.005;
                    const x = w.x,
                        y = drop ? -64 : w.y,
                        dx = w.dir * (dash ? 60 : 1.5),
                        dy = drop ? terrain.height : w.vy;
                    const got = moveAndSlide(solid, w.mask, x, y, dx, dy, w.options),
                        want = referenceMove(solid, w.mask, x, y, dx, dy, w.options);
                    assert.deepEqual(
                        got,
                        want,
                        `${name}: frame ${f}, a ${w.mask.width}x${w.mask.height} walker at (${x}, ${y}) by (${dx}, ${dy}) ${JSON.stringify({ ...w.options, oneWay: w.options.oneWay !== null })}`
                    );
                    moves++;
                    if (Math.abs(dx) >= 12 || Math.abs(dy) >= 12) long++;
                    if (got.onWall || (got.onFloor && dy > 0)) stops++;
                    if (got.floor === oneWay) onOneWay++;
                    w.r = got;
                    w.x = got.x;
                    w.y = got.y > terrain.height + 64 ? -64 : got.y;
                    if (got.onCeiling && w.vy < 0) w.vy = 0;
                }
            }
        }
        t.diagnostic(
            `${names.length} maps (${names.join(', ')}), ${shapes.length} walker shapes: ${moves} moves equal the reference (${long} of 12 px or more, ${stops} stopped by a contact, ${onOneWay} on one-way ledges)`
        );
        assert.ok(long > 100 && stops > 1000 && onOneWay > 100, 'the crowd ran into every rule');
    }
);

// A TileMap made from a real map gives the same moves as the raster (one map, for the tile seams).
test('real terrain as a 32-px TileMap: the same moves as on the raster', { skip }, () => {
    const terrain = mask(join(DATA, 'Maps', 'Cave', 'map.png'));
    const map = tileMapOf(terrain, 32),
        raster = new CollisionRaster(terrain.width, terrain.height).stamp(terrain, 0, 0).view();
    const rnd = mulberry32(5),
        shapes = walkers();
    for (let k = 0; k < 3000; k++) {
        const m = shapes[k % shapes.length],
            x = rnd() * terrain.width,
            y = rnd() * terrain.height,
            dx = (rnd() - 0.5) * 200,
            dy = (rnd() - 0.5) * 900;
        const options = { stepUp: k % 4, snapDown: k % 3 };
        const a = moveAndSlide(map, m, x, y, dx, dy, options),
            b = moveAndSlide(raster, m, x, y, dx, dy, options);
        assert.deepEqual({ ...a, floor: a.floor !== null }, { ...b, floor: b.floor !== null }, `move ${k}`);
    }
});
