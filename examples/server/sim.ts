// The match both sides run: 2 ships and 198 rocks (200 sprites) in a World, over a CollisionRaster of terrain
// that the ships carve. The server steps it with the confirmed inputs; each client steps the same code with
// predicted inputs and rolls back. Deterministic by construction: masks made in code (a World names masks by
// content in its hash), a seeded PRNG for the start only, integer positions and velocities, events in body-id
// order, no Math.random, no floats that could round differently.
import { CollisionRaster, Mask, World, type Body } from '../../src/index.js'; // in a game: from 'hitmask'

export const WIDTH = 480,
    HEIGHT = 320,
    PLAYERS = 2,
    ROCKS = 198,
    SPRITES = PLAYERS + ROCKS,
    FPS = 30;
/** Input bits of one player for one frame. */
export const LEFT = 1,
    RIGHT = 2,
    UP = 4,
    DOWN = 8,
    FIRE = 16;
const SHIP = 1,
    ROCK = 2,
    GROUND = 4,
    TERRAIN = -1;
const SPEED = 2,
    COOLDOWN = 8,
    CRATER = 16;
// Int32 game state next to the World: per sprite vx, vy; per player score, cooldown, facing x, facing y.
const VEL = 0,
    PLAYER = 2 * SPRITES,
    STATE_INTS = PLAYER + 4 * PLAYERS;

/** mulberry32: the same numbers for the same seed on every engine. */
export function prng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

function disc(d: number, hole = 0): Mask {
    const m = new Mask(d, d),
        r = d / 2;
    for (let y = 0; y < d; y++)
        for (let x = 0; x < d; x++) {
            const q = (x + 0.5 - r) ** 2 + (y + 0.5 - r) ** 2;
            if (q < r * r && q >= hole * hole) m.set(x, y);
        }
    return m;
}

function ship(): Mask {
    const m = new Mask(12, 12);
    for (let y = 0; y < 12; y++) for (let x = 6 - (y >> 1); x < 6 + ((y + 1) >> 1); x++) m.set(x, y);
    return m;
}

/** The masks of the match, made the same way on the server and in every client. */
export interface Masks {
    ship: Mask;
    rocks: Mask[];
    crater: Mask;
    islands: Mask[];
}

export function makeMasks(): Masks {
    const blob = new Mask(12, 9),
        rnd = prng(7);
    for (let y = 0; y < 9; y++)
        for (let x = 0; x < 12; x++) if ((x - 6) ** 2 / 36 + (y - 4.5) ** 2 / 20 < 1 && rnd() < 0.85) blob.set(x, y);
    return {
        ship: ship(),
        rocks: [disc(10), disc(14, 3), blob, new Mask(16, 4, true)],
        crater: disc(CRATER),
        islands: [disc(40), disc(56), disc(32)]
    };
}

/** One match: the World, its terrain raster, the game state and the body handles (index = sprite number). */
export interface Sim {
    world: World<number>;
    raster: CollisionRaster;
    state: Int32Array;
    bodies: Body<number>[];
    masks: Masks;
    /** Begin events of the step under way, as pairs of sprite numbers (TERRAIN for the raster). */
    begins: number[];
}

