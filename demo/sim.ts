// The demo's game simulation, free of the DOM so that the page and the Node tests run the same code:
// a seeded, fixed-timestep shoot'em-up on two hitmask Worlds (pixel masks, and plain boxes for comparison).
import {
    type Body,
    CollisionRaster,
    type Contact,
    crop,
    Mask,
    MaskAtlas,
    type Rect,
    trim,
    World,
    type WorldRayHit
} from '../src/index.js';
import { mulberry32 } from './random.js';

/** Which collisions drive the game: plain bounding boxes or pixel-exact masks. */
export type Mode = 'box' | 'pixel';

/** What a sprite is. */
export type Kind = 'player' | 'alien' | 'shot' | 'bomb' | 'debris' | 'terrain';

/** Options of {@link DemoSim}. */
export interface SimOptions {
    /** PRNG seed; the same seed, options and inputs give the same game. */
    seed: number;
    mode: Mode;
    /** Extra drifting bullets for the stress mode (0: none). */
    stress: number;
    /** Let the built-in pilot fly the ship. */
    auto: boolean;
}

/** Keys held during one step. */
export interface Input {
    left: boolean;
    right: boolean;
    fire: boolean;
}

/** A sprite of the game; the page draws `frame` at (⌊x⌋, ⌊y⌋). */
export interface Actor {
    readonly id: number;
    readonly kind: Kind;
    frame: string;
    x: number;
    y: number;
    vx: number;
    vy: number;
    width: number;
    height: number;
    alive: boolean;
    /** Frames since spawned. */
    age: number;
    /** Mirror the image (the ship faces where it last moved). */
    flip: boolean;
    /** Pixel-exact body and box body; null for the terrain. */
    body: Body<Actor> | null;
    boxBody: Body<Actor> | null;
}

/** A short-lived explosion image. */
export interface Blast {
    x: number;
    y: number;
    age: number;
    /** Drawn size relative to explosion1 (1 = 90 px). */
    scale: number;
}

/** A collision remembered for the debug overlay and the near-miss highlight. */
export interface Mark {
    /** Where the two boxes met. */
    zone: Rect;
    /** The sprites' boxes (one for a sprite against the terrain). */
    boxes: Rect[];
    /** Pixels set in both (empty for a near miss), top-left at (x, y). */
    overlap: Mask;
    x: number;
    y: number;
    /** Contact from `world.contact` (pixel hits only). */
    contact: Contact | null;
    /** Boxes met but no pixel did. */
    near: boolean;
    age: number;
}

/** The ship's laser sight: from the gun straight up to the first pixel it meets (aliens, bombs, bunkers). */
export interface Laser {
    x0: number;
    y0: number;
    x1: number;
    y1: number;
    /** From `world.raycast`; `null` when the beam reaches the top. */
    hit: WorldRayHit<Actor> | null;
}

/** Counters since the start. */
export interface Totals {
    /** Pairs whose boxes overlapped, summed over steps. */
    boxPairs: number;
    /** Pairs whose pixels overlapped, summed over steps. */
    pixelPairs: number;
    /** Box pairs whose pixels did not touch, summed over steps. */
    nearMisses: number;
    kills: number;
    playerHits: number;
    intercepts: number;
    craters: number;
    shotsFired: number;
    bombsDropped: number;
}

/** What the HUD shows and the tests compare. */
export interface SimStats {
    frame: number;
    mode: Mode;
    seed: number;
    /** Live sprites (bodies), terrain not counted. */
    sprites: number;
    /** Pairs reported by the active World in the last step. */
    pairs: number;
    /** Box pairs, pixel pairs and near misses of the last step. */
    boxPairs: number;
    pixelPairs: number;
    nearMisses: number;
    totals: Totals;
    /** Solid terrain pixels left. */
    terrain: number;
    /** Hash of every sprite's kind and floored position: equal in two runs only if they stayed identical. */
    checksum: number;
    /** Collision time of the last step and its moving average, in ms (never compared in tests). */
    collisionMs: number;
    collisionAvgMs: number;
}

