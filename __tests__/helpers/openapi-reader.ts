// Reads an OpenAPI document the way a client generator would: its operations, their responses (following
// `$ref`s into components) and an ajv (2020-12) check of a body against a documented response schema.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export interface DocumentedOperation {
  path: string;
  method: string;
  operationId: string;
  operation: any;
}

/** Every operation, in document order. */
export function operationsOf(document: any): DocumentedOperation[] {
  const operations: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) operations.push({ path, method: method.toUpperCase(), operationId: operation.operationId, operation });
  }
  return operations;
}

/** Follows a local `$ref` (`#/components/...`) through the document. */
export function resolve(document: any, value: any): any {
  if (value === undefined || typeof value.$ref !== 'string') return value;
  const target = value.$ref
    .slice(2)
    .split('/')
    .reduce((node: any, token: string) => node?.[token.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  return resolve(document, target);
}

/** Every 2xx status an operation documents (upsert: 200 updated, 201 created). */
export function successStatuses(operation: any): number[] {
  return Object.keys(operation.responses)
    .filter((status) => /^2\d\d$/.test(status))
    .map(Number);
}

/** The one 2xx status an operation documents. */
export function successStatus(operation: any): number {
  const statuses = Object.keys(operation.responses).filter((status) => /^2\d\d$/.test(status));
  if (statuses.length !== 1) throw new Error(`${operation.operationId} documents ${statuses.length} success statuses`);
  return Number(statuses[0]);
}

/** The JSON schema of a documented response body (resolved response; the schema may still be a `$ref`). */
export function responseSchema(document: any, operation: any, status: number | 'default'): any {
  const response = resolve(document, operation.responses[String(status)]);
  return response?.content?.['application/json']?.schema;
}

/** A component schema by name. */
export function component(document: any, name: string): any {
  return document.components.schemas[name];
}

/** Validates bodies against schemas of `document` (their `$ref`s resolve inside it), as a client would. */
export function bodyValidator(document: any): (schema: any, body: unknown) => string | null {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: 'https://tessera.test/openapi.json' });
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  return (schema, body) => {
    const key = JSON.stringify(schema);
    let validate = cache.get(key);
    if (validate === undefined) {
      // Local refs (`#/components/schemas/...`) resolve against the document.
      validate = ajv.compile({ $id: `https://tessera.test/check-${cache.size}.json`, ...rebase(schema) });
      cache.set(key, validate);
    }
    return validate(body) ? null : ajv.errorsText(validate.errors);
  };
}

function rebase(schema: any): any {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: any = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `https://tessera.test/openapi.json${value}` : rebase(value);
  return copy;
}

/** Every component schema that the JSON Schema 2020-12 meta-schema refuses (the OpenAPI validator checks names and refs, not schema keywords). */
export function invalidComponentSchemas(document: any): string[] {
  const ajv = new Ajv2020({ strict: false });
  return Object.entries<any>(document.components.schemas)
    .filter(([, schema]) => !ajv.validateSchema(schema))
    .map(([name]) => name);
}
