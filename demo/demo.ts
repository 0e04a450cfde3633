// The demo page: draws the simulation of sim.ts with the pygame sprites, collides with masks loaded from
// masks.hitmask, and keeps its state (mode, debug, shapes, stress, seed, auto, frame, pause, render) in the URL.
// Three renderers draw the same picture: Canvas 2D, one drawImage per sprite (the default), and for the
// stress mode two batches: WebGL2 (gl.ts, one draw call, the debug overlays on a 2D canvas above it) and
// pixels (pixels.ts, the frame composed in script and put with one putImageData).
import { type Mask, MaskAtlas, type Pair, toRGBA } from '../src/index.js';
import {
    drawBox,
    drawIntersection,
    drawMask,
    drawNormal,
    drawOverlap,
    drawPieces,
    drawPolygons,
    drawRay,
    forgetMask
} from '../src/debug.js';
import { convexPieces, toPolygons, type Polygon } from '../src/shapes.js';
import type { Batch } from './batch.js';
import { StepClock } from './clock.js';
import { QuadBatch } from './gl.js';
import { PixelBatch } from './pixels.js';
import { DemoSim, FRAMES, type Actor, type Input, type Kind, type Mark, type Mode, type SimStats } from './sim.js';
import { platformerMain } from './platformer-page.js';

/** What the page exposes as `window.hitmaskDemo` for scripted runs (the browser test). */
export interface DemoHook {
    /** Runs n fixed steps (with the built-in pilot when auto=1, no input otherwise), draws, returns the stats. */
    step(n: number): SimStats;
    stats(): SimStats;
    render(): void;
    setMode(mode: Mode): void;
    setDebug(on: boolean): void;
    /** Shows or hides the physics shapes overlay (polygons and convex pieces, key O, `?shapes=1`). */
    setShapes(on: boolean): void;
    /** What the shapes overlay drew last: sprites outlined, polygons, pieces, and the terrain's polygons and pieces. */
    shapesDrawn(): ShapesDrawn;
    setPaused(on: boolean): void;
    /** The HUD's split of a frame, averaged over its last refresh (a quarter second of frames). */
    split(): FrameSplit;
    /** The renderer drawing the field (`?render=`; a batch by default in stress mode, Canvas 2D otherwise). */
    renderer(): Renderer;
}

/**
 * What draws the field: 'webgl' (gl.ts, one draw call), 'pixels' (pixels.ts, composed in script and put in
 * one call) or 'canvas' (one Canvas 2D drawImage per sprite).
 */
export type Renderer = 'webgl' | 'pixels' | 'canvas';
const RENDERERS: readonly string[] = ['webgl', 'pixels', 'canvas'];

/** Where a frame's time goes, in ms per displayed frame (see {@link DemoHook.split}). */
export interface FrameSplit {
    /** Displayed frames per second. */
    fps: number;
    /** The 90th percentile of the intervals between the last 120 displayed frames, in ms (the slow frames fps hides). */
    p90Ms: number;
    /** Simulation steps run per displayed frame (fixed 60 Hz steps). */
    steps: number;
    /** All simulation steps of a frame, collision included. */
    simMs: number;
    /** The two Worlds' step() calls (pixel and box) within simMs. */
    collisionMs: number;
    /** Drawing the frame: the script's side, its draw calls (WebGL: filling and submitting the batch). */
    renderMs: number;
    /**
     * The rest of a frame's interval: the browser compositing and rasterising what was drawn (an overlay that costs
     * little to submit can cost the most here), and idle time up to the display's next frame.
     */
    browserMs: number;
}

/** Counts of the last shapes overlay (see {@link DemoHook.shapesDrawn}). */
export interface ShapesDrawn {
    sprites: number;
    polygons: number;
    pieces: number;
    terrainPolygons: number;
    terrainPieces: number;
    /** sim.terrainVersion the terrain's shapes were built for (rebuilt after each crater). */
    terrainVersion: number;
}

declare global {
    interface Window {
        hitmaskDemo?: DemoHook;
    }
}

interface State {
    mode: Mode;
    debug: boolean;
    shapes: boolean;
    auto: boolean;
    paused: boolean;
    stress: number;
    seed: number;
    /** Renderer asked for in the URL (null: the default for the mode). */
    render: Renderer | null;
}

