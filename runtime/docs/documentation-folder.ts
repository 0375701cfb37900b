// The `documentation` option (spec §4.3): resolves the folder and the components module, and lists the
// .md/.mdx files in it. The list is the only way a request reaches a file, so no URL can name a path.
import fs from 'node:fs';
import path from 'node:path';
import { SetupError } from '../errors';

export type DocumentationOption = string | { dir: string; components?: string };

export interface DocumentationFolder {
  /** The folder's real absolute path. */
  dir: string;
  /** The components module's absolute path, or null. */
  components: string | null;
}

export interface DocumentFile {
  /** Path inside the folder without the extension, `/`-separated: `guides/deploy`. Identifies the page. */
  slug: string;
  /** The first `# heading`, else the file name in words. */
  title: string;
  format: 'md' | 'mdx';
  absolutePath: string;
}

const EXTENSIONS: Record<string, 'md' | 'mdx'> = { '.md': 'md', '.mdx': 'mdx' };
const MAX_DEPTH = 8;
const MAX_FILES = 1000;

/**
 * Resolves the option against `baseDir` (the application entry's folder under the CLI, else
 * process.cwd()) and checks that the folder and the components module exist.
 */
export function resolveDocumentationFolder(option: DocumentationOption, baseDir: string): DocumentationFolder {
  const { dir, components } = typeof option === 'string' ? { dir: option, components: undefined } : option;
  if (typeof option === 'object' && option !== null) {
    for (const key of Object.keys(option)) {
      if (key !== 'dir' && key !== 'components') throw new SetupError(`documentation.${key} is not an option (expected dir and components)`);
    }
  }
  if (typeof dir !== 'string' || dir === '') throw new SetupError('documentation must be a folder path, or { dir, components? }');
  const absoluteDir = path.resolve(baseDir, dir);
  if (!fs.existsSync(absoluteDir) || !fs.statSync(absoluteDir).isDirectory()) {
    throw new SetupError(`documentation: the folder ${absoluteDir} does not exist`);
  }
  return { dir: fs.realpathSync(absoluteDir), components: components === undefined ? null : resolveComponents(components, baseDir) };
}

function resolveComponents(components: unknown, baseDir: string): string {
  if (typeof components !== 'string' || components === '') throw new SetupError('documentation.components must be a module path');
  const absolutePath = path.resolve(baseDir, components);
  try {
    return require.resolve(absolutePath);
  } catch {
    throw new SetupError(`documentation.components: the module ${absolutePath} does not exist`);
  }
}

/**
 * Every .md/.mdx file under `dir`, `index` first, then alphabetically by slug. Hidden entries and node_modules are
 * skipped, and so is anything whose real path leaves the folder (a symlink pointing outside).
 */
export function listDocumentFiles(dir: string): DocumentFile[] {
  const files: DocumentFile[] = [];
  const seen = new Map<string, string>();
  const walk = (folder: string, depth: number): void => {
    const entries = fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const entryPath = path.join(folder, entry.name);
      const realPath = fs.realpathSync(entryPath);
      if (!isInside(dir, realPath)) continue;
      const stat = fs.statSync(realPath);
      if (stat.isDirectory()) {
        if (depth < MAX_DEPTH) walk(entryPath, depth + 1);
        continue;
      }
      const format = EXTENSIONS[path.extname(entry.name).toLowerCase()];
      if (!stat.isFile() || format === undefined) continue;
      const slug = path.relative(dir, entryPath).slice(0, -path.extname(entry.name).length).split(path.sep).join('/');
      const clash = seen.get(slug);
      if (clash !== undefined) throw new SetupError(`documentation: ${clash} and ${entry.name} would both be the page "${slug}"; rename one`);
      seen.set(slug, entry.name);
      if (files.length === MAX_FILES) throw new SetupError(`documentation: more than ${MAX_FILES} files under ${dir}`);
      files.push({ slug, title: titleOf(fs.readFileSync(realPath, 'utf8'), entry.name), format, absolutePath: realPath });
    }
  };
  walk(dir, 0);
  return files.sort((a, b) => pageOrder(a.slug) - pageOrder(b.slug) || compareSlugs(a.slug, b.slug));
}

// Alphabetical whatever the case, in a fixed locale so every machine lists the same order.
function compareSlugs(a: string, b: string): number {
  return a.localeCompare(b, 'en', { sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0);
}

// `index` (or `readme`) opens the list; everything else keeps its alphabetical place.
function pageOrder(slug: string): number {
  return /^(index|readme)$/i.test(slug) ? 0 : 1;
}

function isInside(dir: string, target: string): boolean {
  const relative = path.relative(dir, target);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** The first ATX `# heading` outside code fences, without inline markup; else `getting-started.md` → `Getting started`. */
export function titleOf(source: string, fileName: string): string {
  let isInFence = false;
  for (const line of source.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) isInFence = !isInFence;
    const heading = isInFence ? null : /^#\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      const text = heading[1].replace(/[`*_]/g, '').trim();
      if (text !== '') return text;
    }
  }
  const words = fileName.replace(/\.(md|mdx)$/i, '').replace(/[-_]+/g, ' ').trim();
  return words === '' ? fileName : words[0].toUpperCase() + words.slice(1);
}
