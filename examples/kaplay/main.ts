// hitmask/kaplay with Kaplay 3001: area() finds the candidate pairs by the objects' turned rectangles, pixelArea()
// (beside it) lets Kaplay's collision events through only while the pixels touch, as Kaplay draws the sprites:
// rotated, scaled, flipped. Picking too: a rock's onClick fires only over its solid pixels.
// Run: npm run example -- kaplay (bundles this file with esbuild and serves examples/ on localhost).
import kaplay, { type GameObj, type KAPLAYCtx } from 'kaplay';
import { drawHitmask, hitmaskPlugin, pixelArea } from '../../src/kaplay.js'; // in a game: from 'hitmask/kaplay'

// The plugin tells hitmask/kaplay which context names the sprites.
const k = kaplay({
    width: 600,
    height: 300,
    root: document.getElementById('game') ?? undefined,
    global: false,
    background: [34, 34, 51],
    crisp: true,
    plugins: [hitmaskPlugin]
}) as unknown as KAPLAYCtx;
k.loadSprite('ship', '../sprites/alien1.png');
k.loadSprite('rock', '../sprites/alien3.png');

const status = document.getElementById('status');
let boxFrames = 0,
    pixelFrames = 0,
    clicks = 0;
const hit = new Set<GameObj>();

const rocks = (
    [
        [150, 120, 0.8],
        [300, 190, 1],
        [450, 110, 0.7]
    ] as const
).map(([x, y, s]) => {
    const rock = k.add([
        k.sprite('rock'),
        k.pos(x, y),
        k.anchor('center'),
        k.rotate(0),
        k.scale(s),
        k.color(255, 255, 255),
        k.area(),
        pixelArea(),
        { spin: 40 }
    ]);
    // Only a click on the rock's solid pixels: its empty corners are not the rock.
    rock.onClick(() => {
        rock.spin = -rock.spin;
        clicks++;
    });
    return rock;
});
const ship = k.add([k.sprite('ship'), k.pos(-40, 150), k.anchor('center'), k.rotate(0), k.area(), pixelArea()]);
// Fires only in the collision checks where the pixels touch (area() alone would fire on every rectangle overlap).
ship.onCollideUpdate(rock => void hit.add(rock));

let vx = 110;
k.onUpdate(() => {
    // A wavy path, back and forth, tilting: the ship grazes the rocks' empty corners as well as hitting them.
    const t = k.time();
    ship.pos.x += vx * k.dt();
    ship.pos.y = 150 + Math.sin(t * 2.5) * 45;
    ship.angle = Math.sin(t * 3.3) * 17;
    if (ship.pos.x > 600) vx = -110;
    if (ship.pos.x < -40) vx = 110;
    ship.flipX = vx < 0;
    for (const rock of rocks) rock.angle += rock.spin * k.dt();
    // Kaplay checks collisions after each fixed step too (at the last frame's positions): this frame's are next.
    hit.clear();
});

// Drawn after the frame's update and collision check: count the frame, colour the rocks, outline the placed masks.
k.onDraw(() => {
    if (rocks.some(rock => ship.isOverlapping(rock))) boxFrames++;
    if (hit.size > 0) pixelFrames++;
    for (const rock of rocks) {
        rock.color = hit.has(rock) ? k.rgb(255, 64, 64) : k.rgb(255, 255, 255);
        drawHitmask(k, rock, { color: null, outline: 0x40ff40 });
    }
    drawHitmask(k, ship, { color: null, outline: hit.size > 0 ? 0xff4040 : 0xffff40 });
    if (status) {
        status.dataset.box = String(boxFrames);
        status.dataset.pixel = String(pixelFrames);
        status.dataset.clicks = String(clicks);
        status.textContent =
            `frames with area() overlaps: ${boxFrames}, of which pixel hits: ${pixelFrames}; ` +
            `clicks on a rock's pixels: ${clicks}`;
    }
});
