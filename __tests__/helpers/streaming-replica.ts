// A PostgreSQL streaming replica of a private primary (private-database-server.ts): pg_basebackup of the primary
// into a folder of the test's own (-R writes the standby settings), then a hot standby on a free port, run as the
// postgres user (a fast checkpoint: a spread one would wait minutes). Replay can be paused and resumed, to see what clients see while a replica lags.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from './free-port';
import { postgresBinary } from './private-database-server';
import { startServiceProcess, systemAccount } from './service-process';

export interface StreamingReplica {
  /** A connection URL to the replica's database `test` (read-only). */
  readonly url: string;
  /** Runs one statement on the replica (pg_wal_replay_pause(), a check). */
  query(text: string): Promise<Record<string, unknown>[]>;
  /** Resolves once the replica has replayed everything the primary has written so far. */
  caughtUp(primaryUrl: string): Promise<void>;
  destroy(): Promise<void>;
}

async function queryOn(url: string, text: string): Promise<Record<string, unknown>[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.query(text)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startStreamingReplica(primaryPort: number): Promise<StreamingReplica> {
  const account = systemAccount('postgres');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-postgres-replica-'));
  if (account.uid !== undefined) fs.chownSync(folder, account.uid, account.gid!);
  const data = path.join(folder, 'data');
  const backup = spawnSync(postgresBinary('pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', data, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync'], {
    ...account,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (backup.status !== 0) {
    fs.rmSync(folder, { recursive: true, force: true });
    throw new Error(`pg_basebackup failed (${backup.status}):\n${backup.stdout}${backup.stderr}`);
  }
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/test`;
  const args = ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${folder}`, '-c', 'hot_standby=on', '-c', 'shared_buffers=16MB'];
  const server = await startServiceProcess('postgres replica', postgresBinary('postgres'), args, () => queryOn(url, 'select pg_is_in_recovery()'), account);
  return {
    url,
    query: (text) => queryOn(url, text),
    async caughtUp(primaryUrl) {
      const [{ lsn }] = await queryOn(primaryUrl, 'select pg_current_wal_lsn()::text as lsn');
      for (;;) {
        const [{ done }] = await queryOn(url, `select pg_last_wal_replay_lsn() >= '${String(lsn)}'::pg_lsn as done`);
        if (done === true) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async destroy() {
      // SIGINT: PostgreSQL's fast shutdown.
      server.child.kill('SIGINT');
      await server.stop();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
