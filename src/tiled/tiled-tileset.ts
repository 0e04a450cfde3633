// A map's tileset entry (embedded, or an external JSON or TSX file) read into the builder's Tileset: sizes checked,
// tiles as an array (Tiled ≥ 1.2) or the object keyed by id older maps hold, shapes parsed once.
import { propertiesOf, tileShapes, type TileEntry, type Tileset } from './tiled-tiles.js';
import { folderOf, imageSize, resolvePath, tilesetSource } from './tiled-resources.js';
import { parseXml, tilesetFromXml } from './tiled-xml.js';
import type { TiledResources } from './tiled-types.js';

type Json = Record<string, unknown>;

function int(v: unknown, name: string, where: string, min: number, max: number, dflt?: number): number {
    if (v === undefined && dflt !== undefined) return dflt;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
        throw new Error(`${where}: ${name} is ${JSON.stringify(v)}, expected an integer ${min}..${max}.`);
    return v;
}

/** The tileset of map entry `entry` (read from `resources` when it names a `source`). */
export function readTileset(entry: Json, file: string, resources: TiledResources, maxTiles: number): Tileset {
    if (entry === null || typeof entry !== 'object') throw new Error(`${file}: a tileset entry is not an object.`);
    const firstgid = int(entry.firstgid, 'a tileset firstgid', file, 1, 0x0fffffff);
    let ts = entry,
        where = file,
        folder = '';
    if (typeof entry.source === 'string') {
        const source = entry.source;
        where = resolvePath('', source);
        folder = folderOf(where);
        let got = tilesetSource(resources, source, file);
        if (typeof got === 'string') {
            const text = got.trimStart();
            if (text.startsWith('<')) got = tilesetFromXml(parseXml(text, 'tileset', where));
            else {
                try {
                    got = JSON.parse(text) as object;
                } catch (e) {
                    throw new Error(`${where}: the tileset is neither TSX nor JSON (${(e as Error).message}).`, {
                        cause: e
                    });
                }
            }
        }
        if (got === null || typeof got !== 'object') throw new Error(`${where}: the tileset is not an object.`);
        ts = got as Json;
    }
    const name = typeof ts.name === 'string' ? ts.name : '';
    where = `${where}: tileset "${name}"`;
    const sizeOf = (image: string) => imageSize(resources, image, folder, name, where);
    const tw = int(ts.tilewidth, 'tilewidth', where, 0, 2 ** 16),
        th = int(ts.tileheight, 'tileheight', where, 0, 2 ** 16);
    const margin = int(ts.margin, 'margin', where, 0, 2 ** 16, 0),
        spacing = int(ts.spacing, 'spacing', where, 0, 2 ** 16, 0);
    const off = (ts.tileoffset ?? {}) as Json;
    const out: Tileset = {
        firstgid,
        name,
        file: folder === '' && typeof entry.source !== 'string' ? file : resolvePath('', String(entry.source)),
        folder,
        tileWidth: tw,
        tileHeight: th,
        offsetX: int(off.x, 'tileoffset.x', where, -(2 ** 16), 2 ** 16, 0),
        offsetY: int(off.y, 'tileoffset.y', where, -(2 ** 16), 2 ** 16, 0),
        alignment: typeof ts.objectalignment === 'string' ? ts.objectalignment : 'unspecified',
        gridSize: ts.tilerendersize === 'grid',
        trans: -1,
        count: 0,
        tiles: new Map(),
        grid: null,
        properties: propertiesOf(ts.properties)
    };
    if (out.gridSize && ts.fillmode === 'preserve-aspect-fit')
        throw new Error(`${where}: fillmode "preserve-aspect-fit" is not supported; use "stretch".`);
    if (typeof ts.transparentcolor === 'string') {
        const hex = ts.transparentcolor.replace(/^#/, '');
        if (!/^[0-9a-f]{6}$/i.test(hex))
            throw new Error(`${where}: transparentcolor is "${ts.transparentcolor}", expected #rrggbb.`);
        out.trans = parseInt(hex, 16);
    }
    if (typeof ts.image === 'string' && ts.image !== '') {
        // An image tileset: its tiles are the image's grid; the count comes from the JSON, else from the image.
        // TMX may leave the image's size out: the image handed over gives it.
        const size = ts.imagewidth === undefined || ts.imageheight === undefined ? sizeOf(ts.image) : null;
        const iw = int(size ? size.width : ts.imagewidth, 'imagewidth', where, 0, 2 ** 20),
            ih = int(size ? size.height : ts.imageheight, 'imageheight', where, 0, 2 ** 20);
        if (tw === 0 || th === 0) throw new Error(`${where}: an image tileset needs tiles at least 1x1.`);
        const fit = (n: number, t: number) => Math.max(0, Math.floor((n - 2 * margin + spacing) / (t + spacing)));
        const columns =
            ts.columns === undefined || ts.columns === 0 ? fit(iw, tw) : int(ts.columns, 'columns', where, 1, 2 ** 20);
        const count =
            ts.tilecount === undefined ? columns * fit(ih, th) : int(ts.tilecount, 'tilecount', where, 0, 2 ** 30);
        if (count > maxTiles) throw new Error(`${where}: it has ${count} tiles, more than limits.tiles (${maxTiles}).`);
        out.count = count;
        out.grid = { image: ts.image, columns, margin, spacing };
    }
    // Tiles with shapes, properties or images of their own: an array of { id, … } or an object keyed by id.
    let list: Json[] = [];
    if (Array.isArray(ts.tiles)) list = ts.tiles as Json[];
    else if (ts.tiles !== undefined && ts.tiles !== null && typeof ts.tiles === 'object')
        list = Object.entries(ts.tiles as Record<string, Json>).map(([k, v]) => ({ ...v, id: Number(k) }));
    if (list.length > maxTiles)
        throw new Error(`${where}: it lists ${list.length} tiles, more than limits.tiles (${maxTiles}).`);
    const oldProps = (ts.tileproperties ?? {}) as Record<string, unknown>;
    for (const t of list) {
        if (t === null || typeof t !== 'object') throw new Error(`${where}: a tile is not an object.`);
        const id = int(t.id, 'a tile id', where, 0, 0x0fffffff);
        const tw2 = `${where}, tile ${id}`;
        const base = out.grid ? gridTile(out, id) : null;
        let entry: TileEntry;
        if (typeof t.image === 'string' && t.image !== '') {
            const size = t.imagewidth === undefined || t.imageheight === undefined ? sizeOf(t.image) : null;
            const iw = int(size ? size.width : t.imagewidth, 'imagewidth', tw2, 0, 2 ** 20),
                ih = int(size ? size.height : t.imageheight, 'imageheight', tw2, 0, 2 ** 20);
            const sx = int(t.x, 'x', tw2, 0, iw, 0),
                sy = int(t.y, 'y', tw2, 0, ih, 0);
            entry = {
                id,
                image: t.image,
                sx,
                sy,
                width: int(t.width, 'width', tw2, 0, iw - sx, iw - sx),
                height: int(t.height, 'height', tw2, 0, ih - sy, ih - sy),
                shapes: [],
                class: '',
                properties: {}
            };
        } else if (base && id < out.count) entry = base;
        else if (out.grid) throw new Error(`${tw2}: the id is past the tileset's ${out.count} tiles.`);
        else continue; // an image-collection entry without an image (a removed tile): draws nothing.
        entry.shapes = tileShapes(t, tw2);
        entry.class = String(t.type ?? t.class ?? '');
        entry.properties = propertiesOf(t.properties ?? oldProps[String(id)]);
        out.tiles.set(id, entry);
        out.count = Math.max(out.count, id + 1);
    }
    return out;
}

function gridTile(ts: Tileset, id: number): TileEntry {
    const g = ts.grid as NonNullable<Tileset['grid']>;
    const col = id % g.columns,
        row = Math.floor(id / g.columns);
    return {
        id,
        image: g.image,
        sx: g.margin + col * (ts.tileWidth + g.spacing),
        sy: g.margin + row * (ts.tileHeight + g.spacing),
        width: ts.tileWidth,
        height: ts.tileHeight,
        shapes: [],
        class: '',
        properties: {}
    };
}

/** Tile `id` of `ts` (an image tileset's grid tile made on first use), or `undefined` when it has none. */
export function tileAt(ts: Tileset, id: number): TileEntry | undefined {
    let t = ts.tiles.get(id);
    if (t === undefined && ts.grid && id < ts.count) {
        t = gridTile(ts, id);
        ts.tiles.set(id, t);
    }
    return t;
}
