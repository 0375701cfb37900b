// Where each artifact of a bundle goes (CONTRACT §7), relative to `--out` and always with `/`. The
// README's layout table is BUNDLE_LAYOUT; handler paths come from the handler emitter, one per operationId.
import type { DialectName } from '../../runtime/dialects/dialect';

export const SERVER_FILE = 'server.js';
/** Pins the bundle's .js files to CommonJS, whatever the application's own package.json `type` says. */
export const PACKAGE_FILE = 'package.json';
export const COMPILATION_FILE = 'compilation.js';
export const OPENAPI_FILE = 'openapi.json';
export const CONTRACT_FILE = 'contract.json';
export const CLIENT_FILE = 'client.ts';
/** Written last; lists every other generated file, so the next build can delete the stale ones. */
export const MANIFEST_FILE = 'manifest.json';

/** One file of a bundle: its path inside `--out` and its exact text (LF, final newline). */
export interface BundleFile {
  readonly path: string;
  readonly text: string;
}

/** `statements/blog.notes.sqlite.sql`: one file per mounted resource, named by label and dialect. */
export function statementsFile(resourceLabel: string, dialect: DialectName): string {
  return `statements/${resourceLabel}.${dialect}.sql`;
}

/** The bundle's files and what each holds, in the order a reader meets them. */
export const BUNDLE_LAYOUT: readonly { readonly path: string; readonly holds: string }[] = Object.freeze([
  { path: SERVER_FILE, holds: 'the server entry: `node server.js` loads the application and serves the compiled handlers on PORT, else the `--port` given to build' },
  { path: 'entry.mjs', holds: 'the application entry and its local imports, transpiled and joined by esbuild (`entry.cjs` for a CommonJS entry); installed packages stay imports from node_modules, workspace and TypeScript packages are bundled' },
  { path: PACKAGE_FILE, holds: '`{ "type": "commonjs" }`, so the bundle runs alike in CommonJS and `"type": "module"` applications' },
  { path: COMPILATION_FILE, holds: '`{ resources, handlers }`: each crud resource\'s fingerprint, validators and fixed statements, one handler factory per operationId, each module loaded on first use: the object `createServer({ compilation })` takes' },
  { path: 'handlers/<service>/<resource>/resource.js', holds: 'what a crud resource\'s routes share: its policy as comments, its fixed statements and row writer' },
  { path: 'handlers/<service>/<resource>/<action>.js', holds: 'one readable handler module per crud route (`handlers/<service>/<action>.js` for a custom action)' },
  { path: 'validators/<service>.<resource>.js', holds: 'ajv standalone code of one resource\'s validation document, every action\'s input validator, one statement per line' },
  { path: 'statements/<service>.<resource>.<dialect>.sql', holds: 'the prepared-statement shapes of each mounted resource, SQL with the database\'s placeholders, or why it has none' },
  { path: OPENAPI_FILE, holds: 'the OpenAPI 3.1 document the server serves at `openApiPath`' },
  { path: CONTRACT_FILE, holds: 'every action: name (operationId), method, path, status, how the input travels, input and output JSON Schemas' },
  { path: CLIENT_FILE, holds: 'a typed client emitted from the contract: `createClient({ baseUrl })`, one method per action' },
  { path: 'documentation/', holds: 'with the `documentation` option: its .md/.mdx pages as they are, and its components module transpiled to `components.mjs`' },
  { path: MANIFEST_FILE, holds: 'tessera version, entry, dialects, default port and the list of generated files' },
]);
