import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionCookieName } from '../http/session-cookie-name';
import { generateSessionToken, sessionIdOf } from './session';

describe('session tokens', () => {
	it('carry 160 random bits, base32 encoded', () => {
		const token = generateSessionToken();
		expect(token).toMatch(/^[a-z2-7]{32}$/);
		const many = new Set(Array.from({ length: 1000 }, generateSessionToken));
		expect(many.size).toBe(1000);
	});

	it('are stored as their SHA-256, never in clear', () => {
		const token = generateSessionToken();
		expect(sessionIdOf(token)).toBe(createHash('sha256').update(token).digest('hex'));
		expect(sessionIdOf(token)).not.toContain(token);
	});

	it('live in a __Host- cookie behind https only', () => {
		expect(sessionCookieName(new URL('https://atelier.example'))).toBe('__Host-session');
		expect(sessionCookieName(new URL('http://localhost:3000'))).toBe('session');
	});
});
