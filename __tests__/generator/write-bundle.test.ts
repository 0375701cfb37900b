// writeBundle on ts-morph's in-memory file system: exact texts written, unchanged files left alone,
// the manifest last, and only files an earlier manifest listed (and a build can generate) deleted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InMemoryFileSystemHost } from 'ts-morph';
import { writeBundle } from '../../generator/bundle/write-bundle';
import type { BundleFile } from '../../generator/bundle/layout';

const OUT = '/project/dist';

function manifest(files: string[]): BundleFile {
  return { path: 'manifest.json', text: JSON.stringify({ files }, null, 2) + '\n' };
}

function bundle(...files: BundleFile[]): BundleFile[] {
  return [...files, manifest(files.map((file) => file.path).sort())];
}

const server: BundleFile = { path: 'server.js', text: "'use strict';\nrequire('./compilation.js');\n" };
const list: BundleFile = { path: 'handlers/shop/items/list.js', text: "'use strict';\nmodule.exports = function createHandler(deps) {\n  return null;\n};\n" };
const remove: BundleFile = { path: 'handlers/shop/items/delete.js', text: "'use strict';\n" };
const statements: BundleFile = { path: 'statements/shop.items.sqlite.sql', text: '-- shop.items\n' };

describe('writeBundle', () => {
  it('writes every file with exactly the given text, source files included', () => {
    const fileSystem = new InMemoryFileSystemHost();
    const report = writeBundle(OUT, bundle(server, list, statements), { fileSystem });
    expect(report).toEqual({ files: 4, written: ['server.js', 'handlers/shop/items/list.js', 'statements/shop.items.sqlite.sql', 'manifest.json'], removed: [] });
    for (const file of [server, list, statements]) expect(fileSystem.readFileSync(`${OUT}/${file.path}`)).toBe(file.text);
  });

  it('writes nothing the second time, and only what changed after that', () => {
    const fileSystem = new InMemoryFileSystemHost();
    writeBundle(OUT, bundle(server, list), { fileSystem });
    expect(writeBundle(OUT, bundle(server, list), { fileSystem }).written).toEqual([]);
    const changed = { ...list, text: list.text.replace('null', 'undefined') };
    expect(writeBundle(OUT, bundle(server, changed), { fileSystem }).written).toEqual(['handlers/shop/items/list.js']);
  });

  it('deletes the stale files the previous manifest listed, and the folders they leave empty', () => {
    const fileSystem = new InMemoryFileSystemHost();
    writeBundle(OUT, bundle(server, list, remove, statements), { fileSystem });
    const report = writeBundle(OUT, bundle(server), { fileSystem });
    expect(report.removed).toEqual(['handlers/shop/items/delete.js', 'handlers/shop/items/list.js', 'statements/shop.items.sqlite.sql']);
    expect(fileSystem.directoryExistsSync(`${OUT}/handlers`)).toBe(false);
    expect(fileSystem.directoryExistsSync(`${OUT}/statements`)).toBe(false);
    expect(JSON.parse(fileSystem.readFileSync(`${OUT}/manifest.json`)).files).toEqual(['server.js']);
  });

  it('never deletes a file the manifest does not list, nor one a build cannot generate', () => {
    const fileSystem = new InMemoryFileSystemHost();
    writeBundle(OUT, bundle(server, list), { fileSystem });
    fileSystem.writeFileSync(`${OUT}/handlers/shop/items/mine.js`, 'mine');
    fileSystem.writeFileSync('/project/src/app.ts', 'source');
    fileSystem.writeFileSync(`${OUT}/notes.txt`, 'mine');
    // An edited manifest naming files outside what a build writes.
    fileSystem.writeFileSync(`${OUT}/manifest.json`, JSON.stringify({ files: ['server.js', '../src/app.ts', 'notes.txt', '/project/src/app.ts', 'handlers/shop/items/list.js'] }));
    const report = writeBundle(OUT, bundle(server), { fileSystem });
    expect(report.removed).toEqual(['handlers/shop/items/list.js']);
    expect(fileSystem.readFileSync('/project/src/app.ts')).toBe('source');
    expect(fileSystem.readFileSync(`${OUT}/notes.txt`)).toBe('mine');
    expect(fileSystem.readFileSync(`${OUT}/handlers/shop/items/mine.js`)).toBe('mine');
  });

  it('never deletes through a symbolic link that leads out of the bundle folder', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-write-bundle-'));
    try {
      const out = path.join(root, 'dist');
      const sources = path.join(root, 'src');
      fs.mkdirSync(path.join(sources, 'shop', 'items'), { recursive: true });
      fs.writeFileSync(path.join(sources, 'shop', 'items', 'list.js'), 'mine');
      fs.mkdirSync(out);
      // An edited bundle: `handlers` links to the sources, and the manifest names a file behind the link.
      fs.symlinkSync(sources, path.join(out, 'handlers'));
      fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify({ files: ['handlers/shop/items/list.js', 'server.js'] }));
      const report = writeBundle(out, bundle(server));
      expect(report.removed).toEqual([]);
      expect(fs.readFileSync(path.join(sources, 'shop', 'items', 'list.js'), 'utf8')).toBe('mine');
      expect(fs.lstatSync(path.join(out, 'handlers')).isSymbolicLink()).toBe(true);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a folder whose manifest cannot be read, touching nothing in it', () => {
    const fileSystem = new InMemoryFileSystemHost();
    writeBundle(OUT, bundle(server, list), { fileSystem });
    fileSystem.writeFileSync(`${OUT}/manifest.json`, '{ not json');
    expect(() => writeBundle(OUT, bundle(server), { fileSystem })).toThrow(/is not empty and holds no Tessera bundle \(no manifest\.json\)/);
    expect(fileSystem.fileExistsSync(`${OUT}/handlers/shop/items/list.js`)).toBe(true);
    expect(fileSystem.readFileSync(`${OUT}/manifest.json`)).toBe('{ not json');
  });

  it('refuses to overwrite a file the previous manifest does not list', () => {
    const fileSystem = new InMemoryFileSystemHost();
    writeBundle(OUT, bundle(server), { fileSystem });
    fileSystem.writeFileSync(`${OUT}/handlers/shop/items/list.js`, 'mine');
    expect(() => writeBundle(OUT, bundle(server, list), { fileSystem })).toThrow('holds handlers/shop/items/list.js, which no earlier build wrote');
    expect(fileSystem.readFileSync(`${OUT}/handlers/shop/items/list.js`)).toBe('mine');
  });
});
