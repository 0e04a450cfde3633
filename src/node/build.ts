// Building a MaskAtlas from image files, folders, globs, grid sheets and atlas JSON (what `hitmask build` runs).
import { realpath } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { MaskAtlas } from '../core/atlas.js';
import { checkInt, checkNonNegative, typeError } from '../base/check.js';
import { checkObject } from '../base/check-types.js';
import { Mask, type ColorKey } from '../core/mask.js';
import { crop, rotate90, trim } from '../core/transform.js';
import { decodeFrames, decodeImage, decodePngMask, type DecodeOptions } from './decode.js';
import type { WorkerJob, WorkerResult } from './build-worker.js';
import type { maskPolygons, PolygonsJsonOptions } from './polygons-json.js';
import { DEFAULT_MAX_BYTES, type RGBAImage } from './image.js';
import { readInput, readInputSync } from './read.js';
import { resolveInputs, stripExt, subPath, type BuildInput } from './inputs.js';
import {
    gridFrames,
    gridLeftover,
    notSheetLayout,
    parseSheetJson,
    type GridOptions,
    type SheetFrame,
    type SheetLayout
} from './sheets.js';

/** How pixels become mask bits. */
export interface MaskOptions {
    /** A pixel is solid where alpha > threshold (ignored with `colorKey`). @default 127 */
    threshold?: number;
    /** Solid where the colour differs from this key (alpha ignored), e.g. `0xff00ff`. */
    colorKey?: ColorKey;
    /** Colour-key tolerance per channel. @default 0 */
    tolerance?: number;
    /** Trim each mask to its set pixels, recording the offset (saves space and test time). @default false */
    trim?: boolean;
}

/** Options of {@link buildAtlas}. */
export interface BuildOptions extends MaskOptions, DecodeOptions {
    /** Cut every image input into a uniform grid. */
    grid?: GridOptions;
    /** Path of a TexturePacker/Aseprite JSON whose frames are cut from the (single) image input. */
    atlas?: string;
    /** Let a JSON input's `meta.image` name a file outside the input folders (refused by default: a JSON from elsewhere could read any file). @default false */
    allowOutsideImages?: boolean;
    /** Base for relative inputs. @default process.cwd() */
    cwd?: string;
    /** Worker threads building masks of still PNGs beside the calling thread (0: none). @default 1 less than the cores (at most 3) when there are 64 or more such files and the first 16 files average 256x256 px or more, else 0 */
    workers?: number;
    /**
     * Store each frame's polygons and convex pieces in the atlas (after trimming; format version 2): `true` for the
     * exact outlines and pieces of at most 8 vertices, or `{ tolerance, maxVertices }`. @default false
     */
    polygons?: boolean | { tolerance?: number; maxVertices?: number };
    /** Called after each input file. */
    onProgress?: (done: number, total: number, file: string) => void;
}

/** Counts and timings of a build. */
export interface BuildStats {
    files: number;
    frames: number;
    bitsSet: number;
    /** Bytes of RGBA turned into masks. */
    rgbaBytes: number;
    /** Reading and decoding files, in milliseconds. */
    decodeMs: number;
    /** Building, cutting and trimming masks, in milliseconds. */
    maskMs: number;
    /** Files whose masks worker threads built (see {@link BuildOptions.workers}). */
    workerFiles: number;
}

export { resolveInputs, type BuildInput } from './inputs.js';

/** What {@link buildAtlas} made. */
export interface BuildResult {
    atlas: MaskAtlas;
    stats: BuildStats;
    /** Absolute paths of every file read (images, JSON layouts): an output must not be one of them. */
    sources: string[];
    /** Files skipped, with why (e.g. a settings.json in a sprite folder). */
    notes: string[];
}

// By default, workers start after this many files when those had at least LARGE_PIXELS pixels on average.
const PROBE = 16,
    LARGE_PIXELS = 256 * 256;
