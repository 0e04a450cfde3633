// The page of bench/engines.bench.ts (bundled with esbuild, run in Chromium): one engine, Kaplay or Excalibur, with
// 500 sprite objects that wander and turn, each with the engine's own rectangle collision (Kaplay's area(),
// Excalibur's box collider) and, on the pixel side, hitmask's component beside it (pixelArea(), pixelCollisions).
// The motion is a function of the frame number, so both sides do the same frames. Each requestAnimationFrame
// callback (the engines' frame: update, collision checks, draw calls) is timed. No Node imports here.
import kaplay, { type GameObj, type KAPLAYCtx } from 'kaplay';
import * as ex from 'excalibur';
import { hitmaskPlugin, pixelArea } from '../src/kaplay.js';
import { pixelCollisions } from '../src/excalibur.js';
import { mulberry32 } from './timing.js';

/** What a run reports: each frame's milliseconds, and the collision events the engine fired. */
export interface EngineRun {
    frames: number[];
    events: number;
    objects: number;
}

const WIDTH = 960,
    HEIGHT = 540;

// Every requestAnimationFrame callback, timed (the engines run their frame in one), and given the timestamps of a
// steady 60 Hz: Kaplay runs its fixed steps (each with a collision check) by that clock, so a slower side does not
// get more of them.
const times: number[] = [];
const raf = window.requestAnimationFrame.bind(window);
let clock = 0;
window.requestAnimationFrame = (cb: FrameRequestCallback) =>
    raf(() => {
        const start = performance.now();
        cb((clock += 1000 / 60));
        times.push(performance.now() - start);
    });

// Object i's pose at frame f: a seeded start, speed and spin, bouncing inside the field.
interface Walker {
    x: number;
    y: number;
    vx: number;
    vy: number;
    spin: number;
}
function walkers(n: number): Walker[] {
    const r = mulberry32(0x500);
    return Array.from({ length: n }, () => ({
        x: 20 + r() * (WIDTH - 40),
        y: 20 + r() * (HEIGHT - 40),
        vx: (r() - 0.5) * 3,
        vy: (r() - 0.5) * 3,
        spin: (r() - 0.5) * 4
    }));
}
function bounce(p: number, v: number, max: number): number {
    const span = max - 40,
        t = (((p - 20 + v) % (2 * span)) + 2 * span) % (2 * span);
    return 20 + (t < span ? t : 2 * span - t);
}
function poseAt(w: Walker, f: number): [number, number, number] {
    return [bounce(w.x, w.vx * f, WIDTH), bounce(w.y, w.vy * f, HEIGHT), w.spin * f];
}

// Resolves once `frames` frames were timed after `warmup` more.
function measure(warmup: number, frames: number): Promise<number[]> {
    return new Promise(resolve => {
        const from = times.length + warmup;
        const poll = () => {
            if (times.length >= from + frames) resolve(times.slice(from, from + frames));
            else setTimeout(poll, 50);
        };
        poll();
    });
}

/** Kaplay: 500 objects with sprite(), area() and, when `pixel`, pixelArea(); an onCollideUpdate on each. */
async function runKaplay(n: number, pixel: boolean, warmup: number, frames: number): Promise<EngineRun> {
    const canvas = document.createElement('canvas');
    document.body.append(canvas);
    const k = kaplay({
        width: WIDTH,
        height: HEIGHT,
        canvas,
        global: false,
        pixelDensity: 1,
        debug: false,
        background: [34, 34, 51],
        plugins: [hitmaskPlugin]
    }) as unknown as KAPLAYCtx;
    k.loadSprite('alien', '../sprites/alien1.png');
    await new Promise<void>(resolve => k.onLoad(() => resolve()));
    const ws = walkers(n);
    let frame = 0,
        events = 0;
    const objs: GameObj[] = ws.map(w => {
        const [x, y, a] = poseAt(w, 0);
        const comps = [k.sprite('alien'), k.pos(x, y), k.anchor('center'), k.rotate(a), k.scale(0.4), k.area()];
        const o = k.add(pixel ? [...comps, pixelArea()] : comps);
        o.onCollideUpdate(() => void events++);
        return o;
    });
    k.onUpdate(() => {
        frame++;
        for (let i = 0; i < n; i++) {
            const [x, y, a] = poseAt(ws[i], frame),
                o = objs[i];
            o.pos.x = x;
            o.pos.y = y;
            o.angle = a;
        }
    });
    events = 0;
    const measured = await measure(warmup, frames);
    k.quit();
    return { frames: measured, events, objects: n };
}

/** Excalibur: 500 Passive actors with a box collider and, when `pixel`, pixelCollisions; a precollision on each. */
async function runExcalibur(n: number, pixel: boolean, warmup: number, frames: number): Promise<EngineRun> {
    const canvas = document.createElement('canvas');
    document.body.append(canvas);
    const engine = new ex.Engine({
        width: WIDTH,
        height: HEIGHT,
        canvasElement: canvas,
        displayMode: ex.DisplayMode.Fixed,
        pixelRatio: 1,
        antialiasing: false,
        suppressPlayButton: true,
        backgroundColor: ex.Color.fromHex('#222233'),
        // Both sides on WebGL: Excalibur would swap to a 2D canvas when a loaded machine's frame rate stays low.
        configurePerformanceCanvas2DFallback: { allow: false }
    });
    const image = new ex.ImageSource('../sprites/alien1.png');
    await image.load();
    await engine.start();
    const ws = walkers(n);
    let frame = 0,
        events = 0;
    const actors = ws.map(w => {
        const [x, y, a] = poseAt(w, 0);
        const actor = new ex.Actor({
            pos: ex.vec(x, y),
            rotation: (a * Math.PI) / 180,
            scale: ex.vec(0.4, 0.4),
            width: 80,
            height: 71,
            collisionType: ex.CollisionType.Passive
        });
        actor.graphics.use(image.toSprite());
        actor.on('precollision', () => void events++);
        engine.currentScene.add(actor);
        if (pixel) pixelCollisions(actor);
        return actor;
    });
    engine.currentScene.on('preupdate', () => {
        frame++;
        for (let i = 0; i < n; i++) {
            const [x, y, a] = poseAt(ws[i], frame),
                actor = actors[i];
            actor.pos.x = x;
            actor.pos.y = y;
            actor.rotation = (a * Math.PI) / 180;
        }
    });
    events = 0;
    const measured = await measure(warmup, frames);
    engine.stop();
    return { frames: measured, events, objects: n };
}

declare global {
    interface Window {
        enginesBench: {
            run(
                engine: 'kaplay' | 'excalibur',
                n: number,
                pixel: boolean,
                warmup: number,
                frames: number
            ): Promise<EngineRun>;
        };
    }
}
window.enginesBench = {
    run: (engine, n, pixel, warmup, frames) =>
        engine === 'kaplay' ? runKaplay(n, pixel, warmup, frames) : runExcalibur(n, pixel, warmup, frames)
};
document.title = 'ready';
