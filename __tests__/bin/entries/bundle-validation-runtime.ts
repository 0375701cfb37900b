// Bundle test entry whose generated validators need ajv's run-time helpers (maxLength counts code points with
// ucs2length, uniqueItems compares with equal): its modules require tessera-api/validation-runtime.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { defineService, type ServerOptions } from 'tessera-api';

const tools = defineService({ name: 'tools', db: drizzle(new Database(':memory:')) });
tools.action('label', {
  input: {
    type: 'object',
    properties: { text: { type: 'string', maxLength: 8 }, tags: { type: 'array', uniqueItems: true, items: { type: 'object' } } },
    required: ['text'],
    additionalProperties: false,
  },
  output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  handler: ({ input }) => ({ text: input.text as string }),
});

export default { title: 'Validation runtime', requestLogging: false } satisfies ServerOptions;
