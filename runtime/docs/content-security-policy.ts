// The Content-Security-Policy of the documentation pages: scripts, fonts, images and API calls from this
// origin only (plus the origins of configured extra documents), so a page can neither load nor send
// anything elsewhere. Styles allow 'unsafe-inline' because Scalar (Vue) and Swagger UI (React) set styles
// at run time; no inline script is ever allowed.
import type { RequestHandler } from 'express';

export function contentSecurityPolicy(connectOrigins: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${["'self'", ...connectOrigins].join(' ')}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** Sets the policy and nosniff on every response of a documentation page and its assets. */
export function securityHeaders(connectOrigins: readonly string[] = []): RequestHandler {
  const policy = contentSecurityPolicy(connectOrigins);
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  };
}
