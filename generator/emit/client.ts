// client.ts from the contract: a namespace of types per action (Input, Output, $defs), a Client interface nested
// by service, then action name (client.blog.notes.list), and createClient calling the fixed code of client.ts.tpl.
import { ERROR_CODES } from '../../runtime/errors';
import { code, comment, joinCode, literal, name, propertyKey, type Code } from '../code/code';
import { formatSource } from '../code/format';
import { fillTemplate } from '../code/template';
import { BuildError } from '../errors';
import type { Contract, ContractAction } from './contract';
import { SchemaTypes, TypeNames } from './schema-type';
import { SELECTED_ROW_DEF } from '../../runtime/model/output-schemas';

type Schema = Record<string, unknown>;

/**
 * The fields `select` may name, when the action has a `select` and answers rows (list, get, findOne); else null.
 * Such an action's method is generic in them: rows carry every field, or exactly the selected ones.
 */
function selectableFields(action: ContractAction): string[] | null {
  const select = (action.input.properties as Record<string, Schema> | undefined)?.select;
  const fields = (select?.items as Schema | undefined)?.enum;
  const defs = (action.output.$defs ?? {}) as Record<string, unknown>;
  return Array.isArray(fields) && Object.hasOwn(defs, SELECTED_ROW_DEF) ? fields.map(String) : null;
}

/**
 * Inputs with no required property may be left out (`client.blog.notes.list()`): no body reads as `{}`.
 * So may a custom action's undeclared input (any value, described only).
 */
function isInputOptional(input: Record<string, unknown>): boolean {
  if (Object.keys(input).every((key) => key === 'description')) return true;
  return input.type === 'object' && !(Array.isArray(input.required) && input.required.length > 0);
}

/** `blog.notes.list`: the service, then the action name; unique across the contract. */
function qualifiedName(action: ContractAction): string {
  return `${action.service}.${action.name}`;
}

function describe(action: ContractAction): Code {
  return comment(`${action.name} (service ${action.service}) · ${action.method} ${action.path}`);
}

/**
 * The namespace of each action's types, from its service and name (`blog` + `notes.list` → `BlogNotesList`); a
 * second name with the same words (`blog.notesList`, `blog.notes-list`) is numbered, as two namespaces would merge.
 */
function namespaceNames(actions: readonly ContractAction[]): Map<ContractAction, string> {
  const names = new TypeNames();
  return new Map(actions.map((action) => [action, names.derive(qualifiedName(action))]));
}

/**
 * Types an earlier action of the same resource emitted, by what they are made of: list, findOne, count and exists
 * share the where grammar, so `BlogNotesCount.Where` is `BlogNotesList.Where` rather than a copy (issue 16).
 * Only within a resource, so that one resource's change never touches another's types.
 */
class ResourceTypes {
  readonly #emitted = new Map<string, string>();

  /** `key` names an action's resource and a type's content; answers the earlier qualified name, or records this one. */
  earlier(key: string | null, qualified: string): string | null {
    if (key === null) return null;
    const earlier = this.#emitted.get(key);
    if (earlier === undefined) this.#emitted.set(key, qualified);
    return earlier ?? null;
  }
}

/** `blog.notes` for a crud action of resource notes; null for a custom action, whose types are never shared. */
function resourceOf(action: ContractAction): string | null {
  const parts = action.name.split('.');
  return parts.length === 2 ? `${action.service}.${parts[0]}` : null;
}

/** `export namespace BlogNotesList { export type Input …; export type Output …; export type Where … }`. */
function emitActionTypes(action: ContractAction, namespace: string, shared: ResourceTypes): Code {
  const names = new TypeNames();
  const aliases: Code[] = [];
  const resource = resourceOf(action);
  const emitType = (alias: string, what: string, type: () => Code) => {
    const earlier = shared.earlier(resource === null ? null : `${resource} ${what}`, `${namespace}.${alias}`);
    aliases.push(earlier === null ? code`export type ${name(alias)} = ${type()};` : code`export type ${name(alias)} = ${trustedName(earlier)};`);
  };
  const emitRoot = (alias: string, schema: Record<string, unknown>) => {
    const defs = (schema.$defs ?? {}) as Record<string, unknown>;
    const refs = new Map(Object.keys(defs).map((def) => [def, names.derive(def)]));
    const types = new SchemaTypes(refs);
    // A type is the same as an earlier one when its schema and every definition it may refer to are.
    const context = JSON.stringify(defs);
    emitType(alias, JSON.stringify([context, schema]), () => types.typeOf(schema));
    for (const [def, schema] of Object.entries(defs)) emitType(refs.get(def)!, JSON.stringify([context, def]), () => types.typeOf(schema));
  };
  emitRoot(names.reserve('Input'), action.input);
  emitRoot(names.reserve('Output'), action.output);
  const fields = selectableFields(action);
  if (fields !== null) {
    // Rows with every field present, or the selected ones (issue 31: a field is optional only where select can omit it).
    const defs = action.output.$defs as Record<string, Schema>;
    const row = defs[SELECTED_ROW_DEF];
    const allRequired = { ...row, required: Object.keys((row.properties ?? {}) as Schema) };
    const field = name(names.reserve('Field'));
    const rowName = name(names.reserve('Row'));
    const selected = name(names.reserve('Selected'));
    emitType(String(field), JSON.stringify(['Field', fields]), () => joinCode(fields.map((key) => literal(key)), ' | '));
    emitType(String(rowName), JSON.stringify(['Row', row]), () => new SchemaTypes(new Map()).typeOf(allRequired));
    aliases.push(code`export type ${selected}<S extends ${field} = ${field}> = Pick<${rowName}, S>;`);
    const narrowed = new SchemaTypes(new Map(), new Map([[SELECTED_ROW_DEF, code`${selected}<S>`]]));
    aliases.push(code`export type ${name(names.reserve('OutputOf'))}<S extends ${field} = ${field}> = ${narrowed.typeOf(action.output)};`);
  }
  return code`${describe(action)}
export namespace ${name(namespace)} {
${joinCode(aliases)}
}`;
}

