// A small platformer with hitmask and PixiJS 8: PixiJS draws the terrain and the hero; the terrain's collision
// mask is read from the same canvas pixels, the hero's comes from hitmask/pixi (`hitmaskFor`: its mask as drawn,
// scaled, and its top-left), and `moveAndSlide` walks it up slopes and steps, lands it, and never lets it into
// the ground. An auto-pilot walks, jumps and turns. Run: npm run example -- pixi-move (bundles this file, serves
// examples/ on localhost). The same moves with Phaser 4: examples/phaser-move/main.ts.
import { Application, Assets, Graphics, Sprite, Texture } from 'pixi.js';
import { moveAndSlide, type MoveResult } from '../../src/index.js'; // in a game: from 'hitmask'
import { drawTerrain, GRAVITY, H, JUMP, SPEED, terrainLayer, W } from '../move-terrain.js';
import { drawHitmask, hitmaskFor } from '../../src/pixi.js'; // in a game: from 'hitmask/pixi'

const canvas = drawTerrain();
const terrain = terrainLayer(canvas);

const app = new Application();
await app.init({ width: W, height: H, background: '#223', preference: 'webgl' });
document.getElementById('stage')?.appendChild(app.canvas);
const hero = new Sprite({
    texture: await Assets.load<Texture>('../sprites/alien2.png'),
    anchor: 0.5,
    x: 80,
    y: 60,
    scale: 0.5
});
const debug = new Graphics();
app.stage.addChild(new Sprite(Texture.from(canvas)), hero, debug);

const status = document.getElementById('status');
const stats = { frames: 0, moves: 0, climbs: 0, landings: 0, jumps: 0, inside: 0 };
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
        status.textContent = `PixiJS platformer: frames ${stats.frames}, moves ${stats.moves}, climbs ${stats.climbs}, jumps ${stats.jumps}, landings ${stats.landings}, frames inside the terrain ${stats.inside}`;
    }
});
