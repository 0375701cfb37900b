// The generic handler: one Express handler per action route that shapes the input from the request
// (CONTRACT §2 HTTP column), builds the caller context and runs the action's pipeline.
import type { Request, RequestHandler } from 'express';
import type { Context } from '../model/options';
import type { ActionRoute } from '../route';

export type ContextFactory = (req: Request) => Context | Promise<Context>;

/** `?select=a,b` → `['a', 'b']`; any other query parameter is passed on, so validation can refuse it by name. */
function getInput(route: ActionRoute, req: Request): Record<string, unknown> {
  const input: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
  input.id = route.parseId(req.params.id as string);
  if (typeof input.select === 'string') input.select = input.select.split(',');
  return input;
}

function inputOf(route: ActionRoute, req: Request): unknown {
  switch (route.input) {
    case 'body':
      return req.body;
    case 'id-and-select':
      return getInput(route, req);
    case 'id-and-body':
      return { id: route.parseId(req.params.id as string), data: req.body };
    case 'id':
      return { id: route.parseId(req.params.id as string) };
  }
}

export function genericHandler(route: ActionRoute, context: ContextFactory | null): RequestHandler {
  return async (req, res, next) => {
    try {
      const ctx = context === null ? {} : await context(req);
      const output = await route.run(inputOf(route, req), ctx ?? {});
      res.status(route.status).json(output);
    } catch (error) {
      next(error);
    }
  };
}
