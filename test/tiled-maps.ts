// Random Tiled maps for the tests (tilesets with margin, spacing, offsets, transparent colours, image collections,
// collision shapes; flipped cells; groups with offsets; objects of every kind), their TMX form, and a per-pixel
// reference that follows the rules of docs/tiled.md written out independently of src/tiled/.
import { deflateSync, gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { mulberry32 } from './reference.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test maps are loose JSON
export interface Img {
    width: number;
    height: number;
    data: Uint8Array;
}

const H = 0x80000000,
    V = 0x40000000,
    D = 0x20000000;

function randImage(rnd: () => number, w: number, h: number, trans: number[] | null): Img {
    const data = new Uint8Array(w * h * 4);
    // Blobs: a few discs of opaque pixels over transparent ones, some half-transparent pixels around 127.
    const discs = Array.from({ length: 3 + Math.floor(rnd() * 6) }, () => [rnd() * w, rnd() * h, 1 + rnd() * 9]);
    for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
            const k = (y * w + x) * 4;
            const inside = discs.some(([cx, cy, r]) => (x - cx) ** 2 + (y - cy) ** 2 < r * r);
            data[k] = Math.floor(rnd() * 256);
            data[k + 1] = Math.floor(rnd() * 256);
            data[k + 2] = Math.floor(rnd() * 256);
            data[k + 3] = inside ? (rnd() < 0.1 ? 126 + Math.floor(rnd() * 3) : 255) : rnd() < 0.05 ? 200 : 0;
            if (trans && inside && rnd() < 0.15) [data[k], data[k + 1], data[k + 2]] = trans;
        }
    return { width: w, height: h, data };
}

function randShape(rnd: () => number, w: number, h: number): Json {
    const k = Math.floor(rnd() * 4);
    const o: Json = {
        id: Math.floor(rnd() * 1000),
        x: Math.round(rnd() * w * 4) / 4,
        y: Math.round(rnd() * h * 4) / 4,
        rotation: rnd() < 0.5 ? 0 : rnd() < 0.5 ? [90, 180, 270, -90][Math.floor(rnd() * 4)] : rnd() * 360 - 180
    };
    if (k === 0 || k === 1) {
        o.width = Math.round(rnd() * w * 4) / 4;
        o.height = Math.round(rnd() * h * 4) / 4;
        if (k === 1) o.ellipse = true;
    } else {
        const n = 3 + Math.floor(rnd() * 4);
        const pts = Array.from({ length: n }, () => ({
            x: Math.round((rnd() - 0.5) * w * 8) / 4,
            y: Math.round((rnd() - 0.5) * h * 8) / 4
        }));
        if (k === 2) o.polygon = pts;
        else o.polyline = pts;
    }
    return o;
}

