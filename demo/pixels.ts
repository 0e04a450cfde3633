// Batched Canvas 2D for the demo's stress mode: the frame is composed in script in one ImageData (32-bit
// pixels) and put on the canvas with a single putImageData, instead of one drawImage per sprite. A sprite
// at its own size is copied as precomputed runs of opaque pixels (GIF frames are fully opaque or fully
// transparent), so 10,000 bullets cost a few million word copies; scaled or faded images (explosions) and
// rectangles are blended per pixel.
import { boxAsRects, type Batch, type Region } from './batch.js';

/** An image's pixels and its opaque runs, plain and mirrored. */
interface Sprite extends Region {
    readonly pixels: Uint32Array;
    /** Per run: dy, dx, length, offset into `colors` (or `mirrored` for the mirrored runs). */
    readonly runs: Int32Array;
    readonly colors: Uint32Array;
    readonly mirroredRuns: Int32Array;
    readonly mirrored: Uint32Array;
    /** Per run, dy × field width + dx: where it starts relative to the sprite's corner in the frame. */
    readonly starts: Int32Array;
    readonly mirroredStarts: Int32Array;
}

// Where each run starts in a frame `width` pixels wide, relative to the sprite's top-left pixel.
function startsOf(runs: Int32Array, width: number): Int32Array {
    const out = new Int32Array(runs.length / 4);
    for (let k = 0; k < out.length; k++) out[k] = runs[4 * k] * width + runs[4 * k + 1];
    return out;
}

// Opaque runs of one image, row by row, and their colours in run order.
function runsOf(px: Uint32Array, w: number, h: number, mirror: boolean): { runs: Int32Array; colors: Uint32Array } {
    const runs: number[] = [],
        colors: number[] = [];
    for (let y = 0; y < h; y++) {
        for (let x = 0; x < w;) {
            const at = (i: number) => px[y * w + (mirror ? w - 1 - i : i)];
            if (at(x) >>> 24 < 128) {
                x++;
                continue;
            }
            const start = x;
            while (x < w && at(x) >>> 24 >= 128) colors.push(at(x++));
            runs.push(y, start, x - start, colors.length - (x - start));
        }
    }
    return { runs: Int32Array.from(runs), colors: Uint32Array.from(colors) };
}

function pixelsOf(source: CanvasImageSource, w: number, h: number): Uint32Array {
    const c = document.createElement('canvas');
    c.width = w;
    c.height = h;
    const ctx = c.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
    ctx.drawImage(source, 0, 0);
    return new Uint32Array(ctx.getImageData(0, 0, w, h).data.buffer);
}

/** A frame composed in one ImageData and put with one call. */
export class PixelBatch implements Batch {
    readonly baseRegion: Region;

    private readonly ctx: CanvasRenderingContext2D;
    private readonly image_: ImageData;
    private readonly frame: Uint32Array;
    private base: Uint32Array;
    private readonly sprites = new Map<string, Sprite>();
    private readonly width: number;
    private readonly height: number;

    /** A batch drawing into `canvas` (its size is the field) with `images` by name. */
    constructor(canvas: HTMLCanvasElement, images: ReadonlyMap<string, HTMLImageElement>) {
        // A GPU canvas (the frame is never read back): each put is one texture upload that the compositor
        // draws as it is. A canvas in memory (willReadFrequently) made the GPU process take every frame's
        // bitmap as a new resource: under SwiftShader it then spent about 37 ms of CPU a frame against 23,
        // and the page 21 against 15 (bench/demo.bench.ts). Opaque, as every frame starts from the opaque
        // base picture: nothing is drawn under it or blended.
        this.ctx = canvas.getContext('2d', { alpha: false }) as CanvasRenderingContext2D;
        this.width = canvas.width;
        this.height = canvas.height;
        this.baseRegion = { width: this.width, height: this.height };
        this.image_ = new ImageData(this.width, this.height);
        this.frame = new Uint32Array(this.image_.data.buffer);
        this.base = new Uint32Array(this.width * this.height);
        for (const [name, img] of images) {
            const pixels = pixelsOf(img, img.width, img.height),
                plain = runsOf(pixels, img.width, img.height, false);
            const mirrored = runsOf(pixels, img.width, img.height, true);
            this.sprites.set(name, {
                width: img.width,
                height: img.height,
                pixels,
                runs: plain.runs,
                colors: plain.colors,
                mirroredRuns: mirrored.runs,
                mirrored: mirrored.colors,
                starts: startsOf(plain.runs, this.width),
                mirroredStarts: startsOf(mirrored.runs, this.width)
            });
        }
    }

    region(name: string): Region {
        const s = this.sprites.get(name);
        if (!s)
            throw new Error(
                `No image ${JSON.stringify(name)} in the batch; it has ${[...this.sprites.keys()].join(', ')}.`
            );
        return s;
    }

    setBase(picture: HTMLCanvasElement): void {
        if (picture.width !== this.width || picture.height !== this.height) {
            throw new RangeError(
                `The base picture must be ${this.width}x${this.height}, got ${picture.width}x${picture.height}.`
            );
        }
        this.base = pixelsOf(picture, this.width, this.height);
    }

