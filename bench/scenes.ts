// Overlap scenes shared by the mask benchmarks: two s×s masks, b at (13, 2) in a's coordinates.
// a has random pixels on even rows, b on odd rows, so with an even dy nothing overlaps and every
// word of the intersection must be visited; "early" and "late" add one overlapping pair of pixels
// at the first or last pixel (row-major) of the intersection.
import { Mask } from '../src/index.js';
import { mulberry32 } from './timing.js';

export type HitKind = 'early' | 'late' | 'none';

/** A pair of sprites as 0/1 pixel arrays plus the offset of b in a. */
export interface Scene {
    size: number;
    kind: HitKind;
    a: Uint8Array;
    b: Uint8Array;
    dx: number;
    dy: number;
}

export const DX = 13,
    DY = 2;

/** Builds the scene for one size and hit position. */
export function makeScene(size: number, kind: HitKind, seed = 42): Scene {
    const rnd = mulberry32(seed + size);
    const a = new Uint8Array(size * size),
        b = new Uint8Array(size * size);
    for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
            if (y % 2 === 0 && rnd() < 0.5) a[y * size + x] = 1;
            if (y % 2 === 1 && rnd() < 0.5) b[y * size + x] = 1;
        }
    }
    if (kind === 'early') {
        a[DY * size + DX] = 1;
        b[0] = 1;
    }
    if (kind === 'late') {
        a[(size - 1) * size + size - 1] = 1;
        b[(size - 1 - DY) * size + size - 1 - DX] = 1;
    }
    return { size, kind, a, b, dx: DX, dy: DY };
}

/** The 0/1 pixels as a Mask. */
export function toMask(px: Uint8Array, size: number): Mask {
    const rgba = toRGBA(px);
    return Mask.fromRGBA(rgba, size, size);
}

/** The 0/1 pixels as RGBA with alpha 255 / 0 (and a colour for the set ones). */
export function toRGBA(px: Uint8Array): Uint8Array {
    const rgba = new Uint8Array(px.length * 4);
    for (let i = 0; i < px.length; i++)
        if (px[i]) {
            rgba[i * 4] = 200;
            rgba[i * 4 + 1] = 80;
            rgba[i * 4 + 3] = 255;
        }
    return rgba;
}
