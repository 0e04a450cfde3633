// tiledCollision: a parsed Tiled map (JSON object or TMX text) and the files it names, already loaded, turned into
// collision layers and object masks by the rules of docs/tiled.md.
import { checkObject } from '../base/check-types.js';
import { checkInt, outOfRange, rangeError } from '../base/check.js';
import type { TileMap } from '../layers/tilemap.js';
import { decodeData, JS_CODEC, type Codec } from './tiled-data.js';
import { buildTileLayer, cutPieces, type Pieces, type Region } from './tiled-layers.js';
import { objectMask, type ObjectTile } from './tiled-objects.js';
import { readTileset, tileAt } from './tiled-tileset.js';
import {
    FLIP_D,
    flippedMask,
    GID_MASK,
    propertiesOf,
    solidOf,
    tileSolid,
    type Tileset,
    type TileSolid
} from './tiled-tiles.js';
import { imageData } from './tiled-resources.js';
import { parseMap } from './tiled-names.js';
import { withTemplate } from './tiled-templates.js';
import type {
    TiledCollision,
    TiledImageData,
    TiledObject,
    TiledOptions,
    TiledResources,
    TiledTileLayer
} from './tiled-types.js';

type Json = Record<string, unknown>;

const DEFAULT_LIMITS = { cells: 2 ** 24, tiles: 2 ** 16, pixels: 2 ** 26 };

/**
 * The collision of a Tiled map: every tile layer as a `TileMap` in map pixels and every object's mask, by the rules
 * of docs/tiled.md. `map` is the object Tiled's JSON holds (or its text, or TMX text); `resources` hands over the
 * external tilesets and images it names. Orthogonal maps only; anything corrupt or past `options.limits` throws an
 * Error naming the file and the problem, and nothing is returned half-built.
 *
 * @example
 * const level = tiledCollision(this.cache.tilemap.get('level').data, { images: { tiles: tilesImage } });
 * world.addLayer(level.layer('ground'));
 */
export function tiledCollision(
    map: object | string,
    resources: TiledResources = {},
    options: TiledOptions = {}
): TiledCollision {
    return buildTiled(map, resources, options, JS_CODEC);
}

