/**
 * The editor an admin trusts (issue « Content, part 1 », points 3–5 and 8), in Chromium at 1280 and 360 px, each
 * width on a server of its own (what is published here must not reach the other files' shared server): a draft saved
 * by itself and found again after a reload; a copy kept in the browser while the server cannot be reached; a
 * second tab that gets the conflict screen with both texts; a session that expires while typing; a publish and a
 * restore; the preview, which is the public page for an admin and nothing for a visitor; an article from its
 * draft to the blog, the feed and the sitemap, and its old address answering 301 after a change of slug.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectNoAxeViolation, expectNoHorizontalScroll } from '../support/a11y';
import { firstAdminCookie, untilHydrated } from '../support/accounts';
import { startIsolatedServer, type RunningServer } from '../support/server';
import { fromParisWallTime, parisWallTime } from '../../../src/lib/paris-time';

const ADMIN = { name: 'Rédaction', email: 'redaction@exemple.fr', password: 'une phrase de passe solide' };
const SHOTS = 'test-results/content';

async function signedIn(context: BrowserContext, server: RunningServer, cookie: string) {
	await context.addCookies([
		{ name: cookie.split('=')[0]!, value: cookie.slice(cookie.indexOf('=') + 1), url: server.url }
	]);
}

async function openEditor(page: Page, server: RunningServer, id: string) {
	await page.goto(`${server.url}/admin/pages/${id}`);
	await untilHydrated(page);
}

const savedState = (page: Page) => page.locator('.state[data-state="saved"]');

for (const width of [1280, 360]) {
	test.describe(`the content editor at ${width} px`, () => {
		let server: RunningServer;
		let cookie: string;
		test.beforeAll(async () => {
			server = await startIsolatedServer();
			cookie = await firstAdminCookie(server.url, ADMIN);
			mkdirSync(SHOTS, { recursive: true });
		});
		test.afterAll(async () => {
			await server?.stop();
		});
		test.use({ viewport: { width, height: 900 } });

		test('saves a draft by itself; a reload once it says so finds it; the browser keeps it while the server is away', async ({
			page
		}) => {
			await signedIn(page.context(), server, cookie);
			await page.goto(`${server.url}/admin/pages`);
			await expect(page.getByRole('heading', { level: 1, name: 'Pages et articles' })).toBeVisible();
			await expectNoAxeViolation(page);
			await expectNoHorizontalScroll(page);

			await openEditor(page, server, 'contact');
			const lead = page.getByRole('textbox', { name: 'Chapeau' });
			await lead.fill('Parlez-nous de votre activité : une première réponse sous 24 heures.');
			// No button pressed: the draft reaches the server by itself, and the page says when it has.
			await expect(page.getByText(/^Brouillon enregistré à /)).toBeVisible({ timeout: 10_000 });
			await page.reload();
			await untilHydrated(page);
			await expect(page.getByRole('textbox', { name: 'Chapeau' })).toHaveValue(
				'Parlez-nous de votre activité : une première réponse sous 24 heures.'
			);
			await expect(page.getByText('Brouillon en cours')).toHaveCount(0); // (the list's badge, not this page)
			await expectNoAxeViolation(page);
			await expectNoHorizontalScroll(page);
			await page.screenshot({ path: `${SHOTS}/editor-${width}.png`, fullPage: true });

			// The server cannot be reached: the text stays in the browser, and a reload brings it back and sends it.
			await page.route('**/api/admin/pages/contact', (route) =>
				route.request().method() === 'PUT' ? route.abort('connectionrefused') : route.continue()
			);
			await page
				.getByRole('textbox', { name: 'Chapeau' })
				.fill('Écrit pendant la coupure du réseau, puis rechargé.');
			await expect(page.getByRole('status').filter({ hasText: 'Serveur injoignable' })).toBeVisible({
				timeout: 10_000
			});
			page.on('dialog', (dialog) => void dialog.accept());
			await page.unroute('**/api/admin/pages/contact');
			await page.reload();
			await untilHydrated(page);
			await expect(page.getByRole('textbox', { name: 'Chapeau' })).toHaveValue(
				'Écrit pendant la coupure du réseau, puis rechargé.'
			);
			await expect(page.getByText('Ce navigateur avait gardé un texte non enregistré')).toBeVisible();
			await expect(savedState(page)).toBeVisible({ timeout: 10_000 });
			const api = await page.request.get(`${server.url}/api/admin/pages/contact`);
			expect((await api.json()).draft.lead).toBe('Écrit pendant la coupure du réseau, puis rechargé.');
		});

		test('a second tab editing the same page gets the conflict screen with both texts, and loses nothing', async ({
			browser
		}) => {
			const first = await browser.newContext({ viewport: { width, height: 900 } });
			const second = await browser.newContext({ viewport: { width, height: 900 } });
			try {
				await signedIn(first, server, cookie);
				await signedIn(second, server, cookie);
				const a = await first.newPage();
				const b = await second.newPage();
				await openEditor(a, server, 'devis');
				await openEditor(b, server, 'devis');
				await a
					.getByRole('textbox', { name: 'Chapeau' })
					.fill('Le texte du premier onglet, enregistré en premier.');
				await expect(savedState(a)).toBeVisible({ timeout: 10_000 });
				await b
					.getByRole('textbox', { name: 'Chapeau' })
					.fill('Le texte du second onglet, resté sur l’ancienne version.');
				const conflict = b.getByRole('region', { name: 'Cette page a été modifiée ailleurs' });
				await expect(conflict).toBeVisible({ timeout: 10_000 });
				await expect(conflict.locator('[data-version="mine"]').first()).toContainText(
					'Le texte du second onglet, resté sur l’ancienne version.'
				);
				await expect(conflict.locator('[data-version="theirs"]').first()).toContainText(
					'Le texte du premier onglet, enregistré en premier.'
				);
				await second.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
				await conflict.getByRole('button', { name: 'Copier mon texte' }).click();
				await expect(b.getByText('Votre texte est copié')).toBeVisible();
				expect(await b.evaluate(() => navigator.clipboard.readText())).toContain('Le texte du second onglet');
				await expectNoAxeViolation(b);
				await expectNoHorizontalScroll(b);
				await b.screenshot({ path: `${SHOTS}/conflict-${width}.png`, fullPage: true });
				// Keeping mine saves it over the other, knowingly.
				await conflict.getByRole('button', { name: /Garder mon texte/ }).click();
				await expect(savedState(b)).toBeVisible({ timeout: 10_000 });
				const saved = await b.request.get(`${server.url}/api/admin/pages/devis`);
				expect((await saved.json()).draft.lead).toBe(
					'Le texte du second onglet, resté sur l’ancienne version.'
				);
			} finally {
				await first.close();
				await second.close();
			}
		});

		test('a session that expires while typing asks to sign in again, then saves what was typed', async ({
			page
		}) => {
			await signedIn(page.context(), server, cookie);
			await openEditor(page, server, 'candidature');
			// The session ends (it expired, or another device signed out everywhere): no cookie opens it any more.
			await page.context().clearCookies();
			await page.getByRole('textbox', { name: 'Introduction' }).fill('Écrit après la fin de la session.');
			await expect(page.getByRole('alert').filter({ hasText: 'Votre session a expiré' })).toBeVisible({
				timeout: 10_000
			});
			// The link signs in in a new tab, which then only says so: the draft stays this tab's.
			await expect(page.getByRole('link', { name: 'Me reconnecter (nouvel onglet)' })).toHaveAttribute(
				'href',
				'/login?redirectTo=%2Fadmin%2Freconnecte'
			);
			// Signed in again, as the link's sign-in page does: a new session in this browser.
			const login = await page.request.post(`${server.url}/login`, {
				form: { email: ADMIN.email, password: ADMIN.password },
				headers: { origin: server.url, accept: 'text/html' },
				maxRedirects: 0
			});
			expect(login.status()).toBe(303);
			const tab = await page.context().newPage();
			await tab.goto(`${server.url}/admin/reconnecte`);
			await expect(tab.getByRole('status')).toHaveText(/Reconnecté, vous pouvez fermer cet onglet/);
			await tab.close();
			await page.getByRole('button', { name: 'Je suis reconnecté : enregistrer' }).click();
			await expect(savedState(page)).toBeVisible({ timeout: 10_000 });
			const saved = await page.request.get(`${server.url}/api/admin/pages/candidature`);
			expect((await saved.json()).draft.body).toBe('Écrit après la fin de la session.');
		});

		test('publishes, previews what a visitor will see, and restores an earlier version', async ({
			page,
			browser
		}) => {
			await signedIn(page.context(), server, cookie);
			await openEditor(page, server, 'home');
			await page.getByRole('textbox', { name: 'Accroche' }).fill(`Titre publié à ${width} px`);
			await expect(savedState(page)).toBeVisible({ timeout: 10_000 });
			// The preview is the public page's own route, with the draft — for the admin only.
			const preview = await page.request.get(`${server.url}/?apercu=1`);
			expect(preview.headers()['x-robots-tag']).toBe('noindex');
			expect(await preview.text()).toContain(`Titre publié à ${width} px`);
			const visitor = await browser.newContext();
			const anonymous = await visitor.request.get(`${server.url}/?apercu=1`);
			expect(await anonymous.text()).not.toContain(`Titre publié à ${width} px`);
			await page.getByRole('button', { name: 'Publier' }).click();
			await expect(page.getByText(/Publié : version \d+ en ligne/)).toBeVisible();
			const live = await (await visitor.request.get(`${server.url}/`)).text();
			expect(live).toContain(`Titre publié à ${width} px`);
			// The preview of a published revision is the page: the same main content.
			const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0].replace(/<!--[\s\S]*?-->/g, '');
			expect(main(await (await page.request.get(`${server.url}/?apercu=1`)).text())).toBe(main(live));
			await visitor.close();

			// Restore version 1: shown first, with what differs from the live one; then a new version, the old title back.
			await page.getByRole('button', { name: 'Restaurer la version 1' }).click();
			const review = page.getByRole('region', { name: 'Version 1' });
			await expect(review.getByRole('heading', { name: 'Version 1' })).toBeFocused();
			await expect(review.locator('dt')).toContainText(['Accroche']);
			await expect(review.locator('dd').first()).toHaveText(
				'Des sites qui font sonner le téléphone des artisans'
			);
			await expectNoAxeViolation(page);
			await review.getByRole('button', { name: 'Remettre en ligne la version 1' }).click();
			await expect(page.getByText(/Version 1 remise en ligne/)).toBeVisible();
			await expect(review).toHaveCount(0);
			expect(await (await page.request.get(`${server.url}/`)).text()).toContain(
				'Des sites qui font sonner le téléphone des artisans'
			);
			await expectNoAxeViolation(page);
		});

		test('takes an article from its draft to the blog and the feed; its old address answers 301', async ({
			page
		}) => {
			await signedIn(page.context(), server, cookie);
			await page.goto(`${server.url}/admin/pages`);
			await untilHydrated(page);
			const slug = `photos-de-chantier-${width}`;
			await page.getByRole('textbox', { name: 'Titre' }).fill('Photographier ses chantiers');
			await page.getByRole('textbox', { name: /Adresse/ }).fill(slug);
			await page.getByRole('button', { name: 'Créer le brouillon' }).click();
			await page.waitForURL(/\/admin\/pages\/[0-9a-f-]{36}$/);
			await untilHydrated(page);
			// A draft is nowhere public.
			expect((await fetch(`${server.url}/blog/${slug}`)).status).toBe(404);
			await page.getByRole('button', { name: 'Publier' }).click();
			// The checks name the fields still empty.
			await expect(page.getByRole('alert').filter({ hasText: 'la publication' })).toContainText(
				'Description : à remplir.'
			);
			await page
				.getByRole('textbox', { name: 'Description' })
				.fill(
					'Cinq conseils pour des photos de chantier qui donnent envie de vous appeler, prises au téléphone.'
				);
			await page
				.getByRole('textbox', { name: 'Texte', exact: true })
				.fill('## La lumière\n\nPhotographiez le **matin**.');
			await expect(page.locator('.preview .prose h2')).toHaveText('La lumière');
			// A cover through the image pipeline, with its alternative text.
			await page.getByLabel(/Choisir une photo/).setInputFiles('tests/fixtures/images/Landscape_2.jpg');
			await expect(page.locator('code', { hasText: /^storage:/ })).toBeVisible({ timeout: 20_000 });
			await page
				.getByRole('textbox', { name: /Texte alternatif/ })
				.fill('Un mur de pierre au soleil du matin');
			await expect(savedState(page)).toBeVisible({ timeout: 10_000 });
			await page.getByRole('button', { name: 'Publier' }).click();
			await expect(page.getByText(/Publié : version 1 en ligne/)).toBeVisible();

			const article = await fetch(`${server.url}/blog/${slug}`);
			expect(article.status).toBe(200);
			const html = await article.text();
			expect(html).toContain('<h1>Photographier ses chantiers</h1>');
			expect(html).toContain(`<link rel="canonical" href="${server.url}/blog/${slug}"`);
			expect(html).toContain('"@type":"Article"');
			// The cover: its own address, the widths of the other photos, a WebP from the private bucket.
			const cover = /<div class="cover[^"]*">\s*<img[^>]*? src="([^"]+)" srcset="([^"]+)"/.exec(
				html.replaceAll('&amp;', '&')
			);
			expect(cover?.[1]).toMatch(new RegExp(`^/blog/${slug}/couverture\\?v=`));
			expect(cover?.[2]).toContain('w=480 480w');
			const photo = await fetch(`${server.url}${cover![1]}&w=480`);
			expect(photo.status).toBe(200);
			expect(photo.headers.get('content-type')).toBe('image/webp');
			expect(await (await fetch(`${server.url}/blog`)).text()).toContain(`href="/blog/${slug}"`);
			const feed = await (await fetch(`${server.url}/blog/rss.xml`)).text();
			expect(feed).toContain(`<link>${server.url}/blog/${slug}</link>`);
			expect(await (await fetch(`${server.url}/sitemap.xml`)).text()).toContain(
				`${server.url}/blog/${slug}</loc>`
			);

			const visitor = await page
				.context()
				.browser()!
				.newPage({ viewport: { width, height: 900 } });
			await visitor.goto(`${server.url}/blog/${slug}`);
			await expectNoAxeViolation(visitor);
			await expectNoHorizontalScroll(visitor);
			await visitor.screenshot({ path: `${SHOTS}/article-${width}.png`, fullPage: true });
			// The blog's list, linked from the header now that it has an article.
			await visitor.goto(`${server.url}/`);
			await visitor.goto(`${server.url}/blog`);
			await expect(visitor.getByRole('link', { name: 'Photographier ses chantiers' })).toBeVisible();
			expect(await visitor.locator('header a[href="/blog"]').count()).toBeGreaterThan(0);
			await expectNoAxeViolation(visitor);
			await expectNoHorizontalScroll(visitor);
			await visitor.close();

			// A new address: the old one answers 301 to it, written with the publish.
			await page.getByRole('textbox', { name: 'Adresse (slug)' }).fill(`${slug}-v2`);
			await expect(savedState(page)).toBeVisible({ timeout: 10_000 });
			await page.getByRole('button', { name: 'Publier' }).click();
			await expect(page.getByText(/Publié : version 2 en ligne/)).toBeVisible();
			const moved = await fetch(`${server.url}/blog/${slug}`, { redirect: 'manual' });
			expect(moved.status).toBe(301);
			expect(moved.headers.get('location')).toBe(`/blog/${slug}-v2`);
			const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
			expect(sitemap).toContain(`/blog/${slug}-v2</loc>`);
			expect(sitemap).not.toContain(`/blog/${slug}</loc>`);
		});
	});
}

