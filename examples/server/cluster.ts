// `npm run example -- cluster [--processes N]` (examples/run-example.ts calls runCluster): the match room on
// several Colyseus processes sharing one Redis, as Colyseus's scalability guide sets it up. It starts Debian's
// `redis-server` on 127.0.0.1 and a free port (no saving, its folder a temporary one), then N processes
// (cluster-worker.ts; default: one per core), each with RedisPresence and RedisDriver on that Redis, on its own
// port with that port as its `publicAddress`, and the page server. Colyseus places each new room on the process
// with the fewest rooms and reserves seats across processes; a client may ask any process and then opens its
// WebSocket to the one that holds its room.
//
// Redis and the processes run in process groups of their own: Ctrl+C reaches only this parent, which stops the
// processes first (their rooms leave Redis) and Redis last. If this parent dies, the processes see their IPC
// channel close and stop, and Redis is stopped by the shell that started it, when its stdin (a pipe from here)
// closes. A process that dies is started again on its port (as a process manager would) unless `restart` is
// false; the new one runs Colyseus's health check of the dead one, which takes its rooms' listings out of Redis.
import { spawn, spawnSync, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server as HttpServer } from 'node:http';
import { EXAMPLES, serve } from '../serve.js';
import { bundleClient } from './serve.js';
import type { MatchConfig } from './room.js';
import type { WorkerStats } from './cluster-worker.js';

export type { WorkerStats } from './cluster-worker.js';

const WORKER = fileURLToPath(new URL('./cluster-worker.ts', import.meta.url));

/** Why the cluster cannot start here (no `redis-server` on the PATH), or null when it can. */
export function redisMissing(): string | null {
    const r = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
    if (!r.error) return null;
    return (
        'the cluster needs Redis: no redis-server on the PATH (' +
        `${(r.error as NodeJS.ErrnoException).code ?? r.error.message}); ` +
        "install Debian's package redis-server: apt install redis-server"
    );
}

/** A redis-server of the cluster's own: its port and process id; `restart()` stops it and starts a fresh one. */
export interface RedisServer {
    port: number;
    pid: number;
    /** Stops this Redis (its data is lost: nothing is saved) and starts an empty one on the same port. */
    restart(): Promise<void>;
    stop(): Promise<void>;
}

