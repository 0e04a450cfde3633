// hitmask with Phaser 4 Arcade Physics: Arcade does the broad phase and its box test, then the overlap's
// processCallback asks hitmask whether the pixels really touch. Masks are built once per texture frame.
// Run: npm run example:phaser (bundles this file with esbuild and serves examples/ on localhost).
import Phaser from 'phaser';
import { Mask } from '../../src/index.js'; // in a game: import { Mask } from 'hitmask';

const masks = new Map<string, Mask>();

/**
 * The collision mask of one texture frame, built on first use: draw the frame into a canvas, read its
 * pixels back once and keep alpha > 127. The mask covers the untrimmed frame (a trimmed atlas frame is
 * drawn at its trim offset), so it lines up with the sprite's display origin.
 */
function frameMask(frame: Phaser.Textures.Frame, flipX = false, flipY = false): Mask {
    const key = `${frame.texture.key}#${frame.name}#${flipX ? 'x' : ''}${flipY ? 'y' : ''}`;
    let mask = masks.get(key);
    if (mask) return mask;
    if (flipX || flipY) {
        mask = frameMask(frame);
        if (flipX) mask = mask.flipX();
        if (flipY) mask = mask.flipY();
    } else {
        const image = frame.source.image;
        if (!image || frame.rotated) throw new Error(`frame ${key}: need an unrotated image frame`);
        const canvas = document.createElement('canvas');
        canvas.width = frame.realWidth;
        canvas.height = frame.realHeight;
        const ctx = canvas.getContext('2d', { willReadFrequently: true });
        if (!ctx) throw new Error('no 2D canvas');
        ctx.drawImage(image, frame.cutX, frame.cutY, frame.cutWidth, frame.cutHeight, frame.x, frame.y, frame.cutWidth, frame.cutHeight);
        mask = Mask.fromImageData(ctx.getImageData(0, 0, canvas.width, canvas.height));
    }
    masks.set(key, mask);
    return mask;
}

/** Do the visible pixels of two (unrotated, unscaled) sprites touch? */
function pixelsTouch(a: Phaser.GameObjects.Sprite, b: Phaser.GameObjects.Sprite): boolean {
    const ma = frameMask(a.frame, a.flipX, a.flipY), mb = frameMask(b.frame, b.flipX, b.flipY);
    // Top-left corners in world pixels; b's offset in a's mask coordinates.
    const ax = Math.round(a.x - a.displayOriginX), ay = Math.round(a.y - a.displayOriginY);
    const bx = Math.round(b.x - b.displayOriginX), by = Math.round(b.y - b.displayOriginY);
    return ma.overlaps(mb, bx - ax, by - ay);
}

const status = document.getElementById('status');
let boxOverlaps = 0, pixelHits = 0;

class Demo extends Phaser.Scene {
    private ship!: Phaser.Physics.Arcade.Sprite;
    private rocks!: Phaser.Physics.Arcade.StaticGroup;
    private hitThisStep = new Set<Phaser.GameObjects.GameObject>();

    preload(): void {
        this.load.image('alien1', '../sprites/alien1.png');
        this.load.image('alien3', '../sprites/alien3.png');
    }

    create(): void {
        this.rocks = this.physics.add.staticGroup();
        for (const [x, y] of [[150, 120], [300, 190], [450, 110]]) this.rocks.create(x, y, 'alien3');
        this.ship = this.physics.add.sprite(-40, 150, 'alien1');
        this.ship.setVelocityX(110);

        this.physics.add.overlap(this.ship, this.rocks, (_ship, rock) => {
            // Called only when processCallback said yes: the pixels touch.
            pixelHits++;
            if (rock instanceof Phaser.GameObjects.GameObject) this.hitThisStep.add(rock);
        }, (ship, rock) => {
            // Arcade's box test has passed; hitmask decides.
            boxOverlaps++;
            return ship instanceof Phaser.GameObjects.Sprite && rock instanceof Phaser.GameObjects.Sprite && pixelsTouch(ship, rock);
        });
    }

    override update(time: number): void {
        // Back and forth on a wavy path, so the ship grazes the rocks' empty corners as well as hitting them.
        this.ship.setVelocityY(Math.sin(time / 400) * 60);
        if (this.ship.x > 600) this.ship.setVelocityX(-110).setFlipX(true);
        if (this.ship.x < -40) this.ship.setVelocityX(110).setFlipX(false);
        for (const rock of this.rocks.getChildren()) {
            if (rock instanceof Phaser.GameObjects.Sprite) rock.setTint(this.hitThisStep.has(rock) ? 0xff4040 : 0xffffff);
        }
        this.hitThisStep.clear();
        if (status) {
            status.dataset.box = String(boxOverlaps);
            status.dataset.pixel = String(pixelHits);
            status.textContent = `Arcade box overlaps: ${boxOverlaps}, of which pixel hits: ${pixelHits}`;
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
