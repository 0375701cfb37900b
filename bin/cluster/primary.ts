// The primary process of `tessera start --workers N` and of a bundle with TESSERA_WORKERS: forks N workers
// through node:cluster, listens on the port itself and hands each accepted connection to the next serving
// worker, prints the listening lines once all workers serve, starts a new worker when one dies (a failed start,
// one failing before any serves, exits 1 instead), and on SIGTERM or SIGINT stops accepting first, then stops
// every worker gracefully (each drains, closes its pools and exits 0), then exits 0. A second signal kills the
// workers and exits at once.
//
// Why not node:cluster's own port sharing: its primary keeps accepting until the last worker has closed its
// server, and closes the connections it accepted meanwhile when that worker leaves: clients reconnecting
// during a shutdown see resets. Owning the listening socket, the primary stops accepting before anything
// else, as a single process does.
import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { CLUSTER_KEY_VARIABLE } from '../../runtime/server/cluster-key';
import { exitWithError } from '../exit-with-error';
import { SHUTDOWN_MESSAGE } from '../shutdown';
import { CLI_PORT_SOURCES, CONNECTION_MESSAGE, describeListenError } from './worker-connections';

/** What a worker sends once it serves: the lines serve() would have printed. */
export interface ListeningMessage {
  type: 'tessera:listening';
  lines: string[];
}

export function isListeningMessage(message: unknown): message is ListeningMessage {
  const candidate = message as Partial<ListeningMessage> | null;
  return typeof candidate === 'object' && candidate !== null && candidate.type === 'tessera:listening' && Array.isArray(candidate.lines);
}

/**
 * What runs in the primary beside the workers: started before the port is taken (a service that cannot start
 * stops the start with one line, as in a single process) and stopped before the primary exits. This is where
 * the monitoring dashboard plugs in: it serves its own port from the primary and aggregates the workers'
 * telemetry (prom-client's AggregatorRegistry reads every worker over cluster IPC).
 */
export interface PrimaryService {
  /** Starts the service; answers the lines to print after the listening lines. */
  start(): Promise<readonly string[]>;
  stop(): void | Promise<void>;
}

export interface PrimaryOptions {
  workers: number;
  port: number;
  /** The interface to listen on; all when undefined. */
  host?: string;
  /** How the user chooses the port (`--port or PORT` unless said otherwise), named when it is taken. */
  portSources?: string;
  services?: readonly PrimaryService[];
}

/** A worker that dies sooner than this after its start is restarted after RESTART_DELAY_MS, so a crash loop cannot spin. */
const EARLY_DEATH_MS = 5_000;
const RESTART_DELAY_MS = 1_000;
const SIGNAL_EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

function say(line: string): void {
  process.stdout.write(`tessera: ${line}\n`);
}

export async function runPrimary({ workers: count, port, host, portSources = CLI_PORT_SOURCES, services = [] }: PrimaryOptions): Promise<void> {
  const serviceLines: string[] = [];
  try {
    for (const service of services) serviceLines.push(...(await service.start()));
  } catch (error) {
    exitWithError(error);
  }
  const startedAt = new Map<Worker, number>();
  /** Workers that serve, in the order connections go to them. */
  const serving: Worker[] = [];
  // One key for every worker's cursors and ETags, unless the application sets cursorSecret (runtime/server/cursor-secret.ts).
  const clusterKey = randomBytes(32).toString('hex');
  let next = 0;
  let announced = false;
  let firstLines: string[] | null = null;
  let isStopping = false;

  // pauseOnConnect: the primary reads nothing; the worker that gets the socket reads the request.
  const listener = net.createServer({ pauseOnConnect: true }, (socket) => {
    if (serving.length === 0) return socket.destroy(); // every worker died at once: nothing can answer it
    const worker = serving[next++ % serving.length];
    worker.send(CONNECTION_MESSAGE, socket, { keepOpen: false }, (error) => {
      if (error) socket.destroy();
    });
  });
  listener.once('error', (error: NodeJS.ErrnoException) => exitWithError(describeListenError(error, port, host, portSources)));

  const fork = (): void => {
    if (isStopping) return;
    const worker = cluster.fork({ [CLUSTER_KEY_VARIABLE]: clusterKey });
    startedAt.set(worker, Date.now());
    worker.on('message', (message) => {
      if (!isListeningMessage(message)) return;
      serving.push(worker);
      firstLines ??= message.lines;
      if (announced || serving.length < count) return;
      announced = true;
      const [first, ...rest] = firstLines;
      process.stdout.write([first, ...rest, ...serviceLines, `  Workers:   ${count} (node:cluster, pid ${process.pid})`].join('\n') + '\n');
    });
  };

  const failStart = async (line: string | null): Promise<void> => {
    isStopping = true;
    listener.close();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL'); // still starting: nothing in flight
    for (const service of services) await service.stop();
    if (line !== null) process.stderr.write(`tessera: ${line}\n`);
    process.exit(1);
  };

  const finish = async (): Promise<void> => {
    for (const service of services) await service.stop();
    say('stopped');
    process.exit(0);
  };

  cluster.on('exit', (worker, code, signal) => {
    const started = startedAt.get(worker) ?? Date.now();
    startedAt.delete(worker);
    const index = serving.indexOf(worker);
    if (index !== -1) serving.splice(index, 1);
    if (isStopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) void finish();
      return;
    }
    // Before any worker serves, a worker that fails is a failed start: every worker runs the same start, so a
    // restart would fail the same way, printing its line every second for ever. It printed why (exitWithError).
    if (firstLines === null && (code !== 0 || signal !== null)) return void failStart(code === 1 && signal === null ? null : `worker ${worker.process.pid} exited (${signal ?? `exit code ${code}`}) before serving`);
    const delay = Date.now() - started < EARLY_DEATH_MS ? RESTART_DELAY_MS : 0;
    say(`worker ${worker.process.pid} exited (${signal ?? `exit code ${code}`}); starting another${delay > 0 ? ` in ${delay} ms` : ''}`);
    setTimeout(fork, delay);
  });

  let signals = 0;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (++signals > 1) {
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
        process.exit(SIGNAL_EXIT_CODES[signal]);
      }
      isStopping = true;
      // Refuse new connections first; the workers then finish what they were handed.
      listener.close();
      const running = Object.values(cluster.workers ?? {}).filter((each): each is Worker => each !== undefined);
      say(`${signal}: stopping ${running.length} workers; each finishes its requests in flight`);
      if (running.length === 0) return void finish();
      for (const worker of running) {
        if (serving.includes(worker)) worker.send(SHUTDOWN_MESSAGE);
        else worker.process.kill('SIGTERM'); // still starting: nothing in flight
      }
    });
  }

  listener.listen(port, host, () => {
    for (let index = 0; index < count; index++) fork();
  });
}
