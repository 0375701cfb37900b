// The OpenAPI document as client generators read it (issue 15): the blog example's document, served by
// `tessera start`, turned into clients by openapi-typescript (+ openapi-fetch) and by @hey-api/openapi-ts, each
// with its default options, offline from node_modules. A program calling every action the way the docs show (the
// writes in bulk and If-Match of CONTRACT §10 included) type-checks under `tsc --strict` and runs against the live
// server; calls with an unknown, a hidden or a missing field do not type-check, and tsc says which field.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../helpers/bundles';
import { freePort } from '../../helpers/free-port';
import { startCli, type RunningCli } from '../../helpers/spawn-cli';
import { demoToken } from '../../../fixtures/blog/demo-token';

const NODE_MODULES = path.join(REPO_ROOT, 'node_modules');
const TSC = path.join(NODE_MODULES, 'typescript/bin/tsc');
const OPENAPI_TYPESCRIPT = path.join(NODE_MODULES, 'openapi-typescript/bin/cli.js');
const HEY_API = path.join(NODE_MODULES, '@hey-api/openapi-ts/bin/run.js');
const TSX = path.join(NODE_MODULES, 'tsx/dist/cli.mjs');
/** What a TypeScript project using these clients would typically have; `strict` is the point. */
const COMPILER_OPTIONS = { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], skipLibCheck: true };
const GENERATION_TIMEOUT_MS = 120_000;

/** What both programs answer: every call's result, read through the generated response types. */
const PROGRAM_RESULT = `  return {
    created: created.data,
    listed: listed.data?.items.map((row) => row.title),
    got: got.data,
    patched: patched.data?.content,
    counted: counted.data?.count,
    exists: exists.data?.exists,
    found: found.data?.title,
    deleted: deleted.data?.success,
    task: task.data?.ownerId,
    total: page.data?.total,
    owner: page.data?.items[0]?.owner?.name,
    filtered: filtered.data?.count,
    includedTasks: users.data?.items.flatMap((user) => user.tasks?.map((row) => row.title) ?? []),
    createdMany: createdMany.data?.items.map((row) => row.title),
    updatedMany: updatedMany.data?.count,
    upserted: [upserted.response.status, upserted.data?.title],
    upsertedAgain: [upsertedAgain.response.status, upsertedAgain.data?.title],
    stale: [stale.response.status, stale.error?.error.code],
    deletedMany: deletedMany.data?.count,
    nextCursor: paged.data?.nextCursor,
  };
`;

