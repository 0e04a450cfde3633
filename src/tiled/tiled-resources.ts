// Finding what a map names among the resources handed over: paths resolved against the naming file's folder,
// images decoded from whatever a browser holds.
import type { Tileset } from './tiled-tiles.js';
import type { TiledImageData, TiledResources } from './tiled-types.js';

/** The folder part of a path or URL (`a/b/c.tsj` → `a/b/`; `c.tsj` → ``). */
export function folderOf(path: string): string {
    const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
    return i < 0 ? '' : path.slice(0, i + 1);
}

/** `rel` resolved against `folder` (`.` and `..` folded); absolute paths and URLs stay as they are. */
export function resolvePath(folder: string, rel: string): string {
    if (/^[a-z][a-z0-9+.-]*:/i.test(rel) || rel.startsWith('/')) return rel;
    const parts = (folder + rel).replace(/\\/g, '/').split('/');
    const out: string[] = [];
    for (const p of parts) {
        if (p === '.' || (p === '' && out.length > 0)) continue;
        if (p === '..' && out.length > 0 && out[out.length - 1] !== '..' && out[out.length - 1] !== '') out.pop();
        else out.push(p);
    }
    return out.join('/');
}

function baseName(path: string): string {
    return path.slice(folderOf(path).length);
}

/** The external tileset `source` names (resolved against the map's folder, or as written). */
export function tilesetSource(resources: TiledResources, source: string, file: string): object | string {
    const all = resources.tilesets ?? {};
    const key = [resolvePath('', source), source, baseName(source)].find(k =>
        Object.prototype.hasOwnProperty.call(all, k)
    );
    if (key === undefined)
        throw new Error(
            `${file}: it names the tileset "${source}", which resources.tilesets does not hold ` +
                `(it holds ${
                    Object.keys(all)
                        .map(k => JSON.stringify(k))
                        .join(', ') || 'none'
                }).`
        );
    return all[key];
}

// A canvas to read a drawable image's pixels through, where the runtime has one.
function readPixels(img: { width: number; height: number }): TiledImageData | null {
    const g = globalThis as unknown as {
        OffscreenCanvas?: new (w: number, h: number) => { getContext(t: '2d'): unknown };
        document?: { createElement(t: 'canvas'): { width: number; height: number; getContext(t: '2d'): unknown } };
    };
    let ctx: unknown = null;
    if (g.OffscreenCanvas) ctx = new g.OffscreenCanvas(img.width, img.height).getContext('2d');
    else if (g.document) {
        const c = g.document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        ctx = c.getContext('2d');
    }
    if (!ctx) return null;
    const c2 = ctx as {
        drawImage(i: unknown, x: number, y: number): void;
        getImageData(x: number, y: number, w: number, h: number): TiledImageData;
    };
    c2.drawImage(img, 0, 0);
    return c2.getImageData(0, 0, img.width, img.height);
}

/** The width and height of image `name` of the tileset `tileset` (whose file lies in `folder`). */
export function imageSize(
    resources: TiledResources,
    name: string,
    folder: string,
    tileset: string,
    where: string
): { width: number; height: number } {
    const all = resources.images ?? {};
    const key = [resolvePath(folder, name), name, tileset, baseName(name)].find(k =>
        Object.prototype.hasOwnProperty.call(all, k)
    );
    if (key === undefined)
        throw new Error(`${where}: it gives no size for its image "${name}", and resources.images does not hold it.`);
    return all[key] as { width: number; height: number };
}

/**
 * The decoded pixels of image `name` (as the tileset's file writes it) of tileset `ts`, looked up resolved, as
 * written, by the tileset's name, then by file name; an Error names what is missing or too large.
 */
export function imageData(resources: TiledResources, name: string, ts: Tileset, maxPixels: number): TiledImageData {
    const all = resources.images ?? {};
    const keys = [resolvePath(ts.folder, name), name, ts.name, baseName(name)];
    const key = keys.find(k => Object.prototype.hasOwnProperty.call(all, k));
    if (key === undefined)
        throw new Error(
            `${ts.file}: tileset "${ts.name}" names the image "${name}", which resources.images does not hold ` +
                `(it holds ${
                    Object.keys(all)
                        .map(k => JSON.stringify(k))
                        .join(', ') || 'none'
                }).`
        );
    const img = all[key] as Partial<TiledImageData> & { width?: unknown; height?: unknown };
    if (img === null || typeof img !== 'object' || typeof img.width !== 'number' || typeof img.height !== 'number')
        throw new Error(`${ts.file}: resources.images["${key}"] is not an image (no width and height).`);
    if (img.width * img.height > maxPixels)
        throw new Error(
            `${ts.file}: the image "${name}" is ${img.width}x${img.height}, more than limits.pixels (${maxPixels}).`
        );
    if (img.data !== undefined) {
        if (!(img.data instanceof Uint8Array || img.data instanceof Uint8ClampedArray))
            throw new Error(`${ts.file}: resources.images["${key}"].data is not RGBA bytes.`);
        if (img.data.length < img.width * img.height * 4)
            throw new Error(
                `${ts.file}: resources.images["${key}"] holds ${img.data.length} bytes, expected ` +
                    `${img.width * img.height * 4} for ${img.width}x${img.height} RGBA.`
            );
        return img as TiledImageData;
    }
    const read = readPixels(img as { width: number; height: number });
    if (!read)
        throw new Error(
            `${ts.file}: resources.images["${key}"] has no RGBA data and this runtime has no canvas to read it; ` +
                "pass { width, height, data } (hitmask/node's readImage gives one)."
        );
    return read;
}