/** `BlogNotesList.Where`: a namespace and an alias, each an identifier name() checked when it was emitted. */
function trustedName(qualified: string): Code {
  const [namespace, alias] = qualified.split('.');
  return code`${name(namespace)}.${name(alias)}`;
}

interface MethodParts {
  readonly signature: Code;
  readonly implementation: Code;
}

function emitMethod(action: ContractAction, method: string, namespace: string): MethodParts {
  const types = name(namespace);
  const optional = isInputOptional(action.input);
  if (selectableFields(action) !== null) {
    return {
      signature: code`${describe(action)}
${propertyKey(method)}<S extends ${types}.Field = ${types}.Field>(input${optional ? code`?` : code``}: ${types}.Input & { select?: S[] }): Promise<${types}.OutputOf<S>>;`,
      // The answer's type comes from the signature: the rows the server sends for this select.
      implementation: code`${propertyKey(method)}: (input) => call(${literal(action.method)}, ${literal(action.path)}, ${literal(action.httpInput)}, input),`,
    };
  }
  return {
    signature: code`${describe(action)}
${propertyKey(method)}(input${optional ? code`?` : code``}: ${types}.Input): Promise<${types}.Output>;`,
    implementation: code`${propertyKey(method)}: (input) => call<${types}.Output>(${literal(action.method)}, ${literal(action.path)}, ${literal(action.httpInput)}, input),`,
  };
}

/** service → resource → actions, from the service and action names (`blog` + `notes.list`, `blog` + `ping`). */
interface ServiceGroup {
  readonly resources: Map<string, { action: ContractAction; method: string }[]>;
  readonly actions: { action: ContractAction; method: string }[];
}

function groupActions(actions: readonly ContractAction[]): Map<string, ServiceGroup> {
  const services = new Map<string, ServiceGroup>();
  for (const action of actions) {
    const { service } = action;
    const rest = action.name.split('.');
    let group = services.get(service);
    if (group === undefined) services.set(service, (group = { resources: new Map(), actions: [] }));
    if (rest.length === 2) {
      // `<resource>.<action>`: service and resource names hold no `.`, so a crud action name splits in two.
      const list = group.resources.get(rest[0]) ?? [];
      group.resources.set(rest[0], [...list, { action, method: rest[1] }]);
    } else group.actions.push({ action, method: rest[0] });
  }
  for (const [service, group] of services) {
    const clash = group.actions.find(({ method }) => group.resources.has(method));
    if (clash !== undefined) throw new BuildError(`client: ${service}.${clash.method} is both a resource and a custom action of service ${service}`);
  }
  return services;
}

function emitClientShape(services: Map<string, ServiceGroup>, namespaces: ReadonlyMap<ContractAction, string>, part: keyof MethodParts): Code {
  const isInterface = part === 'signature';
  const close = isInterface ? code`};` : code`},`;
  const blocks = [...services].map(([service, group]) => {
    const members: Code[] = [];
    for (const [resource, methods] of group.resources) {
      members.push(code`${propertyKey(resource)}: {
${joinCode(methods.map(({ action, method }) => emitMethod(action, method, namespaces.get(action)!)[part]))}
${close}`);
    }
    for (const { action, method } of group.actions) members.push(emitMethod(action, method, namespaces.get(action)!)[part]);
    return code`${propertyKey(service)}: {
${joinCode(members)}
${close}`;
  });
  return joinCode(blocks);
}

/** The text of client.ts; `header` is the bundle's "generated by" line. */
export function emitClient(contract: Contract, header: string): string {
  const services = groupActions(contract.actions);
  const namespaces = namespaceNames(contract.actions);
  const shared = new ResourceTypes();
  const errorCodes = Object.keys(ERROR_CODES).map((errorCode) => literal(errorCode));
  const text = fillTemplate('client.ts.tpl', {
    header: joinCode([comment(header), comment(`The API: ${contract.title} ${contract.version}.`)]),
    errorCodes: code`export type ErrorCode = ${joinCode(errorCodes, ' | ')};`,
    types: joinCode(contract.actions.map((action) => emitActionTypes(action, namespaces.get(action)!, shared)), '\n\n'),
    clientInterface: code`export interface Client {
${emitClientShape(services, namespaces, 'signature')}
}`,
    clientObject: code`return {
${emitClientShape(services, namespaces, 'implementation')}
};`,
  });
  return formatSource(text.toString());
}
