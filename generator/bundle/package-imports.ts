// Which package imports the entry bundle keeps as imports from node_modules and which it bundles: a package
// linked in from outside node_modules (a workspace package) or whose entry is TypeScript is not in what a
// deployment installs in a form Node runs, so esbuild joins it into the entry like a local file.
import path from 'node:path';
import type { Plugin, ResolveResult } from 'esbuild';

/** Marks this plugin's own `build.resolve` calls, which must reach esbuild's resolver rather than the plugin again. */
const OWN_RESOLVE = Symbol('tessera-package-imports');

/** A TypeScript file: Node refuses to import one from node_modules ("Unknown file extension .ts"). */
const TYPESCRIPT = /\.[cm]?tsx?$/;

/** `pg`, `@scope/name` or a subpath of either: a specifier that is neither relative nor absolute. */
function isBareSpecifier(specifier: string): boolean {
  return !specifier.startsWith('.') && !path.isAbsolute(specifier);
}

function isInsideNodeModules(file: string): boolean {
  return file.split(path.sep).includes('node_modules');
}

/** The package a specifier names: `@scope/name/sub` → `@scope/name`, for the install hint. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Whether the resolved file is bundled: a workspace package (links resolved, outside node_modules) or a TypeScript entry. */
function isBundled(resolved: ResolveResult): boolean {
  return !isInsideNodeModules(resolved.path) || TYPESCRIPT.test(resolved.path);
}

/** The project's own files (outside node_modules); a bundled package's files are not, and see other packages. */
function isProjectFile(file: string, project: string): boolean {
  const relative = path.relative(project, file);
  return !relative.startsWith('..') && !path.isAbsolute(relative) && !isInsideNodeModules(relative);
}

/**
 * The entry bundle's rule for package imports (replacing esbuild's `packages: 'external'`, which kept every one):
 * a package that resolves inside node_modules to JavaScript stays an import, so the application and Tessera share
 * one copy of each; anything else is bundled. A package kept as an import by a bundled package's file must also
 * resolve from `project`, where the bundle imports it at run time; otherwise the build fails naming it.
 */
export function packageImports(project: string): Plugin {
  return {
    name: 'tessera-package-imports',
    setup(build) {
      build.onResolve({ filter: /^[^.]/, namespace: 'file' }, async (args) => {
        if (args.pluginData === OWN_RESOLVE || !isBareSpecifier(args.path)) return undefined;
        const options = { kind: args.kind, importer: args.importer, pluginData: OWN_RESOLVE };
        const resolved = await build.resolve(args.path, { ...options, resolveDir: args.resolveDir });
        if (resolved.errors.length === 0 && resolved.external) return { path: args.path, external: true };
        if (resolved.errors.length === 0 && isBundled(resolved)) return { path: resolved.path, namespace: resolved.namespace, sideEffects: resolved.sideEffects, suffix: resolved.suffix };
        // Node loaded the entry under `tessera build`, so a project file's import that esbuild cannot resolve stays as written.
        if (isProjectFile(args.importer, project)) return { path: args.path, external: true };
        const fromProject = await build.resolve(args.path, { ...options, resolveDir: project });
        // A require or import() Node may never reach (inside try/catch) stays as written, as esbuild leaves it.
        if (fromProject.errors.length === 0 || args.kind !== 'import-statement') return { path: args.path, external: true };
        const name = packageName(args.path);
        return { errors: [{ text: `${name} is not installed in the project, where the bundle imports it from node_modules: add it to the project's dependencies (npm install ${name})` }] };
      });
    },
  };
}
