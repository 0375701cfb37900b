// The canonical table of crud actions (CONTRACT §2, and the opt-in ones of §10): name, HTTP route, success status and input, in contract order.
// The generic handler, the compiler, the server and the services route all read this one table.

export const CRUD_ACTION_NAMES = ['list', 'get', 'findOne', 'create', 'update', 'delete', 'count', 'exists', 'createMany', 'updateMany', 'deleteMany', 'upsert'] as const;
export type CrudActionName = (typeof CRUD_ACTION_NAMES)[number];

/** CONTRACT §10: the writes in bulk and upsert, off unless `operations` names them. */
export const OPT_IN_ACTIONS = ['createMany', 'updateMany', 'deleteMany', 'upsert'] as const satisfies readonly CrudActionName[];
export type OptInActionName = (typeof OPT_IN_ACTIONS)[number];

export function isOptIn(action: CrudActionName): action is OptInActionName {
  return (OPT_IN_ACTIONS as readonly string[]).includes(action);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where an action's input comes from in an HTTP request. */
export type HttpInputSource = 'body' | 'id-and-select' | 'id-and-body' | 'id';

export interface CrudActionSpec {
  readonly name: CrudActionName;
  readonly method: HttpMethod;
  /** Path below `${prefix}/<resource>`; `:id` is the row identifier. */
  readonly path: string;
  readonly status: 200 | 201;
  readonly input: HttpInputSource;
  /** Whether the input may be omitted altogether (`resource.list()`, a POST without a body): it is then `{}`. */
  readonly isInputOptional: boolean;
}

export const CRUD_ACTIONS: readonly CrudActionSpec[] = Object.freeze([
  { name: 'list', method: 'POST', path: '/query', status: 200, input: 'body', isInputOptional: true },
  { name: 'get', method: 'GET', path: '/:id', status: 200, input: 'id-and-select', isInputOptional: false },
  { name: 'findOne', method: 'POST', path: '/find-one', status: 200, input: 'body', isInputOptional: true },
  { name: 'create', method: 'POST', path: '', status: 201, input: 'body', isInputOptional: false },
  { name: 'update', method: 'PATCH', path: '/:id', status: 200, input: 'id-and-body', isInputOptional: false },
  { name: 'delete', method: 'DELETE', path: '/:id', status: 200, input: 'id', isInputOptional: false },
  { name: 'count', method: 'POST', path: '/count', status: 200, input: 'body', isInputOptional: true },
  { name: 'exists', method: 'POST', path: '/exists', status: 200, input: 'body', isInputOptional: true },
  { name: 'createMany', method: 'POST', path: '/bulk', status: 201, input: 'body', isInputOptional: false },
  { name: 'updateMany', method: 'PATCH', path: '', status: 200, input: 'body', isInputOptional: false },
  { name: 'deleteMany', method: 'POST', path: '/delete', status: 200, input: 'body', isInputOptional: false },
  // 200 when the row existed and was updated, 201 when it was created (response-meta.ts).
  { name: 'upsert', method: 'PUT', path: '/:id', status: 200, input: 'id-and-body', isInputOptional: false },
] as const);

const SPECS = Object.fromEntries(CRUD_ACTIONS.map((spec) => [spec.name, spec])) as Readonly<Record<CrudActionName, CrudActionSpec>>;

/** The row of CRUD_ACTIONS for an action. */
export function crudActionSpec(name: CrudActionName): CrudActionSpec {
  return SPECS[name];
}

/** Actions whose path names a row. */
export function takesId(spec: CrudActionSpec): boolean {
  return spec.input !== 'body';
}
