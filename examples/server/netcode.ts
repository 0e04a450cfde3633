// The client side of the netcode, free of any network or page: predict, then roll back on the server's
// corrections and check its hashes. The browser page (client.ts) feeds it the messages of the room (room.ts).
import { createSim, PLAYERS, simHash, SnapshotRing, step, type Masks, type Sim } from './sim.js';

/** A confirmed frame as the room sends it: [frame, input of player 0, input of player 1, hash]. */
export type FrameMessage = number[];
/** What the room sends a client that joins: its slot, the match seed and every frame confirmed so far. */
export interface Welcome {
    slot: number;
    seed: number;
    frames: FrameMessage[];
}

/** How far a client may run ahead of the last confirmed frame (frames), and the ring that must hold that far. */
export const MAX_LEAD = 24;

/**
 * A client's view of the match: the Sim runs ahead of the server by a few frames on predicted inputs (its own
 * as sent, the others' as last confirmed); a confirmed frame whose inputs differ from the prediction restores
 * the snapshot of that frame and simulates forward again. Every confirmed frame's hash is compared with the server's.
 */
export class Predictor {
    readonly sim: Sim;
    readonly slot: number;
    /** Frames simulated: the Sim is at the start of frame `frame`. */
    frame = 0;
    /** Frames confirmed by the server: [0, confirmed). */
    confirmed = 0;
    rollbacks = 0;
    /** Frames simulated again after a rollback. */
    resimulated = 0;
    compared = 0;
    mismatches = 0;
    /** The first confirmed frame whose hash differed from the server's, or -1. */
    firstMismatch = -1;
    /** This client's hash after each confirmed frame, by frame (what the tests compare with the server's log). */
    readonly hashes: number[] = [];
    readonly #ring: SnapshotRing;
    readonly #used: Int32Array; // inputs each simulated frame used, PLAYERS per ring slot
    readonly #own: Int32Array; // this client's input for each frame, as sent
    readonly #after: Uint32Array; // hash after each simulated frame
    readonly #last = new Int32Array(PLAYERS); // the latest confirmed inputs: the guess for the others
    readonly #confirmedInputs = new Int32Array(PLAYERS);
    readonly #guessed = new Int32Array(PLAYERS);

    constructor(seed: number, slot: number, masks?: Masks) {
        this.sim = createSim(seed, masks);
        this.slot = slot;
        const size = MAX_LEAD + 8;
        this.#ring = new SnapshotRing(size);
        this.#used = new Int32Array(size * PLAYERS);
        this.#own = new Int32Array(size);
        this.#after = new Uint32Array(size);
    }

    /** Simulates the next frame with `input` as this client's; returns that frame's number (to send with the input). */
    predict(input: number): number {
        if (this.frame - this.confirmed >= MAX_LEAD)
            throw new RangeError(
                `cannot predict frame ${this.frame}: only ${MAX_LEAD} frames past the last confirmed one (${this.confirmed}) are kept`
            );
        const f = this.frame;
        this.#own[f % this.#ring.size] = input;
        this.#simulate(f, this.#guess(f));
        return f;
    }

    /** Applies the server's confirmed frame (in order, each once): rolls back where the prediction differed, then compares hashes. */
    confirm(msg: FrameMessage): void {
        const f = msg[0],
            hash = msg[1 + PLAYERS] >>> 0;
        if (f !== this.confirmed)
            throw new Error(`confirmed frame ${f} out of order: expected frame ${this.confirmed}`);
        const inputs = this.#confirmedInputs;
        for (let p = 0; p < PLAYERS; p++) inputs[p] = msg[1 + p];
        this.#last.set(inputs);
        const k = f % this.#ring.size;
        if (f >= this.frame)
            this.#simulate(f, inputs); // not predicted yet: this is the first run
        else if (!this.#same(k)) {
            const end = this.frame;
            if (!this.#ring.restore(this.sim, f)) throw new Error(`frame ${f} has left the snapshot ring`);
            this.rollbacks++;
            this.#simulate(f, inputs);
            for (let g = f + 1; g < end; g++, this.resimulated++) this.#simulate(g, this.#guess(g));
        }
        this.confirmed = f + 1;
        const mine = this.#after[k];
        this.hashes[f] = mine;
        this.compared++;
        if (mine !== hash) {
            this.mismatches++;
            if (this.firstMismatch < 0) this.firstMismatch = f;
        }
    }

    #guess(f: number): Int32Array {
        this.#guessed.set(this.#last);
        this.#guessed[this.slot] = this.#own[f % this.#ring.size];
        return this.#guessed;
    }

    #same(k: number): boolean {
        for (let p = 0; p < PLAYERS; p++) if (this.#used[k * PLAYERS + p] !== this.#confirmedInputs[p]) return false;
        return true;
    }

    // Saves the start of frame f, steps it with `inputs` and records what it used and the hash after it.
    #simulate(f: number, inputs: Int32Array): void {
        const k = f % this.#ring.size;
        this.#ring.save(this.sim, f);
        for (let p = 0; p < PLAYERS; p++) this.#used[k * PLAYERS + p] = inputs[p];
        step(this.sim, inputs);
        this.#after[k] = simHash(this.sim);
        this.frame = f + 1;
    }
}

/** A scripted player (tests, bots): input bits for `frame`, held for 6 frames, the same for the same seed everywhere. */
export function scriptedInput(seed: number, frame: number): number {
    let h = Math.imul((seed ^ Math.floor(frame / 6)) >>> 0, 0x9e3779b1);
    h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
    h ^= h >>> 13;
    return (h >>> 0) % 32;
}