// With workers, the calling thread lets their answers in after every this many files (a power of two).
const YIELD_EVERY = 8;
// Files queued at each worker.
const WORKER_QUEUE = 4;

/**
 * Builds masks for every frame of the inputs: a single image becomes one frame named after the file
 * (`alien1.png` → `alien1`; found in a folder input or by a glob, with its path below the folder or the glob's
 * fixed prefix: `enemies/alien1`), an animation one frame per image (`name/0`, …, with delays and a tag `name`),
 * a grid sheet `name/0`, `name/1`, …, and a TexturePacker/Aseprite JSON its own frame names (its image is then not built alone).
 */
export async function buildAtlas(inputs: readonly string[], options: BuildOptions = {}): Promise<BuildResult> {
    checkObject('options', options);
    if (options.grid && options.atlas)
        throw new Error('Use either a grid or an atlas JSON for image inputs, not both.');
    // Every file read (images and JSON alike) may be at most this large, and its pixels no more.
    const maxBytes = checkInt('maxBytes', options.maxBytes ?? DEFAULT_MAX_BYTES, 0, Number.MAX_SAFE_INTEGER);
    const notes: string[] = [];
    const files = await resolveInputs(inputs, options.cwd, notes);
    const stats: BuildStats = { files: 0, frames: 0, bitsSet: 0, rgbaBytes: 0, decodeMs: 0, maskMs: 0, workerFiles: 0 };
    const atlas = new MaskAtlas();
    // Where each frame name came from.
    const origin = new Map<string, FrameSource>();
    const sources = new Set<string>();
    const cwd = options.cwd ?? process.cwd();
    const shapes = options.polygons === undefined || options.polygons === false ? null : checkShapes(options.polygons);
    // The tracing modules load only for a build that stores polygons (a cheaper start for the others).
    const polygonsOf = shapes ? (await import('./polygons-json.js')).maskPolygons : null;
    const jobs = await planJobs(files, options, cwd, maxBytes, sources, notes);

    // Threshold masks of still PNGs come straight from the scanlines; colour keys, GIFs and APNGs go through RGBA.
    const direct = options.colorKey === undefined;
    const threshold = options.threshold ?? 127;
    // Per job: claimed (built here, or sent to a worker); done: the mask a worker built.
    const taken: boolean[] = [],
        done: (Mask | undefined)[] = [];
    const pooled = direct && !options.grid;
    // Asked for: workers from the start. By default only for large images: the first PROBE files tell their mean
    // size, and small sprites cost less to build here than to send a worker (908 files of 66x66 px: 20% less CPU).
    let pool =
        pooled && options.workers !== undefined ? startWorkers(jobs.filter(workerJob).length, options.workers) : null;
    if (pool) feedWorkers(pool, jobs, taken, done, threshold, maxBytes, stats);
    try {
        for (let k = 0; k < jobs.length; k++) {
            if (pooled && options.workers === undefined && k === PROBE && stats.rgbaBytes >= PROBE * LARGE_PIXELS * 4) {
                pool = startWorkers(jobs.slice(k).filter(workerJob).length, undefined);
                if (pool) feedWorkers(pool, jobs, taken, done, threshold, maxBytes, stats);
            }
            // With workers, let their answers in now and then (the files here are read synchronously).
            if (pool && (k & (YIELD_EVERY - 1)) === 0) await new Promise(setImmediate);
            const pre = done[k] ?? null;
            done[k] = undefined;
            taken[k] = true;
            const job = jobs[k];
            const label = labelOf(job, cwd);
            const from: FrameSource = {
                label,
                path: job.file.path,
                byFile: !job.layout && (!options.grid || (options.grid.names ?? '{name}').includes('{name}'))
            };
            const add = (name: string, mask: Mask, f: FrameInfo) => {
                const prev = origin.get(name);
                if (prev !== undefined) throw new Error(nameClash(name, prev, from, cwd));
                origin.set(name, from);
                addFrame(
                    atlas,
                    name,
                    mask,
                    f,
                    options.trim ?? false,
                    shapes && polygonsOf ? { options: shapes, of: polygonsOf } : null,
                    stats
                );
            };
            const path = sheetPath(job);
            let t0 = performance.now();
            sources.add(path);
            let full = pre,
                bytes: Uint8Array = new Uint8Array(0);
            if (!full) {
                bytes = readInputSync(path, maxBytes, job.image ? `image of ${label}` : 'image');
                t0 = performance.now();
                full = direct ? labelled(path, () => decodePngMask(bytes, threshold, options)) : null;
            }
            if (job.layout || options.grid) {
                const image = full ? null : labelled(path, () => decodeImage(bytes, options));
                const width = full ? full.width : (image as RGBAImage).width,
                    height = full ? full.height : (image as RGBAImage).height;
                stats.decodeMs += performance.now() - t0;
                t0 = performance.now();
                const layout = job.layout ?? {
                    frames: gridFrames(job.file.name, width, height, options.grid as GridOptions),
                    tags: []
                };
                if (!job.layout) gridNote(label, width, height, options.grid as GridOptions, notes);
                const base = atlas.size;
                const cut = full
                    ? cutMask(full, layout.frames, label)
                    : cutSheet(image as RGBAImage, layout.frames, options, label);
                for (const { frame, mask } of cut) add(frame.name, mask, frame);
                for (const t of layout.tags) atlas.addTag(t.name, base + t.from, base + t.to, t.direction);
                stats.rgbaBytes += width * height * 4;
            } else if (full) {
                stats.decodeMs += performance.now() - t0;
                t0 = performance.now();
                add(job.file.name, full, {
                    offsetX: 0,
                    offsetY: 0,
                    sourceWidth: full.width,
                    sourceHeight: full.height,
                    duration: 0,
                    boxes: []
                });
                stats.rgbaBytes += full.width * full.height * 4;
            } else {
                const frames = labelled(path, () => decodeFrames(bytes, options));
                stats.decodeMs += performance.now() - t0;
                t0 = performance.now();
                const base = atlas.size;
                frames.forEach((im, i) => {
                    const name = frames.length === 1 ? job.file.name : `${job.file.name}/${i}`;
                    add(name, imageMask(im, options), {
                        offsetX: 0,
                        offsetY: 0,
                        sourceWidth: im.width,
                        sourceHeight: im.height,
                        duration: im.delay,
                        boxes: []
                    });
                    stats.rgbaBytes += im.data.length;
                });
                if (frames.length > 1) atlas.addTag(job.file.name, base, base + frames.length - 1);
            }
            stats.maskMs += performance.now() - t0;
            stats.files++;
            options.onProgress?.(k + 1, jobs.length, label);
        }
    } finally {
        for (const w of pool ?? []) void w.terminate();
    }
    return { atlas, stats, sources: [...sources], notes };
}

