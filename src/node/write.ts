// Output files: never one of the inputs, and written whole or not at all (a temporary file in the same folder,
// flushed, then renamed over the target), so that a full disk or a crash never leaves a truncated file.
import { randomBytes } from 'node:crypto';
import { open, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Writes `bytes` to `path` atomically (temporary file beside it, fsync, rename); an existing file keeps its permissions. */
export async function writeFileAtomic(path: string, bytes: Uint8Array): Promise<void> {
    // Through a symbolic link to its target, so that the link stays a link.
    const target = await realpath(path).catch(() => path);
    const mode = (await stat(target).catch(() => null))?.mode ?? 0o666;
    const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
    const file = await open(tmp, 'wx', mode & 0o777);
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
}

/** Whether `output` is the same file as one of `inputs` (same device and inode: links and other spellings count). */
export async function sameFileAsAny(output: string, inputs: readonly string[]): Promise<string | null> {
    // BigInt: Windows file indexes can pass 2^53; an inode of 0 means the filesystem has none to compare.
    const out = await stat(output, { bigint: true }).catch(() => null);
    if (!out || out.ino === 0n) return null;
    for (const input of inputs) {
        const st = await stat(input, { bigint: true }).catch(() => null);
        if (st && st.dev === out.dev && st.ino === out.ino) return input;
    }
    return null;
}
