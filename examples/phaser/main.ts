// hitmask/phaser with Phaser 4 Arcade Physics: Arcade finds the body overlaps, `overlaps` (the overlap's
// processCallback) keeps those whose pixels touch, as Phaser draws them: rotated, scaled, flipped.
// Run: npm run example -- phaser (bundles this file with esbuild and serves examples/ on localhost). The same file
// is the Phaser 3 page: npm run example -- phaser3 bundles it with Phaser 3.90 (the devDependency `phaser3`).
import Phaser from 'phaser';
import { drawHitmask, overlaps } from '../../src/phaser.js'; // in a game: from 'hitmask/phaser'

const status = document.getElementById('status');
let boxFrames = 0,
    pixelFrames = 0;

/** Arcade's bodies do not turn: a circle through the frame's corners holds the sprite at every angle. */
function roundBody(s: Phaser.Physics.Arcade.Sprite): Phaser.Physics.Arcade.Sprite {
    const r = Math.hypot(s.width, s.height) / 2;
    s.body?.setCircle(r, s.width / 2 - r, s.height / 2 - r);
    return s;
}

class Demo extends Phaser.Scene {
    private ship!: Phaser.Physics.Arcade.Sprite;
    private rocks!: Phaser.Physics.Arcade.Group;
    private debug!: Phaser.GameObjects.Graphics;
    private hit = new Set<Phaser.GameObjects.GameObject>();

    preload(): void {
        this.load.image('ship', '../sprites/alien1.png');
        this.load.image('rock', '../sprites/alien3.png');
    }

    create(): void {
        this.rocks = this.physics.add.group({ immovable: true });
        for (const [x, y, scale] of [
            [150, 120, 0.8],
            [300, 190, 1],
            [450, 110, 0.7]
        ]) {
            roundBody(this.rocks.create(x, y, 'rock') as Phaser.Physics.Arcade.Sprite)
                .setScale(scale)
                .setAngularVelocity(40);
        }
        this.ship = roundBody(this.physics.add.sprite(-40, 150, 'ship')).setVelocityX(110);
        this.debug = this.add.graphics();
        // Arcade tests the bodies; overlaps decides; the callback runs only for touching pixels.
        this.physics.add.overlap(
            this.ship,
            this.rocks,
            (_ship, rock) => {
                this.hit.add(rock as Phaser.GameObjects.GameObject);
            },
            overlaps
        );
    }

    override update(time: number): void {
        // A wavy path, back and forth, tilting: the ship grazes the rocks' empty corners as well as hitting them.
        this.ship.setVelocityY(Math.sin(time / 400) * 60).setRotation(Math.sin(time / 300) * 0.3);
        if (this.ship.x > 600) this.ship.setVelocityX(-110).setFlipX(true);
        if (this.ship.x < -40) this.ship.setVelocityX(110).setFlipX(false);
        if (this.physics.overlap(this.ship, this.rocks)) boxFrames++;
        if (this.hit.size > 0) pixelFrames++;
        this.debug.clear();
        for (const rock of this.rocks.getChildren() as Phaser.Physics.Arcade.Sprite[]) {
            rock.setTint(this.hit.has(rock) ? 0xff4040 : 0xffffff);
            drawHitmask(this.debug, rock, { color: null, outline: 0x40ff40 });
        }
        drawHitmask(this.debug, this.ship, { color: null, outline: this.hit.size > 0 ? 0xff4040 : 0xffff40 });
        this.hit.clear();
        if (status) {
            status.dataset.box = String(boxFrames);
            status.dataset.pixel = String(pixelFrames);
            status.textContent = `frames with Arcade body overlaps: ${boxFrames}, of which pixel hits: ${pixelFrames}`;
        }
    }
}

new Phaser.Game({
    type: Phaser.AUTO, // WebGL, or Canvas where WebGL is unavailable
    width: 600,
    height: 300,
    parent: 'game',
    backgroundColor: '#223',
    banner: false,
    physics: { default: 'arcade', arcade: { debug: true } },
    scene: Demo
});
