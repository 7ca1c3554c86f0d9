/**
 * An admin list walked by keys (the inbox, issue « Years of use »), rendered on the server as SvelteKit renders a
 * page: it says where its rows stand and never a figure it does not know, and links only to pages that exist.
 */
import { describe, expect, it } from 'vitest';
import type { KeysetPaging } from './keyset-paging';
import { renderAsPage } from '../../../../tests/helpers/render-page';
import KeysetTable from './test/KeysetTable.svelte';

const names = Array.from({ length: 50 }, (_, i) => `Personne ${i}`);
const none = { newest: null, newer: null, older: null, oldest: null };
const html = (keyset: KeysetPaging, rows = names) =>
	renderAsPage(KeysetTable, { names: rows, keyset }, 'http://localhost/admin/demandes');
/** The text of the element with this class, spaces as one. */
const textOf = (body: string, className: string) =>
	(new RegExp(`class="${className}[^"]*"[^>]*>([^<]*)<`).exec(body)?.[1] ?? '').replace(/[ \t\n]+/g, ' ');
const links = (body: string) =>
	[...body.matchAll(/<a [^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map(([, href, text]) => ({ href, text }));

describe('an admin list walked by keys', () => {
	it('says which rows it shows, its total counted up to the bound', () => {
		const first = html({ first: 1, total: 134, bound: 10_000, ...none, older: '?avant=b', oldest: '?fin=1' });
		expect(textOf(first, 'range')).toBe('Demandes 1–50 sur 134');
		expect(links(first)).toEqual([
			{ href: '?avant=b', text: 'Plus anciennes' },
			{ href: '?fin=1', text: 'Les plus anciennes' }
		]);
		expect(first).toMatch(/href="\?fin=1"[^>]*data-oldest/);
		const far = html({ first: 9_951, total: 10_001, bound: 10_000, ...none, newest: '?', newer: '?apres=a' });
		expect(textOf(far, 'range')).toBe('Demandes 9\u202f951–10\u202f000 sur plus de 10\u202f000');
		expect(links(far).map((l) => l.text)).toEqual(['Les plus récentes', 'Plus récentes']);
	});

	it('never guesses where a page past the bound stands', () => {
		const body = html({
			first: null,
			total: 10_001,
			bound: 10_000,
			newest: '?',
			newer: '?apres=a',
			older: '?avant=b',
			oldest: '?fin=1'
		});
		expect(textOf(body, 'range')).toBe('Demandes au-delà des 10\u202f000 premières, sur plus de 10\u202f000');
		expect(links(body).map((l) => l.text)).toEqual([
			'Les plus récentes',
			'Plus récentes',
			'Plus anciennes',
			'Les plus anciennes'
		]);
	});

	it('has no pager when everything fits on one page', () => {
		const body = html({ first: 1, total: 3, bound: 10_000, ...none }, names.slice(0, 3));
		expect(textOf(body, 'range')).toBe('Demandes 1–3 sur 3');
		expect(body).not.toContain('class="pager');
	});
});
