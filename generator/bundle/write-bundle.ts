// Writes a bundle into `--out` through a ts-morph Project with fixed manipulation settings: changed files
// only, the manifest last, then the previous manifest's stale files. A file no manifest lists is never
// overwritten or deleted, and a folder that is not empty and holds no bundle is refused.
import { dirname, join, relative, sep } from 'node:path';
import { IndentationText, NewLineKind, Project, QuoteKind, type FileSystemHost } from 'ts-morph';
import { BuildError } from '../errors';
import { MANIFEST_FILE, type BundleFile } from './layout';
import { previousFiles } from './manifest';

/** STYLE "Generated code": 2 spaces, LF, single quotes; the text itself is formatted by formatSource. */
const MANIPULATION_SETTINGS = Object.freeze({
  indentationText: IndentationText.TwoSpaces,
  newLineKind: NewLineKind.LineFeed,
  quoteKind: QuoteKind.Single,
  useTrailingCommas: true,
});

/** Source files go through the Project as source files; JSON, SQL and the manifest are plain writes. */
const SOURCE_FILE = /\.(js|ts)$/;

export interface BundleReport {
  /** Every file of the bundle, manifest included. */
  readonly files: number;
  /** Files whose text changed (or that are new), in write order. */
  readonly written: readonly string[];
  /** Stale files of the previous build, deleted. */
  readonly removed: readonly string[];
}

export interface WriteOptions {
  /** Default: the real file system. Tests may pass ts-morph's InMemoryFileSystemHost. */
  readonly fileSystem?: FileSystemHost;
}

function createProject(options: WriteOptions): Project {
  return new Project({
    manipulationSettings: MANIPULATION_SETTINGS,
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    compilerOptions: { allowJs: true, noEmit: true },
    ...(options.fileSystem === undefined ? {} : { fileSystem: options.fileSystem }),
  });
}

/**
 * Whether an existing folder is inside `outDir` on disk, not only by name: a symbolic link on the way (an
 * edited bundle's `handlers` linking to the sources) leads elsewhere, and nothing there is ours to delete.
 */
function isInsideOnDisk(fileSystem: FileSystemHost, outDir: string, folder: string): boolean {
  const realOutDir = fileSystem.realpathSync(outDir);
  const realFolder = fileSystem.realpathSync(folder);
  return realFolder === realOutDir || realFolder.startsWith(realOutDir + sep);
}

/** Deletes the folders a removed file leaves empty, up to (not including) `outDir`. */
function removeEmptyFolders(fileSystem: FileSystemHost, outDir: string, file: string): void {
  for (let folder = dirname(file); folder.startsWith(outDir + sep); folder = dirname(folder)) {
    if (!fileSystem.directoryExistsSync(folder) || !isInsideOnDisk(fileSystem, outDir, folder) || fileSystem.readDirSync(folder).length > 0) return;
    fileSystem.deleteSync(folder);
  }
}

/** `outDir` as the user would name it: relative to the working directory when inside it. */
function displayPath(outDir: string): string {
  const fromCwd = relative(process.cwd(), outDir);
  return fromCwd === '' ? '.' : fromCwd.startsWith('..') ? outDir : fromCwd.split(sep).join('/');
}

/**
 * The files the previous build listed. Refuses a folder with files but no bundle in it, and any file of this
 * build that exists without the previous build having written it: they are the user's (a server.js of their own).
 */
function ownedFiles(outDir: string, files: readonly BundleFile[], fileSystem: FileSystemHost): Set<string> {
  const previous = previousFiles(outDir, fileSystem);
  if (previous === null) {
    if (fileSystem.directoryExistsSync(outDir) && fileSystem.readDirSync(outDir).length > 0) {
      throw new BuildError(`--out ${displayPath(outDir)} is not empty and holds no Tessera bundle (no manifest.json): choose a new or empty folder`);
    }
    return new Set();
  }
  const owned = new Set(previous);
  const foreign = files.find((file) => file.path !== MANIFEST_FILE && !owned.has(file.path) && fileSystem.fileExistsSync(join(outDir, file.path)));
  if (foreign !== undefined) {
    throw new BuildError(`--out ${displayPath(outDir)} holds ${foreign.path}, which no earlier build wrote: move it away or choose another folder`);
  }
  return owned;
}

/** Writes `files` (the manifest among them) into `outDir` and deletes the previous build's stale files. */
export function writeBundle(outDir: string, files: readonly BundleFile[], options: WriteOptions = {}): BundleReport {
  const project = createProject(options);
  const fileSystem = project.getFileSystem();
  const generated = new Set(files.map((file) => file.path));
  const stale = [...ownedFiles(outDir, files, fileSystem)].filter((path) => !generated.has(path));

  const changed = files.filter((file) => {
    const target = join(outDir, file.path);
    return !fileSystem.fileExistsSync(target) || fileSystem.readFileSync(target) !== file.text;
  });
  for (const file of changed) {
    if (file.path === MANIFEST_FILE) continue;
    const target = join(outDir, file.path);
    if (SOURCE_FILE.test(file.path)) {
      project.createSourceFile(target, file.text, { overwrite: true });
    } else {
      fileSystem.mkdirSync(dirname(target));
      fileSystem.writeFileSync(target, file.text);
    }
  }
  project.saveSync();
  // Last: a build interrupted before this line leaves the old manifest, which still names the old files.
  for (const file of changed.filter((candidate) => candidate.path === MANIFEST_FILE)) {
    fileSystem.mkdirSync(outDir);
    fileSystem.writeFileSync(join(outDir, file.path), file.text);
  }

  const removed: string[] = [];
  for (const path of stale) {
    const target = join(outDir, path);
    if (fileSystem.fileExistsSync(target)) {
      if (!isInsideOnDisk(fileSystem, outDir, dirname(target))) continue;
      fileSystem.deleteSync(target);
    }
    removeEmptyFolders(fileSystem, outDir, target);
    removed.push(path);
  }
  return { files: files.length, written: changed.map((file) => file.path), removed };
}
