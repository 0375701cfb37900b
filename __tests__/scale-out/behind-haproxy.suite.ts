// The scale-out scenario of docs/production.md on one database: three bundle replicas behind HAProxy (the page's
// config), under steady mixed load; a rolling restart fails no request, a replica killed with SIGKILL fails only
// the requests in flight on it and HAProxy stops sending to it. On PostgreSQL the replicas reach the database
// through PgBouncer in transaction mode. Prints the figures of each event.
import path from 'node:path';
import mysql from 'mysql2/promise';
import { Client } from 'pg';
import { buildCli, MYSQL_URL, POSTGRES_URL, temporaryFolder } from '../helpers/bundles';
import { docsConfig, withReplacements } from '../helpers/docs-config';
import { freePort } from '../helpers/free-port';
import { startHaproxy, type Haproxy } from '../helpers/haproxy';
import { MixedLoad, type EventFigures } from '../helpers/mixed-load';
import { startPgBouncer, type PgBouncer } from '../helpers/pgbouncer';
import { Replica } from '../helpers/replica';

export const SCALE_ENTRY = '__tests__/scale-out/entries/scale-app.ts';
const CLIENTS = 6;
const STEADY_MS = 1500;
const SETUP_TIMEOUT_MS = 240_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Drops and creates the items table (`table`, default so_items) on the test database of the dialect. */
export async function recreateItems(dialect: 'postgres' | 'mysql', table = 'so_items'): Promise<void> {
  if (dialect === 'postgres') {
    const client = new Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`DROP TABLE IF EXISTS ${table}`);
    await client.query(`CREATE TABLE ${table} (id serial PRIMARY KEY, title varchar(200) NOT NULL, version integer NOT NULL DEFAULT 0)`);
    await client.end();
  } else {
    const connection = await mysql.createConnection(MYSQL_URL);
    await connection.query(`DROP TABLE IF EXISTS ${table}`);
    await connection.query(`CREATE TABLE ${table} (id bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, title varchar(200) NOT NULL, version int NOT NULL DEFAULT 0)`);
    await connection.end();
  }
}

/** Builds the scale-out entry for the dialect (and table) into `out`. */
export async function buildScaleApp(dialect: 'postgres' | 'mysql', out: string, table = 'so_items'): Promise<void> {
  const result = await buildCli(SCALE_ENTRY, out, [], { SCALE_DIALECT: dialect, SCALE_TABLE: table, SCALE_DATABASE_URL: 'unused://at-build-time' });
  if (result.code !== 0) throw new Error(`tessera build ${SCALE_ENTRY} failed (${result.code}):\n${result.stderr}`);
}

/** docs/production.md's HAProxy config, listening on `port` (stats on `statsPort`), in front of the replicas. */
export function haproxyConfig(port: number, statsPort: number, replicas: readonly Replica[]): string {
  return withReplacements(docsConfig('production.md', 'haproxy.cfg'), {
    'bind :8080': `bind 127.0.0.1:${port}`,
    'bind 127.0.0.1:8404': `bind 127.0.0.1:${statsPort}`,
    ...Object.fromEntries(replicas.map((replica, index) => [`10.0.0.1${index + 1}:4000`, `127.0.0.1:${replica.port}`])),
  });
}

export function printFigures(title: string, figures: readonly EventFigures[]): void {
  const lines = figures.map(
    (event) => `  ${event.event.padEnd(34)} sent ${String(event.sent).padStart(6)}  failed ${String(event.failed).padStart(3)}  ${JSON.stringify(event.byStatus)}  ${JSON.stringify(event.byReplica)}`,
  );
  console.log(`${title}\n${lines.join('\n')}`);
}

