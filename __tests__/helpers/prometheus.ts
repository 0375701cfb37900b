// Prometheus (the Debian package) started by a test with a config it wrote: a temporary storage folder, a free
// port, queried through its HTTP API (instant queries, the targets' health).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';
import { requireProgram, startServiceProcess, type ServiceProcess } from './service-process';

export interface Prometheus extends ServiceProcess {
  readonly folder: string;
  /** An instant query at `time` (Unix seconds, default now): the vector's values. */
  query(expression: string, time?: number): Promise<number[]>;
  /** Resolves once every scrape target reports `up`. */
  targetsUp(count: number, timeoutMs?: number): Promise<void>;
}

/** Starts Prometheus with `config(folder)` (the folder holds its files: a credentials file, say). */
export async function startPrometheus(config: (folder: string) => string): Promise<Prometheus> {
  const command = requireProgram('prometheus', 'prometheus');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-prometheus-'));
  fs.writeFileSync(path.join(folder, 'prometheus.yml'), config(folder));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const api = async (pathname: string): Promise<any> => {
    const response = await fetch(`${base}${pathname}`);
    const body = (await response.json()) as { status: string; data: unknown; error?: string };
    if (body.status !== 'success') throw new Error(`Prometheus ${pathname}: ${body.error}`);
    return body.data;
  };
  const args = [`--config.file=${path.join(folder, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(folder, 'data')}`, `--web.listen-address=127.0.0.1:${port}`];
  const process = await startServiceProcess('prometheus', command, args, async () => {
    const response = await fetch(`${base}/-/ready`);
    if (!response.ok) throw new Error(`not ready: ${response.status}`);
  });
  return {
    ...process,
    folder,
    async query(expression, time = Date.now() / 1000) {
      const data = await api(`/api/v1/query?query=${encodeURIComponent(expression)}&time=${time}`);
      return (data.result as { value: [number, string] }[]).map((sample) => Number(sample.value[1]));
    },
    async targetsUp(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const data = await api('/api/v1/targets');
        const up = (data.activeTargets as { health: string }[]).filter((target) => target.health === 'up').length;
        if (up === count) return;
        if (Date.now() > deadline) throw new Error(`Prometheus saw ${up} of ${count} targets up: ${JSON.stringify(data.activeTargets)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      await process.stop();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
