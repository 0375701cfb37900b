// The OpenAPI document against a real server on mysql: the test application's documented examples and refusals.
import { testAppConformanceSuite } from '../suites/openapi-conformance.suite';

testAppConformanceSuite('mysql');