const TINT: Record<Kind, number> = {
    player: 0x00ff8060,
    alien: 0xff40ff50,
    shot: 0x40c0ff90,
    bomb: 0xff800090,
    debris: 0x40c0ff60,
    terrain: 0x8080ff50
};
// Shapes overlay: exact polygons (toPolygons) over their convex pieces (convexPieces), as a physics engine gets them.
const POLYGON = 0xffd000ff,
    PIECE = 0x40c0ffb0;
const NEAR = 0xffd800ff,
    HIT = 0xff2020ff,
    ZONE = 0xffff0040,
    NORMAL = 0x00ff40ff,
    LASER = 0xff3030ff;
const STEP_MS = 1000 / 60;
const RENDERER_NAMES: Record<Renderer, string> = {
    webgl: 'WebGL',
    pixels: 'batched Canvas 2D (one putImageData)',
    canvas: 'Canvas 2D'
};

// Near misses drawn: the newest 500. A stress scene keeps about 1,500 on screen, one over the other (and
// drawing them cost as much as all 10,000 sprites); a normal game never has 500.
const NEAR_MARKS = 500;
// Reused by the debug overlay's pair loop.
const debugPairs: Pair<Actor>[] = [];

// Index of the oldest of the newest NEAR_MARKS near misses (marks are in the order they happened).
function firstNearMark(marks: readonly Mark[]): number {
    let i = marks.length,
        n = 0;
    while (i > 0 && n < NEAR_MARKS) if (marks[--i].near) n++;
    return i;
}

function readState(): State {
    const q = new URLSearchParams(location.search);
    const int = (name: string, def: number, max: number) => {
        const v = Number(q.get(name) ?? def);
        return Number.isInteger(v) && v >= 0 && v <= max ? v : def;
    };
    return {
        mode: q.get('mode') === 'box' ? 'box' : 'pixel',
        debug: q.get('debug') === '1',
        shapes: q.get('shapes') === '1',
        auto: q.get('auto') === '1',
        paused: q.get('pause') === '1',
        stress: int('stress', 0, 100000),
        seed: int('seed', 1, 2 ** 31 - 1),
        render: RENDERERS.includes(q.get('render') ?? '') ? (q.get('render') as Renderer) : null
    };
}

function writeUrl(state: State, frame: number): void {
    const q = new URLSearchParams();
    if (state.mode !== 'pixel') q.set('mode', state.mode);
    if (state.debug) q.set('debug', '1');
    if (state.shapes) q.set('shapes', '1');
    if (state.auto) q.set('auto', '1');
    if (state.stress) q.set('stress', String(state.stress));
    if (state.seed !== 1) q.set('seed', String(state.seed));
    if (state.render) q.set('render', state.render);
    // A paused view is shareable down to the frame (replayed deterministically on load).
    if (state.paused) {
        q.set('pause', '1');
        q.set('frame', String(frame));
    }
    const s = q.toString();
    history.replaceState(null, '', s ? `?${s}` : location.pathname);
}

async function loadImage(name: string): Promise<HTMLImageElement> {
    const img = new Image();
    img.src = `assets/${name}.gif`;
    await img.decode();
    return img;
}

