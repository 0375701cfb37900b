// Where Scalar's self-contained browser bundle lives in the installed package, and the configuration
// every Tessera page gives it: no remote fonts, telemetry, request proxy, AI agent or MCP link, so the
// page talks to this origin only and "try it" requests go straight to the running server.
import path from 'node:path';

/** @scalar/api-reference's standalone bundle (scripts, styles and icons in one file). */
export function scalarBundlePath(): string {
  // The package exports only `.` (dist/index.js); the browser bundle sits next to it.
  return path.join(path.dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');
}

export function scalarConfiguration(url: string, title: string): Record<string, unknown> {
  return {
    url,
    title,
    metaData: { title },
    // Offline: the default fonts come from fonts.scalar.com; the page's system fonts replace them.
    withDefaultFonts: false,
    telemetry: false,
    // No proxyUrl: requests go from the browser to the server directly (same origin).
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    documentDownloadType: 'json',
    persistAuth: false,
    _integration: 'express',
  };
}
