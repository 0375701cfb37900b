// Runs the fuzz property against one database: `runs` hostile requests (fuzz-requests.ts), each answer
// checked (fuzz-target.ts), the tables reset every RESET_EVERY cases so they stay small. Answers the
// counts by status and error code; throws fast-check's report (seed, path, shrunk request) on a failure.
import fc from 'fast-check';
import type { DialectName } from '../helpers/databases';
import { fuzzRequest } from './fuzz-requests';
import { FuzzTarget } from './fuzz-target';
import { limitRequest } from './limit-requests';

const RESET_EVERY = 500;

export interface FuzzCounts {
  dialect: DialectName;
  cases: number;
  byStatus: Record<string, number>;
  byCode: Record<string, number>;
  /** Requests at (or one past) each documented limit. */
  edges: Record<string, number>;
  seconds: number;
}

export async function runFuzz(dialect: DialectName, runs: number, seed?: number): Promise<FuzzCounts> {
  const target = new FuzzTarget(dialect);
  const counts: FuzzCounts = { dialect, cases: 0, byStatus: {}, byCode: {}, edges: {}, seconds: 0 };
  const started = Date.now();
  await target.open();
  try {
    // One case in 30 sits at a limit of the served document, or just past it.
    const requests = fc.oneof({ weight: 29, arbitrary: fuzzRequest }, { weight: 1, arbitrary: limitRequest(target.document) });
    const property = fc.asyncProperty(requests, async (request) => {
      if (counts.cases > 0 && counts.cases % RESET_EVERY === 0) await target.reset();
      counts.cases++;
      const answer = await target.send(request);
      counts.byStatus[answer.status] = (counts.byStatus[answer.status] ?? 0) + 1;
      if (answer.status >= 400) {
        const code = /"code":"([A-Z_]+)"/.exec(answer.text)?.[1] ?? '(none)';
        counts.byCode[code] = (counts.byCode[code] ?? 0) + 1;
      }
      const problem = await target.problemWith(request, answer);
      if (problem !== null) throw new Error(`${problem}\nrequest: ${request.method} ${request.path} as ${request.user} (${request.mode}), content-type ${request.contentType}, headers ${JSON.stringify(request.headers ?? {}).slice(0, 200)}, body ${request.body?.toString('utf8').slice(0, 300)}`);
      if (request.edge !== undefined) counts.edges[request.edge] = (counts.edges[request.edge] ?? 0) + 1;
    });
    await fc.assert(property, { numRuns: runs, seed, interruptAfterTimeLimit: undefined });
  } finally {
    await target.close();
  }
  counts.seconds = (Date.now() - started) / 1000;
  return counts;
}

/** Runs per database: TESSERA_FUZZ_RUNS, or `fallback`. */
export function fuzzRuns(fallback: number): number {
  const text = process.env.TESSERA_FUZZ_RUNS;
  if (text === undefined || text === '') return fallback;
  if (!/^[1-9][0-9]*$/.test(text)) throw new Error(`TESSERA_FUZZ_RUNS must be a positive integer, got ${JSON.stringify(text)}`);
  return Number(text);
}