// One file to build: an image, or a JSON layout's sheet (`image`, cut by `layout`); a plain image cut by
// --atlas has that `layout` too.
interface Job {
    file: BuildInput;
    layout?: SheetLayout;
    image?: string;
}

// Where a frame name came from; `byFile`: the name is made from the file's name (not a layout's own).
interface FrameSource {
    label: string;
    path: string;
    byFile: boolean;
}

// A frame's place in its sprite and its timing and boxes (as a sheet layout gives them).
type FrameInfo = Omit<SheetFrame, 'name' | 'x' | 'y' | 'width' | 'height' | 'rotated'>;

// The jobs of a build, in input order: JSON inputs are read here (every one becomes a sources entry), and the
// images their layouts name are cut by them rather than built on their own.
async function planJobs(
    files: BuildInput[],
    options: BuildOptions,
    cwd: string,
    maxBytes: number,
    sources: Set<string>,
    notes: string[]
): Promise<Job[]> {
    const roots = [...new Set(files.map(f => f.root))];
    const jobs: Job[] = [];
    const claimed = new Set<string>();
    for (const file of files) {
        if (extname(file.path).toLowerCase() !== '.json') continue;
        const text = new TextDecoder().decode(await readBytes(file.path, 'atlas JSON', maxBytes));
        sources.add(file.path);
        const why = file.found ? notLayout(text) : null;
        if (why) {
            notes.push(`skipped ${relative(cwd, file.path) || file.path}: ${why}`);
            continue;
        }
        const layout = parseSheetJson(text, file.path);
        const image = resolve(dirname(file.path), layout.image ?? `${stripExt(basename(file.path))}.png`);
        if (layout.image !== undefined && !options.allowOutsideImages)
            await checkInside(image, roots, file.path, layout.image);
        claimed.add(image);
        jobs.push({ file, layout, image });
    }
    const images = files.filter(f => extname(f.path).toLowerCase() !== '.json' && !claimed.has(f.path));
    let sharedLayout: SheetLayout | undefined;
    if (options.atlas) {
        if (images.length !== 1)
            throw new Error(
                `--atlas applies to exactly one image input, got ${images.length}; pass each sheet's JSON as an input instead.`
            );
        const path = resolve(cwd, options.atlas);
        sharedLayout = await loadLayout(path, maxBytes);
        sources.add(path);
    }
    for (const file of images) jobs.push({ file, layout: sharedLayout });
    jobs.sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file));
    return jobs;
}

