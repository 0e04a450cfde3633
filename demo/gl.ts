// A WebGL2 quad batcher for the demo's stress mode: every image the game draws lives in one texture (a
// full-field "base" picture, background and terrain, on top, the sprite frames below it), and a frame is
// one indexed draw call of textured, tinted rectangles. Per quad the page writes four 16-byte vertices into
// a typed array; nothing is allocated per frame, so 10,000 sprites cost about a millisecond of script.
// Plain vertices rather than instancing: SwiftShader (WebGL without a GPU) draws instanced quads several
// times slower.

import { boxAsRects, type Batch, type Region } from './batch.js';

/** Where an image sits in the batch's texture, in texels. */
interface Placed extends Region {
    readonly x: number;
    readonly y: number;
}

const VERTEX = `#version 300 es
layout(location = 0) in vec2 pos;
layout(location = 1) in vec2 tex;
layout(location = 2) in vec4 tint;
uniform vec2 view;
uniform vec2 texel;
out vec2 uv;
out vec4 color;
void main() {
    gl_Position = vec4(pos.x / view.x * 2.0 - 1.0, 1.0 - pos.y / view.y * 2.0, 0.0, 1.0);
    uv = tex * texel;
    color = tint;
}`;

const FRAGMENT = `#version 300 es
precision mediump float;
uniform sampler2D atlas;
in vec2 uv;
in vec4 color;
out vec4 outColor;
void main() {
    outColor = texture(atlas, uv) * color;
}`;

// Per vertex, 4 words: x, y (float32); u, v (uint16 texels); tint (4 bytes, premultiplied).
const WORDS = 4,
    QUAD = 4 * WORDS;
// Transparent texels between images, so linear filtering of a scaled image never bleeds in its neighbour.
const PAD = 2;

function compile(gl: WebGL2RenderingContext, type: number, text: string): WebGLShader {
    const s = gl.createShader(type) as WebGLShader;
    gl.shaderSource(s, text);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS))
        throw new Error(`WebGL shader did not compile: ${gl.getShaderInfoLog(s) ?? 'no log'}`);
    return s;
}

/** Textured, tinted quads in one texture, drawn in one call per {@link flush}. */
export class QuadBatch implements Batch {
    /** The base picture's region (0, 0, width, height): what {@link base} draws. */
    readonly baseRegion: Placed;
    /** A white block: {@link rect} draws with it. */
    private readonly white: Placed;
    /** Quads drawn by the last flush. */
    drawn = 0;

    private readonly gl: WebGL2RenderingContext;
    private readonly regions = new Map<string, Placed>();
    private readonly texture: WebGLTexture;
    private readonly buffer: WebGLBuffer;
    private readonly indices: WebGLBuffer;
    private data = new Float32Array(QUAD * 4096);
    private halves = new Uint16Array(this.data.buffer);
    private words = new Uint32Array(this.data.buffer);
    private count = 0;
    private capacity = 0;

    /**
     * The WebGL2 renderer's name where it is a GPU; null where WebGL2 is missing or drawn in software
     * (SwiftShader, llvmpipe: there 20,000 triangles a frame take longer than composing them in script).
     * Asked on a scratch canvas, since a canvas that once gave a WebGL context never gives a 2D one.
     */
    static hardware(): string | null {
        const gl = document.createElement('canvas').getContext('webgl2');
        if (!gl) return null;
        const info = gl.getExtension('WEBGL_debug_renderer_info');
        const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
        gl.getExtension('WEBGL_lose_context')?.loseContext();
        return /swiftshader|llvmpipe|softpipe|software/i.test(name) ? null : name;
    }

    /**
     * A batch drawing into `canvas` (its size is the field), with `images` packed under a base picture of the
     * canvas's size; null where the browser gives no WebGL2 context.
     */
    static create(canvas: HTMLCanvasElement, images: ReadonlyMap<string, HTMLImageElement>): QuadBatch | null {
        const gl = canvas.getContext('webgl2', {
            alpha: false,
            antialias: false,
            premultipliedAlpha: true,
            preserveDrawingBuffer: false
        });
        return gl ? new QuadBatch(gl, canvas.width, canvas.height, images) : null;
    }

