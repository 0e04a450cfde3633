// Bundles one browser example (examples/NAME/main.ts → examples/NAME/dist/main.js) with esbuild and serves
// the examples/ folder on localhost: `node --import tsx examples/serve.ts phaser|phaser3|pixi|pixi7|matter|phaser-move|pixi-move [port]`
// (npm run example:phaser, example:phaser3, example:pixi, example:pixi7, example:matter, example:phaser-move, example:pixi-move). PORT or the second argument picks the port (default
// 8080); when it is taken, any free port, as `npm start` does.
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const EXAMPLES = fileURLToPath(new URL('.', import.meta.url));
export const NAMES = ['phaser', 'phaser3', 'pixi', 'pixi7', 'matter', 'phaser-move', 'pixi-move'] as const;
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

async function main(): Promise<void> {
    const name = process.argv[2];
    if (!NAMES.includes(name as ExampleName)) {
        process.stderr.write(`usage: node --import tsx examples/serve.ts ${NAMES.join('|')} [port]\n`);
        process.exitCode = 2;
        return;
    }
    await bundleExample(name as ExampleName);
    const port = Number(process.argv[3] ?? process.env.PORT ?? 8080);
    let server: Server;
    try {
        server = await serve(EXAMPLES, port).catch((e: unknown) => {
            // The wanted port is taken: any free one will do (as npm start does).
            if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
            return serve(EXAMPLES, 0);
        });
    } catch (e) {
        process.stderr.write(
            `cannot listen on 127.0.0.1:${port}: ${(e as Error).message} (set PORT to another port)\n`
        );
        process.exitCode = 2;
        return;
    }
    const address = server.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    process.stdout.write(`hitmask ${name} example: http://127.0.0.1:${actual}/${name}/  (Ctrl+C to stop)\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