/** openapi-typescript's `paths` with openapi-fetch: every crud action of the public notes, and a guarded task. */
const OPENAPI_FETCH_PROGRAM = `import createClient from 'openapi-fetch';
import type { components, paths } from './openapi-typescript/schema';

type Schemas = components['schemas'];

export async function runOpenapiFetch(baseUrl: string, aliceToken: string) {
  const client = createClient<paths>({ baseUrl });
  const created = await client.POST('/api/notes', { body: { title: 'From openapi-fetch', content: 'first' } satisfies Schemas['blog.notes.CreateInput'] });
  if (created.data === undefined) throw new Error('create failed');
  const id: string = created.data.id;
  const listed = await client.POST('/api/notes/query', { body: { where: { title: { contains: 'openapi-fetch' } } } });
  // openapi-fetch sends ?select=title&select=content; hey-api (below) ?select=title,content: both are accepted.
  const got = await client.GET('/api/notes/{id}', { params: { path: { id }, query: { select: ['title', 'content'] } } });
  const patched = await client.PATCH('/api/notes/{id}', { params: { path: { id } }, body: { content: 'patched' } });
  const counted = await client.POST('/api/notes/count', { body: { where: { title: { eq: 'From openapi-fetch' } } } });
  const exists = await client.POST('/api/notes/exists', { body: {} });
  const found = await client.POST('/api/notes/find-one', { body: { where: { title: { startsWith: 'From' } }, orderBy: [{ field: 'title' }] } });
  // CONTRACT §10: cursor paging, the first page's nextCursor sent back (null here: one row matches).
  const first = await client.POST('/api/notes/query', { body: { where: { title: { contains: 'openapi-fetch' } }, limit: 1, cursor: true } });
  const paged = await client.POST('/api/notes/query', { body: { where: { title: { contains: 'openapi-fetch' } }, limit: 1, cursor: first.data?.nextCursor ?? true } });
  const deleted = await client.DELETE('/api/notes/{id}', { params: { path: { id } } });
  const alice = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer ' + aliceToken } });
  const task = await alice.POST('/api/tasks', { body: { title: 'Typed task' } });
  // CONTRACT §9: the task's owner, included through the users resource's policy.
  const page = await alice.POST('/api/tasks/query', { body: { limit: 5, includeTotal: true, include: { owner: { select: ['id', 'name'] } } } satisfies Schemas['blog.tasks.ListInput'] });
  // A relation filter and an include's options, typed by the related resource's own where, select and orderBy.
  const filtered = await alice.POST('/api/tasks/count', { body: { where: { owner: { isNot: { name: { eq: 'Nobody' } } } } } satisfies Schemas['blog.tasks.WhereInput'] });
  const usersQuery = { include: { tasks: { where: { title: { contains: 'Typed' } }, orderBy: [{ field: 'title', direction: 'desc' }], limit: 5 } } } satisfies Schemas['blog.users.ListInput'];
  const users = await alice.POST('/api/users/query', { body: usersQuery });
  // CONTRACT §10: the writes in bulk, and If-Match with the ETag an upsert answered.
  const createdMany = await client.POST('/api/notes/bulk', { body: { items: [{ title: 'Bulk fetch 1' }, { title: 'Bulk fetch 2', content: null }] } satisfies Schemas['blog.notes.CreateManyInput'] });
  const updatedMany = await client.PATCH('/api/notes', { body: { where: { title: { startsWith: 'Bulk fetch' } }, data: { content: 'bulk' } } satisfies Schemas['blog.notes.UpdateManyInput'] });
  const upserted = await client.PUT('/api/notes/{id}', { params: { path: { id: 'upserted-by-fetch' } }, body: { title: 'Upserted' } });
  const etag = upserted.response.headers.get('etag') ?? '';
  const upsertedAgain = await client.PUT('/api/notes/{id}', { params: { path: { id: 'upserted-by-fetch' }, header: { 'If-Match': etag } }, body: { title: 'Upserted again' } });
  const stale = await client.PATCH('/api/notes/{id}', { params: { path: { id: 'upserted-by-fetch' }, header: { 'If-Match': etag } }, body: { content: 'too late' } });
  const deletedMany = await client.POST('/api/notes/delete', { body: { where: { title: { startsWith: 'Bulk fetch' } } } satisfies Schemas['blog.notes.DeleteManyInput'] });
${PROGRAM_RESULT}}
`;

