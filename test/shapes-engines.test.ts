// hitmask/shapes engine helpers in the real engines (matter-js, planck, @dimforge/rapier2d-compat): every
// piece of the pygame sprites is accepted, areas add up to the mask's, a sprite body dropped onto a mask
// terrain comes to rest on it, seams never split an outline edge, and a box slides smoothly along a
// many-piece mask floor where the same floor made of tiles snags it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Matter from 'matter-js';
import * as planck from 'planck';
import RAPIER from '@dimforge/rapier2d-compat';
import { Mask } from '../src/index.js';
import {
    convexPieces,
    toPolygons,
    matterParts,
    matterBody,
    planckPolygons,
    planckChains,
    rapierPoints,
    rapierPolyline,
    type Point,
    type Polygon
} from '../src/shapes.js';

const SPRITES = new URL('./fixtures/sprites/expected.json', import.meta.url);
const PPM = 32; // pixels per metre in Planck and Rapier

function sprites(): [string, Mask][] {
    const { masks } = JSON.parse(readFileSync(SPRITES, 'utf8')) as { masks: Record<string, { rows: string[] }> };
    return Object.entries(masks).map(([name, { rows }]) => [name, Mask.fromText(rows.join('\n'))]);
}

function area2(r: ArrayLike<number>): number {
    let a = 0;
    for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) a += r[j] * r[i + 1] - r[i] * r[j + 1];
    return a;
}

const pieces = (m: Mask, tolerance = 0): number[][] => toPolygons(m, { tolerance }).flatMap(p => convexPieces(p));

// Terrain: 384 × 160 px, walls 8 px wide on both sides, a wavy ground whose top is top(x), and a cave below it.
const TW = 384,
    TH = 160,
    WALL = 8;
const top = (x: number): number => (x < WALL || x >= TW - WALL ? 0 : 100 + Math.round(10 * Math.sin(x / 23)));
function terrain(): Mask {
    const rows: string[] = [];
    for (let y = 0; y < TH; y++) {
        let row = '';
        for (let x = 0; x < TW; x++) {
            const cave = ((x - 192) / 60) ** 2 + ((y - 135) / 10) ** 2 < 1;
            row += y >= top(x) && !cave ? '#' : '.';
        }
        rows.push(row);
    }
    return Mask.fromText(rows.join('\n'));
}

// A flat floor (top at y = 64, 512 px wide) with caves under it, so that its convex pieces are many.
function floor(): Mask {
    const rows: string[] = [];
    for (let y = 0; y < 128; y++) {
        let row = '';
        for (let x = 0; x < 512; x++) {
            const cave = y >= 72 && y < 120 && x % 48 >= 8 && x % 48 < 40 && y % 16 < 10 + (x % 3);
            row += y >= 64 && !cave ? '#' : '.';
        }
        rows.push(row);
    }
    return Mask.fromText(rows.join('\n'));
}

/** Asserts that no point (pixels, y down) is more than `depth` px below the terrain's top, nor inside a wall. */
function assertAbove(points: Point[], depth: number, what: string): void {
    for (const p of points) {
        assert.ok(Number.isFinite(p.x) && Number.isFinite(p.y), `${what}: vertex (${p.x}, ${p.y}) is not finite`);
        assert.ok(p.x > WALL - depth && p.x < TW - WALL + depth, `${what}: vertex (${p.x}, ${p.y}) is inside a wall`);
        const x = Math.min(TW - WALL - 1, Math.max(WALL, Math.floor(p.x)));
        const surface = Math.min(top(x), top(Math.min(TW - WALL - 1, x + 1)), top(Math.max(WALL, x - 1)));
        assert.ok(
            p.y <= surface + depth,
            `${what}: vertex (${p.x.toFixed(2)}, ${p.y.toFixed(2)}) is ${(p.y - surface).toFixed(2)} px under the surface`
        );
    }
}

/** Collects console.warn/console.error output while fn runs. */
function quiet<T>(fn: () => T): [T, string[]] {
    const said: string[] = [],
        warn = console.warn,
        error = console.error;
    console.warn = (...a: unknown[]) => {
        said.push(a.join(' '));
    };
    console.error = (...a: unknown[]) => {
        said.push(a.join(' '));
    };
    try {
        return [fn(), said];
    } finally {
        console.warn = warn;
        console.error = error;
    }
}

