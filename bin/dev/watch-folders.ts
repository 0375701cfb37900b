// Watches folders (not recursively) for changes to source files and reports them debounced: an editor's
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

/** Calls `onChange(files)` with the changed source files of each burst of events, the first one first. */
export function watchFolders(folders: Iterable<string>, onChange: (files: readonly string[]) => void): FolderWatch {
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
        if (filename !== null && SOURCE_FILE.test(filename)) report(path.join(folder, filename));
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
