// Tiled's shapes (rectangles, ellipses, polygons, polylines; rotated clockwise about their (x, y)) as pixels: a
// pixel is covered where its centre lies inside (polygons even-odd, edges half-open), a polyline covers one pixel
// per column (or row, when steep) it spans and the pixel of each vertex.
import { Mask } from '../core/mask.js';

/** A shape of an object layer or of a tile's collision editor, in its frame's pixels. */
export interface TiledShape {
    kind: 'rectangle' | 'ellipse' | 'polygon' | 'polyline';
    /** Where the shape's (0, 0) lies in its frame. */
    x: number;
    y: number;
    width: number;
    height: number;
    /** cos and sin of the clockwise rotation. */
    cos: number;
    sin: number;
    /** Polygon and polyline vertices relative to (x, y), before rotation: x0, y0, x1, y1, … */
    points: number[];
}

type Json = Record<string, unknown>;

function num(v: unknown, name: string, where: string): number {
    if (v === undefined) return 0;
    if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > 2 ** 40)
        throw new Error(`${where}: ${name} is ${JSON.stringify(v)}, expected a finite number.`);
    return v;
}

/**
 * The shape of a Tiled object (JSON form), or `null` for a point, a text or a tile object (their masks are made
 * elsewhere or not at all).
 */
export function shapeOf(o: Json, where: string): TiledShape | null {
    if (o.point === true || o.text !== undefined || o.gid !== undefined) return null;
    const deg = num(o.rotation, 'rotation', where);
    const rad = (deg * Math.PI) / 180;
    // Exact at quarter turns, so a rotated rectangle's edges stay on the pixel grid.
    const q = deg % 90 === 0 ? ((deg / 90) % 4) + 4 : -1;
    const s: TiledShape = {
        kind: 'rectangle',
        x: num(o.x, 'x', where),
        y: num(o.y, 'y', where),
        width: num(o.width, 'width', where),
        height: num(o.height, 'height', where),
        cos: q >= 0 ? [1, 0, -1, 0][q % 4] : Math.cos(rad),
        sin: q >= 0 ? [0, 1, 0, -1][q % 4] : Math.sin(rad),
        points: []
    };
    const poly = o.polygon ?? o.polyline;
    if (poly !== undefined) {
        if (!Array.isArray(poly))
            throw new Error(`${where}: the ${o.polygon ? 'polygon' : 'polyline'} is not a list of points.`);
        s.kind = o.polygon !== undefined ? 'polygon' : 'polyline';
        for (const p of poly as Json[]) {
            if (p === null || typeof p !== 'object') throw new Error(`${where}: a vertex is not an { x, y } point.`);
            s.points.push(num(p.x, 'a vertex x', where), num(p.y, 'a vertex y', where));
        }
    } else if (o.ellipse === true) s.kind = 'ellipse';
    if (s.width < 0 || s.height < 0)
        throw new Error(`${where}: the object is ${s.width}x${s.height}, expected sizes >= 0.`);
    return s;
}

// The shape's outline vertices in its frame (rectangles as 4 corners; ellipses by their box).
function framePoints(s: TiledShape): number[] {
    const local =
        s.kind === 'polygon' || s.kind === 'polyline' ? s.points : [0, 0, s.width, 0, s.width, s.height, 0, s.height];
    const out: number[] = [];
    for (let i = 0; i < local.length; i += 2)
        out.push(s.x + local[i] * s.cos - local[i + 1] * s.sin, s.y + local[i] * s.sin + local[i + 1] * s.cos);
    return out;
}

/** The pixel box [x0, y0, x1, y1) holding every pixel the shape may cover, in its frame. */
export function shapeBox(s: TiledShape): [number, number, number, number] {
    const p = framePoints(s);
    let x0 = Infinity,
        y0 = Infinity,
        x1 = -Infinity,
        y1 = -Infinity;
    for (let i = 0; i < p.length; i += 2) {
        x0 = Math.min(x0, p[i]);
        x1 = Math.max(x1, p[i]);
        y0 = Math.min(y0, p[i + 1]);
        y1 = Math.max(y1, p[i + 1]);
    }
    if (x0 === Infinity) return [0, 0, 0, 0];
    // A line covers the pixel its last vertex lies in; a filled shape only pixels whose centres are inside.
    if (s.kind === 'polyline') return [Math.floor(x0), Math.floor(y0), Math.floor(x1) + 1, Math.floor(y1) + 1];
    return [Math.floor(x0), Math.floor(y0), Math.ceil(x1), Math.ceil(y1)];
}

/**
 * Sets the pixels of `mask` the shape covers, pixel (i, j) of the mask being the frame's pixel (ox + i, oy + j).
 */
