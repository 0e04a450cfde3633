// Output files: never one of the inputs, and written whole or not at all (a temporary file in the same folder,
// flushed, then renamed over the target), so that a full disk or a crash never leaves a truncated file. An output
// that is not a regular file (a device, a FIFO, a socket, /dev/stdout) is written through instead: renaming a file
// over it would replace it. Temporary files in flight are listed, so that a signal handler can remove them. A FIFO
// is opened without blocking, so that a signal still ends a process waiting for its reader.
import { randomBytes } from 'node:crypto';
import { constants, fstatSync, unlinkSync, type BigIntStats } from 'node:fs';
import { open, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// The temporary files being written, each with the output it is for.
const inFlight = new Map<string, string>();

// How long a write to a FIFO sleeps between tries while it has no reader, or while its pipe is full.
const FIFO_RETRY_MS = 20,
    PIPE_FULL_MS = 2;

/**
 * Writes `bytes` to `path`: a regular file (or a new one) atomically (temporary file beside it, fsync, rename; an
 * existing file keeps its permissions, a symbolic link stays a link); anything else is opened and written through.
 * A FIFO without a reader is waited for (`waiting` is called once first), in a way a signal still ends.
 */
export async function writeFileAtomic(path: string, bytes: Uint8Array, waiting?: () => void): Promise<void> {
    // stat follows links: /dev/stdout is whatever descriptor 1 is.
    const st = await stat(path).catch(() => null);
    if (st?.isFIFO()) return writeFifo(path, bytes, waiting);
    if (st && !st.isFile()) return writeThrough(path, bytes);
    // Through a symbolic link to its target, so that the link stays a link.
    const target = await realpath(path).catch(() => path);
    const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
    // Listed before it exists: a signal may come before open() returns.
    inFlight.set(tmp, path);
    try {
        const file = await open(tmp, 'wx', (st?.mode ?? 0o666) & 0o777);
        try {
            await file.writeFile(bytes);
            // Without the flush a crash soon after the rename can leave an empty file on some filesystems (ext4, XFS).
            await file.sync();
            await file.close();
            await rename(tmp, target);
        } catch (e) {
            await file.close().catch(() => undefined);
            await rm(tmp, { force: true });
            throw e;
        }
    } finally {
        inFlight.delete(tmp);
    }
}

/**
 * Removes the temporary files of the writes in flight, at once (for a signal handler that exits next); returns the
 * outputs they were for, each left as it was.
 */
export function removeTemporaryFiles(): string[] {
    const removed: string[] = [];
    for (const [tmp, output] of inFlight) {
        try {
            unlinkSync(tmp);
            removed.push(output);
        } catch {
            // Not created yet, or renamed already.
        }
    }
    inFlight.clear();
    return removed;
}

/** This process's stdout or stderr stream when `path` names the same file (/dev/stdout, /dev/fd/2, …), else null. */
export async function standardStream(path: string): Promise<NodeJS.WriteStream | null> {
    const st = await identity(path);
    return sameFile(st, descriptor(1)) ? process.stdout : sameFile(st, descriptor(2)) ? process.stderr : null;
}

// A device, FIFO or socket: no temporary file, no rename, no flush (pipes have none). This process's own stdout or
// stderr goes through its stream, which writes in order with what else the process prints there (and a socket, as
// Node's pipes to a child are, cannot be opened by name); anything else is opened for writing, never created.
async function writeThrough(path: string, bytes: Uint8Array): Promise<void> {
    const stream = await standardStream(path);
    if (stream) {
        await new Promise<void>((resolve, reject) => stream.write(bytes, e => (e ? reject(e) : resolve())));
        return;
    }
    const file = await open(path, constants.O_WRONLY);
    try {
        await file.writeFile(bytes);
    } finally {
        await file.close();
    }
}

// A FIFO, opened without blocking: a blocking open() with no reader waits in a thread-pool thread, which no signal
// ends (exiting waits for that thread), so Ctrl-C was ignored until a reader came. No reader yet (ENXIO): try again
// after FIFO_RETRY_MS, the event loop free for a signal's handler. The descriptor stays non-blocking, so a full pipe
// (EAGAIN) is waited for the same way. This process's own stdout or stderr goes through its stream, as in
// writeThrough.
async function writeFifo(path: string, bytes: Uint8Array, waiting?: () => void): Promise<void> {
    const stream = await standardStream(path);
    if (stream) return writeThrough(path, bytes);
    let file;
    for (let told = false; !file;) {
        try {
            file = await open(path, constants.O_WRONLY | (constants.O_NONBLOCK ?? 0));
        } catch (e) {
            if ((e as NodeJS.ErrnoException).code !== 'ENXIO') throw e;
            if (!told) waiting?.();
            told = true;
            await sleep(FIFO_RETRY_MS);
        }
    }
    try {
        for (let at = 0; at < bytes.length;) {
            try {
                at += (await file.write(bytes, at, bytes.length - at)).bytesWritten;
            } catch (e) {
                if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
                await sleep(PIPE_FULL_MS);
            }
        }
    } finally {
        await file.close();
    }
}

/** Whether `output` is the same file as one of `inputs` (same device and inode: links and other spellings count). */
export async function sameFileAsAny(output: string, inputs: readonly string[]): Promise<string | null> {
    const out = await identity(output);
    for (const input of out ? inputs : []) if (sameFile(out, await identity(input))) return input;
    return null;
}

// stat() with BigInt numbers (Windows file indexes can pass 2^53), or null for a missing file or one whose
// filesystem has no inode numbers to compare (0).
async function identity(path: string): Promise<BigIntStats | null> {
    const st = await stat(path, { bigint: true }).catch(() => null);
    return st && st.ino !== 0n ? st : null;
}

// fstat() of a descriptor of this process, or null where it is closed.
function descriptor(fd: number): BigIntStats | null {
    try {
        return fstatSync(fd, { bigint: true });
    } catch {
        return null;
    }
}

function sameFile(a: BigIntStats | null, b: BigIntStats | null): boolean {
    return a !== null && b !== null && a.dev === b.dev && a.ino === b.ino;
}
