// The safe code builder (after ajv's `_` template): generated source is assembled only from Code values,
// so a user's string can never become code. Plain values interpolate as literals, names are checked.
import { BuildError } from '../errors';

/** A piece of JavaScript source, trusted because only this module makes it. */
export class Code {
  readonly #text: string;

  /** @internal Use `code`, `name`, `literal` or `joinCode`. */
  constructor(text: string) {
    this.#text = text;
  }

  toString(): string {
    return this.#text;
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** An identifier; anything else is a BuildError, so names never smuggle code. */
export function name(identifier: string): Code {
  if (!IDENTIFIER.test(identifier)) throw new BuildError(`"${identifier}" is not a JavaScript identifier`);
  return new Code(identifier);
}

/** `row.title`, or `row['created-at']` for a key that is not an identifier. */
export function property(target: Code, key: string): Code {
  return IDENTIFIER.test(key) ? new Code(`${target}.${key}`) : new Code(`${target}[${literal(key)}]`);
}

/** An object literal key: bare when it is an identifier, quoted otherwise. */
export function propertyKey(key: string): Code {
  return IDENTIFIER.test(key) ? new Code(key) : literal(key);
}

/** JSON's escapes plus U+2028/U+2029, which end a line in older JavaScript parsers. */
function escapeLineSeparators(text: string): string {
  return text.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** A value as a JavaScript literal: strings single-quoted, objects and arrays as JSON. */
export function literal(value: unknown): Code {
  if (value === undefined) return new Code('undefined');
  if (typeof value === 'string') {
    const json = JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'");
    return new Code(escapeLineSeparators(`'${json}'`));
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw new BuildError(`${value} has no literal`);
  return new Code(escapeLineSeparators(JSON.stringify(value)));
}

export type Interpolated = Code | string | number | boolean | null | undefined;

/** The template tag: Code is inserted as is, every other value as a literal. */
export function code(strings: TemplateStringsArray, ...values: Interpolated[]): Code {
  let text = strings[0];
  values.forEach((value, index) => {
    text += (value instanceof Code ? value.toString() : literal(value).toString()) + strings[index + 1];
  });
  return new Code(text);
}

/** Code pieces one after another, `separator` between them (a newline by default). */
export function joinCode(parts: readonly Code[], separator = '\n'): Code {
  return new Code(parts.map((part) => part.toString()).join(separator));
}

/** A comment line; its text cannot end the comment early because it is one line. */
export function comment(text: string): Code {
  return new Code(`// ${text.replace(/[\r\n\u2028\u2029]+/g, ' ')}`);
}

/** @internal Source produced by a trusted generator (ajv standalone); only the emitters call this. */
export function trustedSource(text: string): Code {
  return new Code(text);
}
