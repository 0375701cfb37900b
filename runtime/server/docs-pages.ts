// Mounts the documentation pages of spec §4.2 at the root, outside `prefix`: Scalar at `docsPath`,
// Swagger UI at `swaggerPath` and, when `reference` asks for it, the reference page. `docs: false` removes all.
import type { Express } from 'express';
import { SetupError } from '../errors';
import { DEFAULT_OPENAPI_PATH, DEFAULT_TITLE } from './openapi-route';
import { checkPathOption } from './path-option';
import type { ServerOptions } from './server-options';

export const DEFAULT_DOCS_PATH = '/docs';
export const DEFAULT_SWAGGER_PATH = '/swagger';
export const DEFAULT_REFERENCE_PATH = '/reference';

/** Where the documentation pages are mounted; null with `docs: false`. */
export interface DocsPagePaths {
  readonly openApi: string;
  readonly docs: string;
  readonly swagger: string;
  /** Null unless the `reference` option mounts the page. */
  readonly reference: string | null;
}

/** The paths createServer mounts the documents and pages at (the CLI prints them); SetupError on a bad option. */
export function docsPagePaths(options: ServerOptions): DocsPagePaths | null {
  // The reference page shows the OpenAPI document too, so it goes with the others (README: docs: false).
  if (options.docs === false) return null;
  const openApi = options.openApiPath ?? DEFAULT_OPENAPI_PATH;
  const docs = checkPathOption('docsPath', options.docsPath ?? DEFAULT_DOCS_PATH, DEFAULT_DOCS_PATH);
  const swagger = checkPathOption('swaggerPath', options.swaggerPath ?? DEFAULT_SWAGGER_PATH, DEFAULT_SWAGGER_PATH);
  const reference = referenceSettings(options.reference);
  checkDistinct({ openApiPath: openApi, docsPath: docs, swaggerPath: swagger, ...(reference === null ? {} : { 'reference.path': reference.path }) });
  return { openApi, docs, swagger, reference: reference?.path ?? null };
}

export function mountDocsPages(app: Express, options: ServerOptions): void {
  const paths = docsPagePaths(options);
  if (paths === null) return;
  // The pages' modules (their HTML, assets and headers) load only for an application that serves them: with
  // `docs: false`, as a production API often runs, a start loads none of them.
  const { mountScalarPage } = require('../docs/scalar-page') as typeof import('../docs/scalar-page');
  const { mountSwaggerPage } = require('../docs/swagger-page') as typeof import('../docs/swagger-page');
  const title = options.title ?? DEFAULT_TITLE;
  const openApiPath = paths.openApi;
  mountScalarPage(app, { path: paths.docs, title, openApiPath });
  mountSwaggerPage(app, { path: paths.swagger, title, openApiPath });
  if (paths.reference === null) return;
  // The reference page's modules (with the documentation folder's renderer) load only for an application that has it.
  const { createDocumentationSite } = require('../docs/documentation-site') as typeof import('../docs/documentation-site');
  const { mountReferencePage } = require('../docs/reference-page') as typeof import('../docs/reference-page');
  // Relative folders start at process.cwd(); `tessera start` has already made them relative to the entry.
  const documentation = options.documentation === undefined ? null : createDocumentationSite(options.documentation, { baseDir: process.cwd() });
  const { documents } = referenceSettings(options.reference)!;
  mountReferencePage(app, { path: paths.reference, title, openApiPath, documents, documentation });
}

/** spec §4.3: `true` → /reference; an options object mounts the page only when it names a path. */
function referenceSettings(option: ServerOptions['reference']): { path: string; documents: unknown } | null {
  if (option === undefined || option === false) return null;
  if (option === true) return { path: DEFAULT_REFERENCE_PATH, documents: undefined };
  if (typeof option !== 'object' || option === null) throw new SetupError('reference must be a boolean or { path?, documents? }');
  for (const key of Object.keys(option)) {
    if (key !== 'path' && key !== 'documents') throw new SetupError(`reference.${key} is not an option (expected path and documents)`);
  }
  if (option.path === undefined) return null;
  return { path: checkPathOption('reference.path', option.path, DEFAULT_REFERENCE_PATH), documents: option.documents };
}

function checkDistinct(paths: Record<string, string>): void {
  const byPath = new Map<string, string>();
  for (const [name, value] of Object.entries(paths)) {
    const other = byPath.get(value);
    if (other !== undefined) throw new SetupError(`${other} and ${name} are both "${value}"`);
    byPath.set(value, name);
  }
}
