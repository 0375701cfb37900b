// A custom service action's handler: the body validated by its ahead-of-time validator (when the
// action declares an input schema), then the user's handler, reached through deps (never copied).
import type { ServiceActionSource } from '../../runtime/route';
import { code, comment, joinCode, name, type Code } from '../code/code';
import type { HandlerParts } from './handler-parts';
import { serviceActionHandlerName } from './names';
import { emitValidator } from './validator';

export function emitActionHandler(source: ServiceActionSource, actionName: string): HandlerParts {
  const hasInput = source.input !== undefined;
  const validate: Code = hasInput
    ? code`if (!validateInput(input)) throw api.validationError(validateInput.errors);`
    : comment('No input schema declared: any JSON body is passed on.');
  const handler = code`return async function ${name(serviceActionHandlerName(actionName))}(req, res, next) {
try {
const ctx = context === null ? {} : ((await context(req)) ?? {});
const input = req.body;
${validate}
const output = await action.invoke(input, ctx);
api.sendJson(req, res, 200, output);
} catch (error) {
next(error);
}
};`;
  return {
    validation: hasInput
      ? joinCode([comment(`Input of ${source.label}, validated by code ajv compiled ahead of time.`), emitValidator('validateInput', source.input!)])
      : comment(`${source.label} declares no input schema.`),
    helpers: comment(`${source.label}: a custom service action; its handler stays in the application's module.`),
    setup: hasInput
      ? joinCode([
          code`const { api, action, context } = deps;`,
          comment('In-process calls of this action use the same ahead-of-time validator (no code generation at run time).'),
          code`action.validators.install('input', validateInput);`,
        ])
      : code`const { api, action, context } = deps;`,
    handler,
  };
}
