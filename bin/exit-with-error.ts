// How the CLI fails: one line `tessera: <message>` on stderr (and `  at file:line:column` when the error knows
// where in the application it happened), exit code 1. Stacks and causes only when DEBUG includes `tessera`.

/** Prints `error` as one CLI line (plus its location, and stacks under DEBUG=tessera) and exits with code 1. */
export function exitWithError(error: unknown): never {
  const isDebug = isDebugEnabled(process.env.DEBUG);
  const [firstLine, ...rest] = (error instanceof Error ? error.message : String(error)).split('\n');
  // One line whatever the message holds (a require stack, a code frame); the rest is for DEBUG.
  const hint = rest.some((line) => line.trim() !== '') && !isDebug ? ' (set DEBUG=tessera for details)' : '';
  // A report that belongs before the line (tsc's errors for `tessera build`).
  const report = (error as { report?: unknown } | null)?.report;
  if (typeof report === 'string' && report !== '') process.stderr.write(report.endsWith('\n') ? report : `${report}\n`);
  process.stderr.write(`tessera: ${firstLine.trim()}${hint}\n`);
  const location = (error as { location?: unknown } | null)?.location;
  if (typeof location === 'string') process.stderr.write(`  at ${location}\n`);
  if (isDebug) process.stderr.write(describeStacks(error));
  // Exit now: a half-started server (open pools, timers) must not keep the process alive.
  process.exit(1);
}

/** @internal */
export function isDebugEnabled(debug: string | undefined): boolean {
  return debug !== undefined && debug.includes('tessera');
}

function describeStacks(error: unknown): string {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    const text = current instanceof Error ? (current.stack ?? current.message) : String(current);
    lines.push(depth === 0 ? text : `Caused by: ${text}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines.join('\n') + '\n';
}
