// The `relations` crud option (CONTRACT §9), checked when the crud plugin is attached: each relation's name, its
// related resource (or a function returning it, for cycles), `filter` and `maxLimit`. The join itself is resolved on
// first use (relations.ts), when every resource of a cycle exists.
import { getTableColumns, type Table } from 'drizzle-orm';
import { SetupError } from '../errors';

/** What a relation names: a Resource (or anything with its crud model), given directly or by a function. */
export type RelationTarget = object | (() => object);

/** One relation of a crud resource (CONTRACT §9). */
export interface RelationOption {
  /** The related resource, or a function returning it (for resources that name each other). */
  resource: RelationTarget;
  /** Whether `where` may filter through this relation (is / isNot, or some / every / none). Default false. */
  filter?: boolean;
  /** The most rows a to-many include may ask for (below the related resource's own maxLimit). */
  maxLimit?: number;
}

/** A declared relation, before its join is resolved. */
export interface RelationDeclaration {
  readonly name: string;
  readonly target: RelationTarget;
  readonly isFilterable: boolean;
  readonly maxLimit: number | null;
}

const RELATION_KEYS = new Set(['resource', 'filter', 'maxLimit']);
const RELATION_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Names a where or an include gives a meaning of its own. */
const RESERVED = new Set(['AND', 'OR', 'NOT']);

/** The declared relations, in declaration order (the order included rows appear in a row). */
export function checkRelationOptions(label: string, table: Table, relations: unknown): readonly RelationDeclaration[] {
  if (relations === undefined) return [];
  if (typeof relations !== 'object' || relations === null || Array.isArray(relations)) throw new SetupError(`${label}: relations must be an object keyed by relation name`);
  const columns = getTableColumns(table);
  const declarations: RelationDeclaration[] = [];
  for (const [name, option] of Object.entries(relations as Record<string, unknown>)) {
    const where = `${label}: relations.${name}`;
    if (!RELATION_NAME.test(name) || RESERVED.has(name)) throw new SetupError(`${where}: a relation name is letters, digits and _ (not AND, OR or NOT)`);
    // A row holds its fields and its included relations side by side: one name cannot be both.
    if (Object.hasOwn(columns, name)) throw new SetupError(`${where}: "${name}" is a column of the table; a relation needs a name of its own`);
    if (typeof option !== 'object' || option === null || Array.isArray(option)) throw new SetupError(`${where} must be { resource, filter?, maxLimit? }`);
    for (const key of Object.keys(option)) {
      if (!RELATION_KEYS.has(key)) throw new SetupError(`${where}.${key} is not a relation option (resource, filter, maxLimit)`);
    }
    const { resource, filter, maxLimit } = option as RelationOption;
    if ((typeof resource !== 'object' && typeof resource !== 'function') || resource === null) throw new SetupError(`${where}.resource must be a resource or a function returning one`);
    if (filter !== undefined && typeof filter !== 'boolean') throw new SetupError(`${where}.filter must be a boolean`);
    if (maxLimit !== undefined && (!Number.isInteger(maxLimit) || maxLimit < 1)) throw new SetupError(`${where}.maxLimit must be a positive integer`);
    declarations.push(Object.freeze({ name, target: resource, isFilterable: filter === true, maxLimit: maxLimit ?? null }));
  }
  return Object.freeze(declarations);
}

/** The operators of a relation filter: is / isNot for a to-one relation, some / every / none for a to-many one. */
export const TO_ONE_FILTERS = ['is', 'isNot'] as const;
export const TO_MANY_FILTERS = ['some', 'every', 'none'] as const;
export const RELATION_FILTERS: readonly string[] = [...TO_ONE_FILTERS, ...TO_MANY_FILTERS];
export type RelationFilterName = (typeof TO_ONE_FILTERS)[number] | (typeof TO_MANY_FILTERS)[number];

/** CONTRACT §9: includes nest at most this deep. */
export const MAX_INCLUDE_DEPTH = 3;
