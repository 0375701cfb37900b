// fast-check arbitraries of requests at every limit the OpenAPI document publishes, and one past it (issue 32):
// `maxItems` of AND / OR, in / notIn and orderBy, `maximum` of limit, and the where's request-wide totals and depth
// (x-tessera-where-limits). The limits are read from the served document, so a limit the document states but the
// server does not hold (or the database refuses first) fails the property: at the edge a request must be answered,
// past it 400 VALIDATION_ERROR.
import fc from 'fast-check';
import type { FuzzRequest } from './fuzz-requests';

type Schema = Record<string, any>;

/** A simple value a schema takes, or undefined when the schema is not simple enough to satisfy blindly. */
function simpleValue(schema: Schema | undefined): unknown {
  if (schema === undefined || schema.format !== undefined || schema.enum !== undefined || schema.pattern !== undefined) return undefined;
  const type = Array.isArray(schema.type) ? schema.type.find((each: string) => each !== 'null') : schema.type;
  // Distinct values of a list are `v0` … `v65000`: up to 6 characters.
  if (type === 'string') return (schema.minLength ?? 0) <= 1 && (schema.maxLength ?? 8) >= 8 ? 'x' : undefined;
  if (type === 'integer' || type === 'number') return (schema.minimum ?? 1) <= 1 && (schema.maximum ?? 1) >= 1 ? 1 : undefined;
  if (type === 'boolean') return true;
  return undefined;
}

interface Edge {
  label: string;
  path: string;
  /** The body at the limit (`past` false) or one past it. */
  body(past: boolean): unknown;
}

const chunks = <T>(items: readonly T[], size: number): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));

/** The edges of one resource's list input, from its components. */
function resourceEdges(schemas: Record<string, Schema>, label: string, listPath: string): Edge[] {
  const ref = (schema: Schema) => schemas[String(schema.$ref).replace('#/components/schemas/', '')];
  const where = schemas[`${label}.Where`];
  const listInput = schemas[`${label}.ListInput`];
  if (where === undefined || listInput === undefined) return [];
  const edges: Edge[] = [];
  const add = (name: string, body: (past: boolean) => unknown) => edges.push({ label: `${label} ${name}`, path: listPath, body });
  const conditions = Object.entries(where.properties as Record<string, Schema>).filter(([key]) => !['AND', 'OR', 'NOT'].includes(key)).map(([field, schema]) => [field, ref(schema)] as const);
  const eq = conditions.map(([field, condition]) => [field, simpleValue(condition?.properties?.eq)] as const).find(([, value]) => value !== undefined);
  const inList = conditions.map(([field, condition]) => [field, condition?.properties?.in] as const).find(([, schema]) => schema !== undefined && simpleValue(schema.items) !== undefined);
  const limits = where['x-tessera-where-limits'] as { maxDepth: number; maxConditions: number; maxValues: number };
  const listOf = (count: number) => Array.from({ length: count }, () => ({ [eq![0]]: { eq: eq![1] } }));

  if (eq !== undefined) {
    for (const junction of ['AND', 'OR'] as const) {
      const maxItems = where.properties[junction].maxItems as number;
      add(`${junction} maxItems ${maxItems}`, (past) => ({ where: { [junction]: listOf(maxItems + (past ? 1 : 0)) } }));
    }
    const perArray = where.properties.OR.maxItems as number;
    add(`conditions ${limits.maxConditions}`, (past) => ({ where: { AND: chunks(listOf(limits.maxConditions + (past ? 1 : 0)), perArray).map((items) => ({ OR: items })) } }));
    add(`depth ${limits.maxDepth}`, (past) => {
      let tree: unknown = { [eq[0]]: { eq: eq[1] } };
      for (let level = 0; level < limits.maxDepth + (past ? 1 : 0); level++) tree = { NOT: tree };
      return { where: tree };
    });
  }
  if (inList !== undefined) {
    const [field, schema] = inList;
    const value = simpleValue(schema.items);
    const values = (count: number) => Array.from({ length: count }, (_, index) => (typeof value === 'string' ? `v${index}` : value === true ? true : index));
    add(`in maxItems ${schema.maxItems}`, (past) => ({ where: { [field]: { in: values(schema.maxItems + (past ? 1 : 0)) } } }));
    add(`values ${limits.maxValues}`, (past) => ({ where: { AND: chunks(values(limits.maxValues + (past ? 1 : 0)), schema.maxItems).map((items) => ({ [field]: { in: items } })) } }));
  }
  const orderBy = listInput.properties.orderBy;
  const sortable: string[] = orderBy?.items?.properties?.field?.enum ?? [];
  if (orderBy?.maxItems !== undefined && sortable.length >= orderBy.maxItems) {
    add(`orderBy maxItems ${orderBy.maxItems}`, (past) => ({ orderBy: [...sortable.slice(0, orderBy.maxItems), ...(past ? [sortable[0]] : [])].map((field) => ({ field })) }));
  }
  const limit = listInput.properties.limit;
  if (limit?.maximum !== undefined) add(`limit maximum ${limit.maximum}`, (past) => ({ limit: limit.maximum + (past ? 1 : 0) }));
  return edges;
}

/** Every edge of every resource whose list route the document has. */
export function documentEdges(document: Schema): Edge[] {
  const edges: Edge[] = [];
  for (const [path, operations] of Object.entries(document.paths as Record<string, Schema>)) {
    const operationId: string | undefined = operations.post?.operationId;
    if (operationId?.endsWith('.list') !== true) continue;
    edges.push(...resourceEdges(document.components.schemas, operationId.slice(0, -'.list'.length), path));
  }
  return edges;
}

/** A request at an edge of the document's limits, or one past it, with what its answer must be. */
export function limitRequest(document: Schema): fc.Arbitrary<FuzzRequest> {
  const edges = documentEdges(document);
  if (edges.length === 0) throw new Error('the OpenAPI document publishes no limit the fuzz can push');
  return fc.record({ edge: fc.constantFrom(...edges), past: fc.boolean(), mode: fc.constantFrom<FuzzRequest['mode']>('generic', 'compiled') }).map(({ edge, past, mode }) => ({
    mode,
    method: 'POST',
    path: edge.path,
    user: 'alice',
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify(edge.body(past))),
    wide: true,
    expect: past ? 'rejected' : 'accepted',
    edge: `${edge.label}${past ? ' + 1' : ''}`,
  }));
}
