// Ear clipping with hole bridging on doubly linked rings held in typed arrays. The algorithm is
// earcut's (mapbox/earcut, ISC): holes are joined to the outer ring by bridges found with a ray cast
// to the left (Eberly), ears are cut greedily, and two repair passes handle self-touching input.
// As in earcut, the ear test looks only at the nodes near the ear, through a list of the ring's nodes
// in z-order (Morton order of their quantised coordinates); the holes waiting to be joined are
// looked at again only where the joined ring changed. Without these, a polygon of thousands of
// holes (a noisy mask) takes time quadratic in its vertices.

// The parts: triangulate-ring.ts (the node arrays, ear clipping, bridges), triangulate-holes.ts (the order in
// which holes are joined).
import { joinHoles, numberPoints } from './triangulate-holes.js';
import { clip, markShared, R, reset, ring, zOrderBox } from './triangulate-ring.js';

/**
 * Triangles (source vertex indices, outer-ring orientation) of the polygon whose rings are vertices
 * `rings[k] .. rings[k + 1] - 1` of `xy`: ring 0 the outer ring, the others holes.
 */
export function triangulate(xy: ArrayLike<number>, rings: ArrayLike<number>): number[] {
    const nr = rings.length - 1,
        n = rings[nr];
    reset(n + 2 * nr + 2);
    const out: number[] = [];
    zOrderBox(xy, n);
    const { pointOf, count } = numberPoints(xy, n);
    const outer = markShared(ring(xy, rings[0], rings[1], true), pointOf, count);
    if (outer < 0 || R.N[outer] === R.P[outer]) return out;
    clip(joinHoles(xy, rings, outer, pointOf, count), out, 0);
    return out;
}
