// @test fast
// The broad-phase grid against brute force over many builds: the dense grid edits its cells in place between
// builds (bodies that changed cells move, full buckets are relocated, a layout comes when room runs out), so
// long runs of small moves, churn of the body list, large bodies and geometry changes must all keep the
// pairs and the queries exact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Grid, type Boxes } from '../src/world/grid.js'; // internal: the broad phase has no public entry
import { mulberry32 } from './reference.js';

interface Scene {
    boxes: Boxes;
    cat: Int32Array;
    colw: Int32Array;
    grp: Int32Array;
    live: Uint8Array;
    n: number;
}

function makeScene(n: number, side: number, rnd: () => number): Scene {
    const f = () => new Float64Array(n);
    const s: Scene = {
        boxes: { x0: f(), y0: f(), x1: f(), y1: f() },
        cat: new Int32Array(n),
        colw: new Int32Array(n),
        grp: new Int32Array(n),
        live: new Uint8Array(n),
        n
    };
    for (let i = 0; i < n; i++) {
        place(
            s,
            i,
            Math.floor(rnd() * side),
            Math.floor(rnd() * side),
            1 + Math.floor(rnd() * 40),
            1 + Math.floor(rnd() * 40)
        );
        s.cat[i] = rnd() < 0.9 ? 1 : 2;
        s.colw[i] = rnd() < 0.9 ? -1 : 1;
        s.grp[i] = rnd() < 0.1 ? 1 : 0;
        s.live[i] = rnd() < 0.9 ? 1 : 0;
    }
    return s;
}

function place(s: Scene, i: number, x: number, y: number, w: number, h: number): void {
    s.boxes.x0[i] = x;
    s.boxes.y0[i] = y;
    s.boxes.x1[i] = x + w;
    s.boxes.y1[i] = y + h;
}

function listOf(s: Scene): { list: Int32Array; n: number } {
    const list = new Int32Array(s.n);
    let n = 0;
    for (let i = 0; i < s.n; i++)
        if (s.live[i] && s.boxes.x1[i] > s.boxes.x0[i] && s.boxes.y1[i] > s.boxes.y0[i]) list[n++] = i;
    return { list, n };
}

function brutePairs(s: Scene, list: Int32Array, n: number): string[] {
    const { x0, y0, x1, y1 } = s.boxes,
        out: string[] = [];
    for (let p = 0; p < n; p++) {
        for (let q = p + 1; q < n; q++) {
            const i = list[p],
                j = list[q];
            if (x0[j] >= x1[i] || y0[j] >= y1[i] || x1[j] <= x0[i] || y1[j] <= y0[i]) continue;
            if (
                (s.cat[i] & s.colw[j]) === 0 ||
                (s.cat[j] & s.colw[i]) === 0 ||
                (s.grp[i] !== 0 && s.grp[i] === s.grp[j])
            )
                continue;
            out.push(`${i}-${j} ${x0[j] - x0[i]},${y0[j] - y0[i]}`);
        }
    }
    return out.sort();
}

function gridPairs(g: Grid, s: Scene): string[] {
    const np = g.collectPairs(s.cat, s.colw, s.grp),
        P = g.pairs,
        out: string[] = [];
    for (let k = 0; k < np; k++) {
        const [i, j, dx, dy] = [P[4 * k], P[4 * k + 1], P[4 * k + 2], P[4 * k + 3]];
        out.push(i < j ? `${i}-${j} ${dx},${dy}` : `${j}-${i} ${-dx},${-dy}`);
    }
    return out.sort();
}

