import { describe, expect, it } from 'vitest';
import { hasSessionCookie, sessionCookieName } from './session-cookie-name';

const https = new URL('https://atelier.example');
const http = new URL('http://localhost:3000');

describe('session cookie name', () => {
	it('is __Host-session behind https, session otherwise', () => {
		expect(sessionCookieName(https)).toBe('__Host-session');
		expect(sessionCookieName(http)).toBe('session');
	});

	it('finds the session cookie anywhere in a Cookie header, and nothing that merely ends or starts like it', () => {
		expect(hasSessionCookie(undefined, http)).toBe(false);
		expect(hasSessionCookie('', http)).toBe(false);
		expect(hasSessionCookie('session=abc', http)).toBe(true);
		expect(hasSessionCookie('theme=dark; session=abc', http)).toBe(true);
		expect(hasSessionCookie('theme=dark;session=abc', http)).toBe(true);
		expect(hasSessionCookie('mysession=abc; sessionx=1', http)).toBe(false);
		expect(hasSessionCookie('__Host-session=abc', http)).toBe(false);
		expect(hasSessionCookie('session=abc', https)).toBe(false);
		expect(hasSessionCookie('a=1; __Host-session=abc', https)).toBe(true);
	});
});