/** A random orthogonal map (JSON form, data as gid arrays) and the images it names. */
export function randomMap(seed: number, opts: { infinite?: boolean; simple?: boolean } = {}) {
    const rnd = mulberry32(seed);
    const tw = 8 + Math.floor(rnd() * 9),
        th = 8 + Math.floor(rnd() * 9);
    const images: Record<string, Img> = {};
    // Tileset 1: an image grid with margin, spacing, a transparent colour, an offset, some tiles with shapes.
    // A simple map's tiles have the grid's size and no offset (each cell one tile mask).
    const tsw = opts.simple ? tw : tw + Math.floor(rnd() * 6),
        tsh = opts.simple ? th : th + Math.floor(rnd() * 6);
    const margin = Math.floor(rnd() * 3),
        spacing = Math.floor(rnd() * 3),
        cols = 3,
        rowsT = 2;
    const trans = rnd() < 0.5 ? [255, 0, 255] : null;
    images['grid.png'] = randImage(
        rnd,
        margin * 2 + cols * tsw + (cols - 1) * spacing + 1,
        margin * 2 + rowsT * tsh + (rowsT - 1) * spacing,
        trans
    );
    const ts1: Json = {
        firstgid: 1,
        name: 'grid',
        tilewidth: tsw,
        tileheight: tsh,
        margin,
        spacing,
        columns: cols,
        tilecount: cols * rowsT,
        image: 'grid.png',
        imagewidth: images['grid.png'].width,
        imageheight: images['grid.png'].height,
        tileoffset: opts.simple ? { x: 0, y: 0 } : { x: Math.floor(rnd() * 7) - 3, y: Math.floor(rnd() * 7) - 3 },
        tiles: [0, 2, 4].map(id => ({
            id,
            type: id === 2 ? 'spike' : '',
            properties: [{ name: 'hp', type: 'int', value: id }],
            objectgroup: { objects: Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => randShape(rnd, tsw, tsh)) }
        }))
    };
    if (trans) ts1.transparentcolor = '#ff00ff';
    // Tileset 2: an image collection, tiles of their own sizes (larger than the grid), one with a shape.
    const coll: Json[] = [];
    for (let i = 0; i < 3; i++) {
        const w = 4 + Math.floor(rnd() * tw * 2),
            h = 4 + Math.floor(rnd() * th * 2);
        images[`obj${i}.png`] = randImage(rnd, w, h, null);
        coll.push({ id: i * 2, image: `obj${i}.png`, imagewidth: w, imageheight: h });
    }
    coll[1].objectgroup = { objects: [randShape(rnd, coll[1].imagewidth, coll[1].imageheight)] };
    const ts2: Json = {
        firstgid: 7,
        name: 'things',
        tilewidth: 40,
        tileheight: 40,
        tilecount: 3,
        columns: 0,
        objectalignment: ['unspecified', 'topleft', 'center', 'bottomright'][Math.floor(rnd() * 4)],
        tiles: coll
    };
    const gids = opts.simple ? [1, 2, 3, 4, 5, 6] : [1, 2, 3, 4, 5, 6, 7, 9, 11];
    const randGid = () => {
        if (rnd() < 0.45) return 0;
        let g = gids[Math.floor(rnd() * gids.length)];
        if (rnd() < 0.3) g = (g | H) >>> 0;
        if (rnd() < 0.3) g = (g | V) >>> 0;
        if (rnd() < 0.3 && (!opts.simple || tw === th)) g = (g | D) >>> 0;
        return g;
    };
    const W = 5 + Math.floor(rnd() * 8),
        Hh = 4 + Math.floor(rnd() * 7);
    const tileLayer = (id: number, name: string): Json => {
        const l: Json = {
            type: 'tilelayer',
            id,
            name,
            width: W,
            height: Hh,
            x: 0,
            y: 0,
            visible: rnd() < 0.7,
            opacity: 1,
            offsetx: Math.round((rnd() - 0.5) * 40 * 4) / 4,
            offsety: Math.round((rnd() - 0.5) * 40 * 4) / 4,
            properties: [{ name: 'solid', type: 'bool', value: true }]
        };
        if (opts.infinite) {
            l.chunks = [];
            for (const [cx, cy] of [
                [-16, -16],
                [0, -16],
                [0, 0],
                [16, 16]
            ])
                if (rnd() < 0.8)
                    l.chunks.push({
                        x: cx,
                        y: cy,
                        width: 16,
                        height: 16,
                        data: Array.from({ length: 256 }, () => (rnd() < 0.7 ? 0 : randGid()))
                    });
            l.startx = -16;
            l.starty = -16;
        } else l.data = Array.from({ length: W * Hh }, randGid);
        return l;
    };
    const objects: Json[] = [];
    for (let i = 0; i < 10; i++) {
        const o = randShape(rnd, 60, 40);
        o.id = 100 + i;
        o.name = `o${i}`;
        o.type = i % 2 ? 'enemy' : '';
        o.x += 10;
        o.y += 10;
        if (i === 0) {
            delete o.width;
            delete o.height;
            delete o.polygon;
            delete o.polyline;
            delete o.ellipse;
            o.point = true;
        }
        objects.push(o);
    }
    for (let i = 0; i < 5; i++) {
        let g = [2, 4, 7, 9, 11][i];
        if (rnd() < 0.4) g = (g | H) >>> 0;
        if (rnd() < 0.4) g = (g | V) >>> 0;
        objects.push({
            id: 200 + i,
            name: `t${i}`,
            gid: g,
            x: 20 + rnd() * 60,
            y: 20 + rnd() * 60,
            width: 3 + rnd() * 50,
            height: 3 + rnd() * 50,
            rotation: rnd() < 0.5 ? 0 : rnd() * 360
        });
    }
    const map: Json = {
        type: 'map',
        version: '1.10',
        orientation: 'orthogonal',
        renderorder: 'right-down',
        width: W,
        height: Hh,
        tilewidth: tw,
        tileheight: th,
        infinite: !!opts.infinite,
        tilesets: [ts1, ts2],
        layers: [
            tileLayer(1, 'ground'),
            {
                type: 'group',
                id: 2,
                name: 'g',
                offsetx: Math.floor((rnd() - 0.5) * 20),
                offsety: 3.5,
                layers: [
                    tileLayer(3, 'inner'),
                    { type: 'objectgroup', id: 4, name: 'things', offsetx: 2, offsety: -1, objects }
                ]
            }
        ]
    };
    return { map, images };
}

