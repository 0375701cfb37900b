// The layering reads top-down, bin → generator → runtime (issue 11): the runtime reaches the generator through
// one seam only, and that seam loads the emitters, never the bundle writer or its build tools. Inside each, a file
// imports only from its own layer or those below it, and no files import each other in a circle (issue 24).
import fs from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../..');

/** The relative modules a source file imports or requires (type-only imports excluded: they vanish). */
function relativeImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found = [...text.matchAll(/^\s*(?:import(?!\s+type)[^'";]*?from\s+|export(?!\s+type)[^'";]*?from\s+)['"](\.[^'"]+)['"]|require\(['"](\.[^'"]+)['"]\)/gm)];
  return found.map((match) => match[1] ?? match[2]).map((specifier) => resolveSource(path.dirname(file), specifier)).filter((resolved): resolved is string => resolved !== null);
}

function resolveSource(folder: string, specifier: string): string | null {
  const base = path.resolve(folder, specifier);
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')]) if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  return null;
}

/** Every source file reachable from `start` through value imports. */
function reachable(start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file) || !file.endsWith('.ts')) return;
    seen.add(file);
    for (const next of relativeImports(file)) visit(next);
  };
  visit(start);
  return seen;
}

/** Every relative module a source file names: imports and re-exports (type-only ones too), require() and import(). */
function allRelativeImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found = [...text.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s+['"](\.[^'"]+)['"]|require\(['"](\.[^'"]+)['"]\)|import\(['"](\.[^'"]+)['"]\)/gm)];
  const targets = found.map((match) => match[1] ?? match[2] ?? match[3]).map((specifier) => resolveSource(path.dirname(file), specifier));
  return [...new Set(targets.filter((resolved): resolved is string => resolved !== null && resolved.endsWith('.ts')))];
}

/**
 * runtime/ from the bottom up (STYLE "Layout"): server → handlers → crud → sql → model → dialects. Entries are files
 * or folders (ending in `/`) below runtime/; a new file at the root of runtime/ must be placed here.
 */
const RUNTIME_LAYERS: readonly (readonly [string, readonly string[]])[] = [
  ['base', ['errors.ts', 'names.ts', 'json-schema.ts', 'drizzle-kinds.ts', 'package-info.ts', 'optional-package.ts', 'validation.ts', 'validation-errors.ts', 'validation-runtime.ts', 'secrets/']],
  ['dialects', ['dialects/']],
  ['model', ['model/', 'actions.ts', 'route.ts', 'service.ts', 'service-action.ts', 'registry.ts', 'define-service.ts']],
  ['sql', ['sql/']],
  ['crud', ['crud/']],
  ['handlers', ['handlers/']],
  ['documents', ['openapi/', 'docs/']],
  ['server', ['server/', 'telemetry/', 'dashboard/']],
  ['api', ['index.ts', 'on-first-call.ts']],
];

/** generator/ from the bottom up: the code builder, the bundle's file names, the emitters, compile, the bundle writer. */
const GENERATOR_LAYERS: readonly (readonly [string, readonly string[]])[] = [
  ['errors', ['errors.ts']],
  ['code', ['code/']],
  ['layout', ['bundle/layout.ts']],
  ['emit', ['emit/']],
  ['compile', ['compile.ts']],
  ['bundle', ['bundle/']],
  ['index', ['index.ts']],
];

/** The layer of a file below `root` and its rank (0 at the bottom): the most specific entry that holds it. */
function layerOf(layers: typeof RUNTIME_LAYERS, root: string, file: string): { name: string; rank: number } | null {
  const relative = path.relative(root, file).split(path.sep).join('/');
  let found: { name: string; rank: number; length: number } | null = null;
  layers.forEach(([name, entries], rank) => {
    for (const entry of entries) {
      const holds = entry.endsWith('/') ? relative.startsWith(entry) : relative === entry;
      if (holds && (found === null || entry.length > found.length)) found = { name, rank, length: entry.length };
    }
  });
  return found;
}

/** `from → to` for every import from a file of `folder` to a layer above its own, and every file no layer holds. */
function backArrows(folder: string, layers: typeof RUNTIME_LAYERS): string[] {
  const root = path.join(REPO_ROOT, folder);
  const found: string[] = [];
  for (const file of sourceFiles(root)) {
    const from = layerOf(layers, root, file);
    if (from === null) {
      found.push(`${path.relative(REPO_ROOT, file)} is in no layer`);
      continue;
    }
    for (const target of allRelativeImports(file)) {
      if (!target.startsWith(root + path.sep)) continue;
      const to = layerOf(layers, root, target);
      if (to !== null && to.rank > from.rank) found.push(`${path.relative(REPO_ROOT, file)} (${from.name}) → ${path.relative(REPO_ROOT, target)} (${to.name})`);
    }
  }
  return found;
}

/** The import circles among `files` (Tarjan's strongly connected components of two or more files, or a file importing itself). */
function importCircles(files: readonly string[]): string[][] {
  const edges = new Map(files.map((file) => [file, allRelativeImports(file).filter((target) => files.includes(target))]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const next of edges.get(file)!) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length > 1 || edges.get(file)!.includes(file)) circles.push(component.map((member) => path.relative(REPO_ROOT, member)).sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return circles;
}

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).map((file) => path.join(folder, file));
}

describe('layering', () => {
  it('lets the runtime reach the generator only through runtime/handlers/compiler-seam.ts', () => {
    const generator = path.join(REPO_ROOT, 'generator') + path.sep;
    const offenders = sourceFiles(path.join(REPO_ROOT, 'runtime')).filter((file) => relativeImports(file).some((target) => target.startsWith(generator)));
    expect(offenders.map((file) => path.relative(REPO_ROOT, file))).toEqual(['runtime/handlers/compiler-seam.ts']);
  });

  it('loads no bundle writer, ts-morph or esbuild through the seam', () => {
    const loaded = [...reachable(path.join(REPO_ROOT, 'runtime/handlers/compiler-seam.ts'))].map((file) => path.relative(REPO_ROOT, file));
    expect(loaded).toContain('generator/compile.ts');
    expect(loaded.filter((file) => file.startsWith('generator/bundle/') || file === 'generator/index.ts')).toEqual([]);
    for (const file of loaded) expect({ file, text: fs.readFileSync(path.join(REPO_ROOT, file), 'utf8') }).not.toEqual({ file, text: expect.stringMatching(/from 'ts-morph'|require\('esbuild'\)|from 'esbuild'/) });
  });

  it('never lets the runtime load the CLI', () => {
    const bin = path.join(REPO_ROOT, 'bin') + path.sep;
    const offenders = sourceFiles(path.join(REPO_ROOT, 'runtime')).filter((file) => relativeImports(file).some((target) => target.startsWith(bin)));
    expect(offenders).toEqual([]);
  });

  it('lets no runtime file import from a layer above its own (server → handlers → crud → sql → model → dialects)', () => {
    expect(backArrows('runtime', RUNTIME_LAYERS)).toEqual([]);
  });

  it('lets no generator file import from a layer above its own (index → bundle → compile → emit → code)', () => {
    expect(backArrows('generator', GENERATOR_LAYERS)).toEqual([]);
  });

  it('has no import circle in runtime/ and generator/, type-only imports included', () => {
    const files = [...sourceFiles(path.join(REPO_ROOT, 'runtime')), ...sourceFiles(path.join(REPO_ROOT, 'generator'))];
    expect(importCircles(files)).toEqual([]);
  });
});