// The file a job reads: the sheet image a JSON layout names, or the input itself.
function sheetPath(job: Job): string {
    return job.image ?? job.file.path;
}

// How messages name a job: its input's path relative to cwd.
function labelOf(job: Job, cwd: string): string {
    return relative(cwd, job.file.path) || job.file.path;
}

// Whether a job may go to a worker: a file that is neither cut by a layout nor a .gif (a worker answers `redo`
// for anything but a still PNG).
function workerJob(job: Job): boolean {
    return !job.layout && extname(job.file.path).toLowerCase() !== '.gif';
}

// Worker threads build the masks of still PNGs (files that are neither sheets nor .gif) from the last file
// backwards, while the calling thread builds the files in order from the first; they meet in the
// middle. The calling thread never waits for a worker: a file a worker has not answered yet when its turn comes
// (or cannot build: not a still PNG, unreadable, corrupt) is built there, so results and errors are the same as
// without workers. A job a worker takes is marked in `taken`; the mask it built lands in `done`.
function feedWorkers(
    pool: Worker[],
    jobs: Job[],
    taken: boolean[],
    done: (Mask | undefined)[],
    threshold: number,
    maxBytes: number,
    stats: BuildStats
): void {
    let last = jobs.length - 1;
    for (const w of pool) {
        const feed = () => {
            while (last >= 0 && (taken[last] || !workerJob(jobs[last]))) last--;
            if (last < 0) return;
            taken[last] = true;
            w.postMessage({ k: last, path: sheetPath(jobs[last]), threshold, maxBytes } satisfies WorkerJob);
        };
        w.on('message', (r: WorkerResult) => {
            try {
                if (!('redo' in r)) {
                    done[r.k] = Mask.fromWords(r.width, r.height, r.words);
                    stats.workerFiles++;
                }
            } catch {
                // Built by the calling thread instead.
            }
            feed();
        });
        // A worker that fails leaves its files to the calling thread.
        w.on('error', () => undefined);
        // Several files in flight, so that a worker never waits for the calling thread to pass it the next one.
        for (let i = 0; i < WORKER_QUEUE; i++) feed();
    }
}

