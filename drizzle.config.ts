import { defineConfig } from 'drizzle-kit';

// Generation only needs the schema; migrations are applied by our own migrator (src/lib/server/db/migrate.ts),
// which takes an advisory lock so that several instances can start at once on one database.
export default defineConfig({
	schema: './src/lib/server/db/schema.ts',
	out: './drizzle',
	dialect: 'postgresql'
});
