// The dashboard's own Express application (CONTRACT §8), served on its own port: read-only (GET and HEAD,
// anything else 405), the Host check of dashboard-host.ts, every route behind the auth of dashboard-auth.ts
// except the sign-in page's own script and stylesheet, and a Content-Security-Policy stricter than the
// documentation pages' (no inline style either).
import path from 'node:path';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { sendHtml } from '../docs/html-page';
import { staticAsset } from '../docs/static-asset';
import { UI_ASSETS, uiAssetRoute } from '../docs/ui-assets';
import { SERIES_RANGES, type SeriesRange } from '../telemetry/history-series';
import { ALL_OPERATIONS } from '../telemetry/minute-record';
import { tesseraRegistry } from '../telemetry/prometheus-metrics';
import type { DatabaseHealth } from '../telemetry/telemetry-report';
import type { TelemetrySource } from '../telemetry/telemetry-source';
import type { DashboardAuth } from './dashboard-auth';
import type { DashboardHistory } from './dashboard-history';
import { hostCheck } from './dashboard-host';
import { missingSecretLog } from './missing-secret-log';
import { renderDashboardPage, renderRefusedPage, renderSignInPage } from './dashboard-page';
import { databasesView, summaryView } from './dashboard-views';

const ASSETS = path.join(__dirname, 'assets');
/** Database checks are shared by the page, /metrics and every viewer for this long. */
const HEALTH_REUSE_MS = 5000;

const POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function sendError(res: Response, status: number, code: string, message: string): void {
  res.status(status).setHeader('Cache-Control', 'no-store');
  res.json({ error: { code, message } });
}

const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
};

/** CONTRACT §8: read-only. */
const readOnly: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  res.setHeader('Allow', 'GET, HEAD');
  sendError(res, 405, 'METHOD_NOT_ALLOWED', 'the dashboard is read-only: GET and HEAD only');
};

/** One health check at a time, its answer reused for a few seconds. */
function sharedHealth(source: TelemetrySource): () => Promise<readonly DatabaseHealth[]> {
  let latest: { at: number; answer: Promise<readonly DatabaseHealth[]> } | null = null;
  return () => {
    const now = Date.now();
    if (latest === null || now - latest.at > HEALTH_REUSE_MS) latest = { at: now, answer: source.checkDatabases() };
    return latest.answer;
  };
}

function isSecure(req: Request): boolean {
  return req.socket && 'encrypted' in req.socket ? true : req.get('x-forwarded-proto')?.split(',')[0].trim() === 'https';
}

export interface DashboardAppParts {
  source: TelemetrySource;
  history: DashboardHistory;
  auth: DashboardAuth;
  /** Where failures of the dashboard itself are reported (never a token or a value). */
  warn: (message: string) => void;
}

