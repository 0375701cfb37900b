{{header}}
// A typed client of the API, emitted from contract.json: one method per action, nested by service, then
// action name (client.blog.notes.list), typed from the actions' JSON Schemas. A non-2xx answer
// throws TesseraClientError with the server's { code, message, details }.

/** Any fetch: the global fetch of Node 18+ and browsers fits. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{ status: number; text(): Promise<string>; headers?: { get(name: string): string | null } }>;

export interface ClientOptions {
  /** The server's root URL, such as `http://localhost:4000`. */
  baseUrl: string;
  /** Default: the global fetch. */
  fetch?: FetchLike;
  /** Sent with every request (for example `authorization`); a function is called per request. */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
}

/** The error codes of CONTRACT §4. */
{{errorCodes}}

/** A non-2xx answer. `code` is UNEXPECTED_RESPONSE when the body is not Tessera's error JSON (a proxy's page). */
export class TesseraClientError extends Error {
  readonly status: number;
  /** NOT_MODIFIED: the 304 of a get sent with `ifNoneMatch`, so the row the caller holds is still current. */
  readonly code: ErrorCode | 'UNEXPECTED_RESPONSE' | 'NOT_MODIFIED';
  /** VALIDATION_ERROR: `{ path, message }[]`, path a JSON Pointer into the input. */
  readonly details: unknown;

  constructor(status: number, code: ErrorCode | 'UNEXPECTED_RESPONSE' | 'NOT_MODIFIED', message: string, details?: unknown) {
    super(message);
    this.name = 'TesseraClientError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** How an action's input travels (contract.json `httpInput`). */
type HttpInput = 'body' | 'id-and-select' | 'id-and-body' | 'id';

type Call = <T>(method: string, path: string, httpInput: HttpInput, input: unknown) => Promise<T>;

/** The ETags of rows answered whole, by the row object the client returned (etagOf). */
const etags = new WeakMap<object, string>();

/** The ETag of a row answered whole (get, create, update, upsert), for `ifMatch`; else undefined. As `etagOf` in-process. */
export function etagOf(row: unknown): string | undefined {
  return typeof row === 'object' && row !== null ? etags.get(row) : undefined;
}

/** get's query string: `select` and `include` as the route takes them (`?select=a,b&include=author`). */
function queryOf(select: string[] | undefined, include: Record<string, unknown> | undefined): string {
  const parts: string[] = [];
  if (select !== undefined) parts.push(`select=${select.map(encodeURIComponent).join(',')}`);
  if (include !== undefined) {
    const names = Object.keys(include).filter((relation) => include[relation] !== undefined);
    // CONTRACT §9: over GET an include names relations, each read with its defaults; list and findOne take options.
    if (names.some((relation) => include[relation] !== true)) throw new TypeError('get takes include as relation names set to true; list and findOne take include options');
    if (names.length > 0) parts.push(`include=${names.map(encodeURIComponent).join(',')}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/** The path with `{id}` filled in and the JSON body, from the action's in-process input. */
function requestOf(path: string, httpInput: HttpInput, input: unknown): { path: string; body: unknown } {
  if (httpInput === 'body') return { path, body: input };
  const { id, select, include, data } = input as { id: string | number; select?: string[]; include?: Record<string, unknown>; data?: unknown };
  const withId = path.replace('{id}', encodeURIComponent(String(id)));
  if (httpInput === 'id-and-body') return { path: withId, body: data };
  if (httpInput === 'id-and-select') return { path: withId + queryOf(select, include), body: undefined };
  return { path: withId, body: undefined };
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorOf(status: number, body: unknown): TesseraClientError {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (error === undefined || typeof error.code !== 'string' || typeof error.message !== 'string') {
    return new TesseraClientError(status, 'UNEXPECTED_RESPONSE', `HTTP ${status} without a Tessera error body`);
  }
  return new TesseraClientError(status, error.code as ErrorCode, error.message, error.details);
}

function createCall(options: ClientOptions): Call {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  return async function call<T>(method: string, path: string, httpInput: HttpInput, input: unknown): Promise<T> {
    const fetchImpl = options.fetch ?? (globalThis as { fetch?: FetchLike }).fetch;
    if (fetchImpl === undefined) throw new Error('no global fetch: pass createClient({ fetch })');
    const request = requestOf(path, httpInput, input);
    const extra = typeof options.headers === 'function' ? await options.headers() : options.headers;
    const headers: Record<string, string> = { accept: 'application/json', ...extra };
    // A conditional write's `ifMatch` travels as If-Match (update, delete, upsert).
    const { ifMatch, ifNoneMatch } = (input ?? {}) as { ifMatch?: unknown; ifNoneMatch?: unknown };
    if (httpInput !== 'body' && typeof ifMatch === 'string') headers['if-match'] = ifMatch;
    // A conditional get's `ifNoneMatch` travels as If-None-Match: 304 when the row is unchanged.
    if (httpInput === 'id-and-select' && typeof ifNoneMatch === 'string') headers['if-none-match'] = ifNoneMatch;
    const init: { method: string; headers: Record<string, string>; body?: string } = { method, headers };
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(request.body);
    }
    const response = await fetchImpl(baseUrl + request.path, init);
    const body = parseJson(await response.text());
    if (response.status === 304) throw new TesseraClientError(304, 'NOT_MODIFIED', 'not modified: the row is unchanged since the ETag in ifNoneMatch');
    if (response.status < 200 || response.status > 299) throw errorOf(response.status, body);
    // CONTRACT §10: a row answered whole carries its ETag (not a row narrowed by select).
    const etag = response.headers?.get('etag') ?? null;
    if (etag !== null && typeof body === 'object' && body !== null) etags.set(body, etag);
    return body as T;
  };
}

{{types}}

{{clientInterface}}

/** A client of every action: `createClient({ baseUrl: 'http://localhost:4000' }).blog.notes.list()`. */
export function createClient(options: ClientOptions): Client {
  const call = createCall(options);
  {{clientObject}}
}
