// The `tessera-api` dependency `tessera init` writes, read from how this copy was installed: folders laid out as a
// checkout, an npm project, npx's cache and pnpm's store leave them, with the package.json each writes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tesseraDependency } from '../../../bin/init/tessera-dependency';

const VERSION = '1.2.3';
const TARBALL = 'tessera-api-1.2.3.tgz';

describe('tesseraDependency', () => {
  let base: string;
  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-dependency-')));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  /** Makes `folder` (under base) with the given files, answering its absolute path. */
  function folder(relative: string, files: Record<string, string> = {}): string {
    const absolute = path.join(base, relative);
    fs.mkdirSync(absolute, { recursive: true });
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(absolute, file), text);
    return absolute;
  }

  /** A project that asked for tessera-api with `spec`, and Tessera installed at `installed` below it. */
  function installedWith(spec: string | undefined, installed = 'node_modules/tessera-api', field = 'dependencies'): string {
    const manifest = spec === undefined ? { name: 'app' } : { name: 'app', [field]: { 'tessera-api': spec } };
    folder('project', { 'package.json': JSON.stringify(manifest) });
    return folder(path.join('project', installed), { 'package.json': '{ "name": "tessera-api" }' });
  }

  it('writes the folder of a checkout, built', () => {
    const root = folder('tessera', { 'package.json': '{ "name": "tessera-api" }' });
    folder('tessera/lib');
    expect(tesseraDependency({ root, version: VERSION })).toEqual({ spec: `file:${root}`, origin: 'folder', description: `file:${root}, the folder this tessera runs from` });
  });

  it('says to build a checkout that has no lib/ yet', () => {
    const root = folder('tessera', { 'package.json': '{ "name": "tessera-api" }' });
    expect(tesseraDependency({ root, version: VERSION }).description).toBe(`file:${root}, the folder this tessera runs from (build it first there: npm run build)`);
  });

  it.each([['^1.2.0'], ['1.2.3'], ['latest'], ['*'], ['npm:tessera-api@^1.2.0']])('answers the registry version for an install from the registry (%s)', (spec) => {
    expect(tesseraDependency({ root: installedWith(spec), version: VERSION })).toEqual({ spec: '^1.2.3', origin: 'registry', description: '^1.2.3, from the registry (the version this tessera is)' });
  });

  it("writes the absolute path of the tarball npx installed it from (npx's cache folder and its relative file: spec)", () => {
    const tarball = path.join(folder('downloads', { [TARBALL]: 'tarball' }), TARBALL);
    // What `npx --package <tarball>` writes in ~/.npm/_npx/<hash>/package.json: the path relative to that folder.
    folder('cache/_npx/0123abcd', { 'package.json': JSON.stringify({ dependencies: { 'tessera-api': 'file:../../../downloads/tessera-api-1.2.3.tgz' }, _npx: { packages: [tarball] } }) });
    const root = folder('cache/_npx/0123abcd/node_modules/tessera-api');
    expect(tesseraDependency({ root, version: VERSION })).toEqual({ spec: `file:${tarball}`, origin: 'tarball', description: `file:${tarball}, the tarball this tessera was installed from` });
  });

  it('writes the tarball of a project that installed it from one, under npm or pnpm, as a dependency or a dev dependency', () => {
    folder('project', { [TARBALL]: 'tarball' });
    const tarball = path.join(base, 'project', TARBALL);
    expect(tesseraDependency({ root: installedWith(`file:${TARBALL}`), version: VERSION }).spec).toBe(`file:${tarball}`);
    expect(tesseraDependency({ root: installedWith(`./${TARBALL}`, 'node_modules/.pnpm/tessera-api@file+tessera-api-1.2.3.tgz/node_modules/tessera-api'), version: VERSION }).spec).toBe(`file:${tarball}`);
    expect(tesseraDependency({ root: installedWith(TARBALL, undefined, 'devDependencies'), version: VERSION }).spec).toBe(`file:${tarball}`);
  });

  it('writes a folder dependency as the absolute folder', () => {
    const source = folder('sources/tessera', { 'package.json': '{ "name": "tessera-api" }' });
    folder('sources/tessera/lib');
    expect(tesseraDependency({ root: installedWith('file:../sources/tessera'), version: VERSION })).toMatchObject({ spec: `file:${source}`, origin: 'folder' });
  });

  it('says so when the tarball it was installed from is gone', () => {
    const gone = path.join(base, 'project', TARBALL);
    expect(tesseraDependency({ root: installedWith(`file:${TARBALL}`), version: VERSION })).toEqual({
      spec: `file:${gone}`,
      origin: 'tarball',
      description: `file:${gone}, the tarball this tessera was installed from, which is not there any more: put it back or change this dependency`,
    });
  });

  it.each([['github:someone/tessera#v1.2.3'], ['https://example.com/tessera-api-1.2.3.tgz'], ['git+https://example.com/tessera.git']])('keeps another source as it is (%s)', (spec) => {
    expect(tesseraDependency({ root: installedWith(spec), version: VERSION })).toEqual({ spec, origin: 'source', description: `${spec}, as this tessera was installed` });
  });

  it('answers the registry when the installing folder has no package.json or does not name tessera-api (a global install)', () => {
    const global = folder('usr/lib/node_modules/tessera-api');
    expect(tesseraDependency({ root: global, version: VERSION }).spec).toBe('^1.2.3');
    expect(tesseraDependency({ root: installedWith(undefined), version: VERSION }).spec).toBe('^1.2.3');
  });
});
