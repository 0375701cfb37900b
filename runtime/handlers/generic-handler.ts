// The generic handler: one Express handler per action route that reads the input from the request
// (CONTRACT §2 HTTP column, http-input.ts), builds the caller context and runs the action's pipeline.
import type { Request, RequestHandler } from 'express';
import { crudActionSpec } from '../actions';
import { etagOf, statusOf } from '../crud/response-meta';
import type { AnyContext } from '../model/options';
import type { ActionRoute } from '../route';
import { inputReader } from './http-input';
import { answeredNotModified } from './send-json';

export type ContextFactory = (req: Request) => AnyContext | Promise<AnyContext>;

export function genericHandler(route: ActionRoute, context: ContextFactory | null): RequestHandler {
  const readInput = inputReader(route.input, route.parseId, route.source.kind === 'crud' && crudActionSpec(route.source.action).isInputOptional);
  return async (req, res, next) => {
    try {
      const ctx = context === null ? {} : await context(req);
      const output = await route.run(readInput(req), ctx ?? {});
      const etag = etagOf(output);
      if (etag !== undefined && answeredNotModified(req, res, etag)) return;
      res.status(statusOf(output, route.status)).json(output);
    } catch (error) {
      next(error);
    }
  };
}
