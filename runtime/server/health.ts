// GET /_health (CONTRACT §5): each service's database answers a trivial query within 1 s, or 503. During
// a graceful shutdown (app.close()) it answers 503 "stopping", so load balancers stop sending requests.
import type { RequestHandler } from 'express';
import { databasesOf } from '../dialects/read-replicas';
import type { Service } from '../service';

export const HEALTH_TIMEOUT_MS = 1000;

/** The check's message: 'ok', or why it failed, naming the driver's error code but never its text. A withReplicas database answers when its primary and every replica do. */
export async function checkDatabase(service: Pick<Service, 'db' | 'dialect'>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${HEALTH_TIMEOUT_MS} ms`), HEALTH_TIMEOUT_MS);
  });
  const ping = Promise.all(databasesOf(service.db).map((db) => service.dialect.ping(db))).then(
    () => 'ok',
    (error: { code?: unknown; errno?: unknown; cause?: { code?: unknown } }) => {
      const code = error?.code ?? error?.cause?.code ?? error?.errno;
      return code === undefined ? 'database query failed' : `database query failed (${String(code)})`;
    },
  );
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoute(services: readonly Service[], startedAt: number, lifecycle: { readonly isStopping: boolean }): RequestHandler {
  return async (_req, res) => {
    const results = await Promise.all(services.map(checkDatabase));
    const checks: Record<string, string> = {};
    services.forEach((service, index) => (checks[service.name] = results[index]));
    const healthy = results.every((result) => result === 'ok');
    const status = lifecycle.isStopping ? 'stopping' : healthy ? 'ok' : 'degraded';
    res.status(status === 'ok' ? 200 : 503).json({
      status,
      uptime: Math.floor((Date.now() - startedAt) / 1000),
      checks,
    });
  };
}
