// The optional libraries behind `documentation`: found where Tessera is installed, imported once, and a
// clear SetupError naming both packages when they are missing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SetupError } from 'tessera-api';
import { contentLibrariesLoader } from '../../runtime/docs/content-libraries';
import { nativeImport } from '../helpers/native-import';

describe('contentLibrariesLoader', () => {
  let emptyFolder: string;

  beforeAll(() => {
    emptyFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-no-libraries-'));
  });
  afterAll(() => {
    fs.rmSync(emptyFolder, { recursive: true, force: true });
  });

  it('finds marked and @mdx-js/mdx next to Tessera', () => {
    expect(() => contentLibrariesLoader(emptyFolder).check()).not.toThrow();
  });

  it('throws a SetupError naming both packages and the install command when they cannot be found', () => {
    const loader = contentLibrariesLoader(emptyFolder, { searchFolders: [emptyFolder] });
    expect(() => loader.check()).toThrow(SetupError);
    expect(() => loader.check()).toThrow(
      'documentation needs the optional packages marked and @mdx-js/mdx (missing: marked, @mdx-js/mdx): npm install marked @mdx-js/mdx',
    );
  });

  it('rejects load() with the same SetupError, before importing anything', async () => {
    const imported: string[] = [];
    const loader = contentLibrariesLoader(emptyFolder, {
      searchFolders: [emptyFolder],
      importModule: async (url) => void imported.push(url),
    });
    await expect(loader.load()).rejects.toThrow('npm install marked @mdx-js/mdx');
    expect(imported).toEqual([]);
  });

  it('names only the package that is missing', () => {
    // A folder whose node_modules holds marked but not @mdx-js/mdx.
    const partial = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-partial-'));
    try {
      const markedDir = path.join(partial, 'node_modules', 'marked');
      fs.mkdirSync(markedDir, { recursive: true });
      fs.writeFileSync(path.join(markedDir, 'package.json'), JSON.stringify({ name: 'marked', main: 'index.js' }));
      fs.writeFileSync(path.join(markedDir, 'index.js'), 'module.exports = {};\n');
      expect(() => contentLibrariesLoader(partial, { searchFolders: [partial] }).check()).toThrow('(missing: @mdx-js/mdx)');
    } finally {
      fs.rmSync(partial, { recursive: true, force: true });
    }
  });

  it('imports both libraries once, by file URL, and shares the result', async () => {
    const imported: string[] = [];
    const loader = contentLibrariesLoader(emptyFolder, {
      importModule: (url) => {
        imported.push(url);
        return nativeImport(url);
      },
    });
    const [first, second] = await Promise.all([loader.load(), loader.load()]);
    expect(first).toBe(second);
    expect(typeof first.marked.marked.parse).toBe('function');
    expect(typeof first.mdx.evaluate).toBe('function');
    expect(imported).toEqual([expect.stringMatching(/^file:\/\/.*\/node_modules\/marked\//), expect.stringMatching(/^file:\/\/.*\/node_modules\/@mdx-js\/mdx\//)]);
  });
});
