// The parts of an input that go through relations (CONTRACT §9), checked once the resource's own schema holds: each
// `include` entry against the related resource's list input (select, where, orderBy: its field policy exactly as a
// direct list), its limit against the relation's, nesting at most MAX_INCLUDE_DEPTH; each relation filter's operator
// against the relation's kind and its inner where against the related resource's filter policy. Every handler mode
// validates through here (resource-validators.ts), so they refuse the same inputs with the same details.
import type { ErrorObject } from 'ajv/dist/2020';
import type { CrudActionName } from '../actions';
import { MESSAGES_KEYWORD } from '../validation';
import type { CrudRuntime } from './crud-runtime';
import { MAX_INCLUDE_DEPTH, TO_MANY_FILTERS, TO_ONE_FILTERS } from './relation-options';
import { relationOf, type ResolvedRelation } from './relations';

const INCLUDE_KEYS = new Set(['select', 'where', 'orderBy', 'limit', 'include']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** An error shaped as ajv's, so validationError() renders it like any other. */
function problem(path: string, message: string): ErrorObject {
  return { instancePath: path, schemaPath: '#/relations', keyword: 'not', params: {}, message, parentSchema: { [MESSAGES_KEYWORD]: { not: message } } };
}

/** The related resource's validator errors, moved under `path` (`/where/title` → `/include/author/where/title`). */
function relatedErrors(errors: readonly ErrorObject[] | null | undefined, from: string, path: string): ErrorObject[] {
  return (errors ?? []).map((error) => ({ ...error, instancePath: path + error.instancePath.slice(from.length) }));
}

function filterErrors(rt: CrudRuntime, where: unknown, path: string, errors: ErrorObject[]): void {
  if (!isPlainObject(where)) return;
  for (const key in where) {
    if (!Object.hasOwn(where, key)) continue;
    const value = where[key];
    if (key === 'AND' || key === 'OR') {
      if (Array.isArray(value)) value.forEach((item, index) => filterErrors(rt, item, `${path}/${key}/${index}`, errors));
      continue;
    }
    if (key === 'NOT') {
      filterErrors(rt, value, `${path}/NOT`, errors);
      continue;
    }
    const declaration = rt.relations.find((candidate) => candidate.name === key);
    if (declaration === undefined || !declaration.isFilterable || !isPlainObject(value)) continue; // the schema refused it already
    const relation = relationOf(rt, key)!;
    const allowed: readonly string[] = relation.isMany ? TO_MANY_FILTERS : TO_ONE_FILTERS;
    for (const name of Object.keys(value)) {
      const at = `${path}/${escapeToken(key)}/${name}`;
      if (!allowed.includes(name)) {
        errors.push(problem(at, `\`${name}\` does not apply to ${relation.isMany ? 'to-many' : 'to-one'} relation \`${key}\` (use ${allowed.join(', ')})`));
        continue;
      }
      // The related resource's own where grammar and policy (and its own relations, nested).
      const validate = relation.target.validators.get('count');
      if (!validate({ where: value[name] })) errors.push(...relatedErrors(validate.errors, '/where', at));
    }
  }
}

function includeErrors(rt: CrudRuntime, include: Record<string, unknown>, path: string, depth: number, errors: ErrorObject[]): void {
  for (const name of Object.keys(include)) {
    const at = `${path}/${escapeToken(name)}`;
    if (!rt.relations.some((candidate) => candidate.name === name)) {
      errors.push(problem(at, `relation \`${name}\` cannot be included`));
      continue;
    }
    const entry = include[name];
    if (entry === true) continue;
    if (!isPlainObject(entry)) {
      errors.push(problem(at, `${at.slice(1).replace(/\//g, '.')} must be true or { select?, where?, orderBy?, limit?, include? }`));
      continue;
    }
    const unknown = Object.keys(entry).find((key) => !INCLUDE_KEYS.has(key));
    if (unknown !== undefined) {
      errors.push(problem(`${at}/${escapeToken(unknown)}`, `unknown include key \`${unknown}\``));
      continue;
    }
    entryErrors(relationOf(rt, name)!, entry, at, depth, errors);
  }
}

function entryErrors(relation: ResolvedRelation, entry: Record<string, unknown>, at: string, depth: number, errors: ErrorObject[]): void {
  if (!relation.isMany) {
    for (const key of ['orderBy', 'limit']) {
      if (entry[key] !== undefined) errors.push(problem(`${at}/${key}`, `${key} applies to to-many relations; \`${relation.name}\` is to-one`));
    }
  } else if (entry.limit !== undefined && (!Number.isInteger(entry.limit) || (entry.limit as number) < 1 || (entry.limit as number) > relation.maxLimit)) {
    errors.push(problem(`${at}/limit`, `the limit of \`${relation.name}\` is an integer from 1 to ${relation.maxLimit}`));
  }
  // select, where and orderBy obey the related resource's field policy exactly as a direct list would.
  const listInput: Record<string, unknown> = {};
  for (const key of ['select', 'where', 'orderBy']) if (entry[key] !== undefined) listInput[key] = entry[key];
  const validate = relation.target.validators.get('list');
  if (!validate(listInput)) errors.push(...relatedErrors(validate.errors, '', at));
  if (entry.include === undefined) return;
  if (depth >= MAX_INCLUDE_DEPTH) {
    errors.push(problem(`${at}/include`, `includes nest at most ${MAX_INCLUDE_DEPTH} deep`));
    return;
  }
  if (!isPlainObject(entry.include)) {
    errors.push(problem(`${at}/include`, `${at.slice(1).replace(/\//g, '.')}.include must be an object of relation names`));
    return;
  }
  includeErrors(relation.target, entry.include, `${at}/include`, depth + 1, errors);
}

/**
 * What is wrong with the relation parts of an input that the resource's own schema accepted, or null. Resolves the
 * relations it names (a setup error surfaces here if the server was not built first).
 */
export function relationInputErrors(rt: CrudRuntime, action: CrudActionName, data: unknown): ErrorObject[] | null {
  if (!isPlainObject(data)) return null;
  const errors: ErrorObject[] = [];
  if (action === 'list' || action === 'findOne' || action === 'count' || action === 'exists') filterErrors(rt, data.where, '/where', errors);
  if ((action === 'list' || action === 'findOne' || action === 'get') && isPlainObject(data.include)) includeErrors(rt, data.include, '/include', 1, errors);
  return errors.length === 0 ? null : errors;
}
