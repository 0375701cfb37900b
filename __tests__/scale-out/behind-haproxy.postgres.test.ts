// The scale-out scenario on PostgreSQL, through PgBouncer in transaction mode (behind-haproxy.suite.ts).
import { behindHaproxySuite } from './behind-haproxy.suite';

behindHaproxySuite('postgres');
