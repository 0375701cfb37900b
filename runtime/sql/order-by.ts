// Compiles `orderBy` (CONTRACT §2) into drizzle ordering, always ending with the primary key so that rows with
// equal sort values still page in a stable order. Every list and findOne path, cached or not, orders through here.
import { asc, desc, type Column, type SQL } from 'drizzle-orm';

export interface OrderByEntry {
  field: string;
  direction?: 'asc' | 'desc';
}

/**
 * The primary key's direction after `orderBy`: ascending without one, else the last entry's (issue 18). An index on
 * the last sorted column ends with the primary key (InnoDB secondary indexes, SQLite's rowid, and PostgreSQL reads a
 * b-tree both ways), so a key running the same way lets the database walk the index instead of sorting every match.
 */
export function tiebreakDirection(orderBy: readonly OrderByEntry[] | undefined): 'asc' | 'desc' {
  return orderBy === undefined || orderBy.length === 0 ? 'asc' : (orderBy[orderBy.length - 1].direction ?? 'asc');
}

export function compileOrderBy(orderBy: readonly OrderByEntry[] | undefined, columns: Record<string, Column>, pkKey: string): SQL[] {
  const order: SQL[] = [];
  let hasPrimaryKey = false;
  for (const entry of orderBy ?? []) {
    const column = columns[entry.field];
    order.push(entry.direction === 'desc' ? desc(column) : asc(column));
    if (entry.field === pkKey) hasPrimaryKey = true;
  }
  // Without orderBy rows come in primary-key order; with it, the key breaks ties in the last entry's direction.
  if (!hasPrimaryKey) order.push(tiebreakDirection(orderBy) === 'desc' ? desc(columns[pkKey]) : asc(columns[pkKey]));
  return order;
}
