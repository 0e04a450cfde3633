// What a Tiled map names (external tilesets, the images of each tileset), for the loaders that fetch or read them.
import { folderOf, resolvePath } from './tiled-resources.js';
import { mapFromXml, parseXml, tilesetFromXml } from './tiled-xml.js';

type Json = Record<string, unknown>;

/** A map from JSON or TMX text (or an object already parsed), checked to be a map. */
export function parseMap(map: object | string, file: string): Json {
    if (typeof map === 'string') {
        const text = map.trimStart();
        if (text.startsWith('<')) map = mapFromXml(parseXml(text, 'map', file));
        else
            try {
                map = JSON.parse(text) as object;
            } catch (e) {
                throw new Error(`${file}: the map is neither TMX nor JSON (${(e as Error).message}).`, { cause: e });
            }
    }
    if (map === null || typeof map !== 'object' || Array.isArray(map))
        throw new Error(`${file}: the map is ${map === null ? 'null' : typeof map}, expected Tiled's map object.`);
    const m = map as Json;
    if (m.type !== undefined && m.type !== 'map')
        throw new Error(`${file}: the JSON is a Tiled "${String(m.type)}", expected a "map".`);
    // Refused here, before a loader fetches what the map names.
    const orientation = m.orientation ?? 'orthogonal';
    if (orientation !== 'orthogonal')
        throw new Error(
            `${file}: the map is ${String(orientation)}; hitmask reads orthogonal maps only (isometric, staggered ` +
                'and hexagonal grids are not pixel grids of rectangles).'
        );
    return m;
}

/** A tileset from TSX or JSON text. */
export function parseTileset(text: string, file: string): Json {
    const t = text.trimStart();
    if (t.startsWith('<')) return tilesetFromXml(parseXml(t, 'tileset', file));
    let ts: unknown;
    try {
        ts = JSON.parse(t);
    } catch (e) {
        throw new Error(`${file}: the tileset is neither TSX nor JSON (${(e as Error).message}).`, { cause: e });
    }
    if (ts === null || typeof ts !== 'object' || Array.isArray(ts))
        throw new Error(`${file}: the tileset is not an object.`);
    return ts as Json;
}

/** The external tilesets a map names, as written. */
export function tilesetSources(map: Json): string[] {
    const out: string[] = [];
    if (!Array.isArray(map.tilesets)) return out;
    for (const t of map.tilesets as Json[])
        if (t && typeof t === 'object' && typeof t.source === 'string') out.push(t.source);
    return out;
}

/** The images a tileset names, resolved against `folder` (the tileset file's folder relative to the map's). */
export function imageNames(ts: Json, folder: string): string[] {
    const out = new Set<string>();
    if (typeof ts.image === 'string' && ts.image !== '') out.add(resolvePath(folder, ts.image));
    const tiles = Array.isArray(ts.tiles)
        ? ts.tiles
        : ts.tiles && typeof ts.tiles === 'object'
          ? Object.values(ts.tiles)
          : [];
    for (const t of tiles as Json[])
        if (t && typeof t === 'object' && typeof t.image === 'string' && t.image !== '')
            out.add(resolvePath(folder, t.image));
    return [...out];
}

/**
 * Every file a map names, resolved against the map's folder: its external tilesets, and, through `tileset`, which
 * reads one of them, every image of every tileset with the file that names it (`''`: the map). What is read is kept
 * in `tilesets`.
 */
export async function namedFiles(
    map: Json,
    tileset: (path: string) => Promise<Json>
): Promise<{ tilesets: Record<string, Json>; images: Map<string, string> }> {
    const tilesets: Record<string, Json> = {};
    const images = new Map<string, string>();
    if (Array.isArray(map.tilesets))
        for (const t of map.tilesets as Json[])
            if (t && typeof t === 'object' && typeof t.source !== 'string')
                for (const i of imageNames(t, '')) if (!images.has(i)) images.set(i, '');
    for (const source of tilesetSources(map)) {
        const path = resolvePath('', source);
        if (tilesets[path]) continue;
        const ts = await tileset(path);
        tilesets[path] = ts;
        for (const i of imageNames(ts, folderOf(path))) if (!images.has(i)) images.set(i, path);
    }
    return { tilesets, images };
}

/** The object templates a map's objects name, as written, each once. */
export function templateSources(map: Json): string[] {
    const out = new Set<string>();
    const walk = (list: unknown): void => {
        if (!Array.isArray(list)) return;
        for (const l of list as Json[]) {
            if (!l || typeof l !== 'object') continue;
            if (l.type === 'group') walk(l.layers);
            else if (l.type === 'objectgroup' && Array.isArray(l.objects))
                for (const o of l.objects as Json[]) if (o && typeof o.template === 'string') out.add(o.template);
        }
    };
    walk(map.layers);
    return [...out];
}
