// The bundle's client.ts: it type-checks under strict settings with or without Node's types, its types
// refuse what the server refuses (an unknown field), and it works against a running bundle.
import fs from 'node:fs';
import path from 'node:path';
import { emitClient } from '../../generator/emit/client';
import type { ContractAction } from '../../generator/emit/contract';
import { build, startBundle, temporaryFolder } from '../helpers/bundles';
import { typeCheckClient } from '../helpers/client-tsc';
import { freePort } from '../helpers/free-port';
import type { RunningCli } from '../helpers/spawn-cli';

/** Typed use of the client; the @ts-expect-error lines fail the compile if the types stop refusing them. */
const USAGE = `import { createClient, TesseraClientError, type BundleNotesCreate } from './client';

export async function use(): Promise<string> {
  const client = createClient({ baseUrl: 'http://localhost:4000', headers: () => ({ authorization: 'Bearer t' }) });
  const created: BundleNotesCreate.Output = await client.bundle.notes.create({ title: 'x', content: null });
  const page = await client.bundle.notes.list({ where: { title: { contains: 'x' } }, orderBy: [{ field: 'title', direction: 'desc' }] });
  const echoed = await client.bundle.echo({ text: 'hi' });
  // Rows carry every readable field unless select names some: then exactly those (issue 31).
  const title: string = page.items[0].title;
  const titles = await client.bundle.notes.list({ select: ['title'] });
  const one = await client.bundle.notes.findOne({ select: ['id'] });
  const id: number | undefined = one?.id;
  // @ts-expect-error select left content out of the rows
  void titles.items[0].content;
  // @ts-expect-error select names readable fields only
  await client.bundle.notes.get({ id: 1, select: ['secret'] });
  // @ts-expect-error field \`titel\` is not writable
  await client.bundle.notes.create({ titel: 'x' });
  // @ts-expect-error content cannot be filtered
  await client.bundle.notes.count({ where: { content: { eq: 'x' } } });
  // @ts-expect-error update takes { id, data }
  await client.bundle.notes.update({ id: 1, title: 'x' });
  try {
    await client.bundle.notes.get({ id: created.id });
  } catch (error) {
    if (error instanceof TesseraClientError && error.code === 'NOT_FOUND') return 'missing';
  }
  return created.title + page.items.length + echoed.text + title + titles.items[0].title + id;
}
`;