    private constructor(
        gl: WebGL2RenderingContext,
        width: number,
        height: number,
        images: ReadonlyMap<string, HTMLImageElement>
    ) {
        this.gl = gl;
        this.baseRegion = { x: 0, y: 0, width, height };
        // Shelves of images under the base picture, left to right; then the white block.
        let x = 0,
            y = height + PAD,
            shelf = 0;
        const place = (w: number, h: number): Placed => {
            if (x + w > width) {
                x = 0;
                y += shelf + PAD;
                shelf = 0;
            }
            const r = { x, y, width: w, height: h };
            x += w + PAD;
            shelf = Math.max(shelf, h);
            return r;
        };
        for (const [name, img] of images) this.regions.set(name, place(img.width, img.height));
        this.white = place(4, 4);
        const texHeight = y + shelf;
        const max = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
        if (width > max || texHeight > max)
            throw new RangeError(`The demo's texture would be ${width}x${texHeight}; this WebGL allows ${max}x${max}.`);

        const program = gl.createProgram() as WebGLProgram;
        gl.attachShader(program, compile(gl, gl.VERTEX_SHADER, VERTEX));
        gl.attachShader(program, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
        gl.linkProgram(program);
        if (!gl.getProgramParameter(program, gl.LINK_STATUS))
            throw new Error(`WebGL program did not link: ${gl.getProgramInfoLog(program) ?? 'no log'}`);
        gl.useProgram(program);
        gl.uniform2f(gl.getUniformLocation(program, 'view'), width, height);
        gl.uniform2f(gl.getUniformLocation(program, 'texel'), 1 / width, 1 / texHeight);

        gl.bindVertexArray(gl.createVertexArray());
        this.indices = gl.createBuffer() as WebGLBuffer;
        this.buffer = gl.createBuffer() as WebGLBuffer;
        gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
        for (const [loc, size, type, normalized, offset] of [
            [0, 2, gl.FLOAT, false, 0],
            [1, 2, gl.UNSIGNED_SHORT, false, 8],
            [2, 4, gl.UNSIGNED_BYTE, true, 12]
        ] as const) {
            gl.enableVertexAttribArray(loc);
            gl.vertexAttribPointer(loc, size, type, normalized, WORDS * 4, offset);
        }

        this.texture = gl.createTexture() as WebGLTexture;
        gl.bindTexture(gl.TEXTURE_2D, this.texture);
        gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, width, texHeight, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
        for (const [name, img] of images) {
            const r = this.regions.get(name) as Placed;
            gl.texSubImage2D(gl.TEXTURE_2D, 0, r.x, r.y, gl.RGBA, gl.UNSIGNED_BYTE, img);
        }
        gl.texSubImage2D(
            gl.TEXTURE_2D,
            0,
            this.white.x,
            this.white.y,
            4,
            4,
            gl.RGBA,
            gl.UNSIGNED_BYTE,
            new Uint8Array(64).fill(255)
        );
        for (const p of [gl.TEXTURE_MIN_FILTER, gl.TEXTURE_MAG_FILTER]) gl.texParameteri(gl.TEXTURE_2D, p, gl.LINEAR);
        for (const p of [gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T]) gl.texParameteri(gl.TEXTURE_2D, p, gl.CLAMP_TO_EDGE);
        gl.enable(gl.BLEND);
        gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
        gl.viewport(0, 0, width, height);
    }

    /** The region of a packed image; throws for a name that was not packed. */
    region(name: string): Placed {
        const r = this.regions.get(name);
        if (!r)
            throw new Error(
                `No image ${JSON.stringify(name)} in the batch; it has ${[...this.regions.keys()].join(', ')}.`
            );
        return r;
    }

    /** Replaces the base picture (background and terrain) with a canvas of the field's size. */
    setBase(picture: HTMLCanvasElement): void {
        const { gl } = this;
        if (picture.width !== this.baseRegion.width || picture.height !== this.baseRegion.height) {
            throw new RangeError(
                `The base picture must be ${this.baseRegion.width}x${this.baseRegion.height}, got ${picture.width}x${picture.height}.`
            );
        }
        gl.bindTexture(gl.TEXTURE_2D, this.texture);
        gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, gl.RGBA, gl.UNSIGNED_BYTE, picture);
    }