// --- The reference: the rules of docs/tiled.md, pixel by pixel. ---

// cos and sin of a clockwise rotation in degrees, exact at quarter turns (cos 90° is 0, not 6e-17).
function cosSin(deg: number): [number, number] {
    if (deg % 90 === 0) {
        const q = (((deg / 90) % 4) + 4) % 4;
        return [[1, 0, -1, 0][q], [0, 1, 0, -1][q]];
    }
    const a = (deg * Math.PI) / 180;
    return [Math.cos(a), Math.sin(a)];
}

function inPoly(pts: number[], px: number, py: number): boolean {
    let c = false;
    for (let i = 0, j = pts.length - 2; i < pts.length; j = i, i += 2) {
        const [xi, yi, xj, yj] = [pts[i], pts[i + 1], pts[j], pts[j + 1]];
        if (yi <= py !== yj <= py && xj + ((py - yj) * (xi - xj)) / (yi - yj) <= px) c = !c;
    }
    return c;
}

/** Whether point (px, py) of a shape's frame is inside it (rectangles, ellipses, polygons; rotation about x, y). */
export function refContains(o: Json, px: number, py: number): boolean {
    const [cs, sn] = cosSin(o.rotation ?? 0);
    const dx = px - o.x,
        dy = py - o.y;
    const u = dx * cs + dy * sn,
        v = -dx * sn + dy * cs;
    if (o.polygon)
        return inPoly(
            o.polygon.flatMap((p: Json) => [p.x, p.y]),
            u,
            v
        );
    if (o.polyline || o.point) return false;
    if (o.ellipse) {
        const ra = o.width / 2,
            rb = o.height / 2;
        return ra > 0 && rb > 0 && ((u - ra) / ra) ** 2 + ((v - rb) / rb) ** 2 < 1;
    }
    return u >= 0 && v >= 0 && u < o.width && v < o.height;
}

/** How far a point's centre test is from its shape's edge (pixels near an edge may go either way). */
export function nearEdge(o: Json, px: number, py: number): boolean {
    const e = 1e-6;
    const c = refContains(o, px, py);
    return [
        [e, 0],
        [-e, 0],
        [0, e],
        [0, -e]
    ].some(([a, b]) => refContains(o, px + a, py + b) !== c);
}

