// contract.json as written: the contract with the definitions its crud actions' schemas share lifted into one `$defs`
// (issue 16). A resource's where grammar and row shapes were written out in each of its actions, four times over;
// now each is written once, as `blog.notes.Where`, and `#/$defs/Where` in an action becomes `#/$defs/blog.notes.Where`,
// a reference into the contract document itself, as the OpenAPI document's schemas point into its components. A
// custom action's schemas are the user's, kept whole: their references stay relative to themselves.
import type { JsonSchema } from '../../runtime/json-schema';
import { rewriteRefs } from '../../runtime/openapi/schema-walk';
import type { Contract, ContractAction } from './contract';

const LOCAL_DEFS = '#/$defs/';

export interface ContractFile extends Omit<Contract, 'actions'> {
  readonly actions: readonly ContractAction[];
  /** The crud actions' shared definitions, by `<service>.<resource>.<def>`. */
  readonly $defs: Readonly<Record<string, JsonSchema>>;
}

/** `blog.notes` for the crud action `notes.list` of service blog. */
function ownerOf(action: ContractAction): string {
  return `${action.service}.${action.name.split('.')[0]}`;
}

/** `<resource>.<action>`: service and resource names hold no `.`, so a crud action name has two parts, a custom one one. */
function isCrud(action: ContractAction): boolean {
  return action.name.includes('.');
}

/** JSON Pointer then URI escaping of a `$defs` name, as a `$ref` writes it. */
function defRef(name: string): string {
  return LOCAL_DEFS + encodeURIComponent(name.replace(/~/g, '~0').replace(/\//g, '~1'));
}

function defName(ref: string): string {
  return decodeURIComponent(ref.slice(LOCAL_DEFS.length)).replace(/~1/g, '/').replace(/~0/g, '~');
}

class SharedDefs {
  readonly defs: Record<string, JsonSchema> = {};
  /** Each shared name's definition as first seen (before its references were rewritten). */
  readonly #originals = new Map<string, string>();

  /**
   * `schema` (an action's `part`, input or output) without its `$defs`, its references pointing at the shared ones:
   * under the resource's names when every definition is the same as the one already there (the actions of a
   * resource share them by construction), else under the action's own.
   */
  lift(action: ContractAction, part: 'input' | 'output', schema: JsonSchema): JsonSchema {
    const { $defs, ...root } = schema;
    if ($defs === undefined || !isCrud(action)) return schema;
    const local = Object.entries($defs as Record<string, JsonSchema>).map(([def, definition]) => ({ def, definition, text: JSON.stringify(definition) }));
    const fits = local.every(({ def, text }) => (this.#originals.get(`${ownerOf(action)}.${def}`) ?? text) === text);
    const prefix = fits ? ownerOf(action) : `${action.service}.${action.name}.${part}`;
    const names = new Map(local.map(({ def }) => [def, `${prefix}.${def}`]));
    const rewrite = (ref: string) => (ref.startsWith(LOCAL_DEFS) && names.has(defName(ref)) ? defRef(names.get(defName(ref))!) : ref);
    for (const { def, definition, text } of local) {
      const name = names.get(def)!;
      if (this.#originals.has(name)) continue;
      this.#originals.set(name, text);
      this.defs[name] = rewriteRefs(definition, rewrite);
    }
    return rewriteRefs(root, rewrite);
  }
}

/** The contract as contract.json holds it: actions in order, then the shared `$defs` in the order first used. */
export function contractFile(contract: Contract): ContractFile {
  const shared = new SharedDefs();
  const actions = contract.actions.map((action) => ({ ...action, input: shared.lift(action, 'input', action.input), output: shared.lift(action, 'output', action.output) }));
  return { ...contract, actions, $defs: shared.defs };
}
