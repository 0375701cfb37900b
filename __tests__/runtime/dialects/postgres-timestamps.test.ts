// PostgreSQL's timestamp text read back as the instant PostgreSQL itself says it is (its epoch in milliseconds), for
// the years V8's own parser misreads (below 1000, BC, past 9999), in several session time zones.
import { Pool } from 'pg';
import { dateFromTimestampText } from '../../../runtime/dialects/postgres-timestamps';

const POSTGRES_URL = process.env.TESSERA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const INSTANTS = [
  '0001-01-01 00:00:00+00',
  '0050-06-15 12:30:00.5+00',
  '0099-12-31 23:59:59.999+00',
  '0100-01-01 00:00:00+00',
  '0999-03-04 05:06:07.008+00',
  '1000-01-01 00:00:00+00',
  '1969-12-31 23:59:59.999+00',
  '2024-02-29 12:00:00.123456+00',
  '9999-12-31 23:59:59.999+00',
  '12345-06-07 08:09:10+00',
  '0001-01-01 00:00:00+00 BC',
  '0044-03-15 12:00:00+00 BC',
];

describe('PostgreSQL timestamp text', () => {
  let pool: Pool;
  beforeAll(() => {
    pool = new Pool({ connectionString: POSTGRES_URL, max: 1 });
  });
  afterAll(() => pool.end());

  it.each(['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Europe/Amsterdam'])('reads timestamptz and timestamp text as PostgreSQL does, session time zone %s', async (zone) => {
    const client = await pool.connect();
    try {
      await client.query(`SET TIME ZONE '${zone}'`);
      for (const instant of INSTANTS) {
        const { rows } = await client.query(
          `SELECT t::text AS tz, (t AT TIME ZONE 'UTC')::text AS plain, floor(extract(epoch FROM t) * 1000)::float8 AS ms FROM (SELECT $1::timestamptz AS t) s`,
          [instant],
        );
        const { tz, plain, ms } = rows[0] as { tz: string; plain: string; ms: number };
        expect([instant, tz, dateFromTimestampText(tz)?.getTime()]).toEqual([instant, tz, ms]);
        // timestamp without time zone: the wall time read as UTC, as Drizzle reads it.
        expect([instant, plain, dateFromTimestampText(plain)?.getTime()]).toEqual([instant, plain, ms]);
      }
    } finally {
      client.release();
    }
  });

  it('answers null for text of another form', () => {
    expect(['infinity', '-infinity', '2024-01-01T00:00:00Z', ''].map(dateFromTimestampText)).toEqual([null, null, null, null]);
  });
});