export function behindHaproxySuite(dialect: 'postgres' | 'mysql'): void {
  const label = dialect === 'postgres' ? 'PostgreSQL through PgBouncer in transaction mode' : 'MariaDB';
  describe(`three bundle replicas on ${label}, behind HAProxy, under steady mixed load`, () => {
    const folder = temporaryFolder(`scale-out-${dialect}`);
    const replicas: Replica[] = [];
    let pgbouncer: PgBouncer | null = null;
    let haproxy: Haproxy;
    let load: MixedLoad | null = null;

    beforeAll(async () => {
      await recreateItems(dialect);
      const out = path.join(folder.path, 'dist');
      const [, bouncer] = await Promise.all([buildScaleApp(dialect, out), dialect === 'postgres' ? startPgBouncer(POSTGRES_URL) : null]);
      pgbouncer = bouncer;
      // docs/production.md: behind PgBouncer in transaction mode (1.18, Debian 12's), the statement cache is off.
      const env: Record<string, string> = bouncer === null ? { SCALE_DATABASE_URL: MYSQL_URL } : { SCALE_DATABASE_URL: bouncer.url, SCALE_STATEMENT_CACHE: 'off' };
      for (let index = 1; index <= 3; index++) replicas.push(new Replica(`api-${index}`, await freePort(), out, { ...env, SCALE_DIALECT: dialect }));
      for (const replica of replicas) await replica.start();
      const [port, statsPort] = [await freePort(), await freePort()];
      haproxy = await startHaproxy(haproxyConfig(port, statsPort, replicas), `http://127.0.0.1:${statsPort}/stats`);
      for (const replica of replicas) await haproxy.waitFor(replica.name, 'UP');
      load = new MixedLoad({ port, path: '/api/items', clients: CLIENTS });
      await sleep(STEADY_MS);
    }, SETUP_TIMEOUT_MS);

    afterAll(async () => {
      await load?.stop();
      if (load !== null) printFigures(`Scale-out on ${label}: ${CLIENTS} clients through HAProxy`, load.figures());
      await haproxy?.stop();
      for (const replica of replicas) await replica.stop();
      await pgbouncer?.stop();
    }, 60_000);

    it('a rolling restart (SIGTERM one replica at a time, then start it again) fails no request at the client', async () => {
      for (const replica of replicas) {
        load!.event(`rolling restart: ${replica.name}`);
        expect(await replica.signal('SIGTERM')).toEqual({ code: 0, signal: null });
        await replica.start();
        await haproxy.waitFor(replica.name, 'UP');
      }
      load!.event('steady after the restarts');
      await sleep(STEADY_MS);
      const restarts = load!.figures().filter((event) => event.event.startsWith('rolling restart'));
      expect(restarts.map((event) => event.sent).every((sent) => sent > 0)).toBe(true);
      expect(load!.failures().map((record) => `${record.event}: ${record.kind} ${record.status ?? record.error} via ${record.servedBy}`)).toEqual([]);
    }, 180_000);

    it('a replica killed with SIGKILL fails only the requests in flight on it, and HAProxy stops sending to it', async () => {
      const victim = replicas[1];
      const event = `SIGKILL: ${victim.name}`;
      load!.event(event);
      // The requests of the previous event finish first (each takes milliseconds): what is in flight at the kill was sent under this one.
      await sleep(200);
      const before = await haproxy.servers();
      const killedAt = Date.now();
      expect(await victim.signal('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
      const diedAt = Date.now(); // the exit as this process sees it: a request sent before may have reached it
      await haproxy.waitFor(victim.name, 'DOWN');
      const downAfterMs = Date.now() - killedAt;
      const atDown = await haproxy.servers();
      load!.event(`${victim.name} down`);
      await sleep(STEADY_MS);
      const whileDown = await haproxy.server(victim.name);
      load!.event(`${victim.name} started again`);
      await victim.start();
      await haproxy.waitFor(victim.name, 'UP');
      load!.event('steady after the kill');
      await sleep(STEADY_MS);

      const failed = load!.failures().filter((record) => record.endedAt >= killedAt && record.startedAt <= diedAt);
      // What HAProxy counted per replica between the kill and the DOWN: requests it tried, answers cut off.
      const delta = (name: string, key: 'sessions' | 'serverAborts' | 'responseErrors' | 'redispatches') =>
        atDown.find((row) => row.name === name)![key] - before.find((row) => row.name === name)![key];
      const cutOff = (name: string) => delta(name, 'responseErrors');
      console.log(
        `SIGKILL on ${label}: ${failed.length} request(s) failed at the client (${failed.map((record) => `${record.kind} ${record.status ?? record.error}`).join(', ')}), ` +
          `HAProxy counted ${cutOff(victim.name)} response error(s) (${delta(victim.name, 'serverAborts')} server abort(s)) on ${victim.name}; it saw ${victim.name} DOWN ${downAfterMs} ms after the kill, ` +
          `having sent ${delta(victim.name, 'sessions')} request(s) its way meanwhile, ${delta(victim.name, 'redispatches')} of them redispatched to another replica`,
      );
      // Only requests in flight when the process died (sent before, answered after the kill), at most one per client;
      // HAProxy cut off none on the other replicas.
      expect(failed.length).toBeLessThanOrEqual(CLIENTS);
      for (const replica of replicas) if (replica !== victim) expect(cutOff(replica.name)).toBe(0);
      // Down, HAProxy sent it nothing; every other event failed nothing.
      expect(whileDown.sessions).toBe(atDown.find((row) => row.name === victim.name)!.sessions);
      expect(load!.failures().filter((record) => !failed.includes(record))).toEqual([]);
      expect(load!.failures(event)).toEqual(failed);
    }, 180_000);

    it('logs no database error on any replica', () => {
      for (const replica of replicas) expect(replica.stderr).toBe('');
    });
  });
}
