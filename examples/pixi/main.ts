// hitmask with PixiJS 8: PixiJS draws, hitmask/pixi says whether two sprites touch, pixel for pixel, with their
// anchor, rotation, scale and flip as drawn. Masks are read from the textures once; each test is a box check,
// then a word-parallel AND of the placed masks. Run: npm run example -- pixi (bundles this file, serves examples/).
// PixiJS 7 takes the same hitmask calls around its own API (new Application(options), app.view): docs/pixi.md,
// and the same game on PixiJS 7 in examples/pixi7/main.ts (npm run example -- pixi7).
import { Application, Assets, Graphics, Sprite, type Texture } from 'pixi.js';
import { drawHitmask, hitmaskFor, overlap, overlaps } from '../../src/pixi.js'; // in a game: from 'hitmask/pixi'

const app = new Application();
await app.init({ width: 600, height: 300, background: '#223', preference: 'webgl' });
document.getElementById('stage')?.appendChild(app.canvas);

const [shipTexture, rockTexture] = await Promise.all([
    Assets.load<Texture>('../sprites/alien1.png'),
    Assets.load<Texture>('../sprites/alien3.png')
]);
const rocks = [
    [150, 120, 0.8],
    [300, 190, 1.2],
    [450, 110, 1]
].map(([x, y, scale]) => new Sprite({ texture: rockTexture, anchor: 0.5, x, y, scale }));
const ship = new Sprite({ texture: shipTexture, anchor: { x: 0.35, y: 0.5 }, x: -40, y: 150 });
const debug = new Graphics();
app.stage.addChild(...rocks, ship, debug);

const status = document.getElementById('status');
let vx = 2,
    time = 0,
    boxOverlaps = 0,
    pixelHits = 0;

app.ticker.add(ticker => {
    // The ship weaves across the field, tilting and facing where it flies; the rocks spin.
    time += ticker.deltaMS;
    ship.x += vx * ticker.deltaTime;
    ship.y = 150 + Math.sin(time / 400) * 45;
    ship.rotation = Math.cos(time / 400) * 0.5 * Math.sign(vx);
    if (ship.x > 640) vx = -Math.abs(vx);
    if (ship.x < -40) vx = Math.abs(vx);
    ship.scale.x = Math.sign(vx);
    rocks.forEach((rock, i) => {
        rock.rotation += 0.004 * (i + 1) * ticker.deltaTime;
    });

    debug.clear();
    drawHitmask(debug, ship, { color: null, outline: 0x80ff80 });
    const a = hitmaskFor(ship); // the ship's mask as drawn this tick, and its top-left in stage pixels
    for (const rock of rocks) {
        const b = hitmaskFor(rock);
        // overlaps() does this box test itself; it is spelled out here only to count the box-only overlaps.
        const boxHit =
            a.x < b.x + b.mask.width &&
            b.x < a.x + a.mask.width &&
            a.y < b.y + b.mask.height &&
            b.y < a.y + a.mask.height;
        const pixelHit = overlaps(ship, rock);
        if (boxHit) boxOverlaps++;
        if (pixelHit) pixelHits++;
        rock.tint = pixelHit ? 0xff4040 : 0xffffff;
        if (boxHit) debug.rect(b.x, b.y, b.mask.width, b.mask.height).stroke({ width: 1, color: 0x40ff40 });
        // The first touching pixel (row-major in the ship's placed mask).
        const p = pixelHit ? overlap(ship, rock) : null;
        if (p) debug.circle(p.x + 0.5, p.y + 0.5, 4).fill(0xffff00);
    }

    if (status) {
        status.dataset.box = String(boxOverlaps);
        status.dataset.pixel = String(pixelHits);
        status.textContent = `box overlaps: ${boxOverlaps}, of which pixel hits: ${pixelHits}`;
    }
});
