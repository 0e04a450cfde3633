// @test slow
// The match room on two Colyseus processes sharing one Redis (examples/server/cluster.ts): Node bots
// (examples/server/bot.ts, `@colyseus/sdk`) create rooms through either process and check every confirmed hash.
// Then the fault runs: one process is killed (SIGKILL) mid-match, and Redis is restarted. Last, the command
// `npm run example -- cluster` leaves no process behind when stopped with Ctrl+C or when it is killed. Waits are
// for counts (frames, rejoined bots, processes gone); times are printed, never asserted.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { RedisDriver } from '@colyseus/redis-driver';
import { redisMissing, startCluster, type Cluster, type WorkerStats } from '../examples/server/cluster.js';
import { Bot } from '../examples/server/bot.js';

const missing = redisMissing();
const skip = missing ?? false; // CI installs redis-server (.ci/apt-packages); a machine without it skips, saying why
const ROOMS = 6;

let cluster: Cluster;
const bots: Bot[] = [];

// A busy machine only makes a wait longer; a hang fails after HITMASK_PAGE_WAIT_S (300 s), naming what it waited for.
const WAIT_MS = 1000 * Number(process.env.HITMASK_PAGE_WAIT_S ?? 300);
async function until(what: string, ok: () => boolean): Promise<void> {
    const give = performance.now() + WAIT_MS;
    while (!ok() && performance.now() < give) await new Promise(done => setTimeout(done, 20));
    assert.ok(ok(), `waited ${WAIT_MS / 1000} s for: ${what}`);
}

function stats(): Promise<WorkerStats[]> {
    return Promise.all(cluster.workers.map(w => w.stats()));
}

/** Rooms in Redis (the driver's listings), as Colyseus's RedisDriver reads them. */
async function listed(): Promise<{ roomId: string; processId: string }[]> {
    const driver = new RedisDriver({ host: '127.0.0.1', port: cluster.redis!.port });
    try {
        return await driver.query({});
    } finally {
        await driver.shutdown();
    }
}

function clean(group: Bot[], what: string): void {
    for (const b of group) {
        assert.deepEqual(b.errors, [], `${what}: a bot's errors`);
        assert.equal(b.gaps, 0, `${what}: frames missed`);
        assert.equal(b.mismatches, 0, `${what}: hash mismatches`);
    }
}

function gone(pid: number): boolean {
    // A process is gone when /proc has no entry, or only a zombie's (dead, not yet reaped by its new parent).
    const stat = `/proc/${pid}/stat`;
    if (!existsSync(stat)) return true;
    try {
        return /^\d+ \(.*\) Z/.test(readFileSync(stat, 'utf8'));
    } catch {
        return true;
    }
}

before(async () => {
    if (missing) return;
    // Server bots take a slot no client holds: a bot that joins again alone plays at once.
    cluster = await startCluster({ processes: 2, match: { bots: true } });
});

after(async () => {
    if (missing) return;
    for (const b of bots) await b.leave();
    const pids = [cluster.redis!.pid, ...cluster.workers.map(w => w.pid)];
    await cluster.close();
    await until('Redis and the processes gone after close()', () => pids.every(gone));
});

test('rooms made through either process spread within ±1, and every bot confirms every hash', { skip }, async () => {
    for (let r = 0; r < ROOMS; r++) {
        // The first player creates the room through process r % 2; the second joins it through the other one.
        const first = new Bot(() => cluster.endpoints(), r, 100 + r, r % 2 === 0 ? 'predictor' : 'replay');
        const id = await first.create({ seed: r + 1, start: 2 });
        const second = new Bot(() => cluster.endpoints(), r + 1, 200 + r, 'replay');
        await second.join(id);
        bots.push(first, second);
    }
    const held = (await stats()).map(s => s.rooms);
    console.log(`rooms per process: ${held.join(', ')}`);
    assert.equal(held[0] + held[1], ROOMS);
    assert.ok(Math.abs(held[0] - held[1]) <= 1, `rooms per process ${held.join(', ')}: expected within ±1`);
    await until('every bot confirmed 60 frames', () => bots.every(b => b.frame >= 60));
    clean(bots, 'before the faults');
    assert.equal((await listed()).length, ROOMS, 'Redis lists every room');
});