test('hostile text in every field stays text, on the page and in the preview', async ({ page }) => {
	const server = await startIsolatedServer();
	try {
		const cookie = await firstAdminCookie(server.url, ADMIN);
		await signedIn(page.context(), server, cookie);
		const dialogs: string[] = [];
		page.on('dialog', (dialog) => {
			dialogs.push(dialog.message());
			void dialog.dismiss();
		});
		const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
		const created = await page.request.post(`${server.url}/api/admin/pages`, {
			data: {
				kind: 'article',
				slug: 'piege',
				title: `Piège ${hostile}`.slice(0, 70),
				description: `Une description assez longue pour la règle, suivie de ${hostile}`,
				body: `${hostile}\n\n[clic](javascript:alert(3))\n\n<a href="javascript:alert(4)">lien</a>`
			}
		});
		expect(created.status()).toBe(201);
		const article = await created.json();
		expect(
			(
				await page.request.post(`${server.url}/api/admin/pages/${article.id}/publish`, {
					data: { version: article.version }
				})
			).status()
		).toBe(200);
		// A page's fields too, seen in the preview only (never published).
		const home = await (await page.request.get(`${server.url}/api/admin/pages/home`)).json();
		await page.request.put(`${server.url}/api/admin/pages/home`, {
			data: { version: home.version, draft: { ...home.live, heroTitle: hostile, body: hostile } }
		});
		for (const url of ['/blog/piege', '/blog/piege?apercu=1', '/blog', '/?apercu=1']) {
			await page.goto(`${server.url}${url}`);
			await expect(page.locator('main')).toContainText('<script>alert(2)</script>');
			// The only scripts are ours (structured data, the site's own file): none from the text.
			const scripts = await page
				.locator('main script')
				.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('type')));
			expect(
				scripts.every((type) => type === 'application/ld+json'),
				url
			).toBe(true);
			expect(
				await page.locator('main img[src="x"], main [onerror], main a[href^="javascript:"]').count(),
				url
			).toBe(0);
		}
		expect(dialogs).toEqual([]);
	} finally {
		await server.stop();
	}
});

