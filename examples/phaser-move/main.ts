// A small platformer with hitmask and Phaser 4: Phaser loads a Tiled map (examples/levels/level.tmj) and draws it
// and the hero; the level's collision comes from hitmask/tiled's `tiledCollision` over the very JSON and tileset
// texture Phaser's loader cached (the collision editor's shapes, the cells' flips), the hero's from hitmask/phaser
// (`hitmaskFor`: its mask as drawn, scaled, and its top-left), and `moveAndSlide` walks it up slopes, lands it, and
// never lets it into the ground. An auto-pilot walks, jumps and turns. Run: npm run example -- phaser-move (bundles
// this file, serves examples/ on localhost). The same moves with PixiJS 8: examples/pixi-move/main.ts.
import Phaser from 'phaser';
import { moveAndSlide, type MoveResult, type TileMap } from '../../src/index.js'; // in a game: from 'hitmask'
import { tiledCollision } from '../../src/tiled.js'; // in a game: from 'hitmask/tiled'
import { GRAVITY, H, JUMP, LEVEL, levelSolid, solidPixels, SPEED, TILESET_IMAGE, W } from '../move-terrain.js';
import { drawHitmask, hitmaskFor } from '../../src/phaser.js'; // in a game: from 'hitmask/phaser'

const status = document.getElementById('status');
const stats = { frames: 0, moves: 0, climbs: 0, landings: 0, jumps: 0, inside: 0, solid: 0 };

class Platformer extends Phaser.Scene {
    private terrain!: TileMap;
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
        this.load.tilemapTiledJSON('level', LEVEL);
        this.load.image('terrain', TILESET_IMAGE);
    }

    create(): void {
        // Phaser draws the map: its tileset "terrain" from the texture 'terrain', flips and all.
        const map = this.make.tilemap({ key: 'level' });
        const tiles = map.addTilesetImage('terrain', 'terrain');
        if (tiles) map.createLayer('ground', tiles, 0, 0);
        // hitmask reads the same map from Phaser's caches: the parsed JSON, and the tileset image by tileset name.
        const level = tiledCollision(
            (this.cache.tilemap.get('level') as { data: object }).data,
            { images: { terrain: this.textures.get('terrain').getSourceImage() } },
            { solid: levelSolid }
        );
        this.terrain = level.layer('ground');
        stats.solid = solidPixels(this.terrain);
        const spawn = level.objects.find(o => o.name === 'hero') ?? { x: 80, y: 60 };
        this.hero = this.add.sprite(spawn.x, spawn.y, 'hero').setScale(0.5);
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
        moveAndSlide(this.terrain, placed.mask, placed.x, placed.y, dx, dy, { stepUp: 3, snapDown: 3 }, r);
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
        if (this.terrain.overlaps(now.mask, now.x, now.y)) stats.inside++;

        this.debug.clear();
        drawHitmask(this.debug, this.hero, { color: null, outline: r.onFloor ? 0x40ff40 : 0xffff40 });
        if (status) {
            Object.assign(status.dataset, stats);
            status.textContent = `Phaser platformer: frames ${stats.frames}, moves ${stats.moves}, climbs ${stats.climbs}, jumps ${stats.jumps}, landings ${stats.landings}, frames inside the terrain ${stats.inside}, solid pixels of the Tiled level ${stats.solid}`;
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
