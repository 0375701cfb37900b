// The layering reads top-down, bin → generator → runtime (issue 11): the runtime reaches the generator through
// one seam only, and that seam loads the emitters, never the bundle writer or its build tools.
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
});
