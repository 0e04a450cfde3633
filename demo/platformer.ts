// The platformer scene's simulation (`?scene=platformer`), free of the DOM like sim.ts so that the page and
// the Node tests run the same code: a jumping character and a crowd of Lemmings-style walkers on pixel
// terrain with slopes, steps, one-way ledges and moving lifts, in a seeded fixed-timestep game. Every
// movement, the lifts' riders and the bullets included, goes through moveAndSlide.
//
// One CollisionRaster holds three layers: TERRAIN (solid; bullets and clicks carve craters out of it),
// LEDGES (static one-way platforms) and LIFTS (the moving platforms, redrawn where they are each step).
// moveAndSlide gets the terrain as `solid` and the ledges and lifts together as `oneWay`.
//
// The order of a step (docs/movement.md, "The demo's platformer scene"):
// 1. The lifts move, 1 px along their axis, and the LIFTS layer is redrawn.
// 2. Every actor that stood on a lift at the end of the last step is carried by the lift's move, with
//    moveAndSlide (terrain still stops it: a rider carried into a wall stays behind and falls).
// 3. The character moves (keyboard or pilot), then the walkers, then the bullets.
// 4. Each actor's lift for the next step is found: the lift it stands on, if any.
import {
    CollisionRaster,
    Mask,
    moveAndSlide,
    type MoveOptions,
    type MoveResult,
    type RasterView
} from '../src/index.js';
import { mulberry32 } from './random.js';

/** moveAndSlide's signature: the scene calls whatever is passed as {@link PlatformerOptions.move}. */
export type MoveFn = typeof moveAndSlide;

/** Options of {@link PlatformerSim}. */
export interface PlatformerOptions {
    /** PRNG seed: the same seed, options and inputs give the same game. */
    seed: number;
    /** Walkers let out of the hatch, one every 12 steps (default 80). */
    walkers?: number;
    /** Let the built-in pilot play the character. */
    auto?: boolean;
    /** Called for every move instead of moveAndSlide (the tests wrap it to compare with the rules). */
    move?: MoveFn;
    /** Called after each rider's carry, before anything else moves (the tests check the riders there). */
    onCarry?: (carry: Carry) => void;
}

/** Keys held during one step. */
export interface PlatformerInput {
    left: boolean;
    right: boolean;
    /** Jump (space, up, W): taken when the character stands on something. */
    jump: boolean;
    /** Down (S): drop through a one-way ledge or lift. */
    down: boolean;
    fire: boolean;
}

/** The character, a walker or a bullet; the page draws `mask` at (⌊x⌋, ⌊y⌋). */
export interface Mover {
    readonly kind: 'hero' | 'walker' | 'bullet';
    readonly mask: Mask;
    x: number;
    y: number;
    vx: number;
    vy: number;
    /** Walkers' and bullets' direction, the character's facing: 1 right, −1 left. */
    dir: number;
    onFloor: boolean;
    /** The lift stood on at the end of the last step (carried by it in the next), or null. */
    lift: Lift | null;
    alive: boolean;
}

/** A moving one-way platform going back and forth between two positions, 1 px a step. */
export interface Lift {
    readonly mask: Mask;
    x: number;
    y: number;
    /** Its move in the last step (the riders' carry). */
    dx: number;
    dy: number;
    readonly axis: 'x' | 'y';
    readonly from: number;
    readonly to: number;
    dir: number;
}

/** A rider's carry: where it was, the lift that moved it (already moved), and moveAndSlide's answer. */
export interface Carry {
    mover: Mover;
    lift: Lift;
    x: number;
    y: number;
    result: MoveResult;
}

/** Counters for the HUD and the tests. */
export interface PlatformerStats {
    frame: number;
    /** Walkers in the field now. */
    walkers: number;
    /** moveAndSlide calls since the start. */
    moves: number;
    /** Riders carried by lifts since the start. */
    carried: number;
    /** Walkers turned by a wall, landed after a fall, and lost through the bottom (then sent to the hatch again). */
    turns: number;
    landings: number;
    lost: number;
    jumps: number;
    craters: number;
    /** Solid terrain pixels left. */
    terrain: number;
    /** Hash of every mover's floored position: equal in two runs only if they stayed identical. */
    checksum: number;
}