test('the toolbar keeps the marker it inserts, asks a link’s address in a dialog, and a new article takes its address from its title', async ({
	page
}) => {
	const server = await startIsolatedServer();
	try {
		const cookie = await firstAdminCookie(server.url, ADMIN);
		await signedIn(page.context(), server, cookie);
		await page.goto(`${server.url}/admin/pages`);
		await untilHydrated(page);
		const title = page.getByRole('textbox', { name: 'Titre' });
		const slug = page.getByRole('textbox', { name: /Adresse/ });
		await title.fill('Les fondations : béton armé, l’œuvre');
		await expect(slug).toHaveValue('les-fondations-beton-arme-l-oeuvre');
		// Once the admin writes an address of their own, the title no longer changes it.
		await slug.fill('fondations');
		await title.fill('Les fondations, autrement');
		await expect(slug).toHaveValue('fondations');
		await page.getByRole('button', { name: 'Créer le brouillon' }).click();
		await page.waitForURL(/\/admin\/pages\/[0-9a-f-]{36}$/);
		await untilHydrated(page);

		const body = page.getByRole('textbox', { name: 'Texte', exact: true });
		await body.fill('');
		await page.getByRole('button', { name: 'Intertitre' }).click();
		await expect(body).toBeFocused();
		await page.keyboard.type('Le plan');
		await expect(body).toHaveValue('## Le plan');
		await page.keyboard.press('Enter');
		await page.getByRole('button', { name: 'Liste', exact: true }).click();
		await expect(body).toBeFocused();
		await page.keyboard.type('un mur');
		await expect(body).toHaveValue('## Le plan\n- un mur');
		await expect(page.locator('.preview .prose h2')).toHaveText('Le plan');
		await expect(page.locator('.preview .prose li')).toHaveText('un mur');
		// A selection is prefixed, line by line.
		await body.fill('un\ndeux');
		await body.evaluate((node: HTMLTextAreaElement) => node.setSelectionRange(0, node.value.length));
		await page.getByRole('button', { name: 'Liste', exact: true }).click();
		await expect(body).toHaveValue('- un\n- deux');

		// « Lien »: the address in a small dialog, the selection becomes the link.
		await body.evaluate((node: HTMLTextAreaElement) => node.setSelectionRange(2, 4));
		await page.getByRole('button', { name: 'Lien' }).click();
		const dialog = page.getByRole('dialog', { name: 'Ajouter un lien' });
		await expect(dialog).toBeVisible();
		await dialog.getByRole('textbox', { name: 'Adresse du lien' }).fill('/contact');
		await dialog.getByRole('button', { name: 'Ajouter le lien' }).click();
		await expect(dialog).toBeHidden();
		await expect(body).toHaveValue('- [un](/contact)\n- deux');
		// Cancelled, nothing changes.
		await page.getByRole('button', { name: 'Lien' }).click();
		await dialog.getByRole('button', { name: 'Annuler' }).click();
		await expect(body).toHaveValue('- [un](/contact)\n- deux');
		await expectNoAxeViolation(page);

		// The preview says what it is.
		await expect(savedState(page)).toBeVisible({ timeout: 10_000 });
		await page.goto(`${server.url}/blog/fondations?apercu=1`);
		await expect(page.getByRole('status')).toContainText('Aperçu — brouillon non publié');

		// On a phone, the state and « Publier » stay in sight down the home page's long form.
		await page.setViewportSize({ width: 360, height: 740 });
		await openEditor(page, server, 'home');
		for (const at of [0.5, 1]) {
			await page.evaluate((share) => window.scrollTo(0, document.body.scrollHeight * share), at);
			await expect(page.getByRole('button', { name: 'Publier' })).toBeInViewport();
			await expect(page.locator('.state')).toBeInViewport();
		}
		await page.screenshot({ path: `${SHOTS}/editor-bar-360.png` });
		// « Annuler les modifications » appears with the first draft saved, and stays while it exists.
		const cancel = page.getByRole('button', { name: 'Annuler les modifications' });
		await expect(cancel).toHaveCount(0);
		await page.getByRole('textbox', { name: 'Accroche' }).fill('Des sites qui font sonner le téléphone');
		await expect(savedState(page)).toBeVisible({ timeout: 10_000 });
		await expect(cancel).toBeVisible();
		await page.getByRole('textbox', { name: 'Accroche' }).fill('Des sites qui font sonner le téléphone !');
		await expect(savedState(page)).toBeVisible({ timeout: 10_000 });
		await expect(cancel).toBeVisible();
		await expectNoAxeViolation(page);
		await expectNoHorizontalScroll(page);
	} finally {
		await server.stop();
	}
});