/** The stats without the timings: what two runs of the same scene must agree on. */
export function withoutTimings(s: SimStats): Omit<SimStats, 'collisionMs' | 'collisionAvgMs'> {
    const out: Partial<SimStats> = { ...s };
    delete out.collisionMs;
    delete out.collisionAvgMs;
    return out as Omit<SimStats, 'collisionMs' | 'collisionAvgMs'>;
}

/** Frame names the game reads from the atlas. */
export const FRAMES = ['player1', 'alien1', 'alien2', 'alien3', 'shot', 'bomb', 'explosion1'] as const;

const PLAYER = 1,
    ALIEN = 2,
    SHOT = 4,
    BOMB = 8,
    TERRAIN = 16,
    DEBRIS = 32;
const CATEGORY: Record<Kind, number> = {
    player: PLAYER,
    alien: ALIEN,
    shot: SHOT,
    bomb: BOMB,
    terrain: TERRAIN,
    debris: DEBRIS
};
// Who hits whom. Stress bullets touch everything except each other, like bullets in a bullet-hell game.
const COLLIDES: Record<Kind, number> = {
    player: BOMB | DEBRIS,
    alien: SHOT | DEBRIS,
    shot: ALIEN | BOMB | TERRAIN | DEBRIS,
    bomb: PLAYER | SHOT | TERRAIN | DEBRIS,
    terrain: SHOT | BOMB | DEBRIS,
    debris: PLAYER | ALIEN | SHOT | BOMB | TERRAIN
};

const MAX_ALIENS = 6,
    MAX_SHOTS = 4,
    SHOT_SPEED = 7,
    BOMB_SPEED = 3,
    FIRE_DELAY = 10,
    BLAST_FRAMES = 24,
    MARK_FRAMES = 30;
const CRATER_RADIUS = 7,
    MAX_MARKS = 2000;
// What the laser sight stops at: not the ship itself, nor its own shots.
const LASER_STOPS = { filter: ALIEN | BOMB | TERRAIN | DEBRIS };
const EMPTY = new Mask(0, 0);

/** mulberry32: a tiny seeded PRNG with a 2^32 state, identical in every JavaScript engine (demo/random.ts). */
export const rng = mulberry32;

/** Playfield size: 640×480, twice that in stress mode. */
export function fieldSize(stress: number): { width: number; height: number } {
    return stress > 0 ? { width: 1280, height: 960 } : { width: 640, height: 480 };
}

/** A bunker: a dome with an arch cut out underneath, as a mask. */
export function bunkerMask(width: number, height: number): Mask {
    const m = new Mask(width, height);
    const cx = (width - 1) / 2;
    for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
            const dx = (x - cx) / (width / 2),
                dy = (height - y) / height;
            const dome = dx * dx + dy * dy * 0.8 <= 1;
            const ax = (x - cx) / (width * 0.22),
                ay = (height - y) / (height * 0.45);
            const arch = ax * ax + ay * ay < 1;
            if (dome && !arch) m.set(x, y);
        }
    }
    return m;
}

function disc(r: number): Mask {
    const m = new Mask(2 * r + 1, 2 * r + 1);
    for (let y = -r; y <= r; y++) for (let x = -r; x <= r; x++) if (x * x + y * y <= r * r + r) m.set(x + r, y + r);
    return m;
}

/** The game. Call {@link step} 60 times per simulated second; read sprites, blasts, marks and stats to draw. */
export class DemoSim {
    readonly options: SimOptions;
    readonly width: number;
    readonly height: number;
    /** Pixel-exact world: real masks from the atlas. */
    readonly world = new World<Actor>();
    /** The same sprites as plain rectangles: what a bounding-box engine would report. */
    readonly boxWorld = new World<Actor>();
    private readonly boxPairs: Body<Actor>[] = [];
    /** Destructible terrain: one raster layer shared by both worlds. */
    readonly raster: CollisionRaster;
    readonly terrain: Actor;
    readonly actors: Actor[] = [];
    readonly blasts: Blast[] = [];
    readonly marks: Mark[] = [];
    /** Bumped whenever the terrain changes (the page redraws it then). */
    terrainVersion = 0;
    mode: Mode;
    player: Actor;
    /** Frames left during which the ship cannot be hit again (it blinks). */
    invulnerable = 0;
    /** The laser sight after the last step (drawing only: it never changes the game). */
    readonly laser: Laser;

