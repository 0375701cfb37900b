// The golden bundle: __tests__/golden/blog/ holds `tessera build fixtures/blog/app.ts`, so every change
// to generated code shows in review as a diff of these files. TESSERA_UPDATE_GOLDEN=1 rewrites them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { clearRegistry, listServices } from '../../runtime';
import { collectRoutes } from '../../runtime/model/action-routes';
import { generateCompilation } from '../../generator/compile';
import os from 'node:os';
import { build, changedPaths, linkPackages, readTree, removeFolder, REPO_ROOT, startBundle } from '../helpers/bundles';
import { freePort } from '../helpers/free-port';
import { request } from '../helpers/request';
import { demoToken } from '../../fixtures/blog/demo-token';

const ENTRY = 'fixtures/blog/app.ts';
/** The generated modules among a bundle's files: handler, resource and validators modules. */
const isModuleFile = (file: string) => file.startsWith('handlers/') || file.startsWith('validators/');
const GOLDEN = path.join(REPO_ROOT, '__tests__/golden/blog');
const isUpdating = process.env.TESSERA_UPDATE_GOLDEN === '1';
/** What generated code may require besides its own files (runtime/handlers/load-compiled.ts allows the same in-process). */
const VALIDATION_RUNTIME = 'tessera-api/validation-runtime';
/** Requires each file named after the folder on the command line, recording what files in that folder require; prints JSON. */
const LOAD_AND_RECORD = `
const Module = require('node:module');
const requested = [];
const original = Module.prototype.require;
const [folder, ...files] = process.argv.slice(1);
Module.prototype.require = function (id) { if (this.filename.startsWith(folder)) requested.push(id); return original.call(this, id); };
const exports = files.map((file) => { const value = original.call(module, file); return { type: typeof value, name: value.name }; });
process.stdout.write(JSON.stringify({ exports, requested }));
`;

