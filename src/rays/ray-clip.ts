// Far segments: clipped to the box (grown by 1 px) before the walk, so the walk's divisions stay exact enough.
import type { RayState } from './ray-state.js';

// Beyond this many pixels outside the box, a segment is first clipped to the box (grown by 1 px) in doubles:
// t = (b − x0) / dx then keeps 2^-20 px of resolution (2^-53 relative to a 2^33 px span), and dx cannot overflow.
const FAR = 2 ** 32;

// Whether the segment lies (at both ends) within FAR of the box [ox, ox + W) × [oy, oy + H).
/** @internal */
export function near(
    W: number,
    H: number,
    ox: number,
    oy: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number
): boolean {
    return (
        x0 >= ox - FAR &&
        x0 <= ox + W + FAR &&
        x1 >= ox - FAR &&
        x1 <= ox + W + FAR &&
        y0 >= oy - FAR &&
        y0 <= oy + H + FAR &&
        y1 >= oy - FAR &&
        y1 <= oy + H + FAR
    );
}

// Clips a far segment to the box grown by 1 px (so a clipped start lies outside the box and its pixels are
// entered through a face) into st.cx0..cy1; false when it misses. Halved coordinates: no difference overflows.
// A clipped end on an x face has x exact and y = y0 + t·dy, as precise as doubles at the input's magnitude.
/** @internal */
export function clipFar(
    st: RayState,
    W: number,
    H: number,
    ox: number,
    oy: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number
): boolean {
    const hx = x0 * 0.5,
        hy = y0 * 0.5,
        hdx = x1 * 0.5 - hx,
        hdy = y1 * 0.5 - hy;
    const X0 = ox - 1,
        X1 = ox + W + 1,
        Y0 = oy - 1,
        Y1 = oy + H + 1;
    let ta = 0,
        tb = 1,
        fa = 0,
        fb = 0;
    if (hdx !== 0) {
        let p = (X0 * 0.5 - hx) / hdx,
            q = (X1 * 0.5 - hx) / hdx;
        if (hdx < 0) {
            const s = p;
            p = q;
            q = s;
        }
        if (p > ta) {
            ta = p;
            fa = 1;
        }
        if (q < tb) {
            tb = q;
            fb = 1;
        }
    } else if (!(x0 >= X0 && x0 <= X1)) return false;
    if (hdy !== 0) {
        let p = (Y0 * 0.5 - hy) / hdy,
            q = (Y1 * 0.5 - hy) / hdy;
        if (hdy < 0) {
            const s = p;
            p = q;
            q = s;
        }
        if (p > ta) {
            ta = p;
            fa = 2;
        }
        if (q < tb) {
            tb = q;
            fb = 2;
        }
    } else if (!(y0 >= Y0 && y0 <= Y1)) return false;
    if (!(ta <= tb)) return false;
    st.cx0 = x0;
    st.cy0 = y0;
    st.cx1 = x1;
    st.cy1 = y1;
    // Each clipped end goes onto the x face it crosses when the line meets that face inside the box, else onto
    // the y face (the two slab parameters tie far more often than the faces do at this magnitude).
    if (fa !== 0) {
        const X = hdx > 0 ? X0 : X1,
            Y = hdx !== 0 ? onLine(y0, x0, hdy / hdx, X, 2 * (hy + ta * hdy)) : NaN;
        if (Y >= Y0 && Y <= Y1) {
            st.cx0 = X;
            st.cy0 = Y;
        } else {
            st.cy0 = hdy > 0 ? Y0 : Y1;
            st.cx0 = clamp(onLine(x0, y0, hdx / hdy, st.cy0, 2 * (hx + ta * hdx)), X0, X1);
        }
    }
    if (fb !== 0) {
        const X = hdx > 0 ? X1 : X0,
            Y = hdx !== 0 ? onLine(y0, x0, hdy / hdx, X, 2 * (hy + tb * hdy)) : NaN;
        if (Y >= Y0 && Y <= Y1) {
            st.cx1 = X;
            st.cy1 = Y;
        } else {
            st.cy1 = hdy > 0 ? Y1 : Y0;
            st.cx1 = clamp(onLine(x0, y0, hdx / hdy, st.cy1, 2 * (hx + tb * hdx)), X0, X1);
        }
    }
    return true;
}

// The line's other coordinate at u: v0 + slope·(u − u0) in intercept form, (v0 − slope·u0) + slope·u, exact when the
// slope is a power of two and the intercept is representable (the diagonal y = x + c from ±2^1023 lands exactly);
// `fallback` (from the parameter) where the intercept overflows.
function onLine(v0: number, u0: number, slope: number, u: number, fallback: number): number {
    const v = v0 - slope * u0 + slope * u;
    return v - v === 0 ? v : fallback;
}

// (−0 clamps to a bound of 0, as Math.max would.)
/** @internal */
export function clamp(v: number, lo: number, hi: number): number {
    return v <= lo ? lo : v >= hi ? hi : v;
}
