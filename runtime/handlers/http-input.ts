// How an action route reads its input from the request (CONTRACT §2, HTTP column), made once per route: the generic
// handler and the compiled handlers (through compiled-api) read requests with these very functions, so the two
// modes agree by construction.
import type { Request } from 'express';
import { crudActionSpec, type CrudActionName, type HttpInputSource } from '../actions';
import type { CrudRuntime } from '../model/crud-runtime';
import { MAX_IF_MATCH_LENGTH } from '../model/if-match-length';
import { TesseraError } from '../errors';
import { idParserFor } from '../route';

export type InputReader = (req: Request) => unknown;

const DUPLICATE_ID_MESSAGE = 'query parameter `id` is not allowed: the id is the path\'s';
const duplicateId = () => new TesseraError('VALIDATION_ERROR', DUPLICATE_ID_MESSAGE, [{ path: '/id', message: DUPLICATE_ID_MESSAGE }]);

const IF_MATCH_MESSAGE = `the If-Match header must have 1 to ${MAX_IF_MATCH_LENGTH} characters: an ETag, a comma-separated list of ETags, or *`;

/**
 * The If-Match header as the input's `ifMatch`. A header the schema would refuse is refused here, in the header's
 * words: the caller sent a header, not `ifMatch` (the detail's path stays the input's, `/ifMatch`, as `/id` is the path's id).
 */
function withIfMatch(req: Request, input: Record<string, unknown>): Record<string, unknown> {
  const ifMatch = req.headers['if-match'];
  if (ifMatch === undefined) return input;
  if (ifMatch.length === 0 || ifMatch.length > MAX_IF_MATCH_LENGTH) throw new TesseraError('VALIDATION_ERROR', IF_MATCH_MESSAGE, [{ path: '/ifMatch', message: IF_MATCH_MESSAGE }]);
  input.ifMatch = ifMatch;
  return input;
}

/** `parseId` turns the `:id` segment into the id value; `isOptional`: a missing body is `{}` (`resource.list()`). */
export function inputReader(source: HttpInputSource, parseId: (raw: string) => unknown, isOptional: boolean): InputReader {
  switch (source) {
    case 'body':
      return isOptional ? (req) => (req.body === undefined ? {} : req.body) : (req) => req.body;
    case 'id-and-select':
      // Query parameters travel on for validation to refuse by name; ?select=a,b is a list.
      return (req) => {
        const input: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
        // The id is the path's: a second one in the query (`/api/notes/1?id=2`) is refused, not overwritten unseen.
        if (Object.hasOwn(input, 'id')) throw duplicateId();
        input.id = parseId(req.params.id as string);
        if (typeof input.select === 'string') input.select = input.select.split(',');
        // CONTRACT §9: ?include=author,comments includes each named relation with its defaults.
        if (typeof input.include === 'string') input.include = Object.fromEntries(input.include.split(',').map((name) => [name, true]));
        return input;
      };
    // CONTRACT §10: a conditional write's If-Match header is its input's `ifMatch`.
    case 'id-and-body':
      return (req) => withIfMatch(req, { id: parseId(req.params.id as string), data: req.body });
    case 'id':
      return (req) => withIfMatch(req, { id: parseId(req.params.id as string) });
  }
}

/** A crud action's reader, for the resource's key type. */
export function crudInputReader(rt: CrudRuntime, action: CrudActionName): InputReader {
  const spec = crudActionSpec(action);
  return inputReader(spec.input, idParserFor(rt.idSchema), spec.isInputOptional);
}
