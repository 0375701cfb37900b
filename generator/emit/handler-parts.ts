// The slots of templates/handler.js.tpl that a route's emitter fills.
import type { Code } from '../code/code';

export interface HandlerParts {
  /** The ahead-of-time input validator (`validateInput`), or a comment when the route takes any input. */
  readonly validation: Code;
  /** Module-level helpers: policy comment, id parser, row serializer. */
  readonly helpers: Code;
  /** Statements run once when the handler is created. */
  readonly setup: Code;
  /** `return async function <name>(req, res, next) { … }`. */
  readonly handler: Code;
}
