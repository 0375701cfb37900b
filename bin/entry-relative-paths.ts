// spec §4.3: relative paths in the `documentation` option start at the application entry's folder.
// createServer cannot know the entry, so the CLI makes those paths absolute before handing the options over.
import path from 'node:path';

/** A copy of `options` whose relative `documentation` paths are resolved against `entryDir`; other values untouched. */
export function resolveEntryRelativePaths(options: Record<string, unknown>, entryDir: string): Record<string, unknown> {
  const documentation = options.documentation;
  if (typeof documentation === 'string') return { ...options, documentation: path.resolve(entryDir, documentation) };
  if (typeof documentation !== 'object' || documentation === null) return options;
  const { dir, components } = documentation as { dir?: unknown; components?: unknown };
  const resolved: Record<string, unknown> = { ...documentation };
  if (typeof dir === 'string') resolved.dir = path.resolve(entryDir, dir);
  if (typeof components === 'string') resolved.components = path.resolve(entryDir, components);
  return { ...options, documentation: resolved };
}
