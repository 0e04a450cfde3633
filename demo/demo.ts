// The demo page: draws the simulation of sim.ts with the pygame sprites, collides with masks loaded from
// masks.hitmask, and keeps its state (mode, debug, shapes, stress, seed, auto, frame, pause) in the URL.
import { MaskAtlas, type Mask } from '../src/index.js';
import { drawBox, drawIntersection, drawMask, drawNormal, drawOverlap, drawPieces, drawPolygons, drawRay, forgetMask } from '../src/debug.js';
import { convexPieces, toPolygons, type Polygon } from '../src/shapes/index.js';
import { DemoSim, FRAMES, type Actor, type Input, type Kind, type Mode, type SimStats } from './sim.js';

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
    interface Window { hitmaskDemo?: DemoHook }
}

interface State {
    mode: Mode;
    debug: boolean;
    shapes: boolean;
    auto: boolean;
    paused: boolean;
    stress: number;
    seed: number;
}

const TINT: Record<Kind, number> = {
    player: 0x00ff8060, alien: 0xff40ff50, shot: 0x40c0ff90, bomb: 0xff800090, debris: 0x40c0ff60, terrain: 0x8080ff50
};
// Shapes overlay: exact polygons (toPolygons) over their convex pieces (convexPieces), as a physics engine gets them.
const POLYGON = 0xffd000ff, PIECE = 0x40c0ffb0;
const NEAR = 0xffd800ff, HIT = 0xff2020ff, ZONE = 0xffff0040, NORMAL = 0x00ff40ff, LASER = 0xff3030ff;
const STEP_MS = 1000 / 60;

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
        seed: int('seed', 1, 2 ** 31 - 1)
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
    // A paused view is shareable down to the frame (replayed deterministically on load).
    if (state.paused) { q.set('pause', '1'); q.set('frame', String(frame)); }
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
        fetch('masks.hitmask').then(r => { if (!r.ok) throw new Error(`masks.hitmask: HTTP ${r.status}`); return r.arrayBuffer(); }),
        Promise.all(FRAMES.map(async f => [f, await loadImage(f)] as const)).then(list => new Map<string, HTMLImageElement>(list)),
        loadImage('background')
    ]);
    const atlas = MaskAtlas.from(new Uint8Array(bytes));
    let sim = new DemoSim(atlas, { seed: state.seed, mode: state.mode, stress: state.stress, auto: state.auto });
    canvas.width = sim.width;
    canvas.height = sim.height;
    const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
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
    (groundTile.getContext('2d') as CanvasRenderingContext2D).drawImage(background, 0, background.height - 48, background.width, 48, 0, 0, background.width, 48);
    const ground = tctx.createPattern(groundTile, 'repeat') as CanvasPattern;
    let terrainVersion = -1;
    const drawTerrain = () => {
        if (terrainVersion === sim.terrainVersion) return;
        terrainVersion = sim.terrainVersion;
        const plane = sim.raster.plane(0);
        forgetMask(plane);
        const img = tctx.createImageData(plane.width, plane.height);
        plane.toRGBA(0xffffffff, 0, img.data);
        tctx.globalCompositeOperation = 'copy';
        tctx.putImageData(img, 0, 0);
        tctx.globalCompositeOperation = 'source-in';
        tctx.fillStyle = ground;
        tctx.fillRect(0, 0, terrain.width, terrain.height);
        tctx.globalCompositeOperation = 'source-over';
    };

    const sprite = (a: Actor) => {
        const img = images.get(a.frame) as HTMLImageElement, x = Math.floor(a.x), y = Math.floor(a.y);
        if (a.kind === 'player' && sim.invulnerable > 0 && (sim.invulnerable >> 2) % 2 === 1) return;
        if (!a.flip) { ctx.drawImage(img, x, y); return; }
        ctx.save();
        ctx.translate(x + a.width, y);
        ctx.scale(-1, 1);
        ctx.drawImage(img, 0, 0);
        ctx.restore();
    };

    const render = () => {
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
            const s = b.scale * (1 + b.age / 48), w = boom.width * s, h = boom.height * s;
            ctx.save();
            ctx.globalAlpha = Math.max(0, 1 - b.age / 24);
            ctx.translate(b.x, b.y);
            if (Math.floor(b.age / 3) % 2 === 1) ctx.scale(-1, 1);
            ctx.drawImage(boom, -w / 2, -h / 2, w, h);
            ctx.restore();
        }
        // Near misses: boxes met, pixels did not. Highlighted in both modes, fading.
        for (const m of sim.marks) {
            if (!m.near) continue;
            ctx.globalAlpha = Math.max(0.15, 1 - m.age / 30);
            ctx.fillStyle = 'rgba(255, 216, 0, 0.45)';
            ctx.fillRect(m.zone.x, m.zone.y, m.zone.width, m.zone.height);
            for (const r of m.boxes) drawBox(ctx, r.x, r.y, r.width, r.height, NEAR, 2);
        }
        ctx.globalAlpha = 1;
        if (state.debug) renderDebug();
        if (state.shapes) renderShapes();
    };

    // Shapes: per atlas frame once (masks never change), and for the bunkers per terrain version (after each
    // crater the raster's polygons and pieces are rebuilt). Drawing only: the simulation never sees them.
    interface Shapes { polygons: Polygon[]; pieces: number[][] }
    const shapesOf = (mask: Mask): Shapes => {
        const polygons = toPolygons(mask);
        return { polygons, pieces: polygons.flatMap(p => convexPieces(p)) };
    };
    const frameShapes = new Map<string, Shapes>();
    let terrainShapes: { sim: DemoSim; version: number; shapes: Shapes } | null = null;
    let drawn: ShapesDrawn = { sprites: 0, polygons: 0, pieces: 0, terrainPolygons: 0, terrainPieces: 0, terrainVersion: -1 };
    const renderShapes = () => {
        if (!terrainShapes || terrainShapes.sim !== sim || terrainShapes.version !== sim.terrainVersion) {
            terrainShapes = { sim, version: sim.terrainVersion, shapes: shapesOf(sim.raster.plane(0)) };
        }
        const t = terrainShapes.shapes;
        drawPieces(ctx, t.pieces, 0, 0, PIECE);
        drawPolygons(ctx, t.polygons, 0, 0, POLYGON);
        const counts = { sprites: 0, polygons: 0, pieces: 0 };
        for (const a of sim.actors) {
            // As the debug masks: at most 500 sprites, so stress mode stays readable.
            if (!a.alive || counts.sprites >= 500) continue;
            let s = frameShapes.get(a.frame);
            if (!s) frameShapes.set(a.frame, s = shapesOf(atlas.get(a.frame)));
            const f = atlas.frame(a.frame), x = Math.floor(a.x) + f.x, y = Math.floor(a.y) + f.y;
            drawPieces(ctx, s.pieces, x, y, PIECE);
            drawPolygons(ctx, s.polygons, x, y, POLYGON);
            counts.sprites++;
            counts.polygons += s.polygons.length;
            counts.pieces += s.pieces.length;
        }
        drawn = { ...counts, terrainPolygons: t.polygons.length, terrainPieces: t.pieces.length, terrainVersion: terrainShapes.version };
    };

    const renderDebug = () => {
        drawMask(ctx, sim.raster.plane(0), 0, 0, TINT.terrain);
        let n = 0;
        for (const a of sim.actors) {
            if (!a.alive) continue;
            const f = atlas.frame(a.frame), x = Math.floor(a.x), y = Math.floor(a.y);
            // Thousands of tinted masks would hide the game in stress mode: boxes only past 500 sprites.
            if (n++ < 500) drawMask(ctx, f.mask, x + f.x, y + f.y, TINT[a.kind]);
            drawBox(ctx, x, y, a.width, a.height, 0x00ffff90);
        }
        // Pairs of the pixel world still overlapping now: zone, overlapping pixels, contact normal.
        const w = sim.world;
        for (let i = 0, count = Math.min(w.pairCount, 200); i < count; i++) {
            const a = w.pairA(i), b = w.pairB(i);
            if (!w.has(a) || !w.has(b)) continue;
            const ma = a.mask as Mask, ax = Math.floor(a.x), ay = Math.floor(a.y);
            if (b.layer) drawOverlap(ctx, ma, ax, ay, sim.raster.plane(0), 0, 0, HIT);
            else {
                const mb = b.mask as Mask, bx = Math.floor(b.x), by = Math.floor(b.y);
                drawIntersection(ctx, ma, ax, ay, mb, bx, by, ZONE);
                drawOverlap(ctx, ma, ax, ay, mb, bx, by, HIT);
            }
            const c = w.contact(a, b);
            if (c) drawNormal(ctx, c, NORMAL);
        }
        // The laser's hit: the entry point and the normal of the face it entered.
        drawRay(ctx, sim.laser.x0, sim.laser.y0, sim.laser.x1, sim.laser.y1, sim.laser.hit, LASER, NORMAL);
        // Hits of the last half second, recorded before the bodies were removed.
        for (const m of sim.marks) {
            if (m.near) continue;
            ctx.globalAlpha = Math.max(0.2, 1 - m.age / 30);
            ctx.fillStyle = 'rgba(255, 255, 0, 0.25)';
            ctx.fillRect(m.zone.x, m.zone.y, m.zone.width, m.zone.height);
            drawMask(ctx, m.overlap, m.x, m.y, HIT);
            if (m.contact) drawNormal(ctx, m.contact, NORMAL);
        }
        ctx.globalAlpha = 1;
    };

    let lastHud = 0;
    const showHud = (force = false) => {
        const t = now();
        if (!force && t - lastHud < 250) return;
        lastHud = t;
        const s = sim.stats(), tt = s.totals;
        hud.innerHTML =
            `<b>${s.mode === 'pixel' ? 'PIXEL-EXACT' : 'BOUNDING BOXES'}</b> collisions${state.paused ? ' · paused' : ''}${state.auto ? ' · auto-pilot' : ''}` +
            ` · frame ${s.frame} · seed ${s.seed}\n` +
            `sprites <b>${s.sprites}</b> · pairs ${s.pairs} · collision <b>${s.collisionAvgMs.toFixed(3)} ms</b>/frame (avg; last ${s.collisionMs.toFixed(3)})\n` +
            `box pairs ${tt.boxPairs}, pixel pairs ${tt.pixelPairs}, <span class="near">near misses ${tt.nearMisses}</span> so far · ` +
            `aliens down ${tt.kills} · hits taken ${tt.playerHits} · bombs shot ${tt.intercepts} · craters ${tt.craters}`;
    };

    const input = (): Input => ({
        left: keys.has('ArrowLeft') || keys.has('KeyA'),
        right: keys.has('ArrowRight') || keys.has('KeyD'),
        fire: keys.has('Space')
    });
    const stepOnce = () => sim.step(input(), now);

    const restart = () => {
        sim = new DemoSim(atlas, { seed: state.seed, mode: state.mode, stress: state.stress, auto: state.auto });
        terrainVersion = -1;
    };

    // Replay to the shared frame, if any (deterministic with auto=1: keyboard input is not recorded).
    const frame = Number(new URLSearchParams(location.search).get('frame') ?? 0);
    if (Number.isInteger(frame) && frame > 0) for (let i = 0; i < Math.min(frame, 100000); i++) sim.step(undefined, now);

    window.addEventListener('keydown', e => {
        if (e.repeat && e.code !== 'Space' && !e.code.startsWith('Arrow')) return;
        keys.add(e.code);
        let changed = true;
        switch (e.code) {
            case 'KeyB': state.mode = state.mode === 'pixel' ? 'box' : 'pixel'; sim.setMode(state.mode); break;
            case 'KeyG': state.debug = !state.debug; break;
            // O for outlines (P is pause).
            case 'KeyO': state.shapes = !state.shapes; break;
            case 'KeyP': state.paused = !state.paused; break;
            case 'KeyN': if (state.paused) stepOnce(); break;
            case 'KeyR': restart(); break;
            default: changed = false;
        }
        if (changed) { writeUrl(state, sim.stats().frame); showHud(true); }
        if (e.code === 'Space' || e.code.startsWith('Arrow')) e.preventDefault();
    });
    window.addEventListener('keyup', e => keys.delete(e.code));
    window.addEventListener('blur', () => keys.clear());

    let last = now(), acc = 0;
    const loop = () => {
        const t = now();
        acc = Math.min(acc + t - last, 4 * STEP_MS);
        last = t;
        if (!state.paused) {
            while (acc >= STEP_MS) { stepOnce(); acc -= STEP_MS; }
        } else acc = 0;
        render();
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
        setMode(mode: Mode) { sim.setMode(mode); state.mode = mode; writeUrl(state, sim.stats().frame); },
        setDebug(on: boolean) { state.debug = on; render(); writeUrl(state, sim.stats().frame); },
        setShapes(on: boolean) { state.shapes = on; render(); writeUrl(state, sim.stats().frame); },
        shapesDrawn: () => ({ ...drawn }),
        setPaused(on: boolean) { state.paused = on; writeUrl(state, sim.stats().frame); }
    };
    writeUrl(state, sim.stats().frame);
    render();
    showHud(true);
    requestAnimationFrame(loop);
}

main().catch((e: unknown) => {
    const hud = document.getElementById('hud');
    if (hud) hud.textContent = `demo failed: ${e instanceof Error ? e.message : String(e)}`;
    console.error(e);
});
