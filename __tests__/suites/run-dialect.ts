// The suites that run once per dialect, in this order, in one jest file (they share the test tables).
import type { DialectName } from '../helpers/databases';
import { accessSuite } from './access.suite';
import { badInputSuite } from './bad-input.suite';
import { crudActionsSuite } from './crud-actions.suite';
import { queriesSuite } from './queries.suite';
import { setupErrorsSuite } from './setup-errors.suite';
import { storageSafetySuite } from './storage-safety.suite';
import { transportSuite } from './transport.suite';
import { valueTypesSuite } from './value-types.suite';

export function runDialectSuites(dialect: DialectName): void {
  describe(`on ${dialect}`, () => {
    crudActionsSuite(dialect);
    queriesSuite(dialect);
    accessSuite(dialect);
    badInputSuite(dialect);
    storageSafetySuite(dialect);
    transportSuite(dialect);
    valueTypesSuite(dialect);
    setupErrorsSuite(dialect);
  });
}
