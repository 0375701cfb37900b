// Docs code compiles where users put it (issue 31): every ```ts block of README.md and docs/*.md is type-checked
// inside the project `tessera init` writes (its NodeNext tsconfig, whatever the template holds), with this
// repository's build as `tessera-api`. The clients the blocks import are there as a user would have them: the blog
// bundle's dist/client.ts, openapi-typescript's schema and @hey-api/openapi-ts's SDK generated from the blog's
// document (the SDK with the docs' own openapi-ts.config.ts). Conventions: __tests__/helpers/markdown-snippets.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { linkPackages, REPO_ROOT } from '../helpers/bundles';
import { typeScriptSnippets, type Snippet } from '../helpers/markdown-snippets';
import { PACKAGED_BIN } from '../helpers/spawn-cli';

const NODE_MODULES = path.join(REPO_ROOT, 'node_modules');
const TSC = path.join(NODE_MODULES, 'typescript/bin/tsc');
const SETUP_TIMEOUT_MS = 180_000;
const GOLDEN_BLOG = path.join(REPO_ROOT, '__tests__/golden/blog');

/** A page that must fail, so the check is seen to catch what it should, at the right lines of the page. */
const BROKEN_PAGE = `# Broken on purpose

\`\`\`ts
import { crud } from 'tessera-api';
crud({ acces: 'public' });
\`\`\`

\`\`\`ts
import { createClient } from './dist/client';
\`\`\`

<!-- given: declare const token: number; -->
\`\`\`ts
const header: string = token;
\`\`\`

<!-- fragment -->
\`\`\`ts
crud({ ... });
\`\`\`
`;