    private readonly atlas: MaskAtlas;
    private readonly boxes = new Map<string, Mask>();
    private readonly crater = disc(CRATER_RADIUS);
    // A shot's path from the ship to the top, for the pilot's line of fire.
    private readonly column: Mask;
    private readonly random: () => number;
    private frame = 0;
    private nextId = 1;
    private cooldown = 0;
    private lastPairs = 0;
    private lastBox = 0;
    private lastPixel = 0;
    private lastNear = 0;
    private ms = 0;
    private avgMs = 0;
    /** Time of the last step's World.step calls, in ms: the pixel world and the box world (the HUD's split). */
    readonly worldMs = { pixel: 0, box: 0 };
    private readonly totals: Totals = {
        boxPairs: 0,
        pixelPairs: 0,
        nearMisses: 0,
        kills: 0,
        playerHits: 0,
        intercepts: 0,
        craters: 0,
        shotsFired: 0,
        bombsDropped: 0
    };
    private readonly terrainBody: Body<Actor>;
    private readonly laserHit: WorldRayHit<Actor> = {
        px: 0,
        py: 0,
        x: 0,
        y: 0,
        distance: 0,
        nx: 0,
        ny: 0,
        body: null as unknown as Body<Actor>
    };

    constructor(atlas: MaskAtlas, options: SimOptions) {
        for (const f of FRAMES)
            if (!atlas.has(f))
                throw new Error(`The demo atlas has no frame ${JSON.stringify(f)}; it has ${atlas.names.join(', ')}.`);
        this.atlas = atlas;
        this.options = { ...options };
        this.mode = options.mode;
        this.random = rng(options.seed);
        ({ width: this.width, height: this.height } = fieldSize(options.stress));
        this.raster = new CollisionRaster(this.width, this.height);
        const bunker = bunkerMask(96, 44),
            count = Math.round(this.width / 160);
        for (let i = 0; i < count; i++) {
            this.raster.stamp(
                bunker,
                Math.round(((i + 0.5) * this.width) / count - bunker.width / 2),
                this.height - 150
            );
        }
        this.terrain = {
            id: 0,
            kind: 'terrain',
            frame: '',
            x: 0,
            y: 0,
            vx: 0,
            vy: 0,
            width: this.width,
            height: this.height,
            alive: true,
            age: 0,
            flip: false,
            body: null,
            boxBody: null
        };
        const layer = { category: TERRAIN, collidesWith: COLLIDES.terrain, data: this.terrain };
        this.terrainBody = this.world.addLayer(this.raster.layer(0), layer);
        this.boxWorld.addLayer(this.raster.layer(0), layer);
        // 'stay' too: a pair that began while the other world was in charge still counts after a mode switch.
        // The box pairs of a step, for analyse(): begin and stay together see every current pair once, in pair
        // order; this listener comes first, so it records a pair before any reaction removes its bodies.
        for (const e of ['begin', 'stay'] as const)
            this.boxWorld.on(e, (a, b) => {
                this.boxPairs.push(a, b);
            });
        for (const w of [this.world, this.boxWorld])
            for (const e of ['begin', 'stay'] as const) w.on(e, (a, b) => this.hit(w, a, b));
        this.column = new Mask(9, this.height - 70, true);
        this.player = this.spawn('player', 'player1', (this.width - 90) / 2, this.height - 65, 0, 0);
        this.laser = { x0: 0, y0: 0, x1: 0, y1: 0, hit: null };
        for (let i = 0; i < options.stress; i++) {
            const kind = this.random() < 0.5 ? 'shot' : 'bomb';
            const speed = 0.5 + this.random() * 2,
                angle = this.random() * 2 * Math.PI;
            this.spawn(
                'debris',
                kind,
                this.random() * (this.width - 16),
                this.random() * (this.height - 200),
                speed * Math.cos(angle),
                speed * Math.sin(angle)
            );
        }
        this.aim();
    }

