// hitmask/excalibur with Excalibur 0.32: the actors' colliders (turned rectangles) find the contacts, and
// pixelCollisions keeps a contact only while the pixels touch, as Excalibur draws the sprites: rotated, scaled,
// flipped. Excalibur's own events (collisionstart, precollision, …) follow; pointer events fire only over solid
// pixels.
// Run: npm run example -- excalibur (bundles this file with esbuild and serves examples/ on localhost).
import * as ex from 'excalibur';
import { drawHitmask, pixelCollisions } from '../../src/excalibur.js'; // in a game: from 'hitmask/excalibur'

const game = new ex.Engine({
    canvasElementId: 'game',
    width: 600,
    height: 300,
    displayMode: ex.DisplayMode.Fixed,
    antialiasing: false,
    suppressPlayButton: true,
    backgroundColor: ex.Color.fromHex('#222233')
});
const shipImage = new ex.ImageSource('../sprites/alien1.png');
const rockImage = new ex.ImageSource('../sprites/alien3.png');

const status = document.getElementById('status');
let boxFrames = 0,
    pixelFrames = 0,
    clicks = 0;
const hit = new Set<ex.Actor>();
const RED = ex.Color.fromHex('#ff4040');

// Passive: Excalibur reports the contacts and resolves none (the ship flies through, as in the other engines' pages).
const rocks = (
    [
        [150, 120, 0.8],
        [300, 190, 1],
        [450, 110, 0.7]
    ] as const
).map(([x, y, s]) => {
    const rock = new ex.Actor({
        pos: ex.vec(x, y),
        width: 80,
        height: 71,
        scale: ex.vec(s, s),
        angularVelocity: 0.7,
        collisionType: ex.CollisionType.Passive
    });
    rock.graphics.use(rockImage.toSprite());
    // Only a click on the rock's solid pixels: its empty corners are not the rock.
    rock.on('pointerdown', () => {
        rock.angularVelocity = -rock.angularVelocity;
        clicks++;
    });
    rock.on('posttransformdraw', e => drawHitmask(e.ctx, rock, { color: null, outline: 0x40ff40 }));
    return rock;
});
const ship = new ex.Actor({
    pos: ex.vec(-40, 150),
    width: 80,
    height: 71,
    vel: ex.vec(110, 0),
    collisionType: ex.CollisionType.Passive
});
ship.graphics.use(shipImage.toSprite());
ship.on('posttransformdraw', e =>
    drawHitmask(e.ctx, ship, { color: null, outline: hit.size > 0 ? 0xff4040 : 0xffff40 })
);
// Fires only in the frames where the pixels touch (the colliders alone would on every rectangle overlap).
ship.on('precollision', e => {
    if (e.other.owner instanceof ex.Actor) hit.add(e.other.owner);
});

for (const actor of [...rocks, ship]) {
    game.add(actor);
    pixelCollisions(actor);
}

let time = 0;
game.currentScene.on('preupdate', e => {
    // A wavy path, back and forth, tilting: the ship grazes the rocks' empty corners as well as hitting them. The
    // ship is mirrored by its graphics' flip (a negative scale would mirror its collider, which finds the candidates).
    time += e.elapsed;
    ship.pos.y = 150 + Math.sin(time / 400) * 45;
    ship.rotation = Math.sin(time / 300) * 0.3;
    if (ship.pos.x > 600) ship.vel.x = -110;
    if (ship.pos.x < -40) ship.vel.x = 110;
    ship.graphics.flipHorizontal = ship.vel.x < 0;
    hit.clear();
});

// After the frame's collision system: count the frame and colour the rocks.
game.currentScene.on('postupdate', () => {
    if (rocks.some(rock => ship.collider.collide(rock.collider).length > 0)) boxFrames++;
    if (hit.size > 0) pixelFrames++;
    for (const rock of rocks) {
        const sprite = rock.graphics.current;
        if (sprite) sprite.tint = hit.has(rock) ? RED : ex.Color.White;
    }
    if (status) {
        status.dataset.box = String(boxFrames);
        status.dataset.pixel = String(pixelFrames);
        status.dataset.clicks = String(clicks);
        status.textContent =
            `frames with collider contacts: ${boxFrames}, of which pixel hits: ${pixelFrames}; ` +
            `clicks on a rock's pixels: ${clicks}`;
    }
});

await game.start(new ex.Loader([shipImage, rockImage]));
