import { afterEach, describe, expect, it, vi } from 'vitest';
import { REDACTED, log, redact } from './log';

afterEach(() => vi.restoreAllMocks());

describe('log redaction', () => {
	it('masks sensitive keys at any depth, and e-mail addresses in any text', () => {
		expect(
			redact({
				user: { password: 'hunter2hunter2', passwordHash: '$argon2id$v=19$abc', name: 'Anne' },
				headers: [{ cookie: 'session=abc', authorization: 'Bearer x' }],
				newPassword: 'p',
				formToken: 't',
				note: 'écrire à anne.martin@exemple.fr demain'
			})
		).toEqual({
			user: { password: REDACTED, passwordHash: REDACTED, name: 'Anne' },
			headers: [{ cookie: REDACTED, authorization: REDACTED }],
			newPassword: REDACTED,
			formToken: REDACTED,
			note: 'écrire à [e-mail] demain'
		});
	});

	it('keeps an error’s name, code, frames and cause, but not a query error’s SQL or parameters', () => {
		const cause = Object.assign(new Error('relation "users" does not exist'), { code: '42P01' });
		const query = Object.assign(
			new Error(
				'Failed query: insert into "users" values ($1, $2)\nparams: anne@exemple.fr,$argon2id$v=19$x'
			),
			{ query: 'insert into "users" values ($1, $2)', params: ['anne@exemple.fr', '$argon2id$v=19$x'], cause }
		);
		const lines: string[] = [];
		vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
		log.error('unhandled API error', { id: '1', error: query });
		expect(lines).toHaveLength(1);
		expect(lines[0]).not.toContain('anne@exemple.fr');
		expect(lines[0]).not.toContain('argon2');
		expect(lines[0]).not.toContain('insert into');
		const entry = JSON.parse(lines[0]!);
		expect(entry).toMatchObject({
			level: 'error',
			message: 'unhandled API error',
			id: '1',
			error: { cause: { message: 'relation "users" does not exist', code: '42P01' } }
		});
		expect(entry.error.stack).toMatch(/\n\s+at /);
	});
});
