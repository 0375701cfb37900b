// drizzle-kit's settings. Developing, `npm run dev` applies schema.ts to data.db first (db:push); for production,
// `npm run db:generate` writes each change as a SQL migration in drizzle/ and `npm run db:migrate` applies them.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './schema.ts',
  out: './drizzle',
  dbCredentials: { url: process.env.DATABASE_FILE ?? 'data.db' },
});
