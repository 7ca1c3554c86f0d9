/**
 * `node scale-seed.js <DATA_DIR | postgres://…> [scale]`: migrates and seeds a site after years of use
 * (scale-seed.ts) into the embedded database of DATA_DIR or into a PostgreSQL database; bundled by bench/scale.mjs.
 * Its last line is the seeded row counts, as JSON.
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/lib/server/db';
import { seedScale } from './scale-seed';

const [target, scale = '1'] = process.argv.slice(2);
if (!target) throw new Error('usage: scale-seed.js <DATA_DIR | postgres://…> [scale]');
const onPostgres = /^postgres(ql)?:\/\//.test(target);
const database = openDatabase({
	url: onPostgres ? target : null,
	pgliteDir: onPostgres ? null : path.join(target, 'db'),
	purpose: 'bench'
});
await database.migrate();
const started = performance.now();
const counts = await seedScale(database.db, Number(scale));
// As years of use leave it: vacuumed and analysed, by autovacuum on PostgreSQL (off on some machines: done here) and
// by the nightly upkeep on the embedded database (db/upkeep.ts).
await database.db.execute(sql`vacuum analyze`);
await database.close();
console.log(JSON.stringify({ ...counts, seconds: Math.round((performance.now() - started) / 100) / 10 }));
