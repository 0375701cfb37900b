// Statement keys and placeholders (spec §8 rule 1) against postgres; the same suite runs on every dialect, none skipped.
import { statementKeySuite } from './statement-key.suite';

statementKeySuite('postgres');