/** @hey-api/openapi-ts's SDK: the same calls; the bearer token goes through its generated security. */
const HEY_API_PROGRAM = `import { client } from './hey-api/client.gen';
import {
  blogNotesCount,
  blogNotesCreate,
  blogNotesCreateMany,
  blogNotesDelete,
  blogNotesDeleteMany,
  blogNotesExists,
  blogNotesFindOne,
  blogNotesGet,
  blogNotesList,
  blogNotesUpdate,
  blogNotesUpdateMany,
  blogNotesUpsert,
  blogTasksCount,
  blogTasksCreate,
  blogTasksList,
  blogUsersList,
} from './hey-api/sdk.gen';

export async function runHeyApi(baseUrl: string, bobToken: string) {
  client.setConfig({ baseUrl });
  const created = await blogNotesCreate({ body: { title: 'From hey-api', content: 'first' } });
  if (created.data === undefined) throw new Error('create failed');
  const id: string = created.data.id;
  const listed = await blogNotesList({ body: { where: { title: { contains: 'hey-api' } } } });
  const got = await blogNotesGet({ path: { id }, query: { select: ['title', 'content'] } });
  const patched = await blogNotesUpdate({ path: { id }, body: { content: 'patched' } });
  const counted = await blogNotesCount({ body: { where: { title: { eq: 'From hey-api' } } } });
  const exists = await blogNotesExists({ body: {} });
  const found = await blogNotesFindOne({ body: { where: { title: { startsWith: 'From' } }, orderBy: [{ field: 'title' }] } });
  const first = await blogNotesList({ body: { where: { title: { contains: 'hey-api' } }, limit: 1, cursor: true } });
  const paged = await blogNotesList({ body: { where: { title: { contains: 'hey-api' } }, limit: 1, cursor: first.data?.nextCursor ?? true } });
  const deleted = await blogNotesDelete({ path: { id } });
  const task = await blogTasksCreate({ body: { title: 'Typed task' }, auth: bobToken });
  const page = await blogTasksList({ body: { limit: 5, includeTotal: true, include: { owner: true } }, auth: bobToken });
  const filtered = await blogTasksCount({ body: { where: { owner: { isNot: { name: { eq: 'Nobody' } } } } }, auth: bobToken });
  const users = await blogUsersList({ body: { include: { tasks: { where: { title: { contains: 'Typed' } }, orderBy: [{ field: 'title', direction: 'desc' }], limit: 5 } } }, auth: bobToken });
  const createdMany = await blogNotesCreateMany({ body: { items: [{ title: 'Bulk hey 1' }, { title: 'Bulk hey 2', content: null }] } });
  const updatedMany = await blogNotesUpdateMany({ body: { where: { title: { startsWith: 'Bulk hey' } }, data: { content: 'bulk' } } });
  const upserted = await blogNotesUpsert({ path: { id: 'upserted-by-hey-api' }, body: { title: 'Upserted' } });
  const etag = upserted.response.headers.get('etag') ?? '';
  const upsertedAgain = await blogNotesUpsert({ path: { id: 'upserted-by-hey-api' }, headers: { 'If-Match': etag }, body: { title: 'Upserted again' } });
  const stale = await blogNotesUpdate({ path: { id: 'upserted-by-hey-api' }, headers: { 'If-Match': etag }, body: { content: 'too late' } });
  const deletedMany = await blogNotesDeleteMany({ body: { where: { title: { startsWith: 'Bulk hey' } } } });
${PROGRAM_RESULT}}
`;

const MAIN_PROGRAM = `import { runHeyApi } from './hey-api-program';
import { runOpenapiFetch } from './openapi-fetch-program';

const [baseUrl, aliceToken, bobToken] = process.argv.slice(2);
void (async () => {
  const openapiFetch = await runOpenapiFetch(baseUrl, aliceToken);
  const heyApi = await runHeyApi(baseUrl, bobToken);
  process.stdout.write(JSON.stringify({ openapiFetch, heyApi }));
})();
`;

/**
 * Calls the types must refuse, one per line, each marked with the field tsc must name. openapi-fetch infers
 * its request options generically, so TypeScript makes no excess-property check on them (openapi-typescript
 * issue 2329): a body is checked for unknown keys when it is typed with the document's schema, as the docs
 * show (`satisfies`). A value outside an enum (a hidden field in `select`) is refused either way.
 */