/** The match at frame 0 for `seed`. */
export function createSim(seed: number, masks: Masks = makeMasks()): Sim {
    const rnd = prng(seed),
        world = new World<number>(),
        raster = new CollisionRaster(WIDTH, HEIGHT);
    for (let i = 0; i < 10; i++) {
        const m = masks.islands[i % masks.islands.length];
        raster.stamp(
            m,
            20 + Math.floor(rnd() * (WIDTH - 40 - m.width)),
            60 + Math.floor(rnd() * (HEIGHT - 80 - m.height))
        );
    }
    const sim: Sim = { world, raster, state: new Int32Array(STATE_INTS), bodies: [], masks, begins: [] };
    world.addLayer(raster.layer(0), { category: GROUND, data: TERRAIN });
    for (let p = 0; p < PLAYERS; p++) {
        sim.bodies.push(
            world.add({
                x: 40 + p * (WIDTH - 92),
                y: 16,
                mask: masks.ship,
                category: SHIP,
                collidesWith: ROCK,
                data: p
            })
        );
        sim.state[PLAYER + 4 * p + 3] = 1;
    }
    for (let i = PLAYERS; i < SPRITES; i++) {
        const mask = masks.rocks[i % masks.rocks.length];
        sim.bodies.push(
            world.add({
                x: Math.floor(rnd() * (WIDTH - mask.width)),
                y: Math.floor(rnd() * (HEIGHT - mask.height)),
                mask,
                category: ROCK,
                data: i
            })
        );
        sim.state[VEL + 2 * i] = (1 + Math.floor(rnd() * 2)) * (rnd() < 0.5 ? -1 : 1);
        sim.state[VEL + 2 * i + 1] = (1 + Math.floor(rnd() * 2)) * (rnd() < 0.5 ? -1 : 1);
    }
    world.on('begin', (a, b) => {
        sim.begins.push(a.data ?? TERRAIN, b.data ?? TERRAIN);
    });
    return sim;
}

/** One frame: `inputs[p]` is player p's input bits. The same Sim and inputs give the same next Sim everywhere. */
export function step(sim: Sim, inputs: ArrayLike<number>): void {
    const { world, raster, state, bodies, masks } = sim;
    for (let p = 0; p < PLAYERS; p++) {
        const b = bodies[p],
            bits = inputs[p] | 0,
            at = PLAYER + 4 * p;
        const dx = (bits & RIGHT ? SPEED : 0) - (bits & LEFT ? SPEED : 0),
            dy = (bits & DOWN ? SPEED : 0) - (bits & UP ? SPEED : 0);
        if (dx !== 0 || dy !== 0) {
            state[at + 2] = Math.sign(dx);
            state[at + 3] = Math.sign(dy);
        }
        // Ships fly around the terrain: each axis moves only where the ship's mask stays off it.
        let x = b.x,
            y = b.y;
        if (dx !== 0 && inside(x + dx, y, masks.ship) && !raster.overlaps(masks.ship, x + dx, y)) x += dx;
        if (dy !== 0 && inside(x, y + dy, masks.ship) && !raster.overlaps(masks.ship, x, y + dy)) y += dy;
        if (x !== b.x || y !== b.y) world.move(b, x, y);
        if (state[at + 1] > 0) state[at + 1]--;
        else if (bits & FIRE) {
            // Fire carves a crater in the terrain ahead of the ship.
            raster.erase(
                masks.crater,
                x + 6 - CRATER / 2 + 14 * state[at + 2],
                y + 6 - CRATER / 2 + 14 * state[at + 3],
                { layer: 0 }
            );
            state[at + 1] = COOLDOWN;
        }
    }
    for (let i = PLAYERS; i < SPRITES; i++) {
        const b = bodies[i],
            m = masks.rocks[i % masks.rocks.length];
        let vx = state[VEL + 2 * i],
            vy = state[VEL + 2 * i + 1];
        if (b.x + vx < 0 || b.x + vx + m.width > WIDTH) vx = -vx;
        if (b.y + vy < 0 || b.y + vy + m.height > HEIGHT) vy = -vy;
        state[VEL + 2 * i] = vx;
        state[VEL + 2 * i + 1] = vy;
        world.move(b, b.x + vx, b.y + vy);
    }
    sim.begins.length = 0;
    world.step();
    // Begin events come in body-id order: rocks bounce off each other and the terrain, ships score on rocks.
    const begins = sim.begins;
    for (let k = 0; k < begins.length; k += 2) {
        const a = begins[k],
            c = begins[k + 1];
        if (a === TERRAIN || c === TERRAIN) {
            const r = a === TERRAIN ? c : a;
            state[VEL + 2 * r] = -state[VEL + 2 * r];
            state[VEL + 2 * r + 1] = -state[VEL + 2 * r + 1];
        } else if (a < PLAYERS || c < PLAYERS) {
            const p = a < PLAYERS ? a : c,
                r = a < PLAYERS ? c : a;
            state[PLAYER + 4 * p]++;
            state[VEL + 2 * r] = -state[VEL + 2 * r];
            state[VEL + 2 * r + 1] = -state[VEL + 2 * r + 1];
        } else {
            push(state, a, bodies[a].x - bodies[c].x, bodies[a].y - bodies[c].y);
            push(state, c, bodies[c].x - bodies[a].x, bodies[c].y - bodies[a].y);
        }
    }
}

