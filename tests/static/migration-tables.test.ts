/**
 * What a restore may drop when it puts an older schema back (`restore --as-archived`, `npm run rollback`): every table
 * the migrations create. Read from their SQL, so checked here against the schema: each table the code models is one
 * a migration creates, and nothing else is taken for a table.
 */
import { describe, expect, it } from 'vitest';
import { migrationTables, schemaTables } from '../../src/lib/server/backup/tables';

describe('the tables the migrations create', () => {
	it('are the schema’s tables, each found in the SQL', () => {
		expect([...migrationTables()].sort()).toEqual([...schemaTables].sort());
	});
});
