// How many match rooms (200 sprites each) one core steps at 30 Hz. Part 1 times what a room pays per frame:
// the step with the players' inputs and the hash it sends (the server keeps no snapshots), over ROOMS rooms
// stepped in turn as a server process does; rooms/core = 33.3 ms / that time. The client's extra cost per
// predicted frame (the snapshots it keeps) is the baseline printed next to it. Part 2 checks the figure against
// Colyseus itself: N rooms with bots in this process, each on Colyseus's fixed-timestep clock, for S seconds;
// it prints the CPU time the process used per second and the frames the rooms stepped out of those due.
// Usage: node --import tsx examples/server/bench-rooms.ts [--rooms N] [--seconds S] [--no-colyseus]
import os from 'node:os';
import { matchMaker, Server } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { createSim, FPS, PLAYERS, simHash, SnapshotRing, SPRITES, step, type Sim } from './sim.js';
import { scriptedInput } from './netcode.js';
import { matchRoom } from './room.js';

const ROOMS = 8,
    WARM = 60,
    FRAMES = 300,
    FRAME_MS = 1000 / FPS;

function stats(t: number[]): { median: number; text: string } {
    const s = t.slice().sort((a, b) => a - b),
        at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
    return {
        median: at(0.5),
        text: `${at(0.5).toFixed(3)} ms [p10 ${at(0.1).toFixed(3)}, p90 ${at(0.9).toFixed(3)}, max ${s[s.length - 1].toFixed(3)}]`
    };
}

function arg(name: string): number | null {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : null;
}

console.log(
    `hitmask room benchmark: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}, load ${os
        .loadavg()
        .map(l => l.toFixed(2))
        .join(' ')} (1/5/15 min)`
);
console.log(
    `a room: ${SPRITES} sprites (${PLAYERS} ships with scripted inputs, the rest rocks), a 480x320 terrain raster; ${ROOMS} rooms stepped in turn, ${FRAMES} frames after ${WARM} warm-up frames\n`
);

// Part 1: time per room-frame.
const sims: Sim[] = [],
    rings: SnapshotRing[] = [];
for (let r = 0; r < ROOMS; r++) {
    sims.push(createSim(r + 1));
    rings.push(new SnapshotRing(32));
}
const inputs = new Int32Array(PLAYERS);
const stepMs: number[] = [],
    hashMs: number[] = [],
    serverMs: number[] = [],
    clientMs: number[] = [];
let sink = 0;
for (let f = 0; f < WARM + FRAMES; f++) {
    for (let r = 0; r < ROOMS; r++) {
        const sim = sims[r];
        for (let p = 0; p < PLAYERS; p++) inputs[p] = scriptedInput(r * 31 + p, f);
        const t0 = performance.now();
        rings[r].save(sim, f); // the client's cost: a snapshot of the World, the raster, the state
        const t1 = performance.now();
        step(sim, inputs);
        const t2 = performance.now();
        sink ^= simHash(sim);
        const t3 = performance.now();
        if (f >= WARM) {
            clientMs.push(t1 - t0);
            stepMs.push(t2 - t1);
            hashMs.push(t3 - t2);
            serverMs.push(t3 - t1);
        }
    }
}
const server = stats(serverMs),
    perCore = FRAME_MS / server.median;
console.log('| per room-frame | time |');
console.log('|---|---|');
console.log(`| step (inputs, moves, World step, events) | ${stats(stepMs).text} |`);
console.log(`| hash (world.hash + raster.hash + state) | ${stats(hashMs).text} |`);
console.log(`| **server: step + hash** | ${server.text} |`);
console.log(`| client baseline: snapshots it keeps per predicted frame | ${stats(clientMs).text} |`);
const p90 = serverMs.slice().sort((a, b) => a - b)[Math.floor(0.9 * serverMs.length)];
console.log(
    `\nrooms per core at ${FPS} Hz: ${FRAME_MS.toFixed(1)} ms / ${server.median.toFixed(3)} ms = ${Math.floor(perCore)} at the median (${Math.floor(FRAME_MS / p90)} at p90)`
);
if (sink === 0.5) console.log('');

// Part 2: N rooms on Colyseus's clock in this one process.
if (!process.argv.includes('--no-colyseus')) {
    const n = arg('--rooms') ?? Math.max(1, Math.floor(perCore * 0.75)),
        seconds = arg('--seconds') ?? 10;
    const frames = new Map<string, number>();
    const colyseus = new Server({ transport: new WebSocketTransport(), greet: false, gracefullyShutdown: false });
    // Server-side settings only: bots in empty slots, rooms that step without clients, no cap below N.
    colyseus.define(
        'match',
        matchRoom({
            bots: true,
            start: 0,
            keepEmpty: true,
            maxRooms: Math.max(n, 1),
            log: (id: string) => {
                frames.set(id, (frames.get(id) ?? 0) + 1);
            }
        })
    );
    await colyseus.listen(0, '127.0.0.1');
    try {
        for (let r = 0; r < n; r++) await matchMaker.createRoom('match', { seed: r + 1 });
        await new Promise(done => setTimeout(done, 2000)); // warm-up: JIT, rooms' clocks started
        const before = new Map(frames),
            cpu0 = process.cpuUsage(),
            t0 = performance.now();
        await new Promise(done => setTimeout(done, seconds * 1000));
        const cpu = process.cpuUsage(cpu0),
            wall = (performance.now() - t0) / 1000;
        let stepped = 0;
        for (const [id, count] of frames) stepped += count - (before.get(id) ?? 0);
        const due = n * FPS * wall,
            busy = (cpu.user + cpu.system) / 1e6 / wall,
            cpuMs = (1000 * busy * wall) / Math.max(1, stepped);
        console.log(
            `\nColyseus: ${n} rooms (${frames.size} running) for ${wall.toFixed(1)} s: ${stepped} room-frames stepped of ${Math.round(due)} due (${((100 * stepped) / due).toFixed(1)} %);` +
                ` the process used ${(100 * busy).toFixed(1)} % of one core (user + system, GC and timers included): ${cpuMs.toFixed(3)} ms of CPU per room-frame,` +
                ` so ${Math.floor(FRAME_MS / cpuMs)} rooms per core at ${FPS} Hz on Colyseus's clock`
        );
    } finally {
        await colyseus.gracefullyShutdown(false);
    }
}