test(
    'a killed process costs only its own rooms: its bots close with 1006 and play on in new rooms',
    { skip },
    async () => {
        const before = await stats();
        const victim = cluster.workers[1],
            dead = victim.processId,
            deadRooms = new Set(before[1].roomIds);
        const hit = bots.filter(b => deadRooms.has(b.room!.roomId)),
            spared = bots.filter(b => !deadRooms.has(b.room!.roomId));
        assert.ok(hit.length > 0 && spared.length > 0, 'bots on both processes');
        const from = spared.map(b => b.frame),
            again = cluster.restarted(1),
            t0 = performance.now();
        victim.child.kill('SIGKILL');
        await until("the dead process's bots in new rooms", () => hit.every(b => b.rejoinMs.length === 1));
        const rejoined = hit.filter(b => b.closes.length === 1 && b.closes[0] === 1006).length;
        console.log(
            `killed process 1 (${deadRooms.size} rooms, ${hit.length} bots): ` +
                `closes ${hit.map(b => b.closes).join(' ')}; ` +
                `rejoined after ${hit.map(b => b.rejoinMs[0].toFixed(0)).join(', ')} ms`
        );
        assert.equal(rejoined, hit.length, 'every bot of the dead process saw close code 1006 (abnormal closure)');
        await until(
            'the spared rooms 60 frames on, the new ones 30 frames in',
            () => spared.every((b, i) => b.frame >= from[i] + 60) && hit.every(b => b.frame >= 30)
        );
        for (const b of spared) assert.deepEqual(b.closes, [], "a spared bot's connection stayed open");
        clean(bots, 'after the kill');
        // The process is started again; its start runs Colyseus's health check of the dead one, which removes the
        // dead process's listings from Redis.
        const restarted = await again;
        // The new rooms run on a live process: the other one, or (on a slower machine) the one started again.
        const alive = new Set((await stats()).flatMap(st => st.roomIds));
        for (const b of hit) assert.ok(alive.has(b.room!.roomId), 'the new room is on a live process');
        const s = ((performance.now() - t0) / 1000).toFixed(1);
        console.log(`process 1 running again (pid ${restarted.pid}) ${s} s after the kill, its health check done`);
        const stale = (await listed()).filter(r => r.processId === dead);
        assert.deepEqual(stale, [], 'no listing of the dead process is left in Redis');
    }
);

test(
    'a Redis restart: rooms step on, their listings are lost, new rooms are made through either process',
    { skip },
    async () => {
        const old = bots[0].room!.roomId;
        const from = bots.map(b => b.frame);
        await cluster.redis!.restart(); // an empty Redis on the same port: nothing was saved
        await until('every room 30 frames on', () => bots.every((b, i) => b.frame >= from[i] + 30));
        clean(bots, 'after the Redis restart');
        assert.equal((await listed()).length, 0, 'the new Redis lists no room: the running ones are unlisted');
        await assert.rejects(new Bot(() => cluster.endpoints(), 0, 1).join(old), /not found/);
        const fresh = [new Bot(() => cluster.endpoints(), 0, 300), new Bot(() => cluster.endpoints(), 1, 301)];
        for (const b of fresh) await b.create({ seed: 9, start: 1 });
        bots.push(...fresh);
        await until('the new rooms 30 frames in', () => fresh.every(b => b.frame >= 30));
        clean(bots, 'rooms made after the Redis restart');
        assert.equal((await listed()).length, fresh.length, 'the new rooms are listed');
    }
);

// Runs the command as a user does; resolves with the pids it prints (Redis, then each process) and the child.
async function command(processes: number): Promise<{ pids: number[]; child: ReturnType<typeof spawn> }> {
    const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'examples/run-example.ts', 'cluster', '--processes', String(processes)],
        {
            env: { ...process.env, PAGE_PORT: '0' },
            stdio: ['ignore', 'pipe', 'inherit']
        }
    );
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    await until('the command running', () => /Ctrl\+C/.test(out) || child.exitCode !== null);
    const pids = [...out.matchAll(/pid (\d+)/g)].map(m => Number(m[1]));
    assert.equal(pids.length, processes + 1, `pids of Redis and the processes in:\n${out}`);
    return { pids, child };
}

test('npm run example -- cluster leaves no process behind after Ctrl+C or when killed', { skip }, async () => {
    const stopped = await command(1);
    const exit = new Promise(done => stopped.child.once('exit', code => done(code)));
    stopped.child.kill('SIGINT');
    assert.equal(await exit, 0, 'Ctrl+C: exit code');
    await until('Redis and the process gone after Ctrl+C', () => stopped.pids.every(gone));
    const killed = await command(2);
    killed.child.kill('SIGKILL');
    await until('Redis and the processes gone after the parent was killed', () => killed.pids.every(gone));
});

test('without redis-server the command refuses, naming the Debian package', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/run-example.ts', 'cluster'], {
        env: { ...process.env, PATH: '/nonexistent' },
        stdio: ['ignore', 'ignore', 'pipe']
    });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const code = await new Promise(done => child.once('exit', done));
    assert.equal(code, 1);
    assert.match(err, /no redis-server on the PATH.*package redis-server: apt install redis-server/);
});
