// One HTTP request to a running test server: sends a JSON body (or a raw string), answers the status,
// the content type and the body parsed as JSON when the server said JSON, as text otherwise.

export interface RequestOptions {
  method?: string;
  /** A string is sent as is; anything else as JSON with `content-type: application/json`. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Response {
  status: number;
  contentType: string;
  /** Parsed JSON for a JSON answer, undefined for an empty one, the text otherwise. */
  body: any;
  text: string;
}

export async function request(url: string, { method = 'GET', body, headers = {} }: RequestOptions = {}): Promise<Response> {
  const sent: Record<string, string> = { ...headers };
  let payload: string | undefined;
  if (typeof body === 'string') payload = body;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    sent['content-type'] ??= 'application/json';
  }
  const answer = await fetch(url, { method, headers: sent, body: payload });
  const text = await answer.text();
  const contentType = answer.headers.get('content-type') ?? '';
  const isJson = contentType.startsWith('application/json') && text !== '';
  return { status: answer.status, contentType, body: isJson ? JSON.parse(text) : text === '' ? undefined : text, text };
}
