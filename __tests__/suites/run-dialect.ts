// The suites that run once per dialect, in this order, in one jest file (they share the test tables).
import type { DialectName } from '../helpers/databases';
import { badInputSuite } from './bad-input.suite';
import { crudSuite } from './crud.suite';
import { setupErrorsSuite } from './setup-errors.suite';

export function runDialectSuites(dialect: DialectName): void {
  describe(`on ${dialect}`, () => {
    crudSuite(dialect);
    badInputSuite(dialect);
    setupErrorsSuite(dialect);
  });
}
