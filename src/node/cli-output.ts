// Where the `hitmask` command writes: never over one of its inputs, atomically to a regular file.
import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { standardStream, writeFileAtomic } from './write.js';

// sameFileAsAny, synchronously: a build's sources are often hundreds of small files, and an asynchronous stat
// each is a thread-pool round trip (908 sources: about 60 ms against 5 ms here).
function sameInput(output: string, inputs: readonly string[]): string | null {
    // As sameFileAsAny: a file that cannot be stat'ed, or has no inode number, is no match. Numbers first (BigInt
    // stats cost twice as much); a match is confirmed with BigInts (Windows file indexes can pass 2^53).
    const id = <T extends boolean>(p: string, bigint: T) => {
        try {
            const st = statSync(p, { bigint, throwIfNoEntry: false });
            return st && st.ino !== 0 && st.ino !== 0n ? st : null;
        } catch {
            return null;
        }
    };
    const out = id(output, false);
    for (const input of out ? inputs : []) {
        const st = id(input, false);
        if (!st || !out || st.dev !== out.dev || st.ino !== out.ino) continue;
        const a = id(output, true),
            b = id(input, true);
        if (a && b && a.dev === b.dev && a.ino === b.ino) return input;
    }
    return null;
}

/**
 * Refuses an empty output path (`-o ''`, `--png ''`) before any input is read: it names no file, and was refused
 * only by the write, after the whole build. `flag` names the option in the message.
 */
export function checkOutputPath(path: string | undefined, flag: string): void {
    if (path === '') throw new Error(`${flag} is empty: give the path of the file to write.`);
}

// Refuses an output that is one of the inputs, then writes it: a regular file atomically, a device or FIFO through.
// Returns where the summary line goes: stdout, or stderr where the output is stdout (-o /dev/stdout), which then
// holds the output alone.
export async function writeOutput(
    path: string,
    bytes: Uint8Array,
    sources: readonly string[]
): Promise<NodeJS.WriteStream> {
    checkOutputPath(path, 'The output path');
    const input = sameInput(path, sources);
    if (input !== null)
        throw new Error(`Output ${JSON.stringify(path)} is also an input (${input}); write it to another file.`);
    const report = (await standardStream(path)) === process.stdout ? process.stderr : process.stdout;
    // Only a write through (to a device or FIFO) can fail half-way.
    const atomic = (await stat(path).catch(() => null))?.isFile() ?? true;
    try {
        await writeFileAtomic(path, bytes, () =>
            process.stderr.write(
                `hitmask: note: waiting for a reader of the FIFO ${JSON.stringify(path)} (Ctrl-C stops).\n`
            )
        );
    } catch (e) {
        throw new Error(
            `Cannot write ${JSON.stringify(path)}: ${(e as Error).message}${atomic ? '; nothing was written' : ''}.`,
            { cause: e }
        );
    }
    return report;
}
