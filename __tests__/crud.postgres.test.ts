// Every crud suite against postgres. The same suites run against each dialect; none is skipped.
import { runDialectSuites } from './suites/run-dialect';

runDialectSuites('postgres');
