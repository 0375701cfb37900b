// CONTRACT §10's cursor pages against sqlite: the keyset plan and paging while rows come and go; the same suites run on every dialect.
import { cursorChurnSuite } from './cursor-churn.suite';
import { cursorPlansSuite } from './cursor-plans.suite';

cursorPlansSuite('sqlite');
cursorChurnSuite('sqlite');
