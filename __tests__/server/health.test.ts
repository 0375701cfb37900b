// GET /_health (CONTRACT §5): 200 with every service's check 'ok', or 503 'degraded' naming the failing
// check without leaking file paths or SQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { defineService } from 'tessera-api';
import { openDatabase } from '../helpers/databases';
import { request } from '../helpers/request';
import { useServerTestbed } from '../helpers/server-testbed';

describe('GET /_health', () => {
  const testbed = useServerTestbed();

  it('answers 200 { status: "ok", uptime, checks } when every database answers', async () => {
    const server = await testbed.start({});
    const answer = await request(`${server.url}/_health`);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ status: 'ok', uptime: expect.any(Number), checks: { shop: 'ok' } });
    expect(answer.body.uptime).toBeGreaterThanOrEqual(0);
  });

  it('stays at the root and answers with the prefix changed', async () => {
    const server = await testbed.start({ prefix: '/v2' });
    const answer = await request(`${server.url}/_health`);
    expect(answer.status).toBe(200);
    expect(answer.body.checks).toEqual({ shop: 'ok' });
  });

  it('answers 503 "degraded" with the failing check\'s message when one database is closed', async () => {
    const other = await openDatabase('sqlite');
    defineService({ name: 'archive', db: other.db });
    await other.close();
    const server = await testbed.start({});

    const answer = await request(`${server.url}/_health`);
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ status: 'degraded', uptime: expect.any(Number), checks: { shop: 'ok', archive: expect.any(String) } });
    expect(answer.body.checks.archive).not.toBe('ok');
    expect(answer.body.checks.archive).not.toBe('');
  });

  it('names no file path and no SQL in the failing check\'s message', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'tessera-health-'));
    const file = path.join(folder, 'archive.db');
    const client = new Database(file);
    try {
      defineService({ name: 'archive', db: drizzle(client) });
      client.close();
      const server = await testbed.start({});

      const answer = await request(`${server.url}/_health`);
      expect(answer.status).toBe(503);
      const message: string = answer.body.checks.archive;
      expect(message).not.toBe('ok');
      expect(message).not.toContain(folder);
      expect(message).not.toContain('archive.db');
      expect(message).not.toMatch(/\bselect\b/i);
      expect(answer.text).not.toContain(folder);
      expect(answer.text).not.toMatch(/\bselect\b/i);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
