// drizzle-kit's settings: `npm run db:push` makes the database match schema.ts (npm start and npm run dev do it first).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './schema.ts',
  dbCredentials: { url: process.env.DATABASE_FILE ?? 'data.db' },
});
