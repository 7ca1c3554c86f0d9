import { describe, expect, it } from 'vitest';
import { withQuery } from './query-links';

describe('withQuery', () => {
	const url = new URL('https://site.example/admin/demandes?onglet=spam&type=devis&page=3');

	it('sets, replaces and removes parameters, keeping the others in their order', () => {
		expect(withQuery(url, { page: '4' })).toBe('/admin/demandes?onglet=spam&type=devis&page=4');
		expect(withQuery(url, { onglet: 'toutes', page: null })).toBe('/admin/demandes?onglet=toutes&type=devis');
		expect(withQuery(url, { du: '2026-01-01' })).toBe(
			'/admin/demandes?onglet=spam&type=devis&page=3&du=2026-01-01'
		);
	});

	it('gives the bare path when no parameter is left, and encodes what it sets', () => {
		expect(withQuery(new URL('https://site.example/admin/activite?page=2'), { page: null })).toBe(
			'/admin/activite'
		);
		expect(withQuery(new URL('https://site.example/admin/utilisateurs'), { q: 'a&b=c é' })).toBe(
			'/admin/utilisateurs?q=a%26b%3Dc+%C3%A9'
		);
	});
});
