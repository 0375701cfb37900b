// Spec §8.1 PORT rules: precedence of --port, PORT and the fallback, and every invalid form.
import { DEFAULT_PORT, PortError, parsePort, resolvePort } from '../../bin/port';

describe('resolvePort', () => {
  it('uses an explicit --port before PORT and the fallback', () => {
    expect(resolvePort({ flag: '5001', env: '5002', fallback: 5003 })).toBe(5001);
  });

  it('uses PORT when no --port is given', () => {
    expect(resolvePort({ env: '5002', fallback: 5003 })).toBe(5002);
  });

  it('uses the fallback when neither --port nor PORT is given', () => {
    expect(resolvePort({ fallback: 5003 })).toBe(5003);
  });

  it('falls back to 4000 by default (spec §8)', () => {
    expect(DEFAULT_PORT).toBe(4000);
    expect(resolvePort({})).toBe(4000);
  });

  it('accepts the bounds 1 and 65535', () => {
    expect(resolvePort({ flag: '1' })).toBe(1);
    expect(resolvePort({ env: '65535' })).toBe(65535);
  });

  it('accepts a numeric --port given programmatically', () => {
    expect(resolvePort({ flag: 8080 })).toBe(8080);
  });

  it('judges only the winning source: an invalid PORT is ignored when --port is given', () => {
    expect(resolvePort({ flag: '5001', env: 'abc' })).toBe(5001);
  });

  const INVALID = ['', ' 80', '80 ', '80abc', 'abc', '1e3', '0x50', '0', '65536', '-1', '+80', '3.5', '99999999999999999999'];

  it.each(INVALID)('rejects PORT %j with a one-line PortError naming PORT', (value) => {
    expect(() => resolvePort({ env: value })).toThrow(PortError);
    expect(() => resolvePort({ env: value })).toThrow(
      `invalid PORT ${JSON.stringify(value)}: expected an integer from 1 to 65535`,
    );
  });

  it.each(INVALID)('rejects --port %j with a PortError naming --port', (value) => {
    expect(() => resolvePort({ flag: value, env: '5002' })).toThrow(
      `invalid --port ${JSON.stringify(value)}: expected an integer from 1 to 65535`,
    );
  });

  it.each([0, -1, 3.5, 65536, Number.NaN])('rejects the number %p', (value) => {
    expect(() => resolvePort({ flag: value })).toThrow(PortError);
  });

  it('rejects an invalid fallback', () => {
    expect(() => resolvePort({ fallback: 0 })).toThrow('invalid fallback port "0"');
  });
});

describe('parsePort', () => {
  it('keeps a value with a newline on one line in the message', () => {
    expect(() => parsePort('80\n81', 'PORT')).toThrow('invalid PORT "80\\n81"');
  });
});
