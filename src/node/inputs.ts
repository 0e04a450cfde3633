// The inputs of a build: files, folders and globs expanded into the files they name, each with its frame name.
import { lstat, stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { typeError } from '../base/check.js';
import { checkString } from '../base/check-types.js';
import { fileKind } from './read.js';

/** One input file and the name its frames get. */
export interface BuildInput {
    path: string;
    name: string;
    /** Found in a folder or by a glob rather than named: a .json that is not a sheet layout is then skipped, not an error. */
    found: boolean;
    /** The folder the file counts as inside of: the folder input it was found in, or its own folder. */
    root: string;
}

const EXTENSIONS = ['.png', '.apng', '.gif', '.json'];

/**
 * Expands files, folders (recursively: .png, .apng, .gif, .json) and globs into input files, sorted, with frame names.
 * A file found whose name is not valid UTF-8 is skipped, with a line in `notes`.
 */
export async function resolveInputs(
    inputs: readonly string[],
    cwd = process.cwd(),
    notes: string[] = []
): Promise<BuildInput[]> {
    if (!Array.isArray(inputs) || inputs.length === 0)
        throw typeError('inputs', 'a non-empty array of paths or globs', inputs);
    const out: BuildInput[] = [];
    for (const input of inputs) {
        checkString('each input', input, true);
        const abs = resolve(cwd, input);
        const st = await stat(abs).catch(() => null);
        if (st?.isDirectory()) {
            const files = await glob(['**/*.{png,apng,gif,json}'], {
                cwd: abs,
                onlyFiles: true,
                caseSensitiveMatch: false
            });
            if (files.length === 0)
                throw new Error(`Folder ${JSON.stringify(input)} has no .png, .gif or .json files.`);
            // Inside a folder the name keeps the sub-path: enemies/alien1.png is named "enemies/alien1".
            for (const f of files.sort()) {
                const path = resolve(abs, f);
                if (!(await unnamable(path, cwd, notes))) out.push({ path, name: stripExt(f), found: true, root: abs });
            }
        } else if (st?.isFile()) {
            out.push({ path: abs, name: stripExt(basename(abs)), found: false, root: dirname(abs) });
        } else if (st) {
            throw new Error(
                `Input ${JSON.stringify(input)} is ${fileKind(st)}; expected a regular file, a folder or a glob.`
            );
        } else if (isDynamicPattern(input)) {
            const files = (await glob([input], { cwd, onlyFiles: true, absolute: true })).filter(f =>
                EXTENSIONS.includes(extname(f).toLowerCase())
            );
            if (files.length === 0) throw new Error(`No .png, .gif or .json files match ${JSON.stringify(input)}.`);
            // As inside a folder, the name keeps the path below the glob's fixed prefix (its folders before the
            // first wildcard), so names are unique: "art/**/*.png" names art/enemies/alien1.png "enemies/alien1".
            const base = resolve(cwd, globBase(input));
            for (const f of files.sort())
                if (!(await unnamable(f, cwd, notes)))
                    out.push({
                        path: f,
                        name: stripExt(subPath(base, f) ?? basename(f)),
                        found: true,
                        root: dirname(f)
                    });
        } else {
            throw new Error(`Input ${JSON.stringify(input)} does not exist; expected a file, a folder or a glob.`);
        }
    }
    return out;
}

// Whether a file found in a folder or by a glob has a name that is not valid UTF-8 (noted in `notes`): the folder
// listing decodes such bytes to U+FFFD, so the path it gives names no file (a real U+FFFD in a name still does).
async function unnamable(path: string, cwd: string, notes: string[]): Promise<boolean> {
    if (!path.includes('\uFFFD')) return false;
    const named = await lstat(path).then(
        () => true,
        () => false
    );
    if (named) return false;
    notes.push(
        `skipped ${JSON.stringify(relative(cwd, path) || path)}: its name is not valid UTF-8 (shown with U+FFFD), so ` +
            'it cannot be opened by a name nor give a frame one; rename it in UTF-8'
    );
    return true;
}

// The fixed prefix of a glob: its folders before the first one with a wildcard, unescaped ("" for none).
function globBase(pattern: string): string {
    const fixed: string[] = [];
    for (const part of pattern.split('/').slice(0, -1)) {
        if (isDynamicPattern(part)) break;
        fixed.push(part.replace(/\\(.)/g, '$1'));
    }
    return fixed.length === 1 && fixed[0] === '' ? '/' : fixed.join('/');
}

/** @internal `path` below the folder `base`, with / between folders; undefined when it is not below it. */
export function subPath(base: string, path: string): string | undefined {
    const rel = relative(base, path);
    return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)
        ? undefined
        : rel.split(sep).join('/');
}

/** @internal A file name without its extension. */
export function stripExt(f: string): string {
    const ext = extname(f);
    return ext ? f.slice(0, -ext.length) : f;
}
