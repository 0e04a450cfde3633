// Engine helpers: convex pieces and polygons in the form Matter.js, Planck/Box2D and Rapier take.
// No engine is imported: the functions return plain arrays, and matterBody takes the Matter module.
import { checkMinInt, checkNumber, checkPositive, must, mustBe, outOfRange, typeError } from '../base/check.js';
import { checkBoolean, checkObject } from '../base/check-types.js';
import { checkPieces, checkPolygon, checkPolygons, notConvex } from '../base/check-shapes.js';
import type { Polygon } from './polygons.js';

/** A point or vector `{ x, y }`, as Matter.js, Planck and Rapier take them. */
export interface Point {
    x: number;
    y: number;
}

/** Units and axes of the Planck/Box2D and Rapier helpers. */
export interface UnitOptions {
    /** Mask pixels per output unit, e.g. 32 pixels per metre: output = (pixel − origin) / scale. @default 1 */
    scale?: number;
    /**
     * Mask point (pixel-corner coordinates) that becomes the output origin, e.g. a sprite's anchor `{ x: w / 2, y: h /
     * 2 }`. @default { x: 0, y: 0 }
     */
    origin?: Point;
    /**
     * Flip the y axis (y up, the usual Box2D/Planck/Rapier convention with gravity −y). Rings are then
     * reversed, so that the output keeps the engines' winding (counter-clockwise in the output axes). @default false
     */
    flipY?: boolean;
}

/** Options of {@link planckPolygons}. */
export interface PlanckOptions extends UnitOptions {
    /** Most vertices per piece: Box2D takes 8 (b2_maxPolygonVertices), Planck 12. @default 8 */
    maxVertices?: number;
}

/** One part of a Matter.js compound body: options for `Matter.Body.create`. */
export interface MatterPart {
    /** Centroid of the piece, in mask pixels (Matter recentres a part's vertices on this point). */
    position: Point;
    /** The piece's vertices, in mask pixels (y down, as in Matter). */
    vertices: Point[];
}

/** What {@link matterParts} returns. */
export interface MatterParts {
    /** One part per piece, for `Body.create({ parts: parts.map(p => Body.create({ ...p, ...options })) })`. */
    parts: MatterPart[];
    /** Centre of mass of all pieces (area-weighted centroid), in mask pixels: Matter puts `body.position` there. */
    centre: Point;
    /** Total area of the pieces, in square pixels. */
    area: number;
}

/** The part of the Matter.js module that {@link matterBody} uses (pass `Matter` itself). */
export interface MatterLike<B> {
    Body: {
        create(options: { position?: Point; vertices?: Point[]; parts?: B[] }): B;
        setPosition(body: B, position: Point): void;
    };
}

/** Options of {@link matterBody}. */
export interface MatterBodyOptions {
    /** World position of the mask's top-left corner (pixel (0, 0)'s corner). @default 0 */
    x?: number;
    /** @default 0 */
    y?: number;
    /**
     * Matter body options (isStatic, friction, density, isSensor, render, …), given to the compound body
     * and to every part, except `isStatic`, `mass`, `inertia` and `angle`, which only the compound body takes.
     */
    body?: object;
}

/** A closed-ring polyline for Rapier's `ColliderDesc.polyline(vertices, indices, flags)`. */
export interface Polyline {
    /** `x0, y0, x1, y1, …` in output units. */
    vertices: Float32Array;
    /** Segment index pairs; every ring is closed. */
    indices: Uint32Array;
}

// ---- checks ------------------------------------------------------------------------------------

/** Twice the signed area, A = ½ Σ (xᵢ·yᵢ₊₁ − xᵢ₊₁·yᵢ). */
function area2(r: number[]): number {
    let a = 0;
    for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) a += r[j] * r[i + 1] - r[i] * r[j + 1];
    return a;
}

/**
 * Checks that a ring is convex with A > 0 (as convexPieces returns): every turn is left or straight, and it winds once.
 */
