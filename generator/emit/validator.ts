// Input validation compiled ahead of time: ajv standalone code for one schema, wrapped so the module
// holds it under a readable name. A fresh ajv per schema keeps ajv's numbering local to the file.
import standaloneCode from 'ajv/dist/standalone';
import { createAjv } from '../../runtime/validation';
import { code, name, trustedSource, type Code } from '../code/code';

/** `function loadValidateInput() { … }` then `const validateInput = loadValidateInput();`. */
export function emitValidator(functionName: string, schema: object): Code {
  const ajv = createAjv({ standalone: true });
  const validate = ajv.compile(schema);
  // ajv's own generator builds this text from the schema; it sets module.exports to the validator.
  const source = trustedSource(standaloneCode(ajv, validate));
  const loader = name(`load${functionName.charAt(0).toUpperCase()}${functionName.slice(1)}`);
  return code`function ${loader}() {
const module = { exports: {} };
${source}
return module.exports;
}
const ${name(functionName)} = ${loader}();`;
}
