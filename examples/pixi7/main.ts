// hitmask with PixiJS 7: the game of examples/pixi/main.ts (PixiJS 8) written with PixiJS 7's API; the hitmask
// calls are the same. It imports 'pixi.js' as a PixiJS 7 game does; `npm run example -- pixi7` bundles it with the
// devDependency `pixi7` (pixi.js@7) in its place and serves examples/. The differences: docs/pixi.md. (It uses no
// call PixiJS 8's types lack, so the repository's own type check, on PixiJS 8's types, passes it too;
// test/examples.test.ts checks it against PixiJS 7's.)
import { Application, Assets, Graphics, Sprite, type Texture } from 'pixi.js';
import { drawHitmask, hitmaskFor, overlap, overlaps } from '../../src/pixi.js'; // in a game: from 'hitmask/pixi'

// PixiJS 7: options in the constructor (no init()), the canvas is `view`.
const app = new Application({ width: 600, height: 300, background: '#223' });
document.getElementById('stage')?.appendChild(app.view as HTMLCanvasElement);

const [shipTexture, rockTexture] = await Promise.all([
    Assets.load<Texture>('../sprites/alien1.png'),
    Assets.load<Texture>('../sprites/alien3.png')
]);
// PixiJS 7: no options object for Sprite.
const rocks = [
    [150, 120, 0.8],
    [300, 190, 1.2],
    [450, 110, 1]
].map(([x, y, scale]) => {
    const rock = new Sprite(rockTexture);
    rock.anchor.set(0.5);
    rock.position.set(x, y);
    rock.scale.set(scale);
    return rock;
});
const ship = new Sprite(shipTexture);
ship.anchor.set(0.35, 0.5);
ship.position.set(-40, 150);
const debug = new Graphics();
app.stage.addChild(...rocks, ship, debug);

const status = document.getElementById('status');
let vx = 2,
    time = 0,
    boxOverlaps = 0,
    pixelHits = 0;

app.ticker.add(() => {
    // The ship weaves across the field, tilting and facing where it flies; the rocks spin.
    const delta = app.ticker.deltaTime;
    time += app.ticker.deltaMS;
    ship.x += vx * delta;
    ship.y = 150 + Math.sin(time / 400) * 45;
    ship.rotation = Math.cos(time / 400) * 0.5 * Math.sign(vx);
    if (ship.x > 640) vx = -Math.abs(vx);
    if (ship.x < -40) vx = Math.abs(vx);
    ship.scale.x = Math.sign(vx);
    rocks.forEach((rock, i) => {
        rock.rotation += 0.004 * (i + 1) * delta;
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
        // PixiJS 7: lineStyle/beginFill and draw* instead of rect().stroke() and circle().fill().
        if (boxHit) debug.lineStyle(1, 0x40ff40).drawRect(b.x, b.y, b.mask.width, b.mask.height).lineStyle(0);
        // The first touching pixel (row-major in the ship's placed mask).
        const p = pixelHit ? overlap(ship, rock) : null;
        if (p)
            debug
                .beginFill(0xffff00)
                .drawCircle(p.x + 0.5, p.y + 0.5, 4)
                .endFill();
    }

    if (status) {
        status.dataset.box = String(boxOverlaps);
        status.dataset.pixel = String(pixelHits);
        status.textContent = `box overlaps: ${boxOverlaps}, of which pixel hits: ${pixelHits}`;
    }
});
