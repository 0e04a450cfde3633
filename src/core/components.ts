// Connected components and outlines on the strip layout (word of pixel (x, y) = words[(x >>> 5) * height + y]).
import { ctz } from '../base/bits.js';

/** Horizontal runs of set pixels in row-major order, labelled by 8-connected component. */
export interface Runs {
    /** First x of each run. */
    x0: Int32Array;
    /** One past the last x of each run. */
    x1: Int32Array;
    /** Row of each run. */
    y: Int32Array;
    /** Component index of each run, 0-based, in the row-major order of each component's first pixel. */
    label: Int32Array;
    /** Number of runs. */
    count: number;
    /** Number of components. */
    components: number;
}

/** Finds every run of set pixels and labels runs by 8-connected component (run-based union-find). */
export function labelRuns(words: Uint32Array, width: number, height: number): Runs {
    let cap = 64;
    let x0 = new Int32Array(cap),
        x1 = new Int32Array(cap),
        ys = new Int32Array(cap);
    let count = 0;
    const strips = (width + 31) >>> 5;

    const push = (a: number, b: number, y: number) => {
        if (count === cap) {
            cap *= 2;
            const nx0 = new Int32Array(cap),
                nx1 = new Int32Array(cap),
                ny = new Int32Array(cap);
            nx0.set(x0);
            nx1.set(x1);
            ny.set(ys);
            x0 = nx0;
            x1 = nx1;
            ys = ny;
        }
        x0[count] = a;
        x1[count] = b;
        ys[count] = y;
        count++;
    };

    for (let y = 0; y < height; y++) {
        let open = -1;
        for (let s = 0; s < strips; s++) {
            const w = words[s * height + y] | 0;
            const base = s << 5;
            let cur = w;
            if (open >= 0) {
                const inv = ~w;
                if (inv === 0) continue; // the run goes on through the whole word
                const z = ctz(inv);
                push(open, base + z, y);
                open = -1;
                cur = (w >>> z) << z; // clears the bits of the run just closed
            }
            while (cur !== 0) {
                const st = ctz(cur);
                const inv = (~cur >>> st) << st;
                if (inv === 0) {
                    open = base + st;
                    break;
                }
                const en = ctz(inv);
                push(base + st, base + en, y);
                cur = (cur >>> en) << en;
            }
        }
        if (open >= 0) push(open, width, y);
    }

    // Union-find over runs; the smaller index stays root, so a root is its component's first run.
    const parent = new Int32Array(count);
    for (let i = 0; i < count; i++) parent[i] = i;
    const find = (i: number) => {
        while (parent[i] !== i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    };
    let prevStart = 0,
        prevEnd = 0,
        i = 0;
    while (i < count) {
        const y = ys[i];
        let curEnd = i;
        while (curEnd < count && ys[curEnd] === y) curEnd++;
        if (prevEnd > prevStart && ys[prevStart] === y - 1) {
            let p = prevStart,
                c = i;
            while (p < prevEnd && c < curEnd) {
                // 8-connectivity: runs touch when they overlap or meet diagonally.
                if (x0[c] <= x1[p] && x0[p] <= x1[c]) {
                    const rp = find(p),
                        rc = find(c);
                    if (rp < rc) parent[rc] = rp;
                    else if (rc < rp) parent[rp] = rc;
                }
                if (x1[p] < x1[c]) p++;
                else c++;
            }
        }
        prevStart = i;
        prevEnd = curEnd;
        i = curEnd;
    }
    const label = new Int32Array(count);
    let components = 0;
    for (let r = 0; r < count; r++) {
        const root = find(r);
        label[r] = root === r ? components++ : label[root];
    }
    return { x0, x1, y: ys, label, count, components };
}

// Moore-neighbour directions, clockwise on screen starting east (pygame's order).
const DX = [1, 1, 0, -1, -1, -1, 0, 1];
const DY = [0, 1, 1, 1, 0, -1, -1, -1];

/** Traces the outline of the first component in row-major order, clockwise, start point repeated at the end. */
export function traceOutline(get: (x: number, y: number) => boolean, first: { x: number; y: number }): number[] {
    const fx = first.x,
        fy = first.y;
    const out = [fx, fy];
    let n = 0;
    for (; n < 8; n++) if (get(fx + DX[n], fy + DY[n])) break;
    if (n === 8) return out; // a lone pixel
    const sx = fx + DX[n],
        sy = fy + DY[n];
    out.push(sx, sy);
    let cx = sx,
        cy = sy;
    for (;;) {
        let nx = 0,
            ny = 0;
        for (let k = 0, d = (n + 6) & 7; k < 8; k++, d = (d + 1) & 7) {
            if (get(cx + DX[d], cy + DY[d])) {
                nx = cx + DX[d];
                ny = cy + DY[d];
                n = d;
                break;
            }
        }
        if (cx === fx && cy === fy && nx === sx && ny === sy) break;
        out.push(nx, ny);
        cx = nx;
        cy = ny;
    }
    return out;
}