// Adds a frame (trimmed first where asked, with its polygons where asked) and counts it.
function addFrame(
    atlas: MaskAtlas,
    name: string,
    mask: Mask,
    f: FrameInfo,
    trimmed: boolean,
    shapes: { options: PolygonsJsonOptions; of: typeof maskPolygons } | null,
    stats: BuildStats
): void {
    let x = f.offsetX,
        y = f.offsetY;
    if (trimmed) {
        const t = trim(mask);
        mask = t.mask;
        x += t.x;
        y += t.y;
    }
    atlas.add(name, mask, {
        x,
        y,
        sourceWidth: f.sourceWidth,
        sourceHeight: f.sourceHeight,
        duration: f.duration,
        boxes: f.boxes,
        ...(shapes ? shapes.of(mask, shapes.options) : {})
    });
    stats.frames++;
    stats.bitsSet += mask.count();
}

// BuildOptions.polygons, checked before anything is read.
function checkShapes(p: unknown): PolygonsJsonOptions {
    if (p === true) return {};
    if (p == null || typeof p !== 'object')
        throw typeError('polygons', 'a boolean or a { tolerance, maxVertices } object', p);
    const { tolerance, maxVertices } = p as PolygonsJsonOptions;
    if (tolerance !== undefined) checkNonNegative('polygons.tolerance', tolerance, 'a finite number >= 0 (pixels)');
    if (maxVertices !== undefined) checkInt('polygons.maxVertices', maxVertices, 3, 2 ** 30);
    return { ...(tolerance === undefined ? {} : { tolerance }), ...(maxVertices === undefined ? {} : { maxVertices }) };
}

