// A statement Tessera runs as text on the driver (Dialect.runOnce) still reaches the logger the application gave
// Drizzle (`drizzle(client, { logger })`), as the same statement built by Drizzle's query builder would.
import type { TextStatement } from './text-statements';

interface Logged {
  readonly session?: { readonly logger?: { logQuery(sql: string, params: unknown[]): void } };
}

/** Hands the statement to `db`'s Drizzle logger (Drizzle's NoopLogger when the application set none). */
export function logToDrizzle(db: unknown, { text, values }: TextStatement): void {
  (db as Logged).session?.logger?.logQuery(text, values as unknown[]);
}