async function main(): Promise<void> {
    const canvas = document.getElementById('game') as HTMLCanvasElement;
    const hud = document.getElementById('hud') as HTMLElement;
    const state = readState();
    const [bytes, images, background] = await Promise.all([
        fetch('masks.hitmask').then(r => {
            if (!r.ok) throw new Error(`masks.hitmask: HTTP ${r.status}`);
            return r.arrayBuffer();
        }),
        Promise.all(FRAMES.map(async f => [f, await loadImage(f)] as const)).then(
            list => new Map<string, HTMLImageElement>(list)
        ),
        loadImage('background')
    ]);
    const atlas = MaskAtlas.from(new Uint8Array(bytes));
    let sim = new DemoSim(atlas, { seed: state.seed, mode: state.mode, stress: state.stress, auto: state.auto });
    canvas.width = sim.width;
    canvas.height = sim.height;
    // A batch draws the field where asked for, and in stress mode by default: WebGL on a GPU, else batched
    // pixels (bench/demo.bench.ts: software WebGL is the slowest there). With WebGL the debug overlays go to
    // a transparent 2D canvas laid over it (in the same grid cell of #field). No WebGL: batched pixels.
    const wanted = state.render ?? (state.stress > 0 ? (QuadBatch.hardware() ? 'webgl' : 'pixels') : 'canvas');
    let layer = canvas,
        batch: Batch | null = wanted === 'webgl' ? QuadBatch.create(canvas, images) : null;
    const renderer: Renderer = batch ? 'webgl' : wanted === 'canvas' ? 'canvas' : 'pixels';
    if (batch) {
        layer = document.createElement('canvas');
        layer.id = 'overlay';
        layer.width = sim.width;
        layer.height = sim.height;
        // Hidden while nothing is drawn on it: an empty layer is still a field-sized quad blended every frame.
        layer.style.visibility = 'hidden';
        canvas.after(layer);
    } else if (renderer === 'pixels') batch = new PixelBatch(canvas, images);
    const ctx = layer.getContext('2d') as CanvasRenderingContext2D;
    const keys = new Set<string>();
    const now = () => performance.now();

    // Terrain: the raster's bit plane filled with the ground texture of background.gif, redrawn after each crater.
    const terrain = document.createElement('canvas');
    terrain.width = sim.width;
    terrain.height = sim.height;
    const tctx = terrain.getContext('2d') as CanvasRenderingContext2D;
    const groundTile = document.createElement('canvas');
    groundTile.width = background.width;
    groundTile.height = 48;
    (groundTile.getContext('2d') as CanvasRenderingContext2D).drawImage(
        background,
        0,
        background.height - 48,
        background.width,
        48,
        0,
        0,
        background.width,
        48
    );
    const ground = tctx.createPattern(groundTile, 'repeat') as CanvasPattern;
    let terrainVersion = -1;
    const drawTerrain = () => {
        if (terrainVersion === sim.terrainVersion) return;
        terrainVersion = sim.terrainVersion;
        const plane = sim.raster.plane(0);
        forgetMask(plane);
        const img = tctx.createImageData(plane.width, plane.height);
        toRGBA(plane, { onColor: 0xffffffff, offColor: 0 }, img.data);
        tctx.globalCompositeOperation = 'copy';
        tctx.putImageData(img, 0, 0);
        tctx.globalCompositeOperation = 'source-in';
        tctx.fillStyle = ground;
        tctx.fillRect(0, 0, terrain.width, terrain.height);
        tctx.globalCompositeOperation = 'source-over';
    };

    const sprite = (a: Actor) => {
        const img = images.get(a.frame) as HTMLImageElement,
            x = Math.floor(a.x),
            y = Math.floor(a.y);
        if (a.kind === 'player' && sim.invulnerable > 0 && (sim.invulnerable >> 2) % 2 === 1) return;
        if (!a.flip) {
            ctx.drawImage(img, x, y);
            return;
        }
        ctx.save();
        ctx.translate(x + a.width, y);
        ctx.scale(-1, 1);
        ctx.drawImage(img, 0, 0);
        ctx.restore();
    };

    const render2d = () => {
        ctx.globalAlpha = 1;
        for (let y = 0; y < sim.height; y += background.height) {
            for (let x = 0; x < sim.width; x += background.width) ctx.drawImage(background, x, y);
        }
        drawTerrain();
        ctx.drawImage(terrain, 0, 0);
        for (const a of sim.actors) if (a.alive) sprite(a);
        // The laser sight: from the gun to the first pixel it meets (world.raycast in sim.ts).
        const laser = sim.laser;
        ctx.strokeStyle = 'rgba(255, 48, 48, 0.8)';
        ctx.lineWidth = 1;
        ctx.beginPath();
        ctx.moveTo(laser.x0, laser.y0);
        ctx.lineTo(laser.hit ? laser.hit.x : laser.x1, laser.hit ? laser.hit.y : laser.y1);
        ctx.stroke();
        // Explosions: explosion1.gif, mirrored every 3 frames as pygame's aliens example does, fading out.
        const boom = images.get('explosion1') as HTMLImageElement;
        for (const b of sim.blasts) {
            const s = b.scale * (1 + b.age / 48),
                w = boom.width * s,
                h = boom.height * s;
            ctx.save();
            ctx.globalAlpha = Math.max(0, 1 - b.age / 24);
            ctx.translate(b.x, b.y);
            if (Math.floor(b.age / 3) % 2 === 1) ctx.scale(-1, 1);
            ctx.drawImage(boom, -w / 2, -h / 2, w, h);
            ctx.restore();
        }
        // Near misses: boxes met, pixels did not. Highlighted in both modes, fading.
        for (let i = firstNearMark(sim.marks); i < sim.marks.length; i++) {
            const m = sim.marks[i];
            if (!m.near) continue;
            ctx.globalAlpha = Math.max(0.15, 1 - m.age / 30);
            ctx.fillStyle = 'rgba(255, 216, 0, 0.45)';
            ctx.fillRect(m.zone.x, m.zone.y, m.zone.width, m.zone.height);
            for (const r of m.boxes) drawBox(ctx, r.x, r.y, r.width, r.height, { color: NEAR, lineWidth: 2 });
        }
        ctx.globalAlpha = 1;
        if (state.debug) renderDebug();
        if (state.shapes) renderShapes();
    };

    // The same picture through a batch: background and terrain as one base picture (recomposed after each
    // crater), then sprites, laser, explosions and near misses, drawn at once.
    const base = document.createElement('canvas');
    base.width = sim.width;
    base.height = sim.height;
    const bctx = base.getContext('2d') as CanvasRenderingContext2D;
    let baseVersion = -1,
        overlayDrawn = false;
    const renderBatch = (gl: Batch) => {
        if (baseVersion !== sim.terrainVersion) {
            drawTerrain();
            for (let y = 0; y < sim.height; y += background.height) {
                for (let x = 0; x < sim.width; x += background.width) bctx.drawImage(background, x, y);
            }
            bctx.drawImage(terrain, 0, 0);
            gl.setBase(base);
            baseVersion = sim.terrainVersion;
        }
        gl.image(gl.baseRegion, 0, 0, sim.width, sim.height);
        const blink = sim.invulnerable > 0 && (sim.invulnerable >> 2) % 2 === 1;
        for (const a of sim.actors) {
            if (!a.alive || (blink && a.kind === 'player')) continue;
            const r = gl.region(a.frame);
            gl.image(r, Math.floor(a.x), Math.floor(a.y), r.width, r.height, a.flip);
        }
        // The laser is vertical (sim.ts): a one pixel wide rectangle centred on the line, as a 1 px stroke.
        const laser = sim.laser,
            y1 = laser.hit ? laser.hit.y : laser.y1,
            x1 = laser.hit ? laser.hit.x : laser.x1;
        gl.rect(
            Math.min(laser.x0, x1) - 0.5,
            Math.min(laser.y0, y1),
            Math.abs(x1 - laser.x0) + 1,
            Math.abs(y1 - laser.y0),
            0xff3030cc
        );
        const boom = gl.region('explosion1');
        for (const b of sim.blasts) {
            const s = b.scale * (1 + b.age / 48),
                w = boom.width * s,
                h = boom.height * s;
            gl.image(boom, b.x - w / 2, b.y - h / 2, w, h, Math.floor(b.age / 3) % 2 === 1, 1 - b.age / 24);
        }
        for (let i = firstNearMark(sim.marks); i < sim.marks.length; i++) {
            const m = sim.marks[i];
            if (!m.near) continue;
            const alpha = Math.max(0.15, 1 - m.age / 30);
            gl.rect(m.zone.x, m.zone.y, m.zone.width, m.zone.height, 0xffd80073, alpha);
            for (const r of m.boxes) gl.box(r.x, r.y, r.width, r.height, NEAR, 2, alpha);
        }
        gl.flush();
        // The overlays stay Canvas 2D (the debug helpers draw on a 2D context); a separate layer is cleared
        // only after it was drawn on.
        if (overlayDrawn && layer !== canvas) ctx.clearRect(0, 0, layer.width, layer.height);
        if (layer !== canvas && overlayDrawn !== (state.debug || state.shapes))
            layer.style.visibility = state.debug || state.shapes ? '' : 'hidden';
        overlayDrawn = state.debug || state.shapes;
        if (state.debug) renderDebug();
        if (state.shapes) renderShapes();
    };
    const render = () => (batch ? renderBatch(batch) : render2d());

    // Shapes: per atlas frame once (masks never change), and for the bunkers per terrain version (after each
    // crater the raster's polygons and pieces are rebuilt). Drawing only: the simulation never sees them.
    interface Shapes {
        polygons: Polygon[];
        pieces: number[][];
    }
    const shapesOf = (mask: Mask): Shapes => {
        const polygons = toPolygons(mask);
        return { polygons, pieces: polygons.flatMap(p => convexPieces(p)) };
    };
    const frameShapes = new Map<string, Shapes>();
    let terrainShapes: { sim: DemoSim; version: number; shapes: Shapes } | null = null;
    let drawn: ShapesDrawn = {
        sprites: 0,
        polygons: 0,
        pieces: 0,
        terrainPolygons: 0,
        terrainPieces: 0,
        terrainVersion: -1
    };
    const renderShapes = () => {
        if (!terrainShapes || terrainShapes.sim !== sim || terrainShapes.version !== sim.terrainVersion) {
            terrainShapes = { sim, version: sim.terrainVersion, shapes: shapesOf(sim.raster.plane(0)) };
        }
        const t = terrainShapes.shapes;
        drawPieces(ctx, t.pieces, 0, 0, { color: PIECE });
        drawPolygons(ctx, t.polygons, 0, 0, { color: POLYGON });
        const counts = { sprites: 0, polygons: 0, pieces: 0 };
        for (const a of sim.actors) {
            // As the debug masks: at most 500 sprites, so stress mode stays readable.
            if (!a.alive || counts.sprites >= 500) continue;
            let s = frameShapes.get(a.frame);
            if (!s) frameShapes.set(a.frame, (s = shapesOf(atlas.get(a.frame))));
            const f = atlas.frame(a.frame),
                x = Math.floor(a.x) + f.x,
                y = Math.floor(a.y) + f.y;
            drawPieces(ctx, s.pieces, x, y, { color: PIECE });
            drawPolygons(ctx, s.polygons, x, y, { color: POLYGON });
            counts.sprites++;
            counts.polygons += s.polygons.length;
            counts.pieces += s.pieces.length;
        }
        drawn = {
            ...counts,
            terrainPolygons: t.polygons.length,
            terrainPieces: t.pieces.length,
            terrainVersion: terrainShapes.version
        };
    };

    const renderDebug = () => {
        drawMask(ctx, sim.raster.plane(0), 0, 0, { color: TINT.terrain });
        let n = 0;
        for (const a of sim.actors) {
            if (!a.alive) continue;
            const f = atlas.frame(a.frame),
                x = Math.floor(a.x),
                y = Math.floor(a.y);
            // Thousands of tinted masks would hide the game in stress mode: boxes only past 500 sprites.
            if (n++ < 500) drawMask(ctx, f.mask, x + f.x, y + f.y, { color: TINT[a.kind] });
            drawBox(ctx, x, y, a.width, a.height, { color: 0x00ffff90 });
        }
        // Pairs of the pixel world still overlapping now: zone, overlapping pixels, contact normal.
        const w = sim.world;
        const pairs = w.collisions(debugPairs);
        for (let i = 0, count = Math.min(pairs.length, 200); i < count; i++) {
            const { a, b } = pairs[i];
            if (!w.has(a) || !w.has(b)) continue;
            const ma = a.mask as Mask,
                ax = Math.floor(a.x),
                ay = Math.floor(a.y);
            if (b.layer) drawOverlap(ctx, ma, sim.raster.plane(0), -ax, -ay, { x: ax, y: ay, color: HIT });
            else {
                const mb = b.mask as Mask,
                    bx = Math.floor(b.x),
                    by = Math.floor(b.y);
                drawIntersection(ctx, ma, mb, bx - ax, by - ay, { x: ax, y: ay, color: ZONE });
                drawOverlap(ctx, ma, mb, bx - ax, by - ay, { x: ax, y: ay, color: HIT });
            }
            const c = w.contact(a, b);
            if (c) drawNormal(ctx, c, { color: NORMAL });
        }
        // The laser's hit: the entry point and the normal of the face it entered.
        drawRay(ctx, sim.laser.x0, sim.laser.y0, sim.laser.x1, sim.laser.y1, sim.laser.hit, {
            color: LASER,
            normalColor: NORMAL
        });
        // Hits of the last half second, recorded before the bodies were removed.
        for (const m of sim.marks) {
            if (m.near) continue;
            ctx.globalAlpha = Math.max(0.2, 1 - m.age / 30);
            ctx.fillStyle = 'rgba(255, 255, 0, 0.25)';
            ctx.fillRect(m.zone.x, m.zone.y, m.zone.width, m.zone.height);
            drawMask(ctx, m.overlap, m.x, m.y, { color: HIT });
            if (m.contact) drawNormal(ctx, m.contact, { color: NORMAL });
        }
        ctx.globalAlpha = 1;
    };

    // The frame split: sums over the frames since the last refresh, shown as per-frame averages.
    const sums = { frames: 0, steps: 0, sim: 0, collision: 0, render: 0, since: now() };
    let split: FrameSplit = { fps: 0, p90Ms: 0, steps: 0, simMs: 0, collisionMs: 0, renderMs: 0, browserMs: 0 };
    // The intervals between the last INTERVALS frames (a ring), sorted in a scratch copy at each refresh.
    const INTERVALS = 120,
        intervals = new Float64Array(INTERVALS),
        sorted = new Float64Array(INTERVALS);
    let intervalCount = 0,
        lastFrame = -1;
    const p90 = (): number => {
        const n = Math.min(intervalCount, INTERVALS);
        if (n === 0) return 0;
        sorted.set(intervals);
        const s = sorted.subarray(0, n).sort();
        return s[Math.min(n - 1, Math.floor(0.9 * n))];
    };
    const account = (start: number, steps: number, simMs: number, collisionMs: number, renderMs: number) => {
        if (lastFrame >= 0) intervals[intervalCount++ % INTERVALS] = start - lastFrame;
        lastFrame = start;
        sums.frames++;
        sums.steps += steps;
        sums.sim += simMs;
        sums.collision += collisionMs;
        sums.render += renderMs;
        const t = now(),
            n = sums.frames;
        if (t - sums.since < 250) return;
        split = {
            fps: (1000 * n) / (t - sums.since),
            p90Ms: p90(),
            steps: sums.steps / n,
            simMs: sums.sim / n,
            collisionMs: sums.collision / n,
            renderMs: sums.render / n,
            browserMs: Math.max(0, (t - sums.since - sums.sim - sums.render) / n)
        };
        Object.assign(sums, { frames: 0, steps: 0, sim: 0, collision: 0, render: 0, since: t });
    };

    let lastHud = 0;
    const showHud = (force = false) => {
        const t = now();
        if (!force && t - lastHud < 250) return;
        lastHud = t;
        const s = sim.stats(),
            tt = s.totals;
        hud.innerHTML =
            `<b>${s.mode === 'pixel' ? 'PIXEL-EXACT' : 'BOUNDING BOXES'}</b> collisions${state.paused ? ' · paused' : ''}${state.auto ? ' · auto-pilot' : ''}` +
            ` · frame ${s.frame} · seed ${s.seed}\n` +
            `sprites <b>${s.sprites}</b> · pairs ${s.pairs} · collision <b>${s.collisionAvgMs.toFixed(3)} ms</b>/frame (avg; last ${s.collisionMs.toFixed(3)})\n` +
            `box pairs ${tt.boxPairs}, pixel pairs ${tt.pixelPairs}, <span class="near">near misses ${tt.nearMisses}</span> so far · ` +
            `aliens down ${tt.kills} · hits taken ${tt.playerHits} · bombs shot ${tt.intercepts} · craters ${tt.craters}\n` +
            `frame interval p90 <b>${split.p90Ms.toFixed(1)} ms</b>, <b>${split.fps.toFixed(1)} fps</b> · a frame: simulation ${split.simMs.toFixed(1)} ms (collision ${split.collisionMs.toFixed(1)} ms of it), ` +
            `draw calls ${split.renderMs.toFixed(1)} ms, browser ${split.browserMs.toFixed(1)} ms · ${split.steps.toFixed(2)} steps/frame · ${RENDERER_NAMES[renderer]}`;
    };

    // One Input object, refilled each step: nothing allocated per frame.
    const held: Input = { left: false, right: false, fire: false };
    const input = (): Input => {
        held.left = keys.has('ArrowLeft') || keys.has('KeyA');
        held.right = keys.has('ArrowRight') || keys.has('KeyD');
        held.fire = keys.has('Space');
        return held;
    };
    const stepOnce = () => sim.step(input(), now);

    const restart = () => {
        sim = new DemoSim(atlas, { seed: state.seed, mode: state.mode, stress: state.stress, auto: state.auto });
        terrainVersion = baseVersion = -1;
    };

    // Replay to the shared frame, if any (deterministic with auto=1: keyboard input is not recorded).
    const frame = Number(new URLSearchParams(location.search).get('frame') ?? 0);
    if (Number.isInteger(frame) && frame > 0)
        for (let i = 0; i < Math.min(frame, 100000); i++) sim.step(undefined, now);

    // A paused field is drawn again only after something changed it (a key, a step): an unchanged frame
    // redrawn every display frame kept a core busy, and a screenshot waited on those frames.
    let stale = true;
    window.addEventListener('keydown', e => {
        if (e.repeat && e.code !== 'Space' && !e.code.startsWith('Arrow')) return;
        keys.add(e.code);
        let changed = true;
        switch (e.code) {
            case 'KeyB':
                state.mode = state.mode === 'pixel' ? 'box' : 'pixel';
                sim.setMode(state.mode);
                break;
            case 'KeyG':
                state.debug = !state.debug;
                break;
            // O for outlines (P is pause).
            case 'KeyO':
                state.shapes = !state.shapes;
                break;
            case 'KeyP':
                state.paused = !state.paused;
                break;
            case 'KeyN':
                if (state.paused) stepOnce();
                break;
            case 'KeyR':
                restart();
                break;
            // The platformer scene (platformer-page.ts); its 1 comes back here.
            case 'Digit2':
                location.search = '?scene=platformer';
                return;
            default:
                changed = false;
        }
        if (changed) {
            writeUrl(state, sim.stats().frame);
            showHud(true);
            stale = true;
        }
        if (e.code === 'Space' || e.code.startsWith('Arrow')) e.preventDefault();
    });
    window.addEventListener('keyup', e => keys.delete(e.code));
    window.addEventListener('blur', () => keys.clear());

    // Catching up after a slow frame: up to 4 steps normally. A stress step costs about half a display frame,
    // so there catching up would make the next frame slower still (and the one after): one step at most, the
    // game slows down instead of the frame rate.
    const clock = new StepClock(STEP_MS, state.stress > 0 ? 1 : 4);
    let last = now();
    const loop = () => {
        const t = now(),
            due = clock.due(t - last);
        last = t;
        let steps = 0,
            collision = 0;
        if (!state.paused) {
            for (; steps < due; steps++) {
                stepOnce();
                collision += sim.worldMs.pixel + sim.worldMs.box;
            }
        } else clock.reset();
        if (state.paused && !stale) {
            // A pause is no slow frame: the interval after it is not counted.
            lastFrame = -1;
            requestAnimationFrame(loop);
            return;
        }
        stale = false;
        const t1 = now();
        render();
        account(t, steps, t1 - t, collision, now() - t1);
        showHud();
        requestAnimationFrame(loop);
    };

    window.hitmaskDemo = {
        step(n: number) {
            if (!Number.isInteger(n) || n < 0) throw new RangeError(`step(n) needs an integer n ≥ 0, got ${n}.`);
            for (let i = 0; i < n; i++) sim.step(undefined, now);
            render();
            showHud(true);
            writeUrl(state, sim.stats().frame);
            return sim.stats();
        },
        stats: () => sim.stats(),
        render,
        setMode(mode: Mode) {
            sim.setMode(mode);
            state.mode = mode;
            stale = true;
            writeUrl(state, sim.stats().frame);
        },
        setDebug(on: boolean) {
            state.debug = on;
            render();
            writeUrl(state, sim.stats().frame);
        },
        setShapes(on: boolean) {
            state.shapes = on;
            render();
            writeUrl(state, sim.stats().frame);
        },
        shapesDrawn: () => ({ ...drawn }),
        setPaused(on: boolean) {
            state.paused = on;
            stale = true;
            writeUrl(state, sim.stats().frame);
        },
        split: () => ({ ...split }),
        renderer: () => renderer
    };
    writeUrl(state, sim.stats().frame);
    render();
    showHud(true);
    requestAnimationFrame(loop);
}

// ?scene=platformer: the platformer scene instead of the shoot'em-up.
(new URLSearchParams(location.search).get('scene') === 'platformer'
    ? Promise.resolve().then(platformerMain)
    : main()
).catch((e: unknown) => {
    const hud = document.getElementById('hud');
    if (hud) hud.textContent = `demo failed: ${e instanceof Error ? e.message : String(e)}`;
    console.error(e);
});