const REFUSED_PROGRAM = `import createClient from 'openapi-fetch';
import type { components, paths } from './openapi-typescript/schema';
import { blogNotesCreate, blogNotesCreateMany, blogNotesDeleteMany, blogNotesGet, blogNotesList, blogNotesUpdateMany, blogNotesUpsert, blogTasksList, blogUsersList } from './hey-api/sdk.gen';

type Schemas = components['schemas'];

export async function refused(baseUrl: string) {
  const client = createClient<paths>({ baseUrl });
  await client.POST('/api/notes', { body: { title: 'x', titel: 'typo' } satisfies Schemas['blog.notes.CreateInput'] }); // refuses: titel
  await client.POST('/api/notes', { body: { title: 'x', internal: 'hidden' } satisfies Schemas['blog.notes.CreateInput'] }); // refuses: internal
  await client.POST('/api/notes/query', { body: { where: { internal: { eq: 'x' } } } satisfies Schemas['blog.notes.ListInput'] }); // refuses: internal
  await client.GET('/api/notes/{id}', { params: { path: { id: '1' }, query: { select: ['internal'] } } }); // refuses: internal
  await blogNotesCreate({ body: { title: 'x', titel: 'typo' } }); // refuses: titel
  await blogNotesCreate({ body: { title: 'x', internal: 'hidden' } }); // refuses: internal
  await blogNotesList({ body: { where: { internal: { eq: 'x' } } } }); // refuses: internal
  await blogNotesGet({ path: { id: '1' }, query: { select: ['internal'] } }); // refuses: internal
  // CONTRACT §10's writes in bulk: the same checks of every item, of where and data, and of upsert's body.
  await client.POST('/api/notes/bulk', { body: { items: [{ title: 'x' }, { title: 'y', titel: 'typo' }] } satisfies Schemas['blog.notes.CreateManyInput'] }); // refuses: titel
  await client.PATCH('/api/notes', { body: { where: { internal: { eq: 'x' } }, data: { title: 'x' } } satisfies Schemas['blog.notes.UpdateManyInput'] }); // refuses: internal
  await client.POST('/api/notes/delete', { body: { where: { internal: { eq: 'x' } } } satisfies Schemas['blog.notes.DeleteManyInput'] }); // refuses: internal
  await client.PUT('/api/notes/{id}', { params: { path: { id: '1' } }, body: { content: 'no title' } }); // refuses: title
  await blogNotesCreateMany({ body: { items: [{ title: 'x' }, { title: 'y', titel: 'typo' }] } }); // refuses: titel
  await blogNotesUpdateMany({ body: { where: { title: { eq: 'x' } }, data: { internal: 'hidden' } } }); // refuses: internal
  await blogNotesDeleteMany({ body: { where: { internal: { eq: 'x' } } } }); // refuses: internal
  await blogNotesUpsert({ path: { id: '1' }, body: { content: 'no title' } }); // refuses: title
  // CONTRACT §9: through a relation, the related resource's where and the relation's own operators.
  await client.POST('/api/tasks/query', { body: { where: { owner: { is: { nme: { eq: 'x' } } } } } satisfies Schemas['blog.tasks.ListInput'] }); // refuses: nme
  await client.POST('/api/tasks/query', { body: { where: { owner: { some: { name: { eq: 'x' } } } } } satisfies Schemas['blog.tasks.ListInput'] }); // refuses: some
  await client.POST('/api/users/query', { body: { include: { tasks: { where: { titel: { eq: 'x' } } } } } satisfies Schemas['blog.users.ListInput'] }); // refuses: titel
  await client.POST('/api/tasks/query', { body: { include: { owner: { orderBy: [{ field: 'name' }] } } } satisfies Schemas['blog.tasks.ListInput'] }); // refuses: orderBy
  await blogTasksList({ body: { where: { owner: { is: { nme: { eq: 'x' } } } } } }); // refuses: nme
  await blogUsersList({ body: { include: { tasks: { where: { titel: { eq: 'x' } } } } } }); // refuses: titel
}
`;

interface TscResult {
  ok: boolean;
  /** `file(line,col): error TS…: message` lines. */
  errors: string[];
}

function typeCheck(folder: string, files: string[]): TscResult {
  const project = path.join(folder, 'tsconfig.json');
  fs.writeFileSync(project, JSON.stringify({ compilerOptions: COMPILER_OPTIONS, files }, null, 2));
  try {
    execFileSync(process.execPath, [TSC, '-p', project, '--pretty', 'false'], { cwd: folder, encoding: 'utf8', stdio: 'pipe' });
    return { ok: true, errors: [] };
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout ?? '';
    return { ok: false, errors: stdout.split('\n').filter((line) => line.includes(': error TS')) };
  }
}

