import { describe, expect, it } from 'vitest';
import { hostileRedirects } from '../../../../tests/helpers/hostile-redirects';
import { afterSignIn, homeFor, safeRedirectTarget } from './redirects';

const ORIGIN = 'https://atelier.example';

describe('safeRedirectTarget', () => {
	it.each([
		['/dashboard', '/dashboard'],
		['/cours/mon-module?x=1#fin', '/cours/mon-module?x=1#fin'],
		['/admin/../profil', '/profil'],
		['/cours?q=a%20b&next=%2F%2Fx', '/cours?q=a%20b&next=%2F%2Fx'],
		[`${ORIGIN}/cours/intro?x=1#fin`, '/cours/intro?x=1#fin'],
		['HTTPS://ATELIER.EXAMPLE/profil', '/profil'],
		[ORIGIN, '/'],
		// harmless: a path on this site that merely contains an "@"
		['/@evil.example', '/@evil.example']
	])('keeps the same-site target %j as %j', (input, expected) => {
		expect(safeRedirectTarget(input, ORIGIN)).toBe(expected);
	});

	const hostile = hostileRedirects(ORIGIN);
	const harmless = new Set(['/@evil.example']);

	it('has a table of at least 25 hostile forms', () => {
		expect(hostile.length).toBeGreaterThanOrEqual(25);
	});

	it.each(hostile.map((input) => [input]))('never leaves the site for %j', (input) => {
		const result = safeRedirectTarget(input, ORIGIN);
		if (harmless.has(input)) expect(result).not.toBeNull();
		else expect(result).toBeNull();
		const landing = afterSignIn({ isAdmin: false }, input, ORIGIN);
		// As a browser resolves the Location header we send...
		expect(new URL(landing, ORIGIN).origin).toBe(ORIGIN);
		// ...and as a proxy or a later redirect that decodes the path once more would.
		expect(decodeURIComponent(new URL(landing, ORIGIN).pathname)).not.toMatch(/^\/\/|\\/);
	});

	it.each([null, undefined, ''])('refuses %j', (input) => {
		expect(safeRedirectTarget(input, ORIGIN)).toBeNull();
	});

	it('judges against the origin it is given, not any host', () => {
		expect(safeRedirectTarget('https://autre.example/x', 'https://autre.example')).toBe('/x');
		expect(safeRedirectTarget('https://autre.example/x', ORIGIN)).toBeNull();
		expect(safeRedirectTarget('https://atelier.example:8443/x', ORIGIN)).toBeNull();
		expect(safeRedirectTarget('http://atelier.example/x', ORIGIN)).toBeNull();
	});
});

describe('after sign-in', () => {
	it('sends admins to /admin and others to /dashboard', () => {
		expect(homeFor({ isAdmin: true })).toBe('/admin');
		expect(homeFor({ isAdmin: false })).toBe('/dashboard');
	});

	it('honours a safe redirectTo and ignores an unsafe one', () => {
		expect(afterSignIn({ isAdmin: false }, '/profil', ORIGIN)).toBe('/profil');
		expect(afterSignIn({ isAdmin: true }, '//evil.example', ORIGIN)).toBe('/admin');
		expect(afterSignIn({ isAdmin: false }, '/%2f%2fevil.example', ORIGIN)).toBe('/dashboard');
		expect(afterSignIn({ isAdmin: false }, null, ORIGIN)).toBe('/dashboard');
	});
});
