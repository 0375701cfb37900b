// The compiled path of each action's default call (issues 11 and 27): get by id, the default list page (and findOne's
// page of one), count and exists without a filter, create, update and delete by id, with the resource's hooks and
// scrubs written into the route module. The resource's module holds the fixed shapes' SQL (where spec §8 lets them be
// cached) and a row writer made for its readable fields (row-writers.ts); the runtime runs each call's statement (compiled-reads.ts,
// compiled-writes.ts): no Drizzle query building or row mapping per request. A read that asks for more takes the
// runtime path.
import { isOptIn, type CrudActionName } from '../../runtime/actions';
import { ACTION_PLANS } from '../../runtime/sql/action-plans';
import type { FixedShapeName, FixedWriteName, ResourceDescription } from '../../runtime/sql/resource-description';
import { code, comment, joinCode, literal, name, type Code } from '../code/code';
import { needsRowObject } from './row-writers';

const SHAPE_WORDS: Record<FixedShapeName, string> = {
  getById: 'get: the readable fields of the row with this id',
  listPage: 'list: a page of readable fields in primary-key order, no filter',
  countAll: 'count: every row, no filter',
  anyRow: 'exists: any row, no filter',
  deleteById: 'delete: the row with this id',
};

/**
 * Whether the resource module holds the fixed shapes' SQL for the statement cache: spec §8 rule 3 lets the
 * resource's statements be cached (no application default), and the key needs no decoding. A resource with a scope
 * function has them too, for its calls without a scope condition (rule 2). Every resource's default calls run
 * without Drizzle either way (compiled-reads.ts, compiled-writes.ts); these are the ones that may be cached.
 */
export function hasFixedShapes(resource: ResourceDescription): boolean {
  return resource.plan.statementCache !== null && resource.plan.pkCodec === null;
}

/** The compiled path of an action's default call: its fixed shape (findOne reads a page of one). */
export type CompiledPath = FixedShapeName | FixedWriteName | 'firstRow';

export function compiledPathOf(action: CrudActionName): CompiledPath | null {
  // CONTRACT §10's writes are each one transaction of several statements: always the runtime path.
  if (isOptIn(action)) return null;
  return ACTION_PLANS[action].fixedShape ?? 'firstRow';
}

/** `statements`: each shape's SQL (a page's text around its LIMIT where the dialect writes the limit in). */
export function emitStatements(resource: ResourceDescription): Code {
  const rt = resource.plan;
  const entries = resource.shapes.map((shape) => {
    if (shape.aroundLimit === null) return joinCode([comment(SHAPE_WORDS[shape.name]), code`${name(shape.name)}: ${literal(shape.sql)},`]);
    const [before, after] = shape.aroundLimit;
    return joinCode([
      comment(`${SHAPE_WORDS[shape.name]} (the page size between the parts; a first page ends there, no OFFSET)`),
      code`${name(shape.name)}: [${literal(before)}, ${literal(after)}],`,
    ]);
  });
  const scoped = rt.access.scope === null ? [] : [comment('A call its scope gives a condition adds that condition and prepares the statement for the call (spec §8 rule 2).')];
  return joinCode([
    comment(`The statements of the shapes known at build time, as ${rt.dialect.name} runs them (statements/${rt.label}.${rt.dialect.name}.sql).`),
    ...scoped,
    code`const statements = {
${joinCode(entries)}
};`,
  ]);
}

/** `await` before a statement's answer, except on SQLite, whose driver answers synchronously. */
function awaited(resource: ResourceDescription): Code {
  return resource.plan.dialect.name === 'sqlite' ? code`` : code`await `;
}

/** The scrubs over rows in their JSON form, awaited only when one answered a promise. */
function scrubStep(rows: Code): Code {
  return code`const scrubbing = api.scrub(resource, ${rows}, ctx);
if (scrubbing !== undefined) await scrubbing;`;
}

/** The answer of a row: written by the row writer, or as the row's object after its scrubs and the after-hook. */
function answerRow(resource: ResourceDescription, status: number, afterHook: Code | null, hasEtag: boolean): Code {
  if (!needsRowObject(resource, afterHook !== null)) {
    // CONTRACT §10: a whole row carries its ETag, from the row's JSON before any scrub.
    return hasEtag ? code`api.sendRowText(req, res, ${status}, shared.writeRow(row, decode, api.codecs));` : code`api.sendJsonText(req, res, ${status}, shared.writeRow(row, decode, api.codecs));`;
  }
  const steps: Code[] = [code`const result = shared.readRow(row, decode, api.codecs);`];
  // CONTRACT §10: the ETag names the answer: the stored values' text before any scrub, and the body's where it differs.
  if (hasEtag) steps.push(code`const storedText = JSON.stringify(result);`);
  if (resource.plan.readableScrubbed.length > 0) steps.push(scrubStep(code`[result]`));
  if (afterHook !== null) steps.push(afterHook);
  steps.push(hasEtag ? code`api.sendRow(req, res, ${status}, result, storedText);` : code`api.sendJson(req, res, ${status}, result);`);
  return joinCode(steps);
}