/** Layers of {@link PlatformerSim.raster}. */
export const TERRAIN = 0,
    LEDGES = 1,
    LIFTS = 2;
const WIDTH = 960,
    HEIGHT = 540,
    HATCH_X = 40,
    HATCH_Y = 40,
    HATCH_EVERY = 12;
const GRAVITY = 0.35,
    MAX_FALL = 7,
    JUMP = -6.6,
    RUN = 2.2,
    WALK = 0.6,
    BULLET = 6,
    CRATER = 10;
// Walkers climb steps of 3 px and follow the ground down 3 px; a taller wall turns them.
const CLIMB = 3;

/** A mask from rows of '#' (set) and '.' (clear). */
export function maskOf(rows: readonly string[]): Mask {
    const m = new Mask(rows[0].length, rows.length);
    rows.forEach((r, y) => {
        for (let x = 0; x < r.length; x++) if (r[x] === '#') m.set(x, y);
    });
    return m;
}

/** The character and the walkers' shapes: a lemming, a blob, a long one. */
export const SHAPES = {
    hero: maskOf([
        '..####..',
        '.######.',
        '.##.#.#.',
        '.######.',
        '..####..',
        '...##...',
        '.######.',
        '########',
        '#.####.#',
        '#.####.#',
        '..####..',
        '..#..#..',
        '..#..#..',
        '.##..##.'
    ]),
    walkers: [
        maskOf(['.##.', '####', '.##.', '####', '####', '.##.', '.##.', '#..#', '#..#']),
        maskOf(['..####..', '.######.', '########', '########', '.######.', '..#..#..']),
        maskOf(['.#.', '###', '###', '###', '###', '###', '###', '###', '#.#', '#.#', '#.#'])
    ],
    bullet: maskOf(['####', '####']),
    lift: new Mask(48, 3, true)
};

function disc(r: number): Mask {
    const m = new Mask(2 * r + 1, 2 * r + 1);
    for (let y = -r; y <= r; y++) for (let x = -r; x <= r; x++) if (x * x + y * y <= r * r + r) m.set(x + r, y + r);
    return m;
}

/** The scene. Call {@link step} 60 times per simulated second; read movers and lifts to draw. */
export class PlatformerSim {
    readonly width = WIDTH;
    readonly height = HEIGHT;
    /** Layers TERRAIN, LEDGES and LIFTS. */
    readonly raster = new CollisionRaster(WIDTH, HEIGHT, { layers: 3 });
    /** What blocks: the terrain. */
    readonly solid: RasterView;
    /** What holds from above only: ledges and lifts. */
    readonly oneWay: RasterView;
    readonly hero: Mover;
    readonly walkers: Mover[] = [];
    readonly bullets: Mover[] = [];
    readonly lifts: Lift[] = [];
    /** Where walkers come in. */
    readonly hatch = { x: HATCH_X, y: HATCH_Y };
    /** Bumped whenever the terrain changes (the page redraws it then). */
    terrainVersion = 0;

    private readonly random: () => number;
    private readonly move: MoveFn;
    private readonly onCarry: ((carry: Carry) => void) | null;
    private readonly carried: Carry = {
        mover: null as unknown as Mover,
        lift: null as unknown as Lift,
        x: 0,
        y: 0,
        result: null as unknown as MoveResult
    };
    private readonly crowd: number;
    private readonly auto: boolean;
    private readonly crater = disc(CRATER);
    private readonly walls = new Mask(6, HEIGHT, true);
    // Options per kind of mover, made once: a walking crowd allocates nothing per move.
    private readonly heroMoves: MoveOptions;
    private readonly dropMoves: MoveOptions = { stepUp: CLIMB, snapDown: 0, oneWay: null };
    private readonly walkerMoves: MoveOptions;
    private readonly carryMoves: MoveOptions;
    private readonly bulletMoves: MoveOptions = {};
    private frame = 0;
    private spawned = 0;
    private cooldown = 0;
    private jumpHeld = false;
    private pilotTarget = WIDTH / 2;
    private readonly totals = { moves: 0, carried: 0, turns: 0, landings: 0, lost: 0, jumps: 0, craters: 0 };

