// Drizzle reads MySQL's DATE, DATETIME and TIMESTAMP as text (its columns decode them), with a typeCast function on
// every query. Given a typeCast function, mysql2's row parser builds an object with three closures per column for
// each result and a closure per value of each row: on a MariaDB get, thousands of bytes per request that V8 kept
// into the old generation, which grew to 50–80 MB before each full collection (issue 27). mysql2's own `dateStrings`
// reads the same text with none of them.
/** Drizzle's mysql2 typeCast: the date and time types as text. */
function keepDatesAsText(field: { type: string; string(): string | null }, next: () => unknown): unknown {
  return field.type === 'TIMESTAMP' || field.type === 'DATETIME' || field.type === 'DATE' ? field.string() : next();
}

/** The query options that read the date types as text on one client. */
export type DatesAsText = { readonly dateStrings: true } | { readonly typeCast: typeof keepDatesAsText };

const DATE_STRINGS: DatesAsText = { dateStrings: true };
const DRIZZLE_TYPE_CAST: DatesAsText = { typeCast: keepDatesAsText };

/**
 * `dateStrings`, unless the client's configuration has a typeCast function of its own: mysql2 applies that one to a
 * query without its own function, where Drizzle's replaces it, so such a client keeps Drizzle's function.
 */
export function datesAsText(core: unknown): DatesAsText {
  const { config } = core as { config?: { typeCast?: unknown; connectionConfig?: { typeCast?: unknown } } };
  return typeof (config?.connectionConfig ?? config)?.typeCast === 'function' ? DRIZZLE_TYPE_CAST : DATE_STRINGS;
}

/**
 * A query's options as Drizzle sets them (rows as arrays, the date types as text, for the columns' decoders), the
 * dates read as `client` reads them: Drizzle's typeCast for a client `untraced` (mysql-client.ts) did not wrap.
 */
export function textQuery(sql: string, client: { readonly dates?: DatesAsText }): { sql: string; rowsAsArray: true } & DatesAsText {
  return { sql, rowsAsArray: true, ...(client.dates ?? DRIZZLE_TYPE_CAST) };
}
