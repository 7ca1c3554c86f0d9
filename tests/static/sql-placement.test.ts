/**
 * "A domain's SQL lives in its queries.ts" (CONTRIBUTING.md), as a lint rule: a query planted in a domain's service
 * fails `npm run lint`, the same query in its queries.ts passes, and another domain's queries.ts is off limits.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function messagesFor(filePath: string, code: string) {
	const [result] = await eslint.lintText(code, { filePath });
	return result!.messages.map((m) => m.message);
}

const plantedQuery = `import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { leads } from '../db/schema';
export const planted = (db: DbOrTx, id: string) => db.select().from(leads).where(eq(leads.id, id));
`;

describe('SQL where the rules say', () => {
	it('refuses a query planted in a domain’s service, naming queries.ts', async () => {
		const messages = await messagesFor('src/lib/server/leads/service.ts', plantedQuery);
		expect(messages.filter((m) => m.includes('queries.ts'))).toHaveLength(2);
	});

	it('takes the same query in the domain’s queries.ts, and the tables’ types anywhere', async () => {
		expect(await messagesFor('src/lib/server/leads/queries.ts', plantedQuery)).toEqual([]);
		const typesOnly = `import type { Lead } from '../db/schema';\nexport const first = (l: Lead[]) => l[0];\n`;
		expect(await messagesFor('src/lib/server/leads/service.ts', typesOnly)).toEqual([]);
	});

	it('refuses SQL, and a domain’s queries.ts, in the server entry and the commands', async () => {
		const inCommand = plantedQuery.replaceAll("'../db", "'../../lib/server/db");
		const messages = await messagesFor('src/server/commands/stats.ts', inCommand);
		expect(messages.filter((m) => m.includes('queries.ts'))).toHaveLength(2);
		const reaching = `import { topSources } from '../../lib/server/insights/queries';\nexport const x = topSources;\n`;
		expect((await messagesFor('src/server/commands/stats.ts', reaching)).some((m) => m.includes('not its queries.ts'))).toBe(
			true
		);
		const dashboard = `import { dashboardFigures } from '../../lib/server/insights';\nexport const x = dashboardFigures;\n`;
		expect(await messagesFor('src/server/commands/stats.ts', dashboard)).toEqual([]);
	});

	it('refuses another domain’s queries.ts', async () => {
		const code = `import { userById } from '../auth/queries';\nexport const x = userById;\n`;
		const messages = await messagesFor('src/lib/server/leads/service.ts', code);
		expect(messages.some((m) => m.includes('not its queries.ts'))).toBe(true);
	});

	it('refuses globalThis outside process-wide.js', async () => {
		const messages = await messagesFor('src/lib/server/log.ts', 'export const g = globalThis;\n');
		expect(messages.some((m) => m.includes('processWide'))).toBe(true);
	});
});