describe('clients generated from the OpenAPI document with default options', () => {
  let folder: string;
  let cli: RunningCli;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-generated-clients-'));
    // The generated code and the programs resolve openapi-fetch and tsx as an application would.
    fs.symlinkSync(NODE_MODULES, path.join(folder, 'node_modules'), 'dir');
    cli = await startCli(['start', 'fixtures/blog/app.ts', '--port', String(await freePort())], { BLOG_DATABASE: undefined });
    const document = await (await fetch(`${cli.url}/openapi.json`)).text();
    fs.writeFileSync(path.join(folder, 'openapi.json'), document);

    // `npx openapi-typescript openapi.json -o schema.d.ts` and `npx @hey-api/openapi-ts -i openapi.json -o hey-api`.
    execFileSync(process.execPath, [OPENAPI_TYPESCRIPT, 'openapi.json', '-o', 'openapi-typescript/schema.d.ts'], { cwd: folder, stdio: 'pipe' });
    execFileSync(process.execPath, [HEY_API, '-i', 'openapi.json', '-o', 'hey-api'], { cwd: folder, stdio: 'pipe' });
    fs.writeFileSync(path.join(folder, 'openapi-fetch-program.ts'), OPENAPI_FETCH_PROGRAM);
    fs.writeFileSync(path.join(folder, 'hey-api-program.ts'), HEY_API_PROGRAM);
    fs.writeFileSync(path.join(folder, 'main.ts'), MAIN_PROGRAM);
    fs.writeFileSync(path.join(folder, 'refused.ts'), REFUSED_PROGRAM);
  }, GENERATION_TIMEOUT_MS);

  afterAll(async () => {
    await cli?.stop();
    if (folder !== undefined) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('leaves the optional list inputs optional: openapi-typescript types limit, offset and includeTotal with `?`', () => {
    const schema = fs.readFileSync(path.join(folder, 'openapi-typescript/schema.d.ts'), 'utf8');
    const listInput = schema.slice(schema.indexOf('"blog.notes.ListInput": {'));
    for (const property of ['limit', 'offset', 'includeTotal', 'select', 'where', 'orderBy']) expect(listInput).toMatch(new RegExp(`\\n\\s+${property}\\?: `));
    expect(listInput).toMatch(/\n\s+direction\?: "asc" \| "desc";/);
  });

  it('type-checks a program calling every action through both clients under tsc --strict', () => {
    const result = typeCheck(folder, ['main.ts', 'openapi-fetch-program.ts', 'hey-api-program.ts']);
    expect(result.errors).toEqual([]);
  }, GENERATION_TIMEOUT_MS);

  it('runs that program against the live server: every call answers as the contract says', async () => {
    const output = execFileSync(process.execPath, [TSX, 'main.ts', cli.url, await demoToken('alice'), await demoToken('bob')], { cwd: folder, encoding: 'utf8', stdio: 'pipe', timeout: GENERATION_TIMEOUT_MS });
    const { openapiFetch, heyApi } = JSON.parse(output);
    // CONTRACT §10: upsert creates (201), then updates with the current ETag (200); that ETag is then stale (412).
    const bulk = { updatedMany: 2, upserted: [201, 'Upserted'], upsertedAgain: [200, 'Upserted again'], stale: [412, 'PRECONDITION_FAILED'], deletedMany: 2 };
    const common = { patched: 'patched', counted: 1, exists: true, deleted: true, total: 1, nextCursor: null, filtered: 1, includedTasks: ['Typed task'], ...bulk };
    expect(openapiFetch).toEqual({
      ...common,
      created: { id: expect.any(String), title: 'From openapi-fetch', content: 'first' },
      listed: ['From openapi-fetch'],
      got: { title: 'From openapi-fetch', content: 'first' },
      found: 'From openapi-fetch',
      task: 'alice',
      owner: 'Alice',
      createdMany: ['Bulk fetch 1', 'Bulk fetch 2'],
    });
    expect(heyApi).toEqual({
      ...common,
      created: { id: expect.any(String), title: 'From hey-api', content: 'first' },
      listed: ['From hey-api'],
      got: { title: 'From hey-api', content: 'first' }, // the selected fields (not the id)
      found: 'From hey-api',
      task: 'bob',
      owner: 'Bob',
      createdMany: ['Bulk hey 1', 'Bulk hey 2'],
    });
  }, GENERATION_TIMEOUT_MS);

  it('refuses at compile time a call with an unknown field or a hidden field, and tsc names the field', () => {
    const result = typeCheck(folder, ['refused.ts']);
    expect(result.ok).toBe(false);
    const lines = REFUSED_PROGRAM.split('\n');
    const marked = lines.map((line, index) => ({ line: index + 1, field: /\/\/ refuses: (\w+)$/.exec(line)?.[1] })).filter((entry) => entry.field !== undefined);
    expect(marked).toHaveLength(22);
    for (const { line, field } of marked) {
      const errors = result.errors.filter((error) => error.startsWith(`refused.ts(${line},`));
      expect({ line, field, named: errors.some((error) => error.includes(field!)) }).toEqual({ line, field, named: true });
    }
    // Nothing else in the file is an error.
    const unmarked = result.errors.filter((error) => !marked.some(({ line }) => error.startsWith(`refused.ts(${line},`)));
    expect(unmarked).toEqual([]);
  }, GENERATION_TIMEOUT_MS);
});