test('pieces: seams never split an outline edge (every ring edge lies within one piece edge)', () => {
    const on = (ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean =>
        (bx - ax) * (py - ay) === (by - ay) * (px - ax) && (px - ax) * (px - bx) <= 0 && (py - ay) * (py - by) <= 0;
    for (const [name, m] of [...sprites(), ['terrain', terrain()], ['floor', floor()]] as [string, Mask][]) {
        for (const tolerance of [0, 1]) {
            for (const poly of toPolygons(m, { tolerance })) {
                const rings = [poly.outer, ...poly.holes],
                    pieceEdges: number[][] = [],
                    vertices = new Set<string>();
                for (const r of rings) for (let i = 0; i < r.length; i += 2) vertices.add(`${r[i]},${r[i + 1]}`);
                for (const p of convexPieces(poly)) {
                    for (let i = 0, j = p.length - 2; i < p.length; j = i, i += 2) {
                        assert.ok(
                            vertices.has(`${p[i]},${p[i + 1]}`),
                            `${name}: piece vertex (${p[i]}, ${p[i + 1]}) is not an outline vertex`
                        );
                        pieceEdges.push([p[j], p[j + 1], p[i], p[i + 1]]);
                    }
                }
                for (const r of rings) {
                    for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
                        const [cx, cy, dx, dy] = [r[j], r[j + 1], r[i], r[i + 1]];
                        const whole = pieceEdges.some(
                            ([ax, ay, bx, by]) =>
                                on(ax, ay, bx, by, cx, cy) &&
                                on(ax, ay, bx, by, dx, dy) &&
                                (bx - ax) * (dx - cx) + (by - ay) * (dy - cy) > 0
                        );
                        assert.ok(
                            whole,
                            `${name} tol ${tolerance}: ring edge (${cx}, ${cy})→(${dx}, ${dy}) is split by a seam`
                        );
                    }
                }
            }
        }
    }
});

test('matter-js: every sprite piece accepted, areas add up, parts stay in place', () => {
    for (const [name, m] of sprites()) {
        const ps = pieces(m);
        const shape = matterParts(ps);
        assert.ok(Math.abs(shape.area - m.count()) < 1e-6, `${name}: area ${shape.area} vs ${m.count()}`);
        const [body, said] = quiet(() => matterBody(Matter, ps, { x: 100, y: 50 }));
        assert.deepEqual(said, [], `${name}: Matter warned`);
        const parts = body.parts.length === 1 ? body.parts : body.parts.slice(1);
        assert.equal(parts.length, ps.length, name);
        assert.ok(
            Math.abs(body.area - m.count()) < 1e-6 * m.count(),
            `${name}: Matter area ${body.area} vs ${m.count()}`
        );
        assert.ok(
            Math.abs(body.position.x - 100 - shape.centre.x) < 1e-6 &&
                Math.abs(body.position.y - 50 - shape.centre.y) < 1e-6,
            `${name}: position`
        );
        // every part's vertices are the piece's, moved by (100, 50) (Matter may start each ring elsewhere)
        parts.forEach((part, k) => {
            const want = new Set(shape.parts[k].vertices.map(v => `${v.x + 100},${v.y + 50}`));
            for (const v of part.vertices) {
                assert.ok(
                    want.has(`${Math.round(v.x * 1e6) / 1e6},${Math.round(v.y * 1e6) / 1e6}`),
                    `${name}: part ${k} vertex (${v.x}, ${v.y}) moved`
                );
            }
        });
    }
    // the pitfall matterParts documents: fromVertices stacks several convex sets on one centre
    const two = matterParts([
        [0, 0, 10, 0, 10, 10, 0, 10],
        [10, 0, 20, 0, 20, 10, 10, 10]
    ]);
    const stacked = Matter.Bodies.fromVertices(
        0,
        0,
        two.parts.map(p => p.vertices)
    );
    assert.equal(stacked.parts[1].bounds.min.x, stacked.parts[2].bounds.min.x);
    const right = matterBody(Matter, [
        [0, 0, 10, 0, 10, 10, 0, 10],
        [10, 0, 20, 0, 20, 10, 10, 10]
    ]);
    assert.deepEqual(
        [right.bounds.min, right.bounds.max],
        [
            { x: 0, y: 0 },
            { x: 20, y: 10 }
        ]
    );
});

