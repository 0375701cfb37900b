// Records every HTTP response the suites receive in one handler mode (status, content type and the exact
// body text, in order), so one test can prove that the modes answer byte for byte the same (CONTRACT §5).

export interface RecordedResponse {
  /** The test's full name without its mode's describe title, then the request's number within the test. */
  readonly request: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

export class ResponseRecording {
  readonly responses: RecordedResponse[] = [];
  #requestsPerTest = new Map<string, number>();

  /** `modeTitle` is the describe title the mode's tests run under: it is left out of the keys. */
  constructor(
    readonly mode: string,
    readonly modeTitle: string,
  ) {}

  /** Names the next request of the running test; call it when the request is sent. */
  nextRequest(): string {
    const fullName = expect.getState().currentTestName ?? '(outside a test)';
    const test = fullName.replace(` ${this.modeTitle} `, ' ');
    const number = (this.#requestsPerTest.get(test) ?? 0) + 1;
    this.#requestsPerTest.set(test, number);
    return `${test} · request ${number}`;
  }

  add(request: string, response: { status: number; headers: Headers }, body: string): void {
    this.responses.push({ request, status: response.status, contentType: response.headers.get('content-type') ?? '', body });
  }
}

/** 120 characters of `body` around `at`. */
function clip(body: string, at: number): string {
  const start = Math.max(0, at - 60);
  return (start > 0 ? '…' : '') + body.slice(start, at + 60) + (at + 60 < body.length ? '…' : '');
}

/** The body around its first difference from `other`, so a long body still shows where it differs. */
function excerpt(body: string, other: string): string {
  if (body === other) return `${clip(body, 0)} (${body.length} chars, same body)`;
  let at = 0;
  while (at < body.length && body[at] === other[at]) at++;
  return `${clip(body, at)} (${body.length} chars, first difference at ${at})`;
}

function describeResponse(response: RecordedResponse | undefined, other: RecordedResponse | undefined): string {
  if (response === undefined) return 'no such request';
  return `${response.status} ${response.contentType} ${excerpt(response.body, other?.body ?? '')}`;
}

/** The first request whose response differs between the two recordings, or null when they are identical. */
export function firstDifference(expected: ResponseRecording, actual: ResponseRecording): string | null {
  const length = Math.max(expected.responses.length, actual.responses.length);
  for (let index = 0; index < length; index++) {
    const want = expected.responses[index];
    const got = actual.responses[index];
    const same = want !== undefined && got !== undefined && want.request === got.request && want.status === got.status && want.contentType === got.contentType && want.body === got.body;
    if (same) continue;
    return [
      `response ${index + 1} of ${length} differs between ${expected.mode} and ${actual.mode}:`,
      `  ${expected.mode}: ${want?.request ?? '(none)'}`,
      `    ${describeResponse(want, got)}`,
      `  ${actual.mode}: ${got?.request ?? '(none)'}`,
      `    ${describeResponse(got, want)}`,
    ].join('\n');
  }
  return null;
}

/** Every recording holds the same responses as the first, byte for byte; none is empty. */
export function expectSameResponses(recordings: readonly ResponseRecording[]): void {
  const [reference, ...others] = recordings;
  for (const recording of recordings) {
    if (recording.responses.length === 0) throw new Error(`no HTTP response was recorded in ${recording.mode} mode: run the whole file (a -t filter skips the suites)`);
  }
  for (const other of others) {
    const difference = firstDifference(reference, other);
    if (difference !== null) throw new Error(difference); // thrown as is: a long body reads better than in a matcher's quotes
  }
}
