// Why the dashboard's history file cannot be used, in words a log line can carry: the driver's or the file
// system's code and what it means, never a path or a value beyond the file's own name.

const PROBLEMS: Record<string, string> = {
  SQLITE_BUSY: 'locked by another connection',
  SQLITE_LOCKED: 'locked by another connection',
  SQLITE_FULL: 'the disk is full',
  ENOSPC: 'the disk is full',
  SQLITE_READONLY: 'not writable',
  SQLITE_CANTOPEN: 'cannot be opened',
  EACCES: 'not writable',
  EPERM: 'not writable',
  EROFS: 'on a read-only file system',
  ENOTDIR: 'a file stands where its folder should be',
  EEXIST: 'a file stands where its folder should be',
  SQLITE_NOTADB: 'not a SQLite database',
  SQLITE_CORRUPT: 'corrupt',
};

/** Why the file failed, in words and the driver's code, never a path or value beyond the file's own name. */
export function describeProblem(error: unknown): string {
  const code = String((error as { code?: unknown } | null)?.code ?? (error as Error | null)?.name ?? 'unknown error');
  const base = Object.keys(PROBLEMS).find((known) => code === known || code.startsWith(`${known}_`));
  return base === undefined ? code : `${PROBLEMS[base]} (${code})`;
}
