/** Error logs never hold passwords, password hashes or a form's personal data (issue "Hardening", point 8). */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../src/lib/server/db/schema';
import { log } from '../../src/lib/server/log';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';

let database: TestDatabase;
beforeAll(async () => {
	database = await createTestDatabase();
});
afterAll(() => database.dispose());

function captured(run: () => void): string {
	const lines: string[] = [];
	const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
	try {
		run();
	} finally {
		spy.mockRestore();
	}
	return lines.join('\n');
}

describe(`logs on ${driverName}`, () => {
	it('log a failed query with the database’s message, never its parameters', async () => {
		const row = {
			email: 'claire.secret@exemple.fr',
			name: 'Claire Secrète',
			passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$SECRETSALT$SECRETHASH'
		};
		await database.db.insert(users).values(row);
		const error = await database.db
			.insert(users)
			.values(row)
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(Error);
		const output = captured(() => log.error('unhandled API error', { id: 'x', error }));
		expect(output).toContain('duplicate key');
		for (const secret of ['claire.secret', 'Claire Secrète', 'SECRETHASH', 'SECRETSALT', 'params'])
			expect(output).not.toContain(secret);
	});

	it('redact fields that name a secret, wherever they are', () => {
		const output = captured(() =>
			log.error('sign-in failed', { form: { email: 'a@b.c', password: 'hunter2-hunter2' }, token: 'tok-123' })
		);
		expect(output).not.toContain('hunter2');
		expect(output).not.toContain('tok-123');
		expect(output).toContain('[redacted]');
	});
});
