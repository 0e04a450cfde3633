// TerrainChunks: destructible terrain cut into square chunks, each chunk's convex pieces rebuilt only when its pixels
// may have changed, for one static physics body per chunk (docs/terrain.md).
//
// How a chunk is known to have changed, exactly and without false negatives:
// - over a CollisionRaster (a layer view or the raster): the raster tells its watchers the box of every write
//   (stamp, erase, pixels, points, clear, restore), and the chunks under the box are marked; nothing is compared and
//   nothing is copied;
// - over a Mask, whose writers (draw, erase, set, fill, kernels, writes through `words`) say nothing of where they
//   wrote: a copy of its words, compared chunk by chunk at each sync (a 128 × 128 chunk is 512 words).
// A chunk's pieces are made from its own pixels alone (traced with the chunk's edges as the mask's edges), so they
// cover exactly the chunk: neighbours meet along the chunk border with no gap and no overlap. At a tolerance the
// vertices on the chunk border are kept, so the border edges of two neighbours stay the same line.
import { popcnt } from '../base/bits.js';
import { checkFinite, checkInt, checkMinInt, checkNonNegative, wrongType, describe } from '../base/check.js';
import { checkOptions } from '../base/check-types.js';
import { isLiveMask, type Mask } from '../core/mask.js';
import { wordsOf } from '../kernels/mask-words.js';
import type { CollisionRaster, RasterView } from '../raster/raster.js';
import { convexPieces } from './convex.js';
import { assemble } from './polygons.js';
import { simplify } from './simplify.js';
import { trace } from './trace.js';

/** Options of {@link TerrainChunks}. */
export interface TerrainChunksOptions {
    /** Chunk side in pixels, 1 to 256 (chunks at the right and bottom edges may be smaller). @default 128 */
    size?: number;
    /** Largest distance in pixels between the pieces and the exact pixel edges (see `toPolygons`). @default 1 */
    tolerance?: number;
    /** Most vertices per convex piece (Box2D and Planck take 8). @default 8 */
    maxVertices?: number;
}

/** One rebuilt chunk of {@link TerrainChunks.sync}. */
export interface ChunkPieces {
    /** The chunk's index, row-major: `row * columns + column`; the same chunk always has the same id. */
    id: number;
    /** The chunk's top-left corner, in layer pixels. */
    x: number;
    /** @see x */
    y: number;
    /**
     * The chunk's convex pieces, flat rings `[x0, y0, x1, y1, …]` in layer pixels (A > 0, y down), at most
     * `maxVertices` vertices each, covering the chunk's solid pixels (exactly at tolerance 0).
     */
    pieces: number[][];
    /**
     * The chunk's outlines less their parts inside the terrain (along the chunk's border where the pixel across it,
     * in the neighbour chunk, is solid), as polylines `[x0, y0, x1, y1, …]` in layer pixels, the solid side on the
     * right going forward on screen (y down): for engines whose separate convex pieces catch a rolling body at the
     * seam (Planck and Box2D chains with ghost vertices, docs/terrain.md). A closed ring repeats its first vertex at
     * its end.
     */
    chains: number[][];
}

/** What {@link TerrainChunks.sync} returns: the chunks whose pixels may have changed since the last call. */
export interface ChunkSync {
    /** Chunks that had pieces and now hold no solid pixel (their bodies go), ascending. */
    removed: number[];
    /** Chunks with solid pixels whose pieces were rebuilt (their bodies are replaced or made), ascending ids. */
    changed: ChunkPieces[];
}

/** A layer TerrainChunks can read: a Mask, a raster layer view (`raster.layer(i)`, `raster.view(set)`), a raster. */
export type ChunkLayer = Mask | RasterView | CollisionRaster;

// The raster members TerrainChunks uses (types only: hitmask/shapes does not carry the raster's code).
type Raster = CollisionRaster;

