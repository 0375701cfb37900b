// The file operations writing a bundle needs, on node:fs unless a test passes another (ts-morph's
// InMemoryFileSystemHost has the same methods). Plain writes: the text is final when it gets here.
import fs from 'node:fs';

export interface BundleFileSystem {
  fileExistsSync(path: string): boolean;
  directoryExistsSync(path: string): boolean;
  readFileSync(path: string): string;
  /** Writes `text` as UTF-8; the folder exists. */
  writeFileSync(path: string, text: string): void;
  /** Creates the folder and its missing parents. */
  mkdirSync(path: string): void;
  /** The folder's entries: only their number is used. */
  readDirSync(path: string): readonly unknown[];
  /** Deletes a file, or an empty folder. */
  deleteSync(path: string): void;
  realpathSync(path: string): string;
}

function isKind(path: string, kind: 'file' | 'directory'): boolean {
  try {
    const stat = fs.statSync(path);
    return kind === 'file' ? stat.isFile() : stat.isDirectory();
  } catch {
    return false;
  }
}

export const NODE_FILE_SYSTEM: BundleFileSystem = Object.freeze({
  fileExistsSync: (path: string) => isKind(path, 'file'),
  directoryExistsSync: (path: string) => isKind(path, 'directory'),
  readFileSync: (path: string) => fs.readFileSync(path, 'utf8'),
  writeFileSync: (path: string, text: string) => fs.writeFileSync(path, text),
  mkdirSync: (path: string) => void fs.mkdirSync(path, { recursive: true }),
  readDirSync: (path: string) => fs.readdirSync(path),
  deleteSync: (path: string) => (isKind(path, 'directory') ? fs.rmdirSync(path) : fs.unlinkSync(path)),
  realpathSync: (path: string) => fs.realpathSync(path),
});
