// Browser side of test/pixi.test.ts: the real PixiJS and hitmask/pixi in one page (bundled by esbuild). PixiJS 8,
// or PixiJS 7 when the test bundles it with `pixi.js` aliased to the `pixi7` package (HITMASK_PIXI=pixi7): the
// helpers below (`major`) build textures, sprites and renderers with each major's own API; the checks are the same.
// The reference masks here are computed from the test's own parameters and pictures, never from the adapter's
// matrices or its texture reading: a world pixel is set when its centre, moved by placeSprite's documented
// rounding of the mask's offset, maps back (through the pose with the angle quantised to 256 steps) into a
// solid pixel of the picture.
import * as PIXI from 'pixi.js';
import {
    AnimatedSprite,
    Application,
    Assets,
    Container,
    Graphics,
    Rectangle,
    RenderTexture,
    Sprite,
    Spritesheet,
    Texture,
    type SpritesheetFrameData,
    type Renderer,
    type TextureSource
} from 'pixi.js';
import type * as Pixi7 from 'pixi7';
import { MaskAtlas } from '../src/index.js';
import { Mask } from '../src/index.js';
import { placeSprite } from '../src/phaser.js';
import {
    addMaskAtlas,
    drawHitmask,
    forgetFrameMask,
    frameMask,
    hitmaskFor,
    hitTest,
    maskAtlasFor,
    overlap,
    overlaps,
    pixelHitArea,
    setAlphaThreshold,
    setFrameMask,
    shapeOf,
    type HitmaskOptions,
    type PlacedSprite
} from '../src/pixi.js';
import { mulberry32 } from '../bench/timing.js';
import { trim } from '../src/index.js';

const rng = mulberry32;

// The PixiJS major this page was bundled with. Names only one major exports are read from the namespace (a named
// import of them would not bundle against the other); PixiJS 7 objects are typed as their PixiJS 8 peers.
const V7 = PIXI.VERSION.startsWith('7.');
const P7 = PIXI as unknown as typeof Pixi7;
const P8: typeof PIXI = PIXI;
/** A texture source: PixiJS 8's TextureSource or PixiJS 7's BaseTexture. */
type Source = TextureSource | Pixi7.BaseTexture;

const major = {
    name: `PixiJS ${PIXI.VERSION}`,
    canvas(c: HTMLCanvasElement): Source {
        return V7
            ? new P7.BaseTexture(c, { scaleMode: P7.SCALE_MODES.NEAREST })
            : new P8.CanvasSource({ resource: c, scaleMode: 'nearest' });
    },
    bitmap(b: ImageBitmap | CanvasImageSource, resolution = 1): Source {
        return V7
            ? new P7.BaseTexture(b as ImageBitmap, { scaleMode: P7.SCALE_MODES.NEAREST, resolution })
            : new P8.ImageSource({ resource: b as ImageBitmap, scaleMode: 'nearest', resolution });
    },
    buffer(bytes: Uint8Array, width: number, height: number): Source {
        return V7
            ? P7.BaseTexture.fromBuffer(bytes, width, height, { scaleMode: P7.SCALE_MODES.NEAREST })
            : new P8.BufferImageSource({ resource: bytes, width, height, format: 'rgba8unorm', scaleMode: 'nearest' });
    },
    /** A texture of `source`: a frame (default all of it), its untrimmed size, trim, packed rotation and label. */
    texture(
        source: Source,
        o: { frame?: Rectangle; orig?: Rectangle; trim?: Rectangle; rotate?: number; label?: string } = {}
    ): Texture {
        if (!V7) return new Texture({ source: source as TextureSource, ...o });
        const t = new P7.Texture(
            source as Pixi7.BaseTexture,
            o.frame as unknown as Pixi7.Rectangle,
            o.orig as unknown as Pixi7.Rectangle,
            o.trim as unknown as Pixi7.Rectangle,
            o.rotate
        );
        if (o.label) P7.Texture.addToCache(t, o.label);
        return t as unknown as Texture;
    },
    /** A canvas's texture (not PixiJS 7's cached Texture.from: each call a new one). */
    fromCanvas(c: HTMLCanvasElement): Texture {
        return V7 ? (new P7.Texture(new P7.BaseTexture(c)) as unknown as Texture) : Texture.from(c);
    },
    source(t: Texture): Source {
        return V7 ? (t as unknown as Pixi7.Texture).baseTexture : t.source;
    },
    /** The image, bitmap or canvas behind a texture. */
    image(t: Texture): CanvasImageSource {
        return (
            V7
                ? ((t as unknown as Pixi7.Texture).baseTexture.resource as unknown as { source: CanvasImageSource })
                      .source
                : t.source.resource
        ) as CanvasImageSource;
    },
    nearest(t: Texture): void {
        if (V7) (t as unknown as Pixi7.Texture).baseTexture.scaleMode = P7.SCALE_MODES.NEAREST;
        else t.source.scaleMode = 'nearest';
    },
    /** A sprite of `texture` posed by `o` (PixiJS 7 has no options object). */
    sprite(
        texture: Texture,
        o: { anchor?: number; x?: number; y?: number; rotation?: number; scale?: { x: number; y: number } } = {}
    ): Sprite {
        const s = new Sprite(texture);
        if (o.anchor !== undefined) s.anchor.set(o.anchor);
        s.position.set(o.x ?? 0, o.y ?? 0);
        s.rotation = o.rotation ?? 0;
        if (o.scale) s.scale.set(o.scale.x, o.scale.y);
        return s;
    },
    /** A 200 × 200 WebGL renderer that renders a container into a render texture and returns its RGBA bytes. */
    async renderer(): Promise<{
        name: string;
        pixels(root: Container): Uint8Array | Uint8ClampedArray;
        destroy(): void;
    }> {
        const rt = RenderTexture.create({ width: 200, height: 200 });
        if (V7) {
            const r = P7.autoDetectRenderer({ width: 200, height: 200, antialias: false, backgroundAlpha: 0 });
            return {
                name: `webgl ${r.type}`,
                pixels: root => {
                    r.render(root as unknown as Pixi7.DisplayObject, {
                        renderTexture: rt as unknown as Pixi7.RenderTexture,
                        clear: true
                    });
                    return r.extract.pixels(rt as unknown as Pixi7.RenderTexture);
                },
                destroy: () => r.destroy()
            };
        }
        const r: Renderer = await P8.autoDetectRenderer({
            preference: 'webgl',
            width: 200,
            height: 200,
            antialias: false,
            backgroundAlpha: 0
        });
        return {
            name: r.name,
            pixels: root => {
                r.render({ container: root, target: rt, clear: true, clearColor: [0, 0, 0, 0] });
                return r.extract.pixels(rt).pixels;
            },
            destroy: () => r.destroy()
        };
    },
    /** An Application on a 200 × 200 WebGL canvas that starts no ticker. */
    async app(): Promise<{ app: Application; canvas: HTMLCanvasElement }> {
        if (V7) {
            const app = new P7.Application({
                width: 200,
                height: 200,
                antialias: false,
                backgroundAlpha: 0,
                autoStart: false
            });
            return { app: app as unknown as Application, canvas: app.view as HTMLCanvasElement };
        }
        const app = new Application();
        await app.init({
            width: 200,
            height: 200,
            antialias: false,
            backgroundAlpha: 0,
            preference: 'webgl',
            autoStart: false
        });
        return { app, canvas: app.canvas };
    },
    /** The app's stage rendered into a render texture: its RGBA bytes. */
    stagePixels(app: Application): Uint8Array | Uint8ClampedArray {
        const rt = RenderTexture.create({ width: 200, height: 200 });
        if (V7) {
            const r = (app as unknown as Pixi7.Application).renderer;
            r.render((app as unknown as Pixi7.Application).stage, {
                renderTexture: rt as unknown as Pixi7.RenderTexture,
                clear: true
            });
            return r.extract.pixels(rt as unknown as Pixi7.RenderTexture);
        }
        app.renderer.render({ container: app.stage, target: rt, clear: true, clearColor: [0, 0, 0, 0] });
        return app.renderer.extract.pixels(rt).pixels;
    }
};

