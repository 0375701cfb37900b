// ajv's standalone code for a resource's validation document, compiled once per distinct document: resources whose
// fields have the same types and policies have the same document, and compiling it was most of what generating a
// resource's module cost (issue 16). The text depends only on the document and the exports asked for (a fresh ajv
// each time), so reusing it, in this process or from the disk cache of an earlier one, changes no output. It is written
// one statement per line (issue 31): a policy change shows in review as the lines of the validators that changed.
import type { ValidationDocument } from '../../runtime/model/resource-validators';
import { createAjv } from '../../runtime/validation';
import { standaloneModuleCode } from './standalone-code';
import { defaultCacheFolder, ValidatorSourceCache } from './validator-source-cache';

/** Part of the cache key: the text differs with it. */
const LINE_BREAKS = true;

const sources = new Map<string, string>();
let diskCache: ValidatorSourceCache | null = null;

/** `exports`: export name → ref into the document; the text sets `exports.<name>` for each, one statement per line. */
export function standaloneValidatorSource(
  document: ValidationDocument,
  exports: Readonly<Record<string, string>>,
  cache: ValidatorSourceCache = (diskCache ??= new ValidatorSourceCache(defaultCacheFolder())),
): string {
  const key = JSON.stringify([document.schema, exports, LINE_BREAKS]);
  let source = sources.get(key) ?? cache.read(key);
  if (source === null) {
    const ajv = createAjv({ standalone: true, lineBreaks: LINE_BREAKS });
    ajv.addSchema(document.schema);
    // ajv's own generator writes this text from the schemas, only when the cache has no text.
    source = standaloneModuleCode(ajv, exports);
    cache.write(key, source);
  }
  sources.set(key, source);
  return source;
}