function checkConvex(ring: number[], name: string): void {
    const n = ring.length >> 1;
    let xFlips = 0,
        lastDx = 0;
    for (let i = 0; i < n; i++) {
        const a = ((i + n - 1) % n) * 2,
            b = i * 2,
            c = ((i + 1) % n) * 2;
        const ux = ring[b] - ring[a],
            uy = ring[b + 1] - ring[a + 1],
            vx = ring[c] - ring[b],
            vy = ring[c + 1] - ring[b + 1];
        const cross = ux * vy - uy * vx;
        if (cross < -1e-9 * Math.hypot(ux, uy) * Math.hypot(vx, vy)) {
            throw notConvex(name, `a ring that turns right at vertex ${i} (${ring[b]}, ${ring[b + 1]})`);
        }
        if (vx !== 0) {
            if (lastDx !== 0 && Math.sign(vx) !== Math.sign(lastDx)) xFlips++;
            lastDx = vx;
        }
    }
    if (!(area2(ring) > 0) || xFlips > 2) {
        const how = xFlips > 2 ? 'more than once' : 'the wrong way';
        throw notConvex(name, `a ring of area ${area2(ring) / 2} winding ${how}`);
    }
}

function checkConvexPieces(pieces: unknown, name: string, maxVertices = Infinity): number[][] {
    return checkPieces(name, pieces).map((ring, k) => {
        if (ring.length / 2 > maxVertices) {
            throw outOfRange(`${name}[${k}] has ${ring.length / 2} vertices, more than maxVertices ${maxVertices}.`);
        }
        checkConvex(ring, `${name}[${k}]`);
        return ring;
    });
}

// One polygon or an array of them.
function polygonList(polygons: unknown, name: string): Polygon[] {
    return Array.isArray(polygons) ? checkPolygons(name, polygons) : [checkPolygon(name, polygons)];
}

interface Units {
    scale: number;
    ox: number;
    oy: number;
    flip: boolean;
    fn: string;
}

// Scales (mask pixels per output unit) the helpers take: any mask coordinate, within ±2^31 pixels of the
// origin, then stays finite in 32-bit floats, and a pixel stays at least 1e-6 units, far from 0.
const MIN_SCALE = 1e-6,
    MAX_SCALE = 1e6;

function checkUnits(options: unknown, fn: string): Units {
    checkObject('options', options);
    const { scale = 1, origin = { x: 0, y: 0 }, flipY = false } = options as UnitOptions;
    checkPositive(`${fn}: scale`, scale, 'a finite number > 0 (mask pixels per output unit)');
    if (scale < MIN_SCALE || scale > MAX_SCALE) {
        const units = `: a pixel would be ${Number((1 / scale).toPrecision(3))} units`;
        const range = 'within 1e-6..1e6 (mask pixels per output unit, e.g. 32 per metre)';
        throw outOfRange(mustBe(`${fn}: scale`, range, scale, units));
    }
    checkObject('origin', origin, 'an object { x, y } in mask pixels');
    checkNumber('origin.x', origin.x, ' (mask pixels)');
    checkNumber('origin.y', origin.y, ' (mask pixels)');
    checkBoolean('flipY', flipY);
    return { scale, ox: origin.x, oy: origin.y, flip: flipY, fn };
}

/**
 * A ring in output units. (x, y) ↦ ((x − ox) / scale, ±(y − oy) / scale); when y flips, the order is
 * reversed so that the signed area keeps its sign (A > 0 stays counter-clockwise in the output axes).
 */
function convert(ring: number[], u: Units, f32 = false): Point[] {
    const n = ring.length >> 1,
        out: Point[] = new Array(n),
        sy = u.flip ? -1 : 1;
    const ok = f32 ? (v: number): boolean => Number.isFinite(Math.fround(v)) : Number.isFinite;
    for (let i = 0; i < n; i++) {
        const k = u.flip ? (n - i) % n : i; // reversed, same first vertex
        const p = (out[i] = { x: (ring[2 * k] - u.ox) / u.scale, y: (sy * (ring[2 * k + 1] - u.oy)) / u.scale });
        // Only a vertex or origin absurdly far out (the scale is checked) overflows.
        if (!ok(p.x) || !ok(p.y)) {
            throw outOfRange(
                `${u.fn}: vertex (${ring[2 * k]}, ${ring[2 * k + 1]}) comes out as (${p.x}, ${p.y}), not a finite ${f32 ? '32-bit float' : 'number'}; ` +
                    'keep vertices within ±1e30 pixels of the origin.'
            );
        }
    }
    return out;
}

