// compilation.js: `{ handlers: { [operationId]: require('./handlers/…') } }`, sorted by operationId, so
// adding or removing a route is a one-line diff.
import { code, comment, joinCode, literal } from '../code/code';
import { formatSource } from '../code/format';
import { fillTemplate } from '../code/template';
import type { GeneratedModule } from './handler-file';

export function emitCompilation(modules: readonly GeneratedModule[], header: string): string {
  const sorted = [...modules].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const handlers = sorted.map((module) => code`${literal(module.key)}: require(${literal(`./${module.file}`)}),`);
  const text = fillTemplate('compilation.js.tpl', { header: comment(header), handlers: joinCode(handlers) });
  return formatSource(text.toString());
}
