// Clicks for the Kaplay and Excalibur picking tests: both engines read the mouse once a frame (a second press in the
// same frame is lost), so each click waits for the page's next frames before the next one.
import type { Page } from 'playwright-core';

/**
 * Clicks pixel centres over `box` (and 1 px around it) on the canvas at `canvas`, about 12 a side, within `size`,
 * two animation frames apart; returns how many.
 */
export async function clickBoxByFrames(
    page: Page,
    canvas: { x: number; y: number },
    box: { x: number; y: number; width: number; height: number },
    size: number
): Promise<number> {
    const step = Math.max(1, Math.ceil(Math.max(box.width, box.height) / 12));
    let n = 0;
    for (let y = Math.max(0, Math.floor(box.y) - 1); y < Math.min(size, box.y + box.height + 1); y += step) {
        for (let x = Math.max(0, Math.floor(box.x) - 1); x < Math.min(size, box.x + box.width + 1); x += step, n++) {
            await page.mouse.click(canvas.x + x + 0.5, canvas.y + y + 0.5);
            await page.evaluate(
                () => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(() => resolve(0))))
            );
        }
    }
    return n;
}
