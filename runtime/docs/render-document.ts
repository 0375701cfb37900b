// Turns one documentation file into HTML: .md through marked, .mdx through @mdx-js/mdx's evaluate with
// the HTML-string JSX runtime, so MDX expressions and components run and their output is HTML.
import fs from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { ContentLibraries } from './content-libraries';
import type { DocumentFile } from './documentation-folder';
import { componentResult, Fragment, jsx, type HtmlComponent } from './html-jsx-runtime';

/** The components module's exports, passed to every MDX file as `components`. */
export type DocumentationComponents = Record<string, HtmlComponent>;

export async function renderDocument(file: DocumentFile, libraries: ContentLibraries, components: DocumentationComponents): Promise<string> {
  const source = await fs.readFile(file.absolutePath, 'utf8');
  if (file.format === 'md') return libraries.marked.marked.parse(source, { async: false, gfm: true });
  const { default: Content } = await libraries.mdx.evaluate(
    { value: source, path: file.absolutePath },
    // `baseUrl` lets an .mdx file import modules relative to itself.
    { Fragment, jsx, jsxs: jsx, baseUrl: pathToFileURL(file.absolutePath).href, development: false } as never,
  );
  return componentResult(Content({ components } as never)).value;
}
