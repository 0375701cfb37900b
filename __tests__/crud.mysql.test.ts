// Every crud suite against mysql, in each handler mode (generic, compiled, bundle), then their byte-for-byte
// parity; no dialect or mode is skipped (run-dialect.ts lists what runs once, in the generic run).
import { runDialectSuites } from './suites/run-dialect';

runDialectSuites('mysql');
