/**
 * The integration project's global setup: one database migrated for the whole run, which every test file's database
 * copies (tests/helpers/database.ts says how). Migrations themselves are tested on databases of their own
 * (`createTestDatabase({ migrate: false })`, database.integration.test.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/lib/server/db';
import { createEmptyPostgresDatabase, serverUrl, TEMPLATE_VARIABLE } from '../helpers/database';

export default async function setup() {
	if (serverUrl) {
		const template = await createEmptyPostgresDatabase();
		// Two connections: one holds the migration lock while the other migrates (db/migrate.ts).
		const database = openDatabase({ url: template.url, max: 2 });
		try {
			await database.migrate();
		} finally {
			// A template is copied only while nobody is connected to it.
			await database.close();
		}
		process.env[TEMPLATE_VARIABLE] = template.name;
		return () => template.drop();
	}
	const database = openDatabase({ url: null });
	const folder = mkdtempSync(path.join(tmpdir(), 'atelier-test-template-'));
	try {
		await database.migrate();
		const file = path.join(folder, 'migrated.tar');
		writeFileSync(file, Buffer.from(await (await database.image!()).arrayBuffer()));
		process.env[TEMPLATE_VARIABLE] = file;
	} catch (error) {
		rmSync(folder, { recursive: true, force: true });
		throw error;
	} finally {
		await database.close();
	}
	return () => rmSync(folder, { recursive: true, force: true });
}
