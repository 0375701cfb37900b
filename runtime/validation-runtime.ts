// The package entry `tessera-api/validation-runtime`: what validators compiled ahead of time (ajv standalone code)
// require at run time, ajv's runtime helpers and ajv-formats' formats, reached through Tessera so that a bundle
// names no path inside ajv's folder, which a strict layout (pnpm) does not show to the application (issue 28).
import * as equal from 'ajv/dist/runtime/equal';
import * as ucs2length from 'ajv/dist/runtime/ucs2length';
import * as uri from 'ajv/dist/runtime/uri';
import * as validation_error from 'ajv/dist/runtime/validation_error';
import { fullFormats as ajvFullFormats } from 'ajv-formats/dist/formats';
import type { FormatDefinition } from 'ajv';

// ajv's helper modules, each under the name of its file in ajv/dist/runtime: generated code reads
// `require("tessera-api/validation-runtime").ucs2length.default` where ajv wrote
// `require("ajv/dist/runtime/ucs2length").default` (generator/emit/standalone-code.ts). The JSON Schema helpers
// only: Tessera's ajv is Ajv2020, which emits neither the JTD ones (parseJson, quote, timestamp) nor re2.
export { equal, ucs2length, uri, validation_error };

/** 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the instants every database stores in a date column. */
const FIRST_INSTANT = -62_135_596_800_000;
const LAST_INSTANT = 253_402_300_799_999;

const rfc3339DateTime = ajvFullFormats['date-time'] as FormatDefinition<string>;

/**
 * RFC 3339's date-time (ajv-formats'), narrowed to what a date column takes: an instant a Date holds (not the leap
 * second 23:59:60, which Date cannot represent) within years 1 to 9999 once the offset is applied (PostgreSQL has no
 * year 0, and past 9999 there is no RFC 3339 form to answer it in). A value outside is refused by validation, naming
 * its field, where it would fail in the database (or, on SQLite, be stored as what it cannot be read back as).
 */
export const storedDateTime: FormatDefinition<string> = {
  validate: (text: string) => {
    if (!(rfc3339DateTime.validate as (text: string) => boolean)(text)) return false;
    const instant = Date.parse(text);
    return instant >= FIRST_INSTANT && instant <= LAST_INSTANT;
  },
  compare: rfc3339DateTime.compare,
};

/** ajv-formats' formats, with the date-time every validator (compiled now or ahead of time) checks dates by. */
export const fullFormats = { ...ajvFullFormats, 'date-time': storedDateTime };