test('matter-js: a sprite body dropped onto a mask terrain comes to rest on it', () => {
    const engine = Matter.Engine.create();
    const ground = matterBody(Matter, pieces(terrain()), { body: { isStatic: true } });
    const [name, m] = sprites().find(([n]) => n === 'alien1.gif')!;
    const body = matterBody(Matter, pieces(m, 1), { x: 150, y: 0 });
    Matter.Composite.add(engine.world, [ground, body]);
    for (let i = 0; i < 600; i++) Matter.Engine.update(engine, 1000 / 60);
    assert.ok(body.speed < 0.05 && Math.abs(body.angularSpeed) < 0.005, `${name}: still moving (speed ${body.speed})`);
    assert.ok(body.position.y > 60, `${name}: did not fall (y ${body.position.y})`);
    const touching = engine.pairs.list.some(
        (p: Matter.Pair) =>
            p.isActive &&
            [p.bodyA.parent, p.bodyB.parent].includes(ground) &&
            [p.bodyA.parent, p.bodyB.parent].includes(body)
    );
    assert.ok(touching, `${name}: not touching the terrain`);
    assertAbove(
        body.parts.slice(1).flatMap(p => p.vertices),
        1.5,
        name
    );
});

function planckArea(shape: planck.Shape): number {
    const md = { mass: 0, center: { x: 0, y: 0 }, I: 0 };
    shape.computeMass(md, 1);
    return md.mass;
}

test('planck: every sprite piece accepted with ≤ 8 vertices, CCW, areas add up after scaling', () => {
    for (const [name, m] of sprites()) {
        for (const flipY of [false, true]) {
            const world = new planck.World({ gravity: { x: 0, y: flipY ? -10 : 10 } });
            const body = world.createBody({ type: 'dynamic' });
            const polys = planckPolygons(pieces(m), { scale: PPM, flipY, origin: { x: m.width / 2, y: m.height / 2 } });
            let area = 0;
            const [, said] = quiet(() => {
                for (const vs of polys) {
                    assert.ok(vs.length >= 3 && vs.length <= 8, `${name}: ${vs.length} vertices`);
                    let a2 = 0;
                    for (let i = 0, j = vs.length - 1; i < vs.length; j = i++)
                        a2 += vs[j].x * vs[i].y - vs[i].x * vs[j].y;
                    assert.ok(a2 > 0, `${name}: piece not counter-clockwise in Box2D's axes`);
                    const shape = new planck.Polygon(vs);
                    assert.equal(shape.m_count, vs.length, `${name}: Planck welded or dropped a vertex`);
                    body.createFixture(shape, { density: 1 });
                    area += planckArea(shape);
                }
            });
            assert.deepEqual(said, [], `${name}: Planck warned`);
            assert.ok(
                Math.abs(area * PPM * PPM - m.count()) < 1e-9 * m.count(),
                `${name}: area ${area * PPM * PPM} vs ${m.count()}`
            );
            assert.ok(Math.abs(body.getMass() * PPM * PPM - m.count()) < 1e-6 * m.count(), `${name}: mass`);
        }
    }
});

test('planck: a sprite body dropped onto a mask terrain (polygons or chain loops) comes to rest on it', () => {
    const tm = terrain();
    const [name, m] = sprites().find(([n]) => n === 'alien1.gif')!;
    for (const kind of ['polygons', 'chains'] as const) {
        const world = new planck.World({ gravity: { x: 0, y: -10 } });
        const ground = world.createBody({ type: 'static' });
        if (kind === 'polygons')
            for (const vs of planckPolygons(pieces(tm), { scale: PPM, flipY: true }))
                ground.createFixture(new planck.Polygon(vs));
        else
            for (const loop of planckChains(toPolygons(tm), { scale: PPM, flipY: true }))
                ground.createFixture(new planck.Chain(loop, true));
        const local = planckPolygons(pieces(m, 1), {
            scale: PPM,
            flipY: true,
            origin: { x: m.width / 2, y: m.height / 2 }
        });
        const body = world.createBody({ type: 'dynamic', position: { x: 190 / PPM, y: -40 / PPM } });
        for (const vs of local) body.createFixture(new planck.Polygon(vs), { density: 1, friction: 0.6 });
        for (let i = 0; i < 600; i++) world.step(1 / 60);
        const v = body.getLinearVelocity();
        assert.ok(
            Math.hypot(v.x, v.y) < 0.01 && Math.abs(body.getAngularVelocity()) < 0.01,
            `${kind}: still moving (${v.x}, ${v.y})`
        );
        assert.ok(-body.getPosition().y * PPM > 60, `${kind}: did not fall`);
        let touching = false;
        for (let c = body.getContactList(); c; c = c.next ?? null) if (c.contact.isTouching()) touching = true;
        assert.ok(touching, `${kind}: not touching the terrain`);
        const pts = local
            .flat()
            .map(p => body.getWorldPoint(p))
            .map(p => ({ x: p.x * PPM, y: -p.y * PPM }));
        assertAbove(pts, 1.5, `${name} on ${kind}`);
    }
});

