// The one rule for service, resource and action names: they become URL path segments and action names.
import { SetupError } from './errors';

const NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

export function checkName(kind: string, name: unknown, where?: string): string {
  if (typeof name !== 'string' || !NAME.test(name)) {
    const prefix = where === undefined ? '' : `${where}: `;
    throw new SetupError(`${prefix}${kind} name ${JSON.stringify(name)} must start with a letter and hold only letters, digits, "_" and "-"`);
  }
  return name;
}