describe('the generated client.ts', () => {
  const folder = temporaryFolder('client');
  let out: string;
  let server: RunningCli;

  beforeAll(async () => {
    out = path.join(folder.path, 'dist');
    await build('__tests__/bin/entries/bundle-sqlite.ts', out);
    fs.writeFileSync(path.join(out, 'usage.ts'), USAGE);
    server = await startBundle(out, { PORT: String(await freePort()) });
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('type-checks under strict settings with Node types and with no ambient types at all', () => {
    const files = [path.join(out, 'client.ts'), path.join(out, 'usage.ts')];
    expect(() => typeCheckClient(folder.path, files, 'node')).not.toThrow();
    expect(() => typeCheckClient(folder.path, files, 'bare')).not.toThrow();
  }, 60_000);

  it('fails to type-check a call the types refuse', () => {
    fs.writeFileSync(path.join(out, 'misuse.ts'), "import { createClient } from './client';\nvoid createClient({ baseUrl: '' }).bundle.notes.create({ titel: 'x' });\n");
    expect(() => typeCheckClient(folder.path, [path.join(out, 'misuse.ts')], 'bare')).toThrow(/titel/);
  }, 60_000);

  it('calls every kind of action against a running bundle and throws TesseraClientError with the error body', async () => {
    const { createClient, TesseraClientError } = require(path.join(out, 'client.ts'));
    const client = createClient({ baseUrl: `${server.url}/` });

    const created = await client.bundle.notes.create({ title: 'from the client' });
    expect(created).toEqual({ id: expect.any(Number), title: 'from the client', content: null });
    expect(await client.bundle.notes.list()).toEqual({ items: [created] });
    expect(await client.bundle.notes.get({ id: created.id, select: ['title'] })).toEqual({ title: 'from the client' });
    expect(await client.bundle.notes.findOne({ where: { title: { eq: 'from the client' } } })).toEqual(created);
    expect(await client.bundle.notes.update({ id: created.id, data: { content: 'text' } })).toEqual({ ...created, content: 'text' });
    expect(await client.bundle.notes.count({})).toEqual({ count: 1 });
    expect(await client.bundle.notes.exists()).toEqual({ exists: true });
    expect(await client.bundle.echo({ text: 'hi' })).toEqual({ text: 'hi' });
    expect(await client.bundle.notes.delete({ id: created.id })).toEqual({ success: true });

    const missing = await client.bundle.notes.get({ id: created.id }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(TesseraClientError);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const invalid = await client.bundle.notes.create({ title: 'x', internal: 'no' }).catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [{ path: '/internal', message: expect.any(String) }] });
  });
});

describe('client.ts for names that give the same type words', () => {
  const folder = temporaryFolder('client-names');
  const action = (name: string, input: Record<string, unknown>): ContractAction => {
    const path = `/api/blog/${name}`;
    return { name, service: 'blog', method: 'POST', path, status: 200, httpInput: 'body', input, output: { type: 'object', properties: { n: { type: 'integer' } } } };
  };

  it('numbers the second namespace and $defs that would shadow Array or Record, so the file type-checks', () => {
    const strings = { type: 'object', properties: { list: { type: 'array', items: { type: 'string' } } }, $defs: { Array: { type: 'string' }, Record: { type: 'integer' } } };
    const actions = [action('notes-list', strings), action('notesList', { type: 'object', properties: {}, additionalProperties: false })];
    const text = emitClient({ title: 'Names', version: '1.0.0', actions }, 'Generated by a test.');
    expect(text).toContain('export namespace BlogNotesList {');
    expect(text).toContain("'notes-list': (input) => call<BlogNotesList.Output>(");
    expect(text).toContain('export namespace BlogNotesList2 {');
    expect(text).toContain('notesList: (input) => call<BlogNotesList2.Output>(');
    fs.writeFileSync(path.join(folder.path, 'client.ts'), text);
    expect(() => typeCheckClient(folder.path, [path.join(folder.path, 'client.ts')], 'bare')).not.toThrow();
  }, 60_000);
});

describe('client.ts types shared within a resource', () => {
  const folder = temporaryFolder('client-shared');
  const where = { type: 'object', properties: { title: { $ref: '#/$defs/Condition' } }, additionalProperties: false };
  const condition = { type: 'object', properties: { eq: { type: 'string' } }, additionalProperties: false };
  const whereInput = { type: 'object', properties: { where: { $ref: '#/$defs/Where' } }, $defs: { Where: where, Condition: condition } };
  const counted = { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] };
  const action = (name: string, input: Record<string, unknown>): ContractAction => ({ name, service: 'blog', method: 'POST', path: `/api/${name}`, status: 200, httpInput: 'body', input, output: counted });

  it('writes a definition once per resource and lets the other actions name it, never across resources or custom actions', () => {
    const actions = [action('notes.count', whereInput), action('notes.exists', whereInput), action('tasks.count', whereInput), action('tally', whereInput)];
    const text = emitClient({ title: 'Shared', version: '1.0.0', actions }, 'Generated by a test.');
    expect(text).toContain('export type Where = BlogNotesCount.Where;');
    expect(text).toContain('export type Input = BlogNotesCount.Input;');
    // tasks is another resource and tally a custom action: each writes its own.
    expect(text.match(/export type Where = \{/g)).toHaveLength(3);
    fs.writeFileSync(path.join(folder.path, 'client.ts'), text);
    fs.writeFileSync(path.join(folder.path, 'usage.ts'), "import type { BlogNotesExists } from './client';\n// @ts-expect-error ne is not an operator of title\nexport const refused: BlogNotesExists.Input = { where: { title: { ne: 'x' } } };\n");
    expect(() => typeCheckClient(folder.path, [path.join(folder.path, 'client.ts'), path.join(folder.path, 'usage.ts')], 'bare')).not.toThrow();
  }, 60_000);
});