test('rapier: every sprite piece accepted by convexPolyline and convexHull, areas add up after scaling', async () => {
    await RAPIER.init();
    for (const [name, m] of sprites()) {
        for (const flipY of [false, true]) {
            const world = new RAPIER.World({ x: 0, y: flipY ? -9.81 : 9.81 });
            const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic());
            let area = 0,
                hullArea = 0;
            for (const pts of rapierPoints(pieces(m), { scale: PPM, flipY })) {
                const desc = RAPIER.ColliderDesc.convexPolyline(pts);
                assert.ok(desc, `${name}: convexPolyline refused a piece`);
                area += world.createCollider(desc, body).volume();
                const hull = RAPIER.ColliderDesc.convexHull(pts);
                assert.ok(hull, `${name}: convexHull refused a piece`);
                hullArea += world.createCollider(hull.setSensor(true)).volume();
            }
            assert.ok(
                Math.abs(area * PPM * PPM - m.count()) < 1e-4 * m.count(),
                `${name}: area ${area * PPM * PPM} vs ${m.count()}`
            );
            assert.ok(
                Math.abs(hullArea * PPM * PPM - m.count()) < 1e-4 * m.count(),
                `${name}: hull area ${hullArea * PPM * PPM}`
            );
            world.free();
        }
    }
});

test('rapier: pieces with nearly straight corners are cut so that Rapier keeps their whole area', async () => {
    await RAPIER.init();
    const world = new RAPIER.World({ x: 0, y: 0 });
    const cases = [
        [0, 0, 100, 1, 200, 3], // sliver triangle, straight corner at (100, 1)
        [71, 75, 12, 61, 12, 50, 15, 28, 23, 11, 85, 75, 87, 78, 85, 78], // explosion1.gif: parry drops (71, 75)
        [0, 0, 1000, 1, 2000, 3, 2000, 10, 0, 10] // two straight corners on a long side
    ];
    for (const piece of cases) {
        const a = area2(piece) / 2;
        assert.ok(a > 0, `case ${piece.join(',')} is clockwise`);
        const out = rapierPoints([piece]);
        assert.ok(out.length > 1, `case ${piece.join(',')} was not cut`);
        let sum = 0,
            volume = 0;
        for (const pts of out) {
            sum += area2([...pts]) / 2;
            volume += world.createCollider(RAPIER.ColliderDesc.convexPolyline(pts)!).volume();
        }
        assert.ok(
            Math.abs(sum - a) < 1e-3 && Math.abs(volume - a) < 1e-3 * a,
            `case ${piece.join(',')}: area ${a}, pieces ${sum}, Rapier ${volume}`
        );
    }
    world.free();
});