function flat(points: Point[]): Float32Array {
    const out = new Float32Array(points.length * 2);
    points.forEach((p, i) => {
        out[2 * i] = p.x;
        out[2 * i + 1] = p.y;
    });
    return out;
}

// ---- Matter.js ---------------------------------------------------------------------------------

/**
 * Matter.js parts of convex pieces (as {@link convexPieces} returns them), in mask pixels, y down as in
 * Matter. Each part is `{ position, vertices }` with `position` the piece's centroid, so
 * `Body.create(part)` keeps the vertices where they are; `centre` is where the compound body's
 * `position` ends up (its centre of mass, for a uniform density).
 *
 * Do not pass several vertex sets to `Bodies.fromVertices`: for convex sets it puts every set's centre
 * at (x, y), on top of each other (matter-js 0.20). One set (`parts[0].vertices` of a single piece) is fine.
 */
export function matterParts(pieces: number[][]): MatterParts {
    const rings = checkConvexPieces(pieces, 'pieces');
    let area = 0,
        cx = 0,
        cy = 0;
    const parts = rings.map((ring): MatterPart => {
        // centroid of the polygon: Σ (pᵢ + pᵢ₊₁)·crossᵢ / (3 · Σ crossᵢ)
        let a = 0,
            x = 0,
            y = 0;
        const x0 = ring[0],
            y0 = ring[1]; // relative to the first vertex, for precision
        for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
            const xj = ring[j] - x0,
                yj = ring[j + 1] - y0,
                xi = ring[i] - x0,
                yi = ring[i + 1] - y0;
            const c = xj * yi - xi * yj;
            a += c;
            x += (xj + xi) * c;
            y += (yj + yi) * c;
        }
        const position = { x: x0 + x / (3 * a), y: y0 + y / (3 * a) };
        area += a / 2;
        cx += (position.x * a) / 2;
        cy += (position.y * a) / 2;
        const vertices: Point[] = [];
        for (let i = 0; i < ring.length; i += 2) vertices.push({ x: ring[i], y: ring[i + 1] });
        return { position, vertices };
    });
    const centre = area > 0 ? { x: cx / area, y: cy / area } : { x: 0, y: 0 };
    // Only pieces absurdly large or far out (past about 1e150 pixels) overflow these sums.
    if (!Number.isFinite(area) || !Number.isFinite(centre.x) || !Number.isFinite(centre.y)) {
        throw outOfRange(
            `matterParts: pieces too large or too far out to measure (area ${area}, centre (${centre.x}, ${centre.y})); keep coordinates within ±1e150 pixels.`
        );
    }
    return { parts, centre, area };
}

const COMPOUND_ONLY = ['isStatic', 'mass', 'inverseMass', 'inertia', 'inverseInertia', 'angle', 'parts', 'parent'];

/**
 * A Matter.js body made of convex pieces: one part per piece, joined in one compound body (or the single
 * part when there is one piece), with the mask's top-left corner at world (x, y). Pass the Matter module:
 * `matterBody(Matter, pieces, { x, y, body: { isStatic: true } })`. The body's `position` is its centre
 * of mass, (x + centre.x, y + centre.y) with `centre` from {@link matterParts}: draw the sprite's top-left
 * corner at `position − R(angle)·centre`.
 */
