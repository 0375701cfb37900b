// PgBouncer (the Debian package) started by a test with the config docs/production.md shows, on a free port, in
// front of a PostgreSQL database: the test's userlist, its own port and folder; it runs as the postgres user
// (PgBouncer refuses root).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { docsConfig, withReplacements } from './docs-config';
import { freePort } from './free-port';
import { requireProgram, startServiceProcess, systemAccount, type ServiceProcess } from './service-process';

export interface PgBouncer extends ServiceProcess {
  /** A connection URL through PgBouncer to the database it serves. */
  readonly url: string;
}

const PASSWORD = 'pgbouncer-test-password';

/** PgBouncer in front of `target` (a postgres:// URL of a database whose user needs no password), with docs/production.md's config. */
export async function startPgBouncer(target: string): Promise<PgBouncer> {
  const command = requireProgram('pgbouncer', 'pgbouncer');
  const server = new URL(target);
  const user = decodeURIComponent(server.username || 'postgres');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-pgbouncer-'));
  const port = await freePort();
  const account = systemAccount('postgres');
  const config = withReplacements(docsConfig('production.md', 'pgbouncer.ini'), {
    'host=10.0.0.5 port=5432 dbname=app': `host=${server.hostname} port=${server.port || 5432} dbname=${server.pathname.slice(1)}`,
    'listen_addr = 0.0.0.0': 'listen_addr = 127.0.0.1',
    'listen_port = 6432': `listen_port = ${port}`,
    'auth_file = /etc/pgbouncer/userlist.txt': `auth_file = ${path.join(folder, 'userlist.txt')}`,
  });
  // The socket in the test's folder, not /tmp: nothing of the test is left behind.
  fs.writeFileSync(path.join(folder, 'pgbouncer.ini'), `${config}unix_socket_dir = ${folder}\n`);
  fs.writeFileSync(path.join(folder, 'userlist.txt'), `"${user}" "${PASSWORD}"\n`);
  if (account.uid !== undefined) for (const name of ['', 'pgbouncer.ini', 'userlist.txt']) fs.chownSync(path.join(folder, name), account.uid, account.gid!);
  const url = `postgres://${encodeURIComponent(user)}:${PASSWORD}@127.0.0.1:${port}/app`;
  const probe = async () => {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const process = await startServiceProcess('pgbouncer', command, [path.join(folder, 'pgbouncer.ini')], probe, account);
  return {
    ...process,
    url,
    async stop() {
      await process.stop();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