/** The pixels a polyline covers (docs/tiled.md's rule), in its frame. */
export function refLine(o: Json): Set<string> {
    const [cs, sn] = cosSin(o.rotation ?? 0);
    const pts = o.polyline.map((p: Json) => [o.x + p.x * cs - p.y * sn, o.y + p.x * sn + p.y * cs]);
    const out = new Set<string>();
    for (const [x, y] of pts) out.add(`${Math.floor(x)},${Math.floor(y)}`);
    for (let k = 0; k + 1 < pts.length; k++) {
        const [[xa, ya], [xb, yb]] = [pts[k], pts[k + 1]];
        if (Math.abs(xb - xa) >= Math.abs(yb - ya)) {
            if (xb === xa) continue;
            for (let i = Math.floor(Math.min(xa, xb) - 1); i <= Math.max(xa, xb); i++)
                if (i + 0.5 >= Math.min(xa, xb) && i + 0.5 <= Math.max(xa, xb))
                    out.add(`${i},${Math.floor(ya + ((i + 0.5 - xa) * (yb - ya)) / (xb - xa))}`);
        } else
            for (let j = Math.floor(Math.min(ya, yb) - 1); j <= Math.max(ya, yb); j++)
                if (j + 0.5 >= Math.min(ya, yb) && j + 0.5 <= Math.max(ya, yb))
                    out.add(`${Math.floor(xa + ((j + 0.5 - ya) * (xb - xa)) / (yb - ya))},${j}`);
    }
    return out;
}

interface RefTile {
    w: number;
    h: number;
    /** 1 solid, 0 not, 2 either (a centre on a shape's edge). */
    at(x: number, y: number): number;
}

/** A tile of `map` under rule `solid` ('alpha' or 'shapes' or 'auto'), at its own size. */
export type RefSolid = string | ((gid: number) => string | false);

const TILES = new WeakMap<object, Map<string, RefTile | null>>();

export function refTile(map: Json, images: Record<string, Img>, gid: number, rule: RefSolid): RefTile | null {
    const id = gid & 0x0fffffff;
    const solid = typeof rule === 'function' ? rule(id) : rule;
    if (solid === false) return null;
    let cache = TILES.get(map);
    if (!cache) TILES.set(map, (cache = new Map()));
    const key = `${id} ${solid}`;
    if (!cache.has(key)) cache.set(key, makeRefTile(map, images, id, solid));
    return cache.get(key)!;
}

function makeRefTile(map: Json, images: Record<string, Img>, id: number, solid: string): RefTile | null {
    const ts = [...map.tilesets].reverse().find((t: Json) => t.firstgid <= id);
    const local = id - ts.firstgid;
    const entry = (ts.tiles ?? []).find((t: Json) => t.id === local);
    let img: Img, sx: number, sy: number, w: number, h: number;
    if (ts.image) {
        img = images[ts.image];
        sx = ts.margin + (local % ts.columns) * (ts.tilewidth + ts.spacing);
        sy = ts.margin + Math.floor(local / ts.columns) * (ts.tileheight + ts.spacing);
        [w, h] = [ts.tilewidth, ts.tileheight];
    } else {
        img = images[entry.image];
        [sx, sy, w, h] = [0, 0, entry.imagewidth, entry.imageheight];
    }
    const shapes: Json[] = entry?.objectgroup?.objects ?? [];
    const useShapes = solid === 'shapes' || (solid === 'auto' && shapes.length > 0);
    const lines = new Set<string>();
    for (const s of shapes) if (s.polyline) for (const p of refLine(s)) lines.add(p);
    const trans = ts.transparentcolor ? parseInt(ts.transparentcolor.slice(1), 16) : -1;
    return {
        w,
        h,
        at(x, y) {
            if (useShapes) {
                if (lines.has(`${x},${y}`)) return 1;
                const cx = x + 0.5,
                    cy = y + 0.5;
                let on = 0;
                for (const s of shapes) {
                    if (s.polyline) continue;
                    if (nearEdge(s, cx, cy)) return 2;
                    if (refContains(s, cx, cy)) on = 1;
                }
                return on;
            }
            const k = ((sy + y) * img.width + sx + x) * 4;
            if (img.data[k + 3] <= 127) return 0;
            const rgb = (img.data[k] << 16) | (img.data[k + 1] << 8) | img.data[k + 2];
            return rgb === trans ? 0 : 1;
        }
    };
}

