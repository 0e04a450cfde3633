// @test slow
// TerrainChunks in the real engines (matter-js, planck, @dimforge/rapier2d-compat), one static body per chunk,
// replaced between steps with the lines docs/terrain.md shows: 200 balls resting across chunk borders stay within
// 0.5 px while 500 craters are carved elsewhere (some into the very chunks under them, which are rebuilt), and a
// ball rolling along a flat floor across 10 chunk borders never bounces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Matter from 'matter-js';
import * as planck from 'planck';
import RAPIER from '@dimforge/rapier2d-compat';
import { CollisionRaster, Mask } from '../src/index.js';
import { TerrainChunks, matterBody, rapierPoints, type ChunkSync } from '../src/shapes.js';
import { mulberry32 } from './reference.js';

const PPM = 32; // pixels per metre in Planck and Rapier
const DT = 1 / 60;

// One engine as the tests drive it: the chunks' bodies kept up to date, balls, steps, positions in pixels (y down).
interface Engine {
    apply(sync: ChunkSync): void;
    ball(x: number, y: number, r: number): number;
    push(i: number, vx: number): void;
    step(): void;
    at(i: number): { x: number; y: number; vy: number };
    bodies(): number;
}

function matterEngine(): Engine {
    const engine = Matter.Engine.create();
    const world = engine.world;
    const chunks = new Map<number, Matter.Body>();
    const balls: Matter.Body[] = [];
    return {
        // The lines of docs/terrain.md: one static body per chunk, replaced outside Engine.update.
        apply({ removed, changed }) {
            for (const id of removed) {
                Matter.Composite.remove(world, chunks.get(id)!);
                chunks.delete(id);
            }
            for (const { id, pieces } of changed) {
                const old = chunks.get(id);
                if (old) Matter.Composite.remove(world, old);
                const body = matterBody(Matter, pieces, { body: { isStatic: true, friction: 0.5 } });
                Matter.Composite.add(world, body);
                chunks.set(id, body);
            }
        },
        ball(x, y, r) {
            // 40 sides: Matter's circle of a few pixels has 10, which lift it 0.4 px (r(1/cos 18° − 1)) as it rolls.
            const b = Matter.Bodies.polygon(x, y, 40, r, { friction: 0.5, frictionAir: 0, restitution: 0 });
            Matter.Composite.add(world, b);
            return balls.push(b) - 1;
        },
        push(i, vx) {
            Matter.Body.setVelocity(balls[i], { x: vx / 60, y: balls[i].velocity.y });
        },
        step() {
            Matter.Engine.update(engine, 1000 / 60);
        },
        at(i) {
            const b = balls[i];
            return { x: b.position.x, y: b.position.y, vy: b.velocity.y * 60 };
        },
        bodies: () => chunks.size
    };
}

function planckEngine(): Engine {
    const world = new planck.World({ gravity: { x: 0, y: -10 } });
    const chunks = new Map<number, planck.Body>();
    const balls: planck.Body[] = [];
    return {
        apply({ removed, changed }) {
            for (const id of removed) {
                world.destroyBody(chunks.get(id)!);
                chunks.delete(id);
            }
            for (const { id, chains } of changed) {
                const old = chunks.get(id);
                if (old) world.destroyBody(old);
                const body = world.createBody({ type: 'static' });
                // Chains, not the convex pieces: a chain's ghost vertices let a body roll over the chunk seams.
                for (const c of chains) {
                    const vs: planck.Vec2Value[] = [];
                    for (let i = 0; i < c.length; i += 2) vs.push({ x: c[i] / PPM, y: -c[i + 1] / PPM });
                    const loop = c[0] === c[c.length - 2] && c[1] === c[c.length - 1];
                    if (loop) vs.pop();
                    const chain = new planck.Chain(vs, loop);
                    if (!loop) {
                        // Straight on past both ends: the neighbour chunk's chain starts where this one ends.
                        const [a, b, y, z] = [vs[0], vs[1], vs[vs.length - 2], vs[vs.length - 1]];
                        chain.setPrevVertex(planck.Vec2(2 * a.x - b.x, 2 * a.y - b.y));
                        chain.setNextVertex(planck.Vec2(2 * z.x - y.x, 2 * z.y - y.y));
                    }
                    body.createFixture(chain, { friction: 0.5 });
                }
                chunks.set(id, body);
            }
        },
        ball(x, y, r) {
            const b = world.createBody({ type: 'dynamic', position: { x: x / PPM, y: -y / PPM } });
            b.createFixture(new planck.Circle(r / PPM), { density: 1, friction: 0.5 });
            return balls.push(b) - 1;
        },
        push(i, vx) {
            balls[i].setLinearVelocity({ x: vx / PPM, y: balls[i].getLinearVelocity().y });
        },
        step() {
            world.step(DT);
        },
        at(i) {
            const p = balls[i].getPosition();
            return { x: p.x * PPM, y: -p.y * PPM, vy: -balls[i].getLinearVelocity().y * PPM };
        },
        bodies: () => chunks.size
    };
}

