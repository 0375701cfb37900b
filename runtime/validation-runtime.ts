// The package entry `tessera-api/validation-runtime`: what validators compiled ahead of time (ajv standalone code)
// require at run time, ajv's runtime helpers and ajv-formats' formats, reached through Tessera so that a bundle
// names no path inside ajv's folder, which a strict layout (pnpm) does not show to the application (issue 28).
import * as equal from 'ajv/dist/runtime/equal';
import * as ucs2length from 'ajv/dist/runtime/ucs2length';
import * as uri from 'ajv/dist/runtime/uri';
import * as validation_error from 'ajv/dist/runtime/validation_error';
import { fullFormats } from 'ajv-formats/dist/formats';

// ajv's helper modules, each under the name of its file in ajv/dist/runtime: generated code reads
// `require("tessera-api/validation-runtime").ucs2length.default` where ajv wrote
// `require("ajv/dist/runtime/ucs2length").default` (generator/emit/standalone-code.ts). The JSON Schema helpers
// only: Tessera's ajv is Ajv2020, which emits neither the JTD ones (parseJson, quote, timestamp) nor re2.
export { equal, ucs2length, uri, validation_error, fullFormats };