    /** The mask a body uses in the pixel world. */
    mask(frame: string): Mask {
        return this.atlas.get(frame);
    }

    /** Switches between box and pixel collisions (both worlds keep running, so this is instant). */
    setMode(mode: Mode): void {
        if (mode !== 'box' && mode !== 'pixel')
            throw new Error(`mode must be "box" or "pixel", got ${JSON.stringify(mode)}.`);
        this.mode = mode;
    }

    /** Advances one fixed step (1/60 s): move, spawn, collide, react. `now` times the collision step. */
    step(input: Input = { left: false, right: false, fire: false }, now: () => number = () => 0): void {
        this.frame++;
        this.update(this.options.auto ? this.pilot() : input);
        // Box pairs first (the comparison), then the pixel world. Only the active world's events act.
        let t0 = now();
        this.boxPairs.length = 0;
        const nb = this.boxWorld.step();
        this.worldMs.box = now() - t0;
        this.analyse();
        t0 = now();
        const np = this.world.step();
        this.worldMs.pixel = now() - t0;
        this.ms = this.mode === 'pixel' ? this.worldMs.pixel : this.worldMs.box;
        this.lastPairs = this.mode === 'pixel' ? np : nb;
        this.avgMs = this.frame === 1 ? this.ms : this.avgMs * 0.95 + this.ms * 0.05;
        this.sweep();
        this.aim();
    }

    // The laser from the gun (where shots leave, through the middle of the 9 px shot) straight up, one allocation-free ray.
    private aim(): void {
        const p = this.player,
            l = this.laser,
            shot = this.atlas.frame('shot');
        l.x0 = l.x1 = Math.floor(p.x) + (p.flip ? 58 : 23) + shot.sourceWidth / 2;
        l.y0 = Math.floor(p.y);
        l.y1 = 0;
        l.hit = this.world.raycast(l.x0, l.y0, l.x1, l.y1, LASER_STOPS, this.laserHit);
    }

    /** Counters for the HUD and the tests. */
    stats(): SimStats {
        let h = 0x811c9dc5,
            sprites = 0;
        for (const a of this.actors) {
            if (!a.alive) continue;
            sprites++;
            for (const v of [CATEGORY[a.kind], Math.floor(a.x), Math.floor(a.y)])
                h = Math.imul(h ^ (v & 0xffff), 16777619) >>> 0;
        }
        return {
            frame: this.frame,
            mode: this.mode,
            seed: this.options.seed,
            sprites,
            pairs: this.lastPairs,
            boxPairs: this.lastBox,
            pixelPairs: this.lastPixel,
            nearMisses: this.lastNear,
            totals: { ...this.totals },
            terrain: this.raster.plane(0).count(),
            checksum: h,
            collisionMs: this.ms,
            collisionAvgMs: this.avgMs
        };
    }

    // --- game ------------------------------------------------------------------------------------

    private spawn(kind: Kind, frame: string, x: number, y: number, vx: number, vy: number): Actor {
        const f = this.atlas.frame(frame);
        const a: Actor = {
            id: this.nextId++,
            kind,
            frame,
            x,
            y,
            vx,
            vy,
            width: f.sourceWidth,
            height: f.sourceHeight,
            alive: true,
            age: 0,
            flip: false,
            body: null,
            boxBody: null
        };
        const filter = { category: CATEGORY[kind], collidesWith: COLLIDES[kind], data: a };
        a.body = this.world.add({ ...filter, x: x + f.x, y: y + f.y, mask: f.mask });
        a.boxBody = this.boxWorld.add({ ...filter, x, y, mask: this.box(f.sourceWidth, f.sourceHeight) });
        this.actors.push(a);
        return a;
    }

