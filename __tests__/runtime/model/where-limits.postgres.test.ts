// Issue 32's where limits on postgres; the same suite runs on every dialect, none skipped.
import { whereLimitsSuite } from './where-limits.suite';

whereLimitsSuite('postgres');
