// ajv's standalone code with its run-time requires pointed at `tessera-api/validation-runtime`: ajv writes
// `require("ajv/dist/runtime/ucs2length")`, a path into ajv's folder that a bundle's folder cannot see under a
// strict layout (pnpm), so generated code names only relative files and Tessera's own entry points (issue 28).
import type Ajv2020 from 'ajv/dist/2020';
import { VALIDATION_RUNTIME } from '../../runtime/validation';
import { BuildError } from '../errors';

/** What ajv's standalone output may require: its runtime helpers, which runtime/validation-runtime.ts re-exports. */
const AJV_HELPER = /require\("ajv\/dist\/runtime\/(equal|ucs2length|uri|validation_error)"\)/g;

/** Any require left after the rewrite, in ajv's quoting (a string inside a schema is escaped, `require(\"…`). */
const ANY_REQUIRE = /require\("([^"]*)"\)/g;

/** Rewrites ajv's helper requires; any other package ajv names (a helper added by a newer ajv) is a BuildError. */
export function portableRequires(source: string): string {
  const rewritten = source.replace(AJV_HELPER, (_match, helper: string) => `require(${JSON.stringify(VALIDATION_RUNTIME)}).${helper}`);
  for (const [, id] of rewritten.matchAll(ANY_REQUIRE)) {
    if (id !== VALIDATION_RUNTIME) throw new BuildError(`ajv's standalone code requires "${id}", which ${VALIDATION_RUNTIME} does not provide`);
  }
  return rewritten;
}

/** ajv's standalone module text for one validator or for named refs (`exports.<name>`), requires rewritten. */
export function standaloneModuleCode(ajv: Ajv2020, refsOrValidate: Parameters<typeof import('ajv/dist/standalone').default>[1]): string {
  // ajv's own generator builds this text from the schemas; it loads only when some text must be made (ajv takes 30 ms).
  const standaloneCode = (require('ajv/dist/standalone') as typeof import('ajv/dist/standalone')).default;
  return portableRequires(standaloneCode(ajv, refsOrValidate));
}
