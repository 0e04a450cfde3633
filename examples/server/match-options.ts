// What a match room may be told, and by whom. Colyseus merges a client's create/join options into the options
// `onCreate` receives, so anything in them may come from a client: the room reads only the few it validates here
// (seed, frames, start) and refuses any other key. What only the server may decide (bots, the log callback, the
// caps) is a MatchConfig, given in code to matchRoom() and never read from those options.
import { PLAYERS } from './sim.js';

/** Options a client may pass to `create`/`joinOrCreate` (all validated; any other key is refused). */
export interface MatchOptions {
    /** Seed of the start (rock positions and speeds, islands): an integer in [0, 2³¹ − 1]. @default 1 */
    seed?: number;
    /** Frames the match lasts, an integer in [0, MAX_FRAMES]; 0: no end. @default 0 */
    frames?: number;
    /** Players that must have joined before the first frame: an integer in [0, PLAYERS]. @default 1 */
    start?: number;
}

/** Server-side settings of a match room, given in code (`matchRoom(config)`), never taken from a client. */
export interface MatchConfig extends MatchOptions {
    /** Seeded bots play the empty slots. @default false */
    bots?: boolean;
    /**
     * Rooms without clients keep stepping (the benchmark's bot rooms); otherwise an empty room is disposed.
     * @default false
     */
    keepEmpty?: boolean;
    /** Match rooms this process runs at most; a create past it is refused. @default MAX_ROOMS */
    maxRooms?: number;
    /**
     * Confirmed frames kept for late joiners; past it the history is dropped and late joins are refused.
     * @default HISTORY
     */
    history?: number;
    /** Called with every confirmed frame's number and hash (the test's log of the server). */
    log?: (roomId: string, frame: number, hash: number) => void;
}

/** Default cap on match rooms per process: below the ~400 rooms one core steps at 30 Hz (docs/server.md). */
export const MAX_ROOMS = 300;
/** Default history kept for late joiners: 5 minutes at 30 Hz (16 bytes a frame, grown as frames come). */
export const HISTORY = 9000;
/** Longest match a client may ask for: 10 hours at 30 Hz. */
export const MAX_FRAMES = 30 * 3600 * 10;

const CLIENT_KEYS: readonly (keyof MatchOptions)[] = ['seed', 'frames', 'start'];

function integer(name: string, value: unknown, min: number, max: number): number {
    if (typeof value !== 'number') throw new TypeError(`option ${name}: expected a number, got ${typeof value}`);
    if (!Number.isInteger(value) || value < min || value > max)
        throw new RangeError(`option ${name}: expected an integer in [${min}, ${max}], got ${value}`);
    return value;
}

/**
 * A client's options checked: only seed, frames and start, each an integer in range. Throws (TypeError,
 * RangeError) naming the first bad one: Colyseus sends that message to the client that asked, and no room is made.
 */
export function clientOptions(options: unknown): MatchOptions {
    if (options === undefined || options === null) return {};
    if (typeof options !== 'object' || Array.isArray(options))
        throw new TypeError(
            `match options: expected an object, got ${Array.isArray(options) ? 'an array' : typeof options}`
        );
    const out: MatchOptions = {};
    for (const key of Object.keys(options)) {
        if (!(CLIENT_KEYS as readonly string[]).includes(key))
            throw new TypeError(
                `unknown match option "${key.slice(0, 40)}": a client may pass ${CLIENT_KEYS.join(', ')}`
            );
        const value = (options as Record<string, unknown>)[key];
        if (value === undefined) continue;
        if (key === 'seed') out.seed = integer(key, value, 0, 2 ** 31 - 1);
        else if (key === 'frames') out.frames = integer(key, value, 0, MAX_FRAMES);
        else out.start = integer(key, value, 0, PLAYERS);
    }
    return out;
}

/** A server's config, checked: `options` holds the client options the server fixed (they win over a client's). */
export interface CheckedConfig {
    options: MatchOptions;
    bots: boolean;
    keepEmpty: boolean;
    maxRooms: number;
    history: number;
    log: MatchConfig['log'];
}

/** A server's config checked once, when the room class is made (a mistake in code fails at define time). */
export function checkConfig(config: MatchConfig): CheckedConfig {
    const { bots, keepEmpty, maxRooms, history, log, ...options } = config;
    if (log !== undefined && typeof log !== 'function')
        throw new TypeError(`config log: expected a function, got ${typeof log}`);
    for (const [name, value] of [
        ['bots', bots],
        ['keepEmpty', keepEmpty]
    ] as const)
        if (value !== undefined && typeof value !== 'boolean')
            throw new TypeError(`config ${name}: expected a boolean, got ${typeof value}`);
    return {
        options: clientOptions(options),
        bots: bots ?? false,
        keepEmpty: keepEmpty ?? false,
        maxRooms: integer('maxRooms', maxRooms ?? MAX_ROOMS, 1, 100_000),
        history: integer('history', history ?? HISTORY, 1, 30 * 3600),
        log
    };
}
