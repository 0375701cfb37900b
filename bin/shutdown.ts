// The graceful shutdown of a serving process (`tessera start`, a dev child, a bundle, a cluster worker):
// SIGTERM or SIGINT (or the cluster primary's message) runs app.close(): stop accepting, /_health 503
// "stopping", drain within the grace period, close kept-alive connections and pools, then exit 0.
// A second signal exits at once.
import cluster from 'node:cluster';
import type { TesseraApp } from '../runtime';

/** What the cluster primary sends a worker to stop it (signals reach a whole process group, messages one process). */
export const SHUTDOWN_MESSAGE = 'tessera:shutdown';

const SIGNAL_EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

export function stopOnSignals(app: TesseraApp, say: (line: string) => void): void {
  let isStopping = false;
  const stop = (reason: string): void => {
    if (isStopping) return;
    isStopping = true;
    say(`${reason}: stopping; finishing the requests in flight`);
    app.close().then(
      ({ cutConnections, abandonedDatabases }) => {
        if (cutConnections > 0) say(`cut ${cutConnections} connection(s) still busy when the grace period ended`);
        // Issue 32: a hung database never lets its pool end; the process exits anyway, saying so.
        if (abandonedDatabases.length > 0) say(`gave up closing the database connections of ${abandonedDatabases.join(', ')}: no answer within the grace period`);
        say('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        say(`stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  let signals = 0;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      // A second signal: the operator (or the orchestrator) does not want to wait. Only signals count: a
      // worker gets Ctrl-C's SIGINT and its primary's message for the same stop, in either order.
      if (++signals > 1) process.exit(SIGNAL_EXIT_CODES[signal]);
      stop(signal);
    });
  }
  if (cluster.isWorker) {
    process.on('message', (message) => {
      if (message === SHUTDOWN_MESSAGE) stop('shutdown');
    });
    // The primary is gone (killed): nothing routes connections here any more.
    process.once('disconnect', () => stop('primary gone'));
  }
}
