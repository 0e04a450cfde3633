// `npm run bench -- NAME [argument …]`: runs the benchmark bench/NAME.bench.ts in a child Node (with tsx) and
// passes it the arguments after NAME, e.g. `npm run bench -- simd --js` or `npm run bench -- world 1000,10000`.
// The names are the files bench/*.bench.ts, so a new benchmark needs no edit here; `build` runs build.bench.ts
// and then build-real.bench.ts (the asset pipeline, then `hitmask build` against pygame).
//
// Without NAME it lists the benchmarks (name and the first line of the file's header) and exits 0; an unknown
// NAME prints the same list on stderr and exits 2. Otherwise the exit code is the benchmark's.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const SUFFIX = '.bench.ts';
// Names that run several files in turn (stopping at the first that fails).
const GROUPS: Record<string, string[]> = { build: ['build', 'build-real'] };

/** Every benchmark's name: the files bench/NAME.bench.ts. */
function benchNames(): string[] {
    return readdirSync(HERE)
        .filter(f => f.endsWith(SUFFIX))
        .map(f => f.slice(0, -SUFFIX.length))
        .sort();
}

/** The files a name runs, in order; null for an unknown name. */
function benchFiles(name: string): string[] | null {
    const files = GROUPS[name] ?? [name];
    return files.every(f => benchNames().includes(f)) ? files.map(f => `bench/${f}${SUFFIX}`) : null;
}

// What a name runs: the files it adds, then the first line of the header, cut to fit one line of the listing.
function summary(name: string): string {
    const first = readFileSync(`${HERE}${name}${SUFFIX}`, 'utf8')
        .split('\n')[0]
        .replace(/^\/\/\s*/, '');
    const text = GROUPS[name] ? `(then ${GROUPS[name].slice(1).join(', ')}) ${first}` : first;
    return text.length > 90 ? `${text.slice(0, 89)}…` : text;
}

function listing(): string {
    const names = benchNames();
    const width = Math.max(...names.map(n => n.length));
    return [
        'usage: npm run bench -- NAME [argument …]   (docs/performance.md#running-the-benchmarks)',
        '',
        ...names.map(n => `  ${n.padEnd(width)}  ${summary(n)}`)
    ].join('\n');
}

function main(argv: string[]): number {
    const [name, ...rest] = argv;
    if (name === undefined) {
        console.log(listing());
        return 0;
    }
    const files = benchFiles(name);
    if (files === null) {
        console.error(`no benchmark named "${name}"; expected one of ${benchNames().join(', ')}\n\n${listing()}`);
        return 2;
    }
    for (const file of files) {
        const r = spawnSync(process.execPath, ['--import', 'tsx', file, ...rest], {
            cwd: fileURLToPath(new URL('..', import.meta.url)),
            stdio: 'inherit'
        });
        if (r.error) throw r.error;
        if (r.status !== 0) return r.status ?? 1;
    }
    return 0;
}

process.exitCode = main(process.argv.slice(2));
