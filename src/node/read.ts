// Input files read whole under a byte budget that holds while reading: a file larger than the budget is refused
// from its size before any byte is read, and a device or FIFO (whose size says nothing: /dev/zero never ends)
// is refused as soon as one byte more than the budget arrives, so that no input costs more memory than that.
import type { Stats } from 'node:fs';
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { mib } from './image.js';
import { outOfRange } from '../base/check.js';

// Bytes asked for per read where the size is unknown (devices, FIFOs, files that report a size of 0).
const CHUNK = 64 * 1024;

/**
 * The bytes of the file at `path`, at most `limit` of them: a RangeError as soon as more would arrive. `what` names
 * the file in errors ("image", "atlas JSON"; may be empty). With `regularOnly`, anything but a regular file (a
 * symbolic link to one is fine) is refused before it is opened: devices, FIFOs (whose opening waits for a writer),
 * sockets.
 */
export async function readInput(path: string, limit: number, what: string, regularOnly = false): Promise<Uint8Array> {
    const name = `${what ? `${what} ` : ''}${JSON.stringify(path)}`;
    const io = <T>(p: Promise<T>) =>
        p.catch((e: NodeJS.ErrnoException) => {
            throw new Error(`Cannot read ${name}: ${e.code === 'ENOENT' ? 'no such file' : e.message}.`, { cause: e });
        });
    const refuse = (st: Stats) =>
        new Error(
            `Cannot read ${name}: it is ${fileKind(st)}, not a regular file; hitmask reads only regular files (a symbolic link to one is fine).`
        );
    const over = (how: string) =>
        outOfRange(`Cannot read ${name}: ${how}; raise maxBytes (CLI: --max-mib) if the file is trusted.`);
    if (regularOnly) {
        const st = await io(stat(path));
        if (!st.isFile()) throw refuse(st);
    }
    const file = await io(open(path, 'r'));
    try {
        const st = await io(file.stat());
        // Swapped for something else since the check above.
        if (regularOnly && !st.isFile()) throw refuse(st);
        if (st.isFile() && st.size > limit)
            throw over(`it is ${st.size} bytes, more than the ${mib(limit)} MiB budget`);
        const read = (buffer: Buffer, offset: number) =>
            io(file.read(buffer, offset, buffer.length - offset, null)).then(r => r.bytesRead);
        const bytes = await readUpTo(read, st.isFile() && st.size > 0 ? st.size : null, limit);
        if (bytes === null)
            throw over(`it is ${fileKind(st)} that gave more than the ${mib(limit)} MiB budget (${limit} bytes)`);
        return bytes;
    } finally {
        await file.close();
    }
}

/**
 * {@link readInput} with `regularOnly`, synchronously: a build reads many small files, and each asynchronous call
 * is a thread-pool round trip (908 sprites: about 270 ms of waiting against 10 ms read here). Opened without
 * blocking, so that a file swapped for a FIFO since the check is refused rather than waited on.
 */
export function readInputSync(path: string, limit: number, what: string): Uint8Array {
    const name = `${what ? `${what} ` : ''}${JSON.stringify(path)}`;
    const io = <T>(fn: () => T): T => {
        try {
            return fn();
        } catch (e) {
            const err = e as NodeJS.ErrnoException;
            throw new Error(`Cannot read ${name}: ${err.code === 'ENOENT' ? 'no such file' : err.message}.`, {
                cause: e
            });
        }
    };
    const refuse = (st: Stats) =>
        new Error(
            `Cannot read ${name}: it is ${fileKind(st)}, not a regular file; hitmask reads only regular files (a symbolic link to one is fine).`
        );
    const over = (how: string) =>
        outOfRange(`Cannot read ${name}: ${how}; raise maxBytes (CLI: --max-mib) if the file is trusted.`);
    const first = io(() => statSync(path));
    if (!first.isFile()) throw refuse(first);
    const fd = io(() => openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)));
    try {
        const st = io(() => fstatSync(fd));
        if (!st.isFile()) throw refuse(st);
        if (st.size > limit) throw over(`it is ${st.size} bytes, more than the ${mib(limit)} MiB budget`);
        const bytes = readUpToSync(
            (buffer, offset) => io(() => readSync(fd, buffer, offset, buffer.length - offset, null)),
            st.size > 0 ? st.size : null,
            limit
        );
        if (bytes === null)
            throw over(`it is ${fileKind(st)} that gave more than the ${mib(limit)} MiB budget (${limit} bytes)`);
        return bytes;
    } finally {
        closeSync(fd);
    }
}

// The chunks of readUpTo and readUpToSync: a file of known `size` in one buffer of that size and one byte more
// (to see its end without a second buffer), anything else in chunks; at most `limit` bytes.
class Chunks {
    readonly #chunks: Buffer[] = [];
    #total = 0;
    constructor(
        readonly size: number | null,
        readonly limit: number
    ) {}

    /** The next buffer to fill. */
    next(): Buffer {
        return Buffer.allocUnsafe(
            Math.min(
                this.limit + 1 - this.#total,
                this.#chunks.length === 0 && this.size !== null ? this.size + 1 : CHUNK
            )
        );
    }

    /**
     * Takes a buffer filled up to `filled`: the bytes once the source ended, null past the limit, undefined to go on.
     */
    add(chunk: Buffer, filled: number): Uint8Array | null | undefined {
        this.#total += filled;
        if (this.#total > this.limit) return null;
        this.#chunks.push(chunk.subarray(0, filled));
        if (filled === chunk.length) return undefined;
        return this.#chunks.length === 1 ? this.#chunks[0] : Buffer.concat(this.#chunks, this.#total);
    }
}

// readUpTo with a synchronous `read`.
function readUpToSync(
    read: (buffer: Buffer, offset: number) => number,
    size: number | null,
    limit: number
): Uint8Array | null {
    const c = new Chunks(size, limit);
    for (;;) {
        const chunk = c.next();
        let filled = 0;
        for (let n = -1; filled < chunk.length && n !== 0; filled += n) n = read(chunk, filled);
        const done = c.add(chunk, filled);
        if (done !== undefined) return done;
    }
}

// At most `limit` bytes from `read` (which fills a buffer from an offset and says how many bytes it put there, 0 at
// the end), or null when there are more; a chunk is filled before the next is made.
async function readUpTo(
    read: (buffer: Buffer, offset: number) => Promise<number>,
    size: number | null,
    limit: number
): Promise<Uint8Array | null> {
    const c = new Chunks(size, limit);
    for (;;) {
        const chunk = c.next();
        let filled = 0;
        for (let n = -1; filled < chunk.length && n !== 0; filled += n) n = await read(chunk, filled);
        const done = c.add(chunk, filled);
        if (done !== undefined) return done;
    }
}

/** What a file is, for messages: "a regular file", "a character device", "a FIFO", …. */
export function fileKind(st: Stats): string {
    return st.isFile()
        ? 'a regular file'
        : st.isDirectory()
          ? 'a folder'
          : st.isCharacterDevice()
            ? 'a character device'
            : st.isBlockDevice()
              ? 'a block device'
              : st.isFIFO()
                ? 'a FIFO'
                : st.isSocket()
                  ? 'a socket'
                  : 'a special file';
}