    constructor(options: PlatformerOptions) {
        if (!Number.isInteger(options.seed)) throw new RangeError(`seed must be an integer, got ${options.seed}.`);
        this.random = mulberry32(options.seed);
        this.move = options.move ?? moveAndSlide;
        this.onCarry = options.onCarry ?? null;
        this.crowd = options.walkers ?? 80;
        this.auto = options.auto ?? false;
        this.solid = this.raster.layer(TERRAIN);
        this.oneWay = this.raster.view((1 << LEDGES) | (1 << LIFTS));
        this.heroMoves = { stepUp: CLIMB, snapDown: CLIMB, oneWay: this.oneWay };
        this.walkerMoves = { stepUp: CLIMB, snapDown: CLIMB, oneWay: this.oneWay };
        this.carryMoves = { stepUp: 0, snapDown: 0, oneWay: this.oneWay };
        this.build();
        this.hero = this.mover('hero', SHAPES.hero, 90, HATCH_Y + 20, 1);
    }

    /** Carves a crater of radius 10 centred on (x, y) out of the terrain (a click, a bullet); the side walls stay. */
    carve(x: number, y: number): void {
        this.raster.erase(this.crater, Math.floor(x) - CRATER, Math.floor(y) - CRATER, { layer: TERRAIN });
        this.raster.stamp(this.walls, 0, 0, { layer: TERRAIN }).stamp(this.walls, WIDTH - 6, 0, { layer: TERRAIN });
        this.totals.craters++;
        this.terrainVersion++;
    }

    /** Advances one fixed step (1/60 s) in the order given at the top of this file. */
    step(input: PlatformerInput = { left: false, right: false, jump: false, down: false, fire: false }): void {
        this.frame++;
        this.moveLifts();
        this.carry();
        this.moveHero(this.auto ? this.pilot() : input);
        if (this.spawned < this.crowd && this.frame % HATCH_EVERY === 1) {
            const shape = SHAPES.walkers[this.spawned % SHAPES.walkers.length];
            this.walkers.push(this.mover('walker', shape, HATCH_X, HATCH_Y, this.random() < 0.5 ? -1 : 1));
            this.spawned++;
        }
        for (const w of this.walkers) this.moveWalker(w);
        for (const b of this.bullets) this.moveBullet(b);
        compact(this.bullets);
        for (const a of this.movers()) a.lift = a.alive && a.onFloor ? this.liftUnder(a) : null;
    }

    /** The character, the walkers and the bullets. */
    *movers(): IterableIterator<Mover> {
        yield this.hero;
        yield* this.walkers;
        yield* this.bullets;
    }

    /** The lift `a` stands on: its top one pixel below the mask, which does not overlap it yet. */
    liftUnder(a: Mover): Lift | null {
        const px = Math.floor(a.x),
            py = Math.floor(a.y);
        for (const l of this.lifts) {
            if (a.mask.overlaps(l.mask, l.x - px, l.y - py - 1) && !a.mask.overlaps(l.mask, l.x - px, l.y - py))
                return l;
        }
        return null;
    }

    /** Counters for the HUD and the tests. */
    stats(): PlatformerStats {
        let h = 0x811c9dc5;
        for (const a of this.movers())
            for (const v of [Math.floor(a.x), Math.floor(a.y)]) h = Math.imul(h ^ (v & 0xffff), 16777619) >>> 0;
        return {
            frame: this.frame,
            walkers: this.walkers.length,
            ...this.totals,
            terrain: this.raster.plane(TERRAIN).count(),
            checksum: h
        };
    }

    // --- the level -------------------------------------------------------------------------------

