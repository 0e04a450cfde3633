// What the test runner (scripts/test.ts) does with each test file, read from the file itself: its first line may
// be a tag line, `// @test` followed by tags, e.g.
//
//   // @test fast no-shared
//
// A file without a tag line runs once, in `npm test` only. The tags:
//
//   fast       also in `npm run test:fast` (the core unit tests: no build, no browser)
//   no-shared  run a second time without SharedArrayBuffer (test/env/no-shared-memory.mjs), as on a page
//              without cross-origin isolation
//   slow       started before the others, so that the short files fill in around it
//   browser    drives Chromium: at most one such file runs at a time (each page keeps several processes busy)
//   phaser3    run a second time on Phaser 3 (HITMASK_PHASER=phaser3, the devDependency alias)
//   pixi7      run a second time on PixiJS 7 (HITMASK_PIXI=pixi7, the devDependency alias)
//
// An unknown tag, a tag given twice, or a tag line anywhere but the first line is an error, so that a typo
// cannot silently drop a file from a suite.
import { readFileSync } from 'node:fs';

/** The tags a test file's first line may carry, and what each means (the runner's help and errors list them). */
export const TAGS = {
    fast: 'also in `npm run test:fast`',
    'no-shared': 'run again without SharedArrayBuffer',
    slow: 'started first',
    browser: 'drives Chromium: one such file at a time',
    phaser3: 'run again on Phaser 3',
    pixi7: 'run again on PixiJS 7'
} as const;
export type Tag = keyof typeof TAGS;

/** The other engine majors a tag asks for: the job's name prefix and the environment the adapters' tests read. */
export const ENGINE_MAJORS: Partial<Record<Tag, { name: string; env: Record<string, string> }>> = {
    phaser3: { name: 'phaser 3', env: { HITMASK_PHASER: 'phaser3' } },
    pixi7: { name: 'pixi 7', env: { HITMASK_PIXI: 'pixi7' } }
};

const TAG_LINE = /^\/\/ @test(?:\s+(.*))?$/;
// Any other mention of the marker at the start of a comment line: a misplaced or misspelt tag line.
const STRAY = /^\s*\/\/\s*@tests?\b/;

/** The tags in a test file's text; `file` names it in errors. Throws on an unknown, repeated or misplaced tag. */
export function parseTags(text: string, file: string): Set<Tag> {
    const lines = text.split('\n');
    const tags = new Set<Tag>();
    const first = TAG_LINE.exec(lines[0].trimEnd());
    if (first) {
        for (const word of (first[1] ?? '').split(/\s+/).filter(w => w !== '')) {
            if (!Object.hasOwn(TAGS, word))
                throw new Error(
                    `${file}: unknown test tag "${word}" on line 1; expected some of ${Object.keys(TAGS).join(', ')}`
                );
            if (tags.has(word as Tag)) throw new Error(`${file}: test tag "${word}" given twice on line 1`);
            tags.add(word as Tag);
        }
    } else if (STRAY.test(lines[0])) {
        throw new Error(`${file}: line 1 is not a tag line ("// @test tag …"), got ${JSON.stringify(lines[0])}`);
    }
    const stray = lines.findIndex((l, i) => i > 0 && STRAY.test(l));
    if (stray > 0)
        throw new Error(
            `${file}: a test tag line must be line 1, got one on line ${stray + 1}: ${lines[stray].trim()}`
        );
    return tags;
}

/** The tags of the test file at `path` (a path or file URL). */
export function readTags(path: string | URL, file = String(path)): Set<Tag> {
    return parseTags(readFileSync(path, 'utf8'), file);
}
