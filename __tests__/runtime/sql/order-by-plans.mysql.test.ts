// Issue 18's plan check against mysql; the same suite runs on every dialect, none skipped.
import { orderByPlansSuite } from './order-by-plans.suite';

orderByPlansSuite('mysql');
