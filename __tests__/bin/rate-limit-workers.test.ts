// `rateLimit` under `tessera start --workers 2`: counted in Redis, one caller's budget holds across both worker
// processes; counted in each process's memory, every worker grants the whole budget again (why Redis is needed).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { freePort } from '../helpers/free-port';
import { startCli, type RunningCli } from '../helpers/spawn-cli';

const ENTRY = '__tests__/bin/entries/rate-limit-app.ts';
const START_TIMEOUT_MS = 60_000;
const POINTS = 4;

/** One call on a new connection (the cluster hands out connections, not requests, to its workers, in turn). */
function callPid(url: string): Promise<{ status: number; pid: number | null }> {
  return new Promise((resolve, reject) => {
    const call = http.request({ host: '127.0.0.1', port: Number(new URL(url).port), path: '/api/shop/pid', method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, pid: response.statusCode === 200 ? JSON.parse(body).pid : null }));
    });
    call.on('error', reject);
    call.end('{}');
  });
}

describe('rateLimit with --workers 2', () => {
  let cli: RunningCli | undefined;
  afterEach(async () => {
    await cli?.stop();
    cli = undefined;
  });

  async function answersOf(env: Record<string, string>): Promise<{ status: number; pid: number | null }[]> {
    cli = await startCli(['start', ENTRY, '--port', String(await freePort()), '--workers', '2'], { RATE_LIMIT_POINTS: String(POINTS), RATE_LIMIT_PREFIX: `tessera-test:${randomUUID()}`, ...env }, START_TIMEOUT_MS);
    const answers = [];
    for (let index = 0; index < 3 * POINTS; index++) answers.push(await callPid(cli.url));
    return answers;
  }

  it('holds one budget across both workers when counted in Redis', async () => {
    const answers = await answersOf({ RATE_LIMIT_REDIS: 'redis://127.0.0.1:6379' });
    const granted = answers.filter((answer) => answer.status === 200);
    expect(granted).toHaveLength(POINTS);
    expect(new Set(granted.map((answer) => answer.pid)).size).toBe(2); // both workers answered
    expect(answers.slice(POINTS).every((answer) => answer.status === 429)).toBe(true);
  }, 2 * START_TIMEOUT_MS);

  it('grants the budget once per worker when each counts in its own memory', async () => {
    const answers = await answersOf({});
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2 * POINTS);
  }, 2 * START_TIMEOUT_MS);
});