/** @internal {@link tiledCollision} with layer data decoded by `codec` (hitmask/node passes Node's zlib). */
export function buildTiled(
    map: object | string,
    resources: TiledResources,
    options: TiledOptions,
    codec: Codec
): TiledCollision {
    checkObject('options', options, 'a TiledOptions object');
    checkObject('resources', resources, 'a { tilesets, images } object');
    const file = options.file ?? 'map';
    const threshold =
        options.alphaThreshold === undefined ? 127 : checkInt('alphaThreshold', options.alphaThreshold, 0, 255);
    const limits = { ...DEFAULT_LIMITS };
    if (options.limits !== undefined) {
        checkObject('options.limits', options.limits, 'a { cells, tiles, pixels } object');
        for (const k of ['cells', 'tiles', 'pixels'] as const) {
            const v = options.limits[k];
            if (v !== undefined) limits[k] = checkInt(`options.limits.${k}`, v, 1, 2 ** 31);
        }
    }
    const solid = options.solid;
    if (
        solid !== undefined &&
        solid !== 'auto' &&
        solid !== 'alpha' &&
        solid !== 'shapes' &&
        typeof solid !== 'function'
    )
        throw rangeError('options.solid', "'auto', 'alpha', 'shapes' or a function", solid);

    const m = parseMap(map, file);
    const tw = positiveInt(m.tilewidth, 'tilewidth', file),
        th = positiveInt(m.tileheight, 'tileheight', file);
    const columns = count(m.width, 'width', file),
        rows = count(m.height, 'height', file);
    const infinite = m.infinite === true || m.infinite === 1;

    // Tilesets, sorted by firstgid, each read from the map or from the file it names.
    const sets: Tileset[] = [];
    if (m.tilesets !== undefined && !Array.isArray(m.tilesets)) throw new Error(`${file}: "tilesets" is not a list.`);
    for (const entry of (m.tilesets ?? []) as Json[]) sets.push(readTileset(entry, file, resources, limits.tiles));
    sets.sort((a, b) => a.firstgid - b.firstgid);
    const images = new Map<string, TiledImageData>();
    const imageOf = (ts: Tileset) => (name: string) => {
        let img = images.get(name);
        if (!img) {
            img = imageData(resources, name, ts, limits.pixels);
            images.set(name, img);
        }
        return img;
    };

    // A gid's tileset and tile, or an Error naming the gid.
    const lookup = (gid: number, where: string) => {
        const id = gid & GID_MASK;
        let ts: Tileset | undefined;
        for (const s of sets) if (s.firstgid <= id) ts = s;
        const tile = ts ? tileAt(ts, id - ts.firstgid) : undefined;
        if (!ts || !tile)
            throw new Error(
                `${where}: gid ${id} (flags 0x${(gid >>> 28).toString(16)}) is in no tileset of the map ` +
                    `(tilesets: ${sets.map(s => `"${s.name}" ${s.firstgid}..${s.firstgid + s.count - 1}`).join(', ') || 'none'}).`
            );
        return { ts, tile, id: id - ts.firstgid };
    };
    const solids = new Map<number, TileSolid | null>();
    const solidFor = (gid: number, where: string): TileSolid | null => {
        const id = gid & GID_MASK;
        if (solids.has(id)) return solids.get(id) as TileSolid | null;
        const { ts, tile, id: local } = lookup(gid, where);
        const rule = solidOf(solid, ts, tile, local);
        if (rule !== false && rule !== 'auto' && rule !== 'alpha' && rule !== 'shapes')
            throw outOfRange(
                `options.solid returned ${String(rule)} for gid ${id}, expected 'auto', 'alpha', 'shapes' or false.`
            );
        if (tile.width * tile.height > limits.pixels) throw tooManyPixels(file, tile.width, tile.height, limits.pixels);
        const s = rule === false ? null : tileSolid(ts, tile, rule, threshold, imageOf(ts));
        solids.set(id, s);
        return s;
    };
    // A gid's pieces on the grid (flips applied, tileset offset and overhang cut to cells).
    const piecesFor =
        (where: string) =>
        (gid: number): Pieces | null => {
            const s = solidFor(gid, where);
            if (!s) return null;
            const { ts } = lookup(gid, where);
            const w = ts.gridSize ? tw : s.width,
                h = ts.gridSize ? th : s.height;
            const drawn = flippedMask(s, gid, w, h);
            const H = (gid & FLIP_D) !== 0 ? w : h;
            // Bottom-left at the cell's bottom-left, moved by the tileset's offset.
            return cutPieces(drawn, ts.offsetX, th - H + ts.offsetY, tw, th);
        };
    const objectTile =
        (where: string) =>
        (gid: number): ObjectTile => {
            const { ts } = lookup(gid, where);
            return {
                solid: solidFor(gid, where),
                alignment: ts.alignment === 'unspecified' ? 'bottomleft' : ts.alignment
            };
        };

    const layers: TiledTileLayer[] = [];
    const objects: TiledObject[] = [];
    const walk = (list: unknown, ox: number, oy: number, path: string): void => {
        if (!Array.isArray(list)) throw new Error(`${file}: ${path || 'the map'}'s "layers" is not a list.`);
        for (const l of list as Json[]) {
            if (l === null || typeof l !== 'object')
                throw new Error(`${file}: a layer of ${path || 'the map'} is not an object.`);
            const name = typeof l.name === 'string' ? l.name : '';
            const where = `${file}: layer "${path}${name}"`;
            const lx = ox + finite(l.offsetx, 'offsetx', where),
                ly = oy + finite(l.offsety, 'offsety', where);
            if (l.type === 'group') walk(l.layers ?? [], lx, ly, `${path}${name}/`);
            else if (l.type === 'tilelayer') {
                const regions = layerRegions(l, infinite, columns, rows, where, limits.cells, codec);
                const tooBig = (n: number, c: number, r: number) =>
                    new Error(
                        `${where}: its tiles span ${c}x${r} = ${n} cells, more than limits.cells (${limits.cells}).`
                    );
                const layer = buildTileLayer(
                    regions,
                    tw,
                    th,
                    Math.floor(lx),
                    Math.floor(ly),
                    piecesFor(where),
                    limits.cells,
                    tooBig
                );
                layers.push({
                    id: typeof l.id === 'number' ? l.id : layers.length,
                    name,
                    class: String(l.class ?? ''),
                    properties: propertiesOf(l.properties),
                    visible: l.visible !== false && l.visible !== 0 && l.visible !== '0',
                    layer
                });
            } else if (l.type === 'objectgroup') {
                if (!Array.isArray(l.objects)) throw new Error(`${where}: "objects" is not a list.`);
                for (let o of l.objects as Json[]) {
                    if (o === null || typeof o !== 'object') throw new Error(`${where}: an object is not an object.`);
                    const ow = `${where}, object ${JSON.stringify(o.id ?? '?')}`;
                    if (typeof o.template === 'string')
                        o = withTemplate(o, resources.templates ?? {}, (m.tilesets ?? []) as Json[], ow);
                    const tooBig = (w: number, h: number) =>
                        new Error(
                            `${ow}: its mask would be ${w}x${h} pixels, more than limits.pixels (${limits.pixels}).`
                        );
                    const placed = objectMask(o, lx, ly, ow, objectTile(ow), limits.pixels, tooBig);
                    objects.push({
                        id: typeof o.id === 'number' ? o.id : 0,
                        name: typeof o.name === 'string' ? o.name : '',
                        class: String(o.type ?? o.class ?? ''),
                        layerName: name,
                        properties: propertiesOf(o.properties),
                        x: placed ? placed.x : finite(o.x, 'x', ow) + lx,
                        y: placed ? placed.y : finite(o.y, 'y', ow) + ly,
                        mask: placed ? placed.mask : null
                    });
                }
            }
        }
    };
    walk(m.layers ?? [], 0, 0, '');

    let x = 0,
        y = 0,
        width = columns * tw,
        height = rows * th;
    if (infinite) {
        let x0 = Infinity,
            y0 = Infinity,
            x1 = -Infinity,
            y1 = -Infinity;
        for (const { layer: t } of layers) {
            const b = t.bounds();
            if (!b) continue;
            x0 = Math.min(x0, b.x);
            y0 = Math.min(y0, b.y);
            x1 = Math.max(x1, b.x + b.width);
            y1 = Math.max(y1, b.y + b.height);
        }
        if (x0 !== Infinity) [x, y, width, height] = [x0, y0, x1 - x0, y1 - y0];
        else width = height = 0;
    }
    return {
        width,
        height,
        x,
        y,
        tileWidth: tw,
        tileHeight: th,
        layers,
        objects,
        layer(name: string): TileMap {
            const l = layers.find(e => e.name === name);
            if (!l)
                throw new Error(
                    `${file}: no tile layer is named ${JSON.stringify(name)}; the tile layers are ` +
                        `${layers.map(e => JSON.stringify(e.name)).join(', ') || 'none'}.`
                );
            return l.layer;
        }
    };
}

