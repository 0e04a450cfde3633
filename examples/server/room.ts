// The authoritative room: a Colyseus Room that steps the match (sim.ts) at a fixed 30 Hz with the players'
// inputs and sends every client, per confirmed frame, the inputs of all players and its hash. It keeps no
// snapshots (it never rolls back): what it pays per frame is the step and the hash.
import { Room, type Client } from '@colyseus/core';
import { createSim, FPS, PLAYERS, simHash, step, type Sim } from './sim.js';
import { scriptedInput, type FrameMessage, type Welcome } from './netcode.js';

/** Options of a match room (`server.define('match', MatchRoom, options)` or the join options of the first client). */
export interface MatchOptions {
    /** Seed of the start (rock positions and speeds, islands). @default 1 */
    seed?: number;
    /** Frames the match lasts; 0: no end. @default 0 */
    frames?: number;
    /** Players that must have joined before the first frame. @default 1 */
    start?: number;
    /** Seeded bots play the empty slots (for the measurement: rooms without clients). @default false */
    bots?: boolean;
    /** Called with every confirmed frame's number and hash (the test's log of the server). */
    log?: (roomId: string, frame: number, hash: number) => void;
}

/** A client's input: [frame it was meant for, input bits 0..31]. */
export type InputMessage = [number, number];

const INPUT_BITS = 31;

export class MatchRoom extends Room {
    override maxClients = PLAYERS;
    sim!: Sim;
    /** Confirmed frames so far. */
    frame = 0;
    #frames = 0;
    #start = 1;
    #bots = false;
    #log: MatchOptions['log'];
    readonly #slots: (string | null)[] = new Array<string | null>(PLAYERS).fill(null);
    readonly #held = new Int32Array(PLAYERS); // each player's latest input: used until a newer one arrives
    readonly #pending = new Map<number, Int32Array>(); // frame → inputs that arrived for it (-1: none)
    readonly #history: FrameMessage[] = []; // every confirmed frame, for clients that join later
    #seed = 1;
    #started = false;

    override onCreate(options: MatchOptions = {}): void {
        this.#seed = options.seed ?? 1;
        this.#frames = options.frames ?? 0;
        this.#start = options.start ?? 1;
        this.#log = options.log;
        this.#bots = options.bots ?? false;
        if (this.#bots) this.autoDispose = false; // a room of bots runs without clients until the server stops
        this.#started = this.#start === 0;
        this.sim = createSim(this.#seed);
        this.onMessage('input', (client: Client, msg: unknown) => this.#input(client, msg));
        // Colyseus's fixed-timestep loop: a whole number of 1/30 s steps per tick, a few catch-up steps at most.
        this.setFixedTimestep(() => this.tick(), FPS);
    }

    override onJoin(client: Client): void {
        const slot = this.#slots.indexOf(null);
        this.#slots[slot] = client.sessionId;
        const welcome: Welcome = { slot, seed: this.#seed, frames: this.#history };
        client.send('welcome', welcome);
        if (this.#slots.filter(s => s !== null).length >= this.#start) this.#started = true;
    }

    override onLeave(client: Client): void {
        const slot = this.#slots.indexOf(client.sessionId);
        if (slot >= 0) {
            this.#slots[slot] = null;
            this.#held[slot] = 0;
        }
    }

    /** One confirmed frame: each player's input for it (or their latest), the step, the hash, the broadcast. */
    tick(): void {
        if (!this.#started || (this.#frames > 0 && this.frame >= this.#frames)) return;
        const f = this.frame,
            arrived = this.#pending.get(f);
        this.#pending.delete(f);
        const msg: FrameMessage = [f];
        for (let p = 0; p < PLAYERS; p++) {
            if (arrived && arrived[p] >= 0) this.#held[p] = arrived[p];
            else if (this.#bots && this.#slots[p] === null) this.#held[p] = scriptedInput(this.#seed * 31 + p, f);
            msg.push(this.#held[p]);
        }
        step(this.sim, this.#held);
        const hash = simHash(this.sim);
        msg.push(hash);
        this.#history.push(msg);
        this.frame = f + 1;
        this.#log?.(this.roomId, f, hash);
        this.broadcast('frame', msg);
        if (this.frame === this.#frames) this.broadcast('end', this.frame);
    }

    // An input for a frame already confirmed (it came late) counts for the next frame: the client rolls back to it.
    #input(client: Client, msg: unknown): void {
        const slot = this.#slots.indexOf(client.sessionId);
        if (slot < 0 || !Array.isArray(msg) || msg.length !== 2) return;
        const [f, bits] = msg as unknown[];
        if (!Number.isInteger(f) || !Number.isInteger(bits) || (bits as number) < 0 || (bits as number) > INPUT_BITS)
            return;
        const at = Math.max(f as number, this.frame);
        if (at > this.frame + 4 * FPS) return; // more than 4 s ahead: not a frame this client can have simulated
        let inputs = this.#pending.get(at);
        if (!inputs) this.#pending.set(at, (inputs = new Int32Array(PLAYERS).fill(-1)));
        inputs[slot] = bits as number;
    }
}
