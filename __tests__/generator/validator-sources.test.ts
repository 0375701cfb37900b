// ajv's standalone code reused across resources and runs: the same text as a fresh compile, and a disk cache that
// a later run reads back, that a read-only or missing folder only turns off.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { standaloneModuleCode } from '../../generator/emit/standalone-code';
import { defaultCacheFolder, ValidatorSourceCache } from '../../generator/emit/validator-source-cache';
import { standaloneValidatorSource } from '../../generator/emit/validator-sources';
import { validationDocument } from '../../runtime/model/resource-validators';
import { createAjv } from '../../runtime/validation';

/** A validation document of its own per test (`field` names its one property), so no other test compiled it before. */
function documentWith(field: string) {
  const input = { type: 'object', properties: { [field]: { type: 'string' } }, additionalProperties: false };
  return validationDocument({ list: input, get: input, findOne: input, create: input, update: input, delete: input, count: input, exists: input });
}

function freshCompile(document: ReturnType<typeof documentWith>, exports: Record<string, string>): string {
  // One statement per line, as validators modules hold it (issue 31).
  const ajv = createAjv({ standalone: true, lineBreaks: true });
  ajv.addSchema(document.schema);
  return standaloneModuleCode(ajv, exports);
}

describe('standalone validator sources', () => {
  let folder: string;
  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-validator-cache-'));
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('gives the text a fresh ajv writes, and keeps it in the cache folder', () => {
    const document = documentWith('alpha');
    const exports = { list: document.refs.list };
    const cache = new ValidatorSourceCache(folder);
    const text = standaloneValidatorSource(document, exports, cache);
    expect(text).toBe(freshCompile(document, exports));
    expect(text.split('\n').length).toBeGreaterThan(10);
    const files = fs.readdirSync(folder);
    expect(files).toHaveLength(1);
    expect(fs.readFileSync(path.join(folder, files[0]), 'utf8')).toBe(text);
    expect(standaloneValidatorSource(documentWith('alpha'), exports, cache)).toBe(text);
  });

  it('reads what an earlier run stored under the same key, and nothing under another', () => {
    new ValidatorSourceCache(folder).write('document A', 'text A');
    const later = new ValidatorSourceCache(folder);
    expect(later.read('document A')).toBe('text A');
    expect(later.read('document B')).toBeNull();
  });

  it('keeps nothing without a folder, and a folder it cannot write only means no cache', () => {
    const none = new ValidatorSourceCache(null);
    none.write('key', 'text');
    expect(none.read('key')).toBeNull();
    const file = path.join(folder, 'a-file');
    fs.writeFileSync(file, '');
    const blocked = new ValidatorSourceCache(path.join(file, 'validators'));
    expect(() => blocked.write('key', 'text')).not.toThrow();
    expect(blocked.read('key')).toBeNull();
  });

  it('lives in the node_modules nearest the working folder, and nowhere without one', () => {
    fs.mkdirSync(path.join(folder, 'node_modules'));
    fs.mkdirSync(path.join(folder, 'src'));
    expect(defaultCacheFolder(path.join(folder, 'src'))).toBe(path.join(folder, 'node_modules', '.cache', 'tessera', 'validators'));
    expect(defaultCacheFolder('/')).toBe(fs.existsSync('/node_modules') ? path.join('/node_modules', '.cache', 'tessera', 'validators') : null);
  });
});
