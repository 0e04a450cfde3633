// A small platformer with hitmask and PixiJS 8: the level is a Tiled map (examples/levels/level.tmj) whose
// collision hitmask/tiled's `loadTiledMap` fetches and builds (the collision editor's shapes, the cells' flips);
// PixiJS draws the map's tiles and the hero; the hero's mask comes from hitmask/pixi (`hitmaskFor`: its mask as
// drawn, scaled, and its top-left), and `moveAndSlide` walks it up slopes, lands it, and never lets it into the
// ground. An auto-pilot walks, jumps and turns. Run: npm run example -- pixi-move (bundles this file, serves
// examples/ on localhost). The same moves with Phaser 4: examples/phaser-move/main.ts.
import { Application, Assets, Graphics, Sprite, Texture } from 'pixi.js';
import { moveAndSlide, type MoveResult } from '../../src/index.js'; // in a game: from 'hitmask'
import { loadTiledMap } from '../../src/tiled.js'; // in a game: from 'hitmask/tiled'
import { GRAVITY, H, JUMP, LEVEL, levelSolid, solidPixels, SPEED, TILESET_IMAGE, W } from '../move-terrain.js';
import { drawHitmask, hitmaskFor } from '../../src/pixi.js'; // in a game: from 'hitmask/pixi'

interface TiledJson {
    tilewidth: number;
    tileheight: number;
    tilesets: { firstgid: number; columns: number }[];
    layers: { name: string; width: number; data?: number[] }[];
}

// Draws the map's tile layer `name` on a canvas as Tiled does: each cell's tile cut from the tileset image, turned
// by its gid's flip bits (anti-diagonal first: x and y swap; then horizontal, then vertical).
function drawLayer(map: TiledJson, name: string, image: CanvasImageSource): HTMLCanvasElement {
    const tw = map.tilewidth,
        th = map.tileheight,
        { firstgid, columns } = map.tilesets[0];
    const layer = map.layers.find(l => l.name === name);
    const canvas = document.createElement('canvas');
    canvas.width = W;
    canvas.height = H;
    const g = canvas.getContext('2d') as CanvasRenderingContext2D;
    (layer?.data ?? []).forEach((gid, k) => {
        if (gid === 0) return;
        const id = (gid & 0x0fffffff) - firstgid,
            h = gid & 0x80000000 ? -1 : 1,
            v = gid & 0x40000000 ? -1 : 1;
        // The flip as a matrix about the cell's centre: [[0, h], [v, 0]] with the anti-diagonal, else [[h, 0], [0, v]].
        const cx = (k % layer!.width) * tw + tw / 2,
            cy = Math.floor(k / layer!.width) * th + th / 2;
        if (gid & 0x20000000) g.setTransform(0, v, h, 0, cx, cy);
        else g.setTransform(h, 0, 0, v, cx, cy);
        g.drawImage(image, (id % columns) * tw, Math.floor(id / columns) * th, tw, th, -tw / 2, -th / 2, tw, th);
    });
    return canvas;
}

// The collision, fetched and built by hitmask; the same map's JSON and tileset image for PixiJS to draw.
const [level, map, tileset] = await Promise.all([
    loadTiledMap(LEVEL, { solid: levelSolid }),
    fetch(LEVEL).then(r => r.json() as Promise<TiledJson>),
    Assets.load<Texture>(TILESET_IMAGE)
]);
const terrain = level.layer('ground');
const spawn = level.objects.find(o => o.name === 'hero') ?? { x: 80, y: 60 };
const canvas = drawLayer(map, 'ground', tileset.source.resource as CanvasImageSource);

const app = new Application();
await app.init({ width: W, height: H, background: '#223', preference: 'webgl' });
document.getElementById('stage')?.appendChild(app.canvas);
const hero = new Sprite({
    texture: await Assets.load<Texture>('../sprites/alien2.png'),
    anchor: 0.5,
    x: spawn.x,
    y: spawn.y,
    scale: 0.5
});
const debug = new Graphics();
app.stage.addChild(new Sprite(Texture.from(canvas)), hero, debug);

const status = document.getElementById('status');
const stats = { frames: 0, moves: 0, climbs: 0, landings: 0, jumps: 0, inside: 0, solid: solidPixels(terrain) };
const r: MoveResult = { x: 0, y: 0, onFloor: false, onCeiling: false, onWall: false, floor: null };
// Sub-pixel remainders: the hero moves whole pixels, so its placed mask is exactly where moveAndSlide left it.
let vx = SPEED,
    vy = 0,
    remX = 0,
    remY = 0,
    lastJump = -1000;

app.ticker.add(() => {
    // The auto-pilot: jump at a wall (turn if it was just jumped at) and every few seconds; gravity always.
    if (r.onFloor && (r.onWall || stats.frames % 150 === 0)) {
        if (r.onWall && stats.frames - lastJump < 60) vx = -vx;
        else {
            vy = JUMP;
            lastJump = stats.frames;
            stats.jumps++;
        }
    }
    vy = Math.min(vy + GRAVITY, 8);
    remX += vx;
    remY += vy;
    const dx = Math.round(remX),
        dy = Math.round(remY);
    remX -= dx;
    remY -= dy;

    // The hero's mask as PixiJS draws it, moved against the terrain; the difference goes back to the sprite.
    const placed = hitmaskFor(hero);
    const wasOnFloor = r.onFloor;
    moveAndSlide(terrain, placed.mask, placed.x, placed.y, dx, dy, { stepUp: 3, snapDown: 3 }, r);
    hero.x += r.x - placed.x;
    hero.y += r.y - placed.y;
    if (r.onFloor || (r.onCeiling && vy < 0)) {
        vy = 0;
        remY = 0;
    }

    stats.frames++;
    if (r.x !== placed.x || r.y !== placed.y) stats.moves++;
    if (dy >= 0 && r.y < placed.y) stats.climbs++; // only stepUp lifts a hero that is not jumping
    if (r.onFloor && !wasOnFloor) stats.landings++;
    const now = hitmaskFor(hero);
    if (terrain.overlaps(now.mask, now.x, now.y)) stats.inside++;

    debug.clear();
    drawHitmask(debug, hero, { color: null, outline: r.onFloor ? 0x40ff40 : 0xffff40 });
    if (status) {
        Object.assign(status.dataset, stats);
        status.textContent = `PixiJS platformer: frames ${stats.frames}, moves ${stats.moves}, climbs ${stats.climbs}, jumps ${stats.jumps}, landings ${stats.landings}, frames inside the terrain ${stats.inside}, solid pixels of the Tiled level ${stats.solid}`;
    }
});
