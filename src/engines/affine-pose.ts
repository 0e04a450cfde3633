// A sprite's pose from the 2×3 matrix its engine draws its frame with: what hitmask/kaplay and hitmask/excalibur share.
// Both engines build the matrix out of translations, scales and rotations; the pose takes its rotation, signed scales
// and translation, and refuses a skewed matrix (a mask only rotates, scales and mirrors). No engine import.
import { must, outOfRange } from '../base/check.js';
import type { FrameMask, SpritePose } from './sprite.js';

/** A 2×3 matrix: the point (u, v) lands at (a·u + c·v + tx, b·u + d·v + ty). */
export interface Matrix2D {
    a: number;
    b: number;
    c: number;
    d: number;
    tx: number;
    ty: number;
}

// Scales are snapped to multiples of 2^-36: hypot(cos·s, sin·s) is s only within an ulp or two, and scale 1 must stay
// exactly 1 (exact quarter turns, no rasterising) and give the transform cache one key per scale.
const SNAP = 2 ** 36;

/** @internal The identity matrix, as a new object. */
export function identity(): Matrix2D {
    return { a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0 };
}

/** @internal m ← m·T(x, y): the point is moved by (x, y) before m applies. */
export function translateBy(m: Matrix2D, x: number, y: number): void {
    m.tx += m.a * x + m.c * y;
    m.ty += m.b * x + m.d * y;
}

/** @internal m ← m·S(sx, sy). */
export function scaleBy(m: Matrix2D, sx: number, sy: number): void {
    m.a *= sx;
    m.b *= sx;
    m.c *= sy;
    m.d *= sy;
}

/** @internal m ← m·R(angle), angle in radians, clockwise on screen (y down). */
export function rotateBy(m: Matrix2D, angle: number): void {
    if (angle === 0) return;
    const cos = Math.cos(angle),
        sin = Math.sin(angle);
    const { a, b, c, d } = m;
    m.a = a * cos + c * sin;
    m.b = b * cos + d * sin;
    m.c = c * cos - a * sin;
    m.d = d * cos - b * sin;
}

/**
 * @internal The pose of frame mask `fm` drawn with `m`, the matrix from untrimmed frame pixels to world pixels,
 * written into `pose`. A mirror (negative determinant) goes on x. Throws a RangeError when `m` is skewed or not finite.
 */
export function poseFromMatrix(m: Matrix2D, fm: FrameMask, pose: SpritePose): SpritePose {
    const { a, b, c, d, tx, ty } = m;
    if (!Number.isFinite(a + b + c + d + tx + ty)) {
        const got = `a=${a}, b=${b}, c=${c}, d=${d}, tx=${tx}, ty=${ty}`;
        const why = ': a NaN or infinite position, scale or rotation on the object or a parent';
        throw outOfRange(must("object's transform", 'be finite', got, why));
    }
    const det = a * d - b * c;
    let sx = Math.hypot(a, b),
        sy: number,
        angle: number;
    if (sx === 0) {
        sy = Math.hypot(c, d);
        angle = sy === 0 ? 0 : Math.atan2(-c, d);
    } else {
        if (det < 0) sx = -sx;
        angle = Math.atan2(b / sx, a / sx);
        sy = det / sx;
        // Columns must be perpendicular: masks cannot be skewed.
        if (Math.abs(a * c + b * d) > 1e-9 * Math.abs(sx) * (Math.abs(c) + Math.abs(d))) {
            const got = `a=${a}, b=${b}, c=${c}, d=${d}`;
            const why = ' (a rotated child of a non-uniformly scaled parent, or a non-uniform scale before a rotation)';
            throw outOfRange(must("object's transform", 'have no skew', got, why));
        }
    }
    // Frame point f is drawn at m·f; the mask's pixel p is frame point p + (fm.x, fm.y): origin −(fm.x, fm.y).
    pose.x = tx;
    pose.y = ty;
    pose.originX = -fm.x;
    pose.originY = -fm.y;
    pose.scaleX = Math.round(sx * SNAP) / SNAP;
    pose.scaleY = Math.round(sy * SNAP) / SNAP;
    pose.angle = angle;
    pose.flipX = false;
    pose.flipY = false;
    return pose;
}
