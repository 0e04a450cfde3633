// The terrain of the movement examples (examples/phaser-move, examples/pixi-move), drawn on a canvas that the
// engine shows, and the collision layer read from the very same pixels.
import { CollisionRaster, Mask, type RasterView } from '../src/index.js'; // in a game: from 'hitmask'

export const W = 640,
    H = 320;
export const GRAVITY = 0.35,
    JUMP = -6.5,
    SPEED = 1.5;

/** The terrain, drawn on a canvas: walls at both sides; left to right, flat ground, a slope up, six 3-px steps down, a 24-px ledge, a 45° slope down. */
export function drawTerrain(): HTMLCanvasElement {
    const canvas = document.createElement('canvas');
    canvas.width = W;
    canvas.height = H;
    const g = canvas.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
    const stairs = [1, 2, 3, 4, 5, 6].flatMap(i => [
        [250 + i * 10, 227 + i * 3],
        [250 + i * 10, 230 + i * 3]
    ]);
    const ground = [
        [0, 270],
        [110, 270],
        [190, 230],
        [250, 230],
        ...stairs,
        [360, 248],
        [360, 224],
        [430, 224],
        [470, 264],
        [W, 264],
        [W, H],
        [0, H]
    ];
    g.fillStyle = '#6b4f2a';
    g.beginPath();
    for (const [x, y] of ground) g.lineTo(x, y);
    g.fill();
    g.fillRect(0, 0, 10, H);
    g.fillRect(W - 10, 0, 10, H);
    return canvas;
}

/** The terrain's collision layer, from the canvas's pixels (alpha above the default threshold is solid). */
export function terrainLayer(canvas: HTMLCanvasElement): RasterView {
    return new CollisionRaster(W, H)
        .stamp(Mask.fromImageData((canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(0, 0, W, H)), 0, 0)
        .view();
}
