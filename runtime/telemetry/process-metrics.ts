// prom-client's default metrics (process CPU, memory, file descriptors, event-loop lag, heap, GC) in a
// registry of their own, one per process: they observe process-wide things, so a second copy would only
// add a second event-loop monitor and GC observer. Cluster workers hand this registry to prom-client's
// AggregatorRegistry, which the primary asks at each scrape.
import type { Registry } from 'prom-client';
import { promClient } from './prom-client';

let registry: Registry | null = null;

export function processMetricsRegistry(): Registry {
  if (registry === null) {
    const { collectDefaultMetrics, Registry: Metrics } = promClient();
    registry = new Metrics();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
