// compilation.js: `{ resources: { [label]: { fingerprint, validators, statements } }, handlers: { [operationId]: factory } }`,
// each sorted, so adding or removing a route or resource is a one-line diff. Modules are behind getters (issue 16): a
// resource's validators load when it first validates an input, a crud route's module on its first request (the server
// prepares its default statement at start from `statements`, spec §8 rule 4), so a server starts without them.
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
      const statements = module.hasStatements === true ? code`, get statements() { return ${requireOf(module.file)}.statements; }` : code``;
      return code`${literal(module.key)}: { fingerprint: ${literal(fingerprint)}, get validators() { return ${requireOf(validatorsFileOf(module.key))}; }${statements} },`;
    }),
  );
}

function handlerEntries(modules: readonly GeneratedModule[]) {
  const routes = modules.filter((module) => module.kind === 'route').sort(byKey);
  return joinCode(routes.map((module) => code`get ${literal(module.key)}() { return ${requireOf(module.file)}; },`));
}

/** The text of compilation.js; `header` its first line (the bundle names its entry, the in-process compile does not). */
export function emitCompilation(modules: readonly GeneratedModule[], header: string): string {
  const text = fillTemplate('compilation.js.tpl', { header: comment(header), resources: resourceEntries(modules), handlers: handlerEntries(modules) });
  return formatSource(text.toString());
}