export function matterBody<B>(matter: MatterLike<B>, pieces: number[][], options: MatterBodyOptions = {}): B {
    if (
        matter == null ||
        typeof matter !== 'object' ||
        matter.Body == null ||
        typeof matter.Body.create !== 'function' ||
        typeof matter.Body.setPosition !== 'function'
    ) {
        throw typeError('matter', 'the Matter.js module (with Body.create and Body.setPosition)', matter);
    }
    checkObject('options', options);
    const { x = 0, y = 0, body = {} } = options;
    checkNumber('options.x', x);
    checkNumber('options.y', y);
    checkObject('options.body', body, 'an object of Matter body options');
    const { parts, centre } = matterParts(pieces);
    if (parts.length === 0) throw outOfRange(must('pieces', 'hold at least one piece', 'none'));
    if (parts.length === 1) {
        const one = matter.Body.create({ ...body, position: parts[0].position, vertices: parts[0].vertices });
        matter.Body.setPosition(one, { x: x + centre.x, y: y + centre.y });
        return one;
    }
    // Static, massive or rotated parts would give Matter an infinite total mass (a NaN centre) or move
    // each part on its own: those options go to the compound body only.
    const partOptions: Record<string, unknown> = { ...body };
    for (const key of COMPOUND_ONLY) delete partOptions[key];
    const made = parts.map(p => matter.Body.create({ ...partOptions, position: p.position, vertices: p.vertices }));
    const result = matter.Body.create({ ...body, parts: made });
    matter.Body.setPosition(result, { x: x + centre.x, y: y + centre.y });
    return result;
}

// ---- Planck.js / Box2D -------------------------------------------------------------------------

/**
 * Planck/Box2D polygon vertex lists of convex pieces, in output units (metres: set `scale` to pixels per
 * metre), counter-clockwise in the output axes (positive signed area, outward normals), at most
 * `maxVertices` each: `body.createFixture(new planck.Polygon(vertices), fixtureDef)`. Coordinates are
 * relative to `origin`, in the body's frame; Box2D does not recentre bodies.
 */
export function planckPolygons(pieces: number[][], options: PlanckOptions = {}): Point[][] {
    const u = checkUnits(options, 'planckPolygons');
    const maxVertices = checkMinInt('maxVertices', options.maxVertices ?? 8, 3);
    return checkConvexPieces(pieces, 'pieces', maxVertices).map(r => convert(r, u));
}

/**
 * Closed chain loops of polygons' rings, for static terrain: `body.createFixture(new planck.Chain(loop, true))`.
 * Chains collide smoothly across their vertices (no ghost collisions between pieces), but are hollow: a
 * body pushed inside stays inside. Outer rings are counter-clockwise in the output axes and holes
 * clockwise, so the solid is on the left of every edge and the outward normal on its right: Planck's
 * chains are two-sided and take any winding, Box2D 2.4+ chains are one-sided and need this one.
 */
export function planckChains(polygons: Polygon | Polygon[], options: UnitOptions = {}): Point[][] {
    const u = checkUnits(options, 'planckChains');
    return polygonList(polygons, 'polygons').flatMap(p => [convert(p.outer, u), ...p.holes.map(h => convert(h, u))]);
}

// ---- Rapier ------------------------------------------------------------------------------------

/**
 * Rapier point arrays of convex pieces, `x0, y0, x1, y1, …` in output units, counter-clockwise in the
 * output axes: `ColliderDesc.convexPolyline(points)` (taken as is), `ColliderDesc.convexHull(points)`,
 * or `new ConvexPolygon(points, true)` parts of a `ColliderDesc.compound(…)`. Rapier silently drops a
 * corner that is nearly straight (turning by less than about 1.5°), losing a sliver of area, so a piece
 * with such a corner is cut in two or more here: there can be more arrays than pieces, with the same total area.
 */
export function rapierPoints(pieces: number[][], options: UnitOptions = {}): Float32Array[] {
    const u = checkUnits(options, 'rapierPoints');
    const out: number[][] = [];
    for (const r of checkConvexPieces(pieces, 'pieces')) splitFlat(r, out);
    return out.map(r => flat(convert(r, u, true)));
}

// Parry (Rapier's geometry) drops a vertex whose two edge normals have a dot product above 1 − √ε_f32
// (1 − 3.45e-4), which cuts a sliver off the piece. Corners that straight (with margin) are cut away.
const FLAT = 1e-3;

