// What a compilation brings per crud resource (issue 11): the validators of all its actions, compiled ahead of
// time, the fingerprint of the definitions they come from, and the SQL of its fixed shapes. A bundle registers them
// before its application loads (model/registered-validators.ts); createServer installs them again for the
// resources it serves.
import type { CrudRuntime } from '../model/crud-runtime';
import { installValidators, registerValidators, type RegisteredValidators } from '../model/registered-validators';
import { SetupError } from '../errors';
import type { FixedStatementTexts } from '../sql/fixed-execution';

/**
 * A resource's entry in compilation.js: the fingerprint of the definitions its validators come from, and those
 * validators (a getter there: their module loads when the first of them is used).
 */
export interface CompiledResource extends RegisteredValidators {
  /** Where its routes run fixed shapes: their SQL (resource.js's), for the statements prepared at start. */
  readonly statements?: FixedStatementTexts;
}

/** A bundle's resources, by label (`blog.notes`), for the resources its application is about to define. */
export function registerCompiledResources(resources: Readonly<Record<string, CompiledResource>>): void {
  registerValidators(resources);
}

/** createServer: a compilation's validators into the resources it serves; a stale one is refused. */
export function installCompiledValidators(rt: CrudRuntime, resource: CompiledResource | undefined): void {
  if (resource === undefined) throw new SetupError(`compilation has no module for ${rt.label}: run tessera build again`);
  if (resource.fingerprint !== rt.validators.fingerprint) {
    throw new SetupError(`compilation was built from other definitions of ${rt.label}: run tessera build again`);
  }
  installValidators(rt, resource);
}