function positiveInt(v: unknown, name: string, where: string): number {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 2 ** 16)
        throw new Error(`${where}: ${name} is ${JSON.stringify(v)}, expected an integer 1..65536.`);
    return v;
}

function count(v: unknown, name: string, where: string): number {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 2 ** 30)
        throw new Error(`${where}: ${name} is ${JSON.stringify(v)}, expected an integer 0..2^30.`);
    return v;
}

function finite(v: unknown, name: string, where: string): number {
    if (v === undefined) return 0;
    if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > 2 ** 40)
        throw new Error(`${where}: ${name} is ${JSON.stringify(v)}, expected a finite number.`);
    return v;
}

function tooManyPixels(file: string, w: number, h: number, max: number): Error {
    return new Error(`${file}: a tile is ${w}x${h} pixels, more than limits.pixels (${max}).`);
}

// A tile layer's cells: its data, or its chunks on an infinite map; sizes checked before anything is decoded.
function layerRegions(
    l: Json,
    infinite: boolean,
    columns: number,
    rows: number,
    where: string,
    max: number,
    codec: Codec
): Region[] {
    const regions: Region[] = [];
    const read = (src: Json, x: number, y: number, w: number, h: number, what: string) => {
        if (w * h > max) throw new Error(`${what}: it is ${w}x${h} = ${w * h} cells, more than limits.cells (${max}).`);
        const gids = decodeData(
            src.data,
            l.encoding ?? src.encoding,
            l.compression ?? src.compression,
            w * h,
            what,
            codec
        );
        regions.push({ x, y, width: w, height: h, gids });
    };
    if (Array.isArray(l.chunks)) {
        if (!infinite) throw new Error(`${where}: it has chunks, but the map is not infinite.`);
        let x0 = Infinity,
            y0 = Infinity,
            x1 = -Infinity,
            y1 = -Infinity;
        const chunks = (l.chunks as Json[]).map((c, i) => {
            const what = `${where}, chunk ${i}`;
            if (c === null || typeof c !== 'object') throw new Error(`${what}: it is not an object.`);
            const cx = int(c.x, 'x', what),
                cy = int(c.y, 'y', what),
                w = count(c.width, 'width', what),
                h = count(c.height, 'height', what);
            x0 = Math.min(x0, cx);
            y0 = Math.min(y0, cy);
            x1 = Math.max(x1, cx + w);
            y1 = Math.max(y1, cy + h);
            return { c, cx, cy, w, h, what };
        });
        // The grid spans every chunk: bounded before any chunk is decoded.
        if (chunks.length > 0 && (x1 - x0) * (y1 - y0) > max)
            throw new Error(
                `${where}: its chunks span ${x1 - x0}x${y1 - y0} = ${(x1 - x0) * (y1 - y0)} cells, more than ` +
                    `limits.cells (${max}).`
            );
        for (const { c, cx, cy, w, h, what } of chunks) read(c, cx, cy, w, h, what);
        return regions;
    }
    const w = l.width === undefined ? columns : count(l.width, 'width', where),
        h = l.height === undefined ? rows : count(l.height, 'height', where);
    const x = l.x === undefined ? 0 : int(l.x, 'x', where),
        y = l.y === undefined ? 0 : int(l.y, 'y', where);
    if (l.data === undefined && w * h > 0) throw new Error(`${where}: it has no data.`);
    if (w * h > 0) read(l, x, y, w, h, where);
    return regions;
}

function int(v: unknown, name: string, where: string): number {
    if (typeof v !== 'number' || !Number.isInteger(v) || Math.abs(v) > 2 ** 30)
        throw new Error(`${where}: ${name} is ${JSON.stringify(v)}, expected an integer.`);
    return v;
}
