// readTiledMap: a Tiled map file (.tmj/.json or .tmx) read with the tilesets and images it names, each relative to
// the file that names it.
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildTiled } from '../tiled/tiled-collision.js';
import { NODE_CODEC } from './tiled-codec.js';
import { namedFiles, parseMap, parseTileset, templateSources } from '../tiled/tiled-names.js';
import type { TiledCollision, TiledImageData, TiledOptions } from '../tiled/tiled-types.js';
import { readImage } from './decode.js';

// A map or tileset file larger than this is refused before it is read: 256 MiB of text.
const MAX_TEXT = 256 * 1024 * 1024;

async function readText(path: string, what: string, by: string): Promise<string> {
    let size: number;
    try {
        size = (await stat(path)).size;
    } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new Error(
            `${by}: the ${what} "${path}" ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`}.`,
            { cause: e }
        );
    }
    if (size > MAX_TEXT) throw new Error(`${path}: the ${what} is ${size} bytes, more than ${MAX_TEXT}.`);
    return readFile(path, 'utf8');
}

/**
 * Reads a Tiled map file, its external tilesets (`.tsj`/`.json`/`.tsx`) and their images (PNG, GIF) and returns
 * its collision (as `tiledCollision` from hitmask/tiled). A missing file throws an Error naming it and the file
 * that names it.
 *
 * @example
 * const level = await readTiledMap('levels/level1.tmx');
 * world.addLayer(level.layer('ground'));
 */
export async function readTiledMap(file: string, options: TiledOptions = {}): Promise<TiledCollision> {
    const map = parseMap(await readText(file, 'map', 'readTiledMap'), file);
    const dir = dirname(file);
    const names = await namedFiles(map, async path =>
        parseTileset(await readText(join(dir, path), 'tileset', file), join(dir, path))
    );
    const images: Record<string, TiledImageData> = {};
    for (const [path, by] of names.images) {
        const full = join(dir, path);
        try {
            await stat(full);
        } catch {
            throw new Error(`${by ? join(dir, by) : file}: the image "${full}" it names does not exist.`);
        }
        images[path] = await readImage(full);
    }
    const templates: Record<string, string> = {};
    for (const t of templateSources(map)) templates[t] = await readText(join(dir, t), 'template', file);
    return buildTiled(
        map,
        { tilesets: names.tilesets, images, templates },
        { ...options, file: options.file ?? file },
        NODE_CODEC
    );
}
