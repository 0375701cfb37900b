// `tessera init [dir]`: writes a project that serves a working API after `npm install && npm run dev`: one table
// (schema.ts), one resource (app.ts), drizzle-kit's settings and runner (db.mjs), a tsconfig and a package.json.
// The files live in templates/init/; the package.json is written here, pinning the versions Tessera itself is
// tested with, and a `tessera-api` dependency that installs from where this tessera came (tessera-dependency.ts).
import fs from 'node:fs';
import path from 'node:path';
import { tesseraPackage } from '../../runtime/package-info';
import { tesseraDependency, type TesseraDependency } from './tessera-dependency';

/** templates/ beside the compiled code's folders (the repository's, or lib/ in the installed package). */
const TEMPLATES_DIR = path.join(__dirname, '..', '..', 'templates');

/** The template files, copied as they are; `gitignore` becomes `.gitignore` (npm leaves dotfiles out of packages). */
const TEMPLATE_FILES: readonly { readonly from: string; readonly to: string }[] = [
  { from: 'app.ts', to: 'app.ts' },
  { from: 'schema.ts', to: 'schema.ts' },
  { from: 'drizzle.config.ts', to: 'drizzle.config.ts' },
  { from: 'db.mjs', to: 'db.mjs' },
  { from: 'tsconfig.json', to: 'tsconfig.json' },
  { from: 'gitignore', to: '.gitignore' },
  // pnpm 11+: the install scripts it may run (README "pnpm").
  { from: 'pnpm-workspace.yaml', to: 'pnpm-workspace.yaml' },
];

/**
 * The packages of a new project, at the versions Tessera's own tests use (its devDependencies). tsx (TypeScript
 * entries for dev and start), esbuild and TypeScript (build) are Tessera's optional peers: development tools here,
 * so that a production install (`npm install --omit=dev`) holds only what a built bundle runs with (issue 28).
 */
const DEPENDENCIES = ['better-sqlite3', 'drizzle-orm'];
const DEV_DEPENDENCIES = ['@types/better-sqlite3', '@types/node', 'drizzle-kit', 'esbuild', 'tsx', 'typescript'];

/**
 * better-sqlite3 on the Node that runs init, from Node 22 on: 13, built on Node-API. 12 and older derive from Node's
 * ObjectWrap, whose destructor aborts Node 24.19 and later when the GC finalizes a statement outside a context
 * (nodejs/node#65446: `Assertion failed: (env) != nullptr`), at any moment of a server's life. 13 requires Node 22,
 * so Node 20 keeps the 12 Tessera's own tests use.
 */
const BETTER_SQLITE3_NODE_API = '^13.2.0';

function betterSqlite3For(nodeVersion: string, ownRange: string): string {
  return Number(nodeVersion.split('.')[0]) >= 22 ? BETTER_SQLITE3_NODE_API : ownRange;
}

/** The packages whose install scripts must run: better-sqlite3's native module, esbuild's binary. */
const BUILT_DEPENDENCIES = ['better-sqlite3', 'esbuild'];

/** A folder that exists and holds files (a fresh clone's .git counts): init never writes over a project. */
export class InitError extends Error {
  override name = 'InitError';
}

export interface InitReport {
  /** The folder as the user named it. */
  readonly dir: string;
  readonly files: readonly string[];
  /** The `tessera-api` dependency written, and where it comes from. */
  readonly dependency: TesseraDependency;
}

/** An npm package name from the folder's name: lower case, with what npm refuses replaced by `-`. */
export function packageName(folder: string): string {
  const name = path.basename(folder).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '');
  return name === '' ? 'tessera-app' : name;
}

function versionsOf(names: readonly string[], devDependencies: Record<string, string>): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, devDependencies[name]]));
}

function packageJson(folder: string, dependency: TesseraDependency): string {
  const { root } = tesseraPackage();
  const own = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  const project = {
    name: packageName(folder),
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      // Developing: drizzle-kit push makes data.db match schema.ts first (it creates the table on the first run);
      // db.mjs stops the chain when drizzle-kit fails, even where drizzle-kit itself exits 0.
      dev: 'node db.mjs push && tessera dev app.ts',
      // Production: migrations (db:generate, committed; db:migrate, a deploy step), never push.
      start: 'tessera start app.ts',
      build: 'tessera build app.ts --out dist',
      'db:push': 'node db.mjs push',
      'db:generate': 'node db.mjs generate',
      'db:migrate': 'node db.mjs migrate',
    },
    dependencies: {
      ...versionsOf(DEPENDENCIES, own.devDependencies),
      'better-sqlite3': betterSqlite3For(process.versions.node, own.devDependencies['better-sqlite3']),
      'tessera-api': dependency.spec,
    },
    devDependencies: versionsOf(DEV_DEPENDENCIES, own.devDependencies),
    // Install scripts allowed by name: npm's allowScripts, pnpm 10's onlyBuiltDependencies (pnpm 11+ reads
    // pnpm-workspace.yaml's allowBuilds, written beside it).
    allowScripts: Object.fromEntries(BUILT_DEPENDENCIES.map((name) => [name, true])),
    pnpm: { onlyBuiltDependencies: BUILT_DEPENDENCIES },
  };
  return JSON.stringify(project, null, 2) + '\n';
}

/** Writes the project into `dir` (relative to process.cwd()), which must be missing or empty. */
export function scaffold(dir: string): InitReport {
  const folder = path.resolve(process.cwd(), dir);
  if (fs.existsSync(folder) && (!fs.statSync(folder).isDirectory() || fs.readdirSync(folder).length > 0)) {
    throw new InitError(`${dir} is not an empty folder: choose a new one (tessera init my-api)`);
  }
  fs.mkdirSync(folder, { recursive: true });
  const templates = path.join(TEMPLATES_DIR, 'init');
  const dependency = tesseraDependency(tesseraPackage());
  fs.writeFileSync(path.join(folder, 'package.json'), packageJson(folder, dependency));
  for (const file of TEMPLATE_FILES) fs.copyFileSync(path.join(templates, file.from), path.join(folder, file.to));
  const files = ['package.json', ...TEMPLATE_FILES.map((file) => file.to)];
  if (dependency.origin === 'folder') {
    // npm links a folder dependency by default: Tessera would then load the folder's own drizzle-orm beside the
    // project's, and `tessera build`'s type check fails ("two different types"). A copy, as from a tarball, shares it.
    fs.writeFileSync(path.join(folder, '.npmrc'), 'install-links=true\n');
    files.push('.npmrc');
  }
  return { dir, files, dependency };
}
