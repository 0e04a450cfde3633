// hitmask with Matter.js: each sprite's body comes from its mask (toPolygons → convexPieces → matterBody),
// and the terrain is a mask too, cut into 128 px chunks (TerrainChunks), one static body per chunk: a shot erases a
// crater from it, and only the chunks the crater changed get a new body. Matter does the physics; the page draws
// the sprites, the terrain mask, its pieces and the chunk borders.
// Run: npm run example -- matter (bundles this file with esbuild and serves examples/ on localhost).
import Matter from 'matter-js';
import { Mask } from '../../src/index.js'; // in a game: import { Mask } from 'hitmask';
import {
    convexPieces,
    matterBody,
    matterParts,
    toPolygons,
    TerrainChunks,
    type ChunkSync,
    type Point
} from '../../src/shapes.js'; // 'hitmask/shapes'
import { drawMask, drawPieces, forgetMask } from '../../src/debug.js'; // 'hitmask/debug'

const WIDTH = 640,
    HEIGHT = 360,
    CRATER = 18,
    STEP_MS = 1000 / 60;

/** A falling sprite: its Matter body and the mask centre that Matter put at body.position. */
interface Sprite {
    image: HTMLImageElement;
    body: Matter.Body;
    centre: Point;
    pieces: number[][];
    still: number;
}

/** A filled disc of radius r (2r × 2r), the crater a shot erases. */
function disc(r: number): Mask {
    const m = new Mask(2 * r, 2 * r);
    for (let y = 0; y < 2 * r; y++)
        for (let x = 0; x < 2 * r; x++) if ((x + 0.5 - r) ** 2 + (y + 0.5 - r) ** 2 <= r * r) m.set(x, y);
    return m;
}

/** Rolling hills with a ledge and a pit: the terrain mask (set = solid ground). */
function terrainMask(): Mask {
    const m = new Mask(WIDTH, HEIGHT);
    for (let x = 0; x < WIDTH; x++) {
        let top = Math.round(270 + 28 * Math.sin(x / 70) + 10 * Math.sin(x / 23));
        if (x > 300 && x < 360) top += 30; // a pit
        for (let y = top; y < HEIGHT; y++) m.set(x, y);
    }
    for (let y = 0; y < HEIGHT; y++)
        for (let x = 0; x < 10; x++) {
            m.set(x, y);
            m.set(WIDTH - 1 - x, y);
        } // walls
    return m;
}

async function loadImage(src: string): Promise<HTMLImageElement> {
    const img = new Image();
    img.src = src;
    await img.decode();
    return img;
}

/** The mask of an image (alpha > 127), read back once through a canvas. */
function imageMask(img: HTMLImageElement): Mask {
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new Error('no 2D canvas');
    ctx.drawImage(img, 0, 0);
    return Mask.fromImageData(ctx.getImageData(0, 0, c.width, c.height));
}

const canvas = document.getElementById('stage') as HTMLCanvasElement;
const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
const status = document.getElementById('status') as HTMLOutputElement;
const images = await Promise.all(['alien1', 'alien2', 'alien3'].map(n => loadImage(`../sprites/${n}.png`)));
// Per image: its convex pieces, computed once (1 px tolerance: fewer vertices, still within a pixel).
const shapes = new Map(
    images.map(img => {
        const pieces = toPolygons(imageMask(img), { tolerance: 1 }).flatMap(p => convexPieces(p));
        return [img, { pieces, centre: matterParts(pieces).centre }] as const;
    })
);

const engine = Matter.Engine.create();
const sprites: Sprite[] = [];
const drop = (i: number, x: number, y: number) => {
    const image = images[i % images.length],
        { pieces, centre } = shapes.get(image) as { pieces: number[][]; centre: Point };
    const body = matterBody(Matter, pieces, { x, y, body: { friction: 0.6, restitution: 0.05 } });
    Matter.Body.setAngle(body, (((i * 37) % 11) - 5) * 0.05);
    Matter.Composite.add(engine.world, body);
    sprites.push({ image, body, centre, pieces, still: 0 });
};
for (let i = 0; i < 6; i++) drop(i, 40 + i * 95, 20 + (i % 3) * 50);

// The terrain: a mask cut into chunks, one static Matter body per chunk from its exact pieces (tolerance 0), and
// after each carve only the chunks it changed are rebuilt.
const terrain = terrainMask(),
    crater = disc(CRATER);
const chunks = new TerrainChunks(terrain, { tolerance: 0 });
const ground = new Map<number, Matter.Body>(),
    chunkPieces = new Map<number, number[][]>();
let pieces: number[][] = [],
    rebuilt = 0;