/**
 * A destructible terrain layer cut into `size` × `size` chunks (128 by default), for physics engines: one static body
 * per chunk with solid pixels, and after each carve only the chunks that changed are rebuilt. Call {@link sync} once
 * per frame, outside the engine's step: the first call returns every chunk with solid pixels, later calls only the
 * chunks written since.
 *
 * @example
 * const chunks = new TerrainChunks(raster.layer(0));
 * raster.erase(crater, x - r, y - r);
 * const { removed, changed } = chunks.sync(); // only the chunks under the crater
 */
export class TerrainChunks {
    /** Layer width in pixels. */
    readonly width: number;
    /** Layer height in pixels. */
    readonly height: number;
    /** Chunk side in pixels. */
    readonly size: number;
    /** Chunks per row. */
    readonly columns: number;
    /** Chunk rows. */
    readonly rows: number;
    /** Chunks rebuilt so far (counted work: a test or a HUD reads it). */
    rebuilds = 0;

    readonly #tolerance: number;
    readonly #maxVertices: number;
    // The mask read (a Mask layer), or the raster and its layer set.
    readonly #mask: Mask | null;
    readonly #raster: Raster | null;
    readonly #layers: number;
    // Per chunk: the kinds of write that may have changed it since the last sync (0 none; 1 only clears, 2 only
    // sets, 3 any: see RasterWatcher), 1 where its last report had pieces, and its pixels and the pixels just across
    // its border counted at the last sync (−1 unknown). Writes of one kind change pixels exactly when they change
    // their count, so a chunk written only by erases (or only by stamps) whose two counts are the same is unchanged.
    readonly #dirty: Uint8Array;
    readonly #solid: Uint8Array;
    readonly #count: Int32Array;
    readonly #around: Int32Array;
    // A Mask layer's words at the last sync, compared chunk by chunk.
    readonly #copy: Uint32Array | null;
    #unwatch: (() => void) | null = null;
    // A chunk's words (strip layout, its own width and height), and the layer's words it was read from.
    readonly #words: Uint32Array;
    readonly #src: Uint32Array[] = [];