/** Every pixel of tile layer `l` (in a group at offset gx, gy): 1 solid, 2 either; absent pixels are empty. */
export function refLayer(map: Json, images: Record<string, Img>, l: Json, gx: number, gy: number, solid: RefSolid) {
    const out = new Map<string, number>();
    const ox = Math.floor((l.offsetx ?? 0) + gx),
        oy = Math.floor((l.offsety ?? 0) + gy);
    const regions = l.chunks ?? [{ x: 0, y: 0, width: l.width, height: l.height, data: l.data }];
    for (const g of regions)
        for (let k = 0; k < g.data.length; k++) {
            const gid = g.data[k] >>> 0;
            if (gid === 0) continue;
            const t = refTile(map, images, gid, solid);
            if (!t) continue;
            const id = gid & 0x0fffffff;
            const ts = [...map.tilesets].reverse().find((s: Json) => s.firstgid <= id);
            const d = (gid & D) !== 0,
                fh = (gid & H) !== 0,
                fv = (gid & V) !== 0;
            const W = d ? t.h : t.w,
                Hh = d ? t.w : t.h;
            const c = g.x + (k % g.width),
                r = g.y + Math.floor(k / g.width);
            const left = c * map.tilewidth + (ts.tileoffset?.x ?? 0) + ox,
                top = (r + 1) * map.tileheight - Hh + (ts.tileoffset?.y ?? 0) + oy;
            for (let j = 0; j < Hh; j++)
                for (let i = 0; i < W; i++) {
                    const a = fh ? W - 1 - i : i,
                        b = fv ? Hh - 1 - j : j;
                    const v = d ? t.at(b, a) : t.at(a, b);
                    if (v === 0) continue;
                    const key = `${left + i},${top + j}`;
                    out.set(key, Math.min(out.get(key) === 1 ? 1 : 3, v) === 1 ? 1 : Math.max(out.get(key) ?? 0, v));
                }
        }
    return out;
}

/** Tile layers of `map` with their group offsets, in draw order. */
export function tileLayers(map: Json): { l: Json; gx: number; gy: number }[] {
    const out: { l: Json; gx: number; gy: number }[] = [];
    const walk = (list: Json[], gx: number, gy: number) => {
        for (const l of list) {
            if (l.type === 'group') walk(l.layers, gx + (l.offsetx ?? 0), gy + (l.offsety ?? 0));
            else if (l.type === 'tilelayer') out.push({ l, gx, gy });
        }
    };
    walk(map.layers, 0, 0);
    return out;
}

/** Objects of `map` with the frame offset of their layer. */
export function objectsOf(map: Json): { o: Json; lx: number; ly: number }[] {
    const out: { o: Json; lx: number; ly: number }[] = [];
    const walk = (list: Json[], gx: number, gy: number) => {
        for (const l of list) {
            const x = gx + (l.offsetx ?? 0),
                y = gy + (l.offsety ?? 0);
            if (l.type === 'group') walk(l.layers, x, y);
            else if (l.type === 'objectgroup') for (const o of l.objects) out.push({ o, lx: x, ly: y });
        }
    };
    walk(map.layers, 0, 0);
    return out;
}

