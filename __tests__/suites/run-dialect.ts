// The parity matrix for one dialect, in one jest file (the suites share the test tables): every suite runs
// once per handler mode (CONTRACT §5: generic, compiled at construction, built bundle), then one test
// proves that every HTTP request got byte for byte the same response in the three modes.
// Run once, in the generic handler's run, because no HTTP handler is involved: the in-process client's
// cases (forEachClient), the in-process scope-as-SQL case (access suite), in-process calls beside route
// scopes (route-scope suite) and the setup errors suite.
import { BuiltBundle } from '../helpers/bundle-loader';
import type { DialectName } from '../helpers/databases';
import { expectSameResponses, ResponseRecording } from '../helpers/response-recording';
import type { SuiteRun } from '../helpers/suite-fixture';
import { HANDLER_MODES, type HandlerMode } from '../helpers/test-app';
import { accessSuite } from './access.suite';
import { badInputSuite } from './bad-input.suite';
import { bulkWritesSuite } from './bulk-writes.suite';
import { concurrencySuite } from './concurrency.suite';
import { crudActionsSuite } from './crud-actions.suite';
import { cursorPagesSuite } from './cursor-pages.suite';
import { queriesSuite } from './queries.suite';
import { routeScopeSuite } from './route-scope.suite';
import { scrubRowsSuite } from './scrub-rows.suite';
import { setupErrorsSuite } from './setup-errors.suite';
import { storageSafetySuite } from './storage-safety.suite';
import { transportSuite } from './transport.suite';
import { valueTypesSuite } from './value-types.suite';
import { writtenRowsSuite } from './written-rows.suite';

const MODE_TITLES: Record<HandlerMode, string> = {
  generic: 'with the generic handler (compiler: false)',
  compiled: 'with handlers compiled at construction (compiler: true)',
  bundle: 'with a built bundle (compilation)',
};

export function runDialectSuites(dialect: DialectName): void {
  describe(`on ${dialect}`, () => {
    const recordings: ResponseRecording[] = [];

    for (const mode of HANDLER_MODES) {
      const recording = new ResponseRecording(mode, MODE_TITLES[mode]);
      recordings.push(recording);
      describe(MODE_TITLES[mode], () => {
        const run: SuiteRun = { dialect, mode, recording, bundle: mode === 'bundle' ? new BuiltBundle() : null };
        afterAll(() => run.bundle?.remove());
        crudActionsSuite(run);
        queriesSuite(run);
        accessSuite(run);
        routeScopeSuite(run);
        scrubRowsSuite(run);
        badInputSuite(run);
        storageSafetySuite(run);
        transportSuite(run);
        valueTypesSuite(run);
        writtenRowsSuite(run);
        bulkWritesSuite(run);
        concurrencySuite(run);
        cursorPagesSuite(run);
        if (run.mode === 'generic') setupErrorsSuite(dialect);
      });
    }

    describe('handler modes', () => {
      it('answers every HTTP request of the suites byte for byte the same: status, content type and body', () => {
        expectSameResponses(recordings);
      });
    });
  });
}
