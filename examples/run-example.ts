// `npm run example -- NAME [port]`: runs one example.
//
//   overlap    in the terminal (examples/overlap.ts): two sprites' masks, where their boxes and their pixels meet
//   phaser, phaser3, pixi, pixi7, matter, phaser-move, pixi-move, kaplay, excalibur
//              a browser page: bundles examples/NAME/main.ts with esbuild and serves examples/ on 127.0.0.1
//              (examples/serve.ts); the port is the argument after NAME, else PORT, else 8080 (a free one when taken)
//   server     a Colyseus room server and its page (examples/server/serve.ts; PORT and PAGE_PORT pick the ports)
//   cluster    the same room on N Colyseus processes sharing a Redis (examples/server/cluster.ts; --processes N)
//
// Without NAME it lists the examples and exits 0; an unknown NAME prints the list on stderr and exits 2. The
// servers run until Ctrl+C.
import { readFileSync } from 'node:fs';
import { NAMES, serveExample, type ExampleName } from './serve.js';

// The page's title without the common prefix: what the example shows.
function title(name: string): string {
    const html = readFileSync(new URL(`./${name}/index.html`, import.meta.url), 'utf8');
    return /<title>(?:hitmask \+ )?(.*?)<\/title>/.exec(html)?.[1] ?? '';
}

function choices(): [string, string][] {
    return [
        ['overlap', "in the terminal: two aliens' masks, the overlap drawn in ASCII, point and area"],
        ...NAMES.map((n): [string, string] => [n, `page /${n}/: ${title(n)}`]),
        [
            'server',
            'a Colyseus room server and its page /server/: an authoritative room with rollback (docs/server.md)'
        ],
        ['cluster', 'the same room on N Colyseus processes sharing a Redis (--processes N; needs redis-server)']
    ];
}

function listing(): string {
    const list = choices();
    const width = Math.max(...list.map(([n]) => n.length));
    return [
        'usage: npm run example -- NAME [port]',
        '',
        ...list.map(([n, what]) => `  ${n.padEnd(width)}  ${what}`)
    ].join('\n');
}

async function main(argv: string[]): Promise<number> {
    const [name, port, ...rest] = argv;
    if (name === undefined) {
        console.log(listing());
        return 0;
    }
    if (name === 'overlap') await import('./overlap.js');
    else if (name === 'server') await (await import('./server/serve.js')).runServer();
    else if (name === 'cluster') return (await import('./server/cluster.js')).runCluster([port, ...rest]);
    else if ((NAMES as readonly string[]).includes(name)) {
        const wanted = Number(port ?? process.env.PORT ?? 8080);
        try {
            await serveExample(name as ExampleName, wanted);
        } catch (e) {
            // A port that cannot be had (other than taken: serveExample falls back to a free one then).
            if (typeof (e as NodeJS.ErrnoException).code !== 'string') throw e;
            console.error(`cannot listen on 127.0.0.1:${wanted}: ${(e as Error).message} (set PORT to another port)`);
            return 2;
        }
    } else {
        const names = choices().map(([n]) => n);
        console.error(`no example named "${name}"; expected one of ${names.join(', ')}\n\n${listing()}`);
        return 2;
    }
    return 0;
}

process.exitCode = await main(process.argv.slice(2));
