// The OpenAPI document against a real server on postgres: the test application's documented examples and refusals.
import { testAppConformanceSuite } from '../suites/openapi-conformance.suite';

testAppConformanceSuite('postgres');
