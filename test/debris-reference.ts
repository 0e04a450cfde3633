// detachIslands' rules pixel by pixel, a byte per pixel and a queue of pixels: the test oracle of
// test/debris.test.ts (and the byte-per-pixel baseline of bench/terrain-debris.bench.ts).

/** A terrain as bytes: `px[y * w + x]` is 1 where solid. */
export interface Bytes {
    w: number;
    h: number;
    px: Uint8Array;
}

/** Anchor pixels: a test of any pixel, inside the terrain or not. */
export type AnchorTest = (x: number, y: number) => boolean;

/** The anchor test of rectangles: pixel px is in one when x <= px < x + width (and so for y). */
export function rectAnchors(rects: { x: number; y: number; width: number; height: number }[]): AnchorTest {
    return (x, y) => rects.some(r => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height);
}

const DX = [1, -1, 0, 0],
    DY = [0, 0, 1, -1];

/**
 * The pixels 4-connected to an anchor: a solid pixel on an anchor pixel or beside one (4 neighbours) is held, and
 * so is every solid pixel 4-connected to a held one. Returns 1 for held pixels.
 */
export function held(t: Bytes, anchor: AnchorTest): Uint8Array {
    const { w, h, px } = t;
    const seen = new Uint8Array(w * h),
        queue = new Int32Array(w * h);
    let tail = 0;
    for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
            const i = y * w + x;
            if (px[i] === 0) continue;
            let on = anchor(x, y);
            for (let d = 0; d < 4 && !on; d++) on = anchor(x + DX[d], y + DY[d]);
            if (on) {
                seen[i] = 1;
                queue[tail++] = i;
            }
        }
    flood(t, seen, queue, 0, tail);
    return seen;
}

// Breadth-first from queue[head..tail) over solid pixels not yet seen; returns the new tail.
function flood(t: Bytes, seen: Uint8Array, queue: Int32Array, head: number, tail: number): number {
    const { w, h, px } = t;
    while (head < tail) {
        const i = queue[head++],
            x = i % w,
            y = (i - x) / w;
        for (let d = 0; d < 4; d++) {
            const nx = x + DX[d],
                ny = y + DY[d];
            if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
            const j = ny * w + nx;
            if (px[j] === 1 && seen[j] === 0) {
                seen[j] = 1;
                queue[tail++] = j;
            }
        }
    }
    return tail;
}

/** The islands: the 4-connected components of solid pixels not held, each as its sorted pixel indices. */
export function islands(t: Bytes, anchor: AnchorTest): number[][] {
    const seen = held(t, anchor),
        queue = new Int32Array(t.w * t.h),
        out: number[][] = [];
    for (let i = 0; i < t.px.length; i++) {
        if (t.px[i] === 0 || seen[i] === 1) continue;
        seen[i] = 1;
        queue[0] = i;
        const end = flood(t, seen, queue, 0, 1);
        out.push(Array.from(queue.subarray(0, end)).sort((a, b) => a - b));
    }
    return out;
}