describe('the golden bundle of fixtures/blog/app.ts', () => {
  // Built next to the golden folder, at the same depth: a bundle names its entry relative to itself.
  const out = isUpdating ? GOLDEN : path.join(REPO_ROOT, `__tests__/golden/.blog-${process.pid}`);
  let built: Map<string, string>;

  beforeAll(async () => {
    await build(ENTRY, out);
    built = readTree(out);
  }, 60_000);

  afterAll(() => {
    if (!isUpdating) removeFolder(out);
  });

  it('matches __tests__/golden/blog file for file, byte for byte', () => {
    const golden = fs.existsSync(GOLDEN) ? readTree(GOLDEN) : new Map<string, string>();
    const changed = changedPaths(golden, built);
    if (changed.length > 0) {
      throw new Error(
        `tessera build ${ENTRY} no longer matches __tests__/golden/blog (${changed.join(', ')}). ` +
          'If the change is intended, run `TESSERA_UPDATE_GOLDEN=1 npm test` and review the diff.',
      );
    }
  });

  it('writes each handler module exactly as createServer generates it in-process', () => {
    clearRegistry();
    require('../../fixtures/blog/app');
    const { modules, compilation } = generateCompilation(collectRoutes(listServices(), '/api'));
    clearRegistry();
    expect(modules.map((module) => module.file).sort()).toEqual([...built.keys()].filter(isModuleFile));
    for (const module of modules) expect(built.get(module.file)).toBe(module.source);
    // compilation.js too, but for its first line, which names the entry only in a bundle.
    const withoutHeader = (text: string) => text.slice(text.indexOf('\n'));
    expect(withoutHeader(compilation)).toBe(withoutHeader(built.get('compilation.js')!));
  });

  it("loads every handler, resource and validators module with plain require, and they require nothing but their own files and tessera-api's validation runtime", () => {
    // A plain node process (jest's require is not node's): it records every require of the modules, run where an
    // application has them, beside a node_modules that holds tessera-api.
    const deployed = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-golden-require-'));
    linkPackages(deployed);
    fs.cpSync(out, path.join(deployed, 'dist'), { recursive: true });
    const handlers = [...built.keys()].filter(isModuleFile).map((file) => path.join(deployed, 'dist', file));
    let loaded: { exports: { type: string; name: string }[]; requested: string[] };
    try {
      loaded = JSON.parse(execFileSync(process.execPath, ['-e', LOAD_AND_RECORD, path.join(deployed, 'dist') + path.sep, ...handlers], { encoding: 'utf8' })) as typeof loaded;
    } finally {
      removeFolder(deployed);
    }
    // A route's module exports createHandler; a resource's module, its fixed statements; a validators module, the validators.
    const isRoute = (file: string) => !file.endsWith('/resource.js') && !file.includes('/validators/');
    expect(loaded.exports).toEqual(handlers.map((file) => (isRoute(file) ? { type: 'function', name: 'createHandler' } : { type: 'object' })));
    expect(loaded.requested.length).toBeGreaterThan(0);
    // Issue 28: never a path into ajv's folder, which a strict layout (pnpm) hides from the bundle.
    expect(loaded.requested).toContain(VALIDATION_RUNTIME);
    expect(loaded.requested.filter((id) => id !== VALIDATION_RUNTIME && !id.startsWith('./'))).toEqual([]);
  });

  it('holds a manifest that lists every other file and no absolute path or host name', () => {
    const manifest = JSON.parse(built.get('manifest.json')!) as { entry: string; files: string[]; dialects: string[]; defaultPort: number; requires: string[] };
    expect(manifest.files).toEqual([...built.keys()].filter((file) => file !== 'manifest.json'));
    expect(manifest).toMatchObject({ entry: '../../../fixtures/blog/app.ts', application: 'entry.cjs', dialects: ['sqlite'], defaultPort: 4000, requires: [VALIDATION_RUNTIME] });
    for (const [file, text] of built) {
      expect({ file, hasRepoPath: text.includes(REPO_ROOT), hasHostName: text.includes(require('node:os').hostname()) }).toEqual({ file, hasRepoPath: false, hasHostName: false });
      expect({ file, endsWithOneNewline: /[^\n]\n$/.test(text), hasCarriageReturn: text.includes('\r') }).toEqual({ file, endsWithOneNewline: true, hasCarriageReturn: false });
    }
  });

  it('serves the blog under --disallow-code-generation-from-strings, deployed alone: access rules, scrub and its Markdown guide', async () => {
    // Deployed as production gets it: the bundle and node_modules, no source file.
    const deployed = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-golden-'));
    linkPackages(deployed);
    fs.cpSync(out, path.join(deployed, 'dist'), { recursive: true });
    const server = await startBundle(path.join(deployed, 'dist'), { PORT: String(await freePort()) });
    try {
      const alice = { authorization: `Bearer ${await demoToken('alice')}` };
      const note = await request(`${server.url}/api/notes`, { method: 'POST', body: { title: 'bundled' } });
      expect(note).toMatchObject({ status: 201, body: { title: 'bundled', content: null } });
      expect(await request(`${server.url}/api/notes/${note.body.id}`)).toMatchObject({ status: 200, body: note.body });
      const task = await request(`${server.url}/api/tasks`, { method: 'POST', headers: alice, body: { title: 'mine', contactEmail: 'a@example.com' } });
      expect(task).toMatchObject({ status: 201, body: { ownerId: 'alice', contactEmail: '***' } });
      expect(await request(`${server.url}/api/tasks/${task.body.id}`, { headers: { authorization: `Bearer ${await demoToken('bob')}` } })).toMatchObject({ status: 404 });
      expect(await request(`${server.url}/api/tasks/query`, { method: 'POST', body: {} })).toMatchObject({ status: 403 });
      const guide = await request(`${server.url}/reference/docs/page?slug=getting-started`);
      expect(guide).toMatchObject({ status: 200, body: { html: expect.stringContaining('<h1>Getting started</h1>') } });
    } finally {
      await server.stop();
      removeFolder(deployed);
    }
  }, 60_000);
});
