/**
 * The dashboard names a source by one table (src/lib/server/insights/source-names.ts) in TypeScript and, to group
 * and filter the visits' rows, in SQL: the function migration 0022 creates must be the one the table compiles to. A
 * change to the table without a migration that replaces the function fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SOURCE_NAME_FUNCTION } from '../../src/lib/server/insights/source-names';

describe('the source names’ SQL function', () => {
	it('is, in the newest migration that defines it, what the table compiles to', () => {
		const defining = readdirSync('drizzle')
			.filter((name) => name.endsWith('.sql'))
			.sort()
			.filter((name) => readFileSync(`drizzle/${name}`, 'utf8').includes('FUNCTION atelier_source_name('));
		expect(defining.length).toBeGreaterThan(0);
		expect(readFileSync(`drizzle/${defining.at(-1)}`, 'utf8')).toContain(SOURCE_NAME_FUNCTION);
	});
});
