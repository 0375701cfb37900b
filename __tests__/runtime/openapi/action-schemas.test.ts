// actionSchemas: one action's input and output JSON Schemas, usable on their own (the bundle's contract is
// built from them). A schema's verdict on an input is the action's own, and real outputs fit the output schema.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { TesseraError, type CrudActionName } from 'tessera-api';
import { actionSchemas } from '../../../runtime/openapi/action-schemas';
import type { CrudRouteSource } from '../../../runtime/route';
import { useServerTestbed } from '../../helpers/server-testbed';

function compile(schema: object) {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

/** Every `$ref` in a schema. */
function refsOf(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => (key === '$ref' && typeof child === 'string' ? [child] : refsOf(child)));
}

/** Inputs on both sides of the notes policy (filter, sort, select, limits, nesting, writes). */
const INPUTS: Partial<Record<CrudActionName, unknown[]>> = {
  list: [
    {},
    { limit: 10 },
    { limit: 11 },
    { where: { title: { contains: 'a' }, content: { isNull: true } } },
    { where: { content: { eq: 'x' } } },
    { where: { internal: { eq: 'x' } } },
    { where: { NOT: { NOT: { NOT: { NOT: { NOT: { id: { eq: 'a' } } } } } } } },
    { select: ['title'] },
    { select: ['internal'] },
    { orderBy: [{ field: 'title', direction: 'desc' }] },
    { orderBy: [{ field: 'content' }] },
    { offset: -1 },
    { colour: 'red' },
  ],
  get: [{ id: 'a' }, { id: 'a', select: ['id'] }, { id: 'a', select: [] }, {}],
  create: [{ title: 'T' }, { title: 'T', content: null }, { content: 'no title' }, { title: 'T', internal: 'x' }, { title: 5 }],
  update: [{ id: 'a', data: { title: 'T' } }, { id: 'a', data: {} }, { id: 'a', data: { id: 'b' } }, { id: 'a' }],
  delete: [{ id: 'a' }, { id: 5 }],
  count: [{}, { where: { title: { between: ['a', 'b'] } } }, { where: { title: { between: ['a'] } } }],
  exists: [{}, { where: { id: { in: [] } } }, { where: { id: { in: ['a'] } } }],
};

/** Nested six deep: JSON Schema cannot count recursion, so the where schema states the limit in words. */
const TOO_DEEP = { where: { NOT: { NOT: { NOT: { NOT: { NOT: { NOT: { id: { eq: 'a' } } } } } } } } };

describe('actionSchemas', () => {
  const testbed = useServerTestbed();

  const sourceOf = (action: CrudActionName) => testbed.service.notes.routes.find((route) => route.action === `notes.${action}`)!.source as CrudRouteSource;

  /** Whether the action itself refuses the input as VALIDATION_ERROR (a missing row is fine: validation passed). */
  async function actionAccepts(action: CrudActionName, input: unknown): Promise<boolean> {
    try {
      await (testbed.service.notes as any)[action]({ input });
      return true;
    } catch (error) {
      if (error instanceof TesseraError && error.code === 'VALIDATION_ERROR') return false;
      if (error instanceof TesseraError && error.code === 'NOT_FOUND') return true;
      throw error;
    }
  }

  it('gives each crud action an input schema whose verdict is the action’s own', async () => {
    for (const [action, inputs] of Object.entries(INPUTS) as [CrudActionName, unknown[]][]) {
      const validate = compile(actionSchemas(sourceOf(action)).input);
      const verdicts = await Promise.all(inputs.map(async (input) => ({ input, bySchema: validate(input), byAction: await actionAccepts(action, input) })));
      for (const { input, bySchema, byAction } of verdicts) expect({ action, input, accepted: bySchema }).toEqual({ action, input, accepted: byAction });
      expect(verdicts.some((verdict) => verdict.bySchema)).toBe(true);
      expect(verdicts.some((verdict) => !verdict.bySchema)).toBe(true);
    }
  });

  it('states the where depth limit, which the schema cannot count and the action enforces', async () => {
    const input = actionSchemas(sourceOf('list')).input as { $defs: Record<string, { description?: string }> };
    expect(input.$defs.Where.description).toContain('AND / OR / NOT nest at most 5 levels deep');
    expect(await actionAccepts('list', TOO_DEEP)).toBe(false);
  });

  it('keeps every reference inside the schema itself', () => {
    for (const action of ['list', 'count', 'create', 'get'] as CrudActionName[]) {
      const { input, output } = actionSchemas(sourceOf(action));
      for (const ref of [...refsOf(input), ...refsOf(output)]) expect(ref).toMatch(/^#\/\$defs\//);
      expect(JSON.stringify(input)).not.toContain('x-messages');
    }
  });

  it('gives output schemas that the actions’ real answers fit', async () => {
    const { notes } = testbed.service;
    const created = await notes.create({ input: { title: 'Hello', content: null } });
    const answers: [CrudActionName, unknown][] = [
      ['create', created],
      ['list', await notes.list({ input: { includeTotal: true } })],
      ['list', await notes.list({ input: { select: ['title'] } })],
      ['get', await notes.get({ input: { id: created.id!, select: ['id'] } })],
      ['findOne', await notes.findOne({ input: { where: { title: { eq: 'none' } } } })],
      ['findOne', await notes.findOne()],
      ['update', await notes.update({ input: { id: created.id!, data: { content: 'x' } } })],
      ['count', await notes.count()],
      ['exists', await notes.exists()],
      ['delete', await notes.delete({ input: { id: created.id! } })],
    ];
    for (const [action, answer] of answers) {
      const validate = compile(actionSchemas(sourceOf(action)).output);
      expect({ action, answer, errors: validate(answer) ? null : validate.errors }).toEqual({ action, answer, errors: null });
    }
    // and refuse what the actions never answer
    expect(compile(actionSchemas(sourceOf('create')).output)({ id: 'a', title: 'T' })).toBe(false); // create answers whole rows
    expect(compile(actionSchemas(sourceOf('get')).output)({ internal: 'x' })).toBe(false); // hidden column
  });

  it('gives a custom action its declared schemas, and any value for what it does not declare', () => {
    const [ping] = testbed.service.shop.actions;
    const schemas = actionSchemas(ping);
    expect(schemas.input).toEqual({ type: 'object', properties: { echo: { type: 'string' } }, additionalProperties: false });
    expect(compile(schemas.output)({ anything: [1, 'two'] })).toBe(true);
    expect(schemas.output).toEqual({ description: expect.stringMatching(/no output schema/) });
  });
});