function rapierEngine(): Engine {
    const world = new RAPIER.World({ x: 0, y: -9.81 });
    const chunks = new Map<number, RAPIER.RigidBody>();
    const balls: RAPIER.RigidBody[] = [];
    return {
        apply({ removed, changed }) {
            for (const id of removed) {
                world.removeRigidBody(chunks.get(id)!);
                chunks.delete(id);
            }
            for (const { id, pieces } of changed) {
                const old = chunks.get(id);
                if (old) world.removeRigidBody(old);
                const body = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
                for (const pts of rapierPoints(pieces, { scale: PPM, flipY: true }))
                    world.createCollider(RAPIER.ColliderDesc.convexPolyline(pts)!.setFriction(0.5), body);
                chunks.set(id, body);
            }
        },
        ball(x, y, r) {
            const b = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(x / PPM, -y / PPM));
            world.createCollider(RAPIER.ColliderDesc.ball(r / PPM).setFriction(0.5), b);
            return balls.push(b) - 1;
        },
        push(i, vx) {
            balls[i].setLinvel({ x: vx / PPM, y: balls[i].linvel().y }, true);
        },
        step() {
            world.step();
        },
        at(i) {
            const p = balls[i].translation();
            return { x: p.x * PPM, y: -p.y * PPM, vy: -balls[i].linvel().y * PPM };
        },
        bodies: () => chunks.size
    };
}

function disc(r: number): Mask {
    const m = new Mask(2 * r + 1, 2 * r + 1);
    for (let y = 0; y <= 2 * r; y++)
        for (let x = 0; x <= 2 * r; x++) if ((x - r) ** 2 + (y - r) ** 2 <= r * r) m.set(x, y);
    return m;
}

// Each engine; whether a fifth of the craters may rebuild the chunks under resting balls (see below); whether a ball
// rolls over chunk seams without a bounce. Matter: a ball resting across a border on a rebuilt chunk creeps about
// 1 px over 100 rebuilds. Rapier: separate colliders catch a ball at their seam (6 px hops at 240 px/s), as two
// Rapier boxes side by side do; its polylines have no ghost vertices (docs/terrain.md).
const ENGINES: [string, () => Promise<Engine>, boolean, boolean][] = [
    ['matter', async () => matterEngine(), false, true],
    ['planck', async () => planckEngine(), true, true],
    [
        'rapier',
        async () => {
            await RAPIER.init();
            return rapierEngine();
        },
        true,
        false
    ]
];

