import { describe, expect, it } from 'vitest';
import { match } from './slug';

describe('the slug param matcher', () => {
	it.each(['premier-article', 'a', '2026-bilan', 'x'.repeat(80)])('matches %s', (slug) => {
		expect(match(slug)).toBe(true);
	});

	it.each([
		'',
		'\u0000',
		'a\u0000b',
		'Avec-Majuscules',
		'accentué',
		'deux--tirets',
		'-debut',
		'fin-',
		'a b',
		'../etc',
		'a%00',
		'x'.repeat(81)
	])('refuses %j', (slug) => {
		expect(match(slug)).toBe(false);
	});
});
