import { describe, expect, it } from 'vitest';
import { afterSignIn, homeFor, safeRedirectTarget } from './redirects';

describe('safeRedirectTarget', () => {
	it.each([
		['/dashboard', '/dashboard'],
		['/cours/mon-module?x=1#fin', '/cours/mon-module?x=1#fin'],
		['/admin/../profil', '/profil']
	])('keeps the same-site path %s', (input, expected) => {
		expect(safeRedirectTarget(input)).toBe(expected);
	});

	it.each([
		'//evil.example/x',
		'/\\evil.example',
		'\\\\evil.example',
		'https://evil.example/',
		'http:/evil.example',
		'javascript:alert(1)',
		'JaVaScRiPt:alert(1)',
		'data:text/html,x',
		'dashboard',
		'/\t/evil.example',
		'/\n/evil.example',
		'/%0a',
		'',
		null,
		undefined,
		'/' + 'a'.repeat(3000)
	])('refuses %j', (input) => {
		const result = safeRedirectTarget(input as string);
		if (input === '/%0a')
			expect(result).toBe('/%0a'); // an encoded newline stays inert inside a path
		else expect(result).toBeNull();
	});
});

describe('after sign-in', () => {
	it('sends admins to /admin and others to /dashboard', () => {
		expect(homeFor({ isAdmin: true })).toBe('/admin');
		expect(homeFor({ isAdmin: false })).toBe('/dashboard');
	});

	it('honours a safe redirectTo and ignores an unsafe one', () => {
		expect(afterSignIn({ isAdmin: false }, '/profil')).toBe('/profil');
		expect(afterSignIn({ isAdmin: true }, '//evil.example')).toBe('/admin');
		expect(afterSignIn({ isAdmin: false }, null)).toBe('/dashboard');
	});
});
