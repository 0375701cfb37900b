// The scale-out scenario on MariaDB (behind-haproxy.suite.ts).
import { behindHaproxySuite } from './behind-haproxy.suite';

behindHaproxySuite('mysql');
