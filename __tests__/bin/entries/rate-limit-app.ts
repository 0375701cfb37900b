// Entry of the rate limit workers test: a `pid` action that names the process that answered, limited to
// RATE_LIMIT_POINTS calls per caller a minute, counted in RATE_LIMIT_REDIS (a redis:// URL) under RATE_LIMIT_PREFIX,
// or in each process's memory without it.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { defineService, type ServerOptions } from 'tessera-api';

const shop = defineService({ name: 'shop', db: drizzle(new Database(':memory:')) });
shop.action('pid', { handler: () => ({ pid: process.pid }) });

const redis = process.env.RATE_LIMIT_REDIS;
export default {
  requestLogging: false,
  rateLimit: {
    points: Number(process.env.RATE_LIMIT_POINTS ?? 4),
    duration: 60,
    keyPrefix: process.env.RATE_LIMIT_PREFIX,
    ...(redis === undefined ? {} : { redis }),
  },
} satisfies ServerOptions;
