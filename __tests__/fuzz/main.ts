// `npm run fuzz`: the fuzz property with 100,000 requests per database (TESSERA_FUZZ_RUNS to change it;
// TESSERA_FUZZ_DIALECTS=sqlite,postgres to choose), printing the counts by status and error code.
// Uses TESSERA_TEST_MYSQL_URL / TESSERA_TEST_POSTGRES_URL as the test suites do.
import { DIALECTS, type DialectName } from '../helpers/databases';
import { fuzzRuns, runFuzz, type FuzzCounts } from './run-fuzz';

function format(counts: FuzzCounts): string {
  const byStatus = Object.entries(counts.byStatus).map(([status, count]) => `${status}: ${count}`).join(', ');
  const byCode = Object.entries(counts.byCode).sort(([, a], [, b]) => b - a).map(([code, count]) => `${code} ${count}`).join(', ');
  const rate = Math.round(counts.cases / counts.seconds);
  const edges = Object.values(counts.edges).reduce((sum, count) => sum + count, 0);
  return `${counts.dialect}: ${counts.cases} cases in ${counts.seconds.toFixed(0)} s (${rate}/s); 5xx 0, leaks 0, malformed errors 0, rows changed by rejected requests 0\n  statuses ${byStatus}\n  codes ${byCode}\n  at or one past ${Object.keys(counts.edges).length} documented limits: ${edges} cases (${Object.keys(counts.edges).sort().join(", ")})`;
}

async function main(): Promise<void> {
  const runs = fuzzRuns(100_000);
  const chosen = (process.env.TESSERA_FUZZ_DIALECTS?.split(',') ?? DIALECTS) as DialectName[];
  for (const dialect of chosen) {
    process.stdout.write(`fuzz: ${dialect}, ${runs} cases…\n`);
    process.stdout.write(`${format(await runFuzz(dialect, runs))}\n`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const cause = error instanceof Error && error.cause instanceof Error ? `\n${error.cause.message}` : '';
    process.stderr.write(`fuzz: ${error instanceof Error ? error.message : String(error)}${cause}\n`);
    process.exit(1);
  },
);