test('rapier: a sprite body dropped onto a mask terrain (pieces, compound or oriented polyline) comes to rest on it', async () => {
    await RAPIER.init();
    const tm = terrain();
    const [name, m] = sprites().find(([n]) => n === 'alien1.gif')!;
    for (const kind of ['pieces', 'compound', 'polyline'] as const) {
        const world = new RAPIER.World({ x: 0, y: -9.81 });
        const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
        const opts = { scale: PPM, flipY: true };
        if (kind === 'pieces')
            for (const pts of rapierPoints(pieces(tm), opts))
                world.createCollider(RAPIER.ColliderDesc.convexPolyline(pts)!, ground);
        else if (kind === 'compound') {
            const shapes = rapierPoints(pieces(tm), opts).map(pts => new RAPIER.ConvexPolygon(pts, true));
            world.createCollider(
                RAPIER.ColliderDesc.compound(
                    shapes,
                    shapes.map(() => ({ x: 0, y: 0 })),
                    shapes.map(() => 0),
                    RAPIER.CompoundFlags.FIX_INTERNAL_EDGES
                ),
                ground
            );
        } else {
            const { vertices, indices } = rapierPolyline(toPolygons(tm), opts);
            world.createCollider(
                RAPIER.ColliderDesc.polyline(vertices, indices, RAPIER.PolylineFlags.ORIENTED),
                ground
            );
        }
        const local = rapierPoints(pieces(m, 1), { ...opts, origin: { x: m.width / 2, y: m.height / 2 } });
        const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(190 / PPM, -40 / PPM));
        const colliders = local.map(pts =>
            world.createCollider(RAPIER.ColliderDesc.convexPolyline(pts)!.setFriction(0.6), body)
        );
        for (let i = 0; i < 600; i++) world.step();
        const v = body.linvel(),
            t = body.translation(),
            a = body.rotation();
        assert.ok(
            Math.hypot(v.x, v.y) < 0.01 && Math.abs(body.angvel()) < 0.01,
            `${kind}: still moving (${v.x}, ${v.y})`
        );
        assert.ok(-t.y * PPM > 60, `${kind}: did not fall`);
        let touching = false;
        for (const c of colliders)
            world.contactPairsWith(c, () => {
                touching = true;
            });
        assert.ok(touching, `${kind}: not touching the terrain`);
        const pts: Point[] = [];
        for (const f of local) {
            for (let i = 0; i < f.length; i += 2) {
                const x = t.x + Math.cos(a) * f[i] - Math.sin(a) * f[i + 1],
                    y = t.y + Math.sin(a) * f[i] + Math.cos(a) * f[i + 1];
                pts.push({ x: x * PPM, y: -y * PPM });
            }
        }
        assertAbove(pts, 1.5, `${name} on ${kind}`);
        world.free();
    }
});

// A frictionless 24 px box (free to rotate) pushed along the top of a floor whose top is at y = 64 px, from
// x = 40 to 470 px: returns its horizontal speeds, step by step. Kind 'tiles' is the naive floor (one
// 16 px square body, fixture or collider per tile, the set-up of phaser#4041): the control, which snags.
type Floor = 'tiles' | 'pieces' | 'chains' | 'compound' | 'polyline';
const TILE = 16;

function slideMatter(kind: Floor, fm: Mask): number[] {
    const engine = Matter.Engine.create();
    const slick = { friction: 0, frictionStatic: 0 };
    const ground =
        kind === 'tiles'
            ? Array.from({ length: 512 / TILE }, (_, k) =>
                  Matter.Bodies.rectangle(k * TILE + TILE / 2, 64 + TILE / 2, TILE, TILE, { isStatic: true, ...slick })
              )
            : [matterBody(Matter, pieces(fm), { body: { isStatic: true, ...slick } })];
    const box = Matter.Bodies.rectangle(40, 52, 24, 24, { ...slick, frictionAir: 0 });
    Matter.Composite.add(engine.world, [...ground, box]);
    for (let i = 0; i < 30; i++) Matter.Engine.update(engine, 1000 / 60);
    Matter.Body.setVelocity(box, { x: 5, y: 0 });
    const vx: number[] = [];
    while (box.position.x < 470 && vx.length < 600) {
        Matter.Engine.update(engine, 1000 / 60);
        vx.push(box.velocity.x);
    }
    return vx;
}

function slidePlanck(kind: Floor, fm: Mask): number[] {
    const world = new planck.World({ gravity: { x: 0, y: -10 } });
    const ground = world.createBody({ type: 'static' });
    const opts = { scale: PPM, flipY: true };
    if (kind === 'tiles') {
        for (let x = 0; x < 512; x += TILE)
            ground.createFixture(
                new planck.Box(TILE / 2 / PPM, TILE / 2 / PPM, { x: (x + TILE / 2) / PPM, y: -(64 + TILE / 2) / PPM }),
                { friction: 0 }
            );
    } else if (kind === 'pieces') {
        for (const vs of planckPolygons(pieces(fm), opts))
            ground.createFixture(new planck.Polygon(vs), { friction: 0 });
    } else {
        for (const loop of planckChains(toPolygons(fm), opts))
            ground.createFixture(new planck.Chain(loop, true), { friction: 0 });
    }
    const box = world.createBody({ type: 'dynamic', position: { x: 40 / PPM, y: -52 / PPM } });
    box.createFixture(new planck.Box(12 / PPM, 12 / PPM), { density: 1, friction: 0 });
    for (let i = 0; i < 30; i++) world.step(1 / 60);
    box.setLinearVelocity({ x: 2, y: -3 }); // pressed onto the floor
    const vx: number[] = [];
    while (box.getPosition().x * PPM < 470 && vx.length < 600) {
        world.step(1 / 60);
        vx.push(box.getLinearVelocity().x);
    }
    return vx;
}