/** A hook's answer replaces the data (owner, timestamps…), checked as the runtime checks it. */
function beforeHook(resource: ResourceDescription, hook: 'beforeCreate' | 'beforeUpdate'): Code | null {
  if (resource.plan.hooks[hook] === null) return null;
  const args = hook === 'beforeCreate' ? code`{ data, ctx }` : code`{ id: input.id, data, ctx }`;
  return joinCode([
    comment(`hooks.${hook}: its answer (or the data, when it answers nothing) is written.`),
    code`let answer = resource.hooks.${name(hook)}(${args});
if (api.isPending(answer)) answer = await answer;
data = api.hookData(resource, ${literal(hook)}, answer, data);`,
  ]);
}

/** Whether the compiled path answers every call of the action (a write): no runtime path follows it. */
export function answersEveryCall(path: CompiledPath): boolean {
  // update and delete with If-Match (CONTRACT §10) take the runtime path, which checks the ETag in the write's transaction.
  return path === 'insertRow';
}

/** CONTRACT §9: a resource with relations takes the runtime path when the call includes any. */
function noInclude(resource: ResourceDescription): Code {
  return resource.plan.relations.length === 0 ? code`` : code` && input.include === undefined`;
}

/** The compiled path of the action's default call, ahead of the runtime path for any other input. */
export function emitPathRun(resource: ResourceDescription, path: CompiledPath, status: number): Code {
  const wait = awaited(resource);
  const hooks = resource.plan.hooks;
  const scrubbed = resource.plan.readableScrubbed.length > 0;
  switch (path) {
    case 'insertRow':
      return joinCode(
        [
          resource.plan.hooks.beforeCreate === null ? code`const data = api.writeData(resource, 'create', input);` : code`let data = api.writeData(resource, 'create', input);`,
          beforeHook(resource, 'beforeCreate'),
          code`let row = insertRow(data, scope);
if (api.isPending(row)) row = await row;
if (row === null) throw api.outsideScope(resource, 'created');`,
          answerRow(resource, status, hooks.afterCreate === null ? null : code`await resource.hooks.afterCreate({ result, ctx });`, true),
        ].filter((part) => part !== null),
      );
    case 'updateRow': {
      const steps = joinCode(
        [
          resource.plan.hooks.beforeUpdate === null ? code`const data = api.writeData(resource, 'update', input.data);` : code`let data = api.writeData(resource, 'update', input.data);`,
          beforeHook(resource, 'beforeUpdate'),
          code`let row = updateRow(data, input.id, scope);
if (api.isPending(row)) row = await row;
if (row === api.rowMissing) throw api.notFound(resource);
if (row === null) throw api.outsideScope(resource, 'updated');`,
          answerRow(resource, status, hooks.afterUpdate === null ? null : code`await resource.hooks.afterUpdate({ id: input.id, result, ctx });`, true),
        ].filter((part) => part !== null),
      );
      return code`if (input.ifMatch === undefined) {
${steps}
return;
}`;
    }
    case 'getById':
      return code`if (input.select === undefined${noInclude(resource)}) {
const [row] = ${wait}getById(input.id, scope);
if (row === undefined) throw api.notFound(resource);
${answerRow(resource, status, null, true)}
return;
}`;
    case 'listPage': {
      const answer = scrubbed
        ? code`const items = rows.map((row) => shared.readRow(row, decode, api.codecs));
${scrubStep(code`items`)}
api.sendJson(req, res, ${status}, { items });`
        : code`api.sendJsonText(req, res, ${status}, '{"items":[' + rows.map((row) => shared.writeRow(row, decode, api.codecs)).join(',') + ']}');`;
      return code`if (input.select === undefined && input.where === undefined && input.orderBy === undefined && input.includeTotal !== true && input.cursor === undefined${noInclude(resource)}) {
const rows = ${wait}readPage(input.limit ?? ${resource.plan.defaultLimit}, input.offset ?? 0, scope);
${answer}
return;
}`;
    }
    case 'firstRow':
      return code`if (input.select === undefined && input.where === undefined && input.orderBy === undefined${noInclude(resource)}) {
const [row] = ${wait}readPage(1, input.offset ?? 0, scope);
if (row === undefined) {
api.sendJsonText(req, res, ${status}, 'null');
return;
}
${answerRow(resource, status, null, false)}
return;
}`;
    case 'countAll':
      return code`if (input.where === undefined) {
const count = ${wait}countRows(scope);
api.sendJsonText(req, res, ${status}, '{"count":' + JSON.stringify(count) + '}');
return;
}`;
    case 'anyRow':
      return code`if (input.where === undefined) {
const exists = ${wait}anyRow(scope);
api.sendJsonText(req, res, ${status}, exists ? '{"exists":true}' : '{"exists":false}');
return;
}`;
    case 'deleteById': {
      const answer =
        hooks.afterDelete === null
          ? code`api.sendJsonText(req, res, ${status}, '{"success":true}');`
          : code`const result = { success: true };
await resource.hooks.afterDelete({ id: input.id, result, ctx });
api.sendJson(req, res, ${status}, result);`;
      return code`if (input.ifMatch === undefined) {
const deleted = ${wait}deleteById(input.id, scope);
if (!deleted) throw api.notFound(resource);
${answer}
return;
}`;
    }
  }
}