    /** Cuts `layer` into chunks; nothing is traced until {@link sync}. */
    constructor(layer: ChunkLayer, options: TerrainChunksOptions = {}) {
        checkOptions('options', options, '{ size, tolerance, maxVertices }');
        this.size = checkInt('size', options.size ?? 128, 1, 256);
        this.#tolerance = checkNonNegative('tolerance', options.tolerance ?? 1, 'a finite number >= 0 (pixels)');
        this.#maxVertices = checkMinInt('maxVertices', options.maxVertices ?? 8, 3);
        const l = layer as Partial<RasterView & Raster> | null;
        if (isLiveMask(layer)) {
            this.#mask = layer;
            this.#raster = null;
            this.#layers = 0;
        } else if (
            l !== null &&
            typeof l === 'object' &&
            typeof l.watch === 'function' &&
            typeof l.view === 'function'
        ) {
            this.#mask = null;
            this.#raster = layer as Raster;
            this.#layers = this.#raster.allLayers;
        } else if (l !== null && typeof l === 'object' && typeof l.raster?.watch === 'function') {
            this.#mask = null;
            this.#raster = l.raster;
            this.#layers = l.layers as number;
        } else {
            throw wrongType(
                `TerrainChunks needs a Mask, a CollisionRaster or a raster layer view (raster.layer(i)), got ${describe(layer)}.`
            );
        }
        const src = this.#mask ?? this.#raster!;
        this.width = src.width;
        this.height = src.height;
        this.columns = Math.ceil(this.width / this.size);
        this.rows = Math.ceil(this.height / this.size);
        const n = this.columns * this.rows;
        this.#dirty = new Uint8Array(n).fill(3);
        this.#solid = new Uint8Array(n);
        this.#count = new Int32Array(n).fill(-1);
        this.#around = new Int32Array(n).fill(-1);
        this.#words = new Uint32Array(((this.size + 31) >>> 5) * this.size);
        if (this.#mask !== null) {
            // Filled with ones where the mask has none can hold: every chunk differs from it at the first sync.
            this.#copy = new Uint32Array(wordsOf(this.#mask).length).fill(0xffffffff);
        } else {
            this.#copy = null;
            // One pixel around the box: a chunk's chains read the pixels across its border.
            this.#unwatch = this.#raster!.watch((layer, x0, y0, x1, y1, kind) => {
                if (((this.#layers >>> layer) & 1) === 0) return;
                const W = this.width,
                    H = this.height;
                this.#mark(Math.max(0, x0 - 1), Math.max(0, y0 - 1), Math.min(W, x1 + 1), Math.min(H, y1 + 1), kind);
            });
        }
    }

    /** Number of chunks, `columns * rows`. */
    get count(): number {
        return this.#dirty.length;
    }

    /**
     * Marks the chunks under the box (x, y, width, height) as changed: for writes the chunks cannot see, such as
     * writes into a raster's `plane(i).words`. Writes through a Mask's or a raster's methods need no mark.
     */
    mark(x: number, y: number, width: number, height: number): this {
        checkFinite('x', x);
        checkFinite('y', y);
        checkNonNegative('width', width);
        checkNonNegative('height', height);
        const x0 = Math.max(0, Math.floor(x)),
            y0 = Math.max(0, Math.floor(y));
        const x1 = Math.min(this.width, Math.ceil(x + width)),
            y1 = Math.min(this.height, Math.ceil(y + height));
        if (x1 > x0 && y1 > y0) this.#mark(x0, y0, x1, y1, 3);
        return this;
    }

    /**
     * What changed since the last call (the first call: every chunk with solid pixels): the chunks emptied, and the
     * chunks with solid pixels written since, their pieces rebuilt. A chunk is written when a write's box meets its
     * pixels or the pixels just across its border (its chains read those); a chunk not written is in neither list.
     */
    sync(): ChunkSync {
        const out: ChunkSync = { removed: [], changed: [] };
        if (this.#copy !== null) this.#compare();
        const dirty = this.#dirty;
        for (let id = 0; id < dirty.length; id++) {
            const kind = dirty[id];
            if (kind === 0) continue;
            dirty[id] = 0;
            const cx = id % this.columns,
                cy = (id - cx) / this.columns;
            const x = cx * this.size,
                y = cy * this.size;
            const w = Math.min(this.size, this.width - x),
                h = Math.min(this.size, this.height - y);
            const any = this.#read(x, y, w, h);
            const count = this.#counted(w, h),
                around = this.#across(x, y, w, h);
            const same = count === this.#count[id] && around === this.#around[id];
            this.#count[id] = count;
            this.#around[id] = around;
            if (same && kind !== 3) continue;
            if (!any) {
                if (this.#solid[id] !== 0) out.removed.push(id);
                this.#solid[id] = 0;
                continue;
            }
            this.#solid[id] = 1;
            this.rebuilds++;
            out.changed.push(this.#build(id, x, y, w, h));
        }
        return out;
    }

    /** Stops following a raster's writes (a Mask layer holds nothing to stop); later syncs see only {@link mark}s. */
    dispose(): void {
        this.#unwatch?.();
        this.#unwatch = null;
    }

    // Marks the chunks meeting pixels x0..x1−1, y0..y1−1 (inside the layer, not empty) as written by `kind`.
    #mark(x0: number, y0: number, x1: number, y1: number, kind: number): void {
        const s = this.size,
            c = this.columns,
            d = this.#dirty;
        const cx0 = (x0 / s) | 0,
            cx1 = ((x1 - 1) / s) | 0;
        for (let cy = (y0 / s) | 0, cy1 = ((y1 - 1) / s) | 0; cy <= cy1; cy++)
            for (let cx = cx0; cx <= cx1; cx++) d[cy * c + cx] |= kind;
    }

    // A Mask layer: marks the chunks whose words differ from the copy, and copies them.
    #compare(): void {
        const a = wordsOf(this.#mask!),
            copy = this.#copy!,
            H = this.height,
            s = this.size;
        for (let id = 0; id < this.#dirty.length; id++) {
            const cx = id % this.columns,
                y0 = ((id - cx) / this.columns) * s;
            const y1 = Math.min(y0 + s, H),
                x0 = cx * s;
            // Strips holding any of the chunk's columns: a strip shared with a neighbour is compared for both.
            const s0 = x0 >>> 5,
                s1 = (Math.min(x0 + s, this.width) - 1) >>> 5;
            // Only the chunk's own bits of the strips at its ends.
            const lo = x0 & 31,
                hi = (Math.min(x0 + s, this.width) - 1) & 31;
            let differs = false,
                edge = 0;
            for (let st = s0; st <= s1; st++) {
                let m = 0xffffffff;
                if (st === s0) m &= (0xffffffff << lo) >>> 0;
                if (st === s1) m &= hi === 31 ? 0xffffffff : (1 << (hi + 1)) - 1;
                for (let i = st * H + y0, e = st * H + y1; i < e; i++) {
                    const diff = (a[i] ^ copy[i]) & m;
                    if (diff === 0) continue;
                    differs = true;
                    copy[i] = (copy[i] & ~m) | (a[i] & m);
                    // A change in the chunk's first or last row or column: the neighbour there reads it for its chains.
                    const row = i - st * H;
                    if (row === y0) edge |= 1;
                    if (row === y1 - 1) edge |= 2;
                    if (st === s0 && ((diff >>> lo) & 1) !== 0) edge |= 4;
                    if (st === s1 && ((diff >>> hi) & 1) !== 0) edge |= 8;
                }
            }
            if (!differs) continue;
            this.#dirty[id] = 3;
            if (edge !== 0) {
                const x1 = Math.min(x0 + s, this.width);
                this.#mark(
                    edge & 4 ? Math.max(0, x0 - 1) : x0,
                    edge & 1 ? Math.max(0, y0 - 1) : y0,
                    edge & 8 ? Math.min(this.width, x1 + 1) : x1,
                    edge & 2 ? Math.min(H, y1 + 1) : y1,
                    3
                );
            }
        }
    }

    // Reads the chunk at (x, y), w × h, into #words (strip layout of a w × h mask); whether it has a set pixel.
    #read(x: number, y: number, w: number, h: number): boolean {
        const out = this.#words,
            strips = (w + 31) >>> 5,
            sh = x & 31,
            H = this.height,
            S = (this.width + 31) >>> 5;
        out.fill(0, 0, strips * h);
        this.#src.length = 0;
        for (let l = 0; ; l++) {
            let src: Uint32Array;
            if (this.#mask !== null) {
                if (l > 0) break;
                src = wordsOf(this.#mask);
            } else {
                if (l >= this.#raster!.layerCount) break;
                if (((this.#layers >>> l) & 1) === 0) continue;
                src = wordsOf(this.#raster!.plane(l));
            }
            this.#src.push(src);
            for (let j = 0; j < strips; j++) {
                const s = (x >>> 5) + j,
                    last = w - 32 * j < 32 ? (1 << (w - 32 * j)) - 1 : 0xffffffff;
                const next = sh !== 0 && s + 1 < S;
                for (let r = 0, i = s * H + y, o = j * h; r < h; r++, i++, o++) {
                    let v = src[i] >>> sh;
                    if (next) v |= src[i + H] << (32 - sh);
                    out[o] |= v & last;
                }
            }
        }
        let any = 0;
        for (let i = 0, n = strips * h; i < n && any === 0; i++) any |= out[i];
        return any !== 0;
    }

    // The convex pieces and chains of the chunk read into #words, at (x, y) in layer pixels.
    #build(id: number, x: number, y: number, w: number, h: number): ChunkPieces {
        let t = trace(this.#words, w, h);
        if (this.#tolerance > 0) {
            // Vertices on the chunk's border are kept, as vertices shared by two rings are: the neighbour's pieces
            // meet these along the same line.
            const shared = t.shared.slice(),
                xy = t.xy;
            for (let v = 0; v < shared.length; v++) {
                const vx = xy[2 * v],
                    vy = xy[2 * v + 1];
                if (vx === 0 || vy === 0 || vx === w || vy === h) shared[v] = 1;
            }
            t = simplify({ ...t, shared }, this.#tolerance);
        }
        const pieces: number[][] = [],
            chains: number[][] = [];
        for (const polygon of assemble(t)) {
            for (const piece of convexPieces(polygon, { maxVertices: this.#maxVertices, vertexLimit: Infinity })) {
                for (let i = 0; i < piece.length; i += 2) {
                    piece[i] += x;
                    piece[i + 1] += y;
                }
                pieces.push(piece);
            }
            for (const ring of [polygon.outer, ...polygon.holes]) this.#chains(ring, x, y, w, h, chains);
        }
        return { id, x, y, pieces, chains };
    }

    // The set pixels of the chunk read into #words.
    #counted(w: number, h: number): number {
        const a = this.#words;
        let n = 0;
        for (let i = 0, e = ((w + 31) >>> 5) * h; i < e; i++) n += popcnt(a[i]);
        return n;
    }

    // The solid pixels just across the border of the chunk at (x, y), w × h: what its chains read of its neighbours.
    #across(x: number, y: number, w: number, h: number): number {
        let n = 0;
        for (let k = 0; k < h; k++) n += +this.#at(x - 1, y + k) + +this.#at(x + w, y + k);
        for (let k = 0; k < w; k++) n += +this.#at(x + k, y - 1) + +this.#at(x + k, y + h);
        return n;
    }

    // Whether layer pixel (x, y) is solid (outside the layer: not).
    #at(x: number, y: number): boolean {
        if (x < 0 || y < 0 || x >= this.width || y >= this.height) return false;
        const i = (x >>> 5) * this.height + y,
            bit = 1 << (x & 31);
        for (const src of this.#src) if ((src[i] & bit) !== 0) return true;
        return false;
    }

    // The parts of chunk-local ring `ring` not inside the terrain, as polylines in layer pixels, added to `out`.
    #chains(ring: number[], x: number, y: number, w: number, h: number, out: number[][]): void {
        // Kept segments in ring order, [ax, ay, bx, by] each, in layer pixels.
        const seg: number[] = [];
        const n = ring.length;
        for (let i = 0; i < n; i += 2) {
            const ax = ring[i],
                ay = ring[i + 1],
                bx = ring[(i + 2) % n],
                by = ring[(i + 3) % n];
            const vertical = ax === bx && (ax === 0 || ax === w),
                horizontal = ay === by && (ay === 0 || ay === h);
            if (!vertical && !horizontal) {
                seg.push(ax + x, ay + y, bx + x, by + y);
                continue;
            }
            // Along the border: split where the pixel across it (in the neighbour chunk) is solid.
            const d = vertical ? Math.sign(by - ay) : Math.sign(bx - ax),
                from = vertical ? ay : ax,
                to = vertical ? by : bx;
            const across = vertical ? (ax === 0 ? x - 1 : x + w) : ay === 0 ? y - 1 : y + h;
            let run = -1;
            for (let k = from; k !== to + d; k += d) {
                const inside =
                    k === to ||
                    (vertical ? this.#at(across, y + Math.min(k, k + d)) : this.#at(x + Math.min(k, k + d), across));
                if (!inside && run < 0) run = k;
                else if (inside && run >= 0) {
                    if (vertical) seg.push(ax + x, run + y, ax + x, k + y);
                    else seg.push(run + x, ay + y, k + x, ay + y);
                    run = -1;
                }
            }
        }
        // Segments joined where one ends at the next one's start; the last chain joins the first across the ring's
        // start when they meet.
        const chains: number[][] = [];
        for (let i = 0; i < seg.length; i += 4) {
            const c = chains[chains.length - 1];
            if (c !== undefined && c[c.length - 2] === seg[i] && c[c.length - 1] === seg[i + 1])
                c.push(seg[i + 2], seg[i + 3]);
            else chains.push([seg[i], seg[i + 1], seg[i + 2], seg[i + 3]]);
        }
        if (chains.length > 1) {
            const first = chains[0],
                last = chains[chains.length - 1];
            if (last[last.length - 2] === first[0] && last[last.length - 1] === first[1]) {
                chains[0] = last.concat(first.slice(2));
                chains.pop();
            }
        }
        for (const c of chains) out.push(c);
    }
}
