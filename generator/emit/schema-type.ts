// A small, honest JSON Schema → TypeScript type emitter for the shapes Tessera publishes (objects, arrays, enum,
// const, unions, `not: {}`, local $defs refs); whatever it cannot express exactly becomes `unknown`.
import { BuildError } from '../errors';
import { code, joinCode, literal, name, propertyKey, type Code } from '../code/code';

type Schema = Record<string, unknown>;

/** Type alias names of a namespace: `#/$defs/<def>` → alias, shared by the schemas emitted into it. */
export class TypeNames {
  // The global types emitted code refers to: a `$defs` key `Array` must not shadow them inside the namespace.
  readonly #taken = new Set<string>(['Array', 'Record']);

  /** Reserves a fixed name (`Input`, `Output`). */
  reserve(alias: string): string {
    if (this.#taken.has(alias)) throw new BuildError(`type name ${alias} is used twice`);
    this.#taken.add(alias);
    return alias;
  }

  /** A free alias derived from a `$defs` key: `Condition.title` → `ConditionTitle`, then `ConditionTitle2`. */
  derive(def: string): string {
    const words = pascalCase(def) || 'Def';
    const base = /^[0-9]/.test(words) ? `Def${words}` : words;
    let alias = base;
    for (let n = 2; this.#taken.has(alias); n++) alias = `${base}${n}`;
    return this.reserve(alias);
  }
}

/** `blog.order-items.list` → `BlogOrderItemsList`: words split on anything but letters and digits. */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function union(members: Code[]): Code {
  return members.length === 0 ? code`never` : members.length === 1 ? members[0] : joinCode(members, ' | ');
}

function literalType(value: unknown): Code {
  if (value === null) return code`null`;
  if (typeof value === 'string' || typeof value === 'boolean') return literal(value);
  if (typeof value === 'number' && Number.isFinite(value)) return literal(value);
  return code`unknown`; // an object or array constant: not worth a structural literal type
}

/** Emits the TypeScript types of schemas whose `$ref`s point into their own `$defs` (mapped by `refs`). */
export class SchemaTypes {
  /** `overrides`: `$defs` keys whose refs become the given type instead of their alias (a row narrowed by `select`). */
  constructor(
    readonly refs: ReadonlyMap<string, string>,
    readonly overrides: ReadonlyMap<string, Code> = new Map(),
  ) {}

  /** The type of any schema (boolean schemas included). */
  typeOf(schema: unknown): Code {
    if (schema === false) return code`never`;
    if (!isSchema(schema)) return code`unknown`;
    if (typeof schema.$ref === 'string') return this.#refType(schema.$ref);
    if ('const' in schema) return literalType(schema.const);
    if (Array.isArray(schema.enum)) return union(schema.enum.map(literalType));
    const variants = (schema.anyOf ?? schema.oneOf) as unknown;
    if (Array.isArray(variants)) return union(variants.map((variant) => this.typeOf(variant)));
    // Each part in parentheses: `A & (B | C)` is not `A & B | C`.
    if (Array.isArray(schema.allOf)) return joinCode(schema.allOf.map((part) => code`(${this.typeOf(part)})`), ' & ');
    // `not: {}` alone: no value is allowed here (a field nothing may set, a depth limit).
    if (schema.type === undefined && isSchema(schema.not) && Object.keys(schema.not).length === 0) return code`never`;
    const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : null;
    if (types === null) return code`unknown`;
    return union(types.map((type) => this.#typeOfType(String(type), schema)));
  }

  #refType(ref: string): Code {
    const override = ref.startsWith('#/$defs/') ? this.overrides.get(ref.slice('#/$defs/'.length)) : undefined;
    if (override !== undefined) return override;
    const alias = ref.startsWith('#/$defs/') ? this.refs.get(ref.slice('#/$defs/'.length)) : undefined;
    return alias === undefined ? code`unknown` : name(alias);
  }

  #typeOfType(type: string, schema: Schema): Code {
    switch (type) {
      case 'string':
        return code`string`;
      case 'integer':
      case 'number':
        return code`number`;
      case 'boolean':
        return code`boolean`;
      case 'null':
        return code`null`;
      case 'array':
        return isSchema(schema.items) || typeof schema.items === 'boolean' ? code`Array<${this.typeOf(schema.items)}>` : code`unknown[]`;
      case 'object':
        return this.#objectType(schema);
      default:
        return code`unknown`;
    }
  }

  #objectType(schema: Schema): Code {
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    const members = Object.entries(properties).map(([key, property]) => {
      const optional = required.has(key) ? code`` : code`?`;
      return code`${propertyKey(key)}${optional}: ${this.typeOf(property)};`;
    });
    const extra = schema.additionalProperties;
    if (extra === false && members.length === 0) return code`Record<string, never>`;
    // Declared properties must fit the index signature, so a typed one is only used when there are none.
    if (extra !== false) members.push(members.length === 0 && isSchema(extra) ? code`[key: string]: ${this.typeOf(extra)};` : code`[key: string]: unknown;`);
    return code`{
${joinCode(members)}
}`;
  }
}
