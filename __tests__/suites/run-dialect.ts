// The suites that run once per dialect, in this order, in one jest file (they share the test tables).
import type { DialectName } from '../helpers/databases';
import { crudSuite } from './crud.suite';

export function runDialectSuites(dialect: DialectName): void {
  describe(`on ${dialect}`, () => {
    crudSuite(dialect);
  });
}
