// The validators a bundle registers before its application loads (issue 11): each crud resource's, compiled ahead of
// time, with the fingerprint of the definitions they come from. Calls the application makes while it loads then
// validate without compiling anything (a bundle may run with code generation from strings disallowed).
import type { CrudRuntime } from './crud-runtime';
import type { CompiledValidators } from './resource-validators';

/** A resource's validators compiled ahead of time, and the fingerprint of the definitions they come from. */
export interface RegisteredValidators {
  readonly fingerprint: string;
  /** A getter in compilation.js: reading it loads the validators' module. */
  readonly validators: CompiledValidators;
}

const registered = new Map<string, RegisteredValidators>();

/** A bundle's resources, by label (`blog.notes`), for the resources its application is about to define. */
export function registerValidators(resources: Readonly<Record<string, RegisteredValidators>>): void {
  for (const [label, resource] of Object.entries(resources)) registered.set(label, resource);
}

/** Installs `resource`'s validators into `rt`, read on first use, not now: reading them loads their module. */
export function installValidators(rt: CrudRuntime, resource: RegisteredValidators): void {
  rt.validators.install(() => resource.validators);
}

/** Called as a resource is defined: uses the registered validators when they were compiled from these very definitions. */
export function installRegisteredValidators(rt: CrudRuntime): void {
  const resource = registered.get(rt.label);
  if (resource !== undefined && resource.fingerprint === rt.validators.fingerprint) installValidators(rt, resource);
}
