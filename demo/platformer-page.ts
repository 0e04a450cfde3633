// The platformer scene's page (`?scene=platformer`): draws platformer.ts's simulation on the demo's canvas,
// takes the keyboard (arrows or WASD, space to jump, F to shoot, S or down to drop through a ledge) and
// clicks (a crater where clicked), and keeps its state (seed, auto, pause, frame) in the URL.
import { type Mask, toRGBA } from '../src/index.js';
import { StepClock } from './clock.js';
import {
    LEDGES,
    PlatformerSim,
    TERRAIN,
    type Mover,
    type PlatformerInput,
    type PlatformerStats
} from './platformer.js';

/** What the page exposes as `window.hitmaskPlatformer` for scripted runs. */
export interface PlatformerHook {
    /** Runs n fixed steps (the pilot plays with auto=1, no keys otherwise), draws, returns the stats. */
    step(n: number): PlatformerStats;
    stats(): PlatformerStats;
    /** Carves a crater at (x, y) in field pixels, as a click does. */
    click(x: number, y: number): void;
}

declare global {
    interface Window {
        hitmaskPlatformer?: PlatformerHook;
    }
}

const STEP_MS = 1000 / 60;
const COLORS = { hero: 0xffe060ff, walker: [0x60ff90ff, 0x60c0ffff, 0xff80c0ff], bullet: 0xffffffff };

// A mask as a canvas of one colour (0xRRGGBBAA), to draw with drawImage.
function sprite(mask: Mask, color: number): HTMLCanvasElement {
    const c = document.createElement('canvas');
    c.width = mask.width;
    c.height = mask.height;
    const ctx = c.getContext('2d') as CanvasRenderingContext2D,
        img = ctx.createImageData(mask.width, mask.height);
    toRGBA(mask, { onColor: color, offColor: 0 }, img.data);
    ctx.putImageData(img, 0, 0);
    return c;
}

