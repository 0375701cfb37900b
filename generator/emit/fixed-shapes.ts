// The shapes known at build time (issue 11): get by id, the default list page, count and exists without a
// filter, delete by id. The resource's module holds their SQL and a row writer made for its readable fields;
// each route module runs its shape through the driver's own prepared statement and writes the JSON itself:
// no Drizzle query building or row mapping per request. Every other request takes the runtime path.
import type { CrudActionName } from '../../runtime/actions';
import type { FieldModel } from '../../runtime/model/field-policy';
import { ACTION_PLANS } from '../../runtime/sql/action-plans';
import type { FixedShapeName, FixedStatementShape, FixedWriteName, ResourceDescription } from '../../runtime/sql/resource-description';
import { code, comment, joinCode, literal, name, property, type Code } from '../code/code';

const SHAPE_WORDS: Record<FixedShapeName, string> = {
  getById: 'get: the readable fields of the row with this id',
  listPage: 'list: a page of readable fields in primary-key order, no filter',
  countAll: 'count: every row, no filter',
  anyRow: 'exists: any row, no filter',
  deleteById: 'delete: the row with this id',
};

/**
 * Whether the resource's fixed shapes run without Drizzle: spec §8 lets them be prepared (no scope function, no
 * application default), the key needs no decoding, and no field is scrubbed (scrub takes the row as an object).
 */
export function hasFixedShapes(resource: ResourceDescription): boolean {
  return resource.isPrepared && resource.plan.pkCodec === null && resource.plan.readableScrubbed.length === 0;
}

/** A write whose statement depends on the columns a request writes: made on first use of each set (RETURNING databases). */
export interface FixedWrite {
  readonly name: FixedWriteName;
}

/** Whether this route takes a fixed shape: a route scope narrows rows per caller, and hooks want the runtime. */
export function fixedShapeOf(resource: ResourceDescription, action: CrudActionName, hasRouteScope: boolean): FixedStatementShape | FixedWrite | null {
  if (hasRouteScope || !hasFixedShapes(resource)) return null;
  const { hooks, dialect } = resource.plan;
  const name = ACTION_PLANS[action].fixedShape;
  if (name === 'insertRow') return dialect.hasReturning && hooks.beforeCreate === null && hooks.afterCreate === null ? { name } : null;
  if (name === 'updateRow') return dialect.hasReturning && hooks.beforeUpdate === null && hooks.afterUpdate === null ? { name } : null;
  if (name === null || (action === 'delete' && hooks.afterDelete !== null)) return null;
  return resource.shapes.find((shape) => shape.name === name) ?? null;
}

/** `statements`: each shape's SQL (a page's text around its LIMIT where the dialect writes the limit in). */
export function emitStatements(resource: ResourceDescription): Code {
  const rt = resource.plan;
  const entries = resource.shapes.map((shape) => {
    const text = shape.aroundLimit === null ? literal(shape.sql) : code`[${literal(shape.aroundLimit[0])}, ${literal(shape.aroundLimit[1])}]`;
    return joinCode([comment(SHAPE_WORDS[shape.name]), code`${name(shape.name)}: ${text},`]);
  });
  return joinCode([
    comment(`The statements of the shapes known at build time, as ${rt.dialect.name} runs them (statements/${rt.label}.${rt.dialect.name}.sql).`),
    code`const statements = {
${joinCode(entries)}
};`,
  ]);
}

/** One readable value as JSON: through the column's decoder where Drizzle has one, then its JSON codec. */
function valueJson(resource: ResourceDescription, field: FieldModel, index: number): Code {
  const raw = code`row[${index}]`;
  const isDecoded = resource.decodedFields.has(field.key);
  const decoded = isDecoded ? code`${property(code`decode`, field.key)}(${raw})` : raw;
  if (field.codec !== null) return code`JSON.stringify(${raw} == null ? null : ${property(code`codecs`, field.codec.name)}.encode(${decoded}))`;
  if (isDecoded) return code`JSON.stringify(${raw} === null ? null : ${decoded})`;
  return code`JSON.stringify(${raw} ?? null)`;
}

/** `writeRow(row, decode, codecs)`: the row's JSON text, exactly as JSON.stringify writes the row object. */
export function emitRowWriter(resource: ResourceDescription): Code {
  const rt = resource.plan;
  const parts = rt.readable.map((field, index) => code`${literal(`${index === 0 ? '{' : ','}${JSON.stringify(field.key)}:`)} + ${valueJson(resource, field, index)}`);
  const body = parts.length === 0 ? literal('{}') : code`${joinCode(parts, ' +\n')} +\n'}'`;
  return joinCode([
    comment(`A row of ${rt.resourceName} as callers see it, written as JSON from the database's row: ${rt.readable.map((field) => field.key).join(', ') || 'no field'}.`),
    code`function writeRow(row, decode, codecs) {
return (
${body}
);
}`,
  ]);
}

