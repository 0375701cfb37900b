// What a read asks through its relations (CONTRACT §9), worked out before any row is read: every related resource's
// `authorize` (action `list`, the caller's ctx; false → FORBIDDEN naming the relation) and `scope`, relation filters
// compiled into the call's condition (relation-filters.ts), and the include tree ready to load (sql/includes.ts).
import { and } from 'drizzle-orm';
import type { CrudRuntime } from '../model/crud-runtime';
import type { FieldModel } from '../model/field-policy';
import type { AnyContext, Where } from '../model/options';
import { relationOf } from '../model/relations';
import type { IncludeNode } from '../sql/includes';
import type { OrderByEntry } from '../sql/order-by';
import { nestedSelection, type NestedSelection } from '../sql/nested-includes';
import { planOf, type ResourcePlan, type Scope } from '../sql/resource-plan';
import { hasRelationFilter, relatedScope, relationWhere } from './relation-filters';
import { fieldsToRead } from '../model/row-serializer';

/** One include entry as validated (relation-input.ts): `true`, or a list-like input. */
interface IncludeEntry {
  select?: string[];
  where?: Where;
  orderBy?: OrderByEntry[];
  limit?: number;
  include?: Record<string, true | IncludeEntry>;
}

/** A read's where and scope after its relation filters, and its includes (none: an empty list). */
export interface RelationRead {
  /** The where left for the cached paths: undefined when relation filters moved it into `scope`. */
  readonly where: Where | undefined;
  readonly scope: Scope;
  readonly includes: readonly IncludeNode[];
  /** Whether `includes` is a kept fixed tree (below): the same object for every call that asks for it. */
  readonly isFixed: boolean;
}

function selected(rt: CrudRuntime, select: readonly string[] | undefined): readonly FieldModel[] {
  return select === undefined ? rt.readable : rt.readable.filter((field) => select.includes(field.key));
}

/** The include tree, in each resource's relation declaration order (the order included keys appear in a row). */
async function includeNodes(rt: CrudRuntime, include: Record<string, true | IncludeEntry>, ctx: AnyContext): Promise<IncludeNode[]> {
  const nodes: IncludeNode[] = [];
  for (const declaration of rt.relations) {
    if (!Object.hasOwn(include, declaration.name)) continue;
    const relation = relationOf(rt, declaration.name)!;
    const given = include[declaration.name];
    const entry: IncludeEntry = given === true ? {} : given;
    const scope = await relatedScope(relation, entry, ctx);
    // A where through relations cannot bind as placeholders: it joins the scope, rendered for this call only.
    const throughRelations = hasRelationFilter(relation.target, entry.where);
    const where = throughRelations ? await relationWhere(relation.target, entry.where, ctx) : undefined;
    const fields = selected(relation.target, entry.select);
    nodes.push({
      relation,
      plan: planOf(relation.target),
      fields,
      readFields: fieldsToRead(relation.target.readable, relation.target.readableScrubbed, fields),
      where: throughRelations ? undefined : entry.where,
      condition: where === undefined ? scope : scope === undefined ? where : and(where, scope),
      orderBy: entry.orderBy,
      limit: entry.limit ?? relation.defaultLimit,
      children: entry.include === undefined ? [] : await includeNodes(relation.target, entry.include, ctx),
    });
  }
  return nodes;
}

/**
 * Include trees that depend on nothing of the call, by include input: every resource they reach is public (no
 * authorize to run, no scope) and no level has a where (no values). Built on the first call that asks (issue 25: the
 * tree was a get's per-call work), at most MAX_FIXED_TREES per resource, since the inputs are the callers'.
 */
const fixedTrees = new WeakMap<CrudRuntime, Map<string, readonly IncludeNode[]>>();
const MAX_FIXED_TREES = 64;
const fixedSelections = new WeakMap<readonly IncludeNode[], NestedSelection | null>();

function isFixed(rt: CrudRuntime, include: Record<string, true | IncludeEntry>): boolean {
  for (const declaration of rt.relations) {
    if (!Object.hasOwn(include, declaration.name)) continue;
    const target = relationOf(rt, declaration.name)!.target;
    const given = include[declaration.name];
    if (!target.access.isPublic) return false;
    if (given !== true && (given.where !== undefined || (given.include !== undefined && !isFixed(target, given.include)))) return false;
  }
  return true;
}

/** Builds a fixed tree and keeps it, while the resource keeps fewer than MAX_FIXED_TREES (else it is the call's own). */
async function rememberedTree(rt: CrudRuntime, key: string, include: Record<string, true | IncludeEntry>, ctx: AnyContext, where: Where | undefined, scope: Scope): Promise<RelationRead> {
  const includes = await includeNodes(rt, include, ctx);
  let trees = fixedTrees.get(rt);
  if (trees === undefined) fixedTrees.set(rt, (trees = new Map()));
  const isKept = trees.size < MAX_FIXED_TREES;
  if (isKept) trees.set(key, includes);
  return { where, scope, includes, isFixed: isKept };
}

/**
 * A read's relation work, for a resource with relations: access of every related resource it reaches, before any
 * row is read. Relation filters join the scope, so the call takes the path of scoped calls (values inline, spec §8).
 * At once (no promise) for a fixed include tree already built.
 */
export function relationRead(rt: CrudRuntime, input: { where?: Where; include?: Record<string, true | IncludeEntry> }, ctx: AnyContext, scope: Scope): RelationRead | Promise<RelationRead> {
  const { include } = input;
  if (hasRelationFilter(rt, input.where)) return filteredRead(rt, input, ctx, scope);
  if (include === undefined) return { where: input.where, scope, includes: [], isFixed: false };
  if (!isFixed(rt, include)) return includeNodes(rt, include, ctx).then((includes) => ({ where: input.where, scope, includes, isFixed: false }));
  const key = JSON.stringify(include);
  const known = fixedTrees.get(rt)?.get(key);
  if (known !== undefined) return { where: input.where, scope, includes: known, isFixed: true };
  return rememberedTree(rt, key, include, ctx, input.where, scope);
}

async function filteredRead(rt: CrudRuntime, input: { where?: Where; include?: Record<string, true | IncludeEntry> }, ctx: AnyContext, scope: Scope): Promise<RelationRead> {
  const condition = await relationWhere(rt, input.where, ctx);
  const callScope = condition === undefined ? scope : scope === undefined ? condition : and(scope, condition);
  const includes = input.include === undefined ? [] : await includeNodes(rt, input.include, ctx);
  return { where: undefined, scope: callScope, includes, isFixed: false };
}

/** The read's includes inside the parent's statement (nested-includes.ts), worked out once for a fixed tree read without scope. */
export function nestedIncludes(rt: ResourcePlan, read: RelationRead, scope: Scope): NestedSelection | null {
  if (!read.isFixed || scope !== undefined) return nestedSelection(rt, read.includes, scope);
  let known = fixedSelections.get(read.includes);
  if (known === undefined) fixedSelections.set(read.includes, (known = nestedSelection(rt, read.includes, undefined)));
  return known;
}
