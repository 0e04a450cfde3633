// Scenes where the row-major first hit is early but the leftmost strip's first hit is late: overlap() (the
// first point) against pygame's overlap on them (bench/mask.bench.ts, bench/speed.bench.ts). 0/1 pixels.
import { mulberry32 } from './timing.js';

/** A lower-right triangle (x + y ≥ size − 1), tested under a full square at (0, 0). */
export function triangle(size: number): Uint8Array {
    const px = new Uint8Array(size * size);
    for (let y = 0; y < size; y++) px.fill(1, y * size + size - 1 - y, (y + 1) * size);
    return px;
}

/** A disc with twelve round holes (seeded), tested against another at (size/16, size/16). */
export function blob(size: number, seed: number): Uint8Array {
    const rnd = mulberry32(seed),
        px = new Uint8Array(size * size),
        c = size / 2,
        r = size * 0.45;
    const holes = Array.from({ length: 12 }, () => [
        c + (rnd() - 0.5) * r * 1.4,
        c + (rnd() - 0.5) * r * 1.4,
        size * (0.03 + rnd() * 0.05)
    ]);
    for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
            if (
                (x - c) ** 2 + (y - c) ** 2 <= r * r &&
                holes.every(([hx, hy, hr]) => (x - hx) ** 2 + (y - hy) ** 2 > hr * hr)
            )
                px[y * size + x] = 1;
        }
    }
    return px;
}

/** The row-major first pixel set in both (b at (dx, dy)), by the naive loop: the answer overlap() must give. */
export function naiveFirst(
    a: Uint8Array,
    b: Uint8Array,
    size: number,
    dx: number,
    dy: number
): { x: number; y: number } | null {
    for (let y = Math.max(0, dy); y < Math.min(size, dy + size); y++) {
        for (let x = Math.max(0, dx); x < Math.min(size, dx + size); x++)
            if (a[y * size + x] && b[(y - dy) * size + x - dx]) return { x, y };
    }
    return null;
}

/** The scenes both benchmarks time: the triangle at 1024², blobs at 256² and 1024². */
export function pointScenes(): { size: number; kind: string; a: Uint8Array; b: Uint8Array; dx: number; dy: number }[] {
    return [
        { size: 1024, kind: 'triangle', a: triangle(1024), b: new Uint8Array(1024 * 1024).fill(1), dx: 0, dy: 0 },
        ...[256, 1024].map(size => ({
            size,
            kind: 'blobs',
            a: blob(size, 7),
            b: blob(size, 8),
            dx: size >> 4,
            dy: size >> 4
        }))
    ];
}
