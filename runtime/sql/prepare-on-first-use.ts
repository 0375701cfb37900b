// A statement prepared while the server is built, when its table is there already; otherwise on its first
// execution, since an application may create its tables after the server is built (migrations at start, tests)
// and better-sqlite3 prepares against the live schema.
import type { PreparableQuery, PreparedQuery } from '../dialects/dialect';
import type { ResourcePlan } from './resource-plan';

export function prepareNowOrOnFirstUse(plan: ResourcePlan, query: PreparableQuery, name: string): PreparedQuery {
  try {
    return plan.dialect.prepare(query, name);
  } catch {
    let prepared: PreparedQuery | null = null;
    return {
      execute(values) {
        prepared ??= plan.dialect.prepare(query, name);
        return prepared.execute(values);
      },
      release: () => prepared?.release?.(),
    };
  }
}
