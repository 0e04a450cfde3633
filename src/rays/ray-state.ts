// A cast's state, and one such state per nesting level, reused from cast to cast.

const NO_WORDS = new Uint32Array(0);

// What one cast works with, passed explicitly to every step: the planes under test (their bits are ORed)
// and how many, the segment clipFar() clipped, the hit walk() found, and a World search's best hit.
/** @internal */
export class RayState {
    words: Uint32Array[] = [];
    k = 0;
    cx0 = 0;
    cy0 = 0;
    cx1 = 0;
    cy1 = 0;
    lt = 0;
    lo = 0;
    ut = 0;
    uo = 0;
    px = 0;
    py = 0;
    x = 0;
    y = 0;
    d = 0;
    nx = 0;
    ny = 0;
}

// One state per nesting level (a layer's raycast may cast a mask or tile ray inside a World's search).
const states: RayState[] = [];
let depth = 0;

/** @internal A cast's state (one per nesting level). */
export function acquire(): RayState {
    return (states[depth++] ??= new RayState());
}

/** @internal */
export function release(st: RayState): void {
    for (let p = 0; p < st.k; p++) st.words[p] = NO_WORDS;
    st.k = 0;
    depth--;
}
