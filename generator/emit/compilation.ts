// compilation.js: `{ resources: { [label]: require(…) }, handlers: { [operationId]: require(…) } }`, each sorted,
// so adding or removing a route or resource is a one-line diff.
import { code, comment, joinCode, literal } from '../code/code';
import { formatSource } from '../code/format';
import { fillTemplate } from '../code/template';
import type { GeneratedModule } from './handler-file';

function requires(modules: readonly GeneratedModule[]) {
  const sorted = [...modules].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return joinCode(sorted.map((module) => code`${literal(module.key)}: require(${literal(`./${module.file}`)}),`));
}

export function emitCompilation(modules: readonly GeneratedModule[], header: string): string {
  const text = fillTemplate('compilation.js.tpl', {
    header: comment(header),
    resources: requires(modules.filter((module) => module.kind === 'resource')),
    handlers: requires(modules.filter((module) => module.kind === 'route')),
  });
  return formatSource(text.toString());
}