/** Whether map pixel (x, y) is covered by object `o` (frame offset lx, ly): 1, 0, or 2 (either). */
export function refObject(
    map: Json,
    images: Record<string, Img>,
    o0: Json,
    lx: number,
    ly: number,
    rule: RefSolid,
    x: number,
    y: number
): number {
    const o: Json = { ...o0, x: (o0.x ?? 0) + lx, y: (o0.y ?? 0) + ly };
    const px = x + 0.5,
        py = y + 0.5;
    if (o.gid === undefined) {
        if (o.polyline) return refLine(o).has(`${x},${y}`) ? 1 : 0;
        return nearEdge(o, px, py) ? 2 : refContains(o, px, py) ? 1 : 0;
    }
    const t = refTile(map, images, o.gid, rule);
    if (!t) return 0;
    const id = o.gid & 0x0fffffff;
    const solid = typeof rule === 'function' ? rule(id) : rule;
    const ts = [...map.tilesets].reverse().find((s: Json) => s.firstgid <= id);
    const al = ts.objectalignment && ts.objectalignment !== 'unspecified' ? ts.objectalignment : 'bottomleft';
    const fx = al.endsWith('left') ? 0 : al.endsWith('right') ? 1 : 0.5;
    const fy = al.startsWith('top') ? 0 : al.startsWith('bottom') ? 1 : 0.5;
    const w = o.width ?? t.w,
        h = o.height ?? t.h;
    const [cs, sn] = cosSin(o.rotation ?? 0);
    const dx = px - o.x,
        dy = py - o.y;
    const u = dx * cs + dy * sn + fx * w,
        v = -dx * sn + dy * cs + fy * h;
    const eps = 1e-6;
    if (u < -eps || v < -eps || u >= w + eps || v >= h + eps) return 0;
    if (u < eps || v < eps || u >= w - eps || v >= h - eps) return 2;
    let tu = (u * t.w) / w,
        tv = (v * t.h) / h;
    if (o.gid & H) tu = t.w - tu;
    if (o.gid & V) tv = t.h - tv;
    // Nearest pixel sampling: a sample near a pixel border (or a shape's edge) may go either way.
    const fu = Math.floor(tu),
        fv = Math.floor(tv);
    if (Math.abs(tu - Math.round(tu)) < 1e-6 || Math.abs(tv - Math.round(tv)) < 1e-6) return 2;
    const entry = (ts.tiles ?? []).find((e: Json) => e.id === id - ts.firstgid);
    const shapes: Json[] = entry?.objectgroup?.objects ?? [];
    if (solid === 'shapes' || (solid === 'auto' && shapes.length > 0)) {
        let on = 0;
        for (const s of shapes) {
            if (s.polyline) {
                if (refLine(s).has(`${fu},${fv}`)) on = 1;
                continue;
            }
            if (nearEdge(s, tu, tv)) return 2;
            if (refContains(s, tu, tv)) on = 1;
        }
        return on;
    }
    return t.at(fu, fv);
}

// --- Encodings ---

function gidBytes(gids: number[]): Buffer {
    const b = Buffer.alloc(gids.length * 4);
    gids.forEach((g, i) => b.writeUInt32LE(g >>> 0, i * 4));
    return b;
}

