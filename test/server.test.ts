// @test slow browser
// The Colyseus room server example (examples/server/): the server in this process, two headless Chromium pages
// running the real client (examples/server/client.ts, bundled), a scripted match of FRAMES frames in which one
// client sends its inputs late so that both roll back. Every confirmed frame's hash in both pages must equal the
// server's. Counts only: no wall time is asserted (a slow machine makes the match take longer, never red).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { chromiumMissing as skip, openBrowser, waitFor } from './chromium.js';
import { startServer, type Running } from '../examples/server/serve.js';
import type { NetStatus } from '../examples/server/client.js';
import { createSim, simHash, step } from '../examples/server/sim.js';
import { Predictor, scriptedInput, type FrameMessage } from '../examples/server/netcode.js';

const FRAMES = 150;

test(
    "two Chromium clients of the Colyseus room agree with the server's hash at every confirmed frame, rolling back late inputs",
    { skip },
    async () => {
        const log = new Map<number, number>();
        const rooms = new Set<string>();
        let running: Running | null = null;
        const browser = await openBrowser('plain');
        try {
            running = await startServer({
                match: {
                    seed: 3,
                    frames: FRAMES,
                    start: 2,
                    log: (roomId, frame, hash) => {
                        rooms.add(roomId);
                        log.set(frame, hash);
                    }
                }
            });
            const errors: string[] = [];
            // Client 1 sends at once; client 2 holds each input 150 ms (4.5 frames, past its 2-frame lead): the
            // server confirms them late, so client 2 rolls back its own inputs and client 1 the guesses of client 2's.
            const pages: Page[] = [];
            for (const [bot, delay] of [
                [11, 0],
                [29, 150]
            ]) {
                const page = await browser.newPage();
                page.on('pageerror', e => errors.push(e.message));
                await page.goto(`${running.url}&bot=${bot}&delay=${delay}`);
                pages.push(page);
            }
            const states: NetStatus[] = [];
            // A page that throws fails the test at once instead of leaving it to wait for a match that cannot end.
            const thrown = new Promise<never>((_, reject) => {
                for (const page of pages)
                    page.on('pageerror', e => reject(new Error(`a client page threw: ${e.message}`)));
            });
            for (const page of pages) {
                const s = await Promise.race([
                    thrown,
                    waitFor(
                        page,
                        `the end of the ${FRAMES}-frame match`,
                        (n: number) => {
                            const s = window.hitmaskNet?.();
                            return s && (s.error || (s.ended && s.confirmed >= n)) ? s : null;
                        },
                        FRAMES
                    )
                ]);
                if (s) states.push(s);
            }
            assert.deepEqual(errors, []);
            assert.equal(rooms.size, 1, 'both pages joined one room');
            assert.equal(log.size, FRAMES);
            assert.equal(states.length, 2);
            for (const [i, s] of states.entries()) {
                const what = `client ${i + 1} (slot ${s.slot})`;
                assert.equal(s.error, '', what);
                console.log(
                    `${what}: ${s.compared} frames compared, ${s.mismatches} mismatches, ${s.rollbacks} rollbacks, ${s.resimulated} frames simulated again`
                );
                assert.equal(s.compared, FRAMES, what);
                assert.equal(s.mismatches, 0, `${what}: first mismatch at frame ${s.firstMismatch}`);
                assert.ok(s.rollbacks > 0, `${what} rolled back`);
                // And the page's own hash log against the server's, frame by frame.
                for (let f = 0; f < FRAMES; f++) assert.equal(s.hashes[f], log.get(f), `${what}, frame ${f}`);
            }
            assert.deepEqual(new Set(states.map(s => s.slot)), new Set([0, 1]));
        } finally {
            await browser.close();
            await running?.close();
        }
    }
);

test("the Predictor in Node: a rollback to a late input re-simulates to the server's hashes", () => {
    // The server's side without a network: confirmed inputs, 5 frames late for player 1.
    const server = createSim(8),
        frames: FrameMessage[] = [],
        late = 5;
    const held = new Int32Array(2);
    for (let f = 0; f < 120; f++) {
        held[0] = scriptedInput(1, f);
        if (f >= late) held[1] = scriptedInput(2, f - late);
        step(server, held);
        frames.push([f, held[0], held[1], simHash(server)]);
    }
    const clients = [new Predictor(8, 0), new Predictor(8, 1)];
    for (const msg of frames) {
        for (const [p, c] of clients.entries()) {
            c.confirm(msg);
            while (c.frame < c.confirmed + 3) c.predict(scriptedInput(p + 1, c.frame));
        }
    }
    for (const c of clients) {
        assert.equal(c.compared, 120);
        assert.equal(c.mismatches, 0);
        assert.ok(c.rollbacks > 0 && c.resimulated > 0);
    }
});
