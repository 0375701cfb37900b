// The Client interface and the object createClient returns, nested by service, then resource, then action
// (client.blog.notes.list): one method per action, typed by its namespace of types in client.ts.
import { code, comment, joinCode, literal, name, propertyKey, type Code } from '../code/code';
import { BuildError } from '../errors';
import type { ContractAction } from './contract';
import { SELECTED_ROW_DEF } from '../../runtime/model/output-schemas';

type Schema = Record<string, unknown>;

/**
 * The fields `select` may name, when the action has a `select` and answers rows (list, get, findOne); else null.
 * Such an action's method is generic in them: rows carry every field, or exactly the selected ones.
 */
export function selectableFields(action: ContractAction): string[] | null {
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

export function describe(action: ContractAction): Code {
  return comment(`${action.name} (service ${action.service}) · ${action.method} ${action.path}`);
}

interface MethodParts {
  readonly signature: Code;
  readonly implementation: Code;
}

function emitMethod(action: ContractAction, method: string, namespace: string): MethodParts {
  const types = name(namespace);
  const optional = isInputOptional(action.input);
  if (selectableFields(action) !== null) {
    // CONTRACT §10: get takes If-None-Match, which no in-process input has (a 304 throws NOT_MODIFIED).
    const conditional = action.httpInput === 'id-and-select' ? code`; ifNoneMatch?: string` : code``;
    return {
      signature: code`${describe(action)}
${propertyKey(method)}<S extends ${types}.Field = ${types}.Field>(input${optional ? code`?` : code``}: ${types}.Input & { select?: S[]${conditional} }): Promise<${types}.OutputOf<S>>;`,
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

export function groupActions(actions: readonly ContractAction[]): Map<string, ServiceGroup> {
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

export function emitClientShape(services: Map<string, ServiceGroup>, namespaces: ReadonlyMap<ContractAction, string>, part: keyof MethodParts): Code {
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
