// @test slow
// What each entry point publishes: the declarations are built in memory as `npm run build` builds them
// (tsconfig.build.json, stripInternal), then read back as a user's TypeScript reads them. Every name an entry
// exports at run time must be declared (a run-time export without a declaration is an internal that leaked, as
// hitmask/threads' worker source once did), no declared export may be marked @internal in src/, and the published
// declarations must compile (an export of a stripped name would not). Prints each entry's export counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// Never written: the emitted declarations live in memory under this path (inside the repository, so that their
// imports of phaser and pixi.js resolve through node_modules as in an installed package).
const DIST = join(ROOT, '.declarations-in-memory');

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types?: string }>;
};
// Entry name -> its declaration file under dist/ (relative), from package.json's exports.
const ENTRIES = Object.entries(manifest.exports).flatMap(([k, e]) =>
    typeof e === 'object' && e.types
        ? [{ name: k === '.' ? 'hitmask' : `hitmask/${k.slice(2)}`, types: e.types.replace(/^\.\/dist\//, '') }]
        : []
);

// The names declared with an @internal tag anywhere in src/ (top level and class members).
function internalNames(program: ts.Program): Set<string> {
    const names = new Set<string>();
    const visit = (node: ts.Node): void => {
        if (ts.getJSDocTags(node).some(t => t.tagName.text === 'internal')) {
            const name = (node as ts.NamedDeclaration).name;
            if (name && ts.isIdentifier(name)) names.add(name.text);
            if (ts.isVariableStatement(node))
                for (const d of node.declarationList.declarations) if (ts.isIdentifier(d.name)) names.add(d.name.text);
        }
        if (ts.isSourceFile(node) || ts.isClassDeclaration(node) || ts.isModuleBlock(node))
            ts.forEachChild(node, visit);
    };
    for (const f of program.getSourceFiles()) if (f.fileName.startsWith(join(ROOT, 'src'))) visit(f);
    return names;
}

test('exports: every entry point declares what it exports at run time, and no internal name', async t => {
    const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.build.json'), undefined, {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: d => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    });
    assert.ok(config, 'tsconfig.build.json parses');
    assert.equal(config.options.stripInternal, true, 'the build strips @internal declarations');
    const source = ts.createProgram(config.fileNames, {
        ...config.options,
        outDir: DIST,
        declarationMap: false,
        sourceMap: false
    });
    const emitted = new Map<string, string>();
    const r = source.emit(undefined, (file, text) => emitted.set(resolve(file), text), undefined, true);
    assert.deepEqual(r.diagnostics, []);
    const internal = internalNames(source);
    assert.ok(internal.size > 10, `found the @internal names (${internal.size})`);

    // The declarations as a user's compiler reads them: from memory, everything else from disk.
    const host = ts.createCompilerHost({});
    const { fileExists, readFile } = host;
    host.fileExists = f => emitted.has(resolve(f)) || fileExists.call(host, f);
    host.readFile = f => emitted.get(resolve(f)) ?? readFile.call(host, f);
    host.directoryExists = d => d.startsWith(DIST) || ts.sys.directoryExists(d);
    const roots = ENTRIES.map(e => join(DIST, e.types));
    const user = ts.createProgram(
        roots,
        {
            module: ts.ModuleKind.NodeNext,
            moduleResolution: ts.ModuleResolutionKind.NodeNext,
            target: ts.ScriptTarget.ES2022,
            lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
            types: ['node'],
            strict: true,
            noEmit: true
        },
        host
    );
    // Only the published files are checked (Phaser 4's own declarations have errors of their own: docs/phaser.md).
    const errors = [...emitted.keys()]
        .filter(f => f.endsWith('.d.ts'))
        .flatMap(f => {
            const sf = user.getSourceFile(f);
            return sf ? [...user.getSyntacticDiagnostics(sf), ...user.getSemanticDiagnostics(sf)] : [];
        })
        .map(d => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    assert.deepEqual(errors, [], 'the published declarations compile');

    const checker = user.getTypeChecker();
    for (const entry of ENTRIES) {
        const sf = user.getSourceFile(join(DIST, entry.types));
        assert.ok(sf, `${entry.types} was emitted`);
        const moduleSymbol = checker.getSymbolAtLocation(sf);
        assert.ok(moduleSymbol, `${entry.types} is a module`);
        const declared = checker.getExportsOfModule(moduleSymbol).map(s => s.name);
        const src = join(ROOT, 'src', entry.types.replace(/\.d\.ts$/, '.ts'));
        const runtime = Object.keys((await import(pathToFileURL(src).href)) as object);
        assert.deepEqual(
            runtime.filter(n => !declared.includes(n)),
            [],
            `${entry.name} exports at run time only what it declares`
        );
        assert.deepEqual(
            declared.filter(n => internal.has(n)),
            [],
            `${entry.name} declares no name marked @internal in src/`
        );
        t.diagnostic(`${entry.name}: ${declared.length} names (${runtime.length} values, the rest types)`);
    }
});