    // Ground heights left to right: seeded slopes (1, 1/2, 1/3 px per px), stairs of 2-3 px steps and walls,
    // a bottomless pit that a lift crosses, a shaft with a lift up to a plateau; ledges and two floating blocks.
    private build(): void {
        const R = this.random,
            top = new Int32Array(WIDTH).fill(HEIGHT);
        let h = 420;
        const walk = (x0: number, x1: number) => {
            for (let x = x0; x < x1;) {
                const kind = R(),
                    len = Math.min(x1 - x, 24 + Math.floor(R() * 50)),
                    dir = h > 440 ? -1 : h < 320 ? 1 : R() < 0.5 ? -1 : 1;
                const run = 1 + Math.floor(R() * 3),
                    step = 2 + Math.floor(R() * 2),
                    wall = 10 + Math.floor(R() * 14);
                for (let i = 0; i < len; i++, x++) {
                    // Flat, a slope of 1 px every `run` px, stairs of `step` px every 6 px, or a wall at the start.
                    if (kind < 0.25) {
                        /* flat */
                    } else if (kind < 0.6) {
                        if (i % run === 0) h += dir;
                    } else if (kind < 0.85) {
                        if (i % 6 === 5) h += dir * step;
                    } else if (i === 0) h += dir * wall;
                    top[x] = h;
                }
            }
        };
        walk(6, 360);
        const ground = h;
        top.fill(ground, 360, 430);
        // 430..560: the pit, no ground down to the bottom. The lift crosses it at ground level.
        top.fill(ground, 560, 580);
        h = ground;
        walk(580, 700);
        const low = h;
        top.fill(low, 700, 760);
        // The lift's shaft: its floor 3 px below the left ground, so a walker that fell in climbs out.
        top.fill(low + 3, 760, 808);
        h = low - 120;
        walk(808, WIDTH - 6);
        top.fill(0, 0, 6);
        top.fill(0, WIDTH - 6, WIDTH);
        const land = new Mask(WIDTH, HEIGHT);
        for (let x = 0; x < WIDTH; x++) for (let y = top[x]; y < HEIGHT; y++) land.set(x, y);
        // Two floating blocks (ceilings to bump into, roofs to land on).
        for (const bx of [150 + Math.floor(R() * 60), 600 + Math.floor(R() * 40)]) {
            const under = Math.min(...top.subarray(bx, bx + 64));
            land.draw(new Mask(64, 14, true), bx, under - 70);
        }
        this.raster.stamp(land, 0, 0, { layer: TERRAIN });
        // One-way ledges, 3 px thick, well above the ground under them.
        for (const [x, w, up] of [
            [60, 70, 50],
            [200, 80, 110],
            [300, 60, 55],
            [580, 90, 60],
            [850, 70, 55]
        ]) {
            const under = Math.min(...top.subarray(x, x + w));
            this.raster.stamp(new Mask(w, 3, true), x, under - up - Math.floor(R() * 15), { layer: LEDGES });
        }
        this.lifts.push({
            mask: SHAPES.lift,
            x: 430,
            y: ground,
            dx: 0,
            dy: 0,
            axis: 'x',
            from: 430,
            to: 560 - 48,
            dir: 1
        });
        this.lifts.push({
            mask: SHAPES.lift,
            x: 760,
            y: low,
            dx: 0,
            dy: 0,
            axis: 'y',
            from: low - 120,
            to: low,
            dir: -1
        });
        this.drawLifts();
    }

    private mover(kind: Mover['kind'], mask: Mask, x: number, y: number, dir: number): Mover {
        return { kind, mask, x, y, vx: 0, vy: 0, dir, onFloor: false, lift: null, alive: true };
    }

    private drawLifts(): void {
        this.raster.clear(LIFTS);
        for (const l of this.lifts) this.raster.stamp(l.mask, l.x, l.y, { layer: LIFTS });
    }

    // --- a step ----------------------------------------------------------------------------------

    private moveLifts(): void {
        for (const l of this.lifts) {
            const at = l.axis === 'x' ? l.x : l.y;
            if ((l.dir > 0 && at >= l.to) || (l.dir < 0 && at <= l.from)) l.dir = -l.dir;
            l.dx = l.axis === 'x' ? l.dir : 0;
            l.dy = l.axis === 'y' ? l.dir : 0;
            l.x += l.dx;
            l.y += l.dy;
        }
        this.drawLifts();
    }

    private carry(): void {
        const c = this.carried;
        for (const a of this.movers()) {
            const l = a.lift;
            if (!a.alive || l === null) continue;
            c.mover = a;
            c.lift = l;
            c.x = a.x;
            c.y = a.y;
            c.result = this.call(a, l.dx, l.dy, this.carryMoves);
            this.totals.carried++;
            if (this.onCarry) this.onCarry(c);
        }
    }

