// hitmask with PixiJS 8: Pixi only draws, so the game tests its sprites itself each tick. Masks come from
// the sprites' textures once (renderer.extract.pixels), then every test is a box check plus a word-parallel AND.
// Run: npm run example:pixi (bundles this file with esbuild and serves examples/ on localhost).
import { Application, Assets, Graphics, Sprite, type Renderer, type Texture } from 'pixi.js';
import { Mask } from '../../src/index.js'; // in a game: import { Mask } from 'hitmask';

const masks = new Map<Texture, Mask>();

/** The collision mask of a texture (alpha > 127), built once from its pixels. */
function textureMask(renderer: Renderer, texture: Texture): Mask {
    let mask = masks.get(texture);
    if (!mask) {
        const { pixels, width, height } = renderer.extract.pixels(texture);
        mask = Mask.fromRGBA(pixels, width, height);
        masks.set(texture, mask);
    }
    return mask;
}

/** A sprite with its mask; `flipped` holds the mirrored mask for when the sprite faces left (scale.x < 0). */
interface Body { sprite: Sprite; mask: Mask; flipped: Mask }

function body(renderer: Renderer, texture: Texture, x: number, y: number): Body {
    const sprite = new Sprite(texture);
    sprite.anchor.set(0.5);
    sprite.position.set(x, y);
    const mask = textureMask(renderer, texture);
    return { sprite, mask, flipped: mask.flipX() };
}

/** Left/top of the sprite's untransformed texture in world pixels (anchor 0.5, scale ±1, no rotation). */
const left = (b: Body) => Math.round(b.sprite.x - b.mask.width / 2);
const top = (b: Body) => Math.round(b.sprite.y - b.mask.height / 2);
const maskOf = (b: Body) => b.sprite.scale.x < 0 ? b.flipped : b.mask;

const app = new Application();
// WebGL where available, else the Canvas renderer (headless browsers without a GPU).
await app.init({ width: 600, height: 300, background: '#223', preference: 'webgl' });
document.getElementById('stage')?.appendChild(app.canvas);

const [alien1, alien3] = await Promise.all([Assets.load<Texture>('../sprites/alien1.png'), Assets.load<Texture>('../sprites/alien3.png')]);
const rocks = [[150, 120], [300, 190], [450, 110]].map(([x, y]) => body(app.renderer, alien3, x, y));
const ship = body(app.renderer, alien1, -40, 150);
const boxes = new Graphics();
app.stage.addChild(...rocks.map(r => r.sprite), ship.sprite, boxes);

const status = document.getElementById('status');
let vx = 110 / 60, elapsed = 0, boxOverlaps = 0, pixelHits = 0;

app.ticker.add(ticker => {
    // Back and forth on a wavy path, so the ship grazes the rocks' empty corners as well as hitting them.
    elapsed += ticker.deltaMS;
    ship.sprite.x += vx * ticker.deltaTime;
    ship.sprite.y = 150 + Math.sin(elapsed / 400) * 40;
    if (ship.sprite.x > 600) vx = -Math.abs(vx);
    if (ship.sprite.x < -40) vx = Math.abs(vx);
    ship.sprite.scale.x = vx < 0 ? -1 : 1;

    boxes.clear();
    const sm = maskOf(ship), sx = left(ship), sy = top(ship);
    boxes.rect(sx, sy, sm.width, sm.height);
    for (const rock of rocks) {
        const rm = maskOf(rock), dx = left(rock) - sx, dy = top(rock) - sy;
        boxes.rect(left(rock), top(rock), rm.width, rm.height);
        // overlaps() does this box test itself; it is spelled out here only to count the box-only overlaps.
        const boxHit = dx < sm.width && dx + rm.width > 0 && dy < sm.height && dy + rm.height > 0;
        const pixelHit = boxHit && sm.overlaps(rm, dx, dy);
        if (boxHit) boxOverlaps++;
        if (pixelHit) pixelHits++;
        rock.sprite.tint = pixelHit ? 0xff4040 : 0xffffff;
    }
    boxes.stroke({ width: 1, color: 0x40ff40 });

    if (status) {
        status.dataset.box = String(boxOverlaps);
        status.dataset.pixel = String(pixelHits);
        status.textContent = `box overlaps: ${boxOverlaps}, of which pixel hits: ${pixelHits}`;
    }
});
