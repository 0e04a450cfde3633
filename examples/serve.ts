// Bundles one browser example (examples/NAME/main.ts → examples/NAME/dist/main.js) with esbuild and serves
// the examples/ folder on localhost; `npm run example -- NAME [port]` (examples/run-example.ts) calls
// serveExample. When the port is taken, any free port, as `npm start` does.
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const EXAMPLES = fileURLToPath(new URL('.', import.meta.url));
export const NAMES = [
    'phaser',
    'phaser3',
    'pixi',
    'pixi7',
    'matter',
    'phaser-move',
    'pixi-move',
    'kaplay',
    'excalibur'
] as const;
export type ExampleName = (typeof NAMES)[number];
// The other engine majors: the page's source and the devDependency alias bundled for the engine it imports.
// Phaser 3 runs the Phaser 4 page's source unchanged; PixiJS 7 has a source of its own (its API differs).
export const MAJORS: Partial<Record<ExampleName, { source: ExampleName; alias: Record<string, string> }>> = {
    phaser3: { source: 'phaser', alias: { phaser: 'phaser3' } },
    pixi7: { source: 'pixi7', alias: { 'pixi.js': 'pixi7' } }
};

const TYPES: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript; charset=utf-8',
    '.map': 'application/json',
    '.json': 'application/json',
    '.tmj': 'application/json',
    '.png': 'image/png',
    '.gif': 'image/gif',
    '.css': 'text/css',
    '.hitmask': 'application/octet-stream'
};

/** Bundles the example's main.ts into `outfile` (default examples/NAME/dist/main.js); returns the output path. */
export async function bundleExample(
    name: ExampleName,
    outfile = join(EXAMPLES, name, 'dist', 'main.js')
): Promise<string> {
    await build({
        entryPoints: [join(EXAMPLES, MAJORS[name]?.source ?? name, 'main.ts')],
        alias: MAJORS[name]?.alias ?? {},
        outfile,
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        sourcemap: true,
        logLevel: 'warning'
    });
    return outfile;
}

/** Serves `root` as static files on 127.0.0.1; resolves once listening (port 0 picks a free one). */
export function serve(root: string, port: number): Promise<Server> {
    const server = createServer((req, res) => {
        const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
        const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
        if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) {
            res.writeHead(403).end('forbidden');
            return;
        }
        readFile(file).then(
            body => {
                res.writeHead(200, {
                    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
                    'cache-control': 'no-store'
                });
                res.end(body);
            },
            () => {
                res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
            }
        );
    });
    return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve(server));
    });
}

/** Bundles example `name` and serves examples/ on 127.0.0.1:`port` (any free port when it is taken). */
export async function serveExample(name: ExampleName, port: number): Promise<Server> {
    await bundleExample(name);
    const server = await serve(EXAMPLES, port).catch((e: unknown) => {
        // The wanted port is taken: any free one will do (as npm start does).
        if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
        return serve(EXAMPLES, 0);
    });
    const address = server.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    process.stdout.write(`hitmask ${name} example: http://127.0.0.1:${actual}/${name}/  (Ctrl+C to stop)\n`);
    return server;
}