/** 1 − cos of the turn at vertex i: 0 for a straight corner. */
function straightness(r: number[], i: number): number {
    const n = r.length >> 1,
        a = (i + n - 1) % n,
        c = (i + 1) % n;
    const ux = r[2 * i] - r[2 * a],
        uy = r[2 * i + 1] - r[2 * a + 1],
        vx = r[2 * c] - r[2 * i],
        vy = r[2 * c + 1] - r[2 * i + 1];
    return 1 - (ux * vx + uy * vy) / (Math.hypot(ux, uy) * Math.hypot(vx, vy));
}

/**
 * Pushes the ring, or pieces of it, with no corner straighter than FLAT. A ring of n ≥ 4 vertices is cut
 * along the diagonal from its straightest corner that leaves the four new corners least straight; a
 * triangle is cut from its straight corner to the foot of the perpendicular on the opposite side (both
 * halves then have a right angle there, and their other corners are sharp). Areas add up exactly.
 */
function splitFlat(r: number[], out: number[][]): void {
    const n = r.length >> 1;
    let i = -1,
        worst = FLAT;
    for (let k = 0; k < n; k++) {
        const s = straightness(r, k);
        if (s < worst) {
            worst = s;
            i = k;
        }
    }
    if (i < 0) {
        out.push(r);
        return;
    }
    const at = (k: number): [number, number] => [r[2 * (k % n)], r[2 * (k % n) + 1]];
    if (n === 3) {
        const [ax, ay] = at(i + n - 1),
            [vx, vy] = at(i),
            [cx, cy] = at(i + 1);
        const t = ((vx - ax) * (cx - ax) + (vy - ay) * (cy - ay)) / ((cx - ax) ** 2 + (cy - ay) ** 2);
        const fx = ax + t * (cx - ax),
            fy = ay + t * (cy - ay);
        out.push([ax, ay, vx, vy, fx, fy], [vx, vy, cx, cy, fx, fy]);
        return;
    }
    const chain = (from: number, to: number): number[] => {
        const ring: number[] = [];
        for (let k = from; ; k = (k + 1) % n) {
            ring.push(...at(k));
            if (k === to) return ring;
        }
    };
    let best: number[][] = [],
        score = -1;
    for (let d = 2; d <= n - 2; d++) {
        const j = (i + d) % n,
            A = chain(i, j),
            B = chain(j, i);
        const s = Math.min(
            straightness(A, 0),
            straightness(A, A.length / 2 - 1),
            straightness(B, 0),
            straightness(B, B.length / 2 - 1)
        );
        if (s > score) {
            score = s;
            best = [A, B];
        }
    }
    for (const piece of best) splitFlat(piece, out);
}

/**
 * One Rapier polyline of all the polygons' rings, for static terrain:
 * `ColliderDesc.polyline(vertices, indices, PolylineFlags.ORIENTED)`. Every ring is closed, outer rings
 * counter-clockwise in the output axes and holes clockwise: the solid is on the left of each segment,
 * as `PolylineFlags.ORIENTED` requires.
 */
export function rapierPolyline(polygons: Polygon | Polygon[], options: UnitOptions = {}): Polyline {
    const u = checkUnits(options, 'rapierPolyline');
    const rings = polygonList(polygons, 'polygons').flatMap(p => [p.outer, ...p.holes]);
    let n = 0;
    for (const r of rings) n += r.length >> 1;
    const vertices = new Float32Array(2 * n),
        indices = new Uint32Array(2 * n);
    let o = 0;
    for (const r of rings) {
        const pts = convert(r, u, true),
            m = pts.length;
        for (let i = 0; i < m; i++) {
            vertices[2 * (o + i)] = pts[i].x;
            vertices[2 * (o + i) + 1] = pts[i].y;
            indices[2 * (o + i)] = o + i;
            indices[2 * (o + i) + 1] = o + ((i + 1) % m);
        }
        o += m;
    }
    return { vertices, indices };
}
