// The example room server (examples/server/room.ts) against hostile clients, in this process on 127.0.0.1 with
// `@colyseus/sdk` clients (no browser): options a client may not give are refused to that client only, a step
// that throws disposes its own room only, an empty room is disposed and stops stepping, rooms per process and the
// history kept for late joiners are capped. Waits are for counts (frames stepped, rooms gone), never wall time.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { matchMaker, Server } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { Client, type Room } from '@colyseus/sdk';
import { liveRooms, MatchRoom, matchRoom } from '../examples/server/room.js';
import { Predictor, type Welcome } from '../examples/server/netcode.js';

const frames = new Map<string, number>(); // room id → frames it logged
const doomed = new Set<string>(); // rooms whose log callback throws
let server: Server, client: Client;

function count(id: string): void {
    frames.set(id, (frames.get(id) ?? 0) + 1);
    if (doomed.has(id)) throw new Error(`a log callback failed in room ${id}`);
}

// Waits for a state as the page tests do: a busy machine only makes it slower; a hang fails after
// HITMASK_PAGE_WAIT_S (300 s), naming what it waited for.
const WAIT_MS = 1000 * Number(process.env.HITMASK_PAGE_WAIT_S ?? 300);
async function until(what: string, ok: () => boolean): Promise<void> {
    const give = performance.now() + WAIT_MS;
    while (!ok() && performance.now() < give) await new Promise(done => setTimeout(done, 10));
    assert.ok(ok(), `waited ${WAIT_MS / 1000} s for: ${what}`);
}

/** Waits until the room `id` has stepped `n` more frames than now. */
async function steps(id: string, n: number): Promise<void> {
    const from = frames.get(id) ?? 0;
    await until(`room ${id} stepped ${n} frames`, () => (frames.get(id) ?? 0) >= from + n);
}

/** A client's room that takes every message quietly (the test reads the server's side). */
async function open(name: string, join?: string, welcome?: (w: Welcome) => void): Promise<Room> {
    const r = join ? await client.joinById(join) : await client.create(name);
    r.onMessage('*', (type, msg) => {
        if (type === 'welcome') welcome?.(msg as Welcome);
    });
    return r;
}

function local(id: string): MatchRoom | undefined {
    return matchMaker.getLocalRoomById(id) as MatchRoom | undefined;
}

async function leaveAll(rooms: Room[]): Promise<void> {
    for (const r of rooms) if (r.connection.isOpen) await r.leave(); // a room the server closed has left already
    await until('every match room disposed', () => liveRooms() === 0);
}

before(async () => {
    server = new Server({ transport: new WebSocketTransport(), greet: false, gracefullyShutdown: false });
    server.define('match', MatchRoom);
    server.define('steady', matchRoom({ start: 0, log: count }));
    server.define('practice', matchRoom({ bots: true, log: count }));
    server.define('capped', matchRoom({ maxRooms: 2 }));
    server.define('short', matchRoom({ start: 0, history: 10, log: count }));
    server.define('short-late', matchRoom({ start: 0, seed: 7, log: count }));
    await server.listen(0, '127.0.0.1');
    const port = (server.transport.server?.address() as AddressInfo).port;
    client = new Client(`http://127.0.0.1:${port}`);
});

after(async () => {
    await server.gracefullyShutdown(false);
});

test('a client passing log, bots or a bad value is refused alone; the other rooms keep stepping', async () => {
    const other = await open('steady');
    await steps(other.roomId, 3);
    await assert.rejects(client.create('match', { log: 'x' }), /unknown match option "log"/);
    await assert.rejects(client.create('match', { bots: true }), /unknown match option "bots"/);
    await assert.rejects(client.joinOrCreate('match', { seed: 'x' }), /option seed: expected a number, got string/);
    await assert.rejects(client.create('match', { start: 5 }), /option start: expected an integer in \[0, 2\], got 5/);
    await assert.rejects(client.create('match', { frames: 1.5 }), /option frames: expected an integer/);
    assert.equal(liveRooms(), 1, 'no room was made for a refused client');
    await steps(other.roomId, 5);
    await leaveAll([other]);
});

test('a step that throws disposes its own room, logged, and the other rooms keep stepping', async () => {
    const bad = await open('steady'),
        good = await open('steady');
    await steps(bad.roomId, 2);
    doomed.add(bad.roomId);
    await until('the failing room disposed', () => local(bad.roomId) === undefined);
    const stopped = frames.get(bad.roomId);
    await steps(good.roomId, 5);
    assert.equal(frames.get(bad.roomId), stopped, 'the disposed room stepped no more');
    await leaveAll([bad, good]);
});

test('a room with server-side bots is disposed once its last client leaves, and its clock stops', async () => {
    const r = await open('practice');
    await steps(r.roomId, 3);
    const room = local(r.roomId);
    assert.ok(room, 'the room runs in this process');
    await r.leave();
    await until('the empty room disposed', () => local(r.roomId) === undefined);
    const stopped = frames.get(r.roomId);
    const other = await open('steady');
    await steps(other.roomId, 5); // time passes on the clock of every room
    assert.equal(frames.get(r.roomId), stopped, 'the disposed room stepped no more');
    await leaveAll([other]);
});

test('the room cap refuses the next create with a clear error', async () => {
    const rooms = [await open('capped'), await open('capped')];
    await assert.rejects(open('capped'), /too many match rooms: this server runs at most 2/);
    assert.equal(liveRooms(), 2);
    await leaveAll(rooms);
    rooms.push(await open('capped')); // a room freed is a room free again
    await leaveAll(rooms);
});

test('the history kept for late joiners stays within its window, and a join past it is refused', async () => {
    const r = await open('short');
    const room = local(r.roomId);
    assert.ok(room);
    let most = 0;
    for (let i = 0; i < 40; i++) {
        await steps(r.roomId, 1);
        most = Math.max(most, room.historyLength);
    }
    assert.ok(room.frame >= 40);
    assert.ok(most <= 10, `history held ${most} frames, window 10`);
    assert.equal(room.historyLength, 0, 'dropped past the window');
    await assert.rejects(open('', r.roomId), /late joiners are refused|locked/);
    await leaveAll([r]);
});

test('a late joiner within the window gets every confirmed frame and replays them to the same hashes', async () => {
    const first = await open('short-late');
    await steps(first.roomId, 20);
    let welcome: Welcome | null = null;
    const late = await open('', first.roomId, w => (welcome = w));
    await until('the welcome', () => welcome !== null);
    const w = welcome as unknown as Welcome;
    assert.ok(w.frames.length >= 20);
    const net = new Predictor(w.seed, w.slot);
    for (const msg of w.frames) net.confirm(msg);
    assert.equal(net.compared, w.frames.length);
    assert.equal(net.mismatches, 0, `first mismatch at frame ${net.firstMismatch}`);
    await leaveAll([first, late]);
});
