// Issue 27: which servers answer INSERT … RETURNING, read from `select version()` once per client.
import { mariadbReturns } from '../../../runtime/dialects/mariadb-returning';

describe('mariadbReturns', () => {
  it('is true from MariaDB 10.5 on, as the server reports its version', () => {
    expect(mariadbReturns('10.5.0-MariaDB')).toBe(true);
    expect(mariadbReturns('10.11.19-MariaDB-0+deb12u1')).toBe(true);
    expect(mariadbReturns('11.4.2-MariaDB-ubu2404')).toBe(true);
    expect(mariadbReturns('5.5.5-10.11.6-MariaDB')).toBe(false); // the replication prefix: not the server's own version
  });

  it('is false before 10.5 and on MySQL, which has no RETURNING', () => {
    expect(mariadbReturns('10.4.34-MariaDB')).toBe(false);
    expect(mariadbReturns('8.0.36')).toBe(false);
    expect(mariadbReturns('8.4.0-commercial')).toBe(false);
    expect(mariadbReturns('')).toBe(false);
  });
});