    // Moves `a` by (dx, dy) with moveAndSlide and takes its answer.
    private call(a: Mover, dx: number, dy: number, options: MoveOptions): MoveResult {
        const r = this.move(this.solid, a.mask, a.x, a.y, dx, dy, options, RESULT);
        this.totals.moves++;
        a.x = r.x;
        a.y = r.y;
        a.onFloor = r.onFloor;
        return r;
    }

    private moveHero(input: PlatformerInput): void {
        const p = this.hero;
        if (this.cooldown > 0) this.cooldown--;
        p.vx = (input.right ? RUN : 0) - (input.left ? RUN : 0);
        if (p.vx !== 0) p.dir = p.vx > 0 ? 1 : -1;
        if (input.jump && (this.auto || !this.jumpHeld) && p.onFloor) {
            p.vy = JUMP;
            this.totals.jumps++;
        }
        this.jumpHeld = input.jump;
        const r = this.call(p, p.vx, p.vy, input.down && p.onFloor ? this.dropMoves : this.heroMoves);
        this.fall(p, r);
        if (input.fire && this.cooldown === 0) {
            this.cooldown = 12;
            const b = this.mover(
                'bullet',
                SHAPES.bullet,
                p.dir > 0 ? p.x + p.mask.width : p.x - SHAPES.bullet.width,
                p.y + 5,
                p.dir
            );
            // A bullet that would start inside the terrain hits it at once.
            if (this.solid.overlaps(b.mask, Math.floor(b.x), Math.floor(b.y))) this.carve(b.x + 2, b.y + 1);
            else this.bullets.push(b);
        }
        if (p.y > HEIGHT) {
            p.x = 90;
            p.y = HATCH_Y + 20;
            p.vy = 0;
        }
    }

    private moveWalker(w: Mover): void {
        const wasFalling = !w.onFloor && w.vy > 2;
        const r = this.call(w, w.dir * WALK, w.vy, this.walkerMoves);
        if (r.onWall) {
            w.dir = -w.dir;
            this.totals.turns++;
        }
        if (r.onFloor && wasFalling) this.totals.landings++;
        this.fall(w, r);
        if (w.y > HEIGHT) {
            // Lost through the pit: back to the hatch.
            this.totals.lost++;
            w.x = HATCH_X;
            w.y = HATCH_Y;
            w.vy = 0;
            w.onFloor = false;
        }
    }

    private moveBullet(b: Mover): void {
        const r = this.call(b, b.dir * BULLET, 0, this.bulletMoves);
        if (r.onWall) {
            // The crater is centred on the terrain pixel the bullet's front met.
            this.carve(b.dir > 0 ? r.x + b.mask.width : r.x - 1, r.y + 1);
            b.alive = false;
        } else if (b.x < -8 || b.x > WIDTH + 8) b.alive = false;
    }

    // Gravity: standing stops the fall (dy 0 while on the ground), a ceiling stops a jump.
    private fall(a: Mover, r: MoveResult): void {
        if (r.onFloor) a.vy = 0;
        else a.vy = Math.min(a.vy + GRAVITY, MAX_FALL);
        if (r.onCeiling && a.vy < 0) a.vy = 0;
    }

    // The built-in player: runs to a target that changes now and then, jumps at walls and now and then,
    // drops through ledges, and shoots.
    private pilot(): PlatformerInput {
        const p = this.hero,
            R = this.random;
        if (this.frame % 150 === 1) this.pilotTarget = 20 + R() * (WIDTH - 40);
        const left = this.pilotTarget < p.x - 4,
            right = this.pilotTarget > p.x + 4;
        const blocked =
            p.onFloor &&
            (left || right) &&
            this.solid.overlaps(p.mask, Math.floor(p.x) + (right ? 4 : -4), Math.floor(p.y) - CLIMB);
        return { left, right, jump: blocked || R() < 1 / 70, down: R() < 1 / 120, fire: R() < 1 / 25 };
    }
}

// The result object every move writes into (the scene reads it before the next move).
const RESULT: MoveResult = { x: 0, y: 0, onFloor: false, onCeiling: false, onWall: false, floor: null };

function compact(list: Mover[]): void {
    let n = 0;
    for (const v of list) if (v.alive) list[n++] = v;
    list.length = n;
}
