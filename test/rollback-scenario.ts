// A seeded World scenario for the rollback tests: bodies with rotated, scaled and flipped masks, a tile-map layer,
// filters and groups, adds, removes, moves, mask, transform and filter changes between steps. It returns the
// hash after every step and every event, so runs can be compared across kernels, processes and browsers.
// Imported by test/world-snapshot.test.ts in Node and bundled for Chromium.
import { Mask, TileMap, World, type Body } from '../src/index.js';
import { mulberry32 } from '../bench/timing.js';

/** What one run produced: the hash after each step, the events in order ("begin 3 7"), the pair count per step. */
export interface ScenarioLog {
    hashes: number[];
    events: string[];
    pairs: number[];
}

/** A small deterministic generator (mulberry32, the benchmarks' own). */
export const rng = mulberry32;

/** Random masks of a few shapes (blobs, bars, rings), the same for the same seed. */
export function scenarioMasks(seed: number): Mask[] {
    const rnd = rng(seed),
        masks: Mask[] = [];
    for (let k = 0; k < 6; k++) {
        const w = 4 + Math.floor(rnd() * 28),
            h = 4 + Math.floor(rnd() * 28),
            m = new Mask(w, h);
        for (let y = 0; y < h; y++)
            for (let x = 0; x < w; x++) {
                const dx = (x + 0.5) / w - 0.5,
                    dy = (y + 0.5) / h - 0.5,
                    r = dx * dx + dy * dy;
                if (k % 3 === 0 ? r < 0.25 : k % 3 === 1 ? rnd() < 0.7 : r < 0.25 && r > 0.06) m.set(x, y);
            }
        masks.push(m);
    }
    return masks;
}

/** The World a scenario starts from: a tile-map floor and no bodies. */
export function scenarioWorld(masks: readonly Mask[]): World<number> {
    const world = new World<number>();
    const tile = new Mask(16, 16, true),
        cells = new Array(16 * 12).fill(-1);
    for (let c = 0; c < 16; c++) cells[11 * 16 + c] = 0;
    for (let c = 3; c < 7; c++) cells[6 * 16 + c] = 0;
    world.addLayer(new TileMap(16, 16, 16, 12, [tile], cells), { category: 2 });
    void masks;
    return world;
}

/**
 * One step of random changes (as a game would make between steps), then step(). `bodies` is the game's list of
 * handles; the same `rnd` state and the same World state give the same changes.
 */
export function scenarioStep(
    world: World<number>,
    masks: readonly Mask[],
    bodies: Body<number>[],
    rnd: () => number,
    log: ScenarioLog
): void {
    const live = () => bodies.filter(b => !b.removed);
    const changes = 1 + Math.floor(rnd() * 6);
    for (let c = 0; c < changes; c++) {
        const r = rnd(),
            alive = live();
        const pick = () => alive[Math.floor(rnd() * alive.length)];
        if (r < 0.3 || alive.length < 3) {
            const b = world.add({
                x: rnd() * 240,
                y: rnd() * 180,
                mask: masks[Math.floor(rnd() * masks.length)],
                angle: rnd() < 0.4 ? rnd() * 7 - 1 : 0,
                scaleX: rnd() < 0.2 ? 0.5 + rnd() * 1.5 : 1,
                flipX: rnd() < 0.2,
                category: rnd() < 0.8 ? 1 : 4,
                group: rnd() < 0.2 ? 1 : 0,
                data: bodies.length
            });
            bodies.push(b);
        } else if (r < 0.4) world.remove(pick());
        else if (r < 0.8) {
            const b = pick();
            world.move(b, b.x + rnd() * 16 - 8, b.y + rnd() * 16 - 7.5);
        } else if (r < 0.87) world.setMask(pick(), masks[Math.floor(rnd() * masks.length)]);
        else if (r < 0.95) world.setTransform(pick(), { angle: rnd() * 6.3, flipY: rnd() < 0.3 });
        else world.setFilter(pick(), { collidesWith: rnd() < 0.5 ? 0xffffffff : 0xfffffffd });
    }
    log.pairs.push(world.step());
    log.hashes.push(world.hash());
}

/** Runs `steps` steps of the seeded scenario from an empty World and returns the log. */
export function runScenario(seed: number, steps: number): ScenarioLog {
    const masks = scenarioMasks(seed),
        world = scenarioWorld(masks),
        bodies: Body<number>[] = [];
    const log: ScenarioLog = { hashes: [], events: [], pairs: [] };
    listen(world, log);
    const rnd = rng(seed * 7919 + 1);
    for (let s = 0; s < steps; s++) scenarioStep(world, masks, bodies, rnd, log);
    return log;
}

/** Appends every event of `world` to `log.events`. */
export function listen(world: World<number>, log: ScenarioLog): void {
    for (const e of ['begin', 'stay', 'end'] as const)
        world.on(e, (a, b) => {
            log.events.push(`${e} ${a.id} ${b.id}`);
        });
}
