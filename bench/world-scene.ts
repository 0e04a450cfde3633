// The World benchmarks' scene: pygame's example sprites (generated blobs where they are absent), N sprites at
// constant density moving in straight lines and bouncing off the edges; the same scene for every contender.
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { GifReader } from 'omggif';
import { Mask } from '../src/index.js';
import { mulberry32 } from './harness.js';

const DATA = '/usr/share/doc/python-pygame-doc/examples/data/';
const FILES = ['alien1.png', 'alien2.png', 'alien3.png', 'player1.gif', 'shot.gif', 'bomb.gif', 'explosion1.gif'];

export function loadSprites(): { masks: Mask[]; source: string } {
    try {
        const masks = FILES.map(f => {
            const buf = readFileSync(DATA + f);
            if (f.endsWith('.png')) {
                const png = PNG.sync.read(buf);
                return Mask.fromRGBA(png.data, png.width, png.height);
            }
            const gif = new GifReader(buf);
            const px = new Uint8Array(gif.width * gif.height * 4);
            gif.decodeAndBlitFrameRGBA(0, px);
            return Mask.fromRGBA(px, gif.width, gif.height);
        });
        return { masks, source: `pygame example sprites (${masks.map(m => `${m.width}x${m.height}`).join(', ')})` };
    } catch {
        // Fallback: generated blobby masks of 16..90 px.
        const rnd = mulberry32(5);
        const masks = [16, 24, 40, 61, 71, 90].map(s => {
            const m = new Mask(s, s);
            const blobs = 4;
            for (let k = 0; k < blobs; k++) {
                const cx = s * (0.3 + 0.4 * rnd()),
                    cy = s * (0.3 + 0.4 * rnd()),
                    r = s * (0.2 + 0.2 * rnd());
                for (let y = 0; y < s; y++)
                    for (let x = 0; x < s; x++) if ((x - cx) ** 2 + (y - cy) ** 2 < r * r) m.set(x, y);
            }
            return m;
        });
        return { masks, source: 'generated blobby masks (pygame sprites not found)' };
    }
}

export interface Scene {
    x: Float64Array;
    y: Float64Array;
    vx: Float64Array;
    vy: Float64Array;
    kind: Uint8Array;
    side: number;
}

/**
 * Discs of 10, 12, 14 and 16 px: sensor-like bodies as small as a bullet or a coin, the scene where cells of the
 * bodies' own size made 14 buckets per body (docs/performance.md#world).
 */
export function discMasks(): Mask[] {
    return [10, 12, 14, 16].map(d => {
        const m = new Mask(d, d),
            r = d / 2;
        for (let y = 0; y < d; y++)
            for (let x = 0; x < d; x++) if ((x + 0.5 - r) ** 2 + (y + 0.5 - r) ** 2 <= r * r) m.set(x, y);
        return m;
    });
}

// Constant density: the world's area grows with N so that sprite boxes cover `cover` of it (8% by default).
export function makeScene(n: number, masks: Mask[], seed: number, cover = 0.08): Scene {
    const rnd = mulberry32(seed);
    const kind = new Uint8Array(n);
    let area = 0;
    for (let i = 0; i < n; i++) {
        kind[i] = Math.floor(rnd() * masks.length);
        area += masks[kind[i]].width * masks[kind[i]].height;
    }
    const side = Math.sqrt(area / cover);
    const s: Scene = {
        x: new Float64Array(n),
        y: new Float64Array(n),
        vx: new Float64Array(n),
        vy: new Float64Array(n),
        kind,
        side
    };
    for (let i = 0; i < n; i++) {
        s.x[i] = rnd() * side;
        s.y[i] = rnd() * side;
        s.vx[i] = (rnd() - 0.5) * 6;
        s.vy[i] = (rnd() - 0.5) * 6;
    }
    return s;
}

export function advance(s: Scene): void {
    const { x, y, vx, vy, side } = s;
    for (let i = 0; i < x.length; i++) {
        x[i] += vx[i];
        y[i] += vy[i];
        if (x[i] < 0 || x[i] > side) vx[i] = -vx[i];
        if (y[i] < 0 || y[i] > side) vy[i] = -vy[i];
    }
}
