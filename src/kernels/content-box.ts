// The box of a mask's set pixels, from its words: the pair queries clip to it (core/mask.ts keeps it while
// the mask is unchanged), so a large clip scans only where both masks have pixels.

/**
 * Writes the box of the set pixels of `words` (strip layout, `height` rows, `strips` strips) into `out` as
 * x0, y0, x1, y1 (x1, y1 exclusive; x in whole strips, which is all the kernels can skip), and returns it;
 * all 0 when no pixel is set. Each strip is read from the top and from the bottom to its first set word: a
 * solid sprite costs its margins.
 */
export function contentBox(words: Uint32Array, height: number, strips: number, out: Int32Array): Int32Array {
    out.fill(0);
    for (let s = 0, base = 0; s < strips; s++, base += height) {
        let y = 0,
            z = height;
        while (y < z && words[base + y] === 0) y++;
        if (y === z) continue;
        while (words[base + z - 1] === 0) z--;
        // the first strip with pixels sets the left edge and a first top
        if (out[2] === 0) {
            out[0] = s << 5;
            out[1] = y;
        }
        out[1] = Math.min(out[1], y);
        out[2] = (s + 1) << 5;
        out[3] = Math.max(out[3], z);
    }
    return out;
}
