// The `documentation` folder inside a bundle (spec §4.3's Docs tab): its .md/.mdx pages copied as they are into
// `documentation/`, and its components module transpiled by esbuild into `documentation/components.mjs`, so a
// bundle shows the same pages without the sources beside it.
import fs from 'node:fs';
import { listDocumentFiles, resolveDocumentationFolder, type DocumentationOption } from '../../runtime/docs/documentation-folder';
import { bundleEntry } from './entry-bundle';
import type { BundleFile } from './layout';

const FOLDER = 'documentation';
const COMPONENTS = `${FOLDER}/components.mjs`;

export interface BundledDocumentation {
  readonly files: readonly BundleFile[];
  /** The `documentation` option for the bundle's server, relative to the bundle folder. */
  readonly option: { readonly dir: string; readonly components?: string };
}

/** The bundle's copy of the documentation folder; `option` as the entry gives it, its paths absolute. */
export async function documentationFiles(option: DocumentationOption, header: string): Promise<BundledDocumentation> {
  // The same checks createServer makes: a missing folder or components module fails the build, not the deploy.
  const folder = resolveDocumentationFolder(option, process.cwd());
  const files: BundleFile[] = listDocumentFiles(folder.dir).map((page) => ({
    path: `${FOLDER}/${page.slug}.${page.format}`,
    text: fs.readFileSync(page.absolutePath, 'utf8'),
  }));
  if (folder.components === null) return { files, option: { dir: FOLDER } };
  files.push(await bundleEntry({ entryPath: folder.components, format: 'esm', header, path: COMPONENTS }));
  return { files, option: { dir: FOLDER, components: COMPONENTS } };
}

/** Whether `path` is one a documentation copy writes: inside the folder, no `..` segment, a page or the components. */
export function isDocumentationPath(path: string): boolean {
  if (!path.startsWith(`${FOLDER}/`) || path.includes('\\') || path.includes('\0')) return false;
  if (path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return false;
  return path === COMPONENTS || /\.mdx?$/.test(path);
}