test('« Publier le … à … » schedules the draft in Paris time, the dashboard lists it, and it can be cancelled', async ({
	page
}) => {
	const server = await startIsolatedServer();
	try {
		const cookie = await firstAdminCookie(server.url, ADMIN);
		await signedIn(page.context(), server, cookie);
		await openEditor(page, server, 'contact');
		await page
			.getByRole('textbox', { name: 'Chapeau' })
			.fill('Une première réponse sous 24 heures, même à Noël.');
		await expect(savedState(page)).toBeVisible({ timeout: 10_000 });
		// A time an hour ahead in Paris, whatever this browser's zone.
		const inAnHour = parisWallTime(new Date(Date.now() + 3_600_000));
		await page.getByLabel('Publier le … à … (heure de Paris)').fill(inAnHour);
		await page.getByRole('button', { name: 'Programmer' }).click();
		await expect(page.getByText(/^Publication programmée le /).first()).toBeVisible();
		const entry = await (await page.request.get(`${server.url}/api/admin/pages/contact`)).json();
		// The very minute typed, read in Paris time.
		expect(new Date(entry.scheduledAt).toISOString()).toBe(
			new Date(fromParisWallTime(inAnHour)!).toISOString()
		);
		await expectNoAxeViolation(page);
		await page.goto(`${server.url}/admin`);
		await expect(page.getByRole('link', { name: /Publication de « .* » programmée le/ })).toBeVisible();
		await openEditor(page, server, 'contact');
		await page.getByRole('button', { name: 'Annuler la programmation' }).click();
		await expect(page.getByText('Programmation annulée : le brouillon attend.')).toBeVisible();
		const after = await (await page.request.get(`${server.url}/api/admin/pages/contact`)).json();
		expect(after.scheduledAt).toBeNull();
		expect(after.draft.lead).toBe('Une première réponse sous 24 heures, même à Noël.');
	} finally {
		await server.stop();
	}
});

