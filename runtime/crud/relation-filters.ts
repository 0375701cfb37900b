// Relation filters of a where (CONTRACT §9) as one SQL condition, for every action that takes a where: the reads
// (relation-reads.ts) and the bulk writes (bulk-actions.ts). Each related resource a filter reaches runs its
// `authorize` as a list (false → FORBIDDEN naming the relation) and lends its list scope to the filter.
import { and, not, or, type SQL } from 'drizzle-orm';
import { TesseraError } from '../errors';
import type { CrudRuntime } from '../model/crud-runtime';
import type { AnyContext, Where } from '../model/options';
import type { RelationFilterName } from '../model/relation-options';
import { relationOf, type ResolvedRelation } from '../model/relations';
import { relationCondition } from '../sql/relation-conditions';
import type { Scope } from '../sql/resource-plan';
import { compileWhere } from '../sql/where';
import { authorizeCall, resolveScope } from './call-access';

/** The related resource's authorize (as a list) and scope, for one relation a call reaches. */
export async function relatedScope(relation: ResolvedRelation, input: unknown, ctx: AnyContext): Promise<Scope> {
  try {
    await authorizeCall(relation.target, 'list', input, ctx);
  } catch (error) {
    if (error instanceof TesseraError && error.code === 'FORBIDDEN') {
      throw new TesseraError('FORBIDDEN', `relation \`${relation.name}\` is not allowed: ${relation.target.resourceName}.list is not allowed`);
    }
    throw error;
  }
  return resolveScope(relation.target, 'list', ctx);
}

function filterRelation(rt: CrudRuntime, key: string): ResolvedRelation | undefined {
  return rt.relations.some((declaration) => declaration.name === key && declaration.isFilterable) ? relationOf(rt, key) : undefined;
}

/** Whether a validated where filters through a relation anywhere. */
export function hasRelationFilter(rt: CrudRuntime, where: Where | undefined): boolean {
  if (where === undefined || rt.relations.length === 0) return false;
  for (const key in where) {
    if (!Object.hasOwn(where, key)) continue;
    if (key === 'AND' || key === 'OR') {
      if ((where[key] as Where[]).some((branch) => hasRelationFilter(rt, branch))) return true;
    } else if (key === 'NOT') {
      if (hasRelationFilter(rt, where.NOT)) return true;
    } else if (filterRelation(rt, key) !== undefined) return true;
  }
  return false;
}

/** A validated where as one condition, relation filters included, each with the related resource's access. */
export async function relationWhere(rt: CrudRuntime, where: Where | undefined, ctx: AnyContext): Promise<SQL | undefined> {
  if (where === undefined) return undefined;
  const parts: SQL[] = [];
  for (const key in where) {
    if (!Object.hasOwn(where, key) || where[key] === undefined) continue;
    if (key === 'AND' || key === 'OR') {
      const branches: SQL[] = [];
      for (const branch of where[key] as Where[]) {
        const condition = await relationWhere(rt, branch, ctx);
        if (condition !== undefined) branches.push(condition);
      }
      if (branches.length > 0) parts.push((key === 'AND' ? and(...branches) : or(...branches)) as SQL);
      continue;
    }
    if (key === 'NOT') {
      const negated = await relationWhere(rt, where.NOT, ctx);
      if (negated !== undefined) parts.push(not(negated));
      continue;
    }
    const relation = filterRelation(rt, key);
    if (relation === undefined) {
      const condition = compileWhere({ [key]: where[key] } as Where, rt.filterColumns, rt.dialect);
      if (condition !== undefined) parts.push(condition);
      continue;
    }
    const filters = where[key] as Partial<Record<RelationFilterName, Where>>;
    for (const name of Object.keys(filters) as RelationFilterName[]) {
      const scope = await relatedScope(relation, { where: filters[name] }, ctx);
      parts.push(relationCondition(relation, name, await relationWhere(relation.target, filters[name], ctx), scope));
    }
  }
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : (and(...parts) as SQL);
}

/** Any validated where as SQL: through relationWhere when it filters through a relation, else the row's own columns. */
export async function whereCondition(rt: CrudRuntime, where: Where | undefined, ctx: AnyContext): Promise<SQL | undefined> {
  return hasRelationFilter(rt, where) ? relationWhere(rt, where, ctx) : compileWhere(where, rt.filterColumns, rt.dialect);
}