    private box(w: number, h: number): Mask {
        const key = `${w}x${h}`;
        let m = this.boxes.get(key);
        if (!m) this.boxes.set(key, (m = new Mask(w, h, true)));
        return m;
    }

    private kill(a: Actor): void {
        if (!a.alive || a.kind === 'terrain') return;
        a.alive = false;
        if (a.body) this.world.remove(a.body);
        if (a.boxBody) this.boxWorld.remove(a.boxBody);
    }

    private moveTo(a: Actor, x: number, y: number): void {
        a.x = x;
        a.y = y;
        const f = this.atlas.frame(a.frame);
        this.world.move(a.body as Body<Actor>, x + f.x, y + f.y);
        this.boxWorld.move(a.boxBody as Body<Actor>, x, y);
    }

    private setFrame(a: Actor, frame: string): void {
        if (a.frame === frame) return;
        a.frame = frame;
        const f = this.atlas.frame(frame);
        this.world.setMask(a.body as Body<Actor>, f.mask);
        this.moveTo(a, a.x, a.y);
    }

    // The built-in pilot: follow the lowest alien, fire when one is above, step away from bombs about to land.
    private pilot(): Input {
        const p = this.player,
            cx = p.x + p.width / 2;
        let target = -1,
            best = -Infinity;
        for (const a of this.actors) {
            if (a.alive && a.kind === 'alien' && a.y > best) {
                best = a.y;
                target = a.x + a.width / 2 + a.vx * 12;
            }
        }
        let dodge = 0;
        for (const b of this.actors) {
            if (!b.alive || b.kind !== 'bomb' || b.y < p.y - 80 || b.y > p.y) continue;
            const bx = b.x + b.width / 2;
            if (Math.abs(bx - cx) < 50) dodge = bx < cx ? 1 : -1;
        }
        const want = dodge !== 0 ? cx + dodge * 40 : target < 0 ? this.width / 2 : target;
        // Shoot through gaps between bunkers; dig through one only now and then.
        const sx = p.x + (p.flip ? 58 : 23),
            clear = !this.raster.overlaps(this.column, sx, 0);
        const fire = target >= 0 && Math.abs(target - cx) < 40 && (clear || this.frame % 45 === 0);
        return { left: want < cx - 3, right: want > cx + 3, fire };
    }

    private update(input: Input): void {
        const p = this.player,
            R = this.random;
        if (this.cooldown > 0) this.cooldown--;
        if (this.invulnerable > 0) this.invulnerable--;
        const vx = (input.right ? 4 : 0) - (input.left ? 4 : 0);
        if (vx !== 0) p.flip = vx > 0;
        this.moveTo(p, Math.max(0, Math.min(this.width - p.width, p.x + vx)), p.y);
        let shots = 0,
            aliens = 0;
        for (const a of this.actors) {
            if (!a.alive) continue;
            if (a.kind === 'shot') shots++;
            else if (a.kind === 'alien') aliens++;
        }
        if (input.fire && this.cooldown === 0 && shots < MAX_SHOTS) {
            this.spawn('shot', 'shot', p.x + (p.flip ? 58 : 23), p.y - 14, 0, -SHOT_SPEED);
            this.cooldown = FIRE_DELAY;
            this.totals.shotsFired++;
        }
        if (aliens < MAX_ALIENS && this.frame % 40 === 1) {
            const left = R() < 0.5;
            this.spawn(
                'alien',
                'alien1',
                left ? -79 : this.width - 1,
                10 + Math.floor(R() * 3) * 75,
                (left ? 1 : -1) * (1.5 + R() * 1.5),
                0
            );
        }
        for (const a of this.actors) {
            if (!a.alive || a === p) continue;
            a.age++;
            let x = a.x + a.vx,
                y = a.y + a.vy;
            if (a.kind === 'alien') {
                // Bounce off the edges one row lower; back to the top once low enough.
                if ((x < 0 && a.vx < 0) || (x > this.width - a.width && a.vx > 0)) {
                    a.vx = -a.vx;
                    y += 24;
                    if (y > this.height - 280) y = 10;
                }
                this.setFrame(a, `alien${1 + (Math.floor(a.age / 8) % 3)}`);
                if (R() < 1 / 80) {
                    this.spawn('bomb', 'bomb', a.x + a.width / 2 - 8, a.y + a.height - 10, 0, BOMB_SPEED);
                    this.totals.bombsDropped++;
                }
            } else if (a.kind === 'debris') {
                if (x < 0 || x > this.width - a.width) {
                    a.vx = -a.vx;
                    x = a.x + a.vx;
                }
                if (y < 0 || y > this.height - a.height) {
                    a.vy = -a.vy;
                    y = a.y + a.vy;
                }
            } else if (y < -a.height || y > this.height) {
                this.kill(a);
                continue;
            }
            this.moveTo(a, x, y);
        }
        for (const b of this.blasts) b.age++;
        for (const m of this.marks) m.age++;
    }

