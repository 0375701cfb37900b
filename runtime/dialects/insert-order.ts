// The keys of rows one multi-row INSERT wrote, in input order. Rows that carry their key give it; rows the database
// numbered (an integer key: auto-increment, serial, identity, SQLite's rowid) got ascending numbers in the order
// of the VALUES list, while RETURNING's order is not promised (SQLite says so outright), so the numbers are sorted.

function compareKeys(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [BigInt(a as bigint | number | string), BigInt(b as bigint | number | string)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Every row's key: the one it carries, or else (no row carries one) the numbers the database `returned`, sorted. */
export function keysInInputOrder(rows: readonly Record<string, unknown>[], pkKey: string, returned: readonly unknown[]): unknown[] {
  const sent = rows.map((values) => values[pkKey]);
  if (sent.every((key) => key !== undefined && key !== null)) return sent;
  if (returned.length !== rows.length || returned.some((key) => key === undefined || key === null)) {
    throw new Error(`the keys of ${rows.length} inserted rows are unknown: the primary key needs an auto-increment, a $defaultFn or a value from the client`);
  }
  return [...returned].sort(compareKeys);
}
