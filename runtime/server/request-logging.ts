// Exactly one log line per request (spec §4.3): `GET /api/notes/42 → 200 (1.3ms)`, then the request id when ids
// are on (`id=…`, as in the error log line). The query string is left out: it may carry values that do not belong
// in logs. Errors have their own log (errorLogger).
import type { RequestHandler } from 'express';

/**
 * The status logged for a request whose answer did not reach its client (nginx's convention): the client went
 * away, or the connection was cut at the end of a shutdown's grace period. Such a request still gets its one line.
 */
export const CLIENT_CLOSED_STATUS = 499;

/**
 * Whether the answer reached the connection before it closed. A response that completes is detached from its
 * socket before 'close'; one whose connection died first still holds it, destroyed. A connection cut while the
 * body was being read makes body-parser answer 400 into the dead socket (issue 32: logged 400, not 499).
 */
export function isDelivered(res: { headersSent: boolean; socket: { destroyed: boolean } | null }): boolean {
  return res.headersSent && !(res.socket !== null && res.socket.destroyed);
}

export function requestLogger(log: (message: string) => void): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // 'close' comes once per response: after 'finish', or when the connection ended first.
    res.once('close', () => {
      const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
      const path = req.originalUrl.split('?', 1)[0];
      const status = isDelivered(res) ? res.statusCode : CLIENT_CLOSED_STATUS;
      const id = (req as { id?: string }).id;
      log(`${req.method} ${path} → ${status} (${elapsedMs.toFixed(1)}ms)${id === undefined ? '' : ` id=${id}`}`);
    });
    next();
  };
}
