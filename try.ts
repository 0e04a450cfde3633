import { readTiledMap } from './src/node.js';
import { globSync } from 'node:fs';
const files = process.argv.slice(2);
for (const f of files) {
  const t0 = performance.now();
  try {
    const m = await readTiledMap(f);
    const cells = m.layers.reduce((n, l) => n + l.layer.cells.length, 0);
    const tiles = m.layers.reduce((n, l) => n + l.layer.tiles.length, 0);
    console.log(f.replace('/usr/share/doc/tiled/examples/', ''), `${m.width}x${m.height}`, 'layers', m.layers.length, 'cells', cells, 'masks', tiles, 'objects', m.objects.length, (performance.now() - t0).toFixed(0) + 'ms');
  } catch (e) { console.log(f.replace('/usr/share/doc/tiled/examples/', ''), 'ERR', (e as Error).message.slice(0, 200)); }
}
