// A scripted player in Node (the cluster's test and benchmark): joins a match room with `@colyseus/sdk` through
// one of the cluster's addresses, sends scripted inputs two frames ahead, and checks the hash of every confirmed
// frame, either with a Predictor (the page's own netcode: predict, roll back, compare) or, cheaper, by stepping a
// replica with the confirmed inputs and comparing. When its room's connection drops (its process died), it joins
// again through the next address that answers, as a client behind a load balancer would.
import { Client, type Room } from '@colyseus/sdk';
import { createSim, PLAYERS, simHash, step, type Sim } from './sim.js';
import { Predictor, scriptedInput, type FrameMessage, type Welcome } from './netcode.js';
import type { MatchOptions } from './match-options.js';

/** How a bot checks the server's hashes. */
export type Check = 'predictor' | 'replay';

/** Close codes of a consented leave (ours, or the room's end): no rejoin. */
const CONSENTED = new Set([1000, 4000]);
const LEAD = 2;

export class Bot {
    /** The room joined now, and the ids of every room joined, in order. */
    room: Room | null = null;
    readonly rooms: string[] = [];
    /** Confirmed frames checked, of all rooms, and those whose hash differed from the server's. */
    compared = 0;
    mismatches = 0;
    /** Confirmed frames that did not follow the previous one (a frame missed), and errors thrown by a handler. */
    gaps = 0;
    readonly errors: string[] = [];
    /** Close codes of the connections the server side ended (e.g. 1006 when the room's process died). */
    readonly closes: number[] = [];
    /** Milliseconds from each such close to the welcome of the room joined again. */
    readonly rejoinMs: number[] = [];
    /** Frames confirmed in the current room (the next frame expected). */
    frame = 0;
    #endpoint: number;
    #predictor: Predictor | null = null;
    #replica: Sim | null = null;
    #closedAt = 0;
    #stopped = false;

    constructor(
        readonly endpoints: () => string[],
        endpoint: number,
        readonly input: number, // the seed of this bot's scripted inputs
        readonly check: Check = 'replay'
    ) {
        this.#endpoint = endpoint;
    }

    /** Creates a room through this bot's address and joins it; resolves with its id. */
    async create(options: MatchOptions): Promise<string> {
        return this.#use(await this.#client().create('match', options));
    }

    /** Joins the room `roomId` through this bot's address. */
    async join(roomId: string): Promise<string> {
        return this.#use(await this.#client().joinById(roomId));
    }

    /** Joins or creates a room through this bot's address (Colyseus's matchmaking picks which). */
    async joinOrCreate(options: MatchOptions): Promise<string> {
        return this.#use(await this.#client().joinOrCreate('match', options));
    }

    /** Leaves for good (no rejoin). */
    async leave(): Promise<void> {
        this.#stopped = true;
        if (this.room?.connection.isOpen) await this.room.leave();
    }

    #client(): Client {
        const list = this.endpoints();
        return new Client(list[this.#endpoint % list.length]);
    }

    #use(room: Room): string {
        room.reconnection.enabled = false; // the room keeps no seat for a dropped client: the close code comes at once
        this.room = room;
        this.rooms.push(room.roomId);
        this.frame = 0;
        this.#predictor = this.#replica = null;
        room.onMessage('welcome', (w: Welcome) => this.#guard(() => this.#welcome(w)));
        room.onMessage('frame', (msg: FrameMessage) => this.#guard(() => this.#frame(msg)));
        room.onMessage('*', () => {}); // 'end' and anything else
        room.onLeave(code => {
            if (this.#stopped || CONSENTED.has(code)) return;
            this.closes.push(code);
            this.#closedAt = performance.now();
            void this.#rejoin();
        });
        return room.roomId;
    }

    // Through the next address that answers, then the ones after it: the dead process's address refuses.
    async #rejoin(): Promise<void> {
        const n = this.endpoints().length;
        for (let tries = 0; !this.#stopped; tries++) {
            this.#endpoint++;
            try {
                // start: 1, it plays at once (a server bot, where the room has them, takes the other slot)
                await this.joinOrCreate({ start: 1 });
                return;
            } catch (e) {
                if (tries > 10 * n) {
                    this.errors.push(`rejoin failed: ${(e as Error).message}`);
                    return;
                }
                await new Promise(done => setTimeout(done, 50));
            }
        }
    }

    #guard(f: () => void): void {
        try {
            f();
        } catch (e) {
            this.errors.push((e as Error).message);
        }
    }

    #welcome(w: Welcome): void {
        if (this.#closedAt > 0) {
            this.rejoinMs.push(performance.now() - this.#closedAt);
            this.#closedAt = 0;
        }
        if (this.check === 'predictor') this.#predictor = new Predictor(w.seed, w.slot);
        else this.#replica = createSim(w.seed);
        for (const msg of w.frames) this.#confirm(msg);
        this.#send();
    }

    #frame(msg: FrameMessage): void {
        if (!this.#predictor && !this.#replica) return; // before the welcome: it holds this frame too
        if (msg[0] < this.frame) return; // in the welcome already
        this.#confirm(msg);
        this.#send();
    }

    #confirm(msg: FrameMessage): void {
        if (msg[0] !== this.frame) {
            this.gaps++;
            throw new Error(`room ${this.room?.roomId}: frame ${msg[0]} after frame ${this.frame - 1}`);
        }
        if (this.#predictor) {
            const before = this.#predictor.mismatches;
            this.#predictor.confirm(msg);
            this.mismatches += this.#predictor.mismatches - before;
        } else if (this.#replica) {
            step(this.#replica, msg.slice(1, 1 + PLAYERS));
            if (simHash(this.#replica) >>> 0 !== msg[1 + PLAYERS] >>> 0) this.mismatches++;
        }
        this.compared++;
        this.frame = msg[0] + 1;
    }

    // Inputs up to LEAD frames past the last confirmed one, each sent once.
    #send(): void {
        const room = this.room;
        if (!room?.connection.isOpen) return;
        if (this.#predictor) {
            const net = this.#predictor;
            while (net.frame < net.confirmed + LEAD) {
                const bits = scriptedInput(this.input, net.frame);
                room.send('input', [net.predict(bits), bits]);
            }
        } else {
            const f = this.frame + LEAD - 1;
            room.send('input', [f, scriptedInput(this.input, f)]);
        }
    }
}
