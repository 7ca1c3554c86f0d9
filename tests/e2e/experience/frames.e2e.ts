/**
 * One frame for every page of the members' area and of the administration (issue "Experience, part 3", point 1):
 * each page's title starts where its header's brand does, on a phone and on a desktop — the layout owns the
 * margins, no page brings its own. The pages are read from the route tree, so a new one cannot be forgotten.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { signInAsAdmin } from '../support/accounts';

/** Every page under a route folder, as its URL pattern (`/admin/cours/[id=uuid]`), groups left out. */
function pagesUnder(folder: string, prefix: string): string[] {
	const found: string[] = [];
	const walk = (dir: string, url: string) => {
		for (const entry of readdirSync(dir)) {
			const full = path.join(dir, entry);
			if (statSync(full).isDirectory()) walk(full, `${url}/${entry}`);
			else if (entry === '+page.svelte') found.push(url || '/');
		}
	};
	walk(folder, prefix);
	return found.sort();
}

/** The left edge of the page's title and of the header's brand (the logo), in CSS pixels. */
const edges = (page: Page) =>
	page.evaluate(() => {
		const left = (selector: string) => document.querySelector(selector)?.getBoundingClientRect().left ?? NaN;
		return { title: left('main h1'), brand: left('header .brand') };
	});

test('every page of the members’ area and of the administration starts at its header’s brand, at 360 and 1280 px', async ({
	page
}) => {
	test.setTimeout(180_000);
	await signInAsAdmin(page);
	// The pages whose URL holds an id: a module (its admin page and the members' page), a lead, a template.
	const title = `Cadre ${Date.now()}`;
	const created = await page.request.post('/api/admin/modules', {
		data: { title, summary: 'Résumé', content: 'Texte', published: true, durationMinutes: 5 }
	});
	expect(created.status()).toBe(201);
	const module = (await created.json()) as { id: string; slug: string };
	// A lead: one the shared server already holds, else one sent now (the contact form's limit is per address, and
	// every test comes from 127.0.0.1: other files may have spent it).
	const inbox = await (await page.request.get('/admin/demandes?onglet=toutes')).text();
	let leadId = /href="\/admin\/demandes\/([0-9a-f-]{36})"/.exec(inbox)?.[1];
	if (!leadId) {
		const lead = await page.request.post('/api/contact', {
			data: { name: 'Cadre Dupont', email: 'cadre@exemple.fr', message: 'Une demande pour mesurer le cadre.' }
		});
		expect(lead.status()).toBe(201);
		leadId = ((await lead.json()) as { id: string }).id;
	}
	// A question to the trainer (an admin may ask too): its thread, for the member's page and the admin's.
	const asked = await page.request.post('/api/cours/questions', {
		data: { module: module.slug, text: 'Une question pour mesurer le cadre.' }
	});
	expect(asked.status()).toBe(201);
	const thread = ((await asked.json()) as { id: string }).id;
	const filled: Record<string, string> = {
		'/cours/[slug]': `/cours/${module.slug}`,
		'/questions/[id=uuid]': `/questions/${thread}`,
		'/admin/questions/[id=uuid]': `/admin/questions/${thread}`,
		'/admin/cours/[id=uuid]': `/admin/cours/${module.id}`,
		'/admin/demandes/[id=uuid]': `/admin/demandes/${leadId}`,
		'/admin/emails/[template]': '/admin/emails/lead-notification-devis',
		'/admin/pages/[id=entry]': '/admin/pages/home',
		// A link that is no longer valid: the page says so, in the same frame.
		'/profil/adresse/[token]': '/profil/adresse/lien-perime'
	};
	// Not measured here: a candidature's page needs a candidature sent through the wizard (candidatures e2e), a
	// member's follow-up page a paid membership (courses e2e), and the re-authentication page is reached only from an
	// action; all use the admin layout measured on the others.
	const elsewhere = ['/admin/candidatures/[id=uuid]', '/admin/suivi/[id=uuid]', '/admin/confirmer'];
	const routes = [
		...pagesUnder('src/routes/(members)', ''),
		...pagesUnder('src/routes/admin', '/admin')
	].filter((route) => !elsewhere.includes(route));
	const urls = routes.map((route) => filled[route] ?? route);
	expect(urls.filter((url) => url.includes('['))).toEqual([]);

	for (const width of [360, 1280]) {
		await page.setViewportSize({ width, height: 900 });
		const admin: number[] = [];
		for (const url of urls) {
			const response = await page.goto(url);
			expect(response?.status(), url).toBe(200);
			const { title: titleLeft, brand } = await edges(page);
			expect(titleLeft, `${url} at ${width} px has a title`).not.toBeNaN();
			if (!url.startsWith('/admin'))
				await page.screenshot({ path: test.info().outputPath(`${url.replaceAll('/', '_')}-${width}.png`) });
			if (url.startsWith('/admin') && width > 1000) {
				// Beside the sidebar: every admin page's title at one same edge.
				admin.push(titleLeft);
				continue;
			}
			expect(
				Math.abs(titleLeft - brand),
				`${url} at ${width} px: title at ${titleLeft}, brand at ${brand}`
			).toBeLessThan(1.5);
		}
		if (admin.length) expect(new Set(admin.map(Math.round)).size, admin.join(', ')).toBe(1);
		// The members' pages at a desktop's width: the frame's edge is the header's (80 px at 1280).
		if (width === 1280) {
			await page.goto('/cours');
			const { title: courses, brand } = await edges(page);
			expect(Math.round(courses)).toBe(Math.round(brand));
			expect(courses).toBeGreaterThan(40);
		}
	}
});
