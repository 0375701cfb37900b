// The configuration every Tessera page gives Scalar (its browser bundle: ui-assets.ts): no remote fonts, telemetry,
// request proxy, AI agent or MCP link, so the page talks to this origin only and "try it" requests go straight to
// the running server.

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
