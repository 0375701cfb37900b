// The options of createServer (spec §4.3 plus CONTRACT §5's `context` and `bodyLimit`).
import type { RequestHandler } from 'express';
import type { Context } from '../crud/options';
import type { Service } from '../service';

export interface EndpointDefinition {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  path: string;
  handler: RequestHandler;
}

export interface RequestLoggingOptions {
  enabled?: boolean;
  logger?: (message: string) => void;
}

export interface ServerOptions {
  /** Accepted but ignored: the port goes to `app.listen(port)`. */
  port?: number;
  /** Base path of action routes. Default `/api`. */
  prefix?: string;
  /** Services to mount. Default: every registered service. */
  services?: Service[];
  title?: string;
  version?: string;
  description?: string;
  docs?: boolean;
  openApiPath?: string;
  docsPath?: string;
  swaggerPath?: string;
  /** One line per request, `GET /api/notes/42 → 200 (1.3ms)`. Default true (console.log). */
  requestLogging?: boolean | RequestLoggingOptions;
  reference?: boolean | { path?: string; documents?: unknown[] };
  /** Specialized handlers generated at construction (a later release); today every route uses the generic handler. */
  compiler?: boolean;
  compilation?: unknown;
  secrets?: { source?: unknown; validate?: boolean };
  /** Raw Express routes outside the JSON action mesh and its error model. */
  endpoints?: EndpointDefinition[];
  dashboard?: unknown;
  documentation?: string | { dir: string; components?: string };
  /** Builds the caller context per HTTP request; throw `TesseraError('UNAUTHORIZED')` to answer 401. */
  context?: (req: import('express').Request) => Context | Promise<Context>;
  /** Largest accepted JSON body: bytes, or a string such as '1mb'. Default 1 MiB. */
  bodyLimit?: number | string;
}

export const DEFAULT_PREFIX = '/api';
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
