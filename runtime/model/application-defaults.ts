// spec §8 rule 3: a column filled by an application function (`$defaultFn`, `$onUpdateFn`) keeps a table's
// statements out of the cache; the bundle's statement files name those columns.
import { getTableColumns, type Table } from 'drizzle-orm';

/** Columns whose values an application function fills, as `id ($defaultFn)`, in declaration order. */
export function applicationDefaultColumns(table: Table): string[] {
  return Object.entries(getTableColumns(table)).flatMap(([key, column]) => {
    const functions = [column.defaultFn !== undefined ? '$defaultFn' : null, column.onUpdateFn !== undefined ? '$onUpdateFn' : null].filter((fn) => fn !== null);
    return functions.length > 0 ? [`${key} (${functions.join(', ')})`] : [];
  });
}

export function hasApplicationDefaults(table: Table): boolean {
  return applicationDefaultColumns(table).length > 0;
}