    // Compares the box pairs of this step with their pixels: pixel pairs, and near misses (boxes only).
    private analyse(): void {
        let pixel = 0,
            near = 0;
        const pairs = this.boxPairs,
            n = pairs.length / 2;
        for (let i = 0; i < n; i++) {
            const a = pairs[2 * i].data,
                b = pairs[2 * i + 1].data;
            const ma = this.mask(a.frame),
                fa = this.atlas.frame(a.frame);
            const ax = Math.floor(a.x) + fa.x,
                ay = Math.floor(a.y) + fa.y;
            let touches: boolean;
            if (b.kind === 'terrain') touches = this.raster.overlaps(ma, ax, ay);
            else {
                const fb = this.atlas.frame(b.frame);
                touches = ma.overlaps(this.mask(b.frame), Math.floor(b.x) + fb.x - ax, Math.floor(b.y) + fb.y - ay);
            }
            if (touches) {
                pixel++;
                continue;
            }
            near++;
            // Against the terrain (a layer as big as the field) the zone is the sprite's own box.
            if (this.marks.length < MAX_MARKS) {
                const zone = boxZone(a, b.kind === 'terrain' ? a : b);
                const boxes = b.kind === 'terrain' ? [boxOf(a)] : [boxOf(a), boxOf(b)];
                if (zone)
                    this.marks.push({
                        zone,
                        boxes,
                        overlap: EMPTY,
                        x: zone.x,
                        y: zone.y,
                        contact: null,
                        near: true,
                        age: 0
                    });
            }
        }
        this.lastBox = n;
        this.lastPixel = pixel;
        this.lastNear = near;
        this.totals.boxPairs += n;
        this.totals.pixelPairs += pixel;
        this.totals.nearMisses += near;
    }

