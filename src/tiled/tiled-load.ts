// loadTiledMap: a map fetched by URL with everything it names, each file relative to the file that names it.
import { tiledCollision } from './tiled-collision.js';
import { namedFiles, parseMap, parseTileset, templateSources } from './tiled-names.js';
import type { TiledCollision, TiledImage, TiledOptions } from './tiled-types.js';

/** Options of {@link loadTiledMap}: {@link TiledOptions} and how files are fetched and images decoded. */
export interface LoadTiledOptions extends TiledOptions {
    /** The fetch to use (default `globalThis.fetch`). */
    fetch?: (url: string) => Promise<{ ok: boolean; status: number; text(): Promise<string>; blob(): Promise<Blob> }>;
    /**
     * Decodes a fetched image (default: `createImageBitmap`, read through a canvas). In Node, pass one built on
     * hitmask/node's `decodeImage`.
     */
    decodeImage?: (blob: Blob, url: string) => Promise<TiledImage> | TiledImage;
}

/**
 * Fetches a Tiled map (`.tmj`/`.json` or `.tmx`), its external tilesets and their images, and returns its collision
 * (as {@link tiledCollision}). A file that cannot be fetched throws an Error naming it and the file that names it.
 *
 * @example
 * const level = await loadTiledMap('levels/level1.tmj');
 * world.addLayer(level.layer('ground'));
 */
export async function loadTiledMap(url: string, options: LoadTiledOptions = {}): Promise<TiledCollision> {
    const get = options.fetch ?? (globalThis.fetch as unknown as NonNullable<LoadTiledOptions['fetch']>);
    const base = new URL(url, (globalThis as { location?: { href: string } }).location?.href ?? undefined).href;
    const fetchOk = async (path: string, by: string) => {
        const at = new URL(path, base).href;
        let r;
        try {
            r = await get(at);
        } catch (e) {
            throw new Error(`${by}: fetching "${path}" (${at}) failed: ${(e as Error).message}.`, { cause: e });
        }
        if (!r.ok) throw new Error(`${by}: "${path}" (${at}) answered HTTP ${r.status}.`);
        return { r, at };
    };
    const file = options.file ?? url;
    const { r } = await fetchOk(base, 'loadTiledMap');
    const map = parseMap(await r.text(), file);
    const names = await namedFiles(map, async path => {
        const got = await fetchOk(path, file);
        return parseTileset(await got.r.text(), path);
    });
    const decode =
        options.decodeImage ??
        (async (blob: Blob) => {
            const g = globalThis as { createImageBitmap?: (b: Blob) => Promise<TiledImage> };
            if (!g.createImageBitmap)
                throw new Error(`${file}: this runtime has no createImageBitmap; pass options.decodeImage.`);
            return g.createImageBitmap(blob);
        });
    const images: Record<string, TiledImage> = {};
    await Promise.all(
        [...names.images].map(async ([path, by]) => {
            const { r: ri, at } = await fetchOk(path, by || file);
            images[path] = await decode(await ri.blob(), at);
        })
    );
    const templates: Record<string, string> = {};
    await Promise.all(
        templateSources(map).map(async t => {
            templates[t] = await (await fetchOk(t, file)).r.text();
        })
    );
    return tiledCollision(map, { tilesets: names.tilesets, images, templates }, { ...options, file });
}
