// prom-client's default metrics (process CPU, memory, file descriptors, event-loop lag, heap, GC) in a
// registry of their own, one per process: they observe process-wide things, so a second copy would only
// add a second event-loop monitor and GC observer. Cluster workers hand this registry to prom-client's
// AggregatorRegistry, which the primary asks at each scrape.
import type { Registry } from 'prom-client';
import { promClient } from './prom-client';

let registry: Registry | null = null;

/**
 * Gauges prom-client names `_total`, which Prometheus reserves for counters (`promtool check metrics` refuses
 * them). Each is the sum of its labelled family (`nodejs_active_handles{type}` …), which stays.
 */
const GAUGES_NAMED_TOTAL = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

export function processMetricsRegistry(): Registry {
  if (registry === null) {
    const { collectDefaultMetrics, Registry: Metrics } = promClient();
    registry = new Metrics();
    collectDefaultMetrics({ register: registry });
    for (const name of GAUGES_NAMED_TOTAL) registry.removeSingleMetric(name);
  }
  return registry;
}
