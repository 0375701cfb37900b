// Watches folders (not recursively) for changes to source files (and named files) and reports them debounced: an editor's
// save often fires several events, and a restart should follow the last of them, once.
import fs from 'node:fs';
import path from 'node:path';

const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
/** Quiet time after the last event before a change is reported. */
export const DEBOUNCE_MS = 150;

export interface FolderWatch {
  /** The folders being watched, sorted. */
  readonly folders: readonly string[];
  close(): void;
}

/** Whether a file's changes matter to the server: a source file. */
export function isSourceFile(file: string): boolean {
  return SOURCE_FILE.test(file);
}

/**
 * Calls `onChange(files)` with the changed files of each burst of events, the first one first: source files, or
 * the files `isWatched` names (an absolute path).
 */
export function watchFolders(folders: Iterable<string>, onChange: (files: readonly string[]) => void, isWatched: (file: string) => boolean = isSourceFile): FolderWatch {
  const sorted = [...new Set(folders)].sort();
  let timer: NodeJS.Timeout | null = null;
  let changed = new Set<string>();

  const report = (file: string): void => {
    changed.add(file);
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed];
      timer = null;
      changed = new Set();
      onChange(files);
    }, DEBOUNCE_MS);
  };

  const watchers = sorted.flatMap((folder) => {
    try {
      const watcher = fs.watch(folder, (_event, filename) => {
        if (filename !== null && isWatched(path.join(folder, filename))) report(path.join(folder, filename));
      });
      // A folder deleted while watched: keep serving; the next reload watches what exists then.
      watcher.on('error', () => watcher.close());
      return [watcher];
    } catch {
      return [];
    }
  });

  return {
    folders: sorted,
    close() {
      if (timer !== null) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
