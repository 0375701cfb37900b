// Exactly one log line per request (spec §4.3): `GET /api/notes/42 → 200 (1.3ms)`, then the request id when ids
// are on (`id=…`, as in the error log line). The query string is left out: it may carry values that do not belong
// in logs. Errors have their own log (errorLogger).
import type { RequestHandler } from 'express';

/**
 * The status logged for a request whose client went away before it was answered (nginx's convention):
 * such a request still gets its one line.
 */
export const CLIENT_CLOSED_STATUS = 499;

export function requestLogger(log: (message: string) => void): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // 'close' comes once per response: after 'finish', or when the connection ended first.
    res.once('close', () => {
      const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
      const path = req.originalUrl.split('?', 1)[0];
      const status = res.headersSent ? res.statusCode : CLIENT_CLOSED_STATUS;
      const id = (req as { id?: string }).id;
      log(`${req.method} ${path} → ${status} (${elapsedMs.toFixed(1)}ms)${id === undefined ? '' : ` id=${id}`}`);
    });
    next();
  };
}
