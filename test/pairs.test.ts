// @test fast
// PairList: the counting-sort pair order of a World step equals a comparison sort of (a, b).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PairList } from '../src/world/pair-list.js'; // internal: the pair list has no public entry
import { mulberry32 } from './reference.js';

test('PairList.sort orders random pairs like a comparison sort, with duplicates, empty buckets and reuse', () => {
    const rnd = mulberry32(12);
    const list = new PairList();
    for (let round = 0; round < 200; round++) {
        const ranks = 1 + Math.floor(rnd() * (round % 3 === 0 ? 5 : 3000));
        const n = Math.floor(rnd() * (round % 5 === 0 ? 5000 : 200));
        const want: [number, number][] = [];
        list.clear();
        for (let k = 0; k < n && ranks > 1; k++) {
            let a = Math.floor(rnd() * ranks),
                b = Math.floor(rnd() * ranks);
            if (a === b) continue;
            if (a > b) [a, b] = [b, a];
            list.push(a, b);
            want.push([a, b]);
        }
        want.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
        list.sort(ranks);
        const got: [number, number][] = [];
        for (let k = 0; k < list.n; k++) got.push([list.a[k], list.b[k]]);
        assert.deepEqual(got, want, `round ${round}: ${n} pairs over ${ranks} ranks`);
    }
});
