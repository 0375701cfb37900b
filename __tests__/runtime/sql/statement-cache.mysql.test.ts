// The prepared statement cache suite (spec §8) against mysql; the same suite runs on every dialect, none skipped.
import { statementCacheSuite } from './statement-cache.suite';

statementCacheSuite('mysql');
