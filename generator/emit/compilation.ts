// compilation.js: `{ resources: { [label]: { fingerprint, validators } }, handlers: { [operationId]: factory } }`, each
// sorted, so adding or removing a route or resource is a one-line diff. A resource's validators are behind a getter:
// their module loads when the resource first validates an input (issue 16), so a server starts without them. Route
// modules load at start: creating a handler prepares its fixed statements, which spec §8 rule 4 wants then.
import { code, comment, joinCode, literal } from '../code/code';
import { formatSource } from '../code/format';
import { fillTemplate } from '../code/template';
import type { GeneratedModule } from './handler-file';
import { validatorsFileOf } from './validators-module';

const byKey = (a: GeneratedModule, b: GeneratedModule): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** `require('./handlers/…')`, the bundle-relative file as a literal. */
const requireOf = (file: string) => code`require(${literal(`./${file}`)})`;

function resourceEntries(modules: readonly GeneratedModule[]) {
  const resources = modules.filter((module) => module.kind === 'resource').sort(byKey);
  return joinCode(
    resources.map((module) => {
      const fingerprint = module.fingerprint!;
      return code`${literal(module.key)}: { fingerprint: ${literal(fingerprint)}, get validators() { return ${requireOf(validatorsFileOf(fingerprint))}; } },`;
    }),
  );
}

function handlerEntries(modules: readonly GeneratedModule[]) {
  const routes = modules.filter((module) => module.kind === 'route').sort(byKey);
  return joinCode(routes.map((module) => code`${literal(module.key)}: ${requireOf(module.file)},`));
}

/** The text of compilation.js; `header` its first line (the bundle names its entry, the in-process compile does not). */
export function emitCompilation(modules: readonly GeneratedModule[], header: string): string {
  const text = fillTemplate('compilation.js.tpl', { header: comment(header), resources: resourceEntries(modules), handlers: handlerEntries(modules) });
  return formatSource(text.toString());
}
