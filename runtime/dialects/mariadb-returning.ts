// Whether a mysql2 client's server is MariaDB 10.5 or later, which answers INSERT … RETURNING (one round trip per
// create): asked once per client with `select version()`, kept for the client's life.
import { untraced } from './mysql-client';

/** What each client's server answers, learnt once: whether it is MariaDB 10.5 or later (INSERT … RETURNING). */
const returningByClient = new WeakMap<object, boolean | Promise<boolean>>();

/** `10.11.19-MariaDB-0+deb12u1` → true; `8.0.36` (MySQL) → false. */
export function mariadbReturns(version: string): boolean {
  const match = /^(\d+)\.(\d+)\..*mariadb/i.exec(version);
  return match !== null && (Number(match[1]) > 10 || (Number(match[1]) === 10 && Number(match[2]) >= 5));
}

/**
 * Whether the client's server answers INSERT … RETURNING: asked once (`select version()`), the answer kept for the
 * client's life. Until it is known, and when the question fails (the server unreachable: asked again next time),
 * writes read their row back as MySQL's must.
 */
export function insertReturnsOn(client: object): boolean | Promise<boolean> {
  const known = returningByClient.get(client);
  if (known !== undefined) return known;
  const asking = untraced(client)
    .query({ sql: 'select version()', rowsAsArray: true }, [])
    .then(
      ([rows]) => {
        const answer = mariadbReturns(String((rows as unknown[][])[0]?.[0] ?? ''));
        returningByClient.set(client, answer);
        return answer;
      },
      () => {
        returningByClient.delete(client);
        return false;
      },
    );
  returningByClient.set(client, asking);
  return asking;
}