/** Runs the platformer scene on the page's #game canvas. */
export function platformerMain(): void {
    const canvas = document.getElementById('game') as HTMLCanvasElement;
    const hud = document.getElementById('hud') as HTMLElement;
    const q = new URLSearchParams(location.search);
    const seed = Number.isInteger(Number(q.get('seed') ?? 1)) ? Number(q.get('seed') ?? 1) : 1;
    const state = { seed, auto: q.get('auto') === '1', paused: q.get('pause') === '1' };
    document.title = 'hitmask demo: a platformer on pixel terrain';
    const h1 = document.querySelector('h1');
    if (h1) h1.textContent = 'hitmask: a platformer on pixel terrain, every move through moveAndSlide';
    document.querySelectorAll<HTMLElement>('[data-scene]').forEach(e => {
        e.hidden = e.dataset.scene !== 'platformer';
    });
    let sim = new PlatformerSim({ seed: state.seed, auto: state.auto });
    canvas.width = sim.width;
    canvas.height = sim.height;
    const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;

    // Terrain and ledges: the raster's planes as pictures, the terrain redrawn after each crater.
    const field = document.createElement('canvas');
    field.width = sim.width;
    field.height = sim.height;
    const fctx = field.getContext('2d') as CanvasRenderingContext2D;
    let drawnVersion = -1;
    const drawField = () => {
        if (drawnVersion === sim.terrainVersion) return;
        drawnVersion = sim.terrainVersion;
        const img = fctx.createImageData(sim.width, sim.height),
            ledges = new Uint8ClampedArray(img.data.length);
        toRGBA(sim.raster.plane(TERRAIN), { onColor: 0x8a6a48ff, offColor: 0x141a2cff }, img.data);
        toRGBA(sim.raster.plane(LEDGES), { onColor: 0xd0d0ffff, offColor: 0 }, ledges);
        for (let i = 3; i < ledges.length; i += 4)
            if (ledges[i] !== 0) img.data.set(ledges.subarray(i - 3, i + 1), i - 3);
        fctx.putImageData(img, 0, 0);
    };
    const sprites = new Map<Mask, HTMLCanvasElement>();
    const draw = (a: Mover, color: number) => {
        let s = sprites.get(a.mask);
        if (!s) sprites.set(a.mask, (s = sprite(a.mask, color)));
        ctx.drawImage(s, Math.floor(a.x), Math.floor(a.y));
    };
    const walkerColor = new Map<Mask, number>();
    const render = () => {
        drawField();
        ctx.drawImage(field, 0, 0);
        ctx.fillStyle = '#ffb040';
        for (const l of sim.lifts) ctx.fillRect(l.x, l.y, l.mask.width, l.mask.height);
        ctx.strokeStyle = '#ffffff80';
        ctx.strokeRect(sim.hatch.x - 6.5, sim.hatch.y - 8.5, 20, 8);
        for (const w of sim.walkers) {
            let c = walkerColor.get(w.mask);
            if (c === undefined) walkerColor.set(w.mask, (c = COLORS.walker[walkerColor.size % COLORS.walker.length]));
            draw(w, c);
        }
        for (const b of sim.bullets) draw(b, COLORS.bullet);
        draw(sim.hero, COLORS.hero);
    };
    let lastHud = 0;
    const showHud = (force = false) => {
        const t = performance.now();
        if (!force && t - lastHud < 250) return;
        lastHud = t;
        const s = sim.stats();
        hud.innerHTML =
            `<b>PLATFORMER</b> · every move through moveAndSlide${state.paused ? ' · paused' : ''}${state.auto ? ' · auto-pilot' : ''} · frame ${s.frame} · seed ${state.seed}\n` +
            `walkers <b>${s.walkers}</b> · moves ${s.moves} · carried by lifts ${s.carried} · turned at walls ${s.turns} · landed ${s.landings} · ` +
            `lost in the pit ${s.lost} · jumps ${s.jumps} · craters ${s.craters}`;
    };
    const writeUrl = () => {
        const u = new URLSearchParams({ scene: 'platformer' });
        if (state.auto) u.set('auto', '1');
        if (state.seed !== 1) u.set('seed', String(state.seed));
        if (state.paused) {
            u.set('pause', '1');
            u.set('frame', String(sim.stats().frame));
        }
        history.replaceState(null, '', `?${u}`);
    };

    const keys = new Set<string>();
    const input = (): PlatformerInput => ({
        left: keys.has('ArrowLeft') || keys.has('KeyA'),
        right: keys.has('ArrowRight') || keys.has('KeyD'),
        jump: keys.has('Space') || keys.has('ArrowUp') || keys.has('KeyW'),
        down: keys.has('ArrowDown') || keys.has('KeyS'),
        fire: keys.has('KeyF')
    });
    const frame = Number(q.get('frame') ?? 0);
    if (Number.isInteger(frame) && frame > 0) for (let i = 0; i < Math.min(frame, 100000); i++) sim.step();
    window.addEventListener('keydown', e => {
        keys.add(e.code);
        if (e.repeat) return;
        if (e.code === 'KeyP') state.paused = !state.paused;
        else if (e.code === 'KeyN' && state.paused) sim.step(input());
        else if (e.code === 'KeyR') {
            sim = new PlatformerSim({ seed: state.seed, auto: state.auto });
            drawnVersion = -1;
        } else if (e.code === 'Digit1') {
            location.search = '';
            return;
        }
        if (['Space', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'].includes(e.code)) e.preventDefault();
        writeUrl();
        showHud(true);
    });
    window.addEventListener('keyup', e => keys.delete(e.code));
    window.addEventListener('blur', () => keys.clear());
    canvas.addEventListener('mousedown', e => {
        const r = canvas.getBoundingClientRect();
        sim.carve(((e.clientX - r.left) * canvas.width) / r.width, ((e.clientY - r.top) * canvas.height) / r.height);
        render();
    });

    const clock = new StepClock(STEP_MS, 4);
    let last = performance.now();
    const loop = () => {
        const t = performance.now();
        const due = clock.due(t - last);
        last = t;
        if (state.paused) clock.reset();
        else for (let k = 0; k < due; k++) sim.step(input());
        render();
        showHud();
        requestAnimationFrame(loop);
    };
    window.hitmaskPlatformer = {
        step(n: number) {
            if (!Number.isInteger(n) || n < 0) throw new RangeError(`step(n) needs an integer n ≥ 0, got ${n}.`);
            for (let i = 0; i < n; i++) sim.step();
            render();
            showHud(true);
            writeUrl();
            return sim.stats();
        },
        stats: () => sim.stats(),
        click(x: number, y: number) {
            sim.carve(x, y);
            render();
        }
    };
    writeUrl();
    render();
    showHud(true);
    requestAnimationFrame(loop);
}
