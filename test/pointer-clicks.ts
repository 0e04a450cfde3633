// The pointer-picking tests of both adapters: real clicks over a sprite's box on its canvas, and what each
// click must show: the event fired exactly where hitTest says, and the drawing agrees but within 1 px of an edge.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/** What the page reports for one click, at the pointer's world (global) point. */
export interface Click {
    x: number;
    y: number;
    fired: boolean;
    hit: boolean;
    drawn: boolean;
    band: boolean;
}

/** Clicks pixel centres over `box` (and 1 px around it) on the canvas at `canvas`, at most 24 a side, within `size`; returns how many. */
export async function clickBox(
    page: Page,
    canvas: { x: number; y: number },
    box: { x: number; y: number; width: number; height: number },
    size: number
): Promise<number> {
    const step = Math.max(1, Math.ceil(Math.max(box.width, box.height) / 24));
    let n = 0;
    for (let y = Math.max(0, Math.floor(box.y) - 1); y < Math.min(size, box.y + box.height + 1); y += step) {
        for (let x = Math.max(0, Math.floor(box.x) - 1); x < Math.min(size, box.x + box.width + 1); x += step, n++)
            await page.mouse.click(canvas.x + x + 0.5, canvas.y + y + 0.5);
    }
    return n;
}

/**
 * Six seeded poses: `round(seed)` poses a sprite, clicks over it (clickBox) and returns how many clicks it made
 * and what the page saw. Asserts every click (checkClicks) and that clicks fell both on and off the sprite;
 * returns a line for the test's diagnostics.
 */
export async function pointerRounds(
    engine: string,
    round: (seed: number) => Promise<{ made: number; clicks: readonly Click[] }>
): Promise<string> {
    let clicks = 0,
        fired = 0,
        band = 0;
    for (let seed = 1; seed <= 6; seed++) {
        const r = await round(seed);
        assert.equal(r.clicks.length, r.made, 'every click reached the page');
        band += checkClicks(engine, seed, r.clicks);
        clicks += r.made;
        fired += r.clicks.filter(p => p.fired).length;
    }
    assert.ok(fired > 50 && clicks - fired > 50, 'clicks both on and off the sprite');
    return `${clicks} clicks, ${fired} on solid pixels; ${band} within 1 px of a drawn edge differ from the drawing`;
}

/** Asserts each click of `engine`'s pose `seed`; returns how many differ from the drawing (all within 1 px of a drawn edge). */
function checkClicks(engine: string, seed: number, clicks: readonly Click[]): number {
    let band = 0;
    for (const p of clicks) {
        assert.equal(
            p.fired,
            p.hit,
            `seed ${seed}: pointerdown at (${p.x}, ${p.y}) ${p.fired ? 'fired' : 'did not fire'}, hitTest says ${p.hit}`
        );
        if (p.fired === p.drawn) continue;
        assert.ok(
            p.band,
            `seed ${seed}: at (${p.x}, ${p.y}) ${engine} drew ${p.drawn ? 'solid' : 'clear'} away from any edge, the event ${p.fired ? 'fired' : 'did not fire'}`
        );
        band++;
    }
    return band;
}
