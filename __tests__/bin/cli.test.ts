// `tessera start` as a user runs it: a child process, its exit code and its stderr line.
import { spawnCli } from '../helpers/spawn-cli';

const EMPTY_ENTRY = '__tests__/bin/entries/empty.ts';
const THROWING_ENTRY = '__tests__/bin/entries/throws.ts';
const CLI_TIMEOUT_MS = 20_000;

function stderrLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '');
}

describe('tessera start', () => {
  it('exits non-zero with one line naming PORT when PORT is invalid', async () => {
    const result = await spawnCli(['start', EMPTY_ENTRY], { PORT: 'abc' });
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([
      'tessera: invalid PORT "abc": expected an integer from 1 to 65535',
    ]);
    expect(result.stdout).toBe('');
  }, CLI_TIMEOUT_MS);

  it('exits non-zero with one line naming --port when --port is invalid, even with a valid PORT', async () => {
    const result = await spawnCli(['start', EMPTY_ENTRY, '--port', '0'], { PORT: '4000' });
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([
      'tessera: invalid --port "0": expected an integer from 1 to 65535',
    ]);
  }, CLI_TIMEOUT_MS);

  it('exits non-zero with one line when the entry does not exist', async () => {
    const result = await spawnCli(['start', '__tests__/bin/entries/missing.ts']);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual(['tessera: entry not found: __tests__/bin/entries/missing.ts']);
  }, CLI_TIMEOUT_MS);

  it('exits non-zero with one line carrying the error of an entry that throws', async () => {
    const result = await spawnCli(['start', THROWING_ENTRY]);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([
      `tessera: entry ${THROWING_ENTRY} failed to load: database settings are missing`,
    ]);
  }, CLI_TIMEOUT_MS);

  it('prints the stack and its cause only under DEBUG=tessera', async () => {
    const result = await spawnCli(['start', THROWING_ENTRY], { DEBUG: 'express,tessera' });
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)[0]).toBe(
      `tessera: entry ${THROWING_ENTRY} failed to load: database settings are missing`,
    );
    expect(result.stderr).toContain('Caused by: Error: database settings are missing');
    expect(result.stderr).toContain('throws.ts:');
  }, CLI_TIMEOUT_MS);

  it('exits non-zero with one line when the entry registers no service', async () => {
    const result = await spawnCli(['start', EMPTY_ENTRY]);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([
      `tessera: entry ${EMPTY_ENTRY} registered no service: call defineService(...) in it`,
    ]);
  }, CLI_TIMEOUT_MS);

  it('lists --port in its --help and exits 0', async () => {
    const result = await spawnCli(['start', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('tessera start <entry>');
    expect(result.stdout).toContain('--port');
  }, CLI_TIMEOUT_MS);
});

describe('tessera', () => {
  it('exits non-zero and lists the start command when no command is given', async () => {
    const result = await spawnCli([]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('tessera start <entry>');
  }, CLI_TIMEOUT_MS);
});
