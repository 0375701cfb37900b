// HAProxy (the Debian package) started by a test with a config it wrote, and read through its stats page: which
// backend servers it sees UP or DOWN, and how many requests, retries and redispatches each got.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requireProgram, startServiceProcess, type ServiceProcess } from './service-process';

/** One row of HAProxy's CSV statistics, the columns the tests read. */
export interface HaproxyServer {
  readonly proxy: string;
  readonly name: string;
  /** `UP`, `DOWN`, `MAINT`, `UP 1/2` (going down), `DOWN 1/2` (coming up)… */
  readonly status: string;
  /** Sessions (requests, one per connection attempt) sent to it. */
  readonly sessions: number;
  /** Connection errors, retries and redispatches away from it. */
  readonly connectionErrors: number;
  readonly retries: number;
  readonly redispatches: number;
  /** Response errors: the server closed or reset the connection before its answer was complete. */
  readonly responseErrors: number;
  /** Transfers the server aborted. */
  readonly serverAborts: number;
}

export interface Haproxy extends ServiceProcess {
  readonly folder: string;
  servers(): Promise<HaproxyServer[]>;
  server(name: string): Promise<HaproxyServer>;
  /** Resolves once HAProxy reports the server with exactly this status; fails after `timeoutMs`. */
  waitFor(name: string, status: 'UP' | 'DOWN', timeoutMs?: number): Promise<void>;
}

function parseCsv(text: string): HaproxyServer[] {
  const [header, ...lines] = text.trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const at = (name: string) => columns.indexOf(name);
  return lines.map((line) => {
    const cells = line.split(',');
    const number = (name: string) => Number(cells[at(name)] || 0);
    return {
      proxy: cells[at('pxname')],
      name: cells[at('svname')],
      status: cells[at('status')],
      sessions: number('stot'),
      connectionErrors: number('econ'),
      retries: number('wretr'),
      redispatches: number('wredis'),
      responseErrors: number('eresp'),
      serverAborts: number('srv_abrt'),
    };
  });
}

/** Starts `haproxy -db -f <config>`; `statsUrl` is the stats page the config declares, ready once it answers. */
export async function startHaproxy(config: string, statsUrl: string): Promise<Haproxy> {
  const command = requireProgram('haproxy', 'haproxy');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-haproxy-'));
  const file = path.join(folder, 'haproxy.cfg');
  fs.writeFileSync(file, config);
  const servers = async (): Promise<HaproxyServer[]> => {
    const response = await fetch(`${statsUrl};csv`);
    if (!response.ok) throw new Error(`HAProxy stats answered ${response.status}`);
    return parseCsv(await response.text()).filter((row) => row.name !== 'FRONTEND' && row.name !== 'BACKEND');
  };
  // -db: stay in the foreground, logs on stderr; the test owns the process.
  const process = await startServiceProcess('haproxy', command, ['-db', '-f', file], servers);
  const server = async (name: string): Promise<HaproxyServer> => {
    const found = (await servers()).find((row) => row.name === name);
    if (found === undefined) throw new Error(`HAProxy has no server ${name}`);
    return found;
  };
  return {
    ...process,
    folder,
    servers,
    server,
    async waitFor(name, status, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const current = (await server(name)).status;
        if (current === status) return;
        if (Date.now() > deadline) throw new Error(`HAProxy did not see ${name} ${status} within ${timeoutMs} ms (it is ${current})\n${process.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      await process.stop();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
