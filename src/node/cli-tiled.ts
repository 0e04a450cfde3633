// `hitmask inspect level.tmj`: a Tiled map's tile layers, tilesets (which tiles have collision shapes) and objects,
// as readTiledMap reads them.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { namedFiles, parseMap, parseTileset } from '../tiled/tiled-names.js';
import { resolvePath } from '../tiled/tiled-resources.js';
import { readTiledMap } from './tiled-read.js';

type Json = Record<string, unknown>;

/** Whether `file` names a Tiled map (by its extension). */
export function isTiledMap(file: string): boolean {
    return /\.(tmx|tmj)$/i.test(file);
}

/** The report of `hitmask inspect` on a Tiled map; `print` escapes names as the rest of inspect does. */
export async function inspectTiled(file: string, print: (name: string) => string): Promise<string> {
    const level = await readTiledMap(file);
    const map = parseMap(await readFile(file, 'utf8'), file);
    const { tilesets } = await namedFiles(map, async p =>
        parseTileset(await readFile(join(dirname(file), p), 'utf8'), p)
    );
    const lines = [
        `${file}: ${level.width}x${level.height} px of ${level.tileWidth}x${level.tileHeight} tiles` +
            `${level.x !== 0 || level.y !== 0 ? ` from ${level.x},${level.y}` : ''}, ${level.layers.length} tile ` +
            `layer${level.layers.length === 1 ? '' : 's'}, ${level.objects.length} object${level.objects.length === 1 ? '' : 's'}`
    ];
    for (const l of level.layers) {
        const t = l.layer;
        let solid = 0;
        for (const c of t.cells) if (c >= 0) solid++;
        lines.push(
            `layer ${print(l.name)}${l.visible ? '' : ' (hidden)'}: ${t.columns}x${t.rows} cells at ${t.x},${t.y}, ` +
                `${solid} with solid pixels, ${t.tiles.length} tile mask${t.tiles.length === 1 ? '' : 's'}`
        );
    }
    for (const entry of (Array.isArray(map.tilesets) ? map.tilesets : []) as Json[]) {
        const ts = typeof entry.source === 'string' ? (tilesets[resolvePath('', entry.source)] ?? entry) : entry;
        const tiles = (Array.isArray(ts.tiles) ? ts.tiles : Object.values((ts.tiles as object) ?? {})) as Json[];
        const shaped = tiles
            .filter(t => {
                const og = t.objectgroup as Json | undefined;
                return Array.isArray(og?.objects) && (og.objects as Json[]).some(o => o.point !== true);
            })
            .map((t, i) => (typeof t.id === 'number' ? t.id : i));
        const count = typeof ts.tilecount === 'number' ? ts.tilecount : tiles.length;
        lines.push(
            `tileset ${print(String(ts.name ?? ''))} (firstgid ${String(entry.firstgid)}` +
                `${typeof entry.source === 'string' ? `, ${print(entry.source)}` : ''}): ${count} tiles, ` +
                (shaped.length === 0
                    ? 'none with collision shapes (pixels)'
                    : `${shaped.length} with collision shapes (ids ${shaped.slice(0, 20).join(', ')}${shaped.length > 20 ? ', …' : ''})`)
        );
    }
    for (const o of level.objects) {
        const what = o.mask
            ? `${o.mask.width}x${o.mask.height} mask at ${o.x},${o.y}, ${o.mask.count()} px`
            : `point at ${o.x},${o.y}`;
        lines.push(
            `object ${o.id} ${JSON.stringify(print(o.name))}${o.class ? ` (${print(o.class)})` : ''} on ${print(o.layerName)}: ${what}`
        );
    }
    return lines.join('\n') + '\n';
}
