// A crud resource's relations resolved (CONTRACT §9): the related resource's model and the one column pair the two
// tables join on, from the Drizzle relation of the same name in the db's schema (`relations()`), else from the one
// foreign key between the two tables. Resolved on first use (a relation may name a resource defined after it) and
// when the server is built, so a missing or ambiguous join is a setup error naming the relation before any request.
import { getTableName, is, Many, normalizeRelation, type Column, type Relation } from 'drizzle-orm';
import { foreignKeysOf } from '../dialects/foreign-keys';
import { primaryOf } from '../dialects/read-replicas';
import { SetupError } from '../errors';
import type { CrudRuntime } from './crud-runtime';
import { MAX_INCLUDE_LIMIT } from './where-schemas';
import type { RelationDeclaration } from './relation-options';

/** A relation with its join: the owner's column and the related resource's, each with its property key. */
export interface ResolvedRelation {
  readonly name: string;
  /** `<service>.<resource>.relations.<name>`, for messages. */
  readonly label: string;
  readonly target: CrudRuntime;
  /** To-many (`authors.posts`: rows of the related resource point here) or to-one (`posts.author`). */
  readonly isMany: boolean;
  readonly isFilterable: boolean;
  readonly sourceKey: string;
  readonly sourceColumn: Column;
  readonly targetKey: string;
  readonly targetColumn: Column;
  /** A to-many include's largest `limit`: the relation's maxLimit, at most the related resource's. */
  readonly maxLimit: number;
  /** A to-many include's `limit` when it names none: the related resource's defaultLimit, at most maxLimit. */
  readonly defaultLimit: number;
}

interface Join {
  readonly isMany: boolean;
  readonly source: Column;
  readonly target: Column;
}

interface DrizzleSchema {
  schema?: Record<string, { relations: Record<string, Relation> }>;
  fullSchema?: Record<string, unknown>;
  tableNamesMap?: Record<string, string>;
}

function keyOf(rt: CrudRuntime, column: Column): string | undefined {
  return Object.keys(rt.columns).find((key) => rt.columns[key] === column);
}

/** The related resource's crud model, from the resource (or the function returning it). */
function targetOf(where: string, declaration: RelationDeclaration): CrudRuntime {
  const given = typeof declaration.target === 'function' ? (declaration.target as () => unknown)() : declaration.target;
  const runtime = typeof given === 'object' && given !== null && 'crudRuntime' in given ? (given as { crudRuntime: CrudRuntime | null }).crudRuntime : undefined;
  if (runtime === undefined) throw new SetupError(`${where}.resource is not a resource (service.resource(...).use(crud(...)))`);
  if (runtime === null) throw new SetupError(`${where}.resource has no crud plugin: the related resource is read through its crud policy`);
  return runtime;
}

/** The Drizzle relation of this name on the owner's table, when the db was made with a schema that has one. */
function drizzleJoin(where: string, owner: CrudRuntime, target: CrudRuntime, name: string): Join | null {
  const meta = (primaryOf(owner.db) as { _?: DrizzleSchema })._;
  if (meta?.schema === undefined || meta.fullSchema === undefined || meta.tableNamesMap === undefined) return null;
  const tsName = Object.keys(meta.fullSchema).find((key) => meta.fullSchema![key] === owner.table);
  const relation = tsName === undefined ? undefined : meta.schema[tsName]?.relations[name];
  if (relation === undefined) return null;
  if (relation.referencedTable !== target.table) {
    throw new SetupError(`${where}: the Drizzle relation "${name}" leads to table "${getTableName(relation.referencedTable)}", but ${target.label} serves table "${getTableName(target.table)}"`);
  }
  let normalized: { fields: Column[]; references: Column[] };
  try {
    normalized = normalizeRelation(meta.schema as never, meta.tableNamesMap, relation);
  } catch {
    throw new SetupError(`${where}: the Drizzle relation "${name}" names no fields and references, and no relation on the other side does`);
  }
  if (normalized.fields.length !== 1) throw new SetupError(`${where}: the Drizzle relation "${name}" joins on ${normalized.fields.length} columns; a relation joins on one`);
  return { isMany: is(relation, Many), source: normalized.fields[0], target: normalized.references[0] };
}

/** The one foreign key between the two tables, either way round. */
function foreignKeyJoin(where: string, owner: CrudRuntime, target: CrudRuntime, name: string): Join {
  const joins: Join[] = [];
  for (const key of foreignKeysOf(owner.dialect.name, owner.table)) {
    if (key.foreignTable === target.table && key.columns.length === 1) joins.push({ isMany: false, source: key.columns[0], target: key.foreignColumns[0] });
  }
  for (const key of foreignKeysOf(owner.dialect.name, target.table)) {
    if (key.foreignTable === owner.table && key.columns.length === 1) joins.push({ isMany: true, source: key.foreignColumns[0], target: key.columns[0] });
  }
  const between = `tables "${getTableName(owner.table)}" and "${getTableName(target.table)}"`;
  if (joins.length === 0) throw new SetupError(`${where}: no Drizzle relation "${name}" and no foreign key between ${between}: declare one of them`);
  if (joins.length > 1) throw new SetupError(`${where}: ${joins.length} foreign keys join ${between}: declare a Drizzle relation "${name}" to say which one`);
  return joins[0];
}

function resolveRelation(owner: CrudRuntime, declaration: RelationDeclaration): ResolvedRelation {
  const where = `${owner.label}: relations.${declaration.name}`;
  const target = targetOf(where, declaration);
  // The join runs in one database: a relation cannot reach another service's database.
  if (primaryOf(target.db) !== primaryOf(owner.db)) throw new SetupError(`${where}: ${target.label} is in another database; a relation joins tables of one database`);
  const join = drizzleJoin(where, owner, target, declaration.name) ?? foreignKeyJoin(where, owner, target, declaration.name);
  const sourceKey = keyOf(owner, join.source);
  const targetKey = keyOf(target, join.target);
  if (sourceKey === undefined || targetKey === undefined) throw new SetupError(`${where}: the join's columns are not columns of the two resources' tables`);
  const maxLimit = Math.min(declaration.maxLimit ?? target.maxLimit, target.maxLimit, MAX_INCLUDE_LIMIT);
  return Object.freeze({
    name: declaration.name,
    label: `${owner.label}.relations.${declaration.name}`,
    target,
    isMany: join.isMany,
    isFilterable: declaration.isFilterable,
    sourceKey,
    sourceColumn: join.source,
    targetKey,
    targetColumn: join.target,
    maxLimit,
    defaultLimit: Math.min(target.defaultLimit, maxLimit),
  });
}

const resolved = new WeakMap<CrudRuntime, Map<string, ResolvedRelation>>();

/** The relation of this name, resolved on first use; undefined when the resource declares none of that name. */
export function relationOf(rt: CrudRuntime, name: string): ResolvedRelation | undefined {
  let byName = resolved.get(rt);
  if (byName === undefined) resolved.set(rt, (byName = new Map()));
  let relation = byName.get(name);
  if (relation === undefined) {
    const declaration = rt.relations.find((candidate) => candidate.name === name);
    if (declaration === undefined) return undefined;
    relation = resolveRelation(rt, declaration);
    byName.set(name, relation);
  }
  return relation;
}

/** Every relation of the resource, resolved (throws the first setup error): the server does this as it is built. */
export function resolveRelations(rt: CrudRuntime): readonly ResolvedRelation[] {
  return rt.relations.map((declaration) => relationOf(rt, declaration.name)!);
}