/** @internal Worker threads (build-worker.ts) for a build of `files` still-image files, or null for none. */
export function startWorkers(files: number, requested: number | undefined): Worker[] | null {
    const n =
        requested === undefined
            ? files >= 64
                ? Math.min(3, availableParallelism() - 1)
                : 0
            : checkInt('workers', requested, 0, 64);
    if (n <= 0) return null;
    // Beside this module: build-worker.js; or, run from the sources, build-worker.ts through tsx (which workers do not inherit).
    const fromSources = import.meta.url.endsWith('.ts');
    const url = new URL(fromSources ? './build-worker.ts' : './build-worker.js', import.meta.url);
    const tsx = fromSources
        ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(a => { a.register(); return import(${JSON.stringify(url.href)}); })`
        : '';
    return Array.from({ length: n }, () => {
        const w = fromSources ? new Worker(tsx, { eval: true }) : new Worker(url);
        w.unref();
        return w;
    });
}

// Says where a grid leaves pixels of an image in no frame (they were dropped silently).
function gridNote(label: string, width: number, height: number, grid: GridOptions, notes: string[]): void {
    const { right, bottom } = gridLeftover(width, height, grid);
    if (right === 0 && bottom === 0) return;
    const { frameWidth: w, frameHeight: h, margin = 0, spacing = 0 } = grid;
    const where = [right > 0 ? `${right} px at the right` : '', bottom > 0 ? `${bottom} px at the bottom` : '']
        .filter(Boolean)
        .join(' and ');
    notes.push(
        `${label}: the ${w}x${h} grid (margin ${margin}, spacing ${spacing}) leaves ${where} of the ` +
            `${width}x${height} image in no frame; check the frame size, margin and spacing`
    );
}

// Why a .json found in a folder or by a glob is not a sheet layout (null when it is one): not JSON, or not shaped
// as one (notSheetLayout).
function notLayout(text: string): string | null {
    let json: unknown;
    try {
        json = JSON.parse(text);
    } catch {
        return 'not valid JSON, so not a TexturePacker or Aseprite sheet';
    }
    return notSheetLayout(json);
}

// The error for two files giving one frame name: both files, and the fix. Where both names are made from the
// files' names and the files lie in different folders, their common folder as the input gives each its sub-path.
function nameClash(name: string, a: FrameSource, b: FrameSource, cwd: string): string {
    const head = `Frame name ${JSON.stringify(name)} comes from both ${a.label} and ${b.label}; rename one`;
    if (a.path === b.path) return `${head}, or pass the file only once.`;
    if (!a.byFile || !b.byFile) return `${head}, or build them into separate files.`;
    let common = dirname(a.path);
    while (subPath(common, b.path) === undefined && dirname(common) !== common) common = dirname(common);
    if (dirname(a.path) === dirname(b.path) || dirname(common) === common) return `${head}.`;
    const example = stripExt(subPath(common, a.path) ?? basename(a.path));
    return `${head}, or pass their common folder ${JSON.stringify(relative(cwd, common) || '.')} instead of each file, so that names keep the sub-path (as in ${JSON.stringify(example)}).`;
}

// A JSON's meta.image must lie in one of the input folders (symbolic links followed), unless allowed.
async function checkInside(image: string, roots: string[], json: string, declared: string): Promise<void> {
    const real = await realpath(image).catch(() => image);
    for (const root of roots) {
        const rel = relative(await realpath(root).catch(() => root), real);
        if (rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)) return;
    }
    throw new Error(
        `${json}: meta.image ${JSON.stringify(declared)} is ${real}, outside the input folders (${roots.join(', ')}); move the image next to the JSON, or pass --allow-outside-images (allowOutsideImages) if the JSON is trusted.`
    );
}

/** The mask of a whole image: alpha > threshold, or colour ≠ key when `colorKey` is given. */
export function imageMask(image: RGBAImage, options: MaskOptions = {}): Mask {
    return options.colorKey === undefined
        ? Mask.fromRGBA(image.data, image.width, image.height, { threshold: options.threshold ?? 127 })
        : Mask.fromColorKey(image.data, image.width, image.height, options.colorKey, {
              tolerance: options.tolerance ?? 0
          });
}

/** Masks of the frames of a sheet image, rotated frames turned back upright (the whole image is thresholded once, then cut). */
export function cutSheet(
    image: RGBAImage,
    frames: readonly SheetFrame[],
    options: MaskOptions = {},
    label = 'sheet'
): { frame: SheetFrame; mask: Mask }[] {
    for (const f of frames) {
        if (f.x + f.width > image.width || f.y + f.height > image.height) {
            throw new Error(
                `${label}: frame ${JSON.stringify(f.name)} at (${f.x}, ${f.y}) size ${f.width}x${f.height} lies outside the ${image.width}x${image.height} image.`
            );
        }
    }
    return cutMask(imageMask(image, options), frames, label);
}

// Cuts frames out of a whole image's mask (checked to lie inside it by cutSheet or here).
function cutMask(full: Mask, frames: readonly SheetFrame[], label: string): { frame: SheetFrame; mask: Mask }[] {
    for (const f of frames) {
        if (f.x + f.width > full.width || f.y + f.height > full.height) {
            throw new Error(
                `${label}: frame ${JSON.stringify(f.name)} at (${f.x}, ${f.y}) size ${f.width}x${f.height} lies outside the ${full.width}x${full.height} image.`
            );
        }
    }
    return frames.map(frame => {
        const cut = crop(full, frame.x, frame.y, frame.width, frame.height);
        // Stored 90° clockwise, so a quarter turn anticlockwise restores it.
        return { frame, mask: frame.rotated ? rotate90(cut, -1) : cut };
    });
}

/** Reads and parses a TexturePacker or Aseprite JSON file of at most `maxBytes`. */
export async function loadLayout(path: string, maxBytes = DEFAULT_MAX_BYTES): Promise<SheetLayout> {
    const text = new TextDecoder().decode(await readBytes(path, 'atlas JSON', maxBytes));
    return parseSheetJson(text, path);
}

// Builds read regular files only: a folder may hold a link to /dev/zero or a FIFO, which would cost the whole
// budget, or wait for a writer, for every such file.
function readBytes(path: string, what: string, maxBytes: number): Promise<Uint8Array> {
    return readInput(path, maxBytes, what, true);
}

function labelled<T>(label: string, fn: () => T): T {
    try {
        return fn();
    } catch (e) {
        if (e instanceof Error) e.message = `${label}: ${e.message}`;
        throw e;
    }
}
