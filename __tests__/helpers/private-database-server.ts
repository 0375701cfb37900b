// A MariaDB or PostgreSQL server of the test's own, for tests that stop and restart a database: a fresh
// data folder under the temporary directory, a free port, and a process this file started and alone stops.
// The shared servers (COMMON.md) are never touched. As root, each server runs as its system user.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { Client } from 'pg';
import { freePort } from './free-port';
import { systemAccount } from './service-process';

export type ServerDialect = 'mysql' | 'postgres';

export interface PrivateDatabaseServer {
  readonly dialect: ServerDialect;
  readonly port: number;
  /** A connection URL to the database `test` on this server. */
  readonly url: string;
  /** Whether the server process is running. */
  readonly isRunning: boolean;
  /** Shuts the server down the way an operator's restart does (PostgreSQL fast shutdown, MariaDB normal shutdown); resolves once it exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /**
   * Freezes the server as a hung machine would (SIGSTOP to every process of it: PostgreSQL's postmaster and each
   * backend, MariaDB's one process): connections stay open and the kernel still accepts new ones, but nothing answers.
   */
  freeze(): void;
  /** SIGCONT to what freeze() stopped. */
  thaw(): void;
  /** Stops it (SIGKILL when it does not go) and removes its data folder. */
  destroy(): Promise<void>;
}

/** A process and its descendants, parents first (pgrep -P, one level at a time). */
function processTree(pid: number): number[] {
  const tree = [pid];
  for (let index = 0; index < tree.length; index++) {
    const children = spawnSync('pgrep', ['-P', String(tree[index])], { encoding: 'utf8' }).stdout.split('\n').filter((line) => line.trim() !== '');
    tree.push(...children.map(Number));
  }
  return tree;
}

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
const POLL_MS = 50;
/** Keeps the end of a server's output for error messages. */
const OUTPUT_TAIL = 4000;

/** Every server this process started, killed should the test process exit without destroying them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

type Account = ReturnType<typeof systemAccount>;

/** The system user's ids when running as root (PostgreSQL refuses to run as root); nothing otherwise. */
const accountOf = systemAccount;

export function postgresBinary(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const candidate = path.join(root, version, 'bin', name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return name; // on PATH, as on other distributions
}

function runToEnd(command: string, args: readonly string[], account: Account): void {
  const result = spawnSync(command, args, { ...account, encoding: 'utf8', timeout: READY_TIMEOUT_MS });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.error?.message}):\n${result.stdout}${result.stderr}`);
}

interface ServerRecipe {
  account: Account;
  command: string;
  args: string[];
  url: string;
  /** SIGINT is PostgreSQL's fast shutdown (ends sessions at once); SIGTERM would wait for every client to leave. */
  stopSignal: NodeJS.Signals;
  /** Resolves once the server answers a trivial query; throws while it does not. */
  probe(): Promise<void>;
  /** Runs once, after the first start. */
  prepare(): Promise<void>;
}

async function postgresRecipe(folder: string, port: number): Promise<ServerRecipe> {
  const account = accountOf('postgres');
  const data = path.join(folder, 'data');
  runToEnd(postgresBinary('initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'], account);
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const query = async (url: string, text: string) => {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query(text);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  return {
    account,
    command: postgresBinary('postgres'),
    args: ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${folder}`, '-c', 'max_connections=60', '-c', 'shared_buffers=16MB'],
    url: `postgres://postgres@127.0.0.1:${port}/test`,
    stopSignal: 'SIGINT',
    probe: () => query(admin, 'select 1'),
    prepare: () => query(admin, 'CREATE DATABASE test'),
  };
}

