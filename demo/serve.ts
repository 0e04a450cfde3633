// `npm start`: builds the demo's mask atlas with the hitmask CLI, bundles demo/demo.ts with esbuild and
// serves the page on http://localhost:PORT/ (PORT from the environment, else 8080, else any free port).
// Everything generated stays in memory, so nothing is written into the checkout.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';

const run = promisify(execFile);
const DEMO = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(DEMO, '..');
const ASSETS = join(DEMO, 'assets');

/** The generated parts of the demo. */
export interface DemoBuild {
    /** The `.hitmask` atlas built by `hitmask build` from demo/assets/*.gif. */
    atlas: Uint8Array;
    /** demo/demo.ts bundled as one ES module. */
    script: string;
}

/** A running demo server. */
export interface DemoServer extends DemoBuild {
    url: string;
    port: number;
    close(): Promise<void>;
}

/** Options of {@link startDemo}. */
export interface StartOptions {
    /** Port to try first; 0 picks a free one. @default Number(process.env.PORT) || 8080 */
    port?: number;
    /** @default '127.0.0.1' */
    host?: string;
}

// The newest modification time under a folder (recursively), in ms.
async function newest(dir: string): Promise<number> {
    let t = 0;
    for (const e of await readdir(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        t = Math.max(t, e.isDirectory() ? await newest(p) : (await stat(p)).mtimeMs);
    }
    return t;
}

// The CLI as a command line: the built dist/node/cli.js when it is newer than the sources, otherwise the
// same CLI from source through tsx, so a stale or missing dist never gives a stale atlas and nothing is rebuilt
// under the feet of tests that read dist/.
async function cliCommand(): Promise<string[]> {
    const built = join(ROOT, 'dist', 'node', 'cli.js');
    try {
        if ((await stat(built)).mtimeMs >= (await newest(join(ROOT, 'src')))) return [built];
    } catch {
        // No dist: fall through to the sources.
    }
    return ['--import', 'tsx', join(ROOT, 'src', 'node', 'cli.ts')];
}

/** Builds the atlas (with the real `hitmask build` CLI) and bundles the page script. */
export async function buildDemo(): Promise<DemoBuild> {
    const gifs = (await readdir(ASSETS))
        .filter(f => f.endsWith('.gif'))
        .sort()
        .map(f => join(ASSETS, f));
    const dir = await mkdtemp(join(tmpdir(), 'hitmask-demo-'));
    try {
        const out = join(dir, 'masks.hitmask');
        await run(process.execPath, [...(await cliCommand()), 'build', ...gifs, '-o', out], { cwd: ROOT });
        const atlas = new Uint8Array(await readFile(out));
        const bundle = await esbuild.build({
            entryPoints: [join(DEMO, 'demo.ts')],
            bundle: true,
            format: 'esm',
            target: 'es2022',
            platform: 'browser',
            write: false,
            sourcemap: 'inline',
            logLevel: 'silent'
        });
        return { atlas, script: bundle.outputFiles[0].text };
    } finally {
        await rm(dir, { recursive: true, force: true });
    }
}

const TYPES: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript; charset=utf-8',
    '.gif': 'image/gif',
    '.png': 'image/png',
    '.hitmask': 'application/octet-stream',
    '.md': 'text/plain; charset=utf-8'
};

function listen(server: Server, port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
        const onError = (e: Error) => {
            server.off('listening', onListening);
            reject(e);
        };
        const onListening = () => {
            server.off('error', onError);
            resolve((server.address() as AddressInfo).port);
        };
        server.once('error', onError);
        server.once('listening', onListening);
        server.listen(port, host);
    });
}

/** Builds the demo and serves it; resolves once the server listens. */
export async function startDemo(options: StartOptions = {}): Promise<DemoServer> {
    const host = options.host ?? '127.0.0.1';
    const wanted = options.port ?? (Number(process.env.PORT) || 8080);
    if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65535)
        throw new RangeError(`port must be an integer in 0..65535, got ${wanted}.`);
    const build = await buildDemo();
    const server = createServer((req, res) => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        const send = (status: number, type: string, body: string | Uint8Array) => {
            // Cross-origin isolation: SharedArrayBuffer, so masks live in shared WebAssembly memory and a ThreadPool can work.
            res.writeHead(status, {
                'content-type': type,
                'cache-control': 'no-store',
                'cross-origin-opener-policy': 'same-origin',
                'cross-origin-embedder-policy': 'require-corp'
            });
            res.end(body);
        };
        if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, TYPES['.md'], 'GET only\n');
        if (path === '/demo.js') return send(200, TYPES['.js'], build.script);
        if (path === '/masks.hitmask') return send(200, TYPES['.hitmask'], build.atlas);
        const file =
            path === '/' || path === '/index.html'
                ? 'index.html'
                : /^\/assets\/[\w.-]+$/.test(path)
                  ? path.slice(1)
                  : null;
        const ext = file ? file.slice(file.lastIndexOf('.')) : '';
        if (!file || !TYPES[ext]) return send(404, TYPES['.md'], 'not found\n');
        readFile(join(DEMO, file)).then(
            body => send(200, TYPES[ext], body),
            () => send(404, TYPES['.md'], 'not found\n')
        );
    });
    let port: number;
    try {
        port = await listen(server, wanted, host);
    } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
        // The wanted port is taken: any free one will do.
        port = await listen(server, 0, host);
    }
    return {
        ...build,
        port,
        url: `http://localhost:${port}/`,
        close: () =>
            new Promise<void>((resolve, reject) => {
                server.closeAllConnections();
                server.close(e => (e ? reject(e) : resolve()));
            })
    };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
    const demo = await startDemo();
    console.log(`hitmask demo: ${demo.url}`);
    console.log('Ctrl-C to stop.');
    process.once('SIGINT', () => {
        void demo.close().then(() => process.exit(0));
    });
}
