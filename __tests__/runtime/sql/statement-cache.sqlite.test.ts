// The prepared statement cache suite (spec §8) against sqlite; the same suite runs on every dialect, none skipped.
import { statementCacheSuite } from './statement-cache.suite';

statementCacheSuite('sqlite');
