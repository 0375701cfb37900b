// prom-client, loaded when telemetry first needs it: only a server with `dashboard` does, and loading it cost
// every other server's start about 20 ms (issue 16).
import type * as PromClient from 'prom-client';

export function promClient(): typeof PromClient {
  return require('prom-client') as typeof PromClient;
}