/** The values of a shape's placeholders, in order. */
function bindings(shape: FixedStatementShape): Code {
  const values = shape.params.map((param) => {
    if (param === ':id') return code`input.id`;
    if (param === ':offset') return code`input.offset ?? 0`;
    if (param === ':limit') return code`limit`;
    return literal(param);
  });
  return code`[${joinCode(values, ', ')}]`;
}

/** `await` before a statement's answer, except on SQLite, whose driver answers synchronously. */
function awaited(resource: ResourceDescription): Code {
  return resource.plan.dialect.name === 'sqlite' ? code`` : code`await `;
}

/** The handler's set-up line for the shape: its statement (null when the statement cache is off). */
export function emitShapeSetup(shape: FixedStatementShape | FixedWrite): Code {
  if (!('sql' in shape)) {
    const maker = shape.name === 'insertRow' ? code`api.insertStatement(resource)` : code`api.updateStatement(resource)`;
    return joinCode([
      comment('The write, one prepared statement per set of written columns; null when the statement cache is off.'),
      code`const ${name(shape.name)} = ${maker};\nconst decode = api.decoders(resource);`,
    ]);
  }
  const maker =
    shape.aroundLimit === null
      ? code`api.statement(resource, ${literal(shape.name)}, shared.statements.${name(shape.name)})`
      : code`api.pageStatements(resource, ${literal(shape.name)}, shared.statements.${name(shape.name)})`;
  const decode = shape.name === 'getById' || shape.name === 'listPage' ? code`\nconst decode = api.decoders(resource);` : code``;
  return joinCode([comment('The fixed shape, prepared by the driver once; null when the statement cache is off (statementCache: false).'), code`const ${name(shape.name)} = ${maker};${decode}`]);
}

/** CONTRACT §9: a resource with relations takes the runtime path when the call includes any. */
function noInclude(resource: ResourceDescription): Code {
  return resource.plan.relations.length === 0 ? code`` : code` && input.include === undefined`;
}

/** The fast path of the route's shape, ahead of the runtime path. */
export function emitShapePath(resource: ResourceDescription, shape: FixedStatementShape | FixedWrite, status: number): Code {
  const wait = awaited(resource);
  const writeRow = code`(row) => shared.writeRow(row, decode, api.codecs)`;
  switch (shape.name) {
    case 'insertRow':
      return code`if (insertRow !== null) {
const [row] = ${wait}insertRow(api.writeData(resource, 'create', input));
api.sendJsonText(req, res, ${status}, shared.writeRow(row, decode, api.codecs));
return;
}`;
    case 'updateRow':
      return code`if (updateRow !== null) {
const [row] = ${wait}updateRow(api.writeData(resource, 'update', input.data), input.id);
if (row === undefined) throw api.notFound(resource);
api.sendJsonText(req, res, ${status}, shared.writeRow(row, decode, api.codecs));
return;
}`;
    case 'getById':
      return code`if (getById !== null && input.select === undefined${noInclude(resource)}) {
const [row] = ${wait}getById.rows(${bindings(shape)});
if (row === undefined) throw api.notFound(resource);
api.sendJsonText(req, res, ${status}, shared.writeRow(row, decode, api.codecs));
return;
}`;
    case 'listPage': {
      const statement = shape.aroundLimit === null ? code`listPage` : code`listPage(limit)`;
      return code`if (listPage !== null && input.select === undefined && input.where === undefined && input.orderBy === undefined && input.includeTotal !== true${noInclude(resource)}) {
const limit = input.limit ?? ${resource.plan.defaultLimit};
const rows = ${wait}${statement}.rows(${bindings(shape)});
api.sendJsonText(req, res, ${status}, '{"items":[' + rows.map(${writeRow}).join(',') + ']}');
return;
}`;
    }
    case 'countAll':
      return code`if (countAll !== null && input.where === undefined) {
const [row] = ${wait}countAll.rows(${bindings(shape)});
api.sendJsonText(req, res, ${status}, '{"count":' + JSON.stringify(Number(row[0])) + '}');
return;
}`;
    case 'anyRow':
      return code`if (anyRow !== null && input.where === undefined) {
const rows = ${wait}anyRow.rows(${bindings(shape)});
api.sendJsonText(req, res, ${status}, rows.length > 0 ? '{"exists":true}' : '{"exists":false}');
return;
}`;
    case 'deleteById':
      return code`if (deleteById !== null) {
const deleted = ${wait}deleteById.run(${bindings(shape)});
if (deleted === 0) throw api.notFound(resource);
api.sendJsonText(req, res, ${status}, '{"success":true}');
return;
}`;
  }
}
