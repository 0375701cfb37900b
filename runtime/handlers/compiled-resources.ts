// What a compilation brings per crud resource (issue 11): the validators of all its actions, compiled ahead of
// time, and the fingerprint of the definitions they come from. A bundle registers them before its application
// loads, so calls the application makes while it loads validate without compiling anything (a bundle may run
// with code generation from strings disallowed); createServer installs them again for the resources it serves.
import type { CrudRuntime } from '../model/crud-runtime';
import type { CompiledValidators } from '../model/resource-validators';
import { SetupError } from '../errors';
import type { FixedStatementTexts } from '../sql/fixed-execution';

/**
 * A resource's entry in compilation.js: the fingerprint of the definitions its validators come from, and those
 * validators (a getter there: their module loads when the first of them is used).
 */
export interface CompiledResource {
  readonly fingerprint: string;
  readonly validators: CompiledValidators;
  /** Where its routes run fixed shapes: their SQL (resource.js's), for the statements prepared at start. */
  readonly statements?: FixedStatementTexts;
}

const registered = new Map<string, CompiledResource>();

/** A bundle's resources, by label (`blog.notes`), for the resources its application is about to define. */
export function registerCompiledResources(resources: Readonly<Record<string, CompiledResource>>): void {
  for (const [label, resource] of Object.entries(resources)) registered.set(label, resource);
}

function install(rt: CrudRuntime, resource: CompiledResource): void {
  // Read on first use, not now: reading it loads the validators' module.
  rt.validators.install(() => resource.validators);
}

/** Called as a resource is defined: uses the registered validators when they were compiled from these very definitions. */
export function installRegisteredValidators(rt: CrudRuntime): void {
  const resource = registered.get(rt.label);
  if (resource !== undefined && resource.fingerprint === rt.validators.fingerprint) install(rt, resource);
}

/** createServer: a compilation's validators into the resources it serves; a stale one is refused. */
export function installCompiledValidators(rt: CrudRuntime, resource: CompiledResource | undefined): void {
  if (resource === undefined) throw new SetupError(`compilation has no module for ${rt.label}: run tessera build again`);
  if (resource.fingerprint !== rt.validators.fingerprint) {
    throw new SetupError(`compilation was built from other definitions of ${rt.label}: run tessera build again`);
  }
  install(rt, resource);
}
