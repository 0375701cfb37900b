// Compile-time checks that a field policy and an `id` follow the column's type as the runtime does: text operators on
// text columns only, `update` never on the primary key (both setup errors at run time), and `id` in the key's JSON
// form. Each `@ts-expect-error` is a refusal (policy-types.test.ts).
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { bigint as pgBigint, pgTable, pgEnum, text as pgText, uuid, varchar } from 'drizzle-orm/pg-core';
import { blob, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { crud, defineService, type FieldPolicies } from 'tessera-api';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

export const items = sqliteTable('items', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  code: text('code', { enum: ['a', 'b'] }),
  stock: integer('stock').notNull(),
  big: blob('big', { mode: 'bigint' }),
});
export const codes = sqliteTable('codes', { code: text('code').primaryKey(), label: text('label') });
export const ledger = sqliteTable('ledger', { id: blob('id', { mode: 'bigint' }).primaryKey(), amount: integer('amount') });

const db = drizzle(new Database(':memory:'));
const service = defineService({ name: 'column_rules', db });
const itemsResource = () => service.resource({ name: 'items', table: items, id: items.id });

export function policies() {
  return [
    itemsResource().use(crud({ access: 'public', fields: { name: { filter: ['contains', 'startsWith', 'endsWith', 'eq'] }, code: { filter: ['contains'] } } })),
    itemsResource().use(crud({ access: 'public', fields: { stock: { filter: ['eq', 'gt', 'between', 'in', 'isNull'] }, id: { read: true, update: false } } })),
    // @ts-expect-error contains needs a text column: stock is an integer
    itemsResource().use(crud({ access: 'public', fields: { stock: { filter: ['eq', 'contains'] } } })),
    // @ts-expect-error startsWith needs a text column: big is a bigint blob
    itemsResource().use(crud({ access: 'public', fields: { big: { filter: ['startsWith'] } } })),
    // @ts-expect-error the primary key must not be updatable
    itemsResource().use(crud({ access: 'public', fields: { id: { read: true, update: true } } })),
  ];
}

// PostgreSQL's text and varchar take the text operators; uuid and enum columns do not (column-schema.ts isStringColumn).
const mood = pgEnum('mood', ['ok', 'sad']);
const people = pgTable('people', { id: uuid('id').primaryKey(), name: pgText('name'), nick: varchar('nick', { length: 20 }), mood: mood('mood'), points: pgBigint('points', { mode: 'bigint' }) });
type PeoplePolicies = FieldPolicies<typeof people, unknown>;
export const pgPolicies: PeoplePolicies[] = [
  { name: { filter: ['contains'] }, nick: { filter: ['endsWith'] }, mood: { filter: ['eq', 'in'] }, id: { filter: ['eq'] } },
  // @ts-expect-error a uuid column is not text
  { id: { filter: ['contains'] } },
  // @ts-expect-error an enum column is not text
  { mood: { filter: ['startsWith'] } },
  // @ts-expect-error a bigint column is not text
  { points: { filter: ['contains'] } },
];

export async function ids() {
  const itemsApi = itemsResource().use(crud({ access: 'public', fields: { id: { read: true } } }));
  const codesApi = service.resource({ name: 'codes', table: codes, id: codes.code }).use(crud({ access: 'public', fields: { code: { read: true } } }));
  const ledgerApi = service.resource({ name: 'ledger', table: ledger, id: ledger.id }).use(crud({ access: 'public', fields: { id: { read: true } } }));
  type IdOf<TGet extends (call: { input: { id: any } }) => unknown> = Parameters<TGet>[0]['input']['id'];
  return [
    // An integer key is a number, a text key a string, a bigint key its decimal string (as rows carry it).
    true as Expect<Equal<IdOf<typeof itemsApi.get>, number>>,
    true as Expect<Equal<IdOf<typeof codesApi.get>, string>>,
    true as Expect<Equal<IdOf<typeof ledgerApi.get>, string>>,
    itemsApi.delete({ input: { id: 1 } }),
    ledgerApi.delete({ input: { id: '9007199254740993' } }),
    // @ts-expect-error an integer key is a number
    itemsApi.get({ input: { id: '1' } }),
    // @ts-expect-error a text key is a string
    codesApi.delete({ input: { id: 1 } }),
    // @ts-expect-error a bigint key travels as its decimal string, never a bigint
    ledgerApi.get({ input: { id: 1n } }),
  ];
}