    /** Queues a region drawn at (x, y) with size (w, h), optionally mirrored, with an opacity in 0..1. */
    image(region: Region, x: number, y: number, w: number, h: number, flip = false, alpha = 1): void {
        const r = region as Placed;
        const a = Math.round(Math.max(0, Math.min(1, alpha)) * 255);
        this.push(
            x,
            y,
            w,
            h,
            flip ? r.x + r.width : r.x,
            r.y,
            flip ? r.x : r.x + r.width,
            r.y + r.height,
            (a * 0x01010101) >>> 0
        );
    }

    /** Queues a filled rectangle; `rgba` is 0xRRGGBBAA (straight alpha), times `alpha`. */
    rect(x: number, y: number, w: number, h: number, rgba: number, alpha = 1): void {
        const a = (Math.max(0, Math.min(1, alpha)) * (rgba & 255)) / 255,
            k = (v: number) => Math.round(v * a) & 255;
        const color =
            (k(rgba >>> 24) |
                (k((rgba >>> 16) & 255) << 8) |
                (k((rgba >>> 8) & 255) << 16) |
                (Math.round(a * 255) << 24)) >>>
            0;
        const c = this.white.x + 1,
            m = this.white.y + 1;
        this.push(x, y, w, h, c, m, c + 1, m + 1, color);
    }

    /** Queues a box outline `line` pixels thick drawn inside (x, y, w, h), as the debug helpers' drawBox. */
    box(x: number, y: number, w: number, h: number, rgba: number, line: number, alpha = 1): void {
        boxAsRects(this, x, y, w, h, rgba, line, alpha);
    }

    /** Draws the queued quads over a cleared frame and empties the queue. */
    flush(): void {
        const { gl } = this;
        gl.clearColor(0, 0, 0, 1);
        gl.clear(gl.COLOR_BUFFER_BIT);
        gl.bindTexture(gl.TEXTURE_2D, this.texture);
        gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
        if (this.count > this.capacity) {
            // Room for the whole array: vertices, and two triangles (0 1 2, 2 1 3) per quad.
            const quads = (this.capacity = this.data.length / QUAD),
                index = new Uint32Array(6 * quads);
            for (let q = 0; q < quads; q++)
                index.set([4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 2, 4 * q + 1, 4 * q + 3], 6 * q);
            gl.bufferData(gl.ARRAY_BUFFER, this.data.byteLength, gl.STREAM_DRAW);
            gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.indices);
            gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, index, gl.STATIC_DRAW);
        }
        gl.bufferSubData(gl.ARRAY_BUFFER, 0, this.data, 0, this.count * QUAD);
        gl.drawElements(gl.TRIANGLES, 6 * this.count, gl.UNSIGNED_INT, 0);
        this.drawn = this.count;
        this.count = 0;
    }

    private push(
        x: number,
        y: number,
        w: number,
        h: number,
        u0: number,
        v0: number,
        u1: number,
        v1: number,
        color: number
    ): void {
        if ((this.count + 1) * QUAD > this.data.length) {
            const next = new Float32Array(this.data.length * 2);
            next.set(this.data);
            this.data = next;
            this.halves = new Uint16Array(next.buffer);
            this.words = new Uint32Array(next.buffer);
        }
        const f = this.data,
            hw = this.halves,
            wd = this.words,
            o = this.count++ * QUAD;
        // Corners: top-left, top-right, bottom-left, bottom-right.
        f[o] = x;
        f[o + 1] = y;
        hw[2 * o + 4] = u0;
        hw[2 * o + 5] = v0;
        wd[o + 3] = color;
        f[o + 4] = x + w;
        f[o + 5] = y;
        hw[2 * o + 12] = u1;
        hw[2 * o + 13] = v0;
        wd[o + 7] = color;
        f[o + 8] = x;
        f[o + 9] = y + h;
        hw[2 * o + 20] = u0;
        hw[2 * o + 21] = v1;
        wd[o + 11] = color;
        f[o + 12] = x + w;
        f[o + 13] = y + h;
        hw[2 * o + 28] = u1;
        hw[2 * o + 29] = v1;
        wd[o + 15] = color;
    }
}
