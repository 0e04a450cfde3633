// Browser side of test/phaser.test.ts: the real Phaser 4 (or Phaser 3, bundled with `phaser` aliased to `phaser3`)
// with hitmask/phaser, driven through window.hitmaskTest.
// The reference placement here inverts Phaser's own vertex formula (TransformerImage: quad at −displayOrigin +
// frame offset, flips adjust the offset and negate the scale, then translate·rotate·scale); it shares no code
// with src/engines/sprite.ts.
import Phaser from 'phaser';
import {
    addMaskAtlas,
    drawHitmask,
    forgetFrameMask,
    frameMask,
    hitTest,
    overlaps,
    pixelHitArea,
    hitmaskFor,
    maskAtlasFor,
    registerHitmaskLoader,
    setAlphaThreshold,
    shapeOf
} from '../src/phaser.js';
import { MaskAtlas } from '../src/index.js';
import { Mask } from '../src/index.js';
import { boundingRect } from '../src/index.js';
import { mulberry32 } from '../bench/timing.js';

/** A frame as the Node side generated it: untrimmed size, trim rectangle, and alpha > 127 per untrimmed pixel. */
export interface ExpectedFrame {
    name: string;
    sw: number;
    sh: number;
    tx: number;
    ty: number;
    tw: number;
    th: number;
    rows: string[];
    pivot: boolean;
}

/** One sprite's drawing parameters. */
export interface Params {
    frame: string;
    x: number;
    y: number;
    ox: number;
    oy: number;
    sx: number;
    sy: number;
    angle: number;
    fx: boolean;
    fy: boolean;
}

registerHitmaskLoader(Phaser);
let scene!: Phaser.Scene;
const loadErrors: string[] = [];
const ready = new Promise<Phaser.Scene>(resolve => {
    class TestScene extends Phaser.Scene {
        preload(): void {
            this.load.atlas('sheet', 'sheet.png', 'sheet.json');
            this.load.atlas('pix', 'sheet.png', 'sheet.json');
            this.load.hitmask('sheetmasks', 'sheet.hitmask', 'sheet');
            this.load.on('loaderror', (f: Phaser.Loader.File) => loadErrors.push(f.key));
        }
        create(): void {
            resolve(this);
        }
    }
    new Phaser.Game({
        type: Phaser.WEBGL,
        width: 192,
        height: 192,
        backgroundColor: '#000000',
        banner: false,
        parent: 'game',
        // No multisampling: with it an edge pixel blends coverage samples instead of testing its centre.
        render: { antialiasGL: false },
        physics: { default: 'arcade', arcade: { debug: false } },
        scene: TestScene
    });
});

function apply(s: Phaser.GameObjects.Sprite, key: string, p: Params): void {
    s.setTexture(key, p.frame);
    s.setOrigin(p.ox, p.oy).setScale(p.sx, p.sy).setRotation(p.angle).setFlip(p.fx, p.fy).setPosition(p.x, p.y);
}

function randomParams(rnd: () => number, names: readonly string[], cx: number, cy: number): Params {
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const scale = (): number => pick([1, -1, 1, 2, 0.5, 0.3 + rnd() * 2.2, -(0.3 + rnd() * 2.2)]);
    return {
        frame: pick(names),
        x: cx + pick([Math.round((rnd() - 0.5) * 40), (rnd() - 0.5) * 40]),
        y: cy + pick([Math.round((rnd() - 0.5) * 40), (rnd() - 0.5) * 40]),
        ox: pick([0, 0.5, 1, rnd(), rnd() * 2 - 0.5]),
        oy: pick([0, 0.5, 1, rnd(), rnd() * 2 - 0.5]),
        sx: scale(),
        sy: scale(),
        angle: pick([0, 0, Math.PI / 2, Math.PI, -Math.PI / 2, (rnd() - 0.5) * 7, (rnd() - 0.5) * 7]),
        fx: rnd() < 0.5,
        fy: rnd() < 0.5
    };
}

interface RefPixels {
    x0: number;
    y0: number;
    w: number;
    h: number;
    set: Uint8Array;
    tie: Uint8Array;
}

