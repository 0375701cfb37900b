// What every crud suite expects of an answer: an error by code and status, a VALIDATION_ERROR naming a
// JSON Pointer, a rejected write that leaves the database as it was, and a raw HTTP request answered in JSON.
import type { ErrorCode } from 'tessera-api';
import type { TestDatabase } from './databases';
import type { Answer, TestServer } from './test-app';

export function expectError(answer: Answer, code: ErrorCode, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ error: expect.objectContaining({ code, message: expect.any(String) }) });
}

/** A VALIDATION_ERROR whose details name `path` (a JSON Pointer into the input), with `message` in that detail. */
export function expectInvalid(answer: Answer, path: string, message?: string): void {
  expectError(answer, 'VALIDATION_ERROR', 400);
  const details: { path: string; message: string }[] = answer.body.error.details;
  expect(details).toEqual(expect.arrayContaining([{ path, message: expect.any(String) }]));
  if (message !== undefined) expect(details.find((detail) => detail.path === path)?.message).toContain(message);
}

/** Every row of the test tables, to compare before and after a rejected write. */
export async function snapshot(database: TestDatabase): Promise<unknown[]> {
  return [
    await database.raw('SELECT * FROM t_notes ORDER BY id'),
    await database.raw('SELECT * FROM t_items ORDER BY id'),
    await database.raw('SELECT * FROM t_categories ORDER BY id'),
  ];
}

/** Runs a write that must be rejected and proves the database did not change. */
export async function rejectedWrite(database: TestDatabase, attempt: () => Promise<Answer>): Promise<Answer> {
  const before = await snapshot(database);
  const answer = await attempt();
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(await snapshot(database)).toEqual(before);
  return answer;
}

/** A raw HTTP request to `server`, for the cases where the transport itself is the point; the answer must be JSON. */
export async function send(server: Pick<TestServer, 'fetch'>, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await server.fetch(path, { method, headers, body });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: response.status, body: await response.json() };
}
