// Colyseus cluster load test: bots play match rooms on 1 process (no Redis), then on 2 processes sharing a Redis.
// Each run starts the processes on 127.0.0.1 (examples/server/cluster.ts), makes R rooms through the processes in
// turn with Colyseus placing them, and has B bots (`@colyseus/sdk` clients in this process, examples/server/bot.ts)
// play them: each bot sends seeded scripted inputs and re-simulates every confirmed frame to check its hash (the
// other slot of a room is a server bot). After a warm-up it measures S seconds, then stops everything by itself.
// Per process: rooms held, frames stepped of those due, CPU per room-frame, tick lateness p50/p99; then Redis's CPU
// (/proc/PID/stat of redis-server), the bots' CPU and the total of hash mismatches; last, the ratio of CPU per
// room-frame with 2 processes (each) to 1 process holding the same number of rooms: what presence and driver cost.
//
// Usage: npm run bench -- cluster [--rooms N (per process, default 100)] [--seconds S (10)] [--seed N (1)]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { banner, table } from './harness.js';
import { redisMissing, startCluster, type WorkerStats } from '../examples/server/cluster.js';
import { Bot } from '../examples/server/bot.js';

function arg(name: string, fallback: number): number {
    const i = process.argv.indexOf(name);
    const v = i > 0 ? Number(process.argv[i + 1]) : fallback;
    if (!Number.isInteger(v) || v < 1)
        throw new RangeError(`${name}: expected an integer ≥ 1, got ${process.argv[i + 1]}`);
    return v;
}

const ROOMS = arg('--rooms', 100),
    SECONDS = arg('--seconds', 10),
    SEED = arg('--seed', 1),
    WARM_S = 3,
    AT_ONCE = 4; // rooms made at the same time
const TICK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** CPU time of a process from /proc/PID/stat (utime + stime), ms. */
function procCpuMs(pid: number): number {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICK; // fields 14 and 15 of the whole line
}

interface Run {
    processes: number;
    stats: WorkerStats[];
    redisPct: number | null;
    botsPct: number;
    mismatches: number;
    gaps: number;
    compared: number;
    dropped: number;
    /** Creates refused (then asked again), with Colyseus's message. */
    refused: string[];
}

async function run(processes: number): Promise<Run> {
    const cluster = await startCluster({
        processes,
        redis: processes > 1,
        restart: false,
        match: { bots: true, maxRooms: ROOMS * processes + 10 }
    });
    const bots: Bot[] = [],
        refused: string[] = [];
    try {
        // A loaded machine may refuse a join (Colyseus's 2 s IPC timeout between processes): asked again up to 5
        // times, counted.
        const place = async (r: number): Promise<void> => {
            for (let tries = 1; ; tries++) {
                const bot = new Bot(() => cluster.endpoints(), r + tries - 1, SEED * 7919 + r, 'replay');
                try {
                    await bot.create({ seed: SEED + r, start: 1 });
                    bots.push(bot);
                    return;
                } catch (e) {
                    refused.push((e as Error).message);
                    if (tries === 5) return; // not made: the rooms held say so
                }
            }
        };
        for (let r = 0; r < ROOMS * processes; r += AT_ONCE)
            await Promise.all(Array.from({ length: Math.min(AT_ONCE, ROOMS * processes - r) }, (_, k) => place(r + k)));
        await new Promise(done => setTimeout(done, WARM_S * 1000));
        await Promise.all(cluster.workers.map(w => w.stats(true)));
        const redis0 = cluster.redis ? procCpuMs(cluster.redis.pid) : 0,
            bots0 = process.cpuUsage(),
            t0 = performance.now();
        await new Promise(done => setTimeout(done, SECONDS * 1000));
        const stats = await Promise.all(cluster.workers.map(w => w.stats()));
        const wall = performance.now() - t0,
            used = process.cpuUsage(bots0);
        return {
            processes,
            stats,
            redisPct: cluster.redis ? (100 * (procCpuMs(cluster.redis.pid) - redis0)) / wall : null,
            botsPct: (100 * (used.user + used.system)) / 1000 / wall,
            mismatches: bots.reduce((n, b) => n + b.mismatches, 0),
            gaps: bots.reduce((n, b) => n + b.gaps + b.errors.length, 0),
            compared: bots.reduce((n, b) => n + b.compared, 0),
            dropped: bots.reduce((n, b) => n + b.closes.length, 0),
            refused
        };
    } finally {
        for (const b of bots) await b.leave();
        await cluster.close();
    }
}

const perFrame = (s: WorkerStats): number => s.cpuMs / Math.max(1, s.frames);

function report(r: Run): void {
    console.log(
        `${r.processes} process${r.processes > 1 ? 'es on one Redis' : ", Colyseus's local presence and driver"}: ` +
            `${ROOMS * r.processes} rooms, ${ROOMS * r.processes} bots, ${SECONDS} s measured after ${WARM_S} s`
    );
    table(
        [
            'process',
            'rooms held',
            'frames stepped of due',
            'CPU (% of a core)',
            'CPU per room-frame',
            'lateness p50',
            'p99'
        ],
        r.stats.map((s, i) => [
            i,
            s.rooms,
            `${s.frames} of ${s.due} (${((100 * s.frames) / Math.max(1, s.due)).toFixed(1)} %)`,
            `${((100 * s.cpuMs) / s.wallMs).toFixed(1)} %`,
            `${perFrame(s).toFixed(3)} ms`,
            `${s.lateP50.toFixed(1)} ms`,
            `${s.lateP99.toFixed(1)} ms`
        ])
    );
    const total = r.stats.reduce((n, s) => n + (100 * s.cpuMs) / s.wallMs, 0);
    const redis =
        r.redisPct === null
            ? ''
            : `redis-server: ${r.redisPct.toFixed(1)} % of a core ` +
              `(${((100 * r.redisPct) / total).toFixed(1)} % of the processes' ${total.toFixed(1)} %); `;
    console.log(
        `${redis}bots (this process): ${r.botsPct.toFixed(1)} % of a core; hash mismatches: ${r.mismatches} of ` +
            `${r.compared} confirmed frames checked; frames missed or errors: ${r.gaps}; ` +
            `connections the server side closed (the bot joined again): ${r.dropped}; ` +
            `creates refused and asked again: ${r.refused.length}${r.refused.length ? ` (${r.refused[0]})` : ''}\n`
    );
}

banner(`Colyseus cluster: ${ROOMS} match rooms per process, 1 process, then 2 on one Redis (seed ${SEED})`);
const missing = redisMissing();
if (missing) {
    console.error(missing);
    process.exit(1);
}
const one = await run(1);
report(one);
const two = await run(2);
report(two);
const base = perFrame(one.stats[0]);
console.log(
    `CPU per room-frame, 2 processes / 1 process: ${two.stats.map(s => (perFrame(s) / base).toFixed(2)).join(', ')} ` +
        `(${two.stats.map(s => perFrame(s).toFixed(3)).join(', ')} ms / ${base.toFixed(3)} ms)`
);
const mismatches = one.mismatches + two.mismatches;
console.log(`total hash mismatches: ${mismatches}`);
if (mismatches > 0 || one.gaps + two.gaps > 0) process.exitCode = 1;
