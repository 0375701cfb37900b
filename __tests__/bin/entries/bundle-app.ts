// The application the bundle tests build on every dialect: a public notes resource whose fixed
// statements are prepared (no scope, no application defaults) and a custom action with an input schema.
import { crud, defineService, type ServerOptions } from 'tessera-api';

/** Declares service `bundle` over `db`, with the `b_notes` table of the entry's dialect. */
export function defineBundleApp(db: any, notes: any): ServerOptions {
  const bundle = defineService({ name: 'bundle', db });
  bundle.resource({ name: 'notes', table: notes, id: notes.id }).use(
    crud({
      access: 'public',
      fields: {
        id: { read: true, filter: ['eq', 'in'], sort: true },
        title: { read: true, create: true, update: true, filter: ['eq', 'contains'], sort: true },
        content: { read: true, create: true, update: true },
      },
    }),
  );
  bundle.action('echo', {
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    handler: ({ input }) => ({ text: input.text as string }),
  });
  return { title: 'Bundle test', requestLogging: false };
}