export function drawShape(s: TiledShape, mask: Mask, ox: number, oy: number): void {
    if (s.kind === 'polyline') return drawLine(s, mask, ox, oy);
    const W = mask.width,
        H = mask.height;
    if (s.kind === 'ellipse') return drawEllipse(s, mask, ox, oy);
    const p = framePoints(s);
    if (s.kind === 'rectangle' && (s.width === 0 || s.height === 0)) return;
    const n = p.length / 2,
        xs: number[] = [];
    for (let j = 0; j < H; j++) {
        const yc = oy + j + 0.5;
        xs.length = 0;
        for (let k = 0; k < n; k++) {
            const xa = p[2 * k],
                ya = p[2 * k + 1],
                xb = p[(2 * k + 2) % (2 * n)],
                yb = p[(2 * k + 3) % (2 * n)];
            if (ya <= yc !== yb <= yc) xs.push(xa + ((yc - ya) * (xb - xa)) / (yb - ya));
        }
        xs.sort((a, b) => a - b);
        // Centres in [xs[2k], xs[2k+1]) are inside (even-odd).
        for (let k = 0; k + 1 < xs.length; k += 2) {
            const i0 = Math.max(0, Math.ceil(xs[k] - 0.5 - ox)),
                i1 = Math.min(W, Math.ceil(xs[k + 1] - 0.5 - ox));
            for (let i = i0; i < i1; i++) mask.set(i, j);
        }
    }
}

function drawEllipse(s: TiledShape, mask: Mask, ox: number, oy: number): void {
    const a = s.width / 2,
        b = s.height / 2;
    if (a === 0 || b === 0) return;
    const c = s.cos,
        sn = s.sin;
    // In the ellipse's frame u = t·c + dy·s − a, v = −t·s + dy·c − b for a centre at x = s.x + t: inside where
    // u²/a² + v²/b² < 1, a quadratic in t.
    const A = (c * c) / (a * a) + (sn * sn) / (b * b);
    for (let j = 0; j < mask.height; j++) {
        const dy = oy + j + 0.5 - s.y;
        const p = dy * sn - a,
            q = dy * c - b;
        const B = 2 * ((c * p) / (a * a) - (sn * q) / (b * b)),
            C = (p * p) / (a * a) + (q * q) / (b * b) - 1;
        const disc = B * B - 4 * A * C;
        if (disc <= 0) continue;
        const r = Math.sqrt(disc),
            t0 = (-B - r) / (2 * A),
            t1 = (-B + r) / (2 * A);
        // Centres strictly inside (t0, t1).
        const i0 = Math.max(0, Math.floor(s.x + t0 - 0.5 - ox) + 1),
            i1 = Math.min(mask.width, Math.ceil(s.x + t1 - 0.5 - ox));
        for (let i = i0; i < i1; i++) mask.set(i, j);
    }
}

function drawLine(s: TiledShape, mask: Mask, ox: number, oy: number): void {
    const p = framePoints(s);
    const put = (x: number, y: number): void => {
        const i = Math.floor(x) - ox,
            j = Math.floor(y) - oy;
        if (i >= 0 && j >= 0 && i < mask.width && j < mask.height) mask.set(i, j);
    };
    for (let k = 0; k < p.length; k += 2) put(p[k], p[k + 1]);
    for (let k = 0; k + 3 < p.length; k += 2) {
        const xa = p[k],
            ya = p[k + 1],
            xb = p[k + 2],
            yb = p[k + 3];
        const dx = xb - xa,
            dy = yb - ya;
        if (Math.abs(dx) >= Math.abs(dy)) {
            if (dx === 0) continue;
            // One pixel in each column whose centre lies between the ends: the row holding the line there.
            const lo = Math.min(xa, xb),
                hi = Math.max(xa, xb);
            for (let i = Math.ceil(lo - 0.5); i + 0.5 <= hi; i++) put(i + 0.5, ya + ((i + 0.5 - xa) * dy) / dx);
        } else {
            const lo = Math.min(ya, yb),
                hi = Math.max(ya, yb);
            for (let j = Math.ceil(lo - 0.5); j + 0.5 <= hi; j++) put(xa + ((j + 0.5 - ya) * dx) / dy, j + 0.5);
        }
    }
}

/** Whether the point (px, py) of the shape's frame lies inside it (the rule of {@link drawShape}; polylines: no). */
export function shapeContains(s: TiledShape, px: number, py: number): boolean {
    const dx = px - s.x,
        dy = py - s.y;
    const u = dx * s.cos + dy * s.sin,
        v = -dx * s.sin + dy * s.cos;
    if (s.kind === 'rectangle') return u >= 0 && v >= 0 && u < s.width && v < s.height;
    if (s.kind === 'ellipse') {
        const a = s.width / 2,
            b = s.height / 2;
        return a > 0 && b > 0 && ((u - a) / a) ** 2 + ((v - b) / b) ** 2 < 1;
    }
    if (s.kind === 'polyline') return false;
    const p = framePoints(s),
        n = p.length / 2;
    let inside = false;
    for (let k = 0; k < n; k++) {
        const xa = p[2 * k],
            ya = p[2 * k + 1],
            xb = p[(2 * k + 2) % (2 * n)],
            yb = p[(2 * k + 3) % (2 * n)];
        if (ya <= py !== yb <= py && xa + ((py - ya) * (xb - xa)) / (yb - ya) <= px) inside = !inside;
    }
    return inside;
}
