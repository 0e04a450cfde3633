// @test browser
// Animation frames and their delays checked against an independent decoder: Chromium's ImageDecoder
// (WebCodecs), which composites GIF and APNG frames itself. Debian's headless Chromium, driven by playwright-core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { chromiumMissing as skip, openBrowser } from './chromium.js';
import { decodeFrames } from '../src/node.js';
import { animations, type Animation } from './fixtures/animations.js';

interface Decoded {
    width: number;
    height: number;
    frames: number[][];
    durations: (number | null)[];
}

// ImageDecoder needs a secure context: a page served from 127.0.0.1 is one, about:blank is not.
async function serve(): Promise<Server> {
    const server = createServer((_, res) => {
        res.setHeader('content-type', 'text/html');
        res.end('<!doctype html><title>decode</title>');
    });
    await new Promise<void>(done => server.listen(0, '127.0.0.1', done));
    return server;
}

// Straight (not premultiplied) RGBA with no colour conversion, so that bytes compare with ours; and each frame's duration.
async function chromiumFrames(browser: Browser, url: string, list: Animation[]): Promise<Decoded[]> {
    const page = await browser.newPage();
    try {
        await page.goto(url);
        return await page.evaluate(
            async files => {
                const out: Decoded[] = [];
                for (const f of files) {
                    // premultiplyAlpha is in the WebCodecs specification but not in TypeScript's DOM types.
                    const dec = new ImageDecoder({
                        data: new Uint8Array(f.bytes),
                        type: f.type,
                        colorSpaceConversion: 'none',
                        premultiplyAlpha: 'none'
                    } as ImageDecoderInit);
                    await dec.tracks.ready;
                    await dec.completed;
                    const count = dec.tracks.selectedTrack?.frameCount ?? 0;
                    const frames: number[][] = [],
                        durations: (number | null)[] = [];
                    let width = 0,
                        height = 0;
                    for (let i = 0; i < count; i++) {
                        const { image } = await dec.decode({ frameIndex: i });
                        width = image.displayWidth;
                        height = image.displayHeight;
                        const buf = new Uint8Array(width * height * 4);
                        await image.copyTo(buf, { format: 'RGBA' } as VideoFrameCopyToOptions);
                        durations.push(image.duration);
                        image.close();
                        frames.push(Array.from(buf));
                    }
                    dec.close();
                    out.push({ width, height, frames, durations });
                }
                return out;
            },
            list.map(a => ({ type: a.type, bytes: Array.from(a.bytes) }))
        );
    } finally {
        await page.close();
    }
}

// Alpha must match (±1 where two partly transparent pixels were blended); colour must match where a pixel
// is opaque, within 1 where it is partly transparent (rounding), and is free where it is fully transparent.
function compare(name: string, i: number, ours: Uint8Array, theirs: number[], width: number, slack: number): void {
    for (let p = 0; p < ours.length; p += 4) {
        const a = ours[p + 3],
            b = theirs[p + 3];
        const where = `${name}: frame ${i} pixel (${(p / 4) % width}, ${Math.floor(p / 4 / width)})`;
        const tolerance = Math.max(slack, a === 255 ? 0 : 1);
        assert.ok(Math.abs(a - b) <= tolerance, `${where}: alpha ${a}, Chromium ${b}`);
        if (a === 0) continue;
        for (let c = 0; c < 3; c++) {
            assert.ok(
                Math.abs(ours[p + c] - theirs[p + c]) <= tolerance,
                `${where}: RGBA ${Array.from(ours.subarray(p, p + 4))}, Chromium ${theirs.slice(p, p + 4)}`
            );
        }
    }
}

test("animations: every GIF and APNG frame equals what Chromium's ImageDecoder composites", { skip }, async t => {
    const list = animations();
    assert.ok(list.length >= 15);
    const server = await serve();
    const browser = await openBrowser('plain');
    try {
        const theirs = await chromiumFrames(
            browser,
            `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
            list
        );
        for (let k = 0; k < list.length; k++) {
            const a = list[k],
                c = theirs[k];
            await t.test(a.name, () => {
                const ours = decodeFrames(a.bytes);
                assert.deepEqual(
                    [ours.length, ours[0].width, ours[0].height],
                    [c.frames.length, c.width, c.height],
                    `${a.name}: frame count and size`
                );
                // Chromium's frame durations are the file's own, in microseconds (no minimum delay applied here).
                assert.deepEqual(
                    ours.map(f => f.delay * 1000),
                    c.durations,
                    `${a.name}: delays`
                );
                for (let i = 0; i < ours.length; i++)
                    compare(a.name, i, ours[i].data, c.frames[i], c.width, a.tolerance);
            });
        }
        t.diagnostic(`${list.length} animations, ${theirs.reduce((n, d) => n + d.frames.length, 0)} frames compared`);
    } finally {
        await browser.close();
        server.close();
    }
});
