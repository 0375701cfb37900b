// A crud route's handler, specialized for its resource and action: the HTTP input shaped for the
// route, the ahead-of-time validator, the access block for this resource's rules, and for get and
// list the prepared fixed statement with the inline row serializer. Everything else calls the runtime.
import type { CrudActionName, HttpInputSource } from '../../runtime/actions';
import type { CrudRuntime } from '../../runtime/crud/crud-runtime';
import { canPrepareFixedStatements } from '../../runtime/statements/fixed-statements';
import { code, comment, joinCode, literal, name, type Code } from '../code/code';
import { crudHandlerName } from './names';
import { emitPolicyComment } from './policy-comment';
import { emitSerializer, SERIALIZER_NAME } from './serializer';
import { emitValidator } from './validator';
import type { HandlerParts } from './handler-parts';

/** Actions whose input may be left out altogether (`resource.list()`), as the generic pipeline allows. */
const OPTIONAL_INPUT = new Set<CrudActionName>(['list', 'findOne', 'count', 'exists']);

function emitIdParser(rt: CrudRuntime): Code {
  const keyType = String(rt.idSchema.type ?? 'any');
  const why = comment(`The :id path segment is a string; ${rt.resourceName}.${rt.pkKey} holds ${keyType} values.`);
  if (keyType === 'integer') {
    return joinCode([why, code`function parseId(raw) {
return /^-?[0-9]+$/.test(raw) ? Number(raw) : raw;
}`]);
  }
  if (keyType === 'number') {
    return joinCode([why, code`function parseId(raw) {
return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
}`]);
  }
  return joinCode([why, code`function parseId(raw) {
return raw;
}`]);
}

function emitInput(action: CrudActionName, source: HttpInputSource): Code {
  switch (source) {
    case 'body':
      return OPTIONAL_INPUT.has(action) ? code`const input = req.body === undefined ? {} : req.body;` : code`const input = req.body;`;
    case 'id-and-select':
      return code`// Query parameters travel on for validation to refuse by name; ?select=a,b is a list.
const input = { ...req.query };
input.id = parseId(req.params.id);
if (typeof input.select === 'string') input.select = input.select.split(',');`;
    case 'id-and-body':
      return code`const input = { id: parseId(req.params.id), data: req.body };`;
    case 'id':
      return code`const input = { id: parseId(req.params.id) };`;
  }
}

function emitAccess(rt: CrudRuntime, action: CrudActionName): Code {
  const authorize = rt.access.isPublic
    ? comment("access: 'public': no authorize, no scope")
    : code`await api.authorize(resource, ${literal(action)}, input, ctx);`;
  const scope = rt.access.scope === null ? code`const scope = undefined;` : code`const scope = await api.scope(resource, ${literal(action)}, ctx);`;
  return joinCode([authorize, scope]);
}

function serializeRows(rt: CrudRuntime, rows: Code): Code {
  if (emitSerializer(rt) === null) return code`await api.serializeReadable(resource, ${rows}, ctx)`;
  return code`${rows}.map((row) => ${name(SERIALIZER_NAME)}(row, api.codecs))`;
}

/** spec §8 rule 4: get by id over the readable fields runs the statement prepared at construction. */
function emitGetFastPath(rt: CrudRuntime): Code {
  return code`if (input.select === undefined) {
// Fixed shape: WHERE ${literal(rt.pkKey)} = :id over the readable fields, prepared when the server was built.
const rows = await api.rowsById(resource, input.id);
if (rows.length === 0) throw api.notFound(resource);
const [row] = ${serializeRows(rt, code`rows`)};
api.sendJson(req, res, 200, row);
return;
}`;
}

function emitListFastPath(rt: CrudRuntime): Code {
  return code`if (input.select === undefined && input.where === undefined && input.orderBy === undefined && input.includeTotal !== true) {
// Fixed shape: pages in primary-key order over the readable fields, prepared when the server was built.
const rows = await api.pageInKeyOrder(resource, input.limit ?? ${rt.defaultLimit}, input.offset ?? 0);
api.sendJson(req, res, 200, { items: ${serializeRows(rt, code`rows`)} });
return;
}`;
}

function hasFastPath(rt: CrudRuntime, action: CrudActionName): boolean {
  // A key with a codec (bigint, date) would need decoding first: those take the runtime path.
  return (action === 'get' || action === 'list') && canPrepareFixedStatements(rt) && rt.pkCodec === null;
}

export function emitCrudHandler(rt: CrudRuntime, action: CrudActionName, source: HttpInputSource, status: number): HandlerParts {
  const fastPath = hasFastPath(rt, action);
  const helpers: Code[] = [emitPolicyComment(rt)];
  if (source !== 'body') helpers.push(emitIdParser(rt));
  const serializer = fastPath ? emitSerializer(rt) : null;
  if (serializer !== null) helpers.push(serializer);

  const setup = [
    code`const { api, resource, context } = deps;`,
    comment('In-process calls of this action use the same ahead-of-time validator (no code generation at run time).'),
    code`resource.validators.install(${literal(action)}, validateInput);`,
  ];

  const steps: Code[] = [
    emitInput(action, source),
    code`if (!validateInput(input)) throw api.validationError(validateInput.errors);`,
    emitAccess(rt, action),
  ];
  if (fastPath) steps.push(action === 'get' ? emitGetFastPath(rt) : emitListFastPath(rt));
  steps.push(code`const output = await api.query(resource, ${literal(action)}, input, ctx, scope);
api.sendJson(req, res, ${status}, output);`);

  const handler = code`return async function ${name(crudHandlerName(rt.resourceName, action))}(req, res, next) {
let ctx;
try {
ctx = context === null ? {} : ((await context(req)) ?? {});
} catch (error) {
next(error);
return;
}
try {
${joinCode(steps, '\n\n')}
} catch (error) {
next(api.crudError(resource, error));
}
};`;

  return {
    validation: joinCode([comment(`Input of ${rt.resourceName}.${action}, validated by code ajv compiled ahead of time.`), emitValidator('validateInput', rt.inputSchemas[action])]),
    helpers: joinCode(helpers, '\n\n'),
    setup: joinCode(setup),
    handler,
  };
}