function checkQuery(
    g: Grid,
    s: Scene,
    list: Int32Array,
    n: number,
    rnd: () => number,
    side: number,
    token: number
): void {
    const { x0, y0, x1, y1 } = s.boxes;
    const qx = Math.floor(rnd() * side),
        qy = Math.floor(rnd() * side),
        qw = 1 + Math.floor(rnd() * 200),
        qh = 1 + Math.floor(rnd() * 200);
    const seen = new Int32Array(s.n),
        out = new Int32Array(s.n);
    const got = [...out.subarray(0, g.query(qx, qy, qx + qw, qy + qh, seen, token, out))].sort((a, b) => a - b);
    const want: number[] = [];
    for (let k = 0; k < n; k++) {
        const j = list[k];
        if (x0[j] < qx + qw && y0[j] < qy + qh && x1[j] > qx && y1[j] > qy) want.push(j);
    }
    assert.deepEqual(got, want);
}

test('the grid lists every overlapping pair once over 400 builds of small moves with churn', () => {
    for (const seed of [1, 2, 3]) {
        const rnd = mulberry32(seed),
            side = 900,
            s = makeScene(600, side, rnd),
            g = new Grid();
        for (let step = 0; step < 400; step++) {
            for (let i = 0; i < s.n; i++) {
                const r = rnd();
                const { x0, y0, x1, y1 } = s.boxes,
                    w = x1[i] - x0[i],
                    h = y1[i] - y0[i];
                // Mostly small moves (the in-place path); some teleports, size changes, removals and returns.
                if (r < 0.8) place(s, i, x0[i] + Math.floor(rnd() * 7) - 3, y0[i] + Math.floor(rnd() * 7) - 3, w, h);
                else if (r < 0.81) place(s, i, Math.floor(rnd() * side), Math.floor(rnd() * side), w, h);
                else if (r < 0.815)
                    place(s, i, x0[i], y0[i], 1 + Math.floor(rnd() * 40), rnd() < 0.1 ? 0 : 1 + Math.floor(rnd() * 40));
                else if (r < 0.818) s.live[i] ^= 1;
                else if (r < 0.819) place(s, i, x0[i], y0[i], 300, 20); // a large body (many cells wide)
            }
            // A crowd gathering in one spot fills buckets past their room (relocation, then a layout).
            if (step % 97 === 50) for (let i = 0; i < 60; i++) place(s, i, 400 + (i % 5), 400 + (i % 7), 10, 10);
            const { list, n } = listOf(s);
            const cell = step < 200 ? 32 : step < 300 ? 64 : 16;
            g.build(list, n, s.boxes, cell);
            assert.equal(g.dense, true);
            assert.deepEqual(gridPairs(g, s), brutePairs(s, list, n), `seed ${seed} step ${step}`);
            if (step % 10 === 0) checkQuery(g, s, list, n, rnd, side, step + 1);
        }
    }
});

test('the grid stays exact when builds switch between dense and hashed, and when no body is left', () => {
    const rnd = mulberry32(9),
        s = makeScene(300, 500, rnd),
        g = new Grid();
    for (let step = 0; step < 120; step++) {
        for (let i = 0; i < s.n; i++) {
            const { x0, y0, x1, y1 } = s.boxes;
            place(
                s,
                i,
                x0[i] + Math.floor(rnd() * 5) - 2,
                y0[i] + Math.floor(rnd() * 5) - 2,
                x1[i] - x0[i],
                y1[i] - y0[i]
            );
        }
        // One far-away body makes the occupied area sparse: the grid hashes its cells for those builds.
        const far = step % 30 >= 20;
        s.live[0] = 1;
        const keep = s.boxes.x0[0];
        if (far) place(s, 0, 2 ** 40, 2 ** 40, 10, 10);
        const empty = step % 40 === 39;
        const { list, n } = empty ? { list: new Int32Array(0), n: 0 } : listOf(s);
        g.build(list, n, s.boxes, 32);
        if (far && !empty) assert.equal(g.dense, false, 'a far body makes the grid hashed');
        assert.deepEqual(gridPairs(g, s), brutePairs(s, list, n), `step ${step}`);
        if (!empty) checkQuery(g, s, list, n, rnd, 500, step + 1);
        if (far) place(s, 0, keep, keep, 10, 10);
    }
});