    // A new pair in a world: the game reacts only to the active world's pairs.
    private hit(w: World<Actor>, ba: Body<Actor>, bb: Body<Actor>): void {
        if ((w === this.world) !== (this.mode === 'pixel')) return;
        const a = ba.data,
            b = bb.data;
        if (!a.alive || !b.alive) return;
        const kinds = `${a.kind}-${b.kind}`;
        // The mark is kept only while there is room for it, and its contact is read only by craters: skip
        // building it otherwise (most stress-mode hits once the marks are full: pixel World.step 7.7 → 2.3 ms).
        const mark =
            this.marks.length < MAX_MARKS || kinds === 'shot-terrain' || kinds === 'bomb-terrain'
                ? this.mark(ba, bb)
                : null;
        switch (kinds) {
            case 'alien-shot':
            case 'shot-alien': {
                const alien = a.kind === 'alien' ? a : b;
                this.kill(a);
                this.kill(b);
                this.blasts.push({ x: alien.x + alien.width / 2, y: alien.y + alien.height / 2, age: 0, scale: 1 });
                this.totals.kills++;
                break;
            }
            case 'player-bomb':
            case 'bomb-player': {
                const bomb = a.kind === 'bomb' ? a : b;
                this.kill(bomb);
                if (this.invulnerable === 0) {
                    this.totals.playerHits++;
                    this.invulnerable = 60;
                    this.blasts.push({
                        x: this.player.x + this.player.width / 2,
                        y: this.player.y + this.player.height / 2,
                        age: 0,
                        scale: 0.8
                    });
                }
                break;
            }
            case 'shot-bomb':
            case 'bomb-shot':
                this.kill(a);
                this.kill(b);
                this.blasts.push({ x: (a.x + b.x) / 2 + 6, y: (a.y + b.y) / 2 + 10, age: 0, scale: 0.4 });
                this.totals.intercepts++;
                break;
            case 'shot-terrain':
            case 'bomb-terrain': {
                // Crater centred on the first pixel hit (the contact point).
                const contact = (mark as Mark).contact;
                const cx = contact ? contact.x : a.x + a.width / 2,
                    cy = contact ? contact.y : a.y + a.height / 2;
                this.raster.erase(this.crater, cx - CRATER_RADIUS, cy - CRATER_RADIUS);
                this.terrainVersion++;
                this.kill(a);
                this.blasts.push({ x: cx, y: cy, age: 0, scale: 0.3 });
                this.totals.craters++;
                break;
            }
            default:
                // Stress bullets only count: they drift through everything.
                break;
        }
    }

    // Records a hit for the debug overlay: zone, overlapping pixels and contact, before the bodies go.
    private mark(ba: Body<Actor>, bb: Body<Actor>): Mark {
        const a = ba.data,
            b = bb.data;
        const ma = this.mask(a.frame),
            fa = this.atlas.frame(a.frame);
        const ax = Math.floor(a.x) + fa.x,
            ay = Math.floor(a.y) + fa.y;
        let both: Mask;
        if (b.kind === 'terrain') both = crop(this.raster.plane(0), ax, ay, ma.width, ma.height).overlapMask(ma, 0, 0);
        else {
            const fb = this.atlas.frame(b.frame);
            both = ma.overlapMask(this.mask(b.frame), Math.floor(b.x) + fb.x - ax, Math.floor(b.y) + fb.y - ay);
        }
        const t = trim(both);
        const contact =
            t.mask.width > 0
                ? this.world.contact(
                      a.body as Body<Actor>,
                      b.kind === 'terrain' ? this.terrainBody : (b.body as Body<Actor>)
                  )
                : null;
        const zone = boxZone(a, b.kind === 'terrain' ? a : b) ?? { x: ax, y: ay, width: 0, height: 0 };
        const m: Mark = {
            zone,
            boxes: [],
            overlap: t.mask,
            x: ax + t.x,
            y: ay + t.y,
            contact,
            near: t.mask.width === 0,
            age: 0
        };
        // In box mode the hit of a near miss is already marked by analyse(); keep one mark per pair.
        if (!m.near && this.marks.length < MAX_MARKS) this.marks.push(m);
        return m;
    }

    // Drops dead actors, old blasts and old marks.
    private sweep(): void {
        compact(this.actors, a => a.alive);
        compact(this.blasts, b => b.age < BLAST_FRAMES);
        compact(this.marks, m => m.age < MARK_FRAMES);
    }
}

function boxOf(a: Actor): Rect {
    return { x: Math.floor(a.x), y: Math.floor(a.y), width: a.width, height: a.height };
}

function boxZone(
    a: { x: number; y: number; width: number; height: number },
    b: { x: number; y: number; width: number; height: number }
): Rect | null {
    const ax = Math.floor(a.x),
        ay = Math.floor(a.y),
        bx = Math.floor(b.x),
        by = Math.floor(b.y);
    const x0 = Math.max(ax, bx),
        y0 = Math.max(ay, by),
        x1 = Math.min(ax + a.width, bx + b.width),
        y1 = Math.min(ay + a.height, by + b.height);
    return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

function compact<T>(list: T[], keep: (v: T) => boolean): void {
    let n = 0;
    for (const v of list) if (keep(v)) list[n++] = v;
    list.length = n;
}
