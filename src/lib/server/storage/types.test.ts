import { describe, expect, it } from 'vitest';
import { assertObjectPath, isValidObjectPath } from './types';

describe('object paths', () => {
	it.each(['a.webp', '3f0c-11.webp', 'site/hero.webp', 'a_b/c-d/e.f.webp'])('accepts %s', (p) => {
		expect(assertObjectPath(p)).toBe(p);
	});
	it.each([
		'',
		'../secret',
		'a/../../secret',
		'..',
		'./a',
		'/etc/passwd',
		'a//b',
		'a/',
		'..%2fsecret',
		'%2e%2e/secret',
		'a\\..\\b',
		'a\u0000b',
		'.hidden',
		'a'.repeat(600)
	])('refuses %j', (p) => {
		expect(isValidObjectPath(p)).toBe(false);
	});
});
