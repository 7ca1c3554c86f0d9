import { describe, expect, it } from 'vitest';
import { headerCookies, setSessionCookie, deleteSessionCookie } from './session-cookie';

describe('the session cookie of a raw request (the server entry’s own answers)', () => {
	it('reads a Cookie header as browsers send it; a broken escape or a repeated name does not take a value', () => {
		const jar = headerCookies('theme=sombre; session=abc%20def;  broken=%E0%A4%A; session=second; lone; =x');
		expect(jar.get('theme')).toBe('sombre');
		// The first of a repeated name, as SvelteKit's parser keeps it.
		expect(jar.get('session')).toBe('abc def');
		expect(jar.get('broken')).toBeUndefined();
		expect(jar.get('lone')).toBeUndefined();
		expect(headerCookies(undefined).get('session')).toBeUndefined();
		expect(headerCookies('\u0000session=\u0000').get('session')).toBeUndefined();
	});

	it('sets and deletes the session cookie with the attributes SvelteKit gives it', () => {
		const jar = headerCookies('');
		const expires = new Date('2027-01-02T03:04:05Z');
		setSessionCookie(jar, new URL('https://exemple.fr'), 'a b', expires);
		deleteSessionCookie(jar, new URL('http://localhost:3000'));
		expect(jar.setCookies).toEqual([
			'__Host-session=a%20b; Path=/; Expires=Sat, 02 Jan 2027 03:04:05 GMT; HttpOnly; SameSite=Lax; Secure',
			'session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax'
		]);
	});
});
