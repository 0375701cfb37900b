// The `documentation` option's folder: resolved against the entry's folder, checked at construction,
// and listed so that only .md/.mdx files inside it can ever become pages.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SetupError } from 'tessera-api';
import { listDocumentFiles, resolveDocumentationFolder, titleOf } from '../../runtime/docs/documentation-folder';

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  }
}

describe('resolveDocumentationFolder', () => {
  let root: string;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-folder-')));
    writeFiles(root, { 'app/docs/index.md': '# Home\n', 'app/docs/components.js': 'module.exports = {};\n' });
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('resolves a relative folder against the base folder (the entry folder under the CLI)', () => {
    expect(resolveDocumentationFolder('docs', path.join(root, 'app'))).toEqual({ dir: path.join(root, 'app/docs'), components: null });
  });

  it('keeps an absolute folder and resolves an extensionless components module', () => {
    const folder = resolveDocumentationFolder({ dir: path.join(root, 'app/docs'), components: './docs/components' }, path.join(root, 'app'));
    expect(folder).toEqual({ dir: path.join(root, 'app/docs'), components: path.join(root, 'app/docs/components.js') });
  });

  it('throws a SetupError naming the absolute folder when it does not exist or is a file', () => {
    expect(() => resolveDocumentationFolder('guides', path.join(root, 'app'))).toThrow(new SetupError(`documentation: the folder ${path.join(root, 'app/guides')} does not exist`));
    expect(() => resolveDocumentationFolder('docs/index.md', path.join(root, 'app'))).toThrow('does not exist');
  });

  it('throws a SetupError for a missing components module, an unknown key or a wrong shape', () => {
    expect(() => resolveDocumentationFolder({ dir: 'docs', components: 'nope.ts' }, path.join(root, 'app'))).toThrow(
      `documentation.components: the module ${path.join(root, 'app/nope.ts')} does not exist`,
    );
    expect(() => resolveDocumentationFolder({ dir: 'docs', theme: 'dark' } as never, path.join(root, 'app'))).toThrow('documentation.theme is not an option');
    expect(() => resolveDocumentationFolder({ dir: '' }, root)).toThrow('documentation must be a folder path, or { dir, components? }');
    expect(() => resolveDocumentationFolder(42 as never, root)).toThrow(SetupError);
  });
});

describe('listDocumentFiles', () => {
  let root: string;
  let outside: string;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-list-')));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-outside-')));
    writeFiles(outside, { 'secret.md': '# Secret\n' });
    writeFiles(root, {
      'zebra.md': '# Zebra\n',
      'index.md': '# Welcome\n',
      'guides/deploy.mdx': '# Deploying\n',
      'guides/first_steps.md': 'No heading here.\n',
      '.drafts/wip.md': '# Hidden folder\n',
      '.hidden.md': '# Hidden file\n',
      'node_modules/pkg/readme.md': '# A dependency\n',
      'notes.txt': '# Not markdown\n',
      'UPPER.MD': '# Upper case extension\n',
    });
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(root, 'leak.md'));
    fs.symlinkSync(outside, path.join(root, 'leaked-folder'));
    fs.symlinkSync(path.join(root, 'zebra.md'), path.join(root, 'alias.md'));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('lists .md and .mdx files by slug, index first, then alphabetically whatever the case, with their titles', () => {
    expect(listDocumentFiles(root).map(({ slug, title, format }) => ({ slug, title, format }))).toEqual([
      { slug: 'index', title: 'Welcome', format: 'md' },
      { slug: 'alias', title: 'Zebra', format: 'md' },
      { slug: 'guides/deploy', title: 'Deploying', format: 'mdx' },
      { slug: 'guides/first_steps', title: 'First steps', format: 'md' },
      { slug: 'UPPER', title: 'Upper case extension', format: 'md' },
      { slug: 'zebra', title: 'Zebra', format: 'md' },
    ]);
  });

  it('skips hidden entries, node_modules, other extensions and anything whose real path leaves the folder', () => {
    const files = listDocumentFiles(root);
    for (const file of files) expect(file.absolutePath.startsWith(`${root}${path.sep}`)).toBe(true);
    expect(files.map((file) => file.slug)).not.toEqual(expect.arrayContaining(['leak', 'leaked-folder/secret', '.hidden', 'notes']));
  });

  it('refuses two files that would be the same page', () => {
    writeFiles(root, { 'guides/deploy.md': '# Deploying too\n' });
    expect(() => listDocumentFiles(root)).toThrow('documentation: deploy.md and deploy.mdx would both be the page "guides/deploy"; rename one');
  });
});

describe('titleOf', () => {
  it('takes the first level-1 heading outside code fences, without inline markup', () => {
    expect(titleOf('```md\n# Not this\n```\nIntro\n# The **real** `title` #\n# Second\n', 'x.md')).toBe('The real title');
  });

  it('falls back to the file name in words', () => {
    expect(titleOf('## Only a subheading\n', 'getting-started.mdx')).toBe('Getting started');
    expect(titleOf('', 'release_notes.md')).toBe('Release notes');
  });
});
