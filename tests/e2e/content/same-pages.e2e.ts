/**
 * A site nobody edits serves the pages it served before its words moved into the database (issue « Content, part
 * 1 », point 1): every page of the sitemap, from a fresh server (revision 1 written from the seed at its first
 * start), against the HTML the previous build (5e5f9f8) served, saved in tests/fixtures/pages-before/ — with the
 * changes made on purpose since, each written there: « Formation, part 1 » led the navigation's « Formation » to
 * the programme sheet (/formation, saved then), the privacy notice names the training file it keeps, and a page's
 * photos carry the site-wide `photo-fill` class that styles every photo of either mode.
 *
 * What may differ, and why it is not the page: the form's one-use token (new on every request), the build's asset
 * names (a hash of each build), the stylesheets it inlines and the classes that scope them, and what Svelte's
 * compiler wrote of the templates' source rather than of the page
 * — its hydration comments (`<!--[-->`, `<!---->`) and the line breaks and tabs of a paragraph wrapped in the
 * template, which a browser reads as one space. Everything else — every element, attribute and character of text —
 * must be the same.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startIsolatedServer } from '../support/server';

const BEFORE = path.resolve('tests', 'fixtures', 'pages-before');

function sameDocument(html: string): string {
	return (
		html
			.replace(/name="formToken" value="[^"]*"/g, 'name="formToken" value=""')
			.replace(/\/_app\/immutable\/[^"]+/g, '/_app/immutable/…')
			// The small pages' inlined stylesheet is the build's files joined, and each file is also named by a disabled
			// link (collapsed last): how many files, and a space between two, is the build's splitting, not the page.
			// Its rules are the build's too — they move between files as the pages share components (a hero, a
			// section), and so do the classes Svelte adds to scope them (`svelte-1cadjnr`): neither is the page's.
			.replace(/<style([^>]*)>[\s\S]*?<\/style>/g, '<style$1></style>')
			.replace(/ class="([^"]*)"/g, (_, classes: string) => {
				const own = classes.split(/\s+/).filter((name) => name && !/^svelte-[a-z0-9]+$/.test(name));
				return own.length > 0 ? ` class="${own.join(' ')}"` : '';
			})
			.replace(/<!--[\s\S]*?-->/g, '')
			.replace(/[ \t\n\r]+/g, ' ')
			.replace(/> </g, '><')
			.replace(
				/(<link href="\.\/_app\/immutable\/…" rel="stylesheet" disabled media="\(max-width: 0\)">)+/g,
				'$1'
			)
	);
}

test('every page of the sitemap is the page the previous build served, once revision 1 is written', async () => {
	const server = await startIsolatedServer();
	try {
		const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
		const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
		expect(paths).toEqual([
			'/',
			'/macon',
			'/paysagiste',
			'/devis',
			'/formation',
			'/candidature',
			'/contact',
			'/mentions-legales',
			'/cgv',
			'/confidentialite'
		]);
		for (const page of paths) {
			const response = await fetch(`${server.url}${page}`);
			expect(response.status, page).toBe(200);
			// Saved from a server whose ORIGIN was http://127.0.0.1:4399: its canonical links name it.
			const before = readFileSync(
				path.join(BEFORE, `${page === '/' ? 'home' : page.slice(1)}.html`),
				'utf8'
			).replaceAll('http://127.0.0.1:4399', server.url);
			const now = await response.text();
			const [a, b] = [sameDocument(before), sameDocument(now)];
			if (a !== b) {
				// The first difference, with some context: what a failure needs to be read.
				let at = 0;
				while (a[at] === b[at]) at++;
				expect(b.slice(Math.max(0, at - 200), at + 200), page).toBe(a.slice(Math.max(0, at - 200), at + 200));
			}
			// And nothing of the template's source is left where a visitor reads it.
			expect(now, page).not.toMatch(/\{\{\s*company\./);
		}
	} finally {
		await server.stop();
	}
});
