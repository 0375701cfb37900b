// The second interactive documentation page at `swaggerPath` (spec §4.2, default /swagger): Swagger UI
// through swagger-ui-express, its assets from the installed swagger-ui-dist, reading `openApiPath`.
import { Router, type Express, type RequestHandler } from 'express';
import swaggerUi from 'swagger-ui-express';
import { securityHeaders } from './content-security-policy';
import { escapeHtml } from './escape-html';
import { sendHtml } from './html-page';

export interface SwaggerPageOptions {
  path: string;
  title: string;
  openApiPath: string;
}

export function mountSwaggerPage(app: Express, options: SwaggerPageOptions): void {
  const headers = securityHeaders();
  const swaggerOptions = {
    url: options.openApiPath,
    // The default validator badge loads an image from validator.swagger.io: off, the page stays offline.
    validatorUrl: null,
    persistAuthorization: false,
  };
  const html = swaggerUi.generateHTML(undefined, {
    // swagger-ui-express writes the title into <title> as it is, with String#replace, where `$&`, `` $` ``,
    // `$'` and `$$` are patterns: `$` goes in as a character reference.
    customSiteTitle: escapeHtml(options.title).replace(/\$/g, '&#36;'),
    // `swaggerUrl` wins over a `?url=` in the page address, so a link cannot point the page at another document.
    swaggerUrl: options.openApiPath,
    swaggerOptions,
  });
  // The page loads its assets relatively (./swagger-ui.css): serve it at `<path>/`, and send `<path>` there.
  app.get(options.path, headers, (req, res) => {
    if (!req.path.endsWith('/')) {
      const queryStart = req.originalUrl.indexOf('?');
      const query = queryStart === -1 ? '' : req.originalUrl.slice(queryStart);
      res.redirect(301, `${options.path}/${query}`);
      return;
    }
    sendHtml(res, html);
  });
  // A router of its own, so that `next('router')` hands anything else back to the application (its JSON 404).
  const assets = Router();
  assets.use(onlyPageAssets, ...swaggerUi.serveFiles(undefined, { swaggerUrl: options.openApiPath, swaggerOptions }));
  app.use(options.path, headers, assets);
}

// swagger-ui-dist also holds a demo index.html pointed at petstore.swagger.io: serve only what the page loads.
const PAGE_ASSETS = new Set(['/swagger-ui.css', '/swagger-ui-bundle.js', '/swagger-ui-standalone-preset.js', '/swagger-ui-init.js', '/favicon-16x16.png', '/favicon-32x32.png']);

const onlyPageAssets: RequestHandler = (req, _res, next) => {
  if (PAGE_ASSETS.has(req.path)) next();
  else next('router');
};
