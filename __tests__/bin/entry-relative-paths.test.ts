// spec §4.3: relative `documentation` paths start at the application entry's folder; the CLI resolves
// them before createServer sees the options.
import path from 'node:path';
import { resolveEntryRelativePaths } from '../../bin/entry-relative-paths';

const ENTRY_DIR = path.resolve('/srv/app/src');

describe('resolveEntryRelativePaths', () => {
  it('resolves a folder given as a string against the entry folder', () => {
    expect(resolveEntryRelativePaths({ title: 'Blog', documentation: 'docs' }, ENTRY_DIR)).toEqual({ title: 'Blog', documentation: path.join(ENTRY_DIR, 'docs') });
  });

  it('resolves dir and components of the object form, and keeps absolute paths', () => {
    const options = { documentation: { dir: '../guides', components: './mdx/components.ts' } };
    expect(resolveEntryRelativePaths(options, ENTRY_DIR)).toEqual({
      documentation: { dir: path.resolve('/srv/app/guides'), components: path.join(ENTRY_DIR, 'mdx/components.ts') },
    });
    expect(resolveEntryRelativePaths({ documentation: '/var/docs' }, ENTRY_DIR)).toEqual({ documentation: path.resolve('/var/docs') });
  });

  it('leaves the entry\'s own object alone and passes other shapes through for createServer to judge', () => {
    const documentation = { dir: 'docs' };
    const options = { documentation };
    resolveEntryRelativePaths(options, ENTRY_DIR);
    expect(options.documentation).toBe(documentation);
    expect(documentation).toEqual({ dir: 'docs' });
    expect(resolveEntryRelativePaths({ documentation: 42 }, ENTRY_DIR)).toEqual({ documentation: 42 });
    const without = { title: 'x' };
    expect(resolveEntryRelativePaths(without, ENTRY_DIR)).toBe(without);
  });
});
