// convexPieces: a polygon with holes cut into few convex pieces (triangulation, then Hertel–Mehlhorn merging).
import { checkMinInt, outOfRange } from '../base/check.js';
import { checkObject } from '../base/check-types.js';
import { checkPolygon } from '../base/check-shapes.js';
import type { Polygon } from './polygons.js';
import { triangulate } from './triangulate.js';

/** Options of {@link convexPieces}. */
export interface ConvexOptions {
    /** Most vertices per piece (Box2D and Planck take 8). @default 8 */
    maxVertices?: number;
    /**
     * Most vertices of the polygon, outer ring and holes together: a larger one throws a RangeError before
     * any work, as the work can grow with the square of the vertices. @default 32768
     */
    vertexLimit?: number;
}

// The default vertexLimit: at it, the slowest outline measured (a staircase) takes about 10 s, noise about 1 s.
const VERTEX_LIMIT = 32768;

/**
 * Convex pieces of a polygon (as {@link toPolygons} returns them), each a flat ring with A > 0 and at most
 * `maxVertices` vertices, no three collinear. The pieces do not overlap and cover the polygon less its
 * holes exactly; their vertices are the polygon's. Rings must be simple and may touch only at vertices.
 * A polygon of more than `vertexLimit` vertices (default 32768) throws a RangeError at once.
 */
export function convexPieces(polygon: Polygon, options: ConvexOptions = {}): number[][] {
    checkObject('polygon', polygon, 'an object { outer: number[], holes: number[][] }');
    checkObject('options', options);
    const { outer, holes } = checkPolygon('polygon', polygon);
    const maxVertices = checkMinInt('maxVertices', options.maxVertices ?? 8, 3),
        vertexLimit = checkMinInt('vertexLimit', options.vertexLimit ?? VERTEX_LIMIT, 3, true);
    let n = outer.length;
    for (const h of holes) n += h.length;
    // Ear clipping and hole bridging are quadratic at worst: refused before anything is allocated.
    if (n / 2 > vertexLimit) {
        throw outOfRange(
            `polygon has ${n / 2} vertices (outer ring and ${holes.length} hole${holes.length === 1 ? '' : 's'}), more than vertexLimit ${vertexLimit}: ` +
                'cutting it could take minutes. Simplify it first with a tolerance, cut the mask into smaller masks, or raise vertexLimit.'
        );
    }
    const xy = new Float64Array(n),
        rings = [0];
    xy.set(outer);
    let o = outer.length;
    rings.push(o >> 1);
    for (const h of holes) {
        xy.set(h, o);
        o += h.length;
        rings.push(o >> 1);
    }
    return merge(xy, triangulate(xy, rings), maxVertices);
}

/**
 * @internal Triangles of a polygon (flat vertex index triples into its rings: outer, then holes in order), to measure
 * convexPieces against.
 */
export function triangles(polygon: Polygon): number[] {
    const xy = [...polygon.outer],
        rings = [0, polygon.outer.length >> 1];
    for (const h of polygon.holes) {
        xy.push(...h);
        rings.push(xy.length >> 1);
    }
    return triangulate(xy, rings);
}

// Hertel–Mehlhorn: drops diagonals, longest first, while the two pieces on either side make a convex
// piece of at most maxVertices corners (collinear vertices do not count and are dropped at the end).
function merge(xy: Float64Array, tri: number[], maxVertices: number): number[][] {
    const cross = (a: number, b: number, c: number): number =>
        (xy[2 * b] - xy[2 * a]) * (xy[2 * c + 1] - xy[2 * a + 1]) -
        (xy[2 * b + 1] - xy[2 * a + 1]) * (xy[2 * c] - xy[2 * a]);
    const pieces: number[][] = [],
        parent: number[] = [];
    const edge = new Map<number, number>(),
        nv = xy.length >> 1;
    const diag: number[] = []; // (u, v, piece of u→v, piece of v→u)
    for (let k = 0; k < tri.length; k += 3) {
        const a = tri[k],
            b = tri[k + 1],
            c = tri[k + 2];
        if (cross(a, b, c) <= 0) continue; // a flat triangle from a repair pass covers nothing
        const id = pieces.length;
        pieces.push([a, b, c]);
        parent.push(id);
        for (const [u, v] of [
            [a, b],
            [b, c],
            [c, a]
        ]) {
            const t = edge.get(v * nv + u);
            if (t !== undefined) {
                diag.push(u, v, id, t);
                edge.delete(v * nv + u);
            } else edge.set(u * nv + v, id);
        }
    }
    const find = (i: number): number => {
        while (parent[i] !== i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    };
    const len2 = (k: number): number => {
        const u = diag[k],
            v = diag[k + 1];
        return (xy[2 * u] - xy[2 * v]) ** 2 + (xy[2 * u + 1] - xy[2 * v + 1]) ** 2;
    };
    const order = Array.from({ length: diag.length >> 2 }, (_, k) => 4 * k).sort((a, b) => len2(b) - len2(a));
    for (const k of order) {
        const u = diag[k],
            v = diag[k + 1],
            p1 = find(diag[k + 2]),
            p2 = find(diag[k + 3]);
        if (p1 === p2) continue;
        const A = pieces[p1],
            B = pieces[p2];
        const ia = A.indexOf(u),
            ib = B.indexOf(v);
        if (ia < 0 || ib < 0 || A[(ia + 1) % A.length] !== v || B[(ib + 1) % B.length] !== u) continue;
        // merged: v, A round to u, then B strictly between u and v
        const merged: number[] = [v];
        for (let i = (ia + 2) % A.length; ; i = (i + 1) % A.length) {
            merged.push(A[i]);
            if (A[i] === u) break;
        }
        for (let i = (ib + 2) % B.length; B[i] !== v; i = (i + 1) % B.length) merged.push(B[i]);
        const L = merged.length;
        let corners = 0,
            convex = true;
        for (let i = 0; i < L && convex; i++) {
            const c = cross(merged[(i + L - 1) % L], merged[i], merged[(i + 1) % L]);
            if (c < 0) convex = false;
            else if (c > 0) corners++;
        }
        if (!convex || corners > maxVertices) continue;
        const id = pieces.length;
        pieces.push(merged);
        parent.push(id);
        parent[p1] = id;
        parent[p2] = id;
    }
    const out: number[][] = [];
    for (let p = 0; p < pieces.length; p++) {
        if (parent[p] !== p) continue;
        const ring = pieces[p],
            L = ring.length,
            flat: number[] = [];
        for (let i = 0; i < L; i++) {
            const v = ring[i];
            if (cross(ring[(i + L - 1) % L], v, ring[(i + 1) % L]) !== 0) flat.push(xy[2 * v], xy[2 * v + 1]);
        }
        out.push(flat);
    }
    return out;
}
