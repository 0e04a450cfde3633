// One Colyseus process of the cluster (cluster.ts forks it with an IPC channel): the match room on 127.0.0.1 with
// RedisPresence and RedisDriver on the cluster's Redis, and its own port as its `publicAddress`, so that a seat
// reserved through any process sends the client's WebSocket here when the room is here. Colyseus places rooms and
// reserves seats; this file only starts the server and reports what the benchmark and the test read:
//
//   environment  HITMASK_REDIS  the Redis port (absent: Colyseus's local presence and driver, one process alone)
//                HITMASK_MATCH  the server-side MatchConfig as JSON (bots, keepEmpty, start, frames, maxRooms)
//                PORT           this process's port (0 or absent: a free one)
//                HITMASK_REPLACES  the processId of a process that died, started again as this one
//   messages     → { type: 'ready', port, pid, processId } once it listens
//                ← { type: 'stats', reset? } → { type: 'stats', ...WorkerStats } (reset: counters start again)
//
// It stops (Colyseus's graceful shutdown, at most 3 s) on SIGINT, SIGTERM, or when its parent goes away (the IPC
// channel closes), so a killed parent leaves no process behind.
import { createServer } from 'node:net';
import { matchMaker, Server, type MatchMakerDriver, type Presence } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { FPS } from './sim.js';
import { liveRooms, matchRoom, type MatchConfig } from './room.js';

/** What a worker reports: its rooms, and since the last reset its frames, CPU and the steps' lateness. */
export interface WorkerStats {
    pid: number;
    processId: string;
    /** Match rooms this process runs now, and their ids. */
    rooms: number;
    roomIds: string[];
    /** Room-frames stepped since the reset, and the room-frames due in that time (30 a second per room). */
    frames: number;
    due: number;
    /** CPU time of the process since the reset (user + system), ms, and the wall time, ms. */
    cpuMs: number;
    wallMs: number;
    /** How late each step ran after its due time (ms): median and 99th percentile since the reset. */
    lateP50: number;
    lateP99: number;
}

const FRAME_MS = 1000 / FPS;
const BUCKET_MS = 0.25, // lateness histogram: 0.25 ms buckets up to 1 s, the last one holds the rest
    BUCKETS = 4000;

// Per room: its schedule (frame f is due at anchor + f × 33.3 ms) and when it last stepped. A step that runs
// before its due time moves the anchor earlier (the first step may have run late); one more than 5 frames late
// moves it to now, as Colyseus's clock then drops the backlog (at most 5 catch-up steps a tick).
const clocks = new Map<string, { anchor: number; first: number; last: number }>();
const late = new Uint32Array(BUCKETS);
let frames = 0,
    due = 0, // room-frames due between the reset and the last stats call, summed per room
    since = performance.now(),
    cpu = process.cpuUsage();

function stepped(roomId: string, frame: number): void {
    const now = performance.now();
    let c = clocks.get(roomId);
    if (!c) clocks.set(roomId, (c = { anchor: now - frame * FRAME_MS, first: now, last: now }));
    c.last = now;
    let ms = now - (c.anchor + frame * FRAME_MS);
    if (ms < 0) {
        c.anchor = now - frame * FRAME_MS;
        ms = 0;
    }
    late[Math.min(BUCKETS - 1, Math.floor(ms / BUCKET_MS))]++;
    if (ms > 5 * FRAME_MS) c.anchor = now - frame * FRAME_MS;
    frames++;
}

function percentile(q: number): number {
    let total = 0;
    for (const n of late) total += n;
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) if ((seen += late[i]) >= q * total && total > 0) return (i + 0.5) * BUCKET_MS;
    return 0;
}

function stats(reset: boolean): WorkerStats {
    const now = performance.now(),
        used = process.cpuUsage(cpu);
    // Frames due: per room, from the later of the reset and its first step, to now. Rooms quiet for 5 s are gone.
    for (const [id, c] of clocks) {
        if (now - c.last > 5000) clocks.delete(id);
        else due += (now - Math.max(since, c.first)) / FRAME_MS;
    }
    const out: WorkerStats = {
        pid: process.pid,
        processId: matchMaker.processId,
        rooms: liveRooms(),
        roomIds: [...ids],
        frames,
        due: Math.round(due),
        cpuMs: (used.user + used.system) / 1000,
        wallMs: now - since,
        lateP50: percentile(0.5),
        lateP99: percentile(0.99)
    };
    if (reset) {
        late.fill(0);
        frames = 0;
        cpu = process.cpuUsage();
    }
    due = 0;
    since = now;
    return out;
}

function freePort(): Promise<number> {
    return new Promise((done, fail) => {
        const s = createServer();
        s.once('error', fail);
        s.listen(0, '127.0.0.1', () => {
            const a = s.address();
            s.close(() => (a && typeof a === 'object' ? done(a.port) : fail(new Error('no port'))));
        });
    });
}

// Handlers first: a parent that dies while this process starts must stop it too.
let server: Server | null = null;
let stopping = false;
function stop(): void {
    if (stopping) return;
    stopping = true;
    // Redis may be gone too (its parent died with ours): do not wait for it, and let a call it fails end quietly.
    for (const event of ['unhandledRejection', 'uncaughtException'] as const) process.on(event, () => process.exit(0));
    const give = setTimeout(() => process.exit(0), 3000);
    give.unref();
    if (!server) process.exit(0); // stopped while starting
    server.gracefullyShutdown(false).then(
        () => process.exit(0),
        () => process.exit(0)
    );
}
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
process.once('disconnect', stop); // the parent is gone
if (process.send && !process.connected) stop(); // it went while this module loaded

const redisPort = process.env.HITMASK_REDIS ? Number(process.env.HITMASK_REDIS) : null;
const config = JSON.parse(process.env.HITMASK_MATCH ?? '{}') as MatchConfig;
const port = Number(process.env.PORT ?? 0) || (await freePort());
const redis = { host: '127.0.0.1', port: redisPort ?? 0 };
server = new Server({
    transport: new WebSocketTransport(),
    ...(redisPort === null
        ? {}
        : {
              presence: new RedisPresence(redis) as Presence,
              driver: new RedisDriver(redis) as MatchMakerDriver
          }),
    publicAddress: `127.0.0.1:${port}`,
    greet: false,
    gracefullyShutdown: false
});
const ids = new Set<string>(); // the match rooms of this process
class ClusterRoom extends matchRoom({ ...config, log: stepped }) {
    override onCreate(options: unknown): void {
        super.onCreate(options); // throws past maxRooms: then no room
        ids.add(this.roomId);
    }
    override onDispose(): void {
        ids.delete(this.roomId);
        super.onDispose();
    }
}
server.define('match', ClusterRoom);

process.on('message', (m: { type?: string; reset?: boolean }) => {
    if (m.type === 'stats') process.send?.({ type: 'stats', ...stats(m.reset === true) });
});

await server.listen(port, '127.0.0.1');
// Started in place of a process that died: Colyseus's own health check of that process (an IPC request that
// times out after COLYSEUS_PRESENCE_SHORT_TIMEOUT, 2 s) drops it from room placement and removes its rooms'
// listings from the driver. Colyseus runs it at start only for processes still counted for placement, and a
// create that timed out on the dead process has already uncounted it, leaving its listings behind.
const replaces = process.env.HITMASK_REPLACES;
if (replaces) await matchMaker.healthCheckProcessId(replaces);
process.send?.({ type: 'ready', port, pid: process.pid, processId: matchMaker.processId });
