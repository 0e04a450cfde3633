// Sine and cosine with the same bits on every JavaScript engine. ECMAScript leaves Math.sin and Math.cos
// approximate (engines ship different libraries), so a rotation computed with them could move a pixel between
// browsers. These are fdlibm's algorithms (as in musl): Cody–Waite reduction by π/2 in three exactly
// representable parts below 2^20·π/2, exact reduction with BigInt integers above, then fixed polynomials on
// [−π/4, π/4]. Only + − × ÷ on doubles (correctly rounded by IEEE 754; JavaScript never fuses them) and
// BigInt integer arithmetic, so the result is a function of the argument alone. Error < 1 ulp for every
// finite argument (at most 0.7 ulp measured against exact BigInt series on [−4π, 4π], and never more than 1 ulp
// from V8's Math.sin/cos anywhere; test/trig.test.ts). Costs about as much as Math.sin/cos below 2^20·π/2.

// Minimax polynomials on [−π/4, π/4]: sin x ≈ x + x³(S1 + x²(S2 + …)), cos x ≈ 1 − x²/2 + x⁴(C1 + x²(C2 + …)).
const S1 = -1.66666666666666324348e-1,
    S2 = 8.33333333332248946124e-3,
    S3 = -1.98412698298579493134e-4,
    S4 = 2.75573137070700676789e-6,
    S5 = -2.50507602534068634195e-8,
    S6 = 1.58969099521155010221e-10;
const C1 = 4.16666666666666019037e-2,
    C2 = -1.38888888888741095749e-3,
    C3 = 2.48015872894767294178e-5,
    C4 = -2.75573143513906633035e-7,
    C5 = 2.0875723212981748279e-9,
    C6 = -1.13596475577881948265e-11;

// π/2 as three 33-bit parts, each with the tail it leaves: n·PIO2_k is exact for |n| ≤ 2^20.
const INV_PIO2 = 6.36619772367581382433e-1,
    PIO2_1 = 1.57079632673412561417,
    PIO2_1T = 6.07710050650619224932e-11,
    PIO2_2 = 6.0771005063039659766e-11,
    PIO2_2T = 2.02226624879595063154e-21,
    PIO2_3 = 2.0222662487111664558e-21,
    PIO2_3T = 8.47842766036889956997e-32;
// Adding and subtracting 1.5·2^52 rounds a double below 2^51 to the nearest integer.
const TOINT = 1.5 * 2 ** 52;
// Below this |x| (fdlibm's 0x3FE921FB high word, just over π/4) no reduction is needed; from MEDIUM on, BigInt.
const PIO4_UP = 0.7853984832763672,
    MEDIUM = 1647099;
// reduce()'s rounds: a part of π/2, its tail, and how small the result must be (relative to |x|) for the next
// round to be needed: the subtraction cancelled ~16 or ~49 leading bits (fdlibm compares exponents; these
// bounds include its cases). The first round's subtraction is exact (Sterbenz), so its correction term is 0.
const ROUNDS = [PIO2_1, PIO2_1T, 2 ** -15, PIO2_2, PIO2_2T, 2 ** -48, PIO2_3, PIO2_3T, 0];

/** sin(x) for x in [−π/4, π/4] given as x + y (y the tail of a reduction, 0 with `tail` false). */
function kSin(x: number, y: number, tail: boolean): number {
    const z = x * x,
        w = z * z,
        r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6),
        v = z * x;
    return tail ? x - (z * (0.5 * y - v * r) - y - v * S1) : x + v * (S1 + z * r);
}

/** cos(x) for x in [−π/4, π/4] given as x + y. */
function kCos(x: number, y: number): number {
    const z = x * x,
        w = z * z,
        r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    const hz = 0.5 * z,
        u = 1 - hz;
    return u + (1 - u - hz + (z * r - x * y));
}

// The last reduction: x − n·π/2 = y0 + y1 (a double-double), so that the callers allocate nothing.
let y0 = 0,
    y1 = 0;

/** Reduces x (|x| ≥ π/4, finite) to y0 + y1 in [−π/4, π/4]; returns n with x = n·π/2 + y0 + y1. */
function reduce(x: number): number {
    const a = Math.abs(x);
    if (a >= MEDIUM) return reduceLarge(x);
    const n = x * INV_PIO2 + TOINT - TOINT;
    let r = x;
    for (let i = 0; ; i += 3) {
        const t = r,
            p = n * ROUNDS[i];
        r = t - p;
        const w = n * ROUNDS[i + 1] - (t - r - p),
            y = r - w;
        if (!(Math.abs(y) < a * ROUNDS[i + 2])) {
            y0 = y;
            y1 = r - y - w;
            return n;
        }
    }
}

// Fixed-point constants for reduceLarge, computed on first use: 2/π·2^K and π/2·2^P.
const K = 1280n,
    P = 256n,
    L = 200n;
let twoOverPi = 0n,
    halfPi = 0n;

/** atan(1/k)·one (Taylor series, truncated terms: error below 2 units per term). */
function atanInv(k: bigint, one: bigint): bigint {
    let t = one / k,
        s = t,
        i = 1n;
    for (const k2 = k * k; t !== 0n;) {
        t /= k2;
        i += 2n;
        s += (i & 2n ? -t : t) / i;
    }
    return s;
}

// x = m·2^e exactly (m a BigInt); m times 2/π to 1280 bits gives n and the fraction with at least 115 correct
// bits even for the doubles closest to a multiple of π/2 (2^−61 away). About 2 µs a call.
/** reduce() for |x| ≥ 2^20·π/2. */
function reduceLarge(x: number): number {
    if (twoOverPi === 0n) {
        // Machin: π = 16·atan(1/5) − 4·atan(1/239), here with 64 guard bits.
        const pi = 16n * atanInv(5n, 1n << (K + 64n)) - 4n * atanInv(239n, 1n << (K + 64n));
        twoOverPi = (1n << (2n * K + 65n)) / pi;
        halfPi = pi >> (K + 65n - P);
    }
    const a = Math.abs(x),
        small = a < 2 ** 53;
    // Below 2^53, a·2^32 is an integer (a ≥ 2^20 has no bits under 2^−32); above, a is one.
    const s = small ? K + 32n : K,
        q = BigInt(small ? a * 2 ** 32 : a) * twoOverPi;
    const n = (q + (1n << (s - 1n))) >> s,
        r = ((q - (n << s)) * halfPi) >> (s + P - L);
    const hi = Number(r);
    y0 = hi * 2 ** -200;
    y1 = Number(r - BigInt(hi)) * 2 ** -200;
    const q4 = Number(n & 3n);
    if (x > 0) return q4;
    y0 = -y0;
    y1 = -y1;
    return -q4;
}

/** sin(x + quarter·π/2) for quarter 0 or 1. */
function sinCos(x: number, quarter: number): number {
    const a = Math.abs(x),
        tail = a >= PIO4_UP;
    if (!(a < Infinity)) return x - x;
    let n = quarter;
    if (tail) n += reduce(x);
    else {
        y0 = x;
        y1 = 0;
    }
    const v = n & 1 ? kCos(y0, y1) : kSin(y0, y1, tail);
    return n & 2 ? -v : v;
}

/** sin(x) with the same bits on every engine; error < 1 ulp (see the header). */
export function sin(x: number): number {
    return x === 0 ? x : sinCos(x, 0);
}

/** cos(x) with the same bits on every engine; error < 1 ulp (see the header). */
export function cos(x: number): number {
    return sinCos(x, 1);
}
