// `npm run example -- server` (examples/run-example.ts calls runServer): bundles the client page (client.ts →
// dist/client.js), serves examples/ on 127.0.0.1 and starts a Colyseus server on 127.0.0.1 with the match room
// (room.ts). PORT (default 2567) is the Colyseus port, PAGE_PORT (default 8080) the page's; a taken port falls
// back to any free one.
import { join } from 'node:path';
import type { Server as HttpServer } from 'node:http';
import { Server } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { build } from 'esbuild';
import { EXAMPLES, serve } from '../serve.js';
import { matchRoom, type MatchConfig } from './room.js';

/** A running example: the page's URL, the two ports, and `close()`, which stops both servers. */
export interface Running {
    url: string;
    port: number;
    pagePort: number;
    close(): Promise<void>;
}

/** Bundles the client page into examples/server/dist/client.js. */
export async function bundleClient(): Promise<void> {
    await build({
        entryPoints: [join(EXAMPLES, 'server', 'client.ts')],
        outfile: join(EXAMPLES, 'server', 'dist', 'client.js'),
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        sourcemap: true,
        logLevel: 'warning'
    });
}

/**
 * Starts the page server and the Colyseus server, both on 127.0.0.1 only (port 0: a free one); `match` is the
 * room's server-side config (matchRoom()), never taken from a client.
 */
export async function startServer(
    options: { port?: number; pagePort?: number; match?: MatchConfig } = {}
): Promise<Running> {
    await bundleClient();
    const page: HttpServer = await serve(EXAMPLES, options.pagePort ?? 0).catch((e: unknown) => {
        if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
        return serve(EXAMPLES, 0);
    });
    const server = new Server({ transport: new WebSocketTransport(), greet: false, gracefullyShutdown: false });
    server.define('match', matchRoom(options.match ?? {})); // server-side settings: none from a client
    try {
        await server.listen(options.port ?? 0, '127.0.0.1').catch(async (e: unknown) => {
            if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
            await server.listen(0, '127.0.0.1');
        });
    } catch (e) {
        page.close();
        throw e;
    }
    const port = portOf(server.transport.server),
        pagePort = portOf(page);
    return {
        url: `http://127.0.0.1:${pagePort}/server/?server=${port}`,
        port,
        pagePort,
        close: async () => {
            await server.gracefullyShutdown(false);
            await new Promise<void>(done => page.close(() => done()));
        }
    };
}

function portOf(s: HttpServer | undefined): number {
    const a = s?.address();
    if (!a || typeof a !== 'object') throw new Error(`expected a listening server, got address ${String(a)}`);
    return a.port;
}

/** Starts both servers on PORT and PAGE_PORT, prints where to go, and stops them on SIGINT or SIGTERM. */
export async function runServer(): Promise<void> {
    const running = await startServer({
        port: Number(process.env.PORT ?? 2567),
        pagePort: Number(process.env.PAGE_PORT ?? 8080)
    });
    process.stdout.write(
        `hitmask Colyseus room server on 127.0.0.1:${running.port}; open ${running.url} (two tabs: two ships)  (Ctrl+C to stop)\n`
    );
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
        process.once(signal, () => {
            void running.close().then(() => process.exit(0));
        });
}
