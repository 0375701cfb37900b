// The monitoring dashboard of a server run with workers (CONTRACT §8): served once, from the primary, over the
// telemetry every worker reports (runtime/telemetry/cluster-telemetry.ts). The primary reads the entry's
// `dashboard` option by loading the entry too (its options may hold functions and secret references, which
// cannot travel to it from a worker).
import type { PrimaryService } from './primary';

/** The dashboard as a service of the primary, or none when the options set no dashboard. */
export function primaryServices(options: Record<string, unknown>): PrimaryService[] {
  if (options.dashboard === undefined) return [];
  const { createTelemetryCollector, startDashboard } = require('../../runtime') as typeof import('../../runtime');
  const collector = createTelemetryCollector(options.dashboard, { title: typeof options.title === 'string' ? options.title : undefined });
  let running: Awaited<ReturnType<typeof startDashboard>> | null = null;
  return [
    {
      async start() {
        running = await startDashboard(collector);
        return [`  Dashboard: ${running.url}`];
      },
      async stop() {
        await running?.close(); // writes the minute in progress to its history
        collector.close();
      },
    },
  ];
}