export function createDashboardApp({ source, history, auth, warn }: DashboardAppParts): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  const health = sharedHealth(source);
  const registry = tesseraRegistry(source, health);
  const title = source.title;
  const noStore: RequestHandler = (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  };

  // A secret the dashboard needs, missing at run time: 503, and one log line until it is back.
  const missing = missingSecretLog(warn);
  const unavailable = (res: Response, problem: string): void => {
    missing.report(problem);
    sendError(res, 503, 'SERVICE_UNAVAILABLE', 'the dashboard cannot check credentials now; retry later');
  };

  app.use(securityHeaders, readOnly);
  const isHostAllowed = hostCheck(source.options, auth.isOpen);
  if (isHostAllowed !== null) {
    app.use((req, res, next) => {
      if (isHostAllowed(req.headers.host)) return next();
      sendError(res, 403, 'FORBIDDEN', 'the Host header names no address this dashboard answers (loopback names, and dashboard.allowedHosts)');
    });
  }
  // The sign-in page's own files: public, like the page itself (they hold no data).
  app.get('/assets/dashboard.css', staticAsset(path.join(ASSETS, 'dashboard.css'), 'text/css; charset=utf-8'));
  app.get('/assets/sign-in.js', staticAsset(path.join(ASSETS, 'sign-in.js'), 'text/javascript; charset=utf-8'));

  // The sign-in form sends the token it was given as a Bearer header; a valid one gets the session cookie.
  app.get('/session', noStore, (req, res) => {
    const answer = auth.signIn(req, isSecure(req));
    if ('unavailable' in answer) return unavailable(res, answer.unavailable);
    if (answer.cookie === null) return sendError(res, 401, 'UNAUTHORIZED', 'the token is not valid');
    res.setHeader('Set-Cookie', answer.cookie);
    res.status(204).end();
  });
  // Revokes the session here (a copied cookie stops working) and clears it.
  app.get('/sign-out', noStore, (req, res) => {
    res.setHeader('Set-Cookie', auth.signOut(req));
    res.redirect(303, './');
  });

  app.use(async (req: Request, res: Response, next: NextFunction) => {
    let verdict;
    try {
      verdict = await auth.check(req);
    } catch (error) {
      warn(`dashboard: auth.authorize failed (${error instanceof Error ? error.name : typeof error}); the request was refused`);
      return sendError(res, 500, 'INTERNAL_ERROR', 'Internal server error');
    }
    if (verdict.kind === 'unavailable') return unavailable(res, verdict.problem);
    missing.recovered();
    if (verdict.kind === 'allowed') return next();
    if (verdict.kind === 'response') return sendResponse(res, verdict.response, next);
    res.setHeader('Cache-Control', 'no-store');
    if (auth.hasTokens) res.setHeader('WWW-Authenticate', 'Bearer realm="tessera-dashboard"');
    if (req.path === '/') {
      res.status(401);
      return sendHtml(res, auth.hasTokens ? renderSignInPage(title) : renderRefusedPage(title));
    }
    sendError(res, 401, 'UNAUTHORIZED', 'dashboard credentials required');
  });

  app.get('/', (_req, res) => sendHtml(res, renderDashboardPage(title, { historyDays: source.options.historyDays, canSignOut: auth.hasTokens })));
  app.get('/assets/dashboard.js', staticAsset(path.join(ASSETS, 'dashboard.js'), 'text/javascript; charset=utf-8'));
  // uPlot's files come with Tessera's package, as the documentation UIs' do.
  app.get('/assets/uPlot.iife.min.js', uiAssetRoute(UI_ASSETS.uplotScript, 'dashboard'));
  app.get('/assets/uPlot.min.css', uiAssetRoute(UI_ASSETS.uplotStyles, 'dashboard'));

  app.get('/metrics', noStore, async (_req, res, next) => {
    try {
      source.refresh();
      const text = (await registry.metrics()) + (await source.processMetrics());
      res.setHeader('Content-Type', registry.contentType);
      res.end(text);
    } catch (error) {
      next(error);
    }
  });
  app.get('/api/summary', noStore, (_req, res) => {
    source.refresh();
    res.json(summaryView(source, history));
  });
  app.get('/api/databases', noStore, async (_req, res, next) => {
    try {
      source.refresh();
      res.json(databasesView(source, await health()));
    } catch (error) {
      next(error);
    }
  });
  app.get('/api/series', noStore, (req, res) => {
    const range = req.query.range ?? 'hour';
    const operation = req.query.operation ?? ALL_OPERATIONS;
    if (typeof range !== 'string' || !(SERIES_RANGES as readonly string[]).includes(range)) {
      return sendError(res, 400, 'VALIDATION_ERROR', `range must be one of ${SERIES_RANGES.join(', ')}`);
    }
    if (typeof operation !== 'string') return sendError(res, 400, 'VALIDATION_ERROR', 'operation must be one operationId');
    source.refresh();
    res.json({ operation, ...history.series(range as SeriesRange, operation) });
  });

  app.use((req, res) => sendError(res, 404, 'NOT_FOUND', `no dashboard route for ${req.method} ${req.path}`));
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    warn(`dashboard: a route failed (${error instanceof Error ? error.name : typeof error})`);
    if (!res.headersSent) sendError(res, 500, 'INTERNAL_ERROR', 'Internal server error');
  });
  return app;
}

/** Sends the Response an `authorize` answered, as it is. */
function sendResponse(res: Response, response: globalThis.Response, next: NextFunction): void {
  response.arrayBuffer().then((body) => {
    res.status(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding') res.append(name, value);
    });
    res.end(Buffer.from(body));
  }, next);
}
