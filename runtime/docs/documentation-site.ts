// The Docs tab's content: the folder's page list (read at construction) and each page's HTML, rendered
// on first view and kept until the file changes. A slug not in the list is unknown: requests never name a path.
import fs from 'node:fs/promises';
import path from 'node:path';
import { SetupError } from '../errors';
import { contentLibrariesLoader, type ContentLibrariesOptions } from './content-libraries';
import { listDocumentFiles, resolveDocumentationFolder, type DocumentationOption, type DocumentFile } from './documentation-folder';
import { renderDocument, type DocumentationComponents } from './render-document';

export interface DocumentationPageSummary {
  slug: string;
  title: string;
}

export interface RenderedPage {
  slug: string;
  title: string;
  /** The page as HTML, or null when it failed to render (then `error` says why). */
  html: string | null;
  error?: string;
}

export interface DocumentationSite {
  pages: DocumentationPageSummary[];
  /** The rendered page (rendered again once its file has changed), or null for a slug that is not in `pages`. */
  render(slug: string): Promise<RenderedPage | null>;
}

export interface DocumentationSiteOptions {
  /** Where relative paths start: the entry's folder under the CLI, else process.cwd(). */
  baseDir: string;
  libraries?: ContentLibrariesOptions;
}

/** Checks the option, the folder and the optional libraries now; renders lazily. */
export function createDocumentationSite(option: DocumentationOption, options: DocumentationSiteOptions): DocumentationSite {
  const folder = resolveDocumentationFolder(option, options.baseDir);
  const libraries = contentLibrariesLoader(folder.dir, options.libraries);
  libraries.check();
  const files = new Map<string, DocumentFile>(listDocumentFiles(folder.dir).map((file) => [file.slug, file]));
  // Each page with the modification time it was rendered at: an edited file renders again (tessera dev).
  const rendered = new Map<string, { mtimeMs: number; page: Promise<RenderedPage> }>();
  let components: DocumentationComponents | null = null;

  const loadComponents = (): DocumentationComponents => {
    if (folder.components === null) return {};
    if (components === null) {
      try {
        components = { ...(require(folder.components) as DocumentationComponents) };
      } catch (error) {
        throw new SetupError(`documentation.components: ${path.basename(folder.components)} failed to load: ${firstLine(error)}`);
      }
    }
    return components;
  };

  const renderPage = async (file: DocumentFile): Promise<RenderedPage> => {
    try {
      const html = await renderDocument(file, await libraries.load(), loadComponents());
      return { slug: file.slug, title: file.title, html };
    } catch (error) {
      // A broken page shows its error (MDX messages carry line and column); the other pages still work.
      return { slug: file.slug, title: file.title, html: null, error: `${path.basename(file.absolutePath)}: ${firstLine(error)}` };
    }
  };

  return {
    pages: [...files.values()].map(({ slug, title }) => ({ slug, title })),
    async render(slug) {
      const file = files.get(slug);
      if (file === undefined) return null;
      const mtimeMs = await fs.stat(file.absolutePath).then((stat) => stat.mtimeMs, () => null);
      if (mtimeMs === null) return null; // deleted since the server started
      let cached = rendered.get(slug);
      if (cached === undefined || cached.mtimeMs !== mtimeMs) {
        cached = { mtimeMs, page: renderPage(file) };
        rendered.set(slug, cached);
      }
      return cached.page;
    },
  };
}

// Duck-typed: an error thrown by code MDX evaluates may come from another realm (not `instanceof Error`).
function firstLine(error: unknown): string {
  const message = typeof error === 'object' && error !== null && typeof (error as Error).message === 'string' ? (error as Error).message : String(error);
  return message.split('\n', 1)[0];
}