/** A sprite picture: alpha per pixel of the untrimmed frame (ow × oh), and the texture that shows it. */
interface Picture {
    ow: number;
    oh: number;
    alpha: Uint8Array;
    texture: Texture;
    name: string;
}

// An asymmetric blob: a few ellipses, a thin spike, alpha values on both sides of the threshold (127/128).
function blob(r: () => number, w: number, h: number, margin: number): Uint8Array {
    const a = new Uint8Array(w * h);
    const n = 2 + Math.floor(r() * 3);
    for (let k = 0; k < n; k++) {
        const cx = margin + r() * (w - 2 * margin),
            cy = margin + r() * (h - 2 * margin);
        const rx = 1.5 + (r() * (w - 2 * margin)) / 2.5,
            ry = 1.5 + (r() * (h - 2 * margin)) / 2.5;
        for (let y = margin; y < h - margin; y++) {
            for (let x = margin; x < w - margin; x++) {
                const d = ((x + 0.5 - cx) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2;
                if (d < 1) a[y * w + x] = 255;
                else if (d < 1.3 && a[y * w + x] === 0) a[y * w + x] = r() < 0.5 ? 127 : 128;
            }
        }
    }
    // A one-pixel spike along the top-left, so that every flip and quarter turn shows.
    for (let x = margin; x < margin + Math.min(4, w - 2 * margin); x++) a[margin * w + x] = 200;
    return a;
}

// Bounding box of the pixels with alpha > 127.
function solidBox(p: { ow: number; oh: number; alpha: Uint8Array }): { x: number; y: number; w: number; h: number } {
    let x0 = Infinity,
        y0 = Infinity,
        x1 = -1,
        y1 = -1;
    for (let y = 0; y < p.oh; y++) {
        for (let x = 0; x < p.ow; x++) {
            if (p.alpha[y * p.ow + x] > 127) {
                x0 = Math.min(x0, x);
                x1 = Math.max(x1, x);
                y0 = Math.min(y0, y);
                y1 = Math.max(y1, y);
            }
        }
    }
    return x1 < 0 ? { x: 0, y: 0, w: 0, h: 0 } : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

/** Sprite pictures on three kinds of texture source: canvas, ImageBitmap, byte buffer; plain, trimmed, packed rotated. */
async function makePictures(seed: number): Promise<Picture[]> {
    const r = rng(seed);
    const S = 256;
    const atlas = new Uint8ClampedArray(S * S * 4);
    const specs: {
        ow: number;
        oh: number;
        alpha: Uint8Array;
        frame: Rectangle;
        trim?: Rectangle;
        rotate: number;
        name: string;
    }[] = [];
    let px = 0,
        py = 0,
        rowH = 0;
    // Packs a w × h rectangle of the atlas; returns its top-left.
    const place = (w: number, h: number): [number, number] => {
        if (px + w + 1 > S) {
            px = 0;
            py += rowH + 1;
            rowH = 0;
        }
        const at: [number, number] = [px, py];
        px += w + 1;
        rowH = Math.max(rowH, h);
        return at;
    };
    for (let k = 0; k < 6; k++) {
        const ow = 5 + Math.floor(r() * 36),
            oh = 5 + Math.floor(r() * 36);
        const kind = k % 3; // 0 plain frame, 1 trimmed, 2 trimmed and packed rotated (TexturePacker's 90° clockwise)
        const alpha = blob(r, ow, oh, kind === 0 ? 0 : 1 + Math.floor(r() * 4));
        const box = kind === 0 ? { x: 0, y: 0, w: ow, h: oh } : solidBox({ ow, oh, alpha });
        // Trim rects a packer would write: the content box, sometimes a pixel larger (transparent edge kept).
        const grow = kind !== 0 && r() < 0.5 && box.x > 0 && box.y > 0 ? 1 : 0;
        const tx = box.x - grow,
            ty = box.y - grow,
            tw = box.w + grow,
            th = box.h + grow;
        const rot = kind === 2;
        const [fx, fy] = place(rot ? th : tw, rot ? tw : th);
        for (let j = 0; j < th; j++) {
            for (let i = 0; i < tw; i++) {
                const a = alpha[(ty + j) * ow + tx + i];
                // Picture pixel (i, j) of the trim rect; rotated packing puts it at (fw − 1 − j, i).
                const ax = rot ? fx + th - 1 - j : fx + i,
                    ay = rot ? fy + i : fy + j;
                const o = (ay * S + ax) * 4;
                atlas[o] = 40 + i * 5;
                atlas[o + 1] = 200 - j * 4;
                atlas[o + 2] = 120;
                atlas[o + 3] = a;
            }
        }
        specs.push({
            ow,
            oh,
            alpha,
            rotate: rot ? 2 : 0,
            name: `${['plain', 'trimmed', 'rotated'][kind]}${k}`,
            frame: new Rectangle(fx, fy, rot ? th : tw, rot ? tw : th),
            trim: kind === 0 ? undefined : new Rectangle(tx, ty, tw, th)
        });
    }
    const canvas = document.createElement('canvas');
    canvas.width = S;
    canvas.height = S;
    canvas.getContext('2d')?.putImageData(new ImageData(atlas, S, S), 0, 0);
    const bitmap = await createImageBitmap(canvas, { premultiplyAlpha: 'none' });
    const sources: [string, Source][] = [
        ['canvas', major.canvas(canvas)],
        ['bitmap', major.bitmap(bitmap)],
        ['buffer', major.buffer(new Uint8Array(atlas.buffer.slice(0)), S, S)]
    ];
    const out: Picture[] = [];
    // The same frames as a TexturePacker-style sheet parsed by PixiJS's own Spritesheet (frame sizes unrotated).
    const data = { frames: {} as Record<string, SpritesheetFrameData>, meta: { scale: 1 } };
    for (const s of specs) {
        const w = s.rotate ? s.frame.height : s.frame.width,
            h = s.rotate ? s.frame.width : s.frame.height;
        data.frames[s.name] = {
            frame: { x: s.frame.x, y: s.frame.y, w, h },
            rotated: s.rotate !== 0,
            trimmed: s.trim !== undefined,
            spriteSourceSize: { x: s.trim?.x ?? 0, y: s.trim?.y ?? 0, w, h },
            sourceSize: { w: s.ow, h: s.oh }
        };
    }
    const sheet = new Spritesheet(major.texture(major.canvas(canvas)), data);
    await sheet.parse();
    for (const s of specs)
        out.push({ ow: s.ow, oh: s.oh, alpha: s.alpha, texture: sheet.textures[s.name], name: `sheet-${s.name}` });
    for (const [sname, source] of sources) {
        for (const s of specs) {
            const texture = major.texture(source, {
                frame: s.frame,
                orig: new Rectangle(0, 0, s.ow, s.oh),
                trim: s.trim,
                rotate: s.rotate,
                label: `${sname}-${s.name}`
            });
            out.push({ ow: s.ow, oh: s.oh, alpha: s.alpha, texture, name: `${sname}-${s.name}` });
        }
    }
    return out;
}

/** The parameters of one placement, applied to PixiJS objects by `apply` and used by `reference`. */
interface Params {
    pic: number;
    anim: boolean;
    ax: number;
    ay: number;
    pivx: number;
    pivy: number;
    orx: number;
    ory: number;
    x: number;
    y: number;
    sx: number;
    sy: number;
    rot: number;
    // Parent container: uniform scale k > 0 (non-uniform scale with rotation would skew), rotation, position, pivot.
    k: number;
    prot: number;
    ppx: number;
    ppy: number;
    ppivx: number;
    ppivy: number;
    camera: boolean;
}

function randomParams(r: () => number, pics: number): Params {
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
    const scale = () => (r() < 0.3 ? -1 : 1) * pick([1, 1, 2, 0.5, 0.3 + r() * 2.7, 1.5]);
    const angle = () =>
        pick([
            0,
            Math.PI / 2,
            Math.PI,
            -Math.PI / 2,
            (Math.floor(r() * 256) * Math.PI) / 128,
            (r() - 0.5) * 4 * Math.PI,
            r() * 2 * Math.PI
        ]);
    const coord = () => pick([Math.floor(r() * 60), Math.floor(r() * 60) + 0.5, r() * 60]);
    const nested = r() < 0.5;
    return {
        pic: Math.floor(r() * pics),
        anim: r() < 0.2,
        ax: pick([0, 0.5, 1, r()]),
        ay: pick([0, 0.5, 1, r()]),
        pivx: r() < 0.6 ? 0 : (r() - 0.5) * 20,
        pivy: r() < 0.6 ? 0 : (r() - 0.5) * 20,
        // (PixiJS 7 has no `origin`: drawn all the same, so that both majors get the same other parameters.)
        orx: (r() < 0.8 ? 0 : (r() - 0.5) * 20) * (V7 ? 0 : 1),
        ory: (r() < 0.8 ? 0 : (r() - 0.5) * 20) * (V7 ? 0 : 1),
        x: coord(),
        y: coord(),
        sx: scale(),
        sy: scale(),
        rot: angle(),
        k: nested ? pick([1, 2, 0.5, 0.5 + r()]) : 1,
        prot: nested ? angle() : 0,
        ppx: nested ? (r() - 0.5) * 40 : 0,
        ppy: nested ? (r() - 0.5) * 40 : 0,
        ppivx: nested && r() < 0.5 ? (r() - 0.5) * 20 : 0,
        ppivy: nested && r() < 0.5 ? (r() - 0.5) * 20 : 0,
        camera: r() < 0.25
    };
}

/** A sprite (or an AnimatedSprite showing the picture as its current frame) in its own parent, posed by `p`. */
function apply(p: Params, pics: Picture[], root: Container): Sprite {
    const tex = pics[p.pic].texture;
    let s: Sprite;
    if (p.anim) {
        const frames = [pics[(p.pic + 1) % pics.length].texture, tex, pics[(p.pic + 2) % pics.length].texture];
        const a = new AnimatedSprite(frames);
        a.gotoAndStop(1);
        s = a;
    } else {
        s = new Sprite(tex);
    }
    s.anchor.set(p.ax, p.ay);
    s.pivot.set(p.pivx, p.pivy);
    if (!V7) s.origin.set(p.orx, p.ory);
    s.position.set(p.x, p.y);
    s.scale.set(p.sx, p.sy);
    s.rotation = p.rot;
    const parent = new Container();
    parent.scale.set(p.k);
    parent.rotation = p.prot;
    parent.position.set(p.ppx, p.ppy);
    parent.pivot.set(p.ppivx, p.ppivy);
    parent.addChild(s);
    root.addChild(parent);
    return s;
}

const STEPS = 256;

/**
 * The reference: the set world pixels as a predicate, their box, and the ambiguous pixels (centre on a pixel
 * edge). Poses compose as PixiJS documents them: local point q of the sprite goes to
 * position + origin + R(rotation)·S(scale)·(q − pivot − origin), then through the parent likewise.
 */
function reference(
    p: Params,
    pic: Picture
): {
    get: (X: number, Y: number, shift: number) => 0 | 1 | 2;
    x0: number;
    y0: number;
    x1: number;
    y1: number;
    shifts: number;
} {
    const box = solidBox(pic);
    // Frame pixel f (mask coordinates, box top-left = 0) is at local point f + box − anchor·orig.
    const Ox = p.ax * pic.ow - box.x,
        Oy = p.ay * pic.oh - box.y;
    // Local (0, 0) in the parent, then in the world.
    const cs = Math.cos(p.rot),
        ss = Math.sin(p.rot),
        cp = Math.cos(p.prot),
        sp = Math.sin(p.prot);
    const qx = -p.pivx - p.orx,
        qy = -p.pivy - p.ory;
    const lx = p.x + p.orx + cs * p.sx * qx - ss * p.sy * qy,
        ly = p.y + p.ory + ss * p.sx * qx + cs * p.sy * qy;
    const Px = p.ppx + p.k * (cp * (lx - p.ppivx) - sp * (ly - p.ppivy)),
        Py = p.ppy + p.k * (sp * (lx - p.ppivx) + cp * (ly - p.ppivy));
    // The linear part R(rot + prot)·diag(k·sx, k·sy), with the angle quantised as the transform cache does.
    const theta = p.rot + p.prot;
    const step = ((Math.round((theta / (2 * Math.PI)) * STEPS) % STEPS) + STEPS) % STEPS;
    const quarter = (step * 4) % STEPS === 0;
    const cq = quarter ? [1, 0, -1, 0][(step * 4) / STEPS] : Math.cos((step * 2 * Math.PI) / STEPS);
    const sq = quarter ? [0, 1, 0, -1][(step * 4) / STEPS] : Math.sin((step * 2 * Math.PI) / STEPS);
    const Sx = p.k * p.sx,
        Sy = p.k * p.sy;
    // A = [[cq·Sx, −sq·Sy], [sq·Sx, cq·Sy]]; world = P + A·(f − O).
    const cx = box.w / 2,
        cy = box.h / 2;
    const Tx = Px - cx + cq * Sx * (cx - Ox) - sq * Sy * (cy - Oy),
        Ty = Py - cy + sq * Sx * (cx - Ox) + cq * Sy * (cy - Oy);
    // placeSprite's rounding of the offset: nearest integer, ties toward −∞. When T sits on a tie (within float
    // noise) both roundings are candidates.
    const rounds = (t: number) =>
        Math.abs(t - Math.floor(t) - 0.5) < 1e-9 ? [Math.floor(t), Math.ceil(t)] : [Math.floor(t + 0.5)];
    const solid = (i: number, j: number) =>
        i >= 0 && j >= 0 && i < box.w && j < box.h && pic.alpha[(box.y + j) * pic.ow + box.x + i] > 127;
    const rxs = rounds(Tx),
        rys = rounds(Ty),
        [Rx] = rxs,
        [Ry] = rys;
    const shifts = rxs.length * rys.length;
    // Frame point of world pixel centre (X + 0.5, Y + 0.5): c + A⁻¹·(X + 0.5 − round(T) − c).
    const det = Sx * Sy;
    const get = (X: number, Y: number, rx = Rx, ry = Ry): 0 | 1 | 2 => {
        const dx = X + 0.5 - rx - cx,
            dy = Y + 0.5 - ry - cy;
        const u = cx + (cq * Sy * dx + sq * Sy * dy) / det,
            v = cy + (-sq * Sx * dx + cq * Sx * dy) / det;
        const e = 1e-7;
        const us = Math.abs(u - Math.round(u)) < e ? [Math.floor(u - e), Math.floor(u + e)] : [Math.floor(u)];
        const vs = Math.abs(v - Math.round(v)) < e ? [Math.floor(v - e), Math.floor(v + e)] : [Math.floor(v)];
        let on = 0,
            off = 0;
        for (const i of us)
            for (const j of vs)
                if (solid(i, j)) on++;
                else off++;
        return on === 0 ? 0 : off === 0 ? 1 : 2; // 2: on a pixel edge between solid and clear, either is right
    };
    // World box of the frame box, grown by 2 px.
    let x0 = Infinity,
        y0 = Infinity,
        x1 = -Infinity,
        y1 = -Infinity;
    for (const [u, v] of [
        [0, 0],
        [box.w, 0],
        [0, box.h],
        [box.w, box.h]
    ]) {
        const wx = Rx + cx + cq * Sx * (u - cx) - sq * Sy * (v - cy),
            wy = Ry + cy + sq * Sx * (u - cx) + cq * Sy * (v - cy);
        x0 = Math.min(x0, wx);
        x1 = Math.max(x1, wx);
        y0 = Math.min(y0, wy);
        y1 = Math.max(y1, wy);
    }
    // Candidate `shift` (0 .. shifts − 1) picks one rounding per axis.
    return {
        get: (X, Y, shift) => get(X, Y, rxs[shift % rxs.length], rys[Math.floor(shift / rxs.length)]),
        x0: Math.floor(x0) - 2,
        y0: Math.floor(y0) - 2,
        x1: Math.ceil(x1) + 2,
        y1: Math.ceil(y1) + 2,
        shifts
    };
}

/** ≥ n seeded placements: the adapter's placed mask against the reference; overlaps() of neighbours against both masks. */
async function placements(seed: number, n: number) {
    const pics = await makePictures(seed);
    const r = rng(seed ^ 0x5eed);
    const stage = new Container();
    const camera = new Container();
    camera.scale.set(2);
    camera.position.set(-37.25, 11.5);
    camera.rotation = 0.3;
    stage.addChild(camera);
    const inCamera: HitmaskOptions = { space: camera };
    const failures: string[] = [];
    let ties = 0,
        tieShifts = 0,
        compared = 0,
        anim = 0,
        rotated = 0,
        flipped = 0,
        trimmed = 0,
        nested = 0,
        cam = 0;
    let pairs = 0,
        pixelHits = 0,
        boxOnly = 0;
    let prev: { sprite: Sprite; placed: PlacedSprite; camera: boolean } | null = null;
    for (let i = 0; i < n; i++) {
        const p = randomParams(r, pics.length);
        const pic = pics[p.pic];
        const sprite = apply(p, pics, p.camera ? camera : stage);
        const placed = p.camera ? hitmaskFor(sprite, inCamera) : hitmaskFor(sprite);
        const ref = reference(p, pic);
        if (ref.shifts > 1) tieShifts++;
        // The placed mask must equal the reference for one candidate rounding of the offset (one unless T is on a tie).
        let best = Infinity,
            bestTies = 0;
        for (let shift = 0; shift < ref.shifts; shift++) {
            let bad = 0,
                inside = 0,
                tie = 0;
            for (let Y = ref.y0; Y <= ref.y1; Y++) {
                for (let X = ref.x0; X <= ref.x1; X++) {
                    const want = ref.get(X, Y, shift);
                    const got = placed.mask.get(X - placed.x, Y - placed.y) ? 1 : 0;
                    if (got) inside++;
                    if (want === 2) tie++;
                    else if (want !== got) bad++;
                }
            }
            // Every set pixel of the placed mask lies in the compared window.
            bad += placed.mask.count() - inside;
            if (bad < best) {
                best = bad;
                bestTies = tie;
            }
        }
        ties += bestTies;
        compared++;
        if (best > 0 && failures.length < 5)
            failures.push(`placement ${i} (${pic.name}): ${best} pixels differ; ${JSON.stringify(p)}`);
        anim += p.anim ? 1 : 0;
        rotated += pic.texture.rotate ? 1 : 0;
        trimmed += pic.texture.trim ? 1 : 0;
        flipped += p.sx < 0 || p.sy < 0 ? 1 : 0;
        nested += p.k !== 1 || p.prot !== 0 ? 1 : 0;
        cam += p.camera ? 1 : 0;
        // overlaps() of this sprite and the previous one (same space) against the two placed masks, pixel by pixel.
        if (prev && prev.camera === p.camera) {
            const a = prev,
                A = a.placed,
                B = placed;
            let truth = false;
            for (let y = 0; y < B.mask.height && !truth; y++) {
                for (let x = 0; x < B.mask.width; x++) {
                    if (B.mask.get(x, y) && A.mask.get(x + B.x - A.x, y + B.y - A.y)) {
                        truth = true;
                        break;
                    }
                }
            }
            const got = p.camera ? overlaps(a.sprite, sprite, inCamera) : overlaps(a.sprite, sprite);
            const point = overlap(a.sprite, sprite, p.camera ? inCamera : undefined);
            pairs++;
            if (truth) pixelHits++;
            const boxes =
                A.x < B.x + B.mask.width &&
                B.x < A.x + A.mask.width &&
                A.y < B.y + B.mask.height &&
                B.y < A.y + A.mask.height;
            if (boxes && !truth) boxOnly++;
            if (got !== truth && failures.length < 10) failures.push(`pair ${i}: overlaps ${got}, masks say ${truth}`);
            if (
                (point !== null) !== truth ||
                (point && !(A.mask.get(point.x - A.x, point.y - A.y) && B.mask.get(point.x - B.x, point.y - B.y)))
            ) {
                if (failures.length < 10) failures.push(`pair ${i}: overlap point ${JSON.stringify(point)} wrong`);
            }
        }
        prev = { sprite, placed: { mask: placed.mask, x: placed.x, y: placed.y }, camera: p.camera };
    }
    return {
        compared,
        ties,
        tieShifts,
        failures,
        anim,
        rotated,
        trimmed,
        flipped,
        nested,
        cam,
        pairs,
        pixelHits,
        boxOnly
    };
}

/**
 * `n` seeded poses (the placements' generator, without `origin`, which PixiJS 7 lacks), one line each: the placed
 * mask (box and a hash of its words), overlaps() with each of the 8 poses before it (1 = true), and whether hitTest
 * agrees with the placed mask at 64 points of its box. test/pixi.test.ts compares the lines of PixiJS 7 and 8.
 */
async function poses(seed: number, n: number): Promise<string[]> {
    const pics = await makePictures(seed);
    const r = rng(seed ^ 0x9a7e),
        stage = new Container(),
        lines: string[] = [];
    const prev: Sprite[] = [];
    for (let i = 0; i < n; i++) {
        const p = { ...randomParams(r, pics.length), orx: 0, ory: 0 };
        const sprite = apply(p, pics, stage),
            placed = hitmaskFor(sprite),
            m = placed.mask;
        let h = 0x811c9dc5;
        for (const w of m.words) h = Math.imul(h ^ w, 0x01000193) >>> 0;
        let agree = 0;
        for (let k = 0; k < 64; k++) {
            const X = placed.x + Math.floor(r() * (m.width + 2)) - 1,
                Y = placed.y + Math.floor(r() * (m.height + 2)) - 1;
            if (hitTest(sprite, X + r(), Y + r()) === m.get(X - placed.x, Y - placed.y)) agree++;
        }
        lines.push(
            `${placed.x},${placed.y} ${m.width}x${m.height} #${h.toString(16)} overlaps ${prev.map(q => (overlaps(q, sprite) ? 1 : 0)).join('')} hitTest ${agree}/64`
        );
        if (prev.unshift(sprite) > 8) prev.pop();
    }
    return lines;
}

/** Renders poses with the real renderer and compares the rendered alpha (> 127) with the placed masks. */
async function renderCheck(seed: number) {
    const renderer = await major.renderer();
    const pics = await makePictures(seed);
    const alien = await Assets.load<Texture>('sprites/alien1.png');
    major.nearest(alien);
    // The picture of a source and kind with the most solid pixels (the seeded ones vary in size).
    const solidCount = (q: Picture) => q.alpha.reduce((n, a) => n + (a > 127 ? 1 : 0), 0);
    const biggest = (prefix: string) =>
        pics.filter(q => q.name.startsWith(prefix)).sort((a, b) => solidCount(b) - solidCount(a))[0].texture;
    const results: {
        name: string;
        solid: number;
        rendered: number;
        band: number;
        far: number;
        shifted: number;
        aligned: boolean;
    }[] = [];
    const rendered = (root: Container): Uint8Array | Uint8ClampedArray => renderer.pixels(root);
    const poses: [string, Texture | Texture[], Partial<Params>][] = [
        ['alien anchor 0.5, flipped x', alien, { ax: 0.5, ay: 0.5, x: 100, y: 100, sx: -1, sy: 1 }],
        [
            'alien rotated 0.7, scale 1.5/0.8',
            alien,
            { ax: 0.5, ay: 0.5, x: 100.3, y: 98.6, sx: 1.5, sy: 0.8, rot: 0.7 }
        ],
        [
            'alien pivot, flipped y, quarter turn',
            alien,
            { ax: 0, ay: 0, pivx: 20, pivy: 10, x: 90, y: 110, sx: 1, sy: -1, rot: Math.PI / 2 }
        ],
        [
            'rotated-packed trimmed, scale 3, flipped',
            biggest('canvas-rotated'),
            { ax: 0.3, ay: 0.8, x: 100, y: 100, sx: -3, sy: 3, rot: -1.1 }
        ],
        [
            'trimmed bitmap, scale 2.5, anchor 1',
            biggest('bitmap-trimmed'),
            { ax: 1, ay: 1, x: 150, y: 150, sx: 2.5, sy: 2.5, rot: (2 * Math.PI * 37) / 256 }
        ],
        [
            'buffer rotated-packed, in a rotated scaled parent',
            biggest('buffer-rotated'),
            { ax: 0.5, ay: 0.5, x: 10, y: 5, sx: 2, sy: -2, rot: 0.4, k: 1.5, prot: 0.5, ppx: 100, ppy: 90 }
        ],
        [
            'Spritesheet rotated trimmed frame, flipped y',
            biggest('sheet-rotated'),
            { ax: 0.5, ay: 0.2, x: 100, y: 100, sx: 2, sy: -2.5, rot: 2.5 }
        ],
        [
            '@2x source (resolution 2), rotated',
            major.texture(major.bitmap(major.image(alien), 2)),
            { ax: 0.5, ay: 0.5, x: 100, y: 100, sx: 1.5, sy: 1.5, rot: 0.9 }
        ],
        [
            'animated, current frame',
            [pics[0].texture, pics[5].texture, pics[4].texture],
            { ax: 0.5, ay: 0.5, x: 100, y: 100, sx: 3, sy: 3, rot: 0.25, anim: true }
        ]
    ];
    for (const [name, tex, over] of poses) {
        const root = new Container();
        const s = Array.isArray(tex) ? new AnimatedSprite(tex) : new Sprite(tex);
        if (s instanceof AnimatedSprite) s.gotoAndStop(1);
        const p: Params = {
            pic: 0,
            anim: false,
            ax: 0,
            ay: 0,
            pivx: 0,
            pivy: 0,
            orx: 0,
            ory: 0,
            x: 0,
            y: 0,
            sx: 1,
            sy: 1,
            rot: 0,
            k: 1,
            prot: 0,
            ppx: 0,
            ppy: 0,
            ppivx: 0,
            ppivy: 0,
            camera: false,
            ...over
        };
        s.anchor.set(p.ax, p.ay);
        s.pivot.set(p.pivx, p.pivy);
        s.position.set(p.x, p.y);
        s.scale.set(p.sx, p.sy);
        s.rotation = p.rot;
        const parent = new Container();
        parent.scale.set(p.k);
        parent.rotation = p.prot;
        parent.position.set(p.ppx, p.ppy);
        parent.addChild(s);
        root.addChild(parent);
        const px = rendered(root);
        const placed = hitmaskFor(s);
        const on = (X: number, Y: number) => X >= 0 && Y >= 0 && X < 200 && Y < 200 && px[(Y * 200 + X) * 4 + 3] > 127;
        let solid = 0,
            rend = 0,
            band = 0,
            far = 0;
        for (let Y = 0; Y < 200; Y++) {
            for (let X = 0; X < 200; X++) {
                const m = placed.mask.get(X - placed.x, Y - placed.y),
                    g = on(X, Y);
                if (m) solid++;
                if (g) rend++;
                if (m === g) continue;
                // A difference is allowed only on the rendered boundary: the placed value occurs within 1 px.
                let near = false;
                for (let dy = -1; dy <= 1 && !near; dy++)
                    for (let dx = -1; dx <= 1; dx++)
                        if (on(X + dx, Y + dy) === m) {
                            near = true;
                            break;
                        }
                if (near) band++;
                else far++;
            }
        }
        // And the placement is aligned: no 1-pixel move of the placed mask fits the rendering markedly better (the
        // offset's rounding may leave it half a pixel off, when a move fits about as well; a wrong convention is ≥ 1 px off).
        const diff = (dx: number, dy: number) => {
            let d = 0;
            for (let Y = 0; Y < 200; Y++)
                for (let X = 0; X < 200; X++)
                    if (placed.mask.get(X - dx - placed.x, Y - dy - placed.y) !== on(X, Y)) d++;
            return d;
        };
        const here = diff(0, 0);
        let shifted = Infinity;
        for (const [dx, dy] of [
            [-1, -1],
            [0, -1],
            [1, -1],
            [-1, 0],
            [1, 0],
            [-1, 1],
            [0, 1],
            [1, 1]
        ])
            shifted = Math.min(shifted, diff(dx, dy));
        results.push({ name, solid, rendered: rend, band, far, shifted, aligned: here <= 1.2 * shifted });
    }
    // drawHitmask: the placed mask's pixels drawn as rectangles cover exactly its pixels.
    const sprite = major.sprite(alien, { anchor: 0.5, x: 100.4, y: 99.7, rotation: 0.9, scale: { x: -1.3, y: 1.1 } });
    // PixiJS 7's Graphics keeps a line style as state: a game's is kept, and not drawn around the mask's runs.
    const g = new Graphics();
    if (V7) (g as unknown as Pixi7.Graphics).lineStyle(3, 0x123456);
    drawHitmask(g, sprite, { color: 0xffffff, alpha: 1 });
    const lineKept =
        !V7 ||
        ((g as unknown as Pixi7.Graphics).line.width === 3 && (g as unknown as Pixi7.Graphics).line.color === 0x123456);
    const gp = rendered(g);
    const placed = hitmaskFor(sprite);
    let drawDiff = 0;
    for (let Y = 0; Y < 200; Y++)
        for (let X = 0; X < 200; X++)
            if (gp[(Y * 200 + X) * 4 + 3] > 127 !== placed.mask.get(X - placed.x, Y - placed.y)) drawDiff++;
    const o = new Graphics();
    drawHitmask(o, sprite, { color: null, outline: 0xff0000, box: 0x00ff00 });
    const info = {
        renderer: renderer.name,
        lineKept,
        drawDiff,
        drawCount: placed.mask.count(),
        outlineDrawn: rendered(o).some((v, i) => i % 4 === 3 && v > 0)
    };
    renderer.destroy();
    return { results, ...info };
}

/** Mask reading: real PNG through Assets (an ImageBitmap or image element) against the same PNG drawn on a canvas. */
async function readCheck() {
    const alien = await Assets.load<Texture>('sprites/alien1.png');
    const img = new Image();
    img.src = 'sprites/alien1.png';
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d');
    ctx?.drawImage(img, 0, 0);
    const direct = trim(Mask.fromImageData(ctx?.getImageData(0, 0, c.width, c.height) ?? new ImageData(1, 1)));
    const fm = frameMask(alien);
    const same = fm.mask.equals(direct.mask) && fm.x === direct.x && fm.y === direct.y;
    // Cached: the second call returns the same mask; a changed frame is read again.
    const again = frameMask(alien) === fm;
    const cx = Math.floor(alien.width / 2),
        cy = Math.floor(alien.height / 2);
    const sub = major.texture(major.source(alien), { frame: new Rectangle(cx - 5, cy - 5, 10, 10) });
    const before = frameMask(sub).mask.count();
    sub.frame.x = cx - 15;
    sub.frame.y = cy - 15;
    sub.frame.width = 30;
    sub.frame.height = 30;
    sub.updateUvs();
    const after = frameMask(sub).mask.count();
    // A `.hitmask` atlas frame (trimmed mask + offset, through toBytes/from) gives the same placements as the pixels.
    // (The alien drawn at (7, 5) on a larger canvas, so that the trimmed mask has an offset.)
    const padded = document.createElement('canvas');
    padded.width = img.width + 12;
    padded.height = img.height + 9;
    padded.getContext('2d')?.drawImage(img, 7, 5);
    const paddedTexture = major.fromCanvas(padded);
    const pf = frameMask(paddedTexture);
    const atlas = new MaskAtlas().add('alien', pf.mask.clone(), {
        x: pf.x,
        y: pf.y,
        sourceWidth: padded.width,
        sourceHeight: padded.height
    });
    const posed = major.sprite(paddedTexture, { anchor: 0.3, rotation: 1, x: 50.5, y: 20, scale: { x: -1.5, y: 2 } });
    const pd = hitmaskFor(posed);
    // shapeOf(): the frame mask and the pose (flip kept on x, the sprite's own angle) that place like hitmaskFor().
    const hm = shapeOf(posed),
        viaPose = placeSprite(hm.mask, hm.pose);
    const poseOk =
        hm.pose.scaleX === -1.5 &&
        hm.pose.scaleY === 2 &&
        Math.abs(hm.pose.angle - 1) < 1e-12 &&
        hm.pose.x === 50.5 &&
        hm.pose.y === 20 &&
        viaPose.mask.equals(pd.mask) &&
        viaPose.x === pd.x &&
        viaPose.y === pd.y &&
        // A posed mask is placed and tested as it is: the same answers as the sprite.
        hitmaskFor(hm).mask.equals(viaPose.mask) &&
        hitmaskFor(hm).x === pd.x &&
        overlaps(hm, posed) === overlaps(posed, posed);
    const loaded = MaskAtlas.from(atlas.toBytes()),
        unbound = maskAtlasFor(paddedTexture);
    const used = addMaskAtlas(loaded, { alien: paddedTexture, notInAtlas: sub });
    const pa = hitmaskFor(posed),
        bound = frameMask(paddedTexture);
    const atlasSame =
        used === 1 &&
        unbound === undefined &&
        maskAtlasFor(paddedTexture) === loaded &&
        maskAtlasFor(sub) === undefined &&
        pf.x === 7 &&
        pf.y === 5 &&
        pf.source === 'pixels' &&
        bound.mask !== pf.mask &&
        bound.source === 'atlas' &&
        bound.width === padded.width &&
        bound.height === padded.height &&
        pa.mask.equals(pd.mask) &&
        pa.x === pd.x &&
        pa.y === pd.y;
    // forgetFrameMask: the texture's mask is read from its pixels again.
    forgetFrameMask(paddedTexture);
    const forgotten = maskAtlasFor(paddedTexture) === undefined ? frameMask(paddedTexture).source : 'still bound';
    // setFrameMask: a RenderTexture (no pixels to read) collides with the mask given, at its offset.
    const rtex = RenderTexture.create({ width: 8, height: 8 });
    setFrameMask(rtex, new Mask(3, 3, true), 2, 1);
    const given = frameMask(rtex),
        onRt = hitmaskFor(major.sprite(rtex, { x: 10, y: 20 }));
    const custom =
        given.source === 'custom' &&
        given.width === 8 &&
        given.x === 2 &&
        onRt.mask.count() === 9 &&
        onRt.x === 12 &&
        onRt.y === 21;
    // setAlphaThreshold: alpha 102 is clear at 127 (the default), solid at 50; masks read so far are read again.
    const faint = document.createElement('canvas');
    faint.width = 6;
    faint.height = 4;
    const fctx = faint.getContext('2d');
    if (fctx) {
        fctx.fillStyle = 'rgba(255, 255, 255, 0.4)';
        fctx.fillRect(0, 0, 6, 4);
    }
    const faintTexture = major.fromCanvas(faint);
    const threshold = [frameMask(faintTexture).mask.count()];
    setAlphaThreshold(50);
    threshold.push(frameMask(faintTexture).mask.count());
    setAlphaThreshold(127);
    threshold.push(frameMask(faintTexture).mask.count());
    // A sprite without a texture yet (Texture.EMPTY) collides with nothing; a RenderTexture has no pixels to read.
    const emptyHits = overlaps(new Sprite(), new Sprite(alien));
    let gpuOnly = '';
    try {
        frameMask(RenderTexture.create({ width: 8, height: 8 }));
    } catch (e) {
        gpuOnly = `${(e as Error).name}: ${(e as Error).message}`;
    }
    let threw = '';
    try {
        hitmaskFor({} as Sprite);
    } catch (e) {
        threw = `${(e as Error).name}: ${(e as Error).message}`;
    }
    let skew = '';
    try {
        const s = new Sprite(alien);
        s.skew.set(0.3, 0);
        hitmaskFor(s);
    } catch (e) {
        skew = `${(e as Error).name}`;
    }
    // An atlas frame of another size than its texture: refused, and nothing bound (not even the good pair).
    const small = new MaskAtlas()
        .add('alien', new Mask(5, 5, true), { sourceWidth: 5, sourceHeight: 5 })
        .add('padded', new Mask(1, 1, true), { sourceWidth: padded.width, sourceHeight: padded.height });
    let wrongSize = '';
    try {
        addMaskAtlas(small, { padded: paddedTexture, alien });
    } catch (e) {
        wrongSize = `${(e as Error).name}: ${(e as Error).message}`;
    }
    // (Bound, the padded texture's mask would be the atlas's single pixel.)
    const wrongBound =
        frameMask(paddedTexture).source === 'pixels' && frameMask(paddedTexture).mask.count() === pf.mask.count()
            ? 'read from pixels'
            : 'from the atlas';
    // A NaN scale: named as the transform, not as a bad pose.x.
    let nan = '';
    try {
        const s = new Sprite(alien);
        s.scale.x = NaN;
        hitmaskFor(s);
    } catch (e) {
        nan = `${(e as Error).name}: ${(e as Error).message}`;
    }
    // Pointer picking refuses a NaN point and a non-sprite.
    const badPick: string[] = [];
    for (const f of [() => hitTest(new Sprite(alien), NaN, 0), () => pixelHitArea({} as Sprite)]) {
        try {
            f();
        } catch (e) {
            badPick.push(`${(e as Error).name}: ${(e as Error).message}`);
        }
    }
    // A destroyed texture: our Error, not a failed read of its null source. (The sprite first: PixiJS 7's Sprite
    // cannot take a destroyed texture.)
    const doomed = major.fromCanvas(padded),
        doomedSprite = new Sprite(doomed);
    doomed.destroy();
    let gone = '';
    try {
        hitmaskFor(doomedSprite);
    } catch (e) {
        gone = `${(e as Error).name}: ${(e as Error).message}`;
    }
    return {
        same,
        poseOk,
        atlasSame,
        forgotten,
        custom,
        threshold,
        emptyHits,
        gpuOnly,
        count: fm.mask.count(),
        again,
        before,
        after,
        threw,
        skew,
        wrongSize,
        wrongBound,
        gone,
        nan,
        badPick,
        source: major.image(alien).constructor.name,
        pixi: major.name
    };
}

/** Timings for the test's diagnostics (never asserted): µs per call of overlaps() and hitmaskFor(). */
// Pointer picking on an on-screen canvas (#pointer, at the page's top-left): one posed sprite with pixelHitArea(sprite);
// the stage records every click's global point, the sprite the ones its pointerdown got.
const pointer: { app: Application | null; sprite: Sprite | null; downs: string[]; at: [number, number][] } = {
    app: null,
    sprite: null,
    downs: [],
    at: []
};

async function pointerSetup(seed: number) {
    if (!pointer.app) {
        const { app, canvas } = await major.app();
        pointer.app = app;
        canvas.id = 'pointer';
        Object.assign(canvas.style, { position: 'absolute', left: '0px', top: '0px' });
        document.body.appendChild(canvas);
        app.stage.eventMode = 'static';
        app.stage.hitArea = app.screen;
        app.stage.on('pointerdown', e => pointer.at.push([e.global.x, e.global.y]));
    }
    const app = pointer.app;
    app.stage.removeChildren();
    const alien = await Assets.load<Texture>('sprites/alien1.png');
    major.nearest(alien);
    const rnd = mulberry32(seed);
    const s = new Sprite(alien);
    s.anchor.set(rnd(), rnd());
    s.position.set(100 + (rnd() - 0.5) * 20, 100 + (rnd() - 0.5) * 20);
    s.rotation = (rnd() - 0.5) * 4;
    s.scale.set((0.8 + rnd() * 1.4) * (rnd() < 0.3 ? -1 : 1), 0.8 + rnd() * 1.4);
    s.eventMode = 'static';
    s.hitArea = pixelHitArea(s);
    s.on('pointerdown', e => pointer.downs.push(`${e.global.x},${e.global.y}`));
    app.stage.addChild(s);
    app.render();
    pointer.sprite = s;
    pointer.downs = [];
    pointer.at = [];
    const b = s.getBounds();
    return { x: b.x, y: b.y, width: b.width, height: b.height };
}

/** For each click since pointerSetup: did the sprite's pointerdown fire, hitTest there, the rendered pixel (alpha > 127), and whether the rendering changes within 1 px. */
function pointerCheck() {
    const app = pointer.app as Application,
        s = pointer.sprite as Sprite;
    const px = major.stagePixels(app);
    const at = (x: number, y: number) =>
        x >= 0 && y >= 0 && x < 200 && y < 200 && px[(y * 200 + x) * 4 + 3] > 127 ? 1 : 0;
    return pointer.at.map(([gx, gy]) => {
        const x = Math.floor(gx),
            y = Math.floor(gy);
        let on = 0;
        for (let v = -1; v <= 1; v++) for (let u = -1; u <= 1; u++) on += at(x + u, y + v);
        return {
            x: gx,
            y: gy,
            fired: pointer.downs.includes(`${gx},${gy}`),
            hit: hitTest(s, gx, gy),
            drawn: at(x, y) === 1,
            band: on > 0 && on < 9
        };
    });
}

async function timing() {
    const [t1, t3] = await Promise.all([
        Assets.load<Texture>('sprites/alien1.png'),
        Assets.load<Texture>('sprites/alien3.png')
    ]);
    const a = major.sprite(t1, { anchor: 0.5, x: 100, y: 100 }),
        b = major.sprite(t3, { anchor: 0.5, x: 150, y: 120, rotation: 0.3 });
    const per = (n: number, fn: (i: number) => void) => {
        for (let i = 0; i < n; i++) fn(i); // warm-up: the transform cache fills (256 angle steps)
        const t0 = performance.now();
        for (let i = 0; i < n; i++) fn(i);
        return Math.round(((performance.now() - t0) / n) * 1000 * 100) / 100;
    };
    let hits = 0;
    const near = per(20000, i => {
        a.rotation = i * 0.01;
        if (overlaps(a, b)) hits++;
    });
    b.x = 400;
    const far = per(20000, i => {
        a.rotation = i * 0.01;
        if (overlaps(a, b)) hits++;
    });
    a.rotation = 0;
    const placed = per(20000, i => {
        a.x = 100 + (i & 15);
        hitmaskFor(a);
    });
    return { overlapsNearUs: near, overlapsFarUs: far, hitmaskForUs: placed, hits };
}

declare global {
    interface Window {
        pixiTests: {
            version: string;
            placements: typeof placements;
            poses: typeof poses;
            renderCheck: typeof renderCheck;
            readCheck: typeof readCheck;
            timing: typeof timing;
            pointerSetup: typeof pointerSetup;
            pointerCheck: typeof pointerCheck;
        };
    }
}
window.pixiTests = {
    version: PIXI.VERSION,
    placements,
    poses,
    renderCheck,
    readCheck,
    timing,
    pointerSetup,
    pointerCheck
};
document.title = 'ready';
