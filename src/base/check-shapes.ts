// The one check of a flat ring [x0, y0, x1, y1, …], and of the polygons ({ outer, holes }) and convex pieces
// built of rings, for every part that takes them (shapes, debug drawing, the atlas). TypeErrors throughout:
// a ring of 4 numbers or with a NaN in it is not a ring.
import { typeError, must } from './check.js';
import { checkArray } from './check-types.js';
import type { Polygon } from './types.js';

/** Throws unless `ring` is an array of at least 3 (x, y) pairs of finite numbers; returns it. */
export function checkRing(name: string, ring: unknown): number[] {
    if (!Array.isArray(ring)) throw typeError(name, 'an array of numbers [x0, y0, x1, y1, …]', ring);
    if (ring.length < 6 || ring.length % 2 !== 0)
        throw new TypeError(must(name, 'hold at least 3 (x, y) pairs', `${ring.length} numbers`));
    for (let i = 0; i < ring.length; i++) {
        const c: unknown = ring[i];
        // c - c is 0 exactly for finite numbers.
        if (typeof c !== 'number' || c - c !== 0) throw typeError(`${name}[${i}]`, 'a finite number', c);
    }
    return ring as number[];
}

/** Throws unless `rings` is an array of rings; returns it. */
export function checkRings(name: string, rings: unknown): number[][] {
    checkArray(name, rings, 'an array of rings');
    rings.forEach((r, i) => checkRing(`${name}[${i}]`, r));
    return rings as number[][];
}

/** Throws unless `polygon` is a `{ outer, holes }` object of rings; returns it. */
export function checkPolygon(name: string, polygon: unknown): Polygon {
    if (polygon === null || typeof polygon !== 'object')
        throw typeError(name, 'an object { outer: number[], holes: number[][] }', polygon);
    const { outer, holes } = polygon as { outer: unknown; holes: unknown };
    checkRing(`${name}.outer`, outer);
    checkRings(`${name}.holes`, holes);
    return polygon as Polygon;
}

/** Throws unless `polygons` is an array of polygons (as toPolygons returns them); returns it. */
export function checkPolygons(name: string, polygons: unknown): Polygon[] {
    checkArray(name, polygons, 'an array of { outer, holes } (as toPolygons returns)');
    polygons.forEach((p, k) => checkPolygon(`${name}[${k}]`, p));
    return polygons as Polygon[];
}

/** Throws unless `pieces` is an array of rings (as convexPieces returns them); returns it. Convexity: see below. */
export function checkPieces(name: string, pieces: unknown): number[][] {
    checkArray(name, pieces, 'an array of flat rings (as convexPieces returns)');
    pieces.forEach((p, k) => checkRing(`${name}[${k}]`, p));
    return pieces as number[][];
}

/** The RangeError of a piece that is not convex with A > 0; `got` says how (the test is the caller's geometry). */
export function notConvex(name: string, got: string): RangeError {
    return new RangeError(must(name, 'be convex with A > 0 (as convexPieces returns)', got));
}