// World pixels of sprite `s` by Phaser's formula inverted at each pixel centre, moved by the documented rounding δ
// of the mask offset (T = world position of the mask box's centre − half the box size, rounded Math.floor(v + 0.5)).
// `eps`: how far (in frame pixels) a sample may move and still count as a tie when that changes its answer.
function reference(
    s: Phaser.GameObjects.Sprite,
    f: ExpectedFrame,
    box: { x: number; y: number; w: number; h: number },
    eps = 1e-6
): RefPixels {
    const frame = s.frame,
        pivot = frame.customPivot;
    const fX = s.flipX ? -1 : 1,
        fY = s.flipY ? -1 : 1;
    const ax = s.scaleX * fX,
        ay = s.scaleY * fY;
    const x0q = -s.displayOriginX + frame.x + (s.flipX && !pivot ? -frame.realWidth + 2 * s.displayOriginX : 0);
    const y0q = -s.displayOriginY + frame.y + (s.flipY && !pivot ? -frame.realHeight + 2 * s.displayOriginY : 0);
    const a = (Math.round((s.rotation / (2 * Math.PI)) * 256) * 2 * Math.PI) / 256;
    const snap = (v: number): number =>
        Math.abs(v) < 1e-12 ? 0 : Math.abs(Math.abs(v) - 1) < 1e-12 ? Math.sign(v) : v;
    const cos = snap(Math.cos(a)),
        sin = snap(Math.sin(a));
    // Frame pixel (u, v) of the untrimmed frame → world: quad point q = (x0q + u − frame.x, …), then T·R·S.
    const fwd = (u: number, v: number): [number, number] => {
        const qx = (x0q + u - frame.x) * ax,
            qy = (y0q + v - frame.y) * ay;
        return [s.x + cos * qx - sin * qy, s.y + sin * qx + cos * qy];
    };
    const [cwx, cwy] = fwd(box.x + box.w / 2, box.y + box.h / 2);
    const tx = cwx - box.w / 2,
        ty = cwy - box.h / 2;
    const dx = tx - Math.floor(tx + 0.5),
        dy = ty - Math.floor(ty + 0.5);
    const corners = [fwd(0, 0), fwd(f.sw, 0), fwd(0, f.sh), fwd(f.sw, f.sh)];
    const X0 = Math.floor(Math.min(...corners.map(c => c[0]))) - 2,
        Y0 = Math.floor(Math.min(...corners.map(c => c[1]))) - 2;
    const X1 = Math.ceil(Math.max(...corners.map(c => c[0]))) + 2,
        Y1 = Math.ceil(Math.max(...corners.map(c => c[1]))) + 2;
    const w = X1 - X0,
        h = Y1 - Y0,
        set = new Uint8Array(w * h),
        tie = new Uint8Array(w * h);
    const at = (u: number, v: number): boolean =>
        u >= 0 && v >= 0 && u < f.sw && v < f.sh && f.rows[Math.floor(v)][Math.floor(u)] === '#';
    if (ax === 0 || ay === 0) return { x0: X0, y0: Y0, w, h, set, tie };
    for (let Y = Y0; Y < Y1; Y++)
        for (let X = X0; X < X1; X++) {
            const px = X + 0.5 + dx - s.x,
                py = Y + 0.5 + dy - s.y;
            const qx = (cos * px + sin * py) / ax,
                qy = (-sin * px + cos * py) / ay;
            const u = qx - x0q + frame.x,
                v = qy - y0q + frame.y;
            const on = at(u, v),
                e = eps,
                i = (Y - Y0) * w + X - X0;
            set[i] = on ? 1 : 0;
            tie[i] = [
                [e, 0],
                [-e, 0],
                [0, e],
                [0, -e],
                [e, e],
                [e, -e],
                [-e, e],
                [-e, -e]
            ].some(([du, dv]) => at(u + du, v + dv) !== on)
                ? 1
                : 0;
        }
    return { x0: X0, y0: Y0, w, h, set, tie };
}

/** Compares the adapter's placed mask of `s` with the reference; returns mismatches outside ties, ties and set pixels. */
function compare(
    s: Phaser.GameObjects.Sprite,
    f: ExpectedFrame
): { bad: number; ties: number; set: number; first: string } {
    const fm = frameMask(s.frame);
    const ref = reference(s, f, { x: fm.x, y: fm.y, w: fm.mask.width, h: fm.mask.height });
    const p = hitmaskFor(s);
    let bad = 0,
        ties = 0,
        set = 0,
        first = '';
    for (let Y = ref.y0; Y < ref.y0 + ref.h; Y++)
        for (let X = ref.x0; X < ref.x0 + ref.w; X++) {
            const i = (Y - ref.y0) * ref.w + X - ref.x0,
                got = p.mask.get(X - p.x, Y - p.y);
            if (ref.tie[i]) {
                ties++;
                continue;
            }
            if (ref.set[i]) set++;
            if (got !== (ref.set[i] === 1)) {
                if (!first) first = `(${X}, ${Y}) got ${got}`;
                bad++;
            }
        }
    // Nothing placed outside the reference window.
    const r = boundingRect(p.mask);
    if (
        r &&
        (p.x + r.x < ref.x0 ||
            p.y + r.y < ref.y0 ||
            p.x + r.x + r.width > ref.x0 + ref.w ||
            p.y + r.y + r.height > ref.y0 + ref.h)
    ) {
        bad++;
        first ||= 'outside the window';
    }
    return { bad, ties, set, first };
}