/** The pages whose blocks are checked: README.md and every docs page, plus the broken one. */
function pages(): [string, string][] {
  const docs = fs.readdirSync(path.join(REPO_ROOT, 'docs')).filter((file) => file.endsWith('.md')).sort();
  return [
    ['README.md', fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')],
    ...docs.map((file): [string, string] => [`docs/${file}`, fs.readFileSync(path.join(REPO_ROOT, 'docs', file), 'utf8')]),
    ['broken.md', BROKEN_PAGE],
  ];
}

/** Where a block goes in the project: its own name, or one made from the page and line (all at the root, beside app.ts). */
function fileOf(snippet: Snippet): string {
  return snippet.path ?? `snippet-${snippet.source.replace(/\.md:/, '-').replace(/[^\w-]+/g, '-').toLowerCase()}.ts`;
}

/** The `lib` of the project's tsconfig (tessera init's), which a `lib:` block extends. */
function projectLib(project: string): string[] {
  const file = path.join(project, 'tsconfig.json');
  const { config } = ts.parseConfigFileTextToJson(file, fs.readFileSync(file, 'utf8')) as { config?: { compilerOptions?: { lib?: string[] } } };
  return config?.compilerOptions?.lib ?? ['ES2022'];
}

/** tsc's errors, each as `<page>:<line>: <message>` (or its file's name, for errors outside the blocks). */
function errorsByPage(output: string, written: Map<string, Snippet>): string[] {
  const errors: string[] = [];
  for (const line of output.split('\n')) {
    const match = /^(.+?)\((\d+),\d+\): error (TS\d+: .*)$/.exec(line);
    if (match === null) continue;
    const snippet = written.get(match[1]);
    if (snippet === undefined) {
      errors.push(`${match[1]}:${match[2]}: ${match[3]}`);
      continue;
    }
    const [page, fence] = snippet.source.split(':');
    const givenLines = snippet.given === '' ? 0 : snippet.given.split('\n').length;
    const inBlock = Number(match[2]) - givenLines;
    errors.push(`${page}:${inBlock > 0 ? Number(fence) + inBlock : Number(fence) - 1}: ${match[3]}`);
  }
  return errors;
}

describe('the TypeScript of README.md and docs/', () => {
  let root: string;
  let errors: string[];

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-snippets-'));
    const project = path.join(root, 'my-api');
    execFileSync(process.execPath, [PACKAGED_BIN, 'init', project], { encoding: 'utf8' });
    linkPackages(project);
    // What the blocks import: the blog's bundle client and OpenAPI document, as `tessera build` wrote them.
    fs.mkdirSync(path.join(project, 'dist'));
    fs.copyFileSync(path.join(GOLDEN_BLOG, 'client.ts'), path.join(project, 'dist/client.ts'));
    fs.copyFileSync(path.join(GOLDEN_BLOG, 'openapi.json'), path.join(project, 'openapi.json'));

    const written = new Map<string, Snippet>();
    for (const [page, markdown] of pages()) {
      for (const snippet of typeScriptSnippets(page, markdown)) {
        const file = fileOf(snippet);
        if (written.has(file)) throw new Error(`${snippet.source} and ${written.get(file)!.source} both write ${file}`);
        written.set(file, snippet);
        fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
        fs.writeFileSync(path.join(project, file), snippet.given === '' ? snippet.code : `${snippet.given}\n${snippet.code}`);
      }
    }
    // The generators, run as the docs say: @hey-api/openapi-ts with the docs' config file, then openapi-typescript.
    if (!written.has('openapi-ts.config.ts')) throw new Error('no docs block is the openapi-ts.config.ts the hey-api recipe needs');
    execFileSync(process.execPath, [path.join(NODE_MODULES, '@hey-api/openapi-ts/bin/run.js'), '--silent', '--no-log-file'], { cwd: project, stdio: 'pipe' });
    execFileSync(process.execPath, [path.join(NODE_MODULES, 'openapi-typescript/bin/cli.js'), 'openapi.json', '-o', 'api/schema.d.ts'], { cwd: project, stdio: 'pipe' });

    // The project's own tsconfig, once per `lib:` the blocks ask for: the project's files with the blocks that add nothing.
    const groups = new Map<string, string[]>();
    for (const [file, snippet] of written) groups.set(snippet.lib.join(','), [...(groups.get(snippet.lib.join(',')) ?? []), file]);
    const own = fs.readdirSync(project).filter((file) => file.endsWith('.ts') && !written.has(file));
    let output = '';
    for (const [lib, files] of groups) {
      const config = path.join(project, `tsconfig.snippets${lib === '' ? '' : `.${lib.replace(/\W+/g, '-')}`}.json`);
      const compilerOptions = lib === '' ? {} : { lib: [...projectLib(project), ...lib.split(',')] };
      fs.writeFileSync(config, JSON.stringify({ extends: './tsconfig.json', compilerOptions, files: lib === '' ? [...own, ...files] : files, include: [] }));
      try {
        execFileSync(process.execPath, [TSC, '-p', config, '--pretty', 'false'], { cwd: project, encoding: 'utf8' });
      } catch (error) {
        output += (error as { stdout: string }).stdout;
      }
    }
    errors = errorsByPage(output, written);
  }, SETUP_TIMEOUT_MS);

  afterAll(() => {
    if (root !== undefined) fs.rmSync(root, { recursive: true, force: true });
  });

  it('compiles every block that is not marked a fragment, under the NodeNext tsconfig tessera init writes', () => {
    expect(errors.filter((error) => !error.startsWith('broken.md:'))).toEqual([]);
  });

  it('reports a block that does not compile at its line in the page, and skips fragments', () => {
    expect(errors.filter((error) => error.startsWith('broken.md:')).sort()).toEqual([
      expect.stringMatching(/^broken\.md:14: TS2322: Type 'number' is not assignable to type 'string'\.$/),
      expect.stringMatching(/^broken\.md:5: TS2561: Object literal may only specify known properties, but 'acces' does not exist .* Did you mean to write 'access'\?$/),
      expect.stringMatching(/^broken\.md:9: TS2835: Relative import paths need explicit file extensions .* Did you mean '\.\/dist\/client\.js'\?$/),
    ]);
  });
});
