// One log line per request (spec §4.3): `GET /api/notes/42 → 200 (1.3ms)`. The query string is left
// out: it may carry values that do not belong in logs.
import type { RequestHandler } from 'express';

export function requestLogger(log: (message: string) => void): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
      const path = req.originalUrl.split('?', 1)[0];
      log(`${req.method} ${path} → ${res.statusCode} (${elapsedMs.toFixed(1)}ms)`);
    });
    next();
  };
}