function pixelsTouch(a: { mask: Mask; x: number; y: number }, b: { mask: Mask; x: number; y: number }): boolean {
    for (let y = 0; y < a.mask.height; y++)
        for (let x = 0; x < a.mask.width; x++) {
            if (a.mask.get(x, y) && b.mask.get(a.x + x - b.x, a.y + y - b.y)) return true;
        }
    return false;
}

// Reads the canvas after the next render (Phaser's snapshot) as 0/1 per pixel: red > 127.
function snapshot(): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
        const r = scene.game.renderer;
        r.snapshot(img => {
            if (!(img instanceof HTMLImageElement)) return reject(new Error('snapshot is not an image'));
            const c = document.createElement('canvas');
            c.width = r.width;
            c.height = r.height;
            const ctx = c.getContext('2d', { willReadFrequently: true });
            if (!ctx) return reject(new Error('no 2D context'));
            ctx.drawImage(img, 0, 0);
            const d = ctx.getImageData(0, 0, c.width, c.height).data,
                out = new Uint8Array(c.width * c.height);
            for (let i = 0; i < out.length; i++) out[i] = d[4 * i] > 127 ? 1 : 0;
            resolve(out);
        });
    });
}

// Resolves after `n` game steps (Arcade runs its colliders on each).
function gameSteps(n: number): Promise<void> {
    return new Promise(resolve => {
        let k = 0;
        const step = (): void => {
            if (++k < n) return;
            scene.events.off('postupdate', step);
            resolve();
        };
        scene.events.on('postupdate', step);
    });
}

// The sprite of the pointer tests and the pixels where its pointerdown fired.
const pointer: { sprite: Phaser.GameObjects.Sprite | null; downs: string[]; at: [number, number][] } = {
    sprite: null,
    downs: [],
    at: []
};

