// Issue 18's plan check against sqlite; the same suite runs on every dialect, none skipped.
import { orderByPlansSuite } from './order-by-plans.suite';

orderByPlansSuite('sqlite');
