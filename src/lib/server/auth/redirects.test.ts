import { describe, expect, it } from 'vitest';
import { afterSignIn, homeFor, safeRedirectTarget } from './redirects';

const ORIGIN = new URL('https://atelier.example');

/** Where a browser lands when it follows `Location: <target>` from a page of ORIGIN. */
const landing = (target: string) => new URL(target, 'https://atelier.example/login');

describe('safeRedirectTarget', () => {
	it.each([
		['/dashboard', '/dashboard'],
		['/cours/mon-module?x=1#fin', '/cours/mon-module?x=1#fin'],
		['/admin/../profil', '/profil'],
		['/%2e%2e/profil', '/profil'],
		['https://atelier.example/profil?a=1', '/profil?a=1'],
		['/cours//module', '/cours/module'],
		['/%0a', '/%0a']
	])('keeps the same-site target %j as %j', (input, expected) => {
		expect(safeRedirectTarget(input, ORIGIN)).toBe(expected);
	});

	// Each hostile form is either refused or reduced to a path that keeps the browser on ORIGIN.
	it.each([
		'//evil.example/x',
		'///evil.example',
		'////evil.example',
		'/\\evil.example',
		'\\\\evil.example',
		'\\/evil.example',
		'/%5c%5cevil.example',
		'/%5cevil.example',
		'https://evil.example/',
		'https://atelier.example@evil.example/',
		'https://atelier.example.evil.example/',
		'http://atelier.example/profil',
		'http:/evil.example',
		'http:evil.example',
		'https:\\\\evil.example',
		'javascript:alert(1)',
		'JaVaScRiPt:alert(1)',
		' javascript:alert(1)',
		'data:text/html,<script>alert(1)</script>',
		'vbscript:msgbox',
		'/a/..//evil.example',
		'/a/../..//evil.example',
		'/%2e%2e//evil.example',
		'/%2e%2e/%2e%2e//evil.example',
		'/.//evil.example',
		'/%2f%2fevil.example',
		'/%252f%252fevil.example',
		'/\t/evil.example',
		'/\n/evil.example',
		'/\r\n/evil.example',
		'/%09/evil.example',
		'/@evil.example',
		'//@evil.example',
		'/ /evil.example',
		'evil.example',
		'dashboard',
		'?redirect=//evil.example',
		'#//evil.example',
		'',
		null,
		undefined,
		'/' + 'a'.repeat(3000)
	])('keeps %j on this site', (input) => {
		const result = safeRedirectTarget(input as string, ORIGIN);
		if (result === null) return expect(result).toBeNull();
		expect(result.startsWith('/')).toBe(true);
		expect(result.startsWith('//')).toBe(false);
		expect(landing(result).origin).toBe(ORIGIN.origin);
	});

	it('refuses what must not be followed at all', () => {
		for (const input of [
			'//evil.example/x',
			'https://evil.example/',
			'javascript:alert(1)',
			'/\\evil.example'
		])
			expect(safeRedirectTarget(input, ORIGIN)).toBeNull();
		expect(safeRedirectTarget('/a/..//evil.example', ORIGIN)).toBe('/evil.example');
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
		expect(afterSignIn({ isAdmin: true }, '/a/..//evil.example', ORIGIN)).toBe('/evil.example');
		expect(afterSignIn({ isAdmin: false }, null, ORIGIN)).toBe('/dashboard');
	});
});
