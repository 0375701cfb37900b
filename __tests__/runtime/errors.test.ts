// The error table of CONTRACT §4: TesseraError takes its status from it, and docs/errors.md documents
// exactly its codes (both directions, so neither can drift).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, TesseraError } from 'tessera-api';

describe('TesseraError', () => {
  it('takes its status from the error table', () => {
    for (const [code, status] of Object.entries(ERROR_CODES)) {
      expect(new TesseraError(code as keyof typeof ERROR_CODES).status).toBe(status);
    }
  });

  it('serializes as { error: { code, message, details? } }', () => {
    expect(JSON.parse(JSON.stringify(new TesseraError('NOT_FOUND', 'gone')))).toEqual({ error: { code: 'NOT_FOUND', message: 'gone' } });
    const details = [{ path: '/title', message: 'title is required' }];
    expect(new TesseraError('VALIDATION_ERROR', 'bad', details).toJSON()).toEqual({ error: { code: 'VALIDATION_ERROR', message: 'bad', details } });
  });

  it('refuses a code that is not in the table', () => {
    expect(() => new TesseraError('TEAPOT' as never)).toThrow(/unknown TesseraError code/);
  });
});

describe('the error table of docs/errors.md', () => {
  it('lists exactly the codes and statuses of ERROR_CODES', () => {
    const section = readFileSync(join(__dirname, '../../docs/errors.md'), 'utf8');
    const rows = [...section.matchAll(/^\| ([A-Z_]+) \| (\d{3}) \|/gm)].map(([, code, status]) => [code, Number(status)]);
    expect(rows).toEqual(Object.entries(ERROR_CODES));
  });
});