function apply({ removed, changed }: ChunkSync): void {
    for (const id of removed) {
        Matter.Composite.remove(engine.world, ground.get(id) as Matter.Body);
        ground.delete(id);
        chunkPieces.delete(id);
    }
    for (const c of changed) {
        const old = ground.get(c.id);
        if (old) Matter.Composite.remove(engine.world, old);
        const body = matterBody(Matter, c.pieces, { body: { isStatic: true, friction: 0.8 } });
        Matter.Composite.add(engine.world, body);
        ground.set(c.id, body);
        chunkPieces.set(c.id, c.pieces);
    }
    rebuilt = removed.length + changed.length;
    pieces = [...chunkPieces.values()].flat();
}
apply(chunks.sync());
let carves = 0;

/** A shot at (x, y): erase a crater from the terrain mask, rebuild the chunks it changed, wake what lay on it. */
function carve(x: number, y: number): void {
    const before = terrain.count();
    terrain.erase(crater, Math.floor(x) - CRATER, Math.floor(y) - CRATER);
    if (terrain.count() === before) return; // a shot into the air
    forgetMask(terrain);
    carves++;
    apply(chunks.sync());
    for (const s of sprites) s.still = 0;
}

canvas.addEventListener('click', e => {
    const r = canvas.getBoundingClientRect();
    carve(e.clientX - r.left, e.clientY - r.top);
});
window.addEventListener('keydown', e => {
    if (e.code !== 'Space') return;
    e.preventDefault();
    drop(sprites.length, 60 + ((sprites.length * 131) % (WIDTH - 160)), 10);
});

// A sprite has sunk into the terrain when the centroid of one of its pieces lies SINK px or more deep in solid
// ground (that pixel and the one SINK px above it both solid). Less is contact: Matter lets bodies overlap by
// a fraction of a pixel, a sprite's outline is simplified by up to 1 px, and sloped ground is a staircase.
const SINK = 4;
const solid = (x: number, y: number) => x >= 0 && y >= 0 && x < WIDTH && y < HEIGHT && terrain.get(x, y);
const sunk = (s: Sprite) =>
    s.body.parts.slice(s.body.parts.length > 1 ? 1 : 0).some(p => {
        const x = Math.floor(p.position.x),
            y = Math.floor(p.position.y);
        return (solid(x, y) && solid(x, y - SINK)) || y >= HEIGHT;
    });

function render(): void {
    ctx.fillStyle = '#223';
    ctx.fillRect(0, 0, WIDTH, HEIGHT);
    drawMask(ctx, terrain, 0, 0, { color: 0x8a6a40ff });
    drawPieces(ctx, pieces, 0, 0, { color: 0x40c0ff60 });
    ctx.strokeStyle = '#ffd00060';
    for (let x = chunks.size; x < WIDTH; x += chunks.size) ctx.strokeRect(x, 0, 0, HEIGHT);
    for (let y = chunks.size; y < HEIGHT; y += chunks.size) ctx.strokeRect(0, y, WIDTH, 0);
    for (const s of sprites) {
        // The mask's top-left corner is at position − R(angle)·centre: draw the image from there, rotated.
        ctx.save();
        ctx.translate(s.body.position.x, s.body.position.y);
        ctx.rotate(s.body.angle);
        ctx.drawImage(s.image, -s.centre.x, -s.centre.y);
        drawPieces(ctx, s.pieces, -s.centre.x, -s.centre.y, { color: 0x40ff4080 });
        ctx.restore();
    }
}

let last = performance.now(),
    acc = 0;
function frame(): void {
    const t = performance.now();
    acc = Math.min(acc + t - last, 4 * STEP_MS);
    last = t;
    while (acc >= STEP_MS) {
        Matter.Engine.update(engine, STEP_MS);
        for (const s of sprites) s.still = s.body.speed < 0.05 && s.body.angularSpeed < 0.002 ? s.still + 1 : 0;
        acc -= STEP_MS;
    }
    render();
    const resting = sprites.filter(s => s.still >= 30 && s.body.position.y < HEIGHT).length,
        sunken = sprites.filter(sunk).length;
    Object.assign(status.dataset, {
        bodies: String(sprites.length),
        resting: String(resting),
        sunk: String(sunken),
        carves: String(carves),
        terrainArea: String([...ground.values()].reduce((a, b) => a + b.area, 0)),
        terrainBodies: String(ground.size),
        chunksRebuilt: String(rebuilt),
        maskCount: String(terrain.count()),
        terrainPieces: String(pieces.length),
        positions: JSON.stringify(
            sprites.map(s => [Math.round(s.body.position.x * 10) / 10, Math.round(s.body.position.y * 10) / 10])
        )
    });
    status.textContent =
        `bodies ${sprites.length} · at rest ${resting} · sunk ${sunken} · craters ${carves} · ` +
        `terrain: ${ground.size} chunk bodies, ${pieces.length} pieces, ${rebuilt} rebuilt by the last crater, ` +
        `body area ${status.dataset.terrainArea} = mask count ${terrain.count()}`;
    requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
