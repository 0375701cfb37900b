// Every crud suite against sqlite. The same suites run against each dialect; none is skipped.
import { runDialectSuites } from './suites/run-dialect';

runDialectSuites('sqlite');
