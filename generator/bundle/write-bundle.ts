// Writes a bundle into `--out`: changed files only, the manifest last, then the previous manifest's stale files. A
// file no manifest lists is never overwritten or deleted, and a folder that is not empty and holds no bundle is
// refused. Every file is a plain write of its final text (formatSource made it): going through a ts-morph Project
// parsed each one into a syntax tree first, a third of a 50-resource build with ts-morph's loading (issue 16).
import { dirname, join, relative, sep } from 'node:path';
import { BuildError } from '../errors';
import { NODE_FILE_SYSTEM, type BundleFileSystem } from './bundle-file-system';
import { MANIFEST_FILE, type BundleFile } from './layout';
import { previousFiles } from './manifest';

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
  readonly fileSystem?: BundleFileSystem;
}

/**
 * Whether an existing folder is inside `outDir` on disk, not only by name: a symbolic link on the way (an
 * edited bundle's `handlers` linking to the sources) leads elsewhere, and nothing there is ours to delete.
 */
function isInsideOnDisk(fileSystem: BundleFileSystem, outDir: string, folder: string): boolean {
  const realOutDir = fileSystem.realpathSync(outDir);
  const realFolder = fileSystem.realpathSync(folder);
  return realFolder === realOutDir || realFolder.startsWith(realOutDir + sep);
}

/** Deletes the folders a removed file leaves empty, up to (not including) `outDir`. */
function removeEmptyFolders(fileSystem: BundleFileSystem, outDir: string, file: string): void {
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
function ownedFiles(outDir: string, files: readonly BundleFile[], fileSystem: BundleFileSystem): Set<string> {
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
  const fileSystem = options.fileSystem ?? NODE_FILE_SYSTEM;
  const generated = new Set(files.map((file) => file.path));
  const stale = [...ownedFiles(outDir, files, fileSystem)].filter((path) => !generated.has(path));

  const changed = files.filter((file) => {
    const target = join(outDir, file.path);
    return !fileSystem.fileExistsSync(target) || fileSystem.readFileSync(target) !== file.text;
  });
  const folders = new Set<string>();
  for (const file of changed) {
    if (file.path === MANIFEST_FILE) continue;
    const target = join(outDir, file.path);
    if (!folders.has(dirname(target))) {
      fileSystem.mkdirSync(dirname(target));
      folders.add(dirname(target));
    }
    fileSystem.writeFileSync(target, file.text);
  }
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