const api = {
    ready: () =>
        ready.then(s => {
            scene = s;
            return { loadErrors };
        }),

    /** Each frame's mask, from the atlas ('sheet') and from pixels ('pix'), against the generated pixels. */
    frames(
        expected: ExpectedFrame[]
    ): { name: string; atlas: number; pixels: number; sources: string; trimmed: boolean }[] {
        return expected.map(f => {
            const count = (key: string): [number, string, boolean] => {
                const frame = scene.textures.getFrame(key, f.name),
                    fm = frameMask(frame);
                let bad = 0;
                for (let v = -1; v <= f.sh; v++)
                    for (let u = -1; u <= f.sw; u++) {
                        const want = u >= 0 && v >= 0 && u < f.sw && v < f.sh && f.rows[v][u] === '#';
                        if (fm.mask.get(u - fm.x, v - fm.y) !== want) bad++;
                    }
                return [
                    bad,
                    fm.source,
                    frame.trimmed && frame.realWidth === f.sw && frame.x === f.tx && frame.cutWidth === f.tw
                ];
            };
            const [atlas, sa, ta] = count('sheet'),
                [pixels, sp] = count('pix');
            return { name: f.name, atlas, pixels, sources: `${sa} ${sp}`, trimmed: ta };
        });
    },

    /** `n` seeded pairs of posed sprites: adapter placement vs the reference, and overlaps() vs the placed pixels. */
    placements(expected: ExpectedFrame[], seed: number, n: number) {
        const rnd = mulberry32(seed),
            byName = new Map(expected.map(f => [f.name, f]));
        const names = expected.map(f => f.name);
        const a = scene.add.sprite(0, 0, 'sheet', names[0]).setVisible(false),
            b = scene.add.sprite(0, 0, 'pix', names[0]).setVisible(false);
        let bad = 0,
            ties = 0,
            set = 0,
            hits = 0,
            boxOnly = 0,
            wrongAnswer = 0;
        const failures: string[] = [];
        for (let k = 0; k < n; k++) {
            const pa = randomParams(rnd, names, 96, 96),
                pb = randomParams(rnd, names, 96 + (rnd() - 0.5) * 50, 96 + (rnd() - 0.5) * 50);
            apply(a, 'sheet', pa);
            apply(b, 'pix', pb);
            for (const [s, p] of [
                [a, pa],
                [b, pb]
            ] as const) {
                const c = compare(s, byName.get(p.frame) as ExpectedFrame);
                bad += c.bad;
                ties += c.ties;
                set += c.set;
                if (c.bad && failures.length < 5)
                    failures.push(`placement ${k} ${JSON.stringify(p)}: ${c.bad} pixels differ, first ${c.first}`);
            }
            const got = overlaps(a, b),
                want = pixelsTouch(hitmaskFor(a), hitmaskFor(b));
            if (got !== want) wrongAnswer++;
            if (want) hits++;
            else if (
                a.getBounds().x < b.getBounds().right &&
                b.getBounds().x < a.getBounds().right &&
                a.getBounds().y < b.getBounds().bottom &&
                b.getBounds().y < a.getBounds().bottom
            )
                boxOnly++;
        }
        a.destroy();
        b.destroy();
        return { bad, ties, set, hits, boxOnly, wrongAnswer, failures };
    },

    /**
     * Renders single sprites (white where alpha > 127, on black) and compares what Phaser drew with the placed
     * mask: differences only in the 1-pixel band along the mask's boundary. Then drawHitmask's fill, rendered, must be the mask exactly.
     */
    async render(poses: Params[], expected: ExpectedFrame[]) {
        // Nearest-neighbour texture sampling, as the mask samples: a linear filter would blend alpha 255 and 100
        // texels into a rendered edge up to a texel wide, the scale times more than the band.
        scene.textures.get('sheet').setFilter(Phaser.Textures.FilterMode.NEAREST);
        const results: {
            outsideBand: number;
            inBand: number;
            setPixels: number;
            drawDiff: number;
            alignedDiff: number;
            alignedNearEdge: number;
        }[] = [];
        const s = scene.add.sprite(0, 0, 'sheet');
        const g = scene.add.graphics();
        for (const p of poses) {
            apply(s, 'sheet', p);
            s.setVisible(true);
            g.clear().setVisible(false);
            const drawn = await snapshot();
            const pl = hitmaskFor(s),
                W = scene.scale.width,
                H = scene.scale.height;
            const on = (x: number, y: number): boolean => pl.mask.get(x - pl.x, y - pl.y);
            let outsideBand = 0,
                inBand = 0,
                setPixels = 0;
            for (let y = 0; y < H; y++)
                for (let x = 0; x < W; x++) {
                    const m = on(x, y);
                    if (m) setPixels++;
                    if (m === (drawn[y * W + x] === 1)) continue;
                    let mixed = false;
                    for (let j = -1; j <= 1 && !mixed; j++)
                        for (let i = -1; i <= 1; i++) if (on(x + i, y + j) !== m) mixed = true;
                    if (mixed) inBand++;
                    else outsideBand++;
                }
            s.setVisible(false);
            g.setVisible(true);
            drawHitmask(g, s, { color: 0xffffff, alpha: 1 });
            const filled = await snapshot();
            let drawDiff = 0;
            for (let y = 0; y < H; y++)
                for (let x = 0; x < W; x++) if (on(x, y) !== (filled[y * W + x] === 1)) drawDiff++;
            // The same pose at the angle the mask was rasterised for, moved so that the mask's offset T is whole
            // (no rounding): then Phaser's nearest-neighbour drawing and the mask sample the same points.
            s.setRotation((Math.round((p.angle / (2 * Math.PI)) * 256) * 2 * Math.PI) / 256);
            const q = shapeOf(s).pose,
                fm = frameMask(s.frame),
                cx = fm.mask.width / 2,
                cy = fm.mask.height / 2;
            const lx = q.scaleX * (cx - q.originX),
                ly = q.scaleY * (cy - q.originY),
                cos = Math.cos(q.angle),
                sin = Math.sin(q.angle);
            const tx = q.x - cx + cos * lx - sin * ly,
                ty = q.y - cy + sin * lx + cos * ly;
            s.setPosition(s.x + Math.round(tx) - tx, s.y + Math.round(ty) - ty).setVisible(true);
            g.setVisible(false);
            const aligned = await snapshot(),
                pa = hitmaskFor(s);
            // The GPU keeps a few bits of sub-texel and sub-pixel precision: a centre within 1/64 frame pixel of an
            // edge between differing texels (or of the quad's edge) may go either way.
            const near = reference(
                s,
                expected.find(f => f.name === p.frame) as ExpectedFrame,
                { x: fm.x, y: fm.y, w: fm.mask.width, h: fm.mask.height },
                1 / 64
            );
            let alignedDiff = 0,
                alignedNearEdge = 0;
            for (let y = 0; y < H; y++)
                for (let x = 0; x < W; x++) {
                    if (pa.mask.get(x - pa.x, y - pa.y) === (aligned[y * W + x] === 1)) continue;
                    const i = (y - near.y0) * near.w + x - near.x0;
                    if (x >= near.x0 && y >= near.y0 && x < near.x0 + near.w && y < near.y0 + near.h && near.tie[i])
                        alignedNearEdge++;
                    else alignedDiff++;
                }
            results.push({ outsideBand, inBand, setPixels, drawDiff, alignedDiff, alignedNearEdge });
        }
        s.destroy();
        g.destroy();
        return results;
    },

    /**
     * Two sprites drawn on the same spot, one mirrored: with a negative scaleX Arcade places its body a width
     * away (size from |scale|, offset mirrored), never asks the process callback, and overlaps() still sees
     * the pixels; with setFlipX Arcade asks and overlaps answers.
     */
    async arcadeMirrored(expected: ExpectedFrame[]) {
        const name = expected[0].name;
        const run = async (mirror: (s: Phaser.Physics.Arcade.Sprite) => void) => {
            const a = scene.physics.add.sprite(96, 96, 'sheet', name),
                b = scene.physics.add.sprite(96, 96, 'sheet', name);
            mirror(b);
            let asked = 0,
                hits = 0;
            const collider = scene.physics.add.overlap(
                a,
                b,
                () => {
                    hits++;
                },
                (x, y) => {
                    asked++;
                    return overlaps(x, y);
                }
            );
            await gameSteps(5);
            const direct = overlaps(a, b),
                bodies = [(a.body as Phaser.Physics.Arcade.Body).x, (b.body as Phaser.Physics.Arcade.Body).x];
            collider.destroy();
            a.destroy();
            b.destroy();
            return { direct, asked: asked > 0, hit: hits > 0, bodyShift: Math.round(bodies[1] - bodies[0]) };
        };
        return { negative: await run(s => s.setScale(-1, 1)), flipped: await run(s => s.setFlipX(true)) };
    },

    /**
     * Arcade Physics with processCallback = overlaps: which pairs reach the collide callback (`direct`: those of a
     * second collider that passes `overlaps` itself as the process callback).
     */
    async arcade(expected: ExpectedFrame[], seed: number) {
        const rnd = mulberry32(seed),
            names = expected.map(f => f.name);
        const g1 = scene.physics.add.group(),
            g2 = scene.physics.add.group();
        for (let i = 0; i < 12; i++) {
            g1.create(
                20 + (i % 4) * 50 + rnd() * 10,
                30 + Math.floor(i / 4) * 60 + rnd() * 10,
                'sheet',
                names[Math.floor(rnd() * names.length)]
            );
            g2.create(
                20 + (i % 4) * 50 + rnd() * 24,
                30 + Math.floor(i / 4) * 60 + rnd() * 24,
                'pix',
                names[Math.floor(rnd() * names.length)]
            );
        }
        for (const o of [...g1.getChildren(), ...g2.getChildren()]) {
            const sp = o as Phaser.Physics.Arcade.Sprite;
            sp.setFlip(rnd() < 0.5, rnd() < 0.5).setScale(rnd() < 0.5 ? 1 : 1.5);
            sp.refreshBody();
        }
        const called = new Set<string>(),
            hit = new Set<string>();
        const id = (o: unknown): number => (o as { __id: number }).__id;
        [...g1.getChildren(), ...g2.getChildren()].forEach((o, i) => Object.assign(o, { __id: i }));
        const collider = scene.physics.add.overlap(
            g1,
            g2,
            (x, y) => {
                hit.add(`${id(x)} ${id(y)}`);
            },
            (x, y) => {
                called.add(`${id(x)} ${id(y)}`);
                return overlaps(x, y);
            }
        );
        const direct = new Set<string>();
        const plain = scene.physics.add.overlap(
            g1,
            g2,
            (x, y) => {
                direct.add(`${id(x)} ${id(y)}`);
            },
            overlaps
        );
        // Ten game steps: Arcade runs the overlap on each.
        await gameSteps(10);
        let want = 0,
            mismatch = 0;
        for (const key of called) {
            const [i, j] = key.split(' ').map(Number);
            const all = [...g1.getChildren(), ...g2.getChildren()];
            const w = overlaps(all[i] as Phaser.GameObjects.Sprite, all[j] as Phaser.GameObjects.Sprite);
            if (w) want++;
            if (w !== hit.has(key)) mismatch++;
        }
        collider.destroy();
        plain.destroy();
        g1.destroy(true);
        g2.destroy(true);
        return {
            called: called.size,
            hits: hit.size,
            want,
            mismatch,
            direct: [...direct].sort().join() === [...hit].sort().join()
        };
    },

    /**
     * With the camera's roundPixels, unrotated, unscaled sprites at fractional positions (`whole`: whole
     * positions, fractional origins): Phaser's pixels are the mask's exactly.
     */
    async roundPixels(seed: number, whole = false) {
        const rnd = mulberry32(seed),
            cam = scene.cameras.main,
            W = scene.scale.width,
            H = scene.scale.height;
        scene.textures.get('sheet').setFilter(Phaser.Textures.FilterMode.NEAREST);
        cam.roundPixels = true;
        const s = scene.add.sprite(0, 0, 'sheet');
        const diffs: number[] = [];
        for (let k = 0; k < 12; k++) {
            const names = scene.textures.get('sheet').getFrameNames();
            s.setFrame(names[k % names.length])
                .setOrigin(rnd() * 1.2 - 0.1, rnd() * 1.2 - 0.1)
                .setPosition(60 + rnd() * 60, 60 + rnd() * 60);
            // Halves too: Math.round and the rule's Math.floor(v + 0.5) both round them up.
            if (k % 3 === 0)
                s.setPosition(Math.floor(s.x) + 0.5, Math.floor(s.y) + 0.5).setDisplayOrigin(
                    Math.floor(s.displayOriginX),
                    Math.floor(s.displayOriginY)
                );
            if (whole) s.setPosition(Math.floor(s.x), Math.floor(s.y));
            const drawn = await snapshot(),
                p = hitmaskFor(s);
            let d = 0;
            for (let y = 0; y < H; y++)
                for (let x = 0; x < W; x++) if (p.mask.get(x - p.x, y - p.y) !== (drawn[y * W + x] === 1)) d++;
            diffs.push(d);
        }
        cam.roundPixels = false;
        s.destroy();
        return diffs;
    },

    /** A sprite in a rotated, scaled, moved container is placed as the same sprite with the composed transform. */
    containers(expected: ExpectedFrame[], seed: number) {
        const rnd = mulberry32(seed),
            names = expected.map(f => f.name);
        let differ = 0,
            compared = 0;
        for (let k = 0; k < 100; k++) {
            const c = scene.add
                .container(40 + rnd() * 100, 40 + rnd() * 100)
                .setRotation((rnd() - 0.5) * 6)
                .setScale(0.5 + rnd() * 1.5);
            const inner = scene.add.sprite(0, 0, 'sheet', names[k % names.length]).setVisible(false);
            const p = randomParams(rnd, names, (rnd() - 0.5) * 20, (rnd() - 0.5) * 20);
            p.frame = names[k % names.length];
            apply(inner, 'sheet', p);
            c.add(inner);
            const k2 = c.scaleX,
                cos = Math.cos(c.rotation),
                sin = Math.sin(c.rotation);
            const out = scene.add.sprite(0, 0, 'sheet').setVisible(false);
            apply(out, 'sheet', {
                ...p,
                x: c.x + k2 * (cos * p.x - sin * p.y),
                y: c.y + k2 * (sin * p.x + cos * p.y),
                sx: p.sx * k2,
                sy: p.sy * k2,
                angle: p.angle + c.rotation
            });
            const a = hitmaskFor(inner),
                b = hitmaskFor(out);
            compared++;
            if (a.x !== b.x || a.y !== b.y || !a.mask.equals(b.mask)) differ++;
            c.destroy();
            out.destroy();
        }
        return { compared, differ };
    },

    /** An atlas bound with addMaskAtlas serves a single-image texture's base frame; a size mismatch is an Error. */
    baseFrame() {
        const c = document.createElement('canvas');
        c.width = 12;
        c.height = 10;
        const ctx = c.getContext('2d');
        if (!ctx) throw new Error('no 2D context');
        ctx.fillStyle = '#fff';
        ctx.fillRect(0, 0, 12, 10);
        scene.textures.addCanvas('solid', c);
        scene.textures.addCanvas('solid2', c);
        const before = frameMask(scene.textures.getFrame('solid')).mask.count();
        // A redrawn canvas: the cached mask stays until forgotten.
        ctx.clearRect(0, 0, 6, 10);
        const stale = frameMask(scene.textures.getFrame('solid')).mask.count();
        forgetFrameMask(scene.textures.getFrame('solid'));
        const redrawn = frameMask(scene.textures.getFrame('solid'));
        // Alpha 102 is clear at the default threshold (127), solid at 50: setAlphaThreshold reads the frame again.
        const faint = document.createElement('canvas');
        faint.width = 12;
        faint.height = 10;
        const fctx = faint.getContext('2d');
        if (!fctx) throw new Error('no 2D context');
        fctx.fillStyle = 'rgba(255, 255, 255, 0.4)';
        fctx.fillRect(0, 0, 12, 10);
        scene.textures.addCanvas('faint', faint);
        const threshold = [frameMask(scene.textures.getFrame('faint')).mask.count()];
        setAlphaThreshold(50);
        threshold.push(frameMask(scene.textures.getFrame('faint')).mask.count());
        setAlphaThreshold(127);
        const left = new Mask(5, 10, true),
            atlas = new MaskAtlas().add('solid', left, { x: 1, y: 0, sourceWidth: 12, sourceHeight: 10 });
        // How many frames of the named (loaded) textures the atlas serves: the base frame of each; none unloaded.
        const matched = [addMaskAtlas(atlas, ['solid', 'not-loaded'], scene.game)];
        const fm = frameMask(scene.textures.getFrame('solid'));
        const wrong = new MaskAtlas().add('x', left, { sourceWidth: 11, sourceHeight: 10 });
        // The size is checked when the frame is used: the atlas's only frame serves the base frame by then.
        matched.push(addMaskAtlas(wrong, 'solid2', scene.game));
        const bound = [
            maskAtlasFor(scene.textures.getFrame('solid')) === atlas,
            maskAtlasFor(scene.textures.getFrame('solid2')) === wrong,
            maskAtlasFor(scene.textures.getFrame('faint')) === undefined
        ];
        let error = '';
        try {
            frameMask(scene.textures.getFrame('solid2'));
        } catch (e) {
            error = String(e);
        }
        return {
            before,
            stale,
            redrawn: [redrawn.mask.count(), redrawn.x],
            threshold,
            source: fm.source,
            count: fm.mask.count(),
            x: fm.x,
            matched,
            bound,
            error
        };
    },

    /** A destroyed sprite (or the Arcade body of one) touches nothing, and hitmaskFor() names the mistake. */
    destroyedSprites() {
        const a = scene.add.sprite(100, 100, 'sheet', 'f3').setVisible(false),
            b = scene.add.sprite(101, 101, 'sheet', 'f3').setVisible(false);
        const c = scene.physics.add.sprite(101, 101, 'sheet', 'f3').setVisible(false),
            body = c.body as Phaser.Physics.Arcade.Body;
        const alive = [overlaps(a, b), overlaps(a, c), overlaps(a, body)];
        b.destroy();
        c.destroy();
        const after = [overlaps(a, b), overlaps(b, a), overlaps(a, c), overlaps(a, body)];
        let error = '';
        try {
            hitmaskFor(b);
        } catch (e) {
            error = String(e);
        }
        a.destroy();
        return { alive, after, error };
    },

    /** A visible, posed sprite with pixelHitArea: its box on the canvas; pointer downs on it are recorded for pointerCheck. */
    pointerSetup(expected: ExpectedFrame[], seed: number) {
        pointer.sprite?.destroy();
        pointer.downs = [];
        // Alone on the canvas: what is drawn is this sprite.
        for (const o of scene.children.list) if ('setVisible' in o) (o as Phaser.GameObjects.Sprite).setVisible(false);
        scene.textures.get('sheet').setFilter(Phaser.Textures.FilterMode.NEAREST);
        const rnd = mulberry32(seed),
            names = expected.map(f => f.name);
        const s = scene.add
            .sprite(96, 96, 'sheet', names[seed % names.length])
            .setOrigin(rnd(), rnd())
            .setRotation((rnd() - 0.5) * 4)
            .setScale((0.8 + rnd() * 1.6) * (rnd() < 0.3 ? -1 : 1), 0.8 + rnd() * 1.6)
            .setFlipX(rnd() < 0.4)
            .setFlipY(rnd() < 0.2);
        s.setInteractive(pixelHitArea(s));
        s.on('pointerdown', (p: Phaser.Input.Pointer) => pointer.downs.push(`${p.worldX},${p.worldY}`));
        scene.input
            .off('pointerdown')
            .on('pointerdown', (p: Phaser.Input.Pointer) => pointer.at.push([p.worldX, p.worldY]));
        pointer.sprite = s;
        const b = s.getBounds();
        return { x: b.x, y: b.y, width: b.width, height: b.height };
    },

    /**
     * For each click since pointerSetup, at the pointer's world point: did the sprite's pointerdown fire, what
     * hitTest says, what was drawn in the pixel there, and whether the drawing changes within 1 px of it.
     */
    async pointerCheck() {
        const drawn = await snapshot(),
            W = scene.scale.width,
            H = scene.scale.height,
            s = pointer.sprite as Phaser.GameObjects.Sprite;
        const at = (x: number, y: number) => (x >= 0 && y >= 0 && x < W && y < H ? drawn[y * W + x] : 0);
        const clicks = pointer.at;
        pointer.at = [];
        return clicks.map(([wx, wy]) => {
            const x = Math.floor(wx),
                y = Math.floor(wy);
            let on = 0;
            for (let v = -1; v <= 1; v++) for (let u = -1; u <= 1; u++) on += at(x + u, y + v);
            return {
                x: wx,
                y: wy,
                fired: pointer.downs.includes(`${wx},${wy}`),
                hit: hitTest(s, wx, wy),
                drawn: at(x, y) === 1,
                band: on > 0 && on < 9
            };
        });
    },

    /**
     * `n` seeded poses (rotation, negative scales, origins, flips; trimmed frames of the bound atlas and of the pixels,
     * one with a custom pivot), one line each: the placed mask (box and a hash of its words), overlaps() with each of
     * the 8 sprites before it (1 = true), and whether hitTest agrees with the placed mask at 64 points of its box.
     * test/phaser.test.ts compares the lines of Phaser 3 and 4, each in its own page.
     */
    poses(expected: ExpectedFrame[], seed: number, n: number) {
        const rnd = mulberry32(seed),
            names = expected.map(f => f.name),
            lines: string[] = [],
            prev: Phaser.GameObjects.Sprite[] = [];
        for (let i = 0; i < n; i++) {
            const key = i % 3 === 2 ? 'pix' : 'sheet',
                s = scene.add.sprite(0, 0, key, names[0]).setVisible(false);
            apply(s, key, randomParams(rnd, names, 96, 96));
            const placed = hitmaskFor(s),
                m = placed.mask;
            let h = 0x811c9dc5;
            for (const w of m.words) h = Math.imul(h ^ w, 0x01000193) >>> 0;
            let agree = 0;
            for (let k = 0; k < 64; k++) {
                const X = placed.x + Math.floor(rnd() * (m.width + 2)) - 1,
                    Y = placed.y + Math.floor(rnd() * (m.height + 2)) - 1;
                if (hitTest(s, X + rnd(), Y + rnd()) === m.get(X - placed.x, Y - placed.y)) agree++;
            }
            lines.push(
                `${s.frame.name} ${placed.x},${placed.y} ${m.width}x${m.height} #${h.toString(16)} overlaps ${prev.map(q => (overlaps(q, s) ? 1 : 0)).join('')} hitTest ${agree}/64`
            );
            if (prev.unshift(s) > 8) prev.pop()?.destroy();
        }
        for (const s of prev) s.destroy();
        return { version: Phaser.VERSION, lines };
    },

    /** Costs in µs per call (reported, never asserted): overlaps of touching and of distant sprites, hitmaskFor. */
    timing() {
        const a = scene.add.sprite(100, 100, 'sheet', 'f3').setVisible(false),
            b = scene.add.sprite(104, 102, 'pix', 'f4').setVisible(false);
        const per = (n: number, fn: (i: number) => void): number => {
            for (let i = 0; i < 200; i++) fn(i);
            const t0 = performance.now();
            for (let i = 0; i < n; i++) fn(i);
            return ((performance.now() - t0) * 1000) / n;
        };
        // 32 angles, each rasterised once during the warm-up.
        const touching = per(20000, i => {
            a.setRotation(((i % 32) * Math.PI) / 16);
            overlaps(a, b);
        });
        b.setPosition(300, 300);
        const apart = per(20000, i => {
            a.setRotation(((i % 32) * Math.PI) / 16);
            overlaps(a, b);
        });
        a.setRotation(0);
        const place = per(20000, () => hitmaskFor(a));
        a.destroy();
        b.destroy();
        return { touching, apart, place };
    },

    /** The atlas is in the binary cache; a corrupt .hitmask fails to load without binding anything. */
    async loader() {
        const inCache = scene.cache.binary.get('sheetmasks') instanceof MaskAtlas;
        // A file that fails while processing is only logged by Phaser (`loaderror` is for network errors).
        const completed = await new Promise<boolean>(resolve => {
            scene.load.hitmask('corrupt', 'corrupt.hitmask', 'pix');
            scene.load.once('complete', () => resolve(true));
            scene.load.start();
        });
        const pixStill = frameMask(scene.textures.getFrame('pix', scene.textures.get('pix').getFrameNames()[0])).source;
        return { inCache, completed, pixStill, corruptCached: scene.cache.binary.exists('corrupt') };
    }
};

Object.assign(window, { hitmaskTest: api });
export type HitmaskTestApi = typeof api;