/** Starts `redis-server` on 127.0.0.1 and a free port, its folder a temporary one, nothing saved. */
export async function startRedis(port?: number): Promise<RedisServer> {
    const missing = redisMissing();
    if (missing) throw new Error(missing);
    const at = port ?? (await freePort());
    let shell: ChildProcess, pid: number;
    const launch = async (): Promise<void> => {
        // The shell starts Redis, prints its pid and waits on stdin: when stdin closes (stop(), or this process
        // died), it stops Redis and removes its folder.
        const dir = mkdtempSync(join(os.tmpdir(), 'hitmask-redis-'));
        shell = spawn(
            'sh',
            [
                '-c',
                'redis-server "$@" & r=$!; echo $r; read -r _; kill $r 2>/dev/null; wait $r; rm -rf "$0"',
                dir,
                ...['--port', String(at), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
                ...['--dir', dir, '--logfile', join(dir, 'redis.log'), '--daemonize', 'no']
            ],
            { stdio: ['pipe', 'pipe', 'inherit'], detached: true }
        );
        pid = await new Promise<number>((done, fail) => {
            shell.once('error', fail);
            shell.stdout!.once('data', (b: Buffer) => done(Number(b.toString().trim())));
        });
        await ping(at);
    };
    const stop = async (): Promise<void> => {
        if (shell.exitCode !== null || shell.signalCode !== null) return;
        const gone = new Promise(done => shell.once('exit', done));
        shell.stdin!.end();
        await gone;
    };
    await launch();
    return {
        port: at,
        get pid() {
            return pid;
        },
        restart: async () => {
            await stop();
            await launch();
        },
        stop
    };
}

// Waits until Redis answers PING on 127.0.0.1:port (10 s at most).
async function ping(port: number): Promise<void> {
    const give = performance.now() + 10_000;
    for (;;) {
        const ok = await new Promise<boolean>(done => {
            const s = connect(port, '127.0.0.1');
            s.once('error', () => done(false));
            s.once('connect', () => s.write('PING\r\n'));
            s.once('data', b => {
                s.destroy();
                done(b.toString().startsWith('+PONG'));
            });
        });
        if (ok) return;
        if (performance.now() > give) throw new Error(`redis-server on 127.0.0.1:${port} did not answer PING in 10 s`);
        await new Promise(done => setTimeout(done, 50));
    }
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
    return new Promise((done, fail) => {
        const s = createServer();
        s.once('error', fail);
        s.listen(0, '127.0.0.1', () => {
            const a = s.address();
            s.close(() => (a && typeof a === 'object' ? done(a.port) : fail(new Error(`no port: ${String(a)}`))));
        });
    });
}

/** One Colyseus process of the cluster. */
export interface Worker {
    /** Its place in the cluster, 0 to N − 1 (kept when it is started again). */
    index: number;
    port: number;
    pid: number;
    /** Colyseus's id of the process (matchMaker.processId): a new one each start. */
    processId: string;
    child: ChildProcess;
    /** Its rooms, frames, CPU and lateness since the last reset (cluster-worker.ts); `reset` starts them again. */
    stats(reset?: boolean): Promise<WorkerStats>;
}

/** What startCluster() starts. */
export interface ClusterOptions {
    /** Colyseus processes. @default os.availableParallelism() */
    processes?: number;
    /** The match rooms' server-side settings (no `log`: it would run in another process). */
    match?: Omit<MatchConfig, 'log'>;
    /** false: the processes use Colyseus's local presence and driver, no Redis (one process only). @default true */
    redis?: boolean;
    /** Start a process that dies again, on the same port. @default true */
    restart?: boolean;
    /** Called when a process exits unasked (code or signal), before it is started again. */
    onExit?: (worker: Worker, how: string) => void;
}

/** A running cluster: Redis, the processes, and `close()`, which stops them all. */
export interface Cluster {
    redis: RedisServer | null;
    workers: Worker[];
    /** Each process's HTTP address, where a client may ask for a room. */
    endpoints(): string[];
    /** Resolves when the process at `index` is running again after an exit (restart: true). */
    restarted(index: number): Promise<Worker>;
    close(): Promise<void>;
}

/** Starts Redis (unless `redis: false`) and the Colyseus processes on 127.0.0.1. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
    const n = options.processes ?? os.availableParallelism();
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`processes: expected an integer ≥ 1, got ${n}`);
    if (options.redis === false && n > 1)
        throw new RangeError(`processes: without Redis expected 1 process, got ${n} (they would not share rooms)`);
    const redis = options.redis === false ? null : await startRedis();
    const workers: Worker[] = [];
    const waiting = new Map<number, (w: Worker) => void>();
    let closing = false;
    const launch = (index: number, port: number, replaces?: string): Promise<Worker> => {
        const child = fork(WORKER, [], {
            execArgv: ['--import', 'tsx'],
            env: {
                ...process.env,
                PORT: String(port),
                HITMASK_MATCH: JSON.stringify(options.match ?? {}),
                ...(replaces ? { HITMASK_REPLACES: replaces } : {}),
                ...(redis ? { HITMASK_REDIS: String(redis.port) } : {})
            },
            detached: true,
            stdio: ['ignore', 'inherit', 'inherit', 'ipc']
        });
        const asked: { answer: (s: WorkerStats) => void; fail: (e: Error) => void }[] = [];
        child.on('message', (m: { type?: string } & WorkerStats) => {
            if (m.type === 'stats') asked.shift()?.answer(m);
        });
        child.on('exit', () => {
            for (const a of asked.splice(0)) a.fail(new Error(`process ${index} exited before it answered`));
        });
        return new Promise<Worker>((done, fail) => {
            child.once('error', fail);
            child.once('exit', (code, signal) =>
                fail(new Error(`process ${index} exited (${code ?? signal}) at start`))
            );
            child.once('message', (m: { type: string; port: number; pid: number; processId: string }) => {
                if (m.type !== 'ready') return;
                child.removeAllListeners('exit');
                const w: Worker = {
                    index,
                    port: m.port,
                    pid: m.pid,
                    processId: m.processId,
                    child,
                    stats: (reset = false) =>
                        new Promise((answer, fail) => {
                            asked.push({ answer, fail });
                            child.send({ type: 'stats', reset });
                        })
                };
                if (closing) child.kill('SIGTERM'); // started again while the cluster was closing
                child.once('exit', (code, signal) => {
                    if (closing) return;
                    options.onExit?.(w, signal ?? `code ${code}`);
                    if (options.restart === false) return;
                    launch(index, w.port, w.processId).then(
                        again => {
                            workers[index] = again;
                            waiting.get(index)?.(again);
                            waiting.delete(index);
                        },
                        (e: unknown) => console.error(`process ${index} could not be started again:`, e)
                    );
                });
                done(w);
            });
        });
    };
    try {
        // One at a time: each process's start checks on the others already in Redis.
        for (let i = 0; i < n; i++) workers.push(await launch(i, await freePort()));
    } catch (e) {
        closing = true;
        for (const w of workers) w.child.kill('SIGKILL');
        await redis?.stop();
        throw e;
    }
    return {
        redis,
        workers,
        endpoints: () => workers.map(w => `http://127.0.0.1:${w.port}`),
        restarted: index => new Promise(done => waiting.set(index, done)),
        close: async () => {
            closing = true;
            await Promise.all(
                workers.map(w =>
                    w.child.exitCode !== null || w.child.signalCode !== null
                        ? null
                        : new Promise(done => {
                              w.child.once('exit', done);
                              w.child.kill('SIGTERM');
                          })
                )
            );
            await redis?.stop();
        }
    };
}

function option(argv: string[], name: string): string | undefined {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
}

/**
 * `npm run example -- cluster [--processes N]`: Redis, N processes and the page server, until Ctrl+C. Resolves
 * once they run (0), or with 1 when redis-server is missing and 2 for a bad argument (the message on stderr).
 */
export async function runCluster(argv: string[]): Promise<number> {
    const missing = redisMissing();
    if (missing) {
        console.error(missing);
        return 1;
    }
    const given = option(argv, '--processes');
    const processes = given === undefined ? os.availableParallelism() : Number(given);
    if (!Number.isInteger(processes) || processes < 1) {
        console.error(`--processes: expected an integer ≥ 1, got ${given}`);
        return 2;
    }
    await bundleClient();
    const page: HttpServer = await serve(EXAMPLES, Number(process.env.PAGE_PORT ?? 8080)).catch((e: unknown) => {
        if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
        return serve(EXAMPLES, 0);
    });
    const cluster = await startCluster({
        processes,
        onExit: (w, how) => console.error(`process ${w.index} (pid ${w.pid}) exited (${how}): starting it again`)
    }).catch((e: unknown) => {
        page.close();
        throw e;
    });
    const pageAddress = page.address(),
        pagePort = pageAddress && typeof pageAddress === 'object' ? pageAddress.port : 0;
    console.log(`redis-server pid ${cluster.redis!.pid} on 127.0.0.1:${cluster.redis!.port}`);
    for (const w of cluster.workers)
        console.log(
            `Colyseus process ${w.index}: pid ${w.pid} on 127.0.0.1:${w.port}, ` +
                `page http://127.0.0.1:${pagePort}/server/?server=${w.port}`
        );
    console.log('any of the pages above joins a room wherever Colyseus placed it  (Ctrl+C to stop)');
    let stopping = false;
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
        process.on(signal, () => {
            if (stopping) return;
            stopping = true;
            void cluster.close().then(() => page.close(() => process.exit(0)));
        });
    return 0;
}
