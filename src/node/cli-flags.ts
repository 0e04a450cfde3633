// The `hitmask` command's flags: their types, their parsers, the options they add to a command, and the
// BuildOptions they make.
import { Command, InvalidArgumentError, Option } from 'commander';
import type { BuildOptions } from './build.js';

// One name per meaning in every command: --key-tolerance for the colour key, --tolerance-px for outlines.
// `tolerance` is the old --tolerance, which meant the first in build, inspect and overlap and the second in
// polygons: still read (see legacyTolerance).
export interface CommonFlags {
    threshold?: number;
    colorKey?: number;
    keyTolerance?: number;
    tolerance?: number;
    trim?: boolean;
    maxMib?: number;
    allowOutsideImages?: boolean;
}
export interface SheetFlags {
    grid?: { w: number; h: number };
    margin?: number;
    spacing?: number;
    names?: string;
    atlas?: string;
    workers?: number;
}
export interface BuildFlags extends CommonFlags, SheetFlags {
    output: string;
    polygons?: boolean;
    tolerancePx?: number;
    maxVertices?: number;
}
export interface PolygonsFlags extends CommonFlags, SheetFlags {
    tolerancePx?: number;
    maxVertices?: number;
    output?: string;
}

const int = (min: number, max: number) => (v: string) => {
    const n = Number(v);
    if (!/^-?\d+$/.test(v.trim()) || n < min || n > max)
        throw new InvalidArgumentError(`expected an integer in ${min}..${max}, got ${JSON.stringify(v)}.`);
    return n;
};

// Pixels of simplification: any finite number >= 0.
export const distance = (v: string) => {
    const n = v.trim() === '' ? NaN : Number(v);
    if (!Number.isFinite(n) || n < 0)
        throw new InvalidArgumentError(`expected a finite number >= 0 (pixels, e.g. 0.5), got ${JSON.stringify(v)}.`);
    return n;
};

export const maxVertices = (v: string) => {
    const n = Number(v);
    if (!/^\s*\d+\s*$/.test(v) || n < 3 || n > 2 ** 30)
        throw new InvalidArgumentError(`expected an integer >= 3, got ${JSON.stringify(v)}.`);
    return n;
};

const colorKey = (v: string) => {
    const m = /^#?([0-9a-f]{6})$/i.exec(v.trim());
    if (!m) throw new InvalidArgumentError(`expected a colour as RRGGBB hex (e.g. ff00ff), got ${JSON.stringify(v)}.`);
    return parseInt(m[1], 16);
};

const size = (v: string) => {
    const m = /^(\d+)x(\d+)$/i.exec(v.trim());
    if (!m || +m[1] === 0 || +m[2] === 0)
        throw new InvalidArgumentError(`expected WxH with positive integers (e.g. 32x48), got ${JSON.stringify(v)}.`);
    return { w: +m[1], h: +m[2] };
};

// Any finite numbers, floored as the API floors positions: "1.5,-2.5" is 1,-3, "1e3,0" is 1000,0.
export const point = (v: string) => {
    const parts = v.split(',');
    const nums = parts.map(p => (p.trim() === '' ? NaN : Number(p)));
    if (parts.length !== 2 || !nums.every(Number.isFinite))
        throw new InvalidArgumentError(
            `expected DX,DY as two finite numbers (e.g. 10,-4 or 2.5,0), got ${JSON.stringify(v)}.`
        );
    return { x: Math.floor(nums[0]), y: Math.floor(nums[1]) };
};

// `legacy`: what the command's old --tolerance meant (hidden from the help, read by legacyTolerance).
export function maskFlags(cmd: Command, legacy: 'key' | 'px' = 'key'): Command {
    return cmd
        .option('--threshold <n>', 'solid where alpha > N (0..255; default 127)', int(0, 255))
        .option('--color-key <RRGGBB>', 'solid where the colour differs from this key (alpha ignored)', colorKey)
        .option('--key-tolerance <n>', 'colour-key tolerance per channel (0..255)', int(0, 255))
        .addOption(new Option('--tolerance <v>').argParser(legacy === 'key' ? int(0, 255) : distance).hideHelp())
        .option('--trim', 'trim masks to their set pixels, recording the offset')
        .option(
            '--max-mib <n>',
            'refuse images that decode to more than N MiB of RGBA, and --png previews larger than that (default 256)',
            int(1, 1 << 20)
        )
        .option('--allow-outside-images', "let a JSON's meta.image name a file outside the input folders");
}

// What build and polygons take besides the mask flags: grid sheets, an atlas JSON, worker threads.
export function sheetFlags(cmd: Command): Command {
    return cmd
        .option('--grid <WxH>', 'cut each image into WxH frames named NAME/0, NAME/1, …', size)
        .option('--margin <n>', 'grid: pixels around the grid', int(0, 2 ** 30))
        .option('--spacing <n>', 'grid: pixels between frames', int(0, 2 ** 30))
        .option('--names <template>', 'grid: frame names from {name}, {index}, {row}, {col}')
        .option('--atlas <file.json>', 'cut the image input by this TexturePacker/Aseprite JSON')
        .option(
            '--workers <n>',
            "worker threads building still PNGs' masks (default: from 64 such files averaging 256x256 px or more, the cores minus one, at most 3; 0: none)",
            int(0, 64)
        );
}

export function sheetOptions(flags: SheetFlags, options: BuildOptions): BuildOptions {
    if (flags.grid) {
        options.grid = {
            frameWidth: flags.grid.w,
            frameHeight: flags.grid.h,
            margin: flags.margin ?? 0,
            spacing: flags.spacing ?? 0
        };
        if (flags.names !== undefined) options.grid.names = flags.names;
    } else if (flags.margin !== undefined || flags.spacing !== undefined || flags.names !== undefined) {
        throw new Error('--margin, --spacing and --names need --grid WxH.');
    }
    if (flags.atlas) options.atlas = flags.atlas;
    if (flags.workers !== undefined) options.workers = flags.workers;
    return options;
}

// The old --tolerance of a command, read as its new name with a note on stderr; both given is an error.
export function legacyTolerance(
    flags: CommonFlags & { tolerancePx?: number },
    into: 'keyTolerance' | 'tolerancePx',
    command: string
): void {
    if (flags.tolerance === undefined) return;
    const name = into === 'keyTolerance' ? '--key-tolerance' : '--tolerance-px';
    if (flags[into] !== undefined)
        throw new Error(`--tolerance is the old name of ${name} in ${command}: give only ${name}.`);
    flags[into] = flags.tolerance;
    flags.tolerance = undefined;
    process.stderr.write(
        `hitmask: note: --tolerance is now ${name} in ${command} (in every command: --key-tolerance for the colour key, --tolerance-px for outlines); the old name still works for now.\n`
    );
}

export function buildOptions(flags: CommonFlags): BuildOptions {
    if (flags.threshold !== undefined && flags.colorKey !== undefined)
        throw new Error('Use --threshold or --color-key, not both.');
    if (flags.keyTolerance !== undefined && flags.colorKey === undefined)
        throw new Error('--key-tolerance needs --color-key.');
    const o: BuildOptions = { trim: flags.trim ?? false };
    if (flags.threshold !== undefined) o.threshold = flags.threshold;
    if (flags.colorKey !== undefined) o.colorKey = flags.colorKey;
    if (flags.keyTolerance !== undefined) o.tolerance = flags.keyTolerance;
    if (flags.maxMib !== undefined) o.maxBytes = flags.maxMib * 1024 * 1024;
    if (flags.allowOutsideImages) o.allowOutsideImages = true;
    return o;
}
