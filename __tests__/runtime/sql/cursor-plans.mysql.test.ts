// CONTRACT §10's keyset plan check against mysql; the same suite runs on every dialect, none skipped.
import { cursorPlansSuite } from './cursor-plans.suite';

cursorPlansSuite('mysql');