function slideRapier(kind: Floor, fm: Mask): number[] {
    const world = new RAPIER.World({ x: 0, y: -9.81 });
    const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
    const opts = { scale: PPM, flipY: true };
    if (kind === 'tiles') {
        for (let x = 0; x < 512; x += TILE)
            world.createCollider(
                RAPIER.ColliderDesc.cuboid(TILE / 2 / PPM, TILE / 2 / PPM)
                    .setTranslation((x + TILE / 2) / PPM, -(64 + TILE / 2) / PPM)
                    .setFriction(0),
                ground
            );
    } else if (kind === 'pieces') {
        for (const pts of rapierPoints(pieces(fm), opts))
            world.createCollider(RAPIER.ColliderDesc.convexPolyline(pts)!.setFriction(0), ground);
    } else if (kind === 'compound') {
        const shapes = rapierPoints(pieces(fm), opts).map(pts => new RAPIER.ConvexPolygon(pts, true));
        world.createCollider(
            RAPIER.ColliderDesc.compound(
                shapes,
                shapes.map(() => ({ x: 0, y: 0 })),
                shapes.map(() => 0),
                RAPIER.CompoundFlags.FIX_INTERNAL_EDGES
            ).setFriction(0),
            ground
        );
    } else {
        const { vertices, indices } = rapierPolyline(toPolygons(fm), opts);
        world.createCollider(
            RAPIER.ColliderDesc.polyline(vertices, indices, RAPIER.PolylineFlags.ORIENTED).setFriction(0),
            ground
        );
    }
    const box = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(40 / PPM, -52 / PPM));
    world.createCollider(RAPIER.ColliderDesc.cuboid(12 / PPM, 12 / PPM).setFriction(0), box);
    for (let i = 0; i < 30; i++) world.step();
    box.setLinvel({ x: 2, y: -3 }, true);
    const vx: number[] = [];
    while (box.translation().x * PPM < 470 && vx.length < 600) {
        world.step();
        vx.push(box.linvel().x);
    }
    world.free();
    return vx;
}

test('seams: a frictionless box slides across a many-piece mask floor without snagging, where a tile floor snags', async () => {
    await RAPIER.init();
    const fm = floor();
    assert.ok(pieces(fm).length > 20, `only ${pieces(fm).length} pieces`);
    const smooth = (vx: number[]): boolean =>
        vx.length < 600 && vx.every(v => Number.isFinite(v) && Math.abs(v - vx[0]) < 0.02 * vx[0]);
    const runs: [string, Floor, (kind: Floor, fm: Mask) => number[]][] = [
        ['matter', 'pieces', slideMatter],
        ['planck', 'pieces', slidePlanck],
        ['planck', 'chains', slidePlanck],
        ['rapier', 'pieces', slideRapier],
        ['rapier', 'compound', slideRapier],
        ['rapier', 'polyline', slideRapier]
    ];
    for (const [engine, kind, slide] of runs) {
        const vx = slide(kind, fm);
        assert.ok(
            smooth(vx),
            `${engine} ${kind}: speed ${vx[0]} → ${Math.min(...vx)}..${Math.max(...vx)} over ${vx.length} steps`
        );
    }
    // the control: the same slide over one body or collider per tile snags in every engine (ghost collisions)
    for (const [engine, slide] of [
        ['matter', slideMatter],
        ['planck', slidePlanck],
        ['rapier', slideRapier]
    ] as const) {
        assert.ok(!smooth(slide('tiles', fm)), `${engine} tiles: the control did not snag`);
    }
});

