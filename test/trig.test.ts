// @test no-shared
// The deterministic sine and cosine (src/base/trig.ts) that rotations use: error against exact values computed
// with BigInt series, agreement with Math.sin/cos, special values, and a recorded checksum of their bits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cos, sin } from '../src/base/trig.js'; // internal: not part of the public API
import { crc32 } from '../src/base/crc32.js';
import { mulberry32 } from './reference.js';

const F = 400n,
    ONE = 1n << F;

/** x·2^400 as a BigInt, exactly (|x| ≥ 2^-300, so the product is an integer). */
function fixed(x: number): bigint {
    return BigInt(x * 2 ** 400);
}

/** sin or cos of the double x, exactly to about 2^-390, by its Taylor series in 400-bit fixed point (|x| < 16). */
function exact(x: number, fn: 'sin' | 'cos'): bigint {
    const X = fixed(x),
        X2 = X * X;
    let term = fn === 'sin' ? X : ONE,
        sum = term;
    for (let k = fn === 'sin' ? 2n : 1n; term !== 0n; k += 2n) {
        term = (-term * X2) / (ONE * ONE * k * (k + 1n));
        sum += term;
    }
    return sum;
}

/** |got − exact| in units in the last place of `got`. */
function ulpError(got: number, want: bigint): number {
    const g = fixed(got),
        d = g > want ? g - want : want - g,
        mag = g < 0n ? -g : g;
    const ulp = 1n << BigInt(mag.toString(2).length - 53);
    return Number((d * 1024n) / ulp) / 1024;
}

const bits = new Float64Array(1),
    words = new BigInt64Array(bits.buffer);
/** How many doubles lie between a and b (0 when they are the same number). */
function ulpsApart(a: number, b: number): number {
    bits[0] = a;
    const x = words[0];
    bits[0] = b;
    const d = x - words[0];
    return Object.is(a, b) ? 0 : Math.sign(a) !== Math.sign(b) ? Infinity : Number(d < 0n ? -d : d);
}

/** The angle of step `i` of `steps` as TransformCache passes it to transformMask. */
function stepAngle(i: number, steps: number): number {
    return (i * 4) % steps === 0 ? (((i * 4) / steps) * Math.PI) / 2 : (i * 2 * Math.PI) / steps;
}

test('sin and cos are within 1 ulp of the exact values at the 256 World angles and on [−4π, 4π]', t => {
    const rnd = mulberry32(30);
    const angles = Array.from({ length: 256 }, (_, i) => stepAngle(i, 256));
    for (let i = 0; i < 1500; i++) angles.push((rnd() - 0.5) * 8 * Math.PI);
    let worst = 0,
        rounded = 0,
        mathRounded = 0,
        n = 0;
    for (const x of angles) {
        for (const fn of ['sin', 'cos'] as const) {
            const got = fn === 'sin' ? sin(x) : cos(x);
            if (got === 0 || Math.abs(got) === 1) continue;
            const e = ulpError(got, exact(x, fn)),
                m = ulpError(fn === 'sin' ? Math.sin(x) : Math.cos(x), exact(x, fn));
            assert.ok(e < 1, `${fn}(${x}) = ${got}: ${e} ulp from the exact value`);
            worst = Math.max(worst, e);
            n++;
            if (e <= 0.5) rounded++;
            if (m <= 0.5) mathRounded++;
        }
    }
    t.diagnostic(
        `worst ${worst.toFixed(3)} ulp; correctly rounded: ${rounded} of ${n} (Math.sin/cos here: ${mathRounded})`
    );
});

