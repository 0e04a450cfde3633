// Browser side of test/tiled-browser.test.ts (bundled by esbuild), and the description both sides compare: the page
// reads Tiled maps with loadTiledMap (fetch, createImageBitmap, a canvas, the JS inflaters) and with tiledCollision
// over resources it loaded itself (`<img>` elements, fetched tileset text); Node reads the same files with
// readTiledMap. A description holds every layer's pixels and tile masks and every object's mask as hashes and counts.
import { loadTiledMap, tiledCollision, type TiledCollision } from '../src/tiled.js';
import type { Mask } from '../src/index.js';

// FNV-1a over a string: the same number in Node and in the page.
function fnv(s: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
    return h;
}

const maskText = (m: Mask | null) => (m === null ? null : `${m.width}x${m.height}:${fnv(m.toText())}:${m.count()}`);

/** What a Tiled read gave, as plain data: per layer its placement, cells hash, tile masks and every pixel row. */
export function describeTiled(t: TiledCollision) {
    return {
        size: [t.x, t.y, t.width, t.height, t.tileWidth, t.tileHeight],
        layers: t.layers.map(l => {
            const m = l.layer;
            // Solid pixels per row of the layer's extent, and a hash of all of them in row order.
            const rows: number[] = [];
            let bits = '';
            for (let y = m.y; y < m.y + m.height; y++) {
                let n = 0;
                for (let x = m.x; x < m.x + m.width; x++) {
                    const on = m.hitTest(x, y);
                    if (on) n++;
                    bits += on ? '1' : '0';
                }
                rows.push(n);
            }
            return {
                id: l.id,
                name: l.name,
                class: l.class,
                properties: l.properties,
                visible: l.visible,
                place: [m.x, m.y, m.columns, m.rows, m.tileWidth, m.tileHeight],
                cells: m.hash(),
                tiles: m.tiles.map(maskText),
                pixels: fnv(bits),
                rows
            };
        }),
        objects: t.objects.map(o => ({
            id: o.id,
            name: o.name,
            class: o.class,
            layerName: o.layerName,
            properties: o.properties,
            x: o.x,
            y: o.y,
            mask: maskText(o.mask)
        }))
    };
}

export type TiledDescription = ReturnType<typeof describeTiled>;

/** loadTiledMap(url) with its defaults (fetch, createImageBitmap), described; or the Error's message. */
export async function load(url: string): Promise<TiledDescription | { error: string }> {
    try {
        return describeTiled(await loadTiledMap(url));
    } catch (e) {
        return { error: e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e) };
    }
}

function image(src: string): Promise<HTMLImageElement> {
    return new Promise((resolve, reject) => {
        const img = new Image();
        img.onload = () => resolve(img);
        img.onerror = () => reject(new Error(`the image ${src} did not load`));
        img.src = src;
    });
}

/**
 * tiledCollision over what the page loaded itself, as a game's loader holds it: the map's parsed JSON (or TMX text),
 * tilesets as fetched text or parsed JSON, images as loaded `<img>` elements; keys as the map's folder resolves them.
 */
export async function fromResources(
    mapUrl: string,
    tilesets: string[],
    images: string[]
): Promise<TiledDescription | { error: string }> {
    try {
        const folder = new URL('.', new URL(mapUrl, location.href));
        const text = async (path: string) => {
            const r = await fetch(new URL(path, folder));
            if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
            return r.text();
        };
        const mapText = await text(mapUrl.slice(mapUrl.lastIndexOf('/') + 1));
        const map: object | string = mapUrl.endsWith('.tmx') ? mapText : (JSON.parse(mapText) as object);
        const ts: Record<string, object | string> = {};
        for (const p of tilesets) ts[p] = p.endsWith('.tsx') ? await text(p) : (JSON.parse(await text(p)) as object);
        const imgs: Record<string, HTMLImageElement> = {};
        for (const p of images) imgs[p] = await image(new URL(p, folder).href);
        return describeTiled(tiledCollision(map, { tilesets: ts, images: imgs }, { file: mapUrl }));
    } catch (e) {
        return { error: e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e) };
    }
}

if (typeof document !== 'undefined') document.title = 'ready';