// A 4096 × 512 map of 128 px chunks: a floor (top at y = 400) under 200 balls on the left half, with rock under
// it; hills on the right half, where most craters fall. A fifth of the craters are dug into the bottom of the
// chunks under the balls (20 px below the surface at least): those chunks are rebuilt under resting balls.
for (const [name, make, under, rolls] of ENGINES) {
    const what = under ? '500 craters are carved, 100 into the chunks under them' : '500 craters are carved elsewhere';
    test(`${name}: 200 balls resting across chunk borders stay within 0.5 px while ${what}`, async () => {
        const W = 4096,
            H = 512,
            FLOOR = 400,
            R = 4;
        const raster = new CollisionRaster(W, H);
        raster.stamp(new Mask(2048, H - FLOOR, true), 0, FLOOR);
        const rnd = mulberry32(38);
        for (let x = 2176; x < W; x++) {
            const top = Math.round(200 + 60 * Math.sin(x / 90) + 20 * rnd());
            raster.stamp(new Mask(1, H - top, true), x, top);
        }
        const chunks = new TerrainChunks(raster.layer(0));
        const engine = await make();
        engine.apply(chunks.sync());
        // 13 balls 9 px apart around each of the 15 borders, one on the border, and 5 more.
        const xs: number[] = [];
        for (let k = 1; k <= 15; k++) for (let j = -6; j <= 6; j++) xs.push(128 * k + 9 * j);
        for (let j = 0; j < 5; j++) xs.push(1990 + 9 * j);
        assert.equal(xs.length, 200);
        for (const x of xs) engine.ball(x, FLOOR - R - 0.5, R);
        for (let i = 0; i < 240; i++) engine.step();
        const rest = xs.map((_, i) => engine.at(i));
        for (const p of rest) assert.ok(Math.abs(p.y - (FLOOR - R)) < 0.6, `${name}: a ball settled at y ${p.y}`);
        const craters = [8, 16, 24, 32, 48].map(disc);
        let worst = 0,
            rebuiltUnder = 0;
        for (let k = 0; k < 500; k++) {
            const d = craters[Math.floor(rnd() * craters.length)],
                r = d.width >> 1;
            if (under && k % 5 === 4) {
                // Under the balls: the crater's top 20 px or more below the surface, its chunk rebuilt.
                const cx = Math.floor(rnd() * 2048);
                raster.erase(d, cx - r, H - Math.min(2 * r, H - FLOOR - 20) - 1);
            } else raster.erase(d, 2176 + Math.floor(rnd() * (W - 2176)) - r, Math.floor(rnd() * H) - r);
            const s = chunks.sync();
            rebuiltUnder += s.changed.filter(c => c.x < 2048).length;
            engine.apply(s);
            engine.step();
            for (let i = 0; i < xs.length; i++) {
                const p = engine.at(i);
                worst = Math.max(worst, Math.hypot(p.x - rest[i].x, p.y - rest[i].y));
            }
        }
        assert.ok(!under || rebuiltUnder >= 50, `${rebuiltUnder} rebuilds of chunks under the balls`);
        assert.ok(worst <= 0.5, `${name}: a resting ball moved ${worst.toFixed(3)} px`);
    });

    if (!rolls) continue;
    test(`${name}: a ball rolling along a flat floor across 10 chunk borders never bounces`, async () => {
        const raster = new CollisionRaster(1664, 256);
        const FLOOR = 200,
            R = 8;
        raster.stamp(new Mask(1664, 256 - FLOOR, true), 0, FLOOR);
        // Holes under the surface give every chunk many pieces meeting the surface at different points.
        const rnd = mulberry32(380);
        for (let i = 0; i < 200; i++) raster.erase(disc(2 + Math.floor(rnd() * 6)), rnd() * 1664, 212 + rnd() * 36);
        const chunks = new TerrainChunks(raster.layer(0));
        const engine = await make();
        const first = chunks.sync();
        engine.apply(first);
        assert.equal(engine.bodies(), 13);
        const ball = engine.ball(40, FLOOR - R, R);
        for (let i = 0; i < 60; i++) engine.step();
        const y0 = engine.at(ball).y;
        engine.push(ball, 240); // px/s, driven at that speed
        let borders = 0,
            lastChunk = Math.floor(engine.at(ball).x / 128),
            worstY = 0,
            worstVy = 0;
        for (let i = 0; i < 1200 && engine.at(ball).x < 1560; i++) {
            engine.push(ball, 240);
            engine.step();
            const p = engine.at(ball);
            if (Math.floor(p.x / 128) !== lastChunk) borders++;
            lastChunk = Math.floor(p.x / 128);
            worstY = Math.max(worstY, Math.abs(p.y - y0));
            worstVy = Math.max(worstVy, Math.abs(p.vy));
        }
        assert.ok(borders >= 10, `${name}: the ball crossed ${borders} chunk borders`);
        assert.ok(worstY <= 0.5, `${name}: the ball left the floor by ${worstY.toFixed(3)} px`);
        assert.ok(worstVy <= 60, `${name}: vertical speed ${worstVy.toFixed(2)} px/s`);
    });
}
