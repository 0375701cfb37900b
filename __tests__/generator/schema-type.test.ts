// The schema → TypeScript emitter of client.ts: exact types for the shapes Tessera publishes, `unknown`
// for anything it cannot express, and identifiers and keys that cannot break the emitted code.
import { pascalCase, SchemaTypes, TypeNames } from '../../generator/emit/schema-type';

function typeOf(schema: unknown, refs: Record<string, string> = {}): string {
  return new SchemaTypes(new Map(Object.entries(refs))).typeOf(schema).toString();
}

describe('SchemaTypes', () => {
  it('maps scalar types, nullable type lists and enums', () => {
    expect(typeOf({ type: 'string', format: 'date-time' })).toBe('string');
    expect(typeOf({ type: 'integer', minimum: 0 })).toBe('number');
    expect(typeOf({ type: ['boolean', 'null'] })).toBe('boolean | null');
    expect(typeOf({ type: 'string', enum: ['asc', 'desc'] })).toBe("'asc' | 'desc'");
    expect(typeOf({ const: true })).toBe('true');
  });

  it('maps objects: required keys plain, others optional, closed unless additionalProperties allows more', () => {
    const closed = { type: 'object', properties: { id: { type: 'integer' }, 'display-name': { type: 'string' } }, required: ['id'], additionalProperties: false };
    expect(typeOf(closed)).toBe("{\nid: number;\n'display-name'?: string;\n}");
    expect(typeOf({ type: 'object', properties: { a: { type: 'string' } } })).toBe('{\na?: string;\n[key: string]: unknown;\n}');
    expect(typeOf({ type: 'object', additionalProperties: { type: 'number' } })).toBe('{\n[key: string]: number;\n}');
    expect(typeOf({ type: 'object', additionalProperties: false })).toBe('Record<string, never>');
  });

  it('maps arrays, unions, intersections and local $defs references', () => {
    expect(typeOf({ type: 'array', items: { $ref: '#/$defs/Row' } }, { Row: 'Row' })).toBe('Array<Row>');
    expect(typeOf({ anyOf: [{ $ref: '#/$defs/Row' }, { type: 'null' }] }, { Row: 'Row' })).toBe('Row | null');
    expect(typeOf({ allOf: [{ type: 'string' }, { enum: ['a', 'b'] }] })).toBe("(string) & ('a' | 'b')");
  });

  it('is honest about what it cannot express: unknown, or never for a schema nothing satisfies', () => {
    expect(typeOf({ description: 'Any JSON value' })).toBe('unknown');
    expect(typeOf(true)).toBe('unknown');
    expect(typeOf({ $ref: 'https://example.com/schema.json' })).toBe('unknown');
    expect(typeOf({ type: 'array' })).toBe('unknown[]');
    expect(typeOf({ const: { a: 1 } })).toBe('unknown');
    expect(typeOf(false)).toBe('never');
    expect(typeOf({ not: {} })).toBe('never');
  });

  it('quotes string constants so they cannot end the literal or the line', () => {
    expect(typeOf({ enum: ["it's", 'a\u2028b'] })).toBe("'it\\'s' | 'a\\u2028b'");
  });
});

describe('TypeNames', () => {
  it('derives identifiers from $defs keys and numbers the ones already taken', () => {
    const names = new TypeNames();
    expect(names.reserve('Input')).toBe('Input');
    expect(names.derive('Condition.title')).toBe('ConditionTitle');
    expect(names.derive('Condition.title_')).toBe('ConditionTitle2');
    expect(names.derive('Input')).toBe('Input2');
    expect(names.derive('2fa')).toBe('Def2fa');
    expect(names.derive('2fa.')).toBe('Def2fa2');
    expect(() => names.reserve('Input')).toThrow('type name Input is used twice');
  });

  it('never derives Array or Record, which would shadow the global types the emitted code uses', () => {
    const names = new TypeNames();
    expect(names.derive('Array')).toBe('Array2');
    expect(names.derive('record')).toBe('Record2');
  });

  it('pascalCase splits names on anything but letters and digits', () => {
    expect(pascalCase('blog.order-items.findOne')).toBe('BlogOrderItemsFindOne');
  });
});
