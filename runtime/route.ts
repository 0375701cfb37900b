// One HTTP route of an action: what the server mounts and what the services route lists.
import type { HttpInputSource, HttpMethod } from './actions';
import type { Context } from './crud/options';

export interface ActionRoute {
  /** The action name: `notes.list` for a resource action, the declared name for a service action. */
  readonly action: string;
  readonly method: HttpMethod;
  /** Path below the server's `prefix`, starting with `/`; `:id` names the row. */
  readonly path: string;
  /** Success status (201 for create, 200 otherwise). */
  readonly status: number;
  readonly input: HttpInputSource;
  /** Turns the `:id` path segment into the id value the input schema expects (numbers for integer keys). */
  readonly parseId: (raw: string) => unknown;
  readonly run: (input: unknown, ctx: Context) => Promise<unknown>;
}

const INTEGER = /^-?[0-9]+$/;

/** A path segment is always a string; numeric keys get numbers, and anything else is left for validation to refuse. */
export function idParserFor(idSchema: Record<string, unknown>): (raw: string) => unknown {
  const type = idSchema.type;
  if (type === 'integer') return (raw) => (INTEGER.test(raw) ? Number(raw) : raw);
  if (type === 'number') return (raw) => (raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw);
  return (raw) => raw;
}