    image(r: Region, x: number, y: number, w: number, h: number, flip = false, alpha = 1): void {
        if (r === this.baseRegion) {
            this.frame.set(this.base);
            return;
        }
        const s = r as Sprite;
        if (w === s.width && h === s.height && alpha >= 1 && Number.isInteger(x) && Number.isInteger(y))
            this.copy(s, x, y, flip);
        else this.blend(s, x, y, w, h, flip, alpha);
    }

    rect(x: number, y: number, w: number, h: number, rgba: number, alpha = 1): void {
        // Opacity in 256ths, so the packed channels divide by a shift (>>> 8) without spilling into each other.
        const a = Math.round((Math.max(0, Math.min(1, alpha)) * (rgba & 255) * 256) / 255);
        if (a === 0) return;
        const W = this.width,
            x0 = Math.max(0, Math.round(x)),
            y0 = Math.max(0, Math.round(y));
        const x1 = Math.min(W, Math.round(x + w)),
            y1 = Math.min(this.height, Math.round(y + h));
        // ImageData words are 0xAABBGGRR: red and blue in one masked multiply, green in another.
        const rb = ((rgba >>> 24) | (((rgba >>> 8) & 255) << 16)) * a,
            gA = (((rgba >>> 16) & 255) << 8) * a,
            k = 256 - a;
        const f = this.frame;
        for (let yy = y0; yy < y1; yy++) {
            for (let i = yy * W + x0, end = yy * W + x1; i < end; i++) {
                const p = f[i];
                f[i] =
                    0xff000000 |
                    ((((p & 0xff00ff) * k + rb) >>> 8) & 0xff00ff) |
                    ((((p & 0xff00) * k + gA) >>> 8) & 0xff00);
            }
        }
    }

    box(x: number, y: number, w: number, h: number, rgba: number, line: number, alpha = 1): void {
        boxAsRects(this, x, y, w, h, rgba, line, alpha);
    }

    flush(): void {
        this.ctx.putImageData(this.image_, 0, 0);
    }

    // A sprite at its own size and full opacity: its opaque runs, clipped to the field.
    private copy(s: Sprite, x: number, y: number, flip: boolean): void {
        const runs = flip ? s.mirroredRuns : s.runs,
            colors = flip ? s.mirrored : s.colors,
            f = this.frame,
            W = this.width,
            H = this.height;
        if (x >= 0 && y >= 0 && x + s.width <= W && y + s.height <= H) {
            // Inside the field (nearly every sprite): no clipping, runs are consecutive in `colors`.
            const starts = flip ? s.mirroredStarts : s.starts,
                corner = y * W + x;
            for (let k = 0, c = 0; k < starts.length; k++) {
                for (let i = corner + starts[k], end = i + runs[4 * k + 2]; i < end; i++) f[i] = colors[c++];
            }
            return;
        }
        for (let k = 0; k < runs.length; k += 4) {
            const yy = y + runs[k];
            if (yy < 0 || yy >= H) continue;
            let xx = x + runs[k + 1],
                n = runs[k + 2],
                c = runs[k + 3];
            if (xx < 0) {
                c -= xx;
                n += xx;
                xx = 0;
            }
            if (xx + n > W) n = W - xx;
            for (let i = yy * W + xx, end = i + n; i < end; i++) f[i] = colors[c++];
        }
    }

    // Scaled and faded: nearest source pixel per destination pixel, blended by its alpha times `alpha`.
    private blend(s: Sprite, x: number, y: number, w: number, h: number, flip: boolean, alpha: number): void {
        const o = Math.max(0, Math.min(1, alpha));
        if (o === 0 || w <= 0 || h <= 0) return;
        const W = this.width,
            f = this.frame,
            px = s.pixels;
        const x0 = Math.max(0, Math.round(x)),
            y0 = Math.max(0, Math.round(y));
        const x1 = Math.min(W, Math.round(x + w)),
            y1 = Math.min(this.height, Math.round(y + h));
        for (let yy = y0; yy < y1; yy++) {
            const sy = Math.min(s.height - 1, Math.floor(((yy + 0.5 - y) * s.height) / h));
            for (let xx = x0; xx < x1; xx++) {
                let sx = Math.min(s.width - 1, Math.floor(((xx + 0.5 - x) * s.width) / w));
                if (flip) sx = s.width - 1 - sx;
                const c = px[sy * s.width + sx],
                    a = Math.round(((c >>> 24) * o * 256) / 255);
                if (a === 0) continue;
                const p = f[yy * W + xx],
                    k = 256 - a;
                f[yy * W + xx] =
                    0xff000000 |
                    ((((p & 0xff00ff) * k + (c & 0xff00ff) * a) >>> 8) & 0xff00ff) |
                    ((((p & 0xff00) * k + (c & 0xff00) * a) >>> 8) & 0xff00);
            }
        }
    }
}