test('engine helpers: axes, origin, orientation and errors', () => {
    const sq = [0, 0, 4, 0, 4, 2, 0, 2];
    assert.deepEqual(planckPolygons([sq], { scale: 2, origin: { x: 2, y: 1 } }), [
        [
            { x: -1, y: -0.5 },
            { x: 1, y: -0.5 },
            { x: 1, y: 0.5 },
            { x: -1, y: 0.5 }
        ]
    ]);
    // flipped: y negated and the ring reversed from the same first vertex, so it stays counter-clockwise
    assert.deepEqual(
        planckPolygons([sq], { flipY: true }).map(r => r.map(p => [p.x, p.y + 0])),
        [
            [
                [0, 0],
                [0, -2],
                [4, -2],
                [4, 0]
            ]
        ]
    );
    assert.deepEqual([...rapierPoints([sq], { scale: 2, flipY: true })[0]], [0, -0, 0, -1, 2, -1, 2, -0]);
    const poly: Polygon = { outer: [0, 0, 6, 0, 6, 6, 0, 6], holes: [[2, 2, 2, 4, 4, 4, 4, 2]] };
    const loops = planckChains(poly, { flipY: true });
    const a2 = (r: Point[]): number =>
        r.reduce(
            (s, p, i) => s + r[(i + r.length - 1) % r.length].x * p.y - p.x * r[(i + r.length - 1) % r.length].y,
            0
        );
    assert.deepEqual(loops.map(a2).map(Math.sign), [1, -1]);
    const line = rapierPolyline([poly]);
    assert.deepEqual([...line.indices], [0, 1, 1, 2, 2, 3, 3, 0, 4, 5, 5, 6, 6, 7, 7, 4]);
    assert.deepEqual([...line.vertices], [...poly.outer, ...poly.holes[0]]);
    const parts = matterParts([sq, [4, 0, 6, 0, 4, 2]]);
    assert.equal(parts.area, 10);
    assert.deepEqual(parts.parts[0].position, { x: 2, y: 1 });
    assert.ok(
        Math.abs(parts.centre.x - (8 * 2 + 2 * (14 / 3)) / 10) < 1e-12 &&
            Math.abs(parts.centre.y - (8 * 1 + 2 * (2 / 3)) / 10) < 1e-12
    );

    assert.throws(
        () => planckPolygons([sq], { scale: 0 }),
        /RangeError: planckPolygons: scale must be a finite number > 0 .*got 0/
    );
    assert.throws(() => rapierPoints([sq], { scale: NaN }), /RangeError: rapierPoints: scale .*got NaN/);
    assert.throws(() => rapierPoints([sq], { scale: -1 }), RangeError);
    assert.throws(
        () => planckPolygons([sq], { flipY: 1 as unknown as boolean }),
        /TypeError: flipY must be a boolean, got 1/
    );
    assert.throws(
        () => planckPolygons([sq], { origin: { x: Infinity, y: 0 } }),
        /RangeError: origin.x must be a finite number/
    );
    assert.throws(
        () => planckPolygons([sq], { origin: 'centre' as unknown as Point }),
        /TypeError: origin must be an object/
    );
    assert.throws(
        () => planckPolygons([[0, 0, 1, 0, 2, 0, 3, 1, 2, 2, 1, 2, 0, 2, -1, 1, -1, 0.5]]),
        /RangeError: pieces\[0\] has 9 vertices, more than maxVertices 8/
    );
    assert.doesNotThrow(() =>
        planckPolygons([[0, 0, 1, 0, 2, 0, 3, 1, 2, 2, 1, 2, 0, 2, -1, 1, -1, 0.5]], { maxVertices: 12 })
    );
    assert.throws(
        () => planckPolygons([sq], { maxVertices: 2.5 }),
        /RangeError: maxVertices must be an integer >= 3, got 2.5/
    );
    assert.throws(() => rapierPoints([[0, 0, 0, 2, 4, 2, 4, 0]]), /RangeError: pieces\[0\] must be convex with A > 0/);
    assert.throws(
        () => matterParts([[0, 0, 4, 0, 2, 1, 4, 2, 0, 2]]),
        /RangeError: pieces\[0\] must be convex .*turns right at vertex 2/
    );
    assert.throws(() => rapierPoints([[0, 0, 2, 0, 0, 1, 2, 1, 1, 3]]), RangeError);
    assert.throws(() => rapierPoints('pieces' as unknown as number[][]), /TypeError: pieces must be an array/);
    assert.throws(
        () => matterParts([[0, 0, 1, 0]]),
        /TypeError: pieces\[0\] must hold at least 3 \(x, y\) pairs, got 4 numbers/
    );
    assert.throws(
        () => matterParts([[0, 0, 1, 0, NaN, 1]]),
        /TypeError: pieces\[0\]\[4\] must be a finite number, got NaN/
    );
    assert.throws(
        () => planckChains({ outer: sq } as unknown as Polygon),
        /TypeError: polygons.holes must be an array/
    );
    assert.throws(() => rapierPolyline([null] as unknown as Polygon[]), /TypeError: polygons\[0\] must be an object/);
    assert.throws(
        () => matterBody({} as unknown as typeof Matter, [sq]),
        /TypeError: matter must be the Matter.js module/
    );
    assert.throws(() => matterBody(Matter, [sq], { x: NaN }), /RangeError: options.x must be a finite number, got NaN/);
    assert.throws(() => matterBody(Matter, []), /RangeError: pieces must hold at least one piece/);
    assert.throws(
        () => rapierPoints([sq], null as unknown as object),
        /TypeError: options must be an object, got null/
    );
});

