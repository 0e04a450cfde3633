// The browser client of the room server: joins a match room with the Colyseus SDK, predicts locally (its own
// input at once, the other ship's as last confirmed), rolls back on the server's confirmed frames and checks
// the server's hash of every one of them. Arrows or WASD fly, Space carves the terrain.
// Query: ?server=PORT (the Colyseus port), ?bot=SEED (scripted inputs instead of the keyboard), ?delay=MS (hold
// each input that long before sending it: late inputs make rollbacks), ?lead=N (frames run ahead, default 2).
import { Client, type Room } from '@colyseus/sdk';
import { toRGBA, type Mask } from '../../src/index.js'; // in a game: from 'hitmask'
import { MAX_LEAD, Predictor, scriptedInput, type FrameMessage, type Welcome } from './netcode.js';
import { DOWN, FIRE, HEIGHT, LEFT, PLAYERS, RIGHT, score, SPRITES, UP, WIDTH } from './sim.js';

/** What the page exposes (window.hitmaskNet) for the test and the curious. */
export interface NetStatus {
    slot: number;
    frame: number;
    confirmed: number;
    rollbacks: number;
    resimulated: number;
    compared: number;
    mismatches: number;
    firstMismatch: number;
    ended: boolean;
    error: string;
    /** This client's hash of each confirmed frame, by frame. */
    hashes: number[];
}

declare global {
    interface Window {
        hitmaskNet?: () => NetStatus;
    }
}

const query = new URLSearchParams(location.search);
const port = query.get('server') ?? '2567';
const bot = query.has('bot') ? Number(query.get('bot')) : null;
const delay = Number(query.get('delay') ?? 0);
const lead = Math.min(MAX_LEAD - 1, Math.max(1, Number(query.get('lead') ?? 2)));
const status = document.getElementById('status') as HTMLOutputElement;
const canvas = document.getElementById('stage') as HTMLCanvasElement;
const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
canvas.width = WIDTH;
canvas.height = HEIGHT;

let net: Predictor | null = null,
    room: Room | null = null,
    ended = false,
    error = '';
const early: FrameMessage[] = []; // frames that came before the welcome

window.hitmaskNet = () => ({
    slot: net?.slot ?? -1,
    frame: net?.frame ?? 0,
    confirmed: net?.confirmed ?? 0,
    rollbacks: net?.rollbacks ?? 0,
    resimulated: net?.resimulated ?? 0,
    compared: net?.compared ?? 0,
    mismatches: net?.mismatches ?? 0,
    firstMismatch: net?.firstMismatch ?? -1,
    ended,
    error,
    hashes: net ? [...net.hashes] : []
});

// Keyboard: held keys as input bits.
let keys = 0;
const KEYS: Record<string, number> = {
    ArrowLeft: LEFT,
    KeyA: LEFT,
    ArrowRight: RIGHT,
    KeyD: RIGHT,
    ArrowUp: UP,
    KeyW: UP,
    ArrowDown: DOWN,
    KeyS: DOWN,
    Space: FIRE
};
addEventListener('keydown', e => {
    if (KEYS[e.code]) {
        keys |= KEYS[e.code];
        e.preventDefault();
    }
});
addEventListener('keyup', e => {
    if (KEYS[e.code]) keys &= ~KEYS[e.code];
});

function send(frame: number, bits: number): void {
    const r = room;
    if (!r) return;
    if (delay > 0) setTimeout(() => r.send('input', [frame, bits]), delay);
    else r.send('input', [frame, bits]);
}

// Driven by the server's frames: confirm, then predict up to `lead` frames past the last confirmed one.
function onFrame(msg: FrameMessage): void {
    if (!net) {
        early.push(msg);
        return;
    }
    if (msg[0] < net.confirmed) return; // the welcome held it already
    net.confirm(msg);
    while (net.frame < net.confirmed + lead) {
        const f = net.frame,
            bits = bot === null ? keys : scriptedInput(bot, f);
        net.predict(bits);
        send(f, bits);
    }
}

function fail(e: unknown): void {
    error = e instanceof Error ? e.message : String(e);
    status.textContent = `error: ${error}`;
}

async function connect(): Promise<void> {
    const client = new Client(`http://${location.hostname}:${port}`);
    const r = await client.joinOrCreate('match');
    room = r;
    r.onMessage('welcome', (w: Welcome) => {
        try {
            net = new Predictor(w.seed, w.slot);
            for (const msg of w.frames) net.confirm(msg); // a late joiner replays the match so far
            for (const msg of early.splice(0)) onFrame(msg);
        } catch (e) {
            fail(e);
        }
    });
    r.onMessage('frame', (msg: FrameMessage) => {
        try {
            onFrame(msg);
        } catch (e) {
            fail(e);
        }
    });
    r.onMessage('end', () => {
        ended = true;
    });
    r.onLeave(() => {
        ended = true;
    });
}

// Drawing: the terrain plane through toRGBA, each sprite's mask as a canvas drawn once per colour.
const sprites = new Map<Mask, Map<number, HTMLCanvasElement>>();
function sprite(mask: Mask, color: number): HTMLCanvasElement {
    let byColor = sprites.get(mask);
    if (!byColor) sprites.set(mask, (byColor = new Map()));
    let c = byColor.get(color);
    if (!c) {
        c = document.createElement('canvas');
        c.width = mask.width;
        c.height = mask.height;
        const rgba = new Uint8ClampedArray(mask.width * mask.height * 4);
        toRGBA(mask, { onColor: color }, rgba);
        c.getContext('2d')?.putImageData(new ImageData(rgba, mask.width, mask.height), 0, 0);
        byColor.set(color, c);
    }
    return c;
}
const SHIPS = [0x4fc3f7ff, 0xff8a65ff];
const terrain = new ImageData(WIDTH, HEIGHT);

function draw(): void {
    if (net) {
        const { raster, bodies } = net.sim;
        toRGBA(raster.plane(0), { onColor: 0x556677ff, offColor: 0x111118ff }, terrain.data);
        ctx.putImageData(terrain, 0, 0);
        for (let i = PLAYERS; i < SPRITES; i++)
            ctx.drawImage(
                sprite(net.sim.masks.rocks[i % net.sim.masks.rocks.length], 0xc8b48cff),
                bodies[i].x,
                bodies[i].y
            );
        for (let p = 0; p < PLAYERS; p++) ctx.drawImage(sprite(net.sim.masks.ship, SHIPS[p]), bodies[p].x, bodies[p].y);
        const ok = net.mismatches === 0;
        status.textContent =
            `you: ship ${net.slot + 1} (${net.slot === 0 ? 'blue' : 'orange'}) · frame ${net.frame} · confirmed ${net.confirmed}` +
            ` · rollbacks ${net.rollbacks} (${net.resimulated} frames again) · hashes ${net.compared - net.mismatches}/${net.compared} equal` +
            `${ok ? '' : ` · MISMATCH from frame ${net.firstMismatch}`} · score ${score(net.sim, 0)} : ${score(net.sim, 1)}${ended ? ' · match over' : ''}`;
        status.dataset.mismatches = String(net.mismatches);
    }
    requestAnimationFrame(draw);
}

requestAnimationFrame(draw);
connect().catch(fail);