function inside(x: number, y: number, m: Mask): boolean {
    return x >= 0 && y >= 0 && x + m.width <= WIDTH && y + m.height <= HEIGHT;
}

// A rock pushed away from another: its speed per axis is kept, its sign points away (ties keep the sign).
function push(state: Int32Array, r: number, ax: number, ay: number): void {
    if (ax !== 0) state[VEL + 2 * r] = Math.abs(state[VEL + 2 * r]) * Math.sign(ax);
    if (ay !== 0) state[VEL + 2 * r + 1] = Math.abs(state[VEL + 2 * r + 1]) * Math.sign(ay);
}

/** Player p's score (rocks hit). */
export function score(sim: Sim, p: number): number {
    return sim.state[PLAYER + 4 * p];
}

/** The hash the server sends and the clients check: world.hash() and raster.hash(), with the game state folded in. */
export function simHash(sim: Sim): number {
    let h = Math.imul(sim.world.hash() ^ 0x9e3779b9, 0x85ebca6b) ^ sim.raster.hash();
    const s = sim.state;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s[i], 0x01000193);
    return h >>> 0;
}

/** Saved frames for rollback: the World's and the raster's snapshots into reused buffers, and the game state. */
export class SnapshotRing {
    readonly size: number;
    readonly #buffers: Uint8Array[][] = [[], []];
    readonly #views: Uint8Array[][] = [[], []];
    readonly #state: Int32Array[] = [];
    readonly #frame: Int32Array;

    constructor(size: number) {
        this.size = size;
        this.#frame = new Int32Array(size).fill(-1);
        for (let i = 0; i < size; i++) {
            for (let s = 0; s < 2; s++) this.#buffers[s].push(new Uint8Array(0));
            this.#state.push(new Int32Array(STATE_INTS));
        }
    }

    /** Saves `sim` as the state at the start of `frame` (before its inputs). */
    save(sim: Sim, frame: number): void {
        const k = frame % this.size;
        for (let s = 0; s < 2; s++) {
            let out = this.#buffers[s][k];
            // Buffers are sized from a first snapshot without `out`, with room to spare (a raster's stamped box
            // may grow): writing into a reused buffer allocates nothing.
            if (out.length === 0)
                out = this.#buffers[s][k] = new Uint8Array(
                    Math.ceil((s === 0 ? sim.world.snapshot() : sim.raster.snapshot()).length * 1.25) + 1024
                );
            const bytes = s === 0 ? sim.world.snapshot(out) : sim.raster.snapshot(out);
            if (bytes.buffer !== out.buffer) this.#buffers[s][k] = new Uint8Array(Math.ceil(bytes.length * 1.25));
            this.#views[s][k] = bytes;
        }
        this.#state[k].set(sim.state);
        this.#frame[k] = frame;
    }

    /** Puts `sim` back to the start of `frame`; false where that frame has left the ring. */
    restore(sim: Sim, frame: number): boolean {
        const k = frame % this.size;
        if (this.#frame[k] !== frame) return false;
        sim.world.restore(this.#views[0][k]);
        sim.raster.restore(this.#views[1][k]);
        sim.state.set(this.#state[k]);
        return true;
    }
}
