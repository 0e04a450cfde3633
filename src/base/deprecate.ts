// Deprecated names of the 0.4.0 renames: each warns once per process (or page), then behaves as its new name.
// They stay for one minor version; CHANGELOG.md has the migration table.

const warned = new Set<string>();

/**
 * @internal Warns once that `old` is deprecated in favour of `replacement` (console.warn; a game loop is not flooded).
 */
export function deprecated(old: string, replacement: string): void {
    if (warned.has(old)) return;
    warned.add(old);
    console.warn(`hitmask: ${old} is deprecated and will be removed in 0.5.0; use ${replacement} instead.`);
}

/** @internal The names warned about so far (tests read it to check that each alias warns once). */
export function deprecationsWarned(): readonly string[] {
    return [...warned];
}
