// Relation filters as SQL (CONTRACT §9): each one an EXISTS over the related table (as each dialect asks it), correlated on the relation's join
// column and ANDed with the related resource's scope, so a filter reaches only rows a direct list of the related
// resource could reach. Over an indexed foreign key the database probes the index once per row (EXPLAIN-tested).
import { and, eq, getTableName, isNotNull, sql, type SQL } from 'drizzle-orm';
import { relatedRowExists } from '../dialects/related-row-exists';
import type { RelationFilterName } from '../model/relation-options';
import type { ResolvedRelation } from '../model/relations';

/** `EXISTS (SELECT 1 FROM related WHERE related.join = owner.join AND …)`. */
function relatedRows(relation: ResolvedRelation, conditions: (SQL | undefined)[]) {
  const { target } = relation;
  return target.db.select({ one: sql`1` }).from(target.table).where(and(eq(relation.targetColumn, relation.sourceColumn), ...conditions));
}

/**
 * Whether a row has a related row meeting `conditions` (or, `isNegated`, has none). A relation of a table to itself
 * (`comments.replies`) cannot be asked with EXISTS: inside it the table's name is the related row's, so the owner's
 * join column (`comments.id`) would name the related row's own, and the inner where and scope, written against the
 * table's name, cannot be moved to an alias. It is asked `owner.join IN (SELECT related.join FROM related WHERE …)`
 * instead, the owner's column outside the subquery; a NULL join column has no related row, as with EXISTS.
 */
function hasRelatedRow(relation: ResolvedRelation, conditions: (SQL | undefined)[], isNegated: boolean): SQL {
  const { target, sourceColumn, targetColumn } = relation;
  if (getTableName(sourceColumn.table) !== getTableName(targetColumn.table)) return relatedRowExists(target.dialect.name, relatedRows(relation, conditions), isNegated);
  const keys = target.db.select({ key: targetColumn }).from(target.table).where(and(isNotNull(targetColumn), ...conditions));
  return isNegated ? sql`(${sourceColumn} is null or ${sourceColumn} not in (${keys}))` : sql`${sourceColumn} in (${keys})`;
}

/**
 * One relation filter: `where` is the inner where as SQL (undefined: no condition), `scope` the related resource's.
 * `every` holds when no reachable related row fails the where; `isNot` and `none` when no reachable one matches.
 * A row fails the where unless the where is true for it: `IS NOT TRUE`, since `NOT (rating >= 3)` is NULL, not true,
 * for a NULL rating, and the row (which a direct list with that where would not answer) would pass unseen.
 */
export function relationCondition(relation: ResolvedRelation, filter: RelationFilterName, where: SQL | undefined, scope: SQL | undefined): SQL {
  switch (filter) {
    case 'is':
    case 'some':
      return hasRelatedRow(relation, [scope, where], false);
    case 'isNot':
    case 'none':
      return hasRelatedRow(relation, [scope, where], true);
    case 'every':
      return where === undefined ? sql`1 = 1` : hasRelatedRow(relation, [scope, sql`(${where}) is not true`], true);
  }
}
