// A small platformer with hitmask and Phaser 4: Phaser draws the terrain and the hero; the terrain's collision
// mask is read from the same canvas pixels, the hero's comes from hitmask/phaser (`hitmaskFor`: its mask as
// drawn, scaled, and its top-left), and `moveAndSlide` walks it up slopes and steps, lands it, and never lets it
// into the ground. An auto-pilot walks, jumps and turns. Run: npm run example -- phaser-move (bundles this file,
// serves examples/ on localhost). The same moves with PixiJS 8: examples/pixi-move/main.ts.
import Phaser from 'phaser';
import { moveAndSlide, type MoveResult } from '../../src/index.js'; // in a game: from 'hitmask'
import { drawTerrain, GRAVITY, H, JUMP, SPEED, terrainLayer, W } from '../move-terrain.js';
import { drawHitmask, hitmaskFor } from '../../src/phaser.js'; // in a game: from 'hitmask/phaser'

const canvas = drawTerrain();
const terrain = terrainLayer(canvas);

const status = document.getElementById('status');
const stats = { frames: 0, moves: 0, climbs: 0, landings: 0, jumps: 0, inside: 0 };

class Platformer extends Phaser.Scene {
    private hero!: Phaser.GameObjects.Sprite;
    private debug!: Phaser.GameObjects.Graphics;
    private result: MoveResult = { x: 0, y: 0, onFloor: false, onCeiling: false, onWall: false, floor: null };
    private vx = SPEED;
    private vy = 0;
    // Sub-pixel remainders: the hero moves whole pixels, so its placed mask is exactly where moveAndSlide left it.
    private remX = 0;
    private remY = 0;
    private lastJump = -1000;

    preload(): void {
        this.load.image('hero', '../sprites/alien2.png');
    }

    create(): void {
        this.textures.addCanvas('terrain', canvas);
        this.add.image(0, 0, 'terrain').setOrigin(0);
        this.hero = this.add.sprite(80, 60, 'hero').setScale(0.5);
        this.debug = this.add.graphics();
    }

    override update(): void {
        // The auto-pilot: jump at a wall (turn if it was just jumped at) and every few seconds; gravity always.
        const r = this.result;
        if (r.onFloor && (r.onWall || stats.frames % 150 === 0)) {
            if (r.onWall && stats.frames - this.lastJump < 60) this.vx = -this.vx;
            else {
                this.vy = JUMP;
                this.lastJump = stats.frames;
                stats.jumps++;
            }
        }
        this.vy = Math.min(this.vy + GRAVITY, 8);
        this.remX += this.vx;
        this.remY += this.vy;
        const dx = Math.round(this.remX),
            dy = Math.round(this.remY);
        this.remX -= dx;
        this.remY -= dy;

        // The hero's mask as Phaser draws it, moved against the terrain; the difference goes back to the sprite.
        const placed = hitmaskFor(this.hero);
        const wasOnFloor = r.onFloor;
        moveAndSlide(terrain, placed.mask, placed.x, placed.y, dx, dy, { stepUp: 3, snapDown: 3 }, r);
        this.hero.x += r.x - placed.x;
        this.hero.y += r.y - placed.y;
        if (r.onFloor || (r.onCeiling && this.vy < 0)) {
            this.vy = 0;
            this.remY = 0;
        }

        stats.frames++;
        if (r.x !== placed.x || r.y !== placed.y) stats.moves++;
        if (dy >= 0 && r.y < placed.y) stats.climbs++; // only stepUp lifts a hero that is not jumping
        if (r.onFloor && !wasOnFloor) stats.landings++;
        const now = hitmaskFor(this.hero);
        if (terrain.overlaps(now.mask, now.x, now.y)) stats.inside++;

        this.debug.clear();
        drawHitmask(this.debug, this.hero, { color: null, outline: r.onFloor ? 0x40ff40 : 0xffff40 });
        if (status) {
            Object.assign(status.dataset, stats);
            status.textContent = `Phaser platformer: frames ${stats.frames}, moves ${stats.moves}, climbs ${stats.climbs}, jumps ${stats.jumps}, landings ${stats.landings}, frames inside the terrain ${stats.inside}`;
        }
    }
}

new Phaser.Game({
    type: Phaser.AUTO, // WebGL, or Canvas where WebGL is unavailable
    width: W,
    height: H,
    parent: 'game',
    backgroundColor: '#223',
    banner: false,
    scene: Platformer
});