test('« Publier » checks the model’s rules in the page first: a draft that cannot go live says why, and nothing is asked', async ({
	page
}) => {
	const server = await startIsolatedServer();
	try {
		const cookie = await firstAdminCookie(server.url, ADMIN);
		await signedIn(page.context(), server, cookie);
		await openEditor(page, server, 'contact');
		const asked: string[] = [];
		page.on('request', (request) => {
			if (request.url().endsWith('/publish')) asked.push(request.method());
		});
		await page.getByRole('textbox', { name: 'Chapeau' }).fill('Trop court.');
		await page.getByRole('button', { name: 'Publier', exact: true }).click();
		await expect(page.getByText('Certains champs empêchent la publication').first()).toBeVisible();
		await expect(page.getByText(/Chapeau\s:\sentre\s20\set\s400\scaractères/).first()).toBeVisible();
		expect(asked).toEqual([]);
		// Once the words are right, the publish is asked, and goes through.
		await page
			.getByRole('textbox', { name: 'Chapeau' })
			.fill('Parlez-nous de votre activité : une première réponse sous 24 heures.');
		await page.getByRole('button', { name: 'Publier', exact: true }).click();
		await expect(page.getByText(/^Publié : version 2 en ligne/)).toBeVisible();
		expect(asked).toEqual(['POST']);
	} finally {
		await server.stop();
	}
});
