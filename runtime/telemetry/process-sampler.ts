// The process figures of CONTRACT §8: memory, CPU time and event-loop delay, sampled off the request path
// (each report). The event-loop delay comes from perf_hooks.monitorEventLoopDelay, reset at every sample.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { ProcessSample } from './telemetry-report';

const NANOS_PER_MS = 1e6;
/** The monitor's sampling period in ms: fine enough to see a stall, cheap enough to leave on. */
const LOOP_RESOLUTION_MS = 10;

/** The delay beyond the monitor's own period, in ms: its figures are the whole time between its timer's runs (10 ms when idle). */
function delayMs(nanos: number): number {
  return Number.isFinite(nanos) ? Math.max(0, nanos / NANOS_PER_MS - LOOP_RESOLUTION_MS) : 0;
}

export class ProcessSampler {
  #loop: IntervalHistogram | null = null;

  /** Starts watching the event loop (a libuv timer every 10 ms, unreferenced). */
  start(): void {
    if (this.#loop !== null) return;
    this.#loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    this.#loop.enable();
  }

  stop(): void {
    this.#loop?.disable();
    this.#loop = null;
  }

  /** The figures now; the event-loop delay covers the time since the previous sample. */
  sample(role: ProcessSample['role']): ProcessSample {
    const memory = process.memoryUsage();
    const cpu = process.cpuUsage();
    const loop = this.#loop;
    const hasLoop = loop !== null && loop.count > 0;
    const eventLoop = hasLoop
      ? { mean: delayMs(loop.mean), p50: delayMs(loop.percentile(50)), p99: delayMs(loop.percentile(99)), max: delayMs(loop.max) }
      : { mean: 0, p50: 0, p99: 0, max: 0 };
    loop?.reset();
    return {
      pid: process.pid,
      role,
      uptime: process.uptime(),
      memory: { rss: memory.rss, heapUsed: memory.heapUsed, heapTotal: memory.heapTotal, external: memory.external },
      cpu: { user: cpu.user, system: cpu.system },
      eventLoop,
    };
  }
}
