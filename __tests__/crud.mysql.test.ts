// Every crud suite against mysql. The same suites run against each dialect; none is skipped.
import { runDialectSuites } from './suites/run-dialect';

runDialectSuites('mysql');
