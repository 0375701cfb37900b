// The canonical table of crud actions (CONTRACT §2): name, HTTP route and success status, in contract order.
// The generic handler, the server and the services route all read this one table.

export const CRUD_ACTION_NAMES = ['list', 'get', 'findOne', 'create', 'update', 'delete', 'count', 'exists'] as const;
export type CrudActionName = (typeof CRUD_ACTION_NAMES)[number];

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Where an action's input comes from in an HTTP request. */
export type HttpInputSource = 'body' | 'id-and-select' | 'id-and-body' | 'id';

export interface CrudActionSpec {
  readonly name: CrudActionName;
  readonly method: HttpMethod;
  /** Path below `${prefix}/<resource>`; `:id` is the row identifier. */
  readonly path: string;
  readonly status: 200 | 201;
  readonly input: HttpInputSource;
}

export const CRUD_ACTIONS: readonly CrudActionSpec[] = Object.freeze([
  { name: 'list', method: 'POST', path: '/query', status: 200, input: 'body' },
  { name: 'get', method: 'GET', path: '/:id', status: 200, input: 'id-and-select' },
  { name: 'findOne', method: 'POST', path: '/find-one', status: 200, input: 'body' },
  { name: 'create', method: 'POST', path: '', status: 201, input: 'body' },
  { name: 'update', method: 'PATCH', path: '/:id', status: 200, input: 'id-and-body' },
  { name: 'delete', method: 'DELETE', path: '/:id', status: 200, input: 'id' },
  { name: 'count', method: 'POST', path: '/count', status: 200, input: 'body' },
  { name: 'exists', method: 'POST', path: '/exists', status: 200, input: 'body' },
] as const);

/** Actions whose path names a row. */
export function takesId(spec: CrudActionSpec): boolean {
  return spec.input !== 'body';
}
