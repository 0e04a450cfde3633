// The authoritative room: a Colyseus Room that steps the match (sim.ts) at a fixed 30 Hz with the players'
// inputs and sends every client, per confirmed frame, the inputs of all players and its hash. It keeps no
// snapshots (it never rolls back): what it pays per frame is the step and the hash. What it takes from a client
// is checked (match-options.ts); its rooms per process, its history and its life without clients are bounded.
import { Room, type Client } from '@colyseus/core';
import { createSim, FPS, PLAYERS, simHash, step, type Sim } from './sim.js';
import { scriptedInput, type FrameMessage, type Welcome } from './netcode.js';
import { checkConfig, clientOptions, type CheckedConfig, type MatchConfig } from './match-options.js';

export type { MatchConfig, MatchOptions } from './match-options.js';

/** A client's input: [frame it was meant for, input bits 0..31]. */
export type InputMessage = [number, number];

const INPUT_BITS = 31;
const WIDE = PLAYERS + 2; // a frame in the history: frame, PLAYERS inputs, hash

let live = 0; // match rooms of this process, of every config: what maxRooms caps

/** Match rooms this process runs now. */
export function liveRooms(): number {
    return live;
}

/**
 * The match room with the default config (no bots, no log, MAX_ROOMS, HISTORY): `server.define('match',
 * MatchRoom)`. `matchRoom(config)` makes one with server-side settings. A client's options (`create('match',
 * { seed })`) are checked by clientOptions(): anything else is refused with an error to that client only.
 */
export class MatchRoom extends Room {
    override maxClients = PLAYERS;
    sim!: Sim;
    /** Confirmed frames so far. */
    frame = 0;
    /** The server-side settings of this room's class (matchRoom(config)). */
    protected readonly config: CheckedConfig = checkConfig({});
    #frames = 0;
    #start = 1;
    #seed = 1;
    #started = false;
    #counted = false;
    #failed = false;
    readonly #slots: (string | null)[] = new Array<string | null>(PLAYERS).fill(null);
    readonly #held = new Int32Array(PLAYERS); // each player's latest input: used until a newer one arrives
    readonly #pending = new Map<number, Int32Array>(); // frame → inputs that arrived for it (-1: none)
    // The first config.history confirmed frames, for clients that join later; dropped (and late joins refused)
    // once the match is past them.
    #history = new Uint32Array(0);
    #kept = 0;
    #window = 0; // frames the history may hold: config.history, or the match's length if shorter
    #dropped = false;

    override onCreate(options: unknown): void {
        const chosen = { ...clientOptions(options), ...this.config.options }; // the server's values win
        if (live >= this.config.maxRooms)
            throw new RangeError(`too many match rooms: this server runs at most ${this.config.maxRooms}`);
        this.#seed = chosen.seed ?? 1;
        this.#frames = chosen.frames ?? 0;
        this.#start = chosen.start ?? 1;
        if (this.config.keepEmpty) this.autoDispose = false; // server-side only: the benchmark's bot rooms
        this.#started = this.#start === 0;
        this.#window = Math.min(this.config.history, this.#frames || Infinity);
        this.sim = createSim(this.#seed);
        this.onMessage('input', (client: Client, msg: unknown) => this.#input(client, msg));
        // Colyseus's fixed-timestep loop: a whole number of 1/30 s steps per tick, a few catch-up steps at most.
        // A step that throws disposes this room only: nothing may reach the loop, which serves every room.
        this.setFixedTimestep(() => this.#safeTick(), FPS);
        live++;
        this.#counted = true;
    }

    override onJoin(client: Client): void {
        if (this.#dropped)
            throw new Error(
                `match ${this.roomId} is past frame ${this.config.history}: ` +
                    'its history is dropped, late joiners are refused'
            );
        const slot = this.#slots.indexOf(null);
        this.#slots[slot] = client.sessionId;
        const welcome: Welcome = { slot, seed: this.#seed, frames: this.#frameMessages() };
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

    override onDispose(): void {
        if (this.#counted) live--;
        this.#counted = false;
        this.#history = new Uint32Array(0);
        this.#pending.clear();
    }

    /** Confirmed frames held for late joiners now (at most `config.history`; 0 once dropped). */
    get historyLength(): number {
        return this.#kept;
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
            else if (this.config.bots && this.#slots[p] === null) this.#held[p] = scriptedInput(this.#seed * 31 + p, f);
            msg.push(this.#held[p]);
        }
        step(this.sim, this.#held);
        const hash = simHash(this.sim);
        msg.push(hash);
        this.#keep(msg);
        this.frame = f + 1;
        this.config.log?.(this.roomId, f, hash);
        this.broadcast('frame', msg);
        if (this.frame === this.#frames) this.broadcast('end', this.frame);
    }

    #safeTick(): void {
        if (this.#failed) return;
        try {
            this.tick();
        } catch (e) {
            this.#failed = true;
            console.error(`match room ${this.roomId}: frame ${this.frame} failed, room disposed:`, e);
            this.disconnect().catch((d: unknown) => console.error(`match room ${this.roomId}: dispose failed:`, d));
        }
    }

    #keep(msg: FrameMessage): void {
        if (this.#dropped) return;
        if (this.#kept >= this.#window) {
            // Past the window: a late joiner could not replay from frame 0, so none is taken from now on.
            this.#dropped = true;
            this.#kept = 0;
            this.#history = new Uint32Array(0);
            void this.lock();
            return;
        }
        if (this.#kept * WIDE >= this.#history.length) {
            // Grown by doubling up to the window: a short or early match does not pay for the whole window.
            const grown = new Uint32Array(Math.min(this.#window, Math.max(256, 2 * this.#kept)) * WIDE);
            grown.set(this.#history);
            this.#history = grown;
        }
        this.#history.set(msg, this.#kept++ * WIDE);
    }

    #frameMessages(): FrameMessage[] {
        const out: FrameMessage[] = [];
        for (let i = 0; i < this.#kept; i++) {
            out.push(Array.from(this.#history.subarray(i * WIDE, (i + 1) * WIDE)));
        }
        return out;
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

/** A match room class with server-side settings: `server.define('match', matchRoom({ bots: true }))`. */
export function matchRoom(config: MatchConfig): typeof MatchRoom {
    const checked = checkConfig(config);
    return class extends MatchRoom {
        protected override readonly config = checked;
    };
}