test('engine helpers: absurd scales, origins and coordinates throw a RangeError naming the helper, never Infinity or all zeros', () => {
    const sq = [0, 0, 4, 0, 4, 2, 0, 2],
        poly: Polygon = { outer: sq, holes: [] };
    const helpers: [string, (o: { scale?: number; origin?: Point; flipY?: boolean }) => ArrayLike<number>][] = [
        ['planckPolygons', o => planckPolygons([sq], o)[0].flatMap(p => [p.x, p.y])],
        ['planckChains', o => planckChains(poly, o)[0].flatMap(p => [p.x, p.y])],
        ['rapierPoints', o => rapierPoints([sq], o)[0]],
        ['rapierPolyline', o => rapierPolyline(poly, o).vertices]
    ];
    for (const [name, run] of helpers) {
        // Infinity coordinates (1e-300 in Float32, 5e-324 in doubles), or every coordinate 0 (1e300 in Float32)
        for (const [scale, pixel] of [
            [1e-300, '1e\\+300'],
            [5e-324, 'Infinity'],
            [1e-7, '10000000'],
            [1e300, '1e-300'],
            [2e6, '5e-7']
        ] as const) {
            assert.throws(
                () => run({ scale }),
                {
                    name: 'RangeError',
                    message: new RegExp(
                        `^${name}: scale must be within 1e-6\\.\\.1e6 \\(mask pixels per output unit, e\\.g\\. 32 per metre\\), got ${String(scale).replace('+', '\\+')}: a pixel would be ${pixel} units\\.$`
                    )
                },
                `${name} scale ${scale}`
            );
        }
        // The ends of the range: finite, and a pixel still far from 0.
        for (const scale of [1e-6, 1e6]) {
            const out = Array.from(run({ scale, flipY: true }));
            assert.ok(
                out.every(Number.isFinite) && Math.max(...out.map(Math.abs)) > 0,
                `${name} scale ${scale}: ${out}`
            );
            assert.ok(
                Math.abs(Math.max(...out.map(Math.abs)) - 4 / scale) <= (1e-6 * 4) / scale,
                `${name} scale ${scale}: ${out}`
            );
        }
        // An origin absurdly far from the vertices overflows the output type: refused, naming the vertex.
        assert.throws(() => run({ origin: { x: 1.7e308, y: 0 }, scale: 1e-6 }), {
            name: 'RangeError',
            message: new RegExp(`^${name}: vertex \\(0, 0\\) comes out as \\(-Infinity, 0\\), not a finite`)
        });
        if (name.startsWith('rapier')) {
            assert.throws(() => run({ origin: { x: 0, y: -1e33 }, scale: 1e-6 }), {
                name: 'RangeError',
                message: new RegExp(
                    `^${name}: vertex \\(0, 0\\) comes out as \\(0, 1e\\+39\\), not a finite 32-bit float; keep vertices within ±1e30 pixels of the origin\\.$`
                )
            });
        }
    }
    // Matter works in pixels: pieces too large to measure (a NaN centre) are refused, by matterBody too.
    const huge = sq.map(v => v * 1e200);
    for (const f of [() => matterParts([huge]), () => matterBody(Matter, [huge])]) {
        assert.throws(f, {
            name: 'RangeError',
            message:
                /^matterParts: pieces too large or too far out to measure \(area Infinity, centre \(NaN, NaN\)\); keep coordinates within ±1e150 pixels\.$/
        });
    }
    assert.equal(matterParts([sq.map(v => v * 1e100)]).area, 8e200);
});
