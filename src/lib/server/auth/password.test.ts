import { describe, expect, it } from 'vitest';
import { hashPassword, isCommonPassword, passwordProblems } from './password';
import { verifyPassword } from './password-check';

describe('password hashing', () => {
	it('uses argon2id with m=19456, t=2, p=1', async () => {
		const hash = await hashPassword('une phrase de passe correcte');
		expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
		expect(await verifyPassword(hash, 'une phrase de passe correcte')).toBe(true);
		expect(await verifyPassword(hash, 'une phrase de passe fausse')).toBe(false);
	});

	it('salts every hash', async () => {
		expect(await hashPassword('même mot de passe')).not.toBe(await hashPassword('même mot de passe'));
	});

	it('treats a malformed hash as a mismatch, not a crash', async () => {
		expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
	});
});

describe('password policy', () => {
	it('accepts 10 to 128 characters', () => {
		expect(passwordProblems('a'.repeat(9) + 'Z')).toEqual([]);
		expect(passwordProblems('x'.repeat(9))[0]).toMatch(/au moins 10/);
		expect(passwordProblems('x'.repeat(129))[0]).toMatch(/au plus 128/);
		expect(passwordProblems('é'.repeat(128))).toEqual([]);
	});

	it('refuses the most common passwords, whatever their case', () => {
		for (const common of ['1234567890', 'azertyuiop', 'Password123', 'MOTDEPASSE123']) {
			expect(isCommonPassword(common), common).toBe(true);
			expect(passwordProblems(common)[0]).toMatch(/trop courant/);
		}
		expect(isCommonPassword('cheval agrafe batterie correcte')).toBe(false);
	});
});