async function mysqlRecipe(folder: string, port: number): Promise<ServerRecipe> {
  const account = accountOf('mysql');
  const data = path.join(folder, 'data');
  // --no-defaults first: nothing from /etc/mysql (port, socket, data folder) may reach the private server.
  runToEnd('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, '--skip-test-db', '--auth-root-authentication-method=normal'], account);
  const admin = { host: '127.0.0.1', port, user: 'root', connectTimeout: 1000 };
  const query = async (text: string) => {
    const connection = await mysql.createConnection(admin);
    connection.on('error', () => undefined);
    try {
      await connection.query(text);
    } finally {
      await connection.end().catch(() => undefined);
    }
  };
  return {
    account,
    command: 'mariadbd',
    args: [
      '--no-defaults',
      `--datadir=${data}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${path.join(folder, 'mysqld.sock')}`,
      `--pid-file=${path.join(folder, 'mysqld.pid')}`,
      `--log-error=${path.join(folder, 'error.log')}`,
      '--skip-grant-tables',
      '--skip-log-bin',
      '--innodb-buffer-pool-size=32M',
      '--max-connections=60',
    ],
    url: `mysql://root@127.0.0.1:${port}/test`,
    stopSignal: 'SIGTERM',
    probe: () => query('select 1'),
    prepare: () => query('CREATE DATABASE IF NOT EXISTS test'),
  };
}

/** Initializes a data folder, starts the server and creates the database `test`. */
export async function startPrivateDatabaseServer(dialect: ServerDialect): Promise<PrivateDatabaseServer> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `tessera-${dialect}-server-`));
  const port = await freePort();
  let child: ChildProcess | null = null;
  let output = '';
  try {
    const account = accountOf(dialect === 'postgres' ? 'postgres' : 'mysql');
    if (account.uid !== undefined) fs.chownSync(folder, account.uid, account.gid!);
    const recipe = dialect === 'postgres' ? await postgresRecipe(folder, port) : await mysqlRecipe(folder, port);

    const start = async (): Promise<void> => {
      if (child !== null) throw new Error(`the private ${dialect} server is already running`);
      output = '';
      const started = spawn(recipe.command, recipe.args, { ...recipe.account, stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      running.add(started);
      const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL));
      started.stdout!.on('data', keep);
      started.stderr!.on('data', keep);
      started.once('exit', () => {
        running.delete(started);
        if (child === started) child = null;
      });
      const deadline = Date.now() + READY_TIMEOUT_MS;
      for (;;) {
        if (child !== started) throw new Error(`the private ${dialect} server exited while starting:\n${output}`);
        try {
          await recipe.probe();
          return;
        } catch (error) {
          if (Date.now() > deadline) throw new Error(`the private ${dialect} server did not accept connections within ${READY_TIMEOUT_MS} ms:\n${output}`, { cause: error });
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      }
    };

    const stop = async (signal: NodeJS.Signals = recipe.stopSignal): Promise<void> => {
      const current: ChildProcess | null = child;
      if (current === null) return;
      const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
      current.kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_TIMEOUT_MS)));
      const outcome = await Promise.race([exited, late]);
      clearTimeout(timer);
      if (outcome === 'late') {
        current.kill('SIGKILL');
        await exited;
      }
    };

    let frozen: number[] = [];
    const freeze = (): void => {
      if (child === null || child.pid === undefined) throw new Error(`the private ${dialect} server is not running`);
      // The parent first: a stopped postmaster forks no new backend while its children are being stopped.
      frozen = processTree(child.pid);
      for (const pid of frozen) {
        try {
          process.kill(pid, 'SIGSTOP');
        } catch (error) {
          // A backend that ended between the listing and the signal (ESRCH) has nothing left to freeze.
          if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
        }
      }
    };
    const thaw = (): void => {
      for (const pid of frozen.splice(0).reverse()) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // gone meanwhile
        }
      }
    };

    await start();
    await recipe.prepare();
    return {
      dialect,
      port,
      url: recipe.url,
      get isRunning() {
        return child !== null;
      },
      stop: () => stop(),
      start,
      freeze,
      thaw,
      async destroy() {
        thaw();
        await stop();
        fs.rmSync(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    (child as ChildProcess | null)?.kill('SIGKILL');
    fs.rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}
