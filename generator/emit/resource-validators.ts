// A crud resource's input validators as ajv standalone code, compiled from its one validation document
// (runtime/crud/resource-validators.ts): each distinct input schema once, the where grammar once, shared by
// list, findOne, count and exists. A fresh ajv per resource keeps ajv's numbering local to the resource's file.
import type { CrudActionName } from '../../runtime/actions';
import type { CrudRuntime } from '../../runtime/crud/crud-runtime';
import { code, comment, joinCode, literal, propertyKey, trustedSource, type Code } from '../code/code';
import { standaloneValidatorSource } from './validator-sources';

/** Each distinct ref once, under the first action that uses it; the actions sharing it, in contract order. */
function distinctRefs(refs: Readonly<Record<CrudActionName, string>>): { exports: Record<string, string>; aliases: [CrudActionName, CrudActionName][] } {
  const exports: Record<string, string> = {};
  const aliases: [CrudActionName, CrudActionName][] = [];
  const firstOf = new Map<string, CrudActionName>();
  for (const [action, ref] of Object.entries(refs) as [CrudActionName, string][]) {
    const first = firstOf.get(ref);
    if (first === undefined) {
      firstOf.set(ref, action);
      exports[action] = ref;
    } else aliases.push([action, first]);
  }
  return { exports, aliases };
}

/** `function loadValidators() { … }`: answers `{ list, get, …, exists }`, one validator per action. */
export function emitResourceValidators(rt: CrudRuntime): Code {
  const { document } = rt.validators;
  const { exports, aliases } = distinctRefs(document.refs);
  // ajv's own generator writes this text from the schemas; it sets exports.<action> for each distinct input.
  const source = trustedSource(standaloneValidatorSource(document, exports));
  const shared = aliases.map(([action, first]) => code`validators.${propertyKey(action)} = validators.${propertyKey(first)};`);
  return joinCode([
    comment(`The input of every ${rt.resourceName} action, validated by code ajv compiled ahead of time from one document:`),
    comment('the where grammar is written once; list and findOne share an input schema, as do count and exists.'),
    code`function loadValidators() {
const module = { exports: {} };
const exports = module.exports;
${source}
const validators = module.exports;
${joinCode(shared)}
return validators;
}`,
  ]);
}

/** The resource's fingerprint as a literal: a compilation built from other definitions is refused. */
export function emitFingerprint(rt: CrudRuntime): Code {
  return literal(rt.validators.fingerprint);
}
