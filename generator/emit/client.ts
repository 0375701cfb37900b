// client.ts from the contract: a namespace of types per action (Input, Output, $defs), a Client interface nested
// by service, then action name (client.blog.notes.list), and createClient calling the fixed code of client.ts.tpl.
import { ERROR_CODES } from '../../runtime/errors';
import { code, comment, joinCode, literal, name, type Code } from '../code/code';
import { formatSource } from '../code/format';
import { fillTemplate } from '../code/template';
import { describe, emitClientShape, groupActions, selectableFields } from './client-shape';
import type { Contract, ContractAction } from './contract';
import { SchemaTypes, TypeNames } from './schema-type';
import { SELECTED_ROW_DEF } from '../../runtime/model/output-schemas';

type Schema = Record<string, unknown>;

/** `blog.notes.list`: the service, then the action name; unique across the contract. */
function qualifiedName(action: ContractAction): string {
  return `${action.service}.${action.name}`;
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
    return refs;
  };
  emitRoot(names.reserve('Input'), action.input);
  const outputRefs = emitRoot(names.reserve('Output'), action.output);
  const fields = selectableFields(action);
  if (fields !== null) {
    // Rows with every field present, or the selected ones (issue 31: a field is optional only where select can omit it);
    // an included relation's rows are there when the input includes it, whatever select says (CONTRACT §9).
    const defs = action.output.$defs as Record<string, Schema>;
    const row = defs[SELECTED_ROW_DEF];
    const relations = Object.keys((row.properties ?? {}) as Schema).filter((key) => !fields.includes(key));
    const allRequired = { ...row, required: fields };
    const field = name(names.reserve('Field'));
    const rowName = name(names.reserve('Row'));
    const selected = name(names.reserve('Selected'));
    emitType(String(field), JSON.stringify(['Field', fields]), () => joinCode(fields.map((key) => literal(key)), ' | '));
    emitType(String(rowName), JSON.stringify(['Row', JSON.stringify(defs), row]), () => new SchemaTypes(outputRefs).typeOf(allRequired));
    const picked = relations.length === 0 ? code`S` : code`S | ${joinCode(relations.map((key) => literal(key)), ' | ')}`;
    aliases.push(code`export type ${selected}<S extends ${field} = ${field}> = Pick<${rowName}, ${picked}>;`);
    const narrowed = new SchemaTypes(outputRefs, new Map([[SELECTED_ROW_DEF, code`${selected}<S>`]]));
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