/** `bytes` compressed with the zstd command (Node 20 has no zstd). */
export function zstd(bytes: Buffer): Buffer {
    const r = spawnSync('zstd', ['-q', '-c', '-'], { input: bytes, maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`zstd failed: ${r.stderr}`);
    return r.stdout;
}

/** Encodes a layer's or chunk's gid array as Tiled would: 'base64' with a compression, or 'csv' (TMX only). */
export function encodeGids(gids: number[], compression: string): string {
    const raw = gidBytes(gids);
    const c =
        compression === 'zlib'
            ? deflateSync(raw)
            : compression === 'gzip'
              ? gzipSync(raw)
              : compression === 'zstd'
                ? zstd(raw)
                : raw;
    return c.toString('base64');
}

/** A copy of `map` with every tile layer's data encoded as base64 with `compression` ('' for none). */
export function withEncoding(map: Json, compression: string): Json {
    const m = structuredClone(map);
    for (const { l } of tileLayers(m)) {
        l.encoding = 'base64';
        if (compression) l.compression = compression;
        if (l.chunks) for (const c of l.chunks) c.data = encodeGids(c.data, compression);
        else l.data = encodeGids(l.data, compression);
    }
    return m;
}

const esc = (s: unknown) =>
    String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const attrs = (o: Json, names: string[]) =>
    names
        .filter(n => o[n] !== undefined)
        .map(n => ` ${n}="${esc(o[n])}"`)
        .join('');

function propsXml(p: Json[] | undefined): string {
    if (!p || p.length === 0) return '';
    return `<properties>${p.map(q => `<property name="${esc(q.name)}" type="${q.type}" value="${esc(q.value)}"/>`).join('')}</properties>`;
}

function objectXml(o: Json): string {
    let inner = propsXml(o.properties);
    if (o.ellipse) inner += '<ellipse/>';
    if (o.point) inner += '<point/>';
    if (o.polygon) inner += `<polygon points="${o.polygon.map((p: Json) => `${p.x},${p.y}`).join(' ')}"/>`;
    if (o.polyline) inner += `<polyline points="${o.polyline.map((p: Json) => `${p.x},${p.y}`).join(' ')}"/>`;
    const a = { ...o, class: o.type || undefined };
    return `<object${attrs(a, ['id', 'name', 'class', 'gid', 'x', 'y', 'width', 'height', 'rotation'])}>${inner}</object>`;
}

/** A TSX/inline `<tileset>` element. */
export function tilesetXml(ts: Json, withFirstgid: boolean): string {
    let s = `<tileset${attrs(ts, [...(withFirstgid ? ['firstgid'] : []), 'name', 'tilewidth', 'tileheight', 'spacing', 'margin', 'tilecount', 'columns', 'objectalignment'])}>`;
    if (ts.tileoffset) s += `<tileoffset x="${ts.tileoffset.x}" y="${ts.tileoffset.y}"/>`;
    if (ts.image)
        s += `<image source="${esc(ts.image)}"${ts.transparentcolor ? ` trans="${ts.transparentcolor.slice(1)}"` : ''} width="${ts.imagewidth}" height="${ts.imageheight}"/>`;
    for (const t of ts.tiles ?? []) {
        s += `<tile id="${t.id}"${t.type ? ` type="${esc(t.type)}"` : ''}>${propsXml(t.properties)}`;
        if (t.image) s += `<image source="${esc(t.image)}" width="${t.imagewidth}" height="${t.imageheight}"/>`;
        if (t.objectgroup)
            s += `<objectgroup draworder="index">${t.objectgroup.objects.map(objectXml).join('')}</objectgroup>`;
        s += '</tile>';
    }
    return s + '</tileset>';
}

/** TMX text of `map` with layer data as 'csv', 'xml' (<tile> elements) or 'base64' + compression. */
export function toTmx(map: Json, encoding: 'csv' | 'xml' | 'base64', compression = ''): string {
    const data = (gids: number[]) =>
        encoding === 'csv'
            ? gids.join(',')
            : encoding === 'xml'
              ? gids.map(g => `<tile gid="${g >>> 0}"/>`).join('')
              : encodeGids(gids, compression);
    const dataAttrs =
        encoding === 'xml' ? '' : ` encoding="${encoding}"${compression ? ` compression="${compression}"` : ''}`;
    const layer = (l: Json): string => {
        if (l.type === 'group')
            return `<group${attrs(l, ['id', 'name', 'offsetx', 'offsety'])}>${l.layers.map(layer).join('')}</group>`;
        if (l.type === 'objectgroup')
            return `<objectgroup${attrs(l, ['id', 'name', 'offsetx', 'offsety'])}>${l.objects.map(objectXml).join('')}</objectgroup>`;
        const body = l.chunks
            ? l.chunks
                  .map(
                      (c: Json) =>
                          `<chunk x="${c.x}" y="${c.y}" width="${c.width}" height="${c.height}">${data(c.data)}</chunk>`
                  )
                  .join('')
            : data(l.data);
        return `<layer${attrs({ ...l, visible: l.visible === false ? 0 : undefined }, ['id', 'name', 'width', 'height', 'offsetx', 'offsety', 'visible'])}>${propsXml(l.properties)}<data${dataAttrs}>${body}</data></layer>`;
    };
    return `<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="${map.orientation}" renderorder="right-down" width="${map.width}" height="${map.height}" tilewidth="${map.tilewidth}" tileheight="${map.tileheight}" infinite="${map.infinite ? 1 : 0}">${map.tilesets.map((t: Json) => (t.source ? `<tileset firstgid="${t.firstgid}" source="${esc(t.source)}"/>` : tilesetXml(t, true))).join('')}${map.layers.map(layer).join('')}</map>`;
}
