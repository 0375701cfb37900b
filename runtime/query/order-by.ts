// Compiles `orderBy` (CONTRACT §2) into drizzle ordering, always ending with the primary key so that
// rows with equal sort values still page in a stable order.
import { asc, desc, type Column, type SQL } from 'drizzle-orm';

export interface OrderByEntry {
  field: string;
  direction?: 'asc' | 'desc';
}

export function compileOrderBy(orderBy: readonly OrderByEntry[] | undefined, columns: Record<string, Column>, pkKey: string): SQL[] {
  const order: SQL[] = [];
  let hasPrimaryKey = false;
  for (const entry of orderBy ?? []) {
    const column = columns[entry.field];
    order.push(entry.direction === 'desc' ? desc(column) : asc(column));
    if (entry.field === pkKey) hasPrimaryKey = true;
  }
  // Without orderBy rows come in primary-key order; with it, the key breaks ties.
  if (!hasPrimaryKey) order.push(asc(columns[pkKey]));
  return order;
}