test('sin and cos agree with Math.sin/cos within 1 ulp, from tiny to the largest doubles', t => {
    const rnd = mulberry32(31);
    const ranges: [string, () => number][] = [
        ['[−4π, 4π]', () => (rnd() - 0.5) * 8 * Math.PI],
        ['[−2^20·π/2, 2^20·π/2]', () => (rnd() - 0.5) * 2 * 1647099],
        ['near multiples of π/2', () => Math.floor(rnd() * 2e6) * (Math.PI / 2) + (rnd() - 0.5) * 1e-9],
        ['2^21 to 2^1023', () => (rnd() < 0.5 ? -1 : 1) * (1 + rnd()) * 2 ** Math.floor(21 + rnd() * 1002)],
        ['below 2^-20', () => (rnd() - 0.5) * 2 ** -Math.floor(20 + rnd() * 1054)]
    ];
    for (const [name, next] of ranges) {
        let differ = 0,
            worst = 0;
        const N = name === '2^21 to 2^1023' ? 3000 : 20000;
        for (let i = 0; i < N; i++) {
            const x = next();
            const d = Math.max(ulpsApart(sin(x), Math.sin(x)), ulpsApart(cos(x), Math.cos(x)));
            assert.ok(d <= 1, `x = ${x}: sin ${sin(x)} vs ${Math.sin(x)}, cos ${cos(x)} vs ${Math.cos(x)}`);
            if (d) differ++;
            worst = Math.max(worst, d);
        }
        t.diagnostic(`${name}: ${differ} of ${N} angles differ from Math in the last bit (at most ${worst} ulp)`);
    }
    // The double closest to a multiple of π/2 (2^-61 away, Kahan and McDonald), and both ends of the BigInt path.
    for (const x of [
        6381956970095103 * 2 ** 797,
        1647099,
        1647098.9999999998,
        2 ** 53,
        2 ** 53 + 2,
        Number.MAX_VALUE,
        -1e300
    ]) {
        assert.ok(ulpsApart(sin(x), Math.sin(x)) <= 1 && ulpsApart(cos(x), Math.cos(x)) <= 1, `x = ${x}`);
    }
    let steps = 0;
    for (let i = 0; i < 256; i++)
        if (
            sin(stepAngle(i, 256)) !== Math.sin(stepAngle(i, 256)) ||
            cos(stepAngle(i, 256)) !== Math.cos(stepAngle(i, 256))
        )
            steps++;
    t.diagnostic(`${steps} of the 256 World angles differ from Math.sin/cos in the last bit`);
});

test('special values: signed zeros, subnormals, quarter turns, infinities and NaN', () => {
    assert.ok(Object.is(sin(0), 0) && Object.is(sin(-0), -0) && cos(0) === 1 && cos(-0) === 1);
    assert.equal(sin(5e-324), 5e-324);
    assert.equal(sin(-1e-300), -1e-300);
    assert.equal(cos(1e-9), 1);
    for (const x of [Infinity, -Infinity, NaN]) assert.ok(Number.isNaN(sin(x)) && Number.isNaN(cos(x)));
    assert.equal(sin(Math.PI / 2), 1);
    assert.equal(cos(Math.PI), -1);
    assert.equal(sin(Math.PI), 1.2246467991473532e-16);
    assert.equal(cos(Math.PI / 2), 6.123233995736766e-17);
    for (let i = 1; i < 100; i++)
        assert.ok(sin(-i * 0.37) === -sin(i * 0.37) && cos(-i * 0.37) === cos(i * 0.37), `odd and even at ${i}`);
});

test('recorded bits: the same checksum of 40,000 results on every engine', () => {
    const rnd = mulberry32(32),
        out = new Float64Array(40000);
    for (let i = 0; i < out.length; i += 4) {
        const x = (rnd() - 0.5) * 8 * Math.PI,
            big = (1 + rnd()) * 2 ** Math.floor(rnd() * 200);
        out[i] = sin(x);
        out[i + 1] = cos(x);
        out[i + 2] = sin(big);
        out[i + 3] = cos(big);
    }
    // Little-endian bytes whatever the platform, so the checksum means the same everywhere.
    const bytes = new Uint8Array(out.length * 8),
        view = new DataView(bytes.buffer);
    out.forEach((v, i) => view.setFloat64(i * 8, v, true));
    assert.equal(crc32(bytes).toString(16), '97b11776');
});
