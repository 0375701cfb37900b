// Loads the two optional content-processing libraries behind the `documentation` option (spec §4.3):
// marked renders .md files, @mdx-js/mdx compiles and runs .mdx files. Nothing here runs unless
// `documentation` is set, so applications without a documentation folder never need them.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SetupError } from '../errors';

export const CONTENT_LIBRARIES = ['marked', '@mdx-js/mdx'] as const;

export interface ContentLibraries {
  marked: typeof import('marked');
  mdx: typeof import('@mdx-js/mdx');
}

/** Imports an ES module given its file URL. */
export type ImportModule = (url: string) => Promise<unknown>;

/**
 * A real dynamic `import()`, which loads these ESM-only packages on every supported Node version.
 * TypeScript's CommonJS output (and tsx) rewrite `import()` into `require()` in a .ts file, so it lives
 * in a plain .js file; no Function either, which a bundle run with
 * `node --disallow-code-generation-from-strings` forbids.
 */
const nativeImport = require('../native-import.js') as ImportModule;

export interface ContentLibrariesLoader {
  /** Throws a SetupError naming every missing library; cheap and synchronous, for construction time. */
  check(): void;
  /** Imports both libraries once; later calls share the first import. */
  load(): Promise<ContentLibraries>;
}

export interface ContentLibrariesOptions {
  /** Folders whose node_modules are searched. Default: Tessera's own folder, then `extraFolder`. */
  searchFolders?: string[];
  importModule?: ImportModule;
}

/** Finds marked and @mdx-js/mdx (the application's packages, not Tessera's dependencies) from Tessera's install or from the documentation folder. */
export function contentLibrariesLoader(extraFolder: string, options: ContentLibrariesOptions = {}): ContentLibrariesLoader {
  const searchFolders = options.searchFolders ?? [__dirname, extraFolder];
  const importModule = options.importModule ?? nativeImport;
  let loading: Promise<ContentLibraries> | null = null;

  const resolveAll = (): string[] => {
    const resolved: string[] = [];
    const missing: string[] = [];
    for (const name of CONTENT_LIBRARIES) {
      try {
        resolved.push(require.resolve(name, { paths: searchFolders }));
      } catch {
        missing.push(name);
      }
    }
    if (missing.length > 0) {
      throw new SetupError(
        `documentation needs the optional packages ${CONTENT_LIBRARIES.join(' and ')} (missing: ${missing.join(', ')}): ` +
          `npm install ${CONTENT_LIBRARIES.join(' ')}`,
      );
    }
    return resolved;
  };

  return {
    check: () => void resolveAll(),
    load() {
      loading ??= (async () => {
        const [markedPath, mdxPath] = resolveAll();
        const [marked, mdx] = await Promise.all([importModule(fileUrl(markedPath)), importModule(fileUrl(mdxPath))]);
        return { marked, mdx } as ContentLibraries;
      })();
      return loading;
    },
  };
}

function fileUrl(filePath: string): string {
  return pathToFileURL(path.resolve(filePath)).href;
}
