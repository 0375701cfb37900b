// Input validation compiled ahead of time: ajv standalone code for one schema, wrapped so the module
// holds it under a readable name. A fresh ajv per schema keeps ajv's numbering local to the file.
import { createAjv } from '../../runtime/validation';
import { code, name, trustedSource, type Code } from '../code/code';
import { standaloneModuleCode } from './standalone-code';

/**
 * list and findOne share one schema object, as do count and exists: compile each once. The text depends
 * only on the schema (a fresh ajv each time), so reusing it changes no output.
 */
const sources = new WeakMap<object, string>();

function standaloneSource(schema: object): string {
  let source = sources.get(schema);
  if (source === undefined) {
    const ajv = createAjv({ standalone: true });
    // ajv's own generator builds this text from the schema; it sets module.exports to the validator.
    source = standaloneModuleCode(ajv, ajv.compile(schema));
    sources.set(schema, source);
  }
  return source;
}

/** `function loadValidateInput() { … }` then `const validateInput = loadValidateInput();`. */
export function emitValidator(functionName: string, schema: object): Code {
  const source = trustedSource(standaloneSource(schema));
  const loader = name(`load${functionName.charAt(0).toUpperCase()}${functionName.slice(1)}`);
  return code`function ${loader}() {
const module = { exports: {} };
${source}
return module.exports;
}
const ${name(functionName)} = ${loader}();`;
}
