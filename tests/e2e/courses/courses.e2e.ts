/**
 * Courses in Chromium (issue "Courses and the members' area", point 6): an admin writes and publishes a module in
 * the editor, a paying member completes it on a phone and sees the dashboard move; axe on the admin and member
 * pages; a signed-out visitor and a non-member are kept out. Then (issue « Learning, part 3 ») a quiz and « Ordre
 * imposé », and the attestation: downloaded, checked by a visitor, revoked by the admin.
 */
import { TEST_WAITS } from '../support/waits';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import sharp from 'sharp';
import path from 'node:path';
import { expectNoAxeViolation, expectNoHorizontalScroll } from '../support/a11y';
import { keepScreenshot } from '../support/screenshots';
import { expect, test } from '../support/fixtures';
import { E2E_ADMIN, PASSWORD, register, sessionCookieFor, signIn } from '../support/accounts';
import { requestHead } from '../support/raw-http';
import { startIsolatedServer, type RunningServer } from '../support/server';
import { startFakeStripe, type FakeStripe } from '../../helpers/fake-stripe';
import { startSmtp, type RunningSmtp } from '../../helpers/smtp';
import { checkoutCompleted, signEvent } from '../../helpers/stripe-events';
import { pdfImages } from '../../helpers/pdf';

test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let smtp: RunningSmtp;
let stripe: FakeStripe;
let base: string;
const MEMBER = 'lea.membre@exemple.fr';
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/images');
let mediaPath = '';

test.beforeAll(async ({ playwright }) => {
	smtp = await startSmtp();
	stripe = await startFakeStripe();
	server = await startIsolatedServer({
		SMTP_URL: smtp.url,
		ADMIN_EMAIL: 'patron@atelier.test',
		...stripe.env
	});
	base = server.url;
	// A paying member: candidature, approval, completed checkout, password set through the welcome link.
	const api = await playwright.request.newContext({ baseURL: base });
	expect((await api.post('/api/admin/setup', { data: E2E_ADMIN })).status()).toBe(201);
	await api.post('/login', {
		form: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
		headers: { origin: base, accept: 'text/html' },
		maxRedirects: 0
	});
	const created = await api.post('/api/candidature', {
		data: {
			firstName: 'Léa',
			lastName: 'Membre',
			email: MEMBER,
			phone: '06 00 00 00 02',
			postalCode: '69002',
			city: 'Lyon',
			trade: 'peintre',
			company: 'Léa Peinture',
			siret: '73282932000074',
			yearsExperience: 4,
			teamSize: 1,
			goals: ['image'],
			presence: ['aucune'],
			hoursPerWeek: 3,
			motivation: 'Je veux apprendre à présenter mes chantiers en ligne, simplement.',
			consent: true
		}
	});
	const { id } = await created.json();
	expect((await api.post(`/api/admin/candidatures/${id}/approve`)).status()).toBe(200);
	await api.dispose();
	const signed = signEvent(
		checkoutCompleted({ candidatureId: id, email: MEMBER, subscription: 'sub_courses' }),
		stripe.env.STRIPE_WEBHOOK_SECRET!
	);
	const hook = await fetch(`${base}/api/payments/webhook`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
		body: signed.payload
	});
	expect(hook.status).toBe(200);
	await expect
		.poll(() => smtp.received.some((m) => m.parsed.subject?.includes('choisissez votre mot de passe')))
		.toBe(true);
	const welcome = smtp.received.find((m) => m.parsed.subject?.includes('choisissez votre mot de passe'))!;
	const token = /\/mot-de-passe\/([\w-]{43})/.exec(welcome.parsed.text ?? '')![1];
	const set = await fetch(`${base}/mot-de-passe/${token}`, {
		method: 'POST',
		headers: { origin: base, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ password: PASSWORD }),
		redirect: 'manual'
	});
	expect(set.status).toBe(303);
});
test.afterAll(async () => {
	expect(await server.stop()).toBe(0);
	await smtp.close();
	await stripe.close();
});

test('an admin writes a module with a live preview, the slug following the title, and publishes it', async ({
	browser
}) => {
	const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
	const page = await context.newPage();
	// The editor's effects settle: no error in the page (an endless effect is one, Svelte's update depth error).
	const pageErrors: string[] = [];
	page.on('pageerror', (error) => pageErrors.push(error.message));
	// Nor a warning: superforms said « Duplicate form id's found » once the new module's page followed its creation.
	page.on('console', (message) => {
		if (message.type() === 'warning' || message.type() === 'error') pageErrors.push(message.text());
	});
	await signIn(page, base, E2E_ADMIN.email, E2E_ADMIN.password);
	await page.goto(`${base}/admin/cours`);
	await expectNoAxeViolation(page);
	await page.getByRole('link', { name: 'Nouveau module' }).click();
	await page.locator('html[data-hydrated]').waitFor();
	await page.getByLabel('Titre', { exact: true }).fill('Votre fiche Google : l’essentiel');
	await expect(page.getByLabel('Adresse (/cours/…)')).toHaveValue('votre-fiche-google-l-essentiel');
	await page.getByLabel('Durée (minutes)').fill('15');
	await page
		.getByLabel('Contenu (Markdown)')
		.fill(
			'## Pourquoi\n\nVos clients vous **cherchent** sur Google.\n\n<script>alert(1)</script>\n\n[piège](javascript:alert(1))'
		);
	const preview = page.locator('.preview');
	await expect(preview.getByRole('heading', { name: 'Pourquoi' })).toBeVisible();
	await expect(preview.locator('strong')).toHaveText('cherchent');
	await expect(preview.locator('script')).toHaveCount(0);
	await expect(preview.locator('a[href^="javascript"]')).toHaveCount(0);
	await expectNoAxeViolation(page);
	await page.getByRole('button', { name: 'Créer le module' }).click();
	await expect(page.getByRole('heading', { name: 'Modifier le module' })).toBeVisible();

	// Unsaved changes are not lost on a stray navigation: the browser asks first.
	await page.getByLabel('Titre', { exact: true }).fill('Votre fiche Google : l’essentiel (v2)');
	page.once('dialog', (dialog) => dialog.dismiss());
	await page.getByRole('link', { name: '← Tous les modules' }).click();
	await expect(page.getByRole('heading', { name: 'Modifier le module' })).toBeVisible();
	await page.getByLabel('Publié (visible des membres)').check();
	await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
	await expect(page.getByText('Module enregistré.')).toBeVisible();

	// An image through the upload pipeline, placed in the content with the line the page gives.
	await page.getByLabel(/Photo \(JPEG/).setInputFiles(path.join(FIXTURES, 'Landscape_1.jpg'));
	await page.getByRole('button', { name: 'Envoyer' }).click();
	const snippet = page.getByLabel('Ligne Markdown de l’image');
	await expect(snippet).toHaveValue(/^!\[Décrivez l’image\]\(\/cours\/media\/[\w-]+\.webp\)$/);
	mediaPath = /\((\/cours\/media\/[^)]+)\)/.exec(await snippet.inputValue())![1]!;
	const content = page.getByLabel('Contenu (Markdown)');
	await content.fill(`${await content.inputValue()}\n\n![Un mur de pierre](${mediaPath})`);
	await expect(page.locator('.preview img')).toHaveAttribute('src', mediaPath);
	await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
	await expect(page.getByText('Module enregistré.')).toBeVisible();

	await page.goto(`${base}/admin/cours`);
	await expect(page.getByText('Publié', { exact: true })).toBeVisible();
	expect(pageErrors).toEqual([]);
	await context.close();
});

test('a member completes the module on a phone and the dashboard moves', async ({ browser }) => {
	const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
	const page = await context.newPage();
	await signIn(page, base, MEMBER, PASSWORD);
	await page.goto(`${base}/dashboard`);
	await expect(page.getByText('0 % du programme')).toBeVisible();
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	await page.getByRole('link', { name: 'Continuer' }).click();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Votre fiche Google : l’essentiel (v2)');
	// A client-side navigation: the module's HTML came with the page's data.
	await expect(page.locator('.prose strong')).toHaveText('cherchent');
	// A full load: the module's HTML is in the page once, not again in the data it hydrates from, and hydration
	// keeps what the server rendered.
	const source = await (await page.request.get(page.url())).text();
	expect(source.split('Vos clients vous').length - 1).toBe(1);
	await page.reload();
	await page.locator('html[data-hydrated]').waitFor();
	await expect(page.locator('.prose strong')).toHaveText('cherchent');
	await expect(page.locator('.prose script')).toHaveCount(0);
	// The module's image is served to the member by the route that checks access.
	const image = page.getByRole('img', { name: 'Un mur de pierre' });
	await expect(image).toHaveAttribute('src', mediaPath);
	await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	await page.getByRole('button', { name: 'Marquer comme terminé' }).dblclick();
	await expect(page.getByRole('button', { name: 'Annuler : pas encore terminé' })).toBeVisible();
	await expect(page.getByText('100 % du programme')).toBeVisible();
	// The data asked again after the action brings the HTML: the module is still there, whole.
	await expect(page.locator('.prose strong')).toHaveText('cherchent');
	await expect(image).toBeVisible();
	// The last module done: the main action leads to the course's end; going back on it is the small one.
	const done = page.getByRole('region', { name: 'Module terminé' });
	await expect(done.getByRole('link', { name: 'Voir le bilan du programme' })).toHaveClass(
		/(?:^|\s)button(?:\s|$)/
	);
	await expect(page.getByRole('button', { name: 'Annuler : pas encore terminé' })).not.toHaveClass(
		/(?:^|\s)button(?:\s|$)/
	);
	await expect(page.getByText(/^\d+\smin\s·\sTerminé$/)).toBeVisible();
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	await page.screenshot({ path: test.info().outputPath('module-termine-360.png'), fullPage: true });
	await done.getByRole('link', { name: 'Voir le bilan du programme' }).click();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Programme terminé : bravo !');
	await expect(
		page.getByText(/Vous avez suivi tout le .+\s:\s1\smodule, soit \d+\smin de formation\./)
	).toBeVisible();
	await expect(page.getByRole('link', { name: 'Votre fiche Google : l’essentiel (v2)' })).toBeVisible();
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	await page.screenshot({ path: test.info().outputPath('bilan-360.png'), fullPage: true });
	await page.goto(`${base}/dashboard`);
	await expect(page.getByText('100 % du programme')).toBeVisible();
	await expect(page.getByText('Bravo, vous avez terminé tous les modules publiés.')).toBeVisible();
	await expect(page.getByRole('link', { name: 'Voir le bilan du programme' })).toBeVisible();
	await context.close();
});

test('without JavaScript the completion is a form action too', async ({ browser }) => {
	const context = await browser.newContext({ javaScriptEnabled: false });
	const page = await context.newPage();
	await signIn(page, base, MEMBER, PASSWORD);
	await page.goto(`${base}/cours/votre-fiche-google-l-essentiel-v2`);
	await page.getByRole('button', { name: 'Annuler : pas encore terminé' }).click();
	await expect(page.getByRole('button', { name: 'Marquer comme terminé' })).toBeVisible();
	await expect(page.getByText('0 % du programme')).toBeVisible();
	await context.close();
});

test('signed out → sign-in; a registered visitor without membership → how to join; unknown module → 404', async ({
	page,
	pageProblems
}) => {
	expect((await page.request.get(`${base}${mediaPath}`, { maxRedirects: 0 })).status()).toBe(303);
	const response = await page.goto(`${base}/cours/votre-fiche-google-l-essentiel-v2`);
	expect(page.url()).toContain('/login?redirectTo=');
	expect(response!.status()).toBe(200);
	await register(page, base, 'Sans Abonnement', 'sans.abonnement@exemple.fr');
	await page.waitForURL(`${base}/dashboard`);
	await expect(page.getByText('Vous n’avez pas encore d’abonnement')).toBeVisible();
	await page.goto(`${base}/cours/votre-fiche-google-l-essentiel-v2`);
	await expect(page.getByRole('heading', { name: 'Cours réservés aux membres' })).toBeVisible();
	await expect(page.getByText('Vos clients vous')).toHaveCount(0);
	// Nor its images, asked for directly.
	expect((await page.request.get(`${base}${mediaPath}`)).status()).toBe(403);
	await page.context().clearCookies();
	await signIn(page, base, MEMBER, PASSWORD);
	const missing = await page.goto(`${base}/cours/nexiste-pas`);
	expect(missing!.status()).toBe(404);
	pageProblems.length = 0;
});

// ——— Lessons people watch, files they keep (issue "Learning, part 2") ———

const MEDIA = path.resolve(import.meta.dirname, '../../fixtures/media');
const VIDEO_MODULE = 'filmer-un-chantier';
const CHUNK = 8 * 1024 * 1024;

/**
 * A 20 MB lesson: the fixture's MP4 (index first) with a `free` box after it, which players skip — large enough to
 * go in three PATCHes of 8 MB, and still a whole, valid MP4 of 12 s.
 */
function paddedLesson(): string {
	const lesson = readFileSync(path.join(MEDIA, 'lesson.mp4'));
	const padding = 20 * 1024 * 1024;
	const free = Buffer.alloc(padding);
	free.writeUInt32BE(padding, 0);
	free.write('free', 4, 'latin1');
	const file = test.info().outputPath('lecon-filmer-un-chantier.mp4');
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, Buffer.concat([lesson, free]));
	return file;
}

test('an admin uploads a lesson video in the editor: cut at a third, it resumes where it was; captions, a poster and a worksheet too', async ({
	browser
}) => {
	// 20 MB in three PATCHes, each through Playwright's interception (the route below) and its trace: 10–11 s here,
	// idle or with both cores kept busy beside it, yet past 60 s once in a CI run on a slower machine.
	test.setTimeout(180_000);
	const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
	const page = await context.newPage();
	await signIn(page, base, E2E_ADMIN.email, E2E_ADMIN.password);
	const created = await page.request.post(`${base}/api/admin/modules`, {
		data: {
			title: 'Filmer un chantier',
			slug: VIDEO_MODULE,
			durationMinutes: 12,
			content: 'Regardez la vidéo.'
		},
		headers: { origin: base }
	});
	expect(created.status()).toBe(201);
	const { id } = await created.json();
	await page.goto(`${base}/admin/cours/${id}`);
	await page.locator('html[data-hydrated]').waitFor();

	// The second PATCH (the middle third) has its connection cut once; every PATCH's starting offset is noted.
	const offsets: number[] = [];
	let cut = false;
	await page.route('**/api/admin/uploads/*', async (route) => {
		const request = route.request();
		if (request.method() === 'PATCH') {
			const offset = Number(request.headers()['upload-offset']);
			offsets.push(offset);
			if (offset === CHUNK && !cut) {
				cut = true;
				await route.abort('connectionreset');
				return;
			}
		}
		await route.continue();
	});
	const file = paddedLesson();
	await page.getByLabel('Choisir une vidéo').setInputFiles(file);
	const videoSection = page.getByRole('region', { name: 'Vidéo' });
	await expect(videoSection.getByText(/lecon-filmer-un-chantier\.mp4\s·\s20\sMo\s·\s12\ss/)).toBeVisible({
		timeout: 120_000
	});
	expect(cut).toBe(true);
	// Resumed from the cut, never from the start: 0, 8 MB (cut), 8 MB again, 16 MB.
	expect(offsets).toEqual([0, CHUNK, CHUNK, 2 * CHUNK]);
	await page.unroute('**/api/admin/uploads/*');
	// The preview plays what was stored.
	await expect
		.poll(() => videoSection.locator('video').evaluate((v: HTMLVideoElement) => Math.round(v.duration)))
		.toBe(12);
	// An MP4 whose index is first gets no warning.
	await expect(videoSection.getByRole('note')).toHaveCount(0);

	await page.getByLabel('Choisir des sous-titres').setInputFiles(path.join(MEDIA, 'lesson.vtt'));
	await expect(
		page.getByRole('region', { name: 'Sous-titres' }).getByText(/lesson\.vtt\s·\s139\so/)
	).toBeVisible();
	await page.getByLabel('Choisir une affiche').setInputFiles(path.join(FIXTURES, 'Landscape_2.jpg'));
	await expect(page.getByRole('img', { name: 'Affiche de la vidéo' })).toBeVisible();
	await page.getByLabel('Ajouter une fiche PDF').setInputFiles(path.join(MEDIA, 'fiche.pdf'));
	await page.getByLabel('Titre de la fiche 1').fill('Fiche : les bons angles');
	// A file that is not what it says: the server's French message, and nothing added.
	await page.getByLabel('Ajouter une fiche PDF').setInputFiles({
		name: 'fiche.pdf',
		mimeType: 'application/pdf',
		buffer: Buffer.from('MZ\x90\x00 not a pdf at all', 'latin1')
	});
	await expect(page.getByRole('alert').filter({ hasText: 'n’est pas un PDF' })).toBeVisible();
	await expect(page.getByLabel('Titre de la fiche 2')).toHaveCount(0);

	await page.getByLabel('Publié (visible des membres)').check();
	await expectNoAxeViolation(page);
	await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
	await expect(page.getByText('Module enregistré.')).toBeVisible();
	await page.screenshot({ path: test.info().outputPath('editeur-fichiers-1280.png'), fullPage: true });

	// What was saved is what the server shows after a reload.
	await page.reload();
	await expect(page.getByRole('region', { name: 'Vidéo' }).getByText(/20\sMo\s·\s12\ss/)).toBeVisible();
	await expect(page.getByLabel('Titre de la fiche 1')).toHaveValue('Fiche : les bons angles');
	await page.goto(`${base}/admin/cours`);
	await expect(page.getByTestId('course-files-total')).toContainText('4 fichiers');
	await context.close();
});

test('an MP4 that keeps its index at the end gets the warning and how to fix it', async ({ browser }) => {
	const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
	const page = await context.newPage();
	await signIn(page, base, E2E_ADMIN.email, E2E_ADMIN.password);
	await page.goto(`${base}/admin/cours/nouveau`);
	await page.locator('html[data-hydrated]').waitFor();
	await page.getByLabel('Choisir une vidéo').setInputFiles(path.join(MEDIA, 'index-at-end.mp4'));
	const warning = page.getByRole('region', { name: 'Vidéo' }).getByRole('note');
	await expect(warning).toContainText('index à la fin');
	await expect(warning).toContainText('-movflags +faststart');
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	await page.screenshot({ path: test.info().outputPath('editeur-index-360.png'), fullPage: true });
	await context.close();
});

test('a member plays the lesson on a phone with captions, seeks to the middle, leaves, and comes back there; the worksheet downloads with its title', async ({
	browser
}) => {
	const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
	const page = await context.newPage();
	await signIn(page, base, MEMBER, PASSWORD);
	// The first module done, the lesson is what comes next.
	await page.goto(`${base}/cours/votre-fiche-google-l-essentiel-v2`);
	await page.getByRole('button', { name: 'Marquer comme terminé' }).click();
	await expect(page.getByRole('button', { name: 'Annuler : pas encore terminé' })).toBeVisible();

	await page.goto(`${base}/cours/${VIDEO_MODULE}`);
	await page.locator('html[data-hydrated]').waitFor();
	const video = page.locator('video');
	await expect(video).toHaveAttribute('preload', 'metadata');
	await expect(video).toHaveAttribute('playsinline', '');
	// The poster at the player's width (or the whole poster where that width is not stored), asked with the page.
	await expect(video).toHaveAttribute('poster', /^\/cours\/media\/course\/[\w-]+-w800\.webp$/);
	const posterUrl = (await video.getAttribute('poster'))!;
	await expect(page.locator(`link[rel="preload"][as="image"][href="${posterUrl}"]`)).toHaveCount(1);
	const poster = await page.request.get(base + posterUrl);
	expect(poster.status()).toBe(200);
	expect(poster.headers()['content-type']).toBe('image/webp');
	const track = video.locator('track');
	await expect(track).toHaveAttribute('kind', 'captions');
	await expect(track).toHaveAttribute('srclang', 'fr');
	await expect(track).toHaveAttribute('default', '');
	await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
	expect(await video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(12);

	// Seek to the middle, as a thumb on the bar would; the caption of that moment shows.
	await video.evaluate(async (v: HTMLVideoElement) => {
		v.muted = true;
		await v.play();
		v.currentTime = 6;
		await new Promise((resolve) => v.addEventListener('seeked', resolve, { once: true }));
		v.pause();
	});
	await expect
		.poll(() =>
			video.evaluate((v: HTMLVideoElement) => {
				const cues = v.textTracks[0]?.activeCues;
				return cues && cues.length ? (cues[0] as VTTCue).text : null;
			})
		)
		.toBe('Montrez vos chantiers en photos.');
	expect(await video.evaluate((v: HTMLVideoElement) => v.textTracks[0]!.mode)).toBe('showing');
	// Under the video, its transcript from the same captions: closed, opened by a tap, in the page's own text.
	const transcript = page.getByRole('group').filter({ hasText: 'Transcription de la vidéo' });
	await transcript.getByText('Transcription de la vidéo').click();
	await expect(transcript).toContainText(
		'0 s Bonjour et bienvenue dans ce module. Montrez vos chantiers en photos.'
	);
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	await page.screenshot({ path: test.info().outputPath('lecon-360.png'), fullPage: true });

	// The worksheet: listed with its type and size, downloaded under its title.
	const sheet = page.getByRole('region', { name: 'Fiches à garder' });
	await expect(sheet.getByText(/PDF\s·\s608\so/)).toBeVisible();
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		sheet.getByRole('link', { name: 'Fiche : les bons angles' }).click()
	]);
	expect(download.suggestedFilename()).toMatch(/les bons angles\.pdf$/);
	expect(readFileSync(await download.path()).equals(readFileSync(path.join(MEDIA, 'fiche.pdf')))).toBe(true);

	// Leaving keeps the place; the dashboard says where the lesson resumes.
	await page.goto(`${base}/dashboard`);
	const resume = page.getByRole('link', { name: /Continuer\s:\sreprendre\sà\s6\ss/ });
	await expect(resume).toBeVisible();
	await resume.click();
	await page.locator('html[data-hydrated]').waitFor();
	await expect(page.getByText(/Reprise\sà\s6\ss, là où vous vous étiez arrêté\./)).toBeVisible();
	await expect
		.poll(() =>
			page.locator('video').evaluate((v: HTMLVideoElement) => (v.readyState >= 1 ? v.currentTime : -1))
		)
		.toBeGreaterThanOrEqual(5.9);
	await context.close();
});

test('without JavaScript the lesson still plays from its own URL and the worksheet still downloads', async ({
	browser
}) => {
	const context = await browser.newContext({ javaScriptEnabled: false });
	const page = await context.newPage();
	await signIn(page, base, MEMBER, PASSWORD);
	await page.goto(`${base}/cours/${VIDEO_MODULE}`);
	const source = page.locator('video source');
	const src = (await source.getAttribute('src'))!;
	expect(src).toMatch(/^\/cours\/media\/course\/[\w-]+\.mp4#t=6$/);
	const range = await page.request.get(`${base}${src.split('#')[0]}`, { headers: { range: 'bytes=0-99' } });
	expect(range.status()).toBe(206);
	const sheet = page.getByRole('link', { name: 'Fiche : les bons angles' });
	const file = await page.request.get(`${base}${await sheet.getAttribute('href')}`);
	expect(file.status()).toBe(200);
	expect(file.headers()['content-disposition']).toContain('attachment');
	await context.close();
});

test('the course files answered by the server entry: a visitor is sent to sign in, a non-member refused, a download cut midway leaves the server serving the same bytes', async () => {
	const member = await sessionCookieFor(base, { email: MEMBER, password: PASSWORD });
	const page = await (await fetch(`${base}/cours/${VIDEO_MODULE}`, { headers: { cookie: member } })).text();
	const src = /<source src="([^"#]+)/.exec(page)![1]!;

	const visitor = await fetch(`${base}${src}`, { redirect: 'manual' });
	expect(visitor.status).toBe(303);
	expect(visitor.headers.get('location')).toContain('/login?redirectTo=');
	const outsider = await sessionCookieFor(base, { email: 'sans.abonnement@exemple.fr', password: PASSWORD });
	expect((await fetch(`${base}${src}`, { headers: { cookie: outsider, range: 'bytes=0-9' } })).status).toBe(
		403
	);

	const head = await fetch(`${base}${src}`, { method: 'HEAD', headers: { cookie: member } });
	expect(head.status).toBe(200);
	const size = Number(head.headers.get('content-length'));
	expect(size).toBeGreaterThan(20 * 1024 * 1024);
	// The headers every response carries, and the file's own.
	expect(head.headers.get('content-security-policy')).toBeTruthy();
	expect(head.headers.get('x-content-type-options')).toBe('nosniff');
	expect(head.headers.get('cache-control')).toBe('private, max-age=3600');

	// A player that goes away after a few hundred kilobytes of a whole-file range.
	const socket = net.connect(Number(new URL(base).port), new URL(base).hostname);
	socket.write(requestHead('GET', src, base, { cookie: member, range: 'bytes=0-' }));
	let received = 0;
	await new Promise<void>((resolve) =>
		socket.on('data', (chunk: Buffer) => {
			received += chunk.length;
			if (received > 300_000) {
				socket.destroy();
				resolve();
			}
		})
	);
	expect((await fetch(`${base}/healthz`)).status).toBe(200);
	const lesson = readFileSync(path.join(MEDIA, 'lesson.mp4'));
	const again = await fetch(`${base}${src}`, { headers: { cookie: member, range: 'bytes=1000-1999' } });
	expect(again.status).toBe(206);
	expect(Buffer.from(await again.arrayBuffer()).equals(lesson.subarray(1000, 2000))).toBe(true);
	const tail = await fetch(`${base}${src}`, { headers: { cookie: member, range: 'bytes=-16' } });
	expect(tail.headers.get('content-range')).toBe(`bytes ${size - 16}-${size - 1}/${size}`);
	expect(Buffer.from(await tail.arrayBuffer()).equals(Buffer.alloc(16))).toBe(true);
});

test('a quiz and « Ordre imposé »: the lesson and its video refuse until the module before is done; the member fails the quiz, reads why, waits, and passes', async ({
	browser
}) => {
	// Half a minute of it is the wait the quiz's limit imposes between two attempts.
	test.setTimeout(150_000);
	// The admin writes the quiz in the editor (its text checked as it is typed) and imposes the order.
	const adminContext = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
	const admin = await adminContext.newPage();
	await signIn(admin, base, E2E_ADMIN.email, E2E_ADMIN.password);
	await admin.goto(`${base}/admin/cours/nouveau`);
	await admin.locator('html[data-hydrated]').waitFor();
	await admin.getByLabel('Titre', { exact: true }).fill('Le quiz du mur');
	await admin.getByLabel('Publié (visible des membres)').check();
	const questions = admin.getByLabel('Questions', { exact: true });
	await questions.fill('[x] Un mortier de ciment');
	await expect(admin.getByText('Question 1 : écrivez l’énoncé avant les réponses.')).toBeVisible();
	await questions.fill(
		[
			'Quel mortier pour un mur porteur ?',
			'[x] Un mortier de ciment',
			'[ ] Du plâtre',
			'> Le plâtre ne tient pas à l’humidité.',
			'',
			'Que vérifie-t-on au niveau à bulle ?',
			'[x] L’aplomb',
			'[ ] La couleur',
			'[x] L’horizontalité',
			'> Le niveau donne l’aplomb et l’horizontalité, jamais la couleur.'
		].join('\n')
	);
	await expect(admin.getByText('2 questions : le module se termine en réussissant le quiz.')).toBeVisible();
	await admin.getByLabel('Seuil de réussite (%)').fill('100');
	await expectNoAxeViolation(admin);
	await admin.getByRole('button', { name: 'Créer le module' }).click();
	await expect(admin.getByRole('heading', { name: 'Modifier le module' })).toBeVisible();
	await admin.goto(`${base}/admin/cours`);
	await expect(admin.getByText(/quiz de 2 questions/)).toBeVisible();
	// Typed before the page's script runs, the name was put back by hydration while the fields after it were kept
	// (CI, 6 December): the form is filled once the page is live.
	await admin.locator('html[data-hydrated]').waitFor();
	// The programme's one name (issue « Experience, part 4 »): the home page says it at once, cached or not.
	const homeTitle = async () =>
		/<h2 id="training-title">([^<]*)<\/h2>/.exec(await (await fetch(`${base}/`)).text())?.[1];
	expect(await homeTitle()).not.toBe('Se faire connaître en ligne');
	await admin.getByLabel('Nom du programme').fill('Se faire connaître en ligne');
	await admin
		.getByLabel('Objectifs de la formation')
		.fill('Présenter ses chantiers en ligne et obtenir des avis clients.');
	await admin.getByRole('checkbox', { name: /Ordre imposé/ }).check();
	await admin.getByRole('button', { name: 'Enregistrer les réglages' }).click();
	await expect(admin.getByText('Réglages enregistrés : les modules s’ouvrent dans l’ordre.')).toBeVisible();
	await expectNoAxeViolation(admin);
	// The attestation's signature and stamp (issue « Experience, part 4 », point 2): uploaded here, printed on it.
	// A scan's grain makes it about 370 KB, past the 64 KB any other form may post: its route has an upload's limit.
	const stamp = await sharp({
		create: {
			width: 480,
			height: 200,
			channels: 4,
			background: '#808080',
			noise: { type: 'gaussian', mean: 128, sigma: 60 }
		}
	})
		.composite([
			{
				input: Buffer.from(
					'<svg xmlns="http://www.w3.org/2000/svg" width="480" height="200"><circle cx="100" cy="100" r="80" fill="none" stroke="#1d3b8f" stroke-width="10"/><path d="M220 140 C 270 30, 320 190, 460 60" stroke="#111" stroke-width="7" fill="none"/></svg>'
				)
			}
		])
		.png()
		.toBuffer();
	const signatureBlock = admin.getByTestId('signature');
	await signatureBlock
		.getByLabel('Image de la signature et du cachet')
		.setInputFiles({ name: 'signature.png', mimeType: 'image/png', buffer: stamp });
	await signatureBlock.getByRole('button', { name: 'Enregistrer la signature' }).click();
	await expect(
		admin.getByText('Signature enregistrée : les prochaines attestations la portent.')
	).toBeVisible();
	const preview = signatureBlock.getByRole('img', {
		name: 'La signature et le cachet que portent les attestations'
	});
	await expect(preview).toBeVisible();
	await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
	await expect(signatureBlock.getByRole('button', { name: 'Retirer la signature' })).toBeVisible();
	await expectNoAxeViolation(admin);
	// Only an admin sees the file: a visitor is sent away.
	const signatureUrl = new URL((await preview.getAttribute('src'))!, base).href;
	expect((await fetch(signatureUrl, { redirect: 'manual' })).status).toBe(303);
	const listed = await (await admin.request.get(`${base}/api/admin/modules`)).json();
	const lesson = listed.modules.find((m: { slug: string }) => m.slug === VIDEO_MODULE);
	const videoUrl = `/cours/media/${lesson.video.replace(/^storage:/, '')}`;
	expect(await (await admin.request.get(`${base}/api/admin/course`)).json()).toMatchObject({
		title: 'Se faire connaître en ligne',
		sequential: true,
		objectives: 'Présenter ses chantiers en ligne et obtenir des avis clients.'
	});
	expect(await homeTitle()).toBe('Se faire connaître en ligne');
	await adminContext.close();

	// The member goes back on the first module: the lesson after it closes, its video too.
	const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
	const page = await context.newPage();
	await signIn(page, base, MEMBER, PASSWORD);
	await page.goto(`${base}/cours/votre-fiche-google-l-essentiel-v2`);
	// The enhanced form once its script runs: a click while the page hydrates was lost on a loaded CI machine (4
	// December). The same action without JavaScript has its own test above.
	await page.locator('html[data-hydrated]').waitFor();
	await page.getByRole('button', { name: 'Annuler : pas encore terminé' }).click();
	await expect(page.getByRole('button', { name: 'Marquer comme terminé' })).toBeVisible();
	await page.goto(`${base}/cours/${VIDEO_MODULE}`);
	const closed = page.getByRole('region', { name: 'Ce module n’est pas encore ouvert' });
	await expect(closed).toContainText(
		'celui-ci s’ouvre après «\u202fVotre fiche Google : l’essentiel (v2)\u202f»'
	);
	await expect(page.locator('video')).toHaveCount(0);
	await expect(page.getByText('Regardez la vidéo.')).toHaveCount(0);
	const refused = await page.request.get(`${base}${videoUrl}`, { headers: { range: 'bytes=0-9' } });
	expect(refused.status()).toBe(403);
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	await keepScreenshot(page, 'experience-locked-module-360.png');
	// Listed, it shows as closed too: a padlock with its text, what it opens after, and no link.
	for (const listing of ['/dashboard', '/cours']) {
		await page.goto(`${base}${listing}`);
		const item = page
			.getByRole('listitem')
			.filter({ has: page.getByText('Filmer un chantier', { exact: true }) });
		await expect(item.getByRole('img', { name: 'Verrouillé' })).toBeVisible();
		await expect(item).toContainText('s’ouvre après «\u202fVotre fiche Google : l’essentiel (v2)\u202f»');
		await expect(item.getByRole('link')).toHaveCount(0);
		await expectNoAxeViolation(page);
		await expectNoHorizontalScroll(page);
	}
	await keepScreenshot(page, 'experience-locked-list-360.png');
	await page.goto(`${base}/cours/${VIDEO_MODULE}`);

	await closed
		.getByRole('link', { name: 'Reprendre au module «\u202fVotre fiche Google : l’essentiel (v2)\u202f»' })
		.click();
	await page.getByRole('button', { name: 'Marquer comme terminé' }).click();
	await expect(page.getByRole('button', { name: 'Annuler : pas encore terminé' })).toBeVisible();
	await page.goto(`${base}/cours/${VIDEO_MODULE}`);
	await expect(page.locator('video')).toHaveCount(1);
	expect((await page.request.get(`${base}${videoUrl}`, { headers: { range: 'bytes=0-9' } })).status()).toBe(
		206
	);
	await page.getByRole('button', { name: 'Marquer comme terminé' }).click();
	await expect(page.getByRole('button', { name: 'Annuler : pas encore terminé' })).toBeVisible();

	// The quiz: nothing of its answers in the page before an attempt, in the HTML or the data it hydrates from.
	await page.goto(`${base}/cours/le-quiz-du-mur`);
	await page.locator('html[data-hydrated]').waitFor();
	const html = await (await page.request.get(`${base}/cours/le-quiz-du-mur`)).text();
	const data = await (await page.request.get(`${base}/cours/le-quiz-du-mur/__data.json`)).text();
	for (const source of [html, data]) {
		expect(source).toContain('Du plâtre');
		expect(source).not.toMatch(/correct|humidité|jamais la couleur/);
	}
	await expect(page.getByRole('button', { name: 'Marquer comme terminé' })).toHaveCount(0);
	const quiz = page.getByRole('region', { name: 'Quiz du module' });
	await expect(quiz.getByText('Cochez toutes les bonnes réponses.')).toHaveCount(1);
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);

	const first = quiz.getByRole('group', { name: /Quel mortier/ });
	const second = quiz.getByRole('group', { name: /niveau à bulle/ });
	await first.getByLabel('Du plâtre').check();
	await second.getByLabel('L’aplomb').check();
	await quiz.getByRole('button', { name: 'Envoyer mes réponses' }).click();
	const failedAt = Date.now();
	await expect(quiz.getByRole('status')).toContainText(
		'Pas encore : 0 bonne réponse sur 2 (0 %, seuil 100 %).'
	);
	await expect(first.getByText('✗ Réponse incorrecte')).toBeVisible();
	await expect(first.getByText('Le plâtre ne tient pas à l’humidité.')).toBeVisible();
	await expect(second).toContainText('jamais la couleur');
	// What was ticked stays ticked, to change only what was wrong.
	await expect(second.getByLabel('L’aplomb')).toBeChecked();
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);

	// Sent again at once: the limit answers, and nothing is graded.
	await quiz.getByRole('button', { name: 'Renvoyer mes réponses' }).click();
	await expect(quiz.getByRole('alert')).toContainText(
		`Une tentative toutes les ${TEST_WAITS.quizRetrySeconds} secondes`
	);
	// The refusal is no grade: what the member ticked stays ticked.
	await expect(second.getByLabel('L’aplomb')).toBeChecked();
	await expect(first.getByLabel('Du plâtre')).toBeChecked();

	await first.getByLabel('Un mortier de ciment').check();
	await second.getByLabel('L’horizontalité').check();
	await page.waitForTimeout(Math.max(0, failedAt + TEST_WAITS.quizRetrySeconds * 1000 + 1000 - Date.now()));
	await quiz.getByRole('button', { name: 'Renvoyer mes réponses' }).click();
	await expect(quiz.getByRole('status')).toContainText(
		'Quiz réussi : 2 bonnes réponses sur 2 (100 %, seuil 100 %).'
	);
	await expect(first).toContainText('✓ Bonne réponse');
	await expect(page.getByRole('region', { name: 'Module terminé' })).toBeVisible();
	// Passed: what comes next is the one primary action; sending again is a secondary one.
	await expect(quiz.getByRole('button', { name: 'Renvoyer mes réponses' })).toHaveClass(/secondary/);
	await expect(page.getByText('100 % du programme')).toBeVisible();
	await expectNoAxeViolation(page);
	await page.setViewportSize({ width: 1280, height: 900 });
	await expectNoAxeViolation(page);
	await page.screenshot({ path: test.info().outputPath('quiz-passed-1280.png'), fullPage: true });
	await context.close();
});

test('the course done: the member downloads the attestation, a visitor checks it at its printed address, an altered copy is caught; the admin revokes it and the page says so', async ({
	browser
}) => {
	// Four browsers one after the other: the member's, a visitor's with and without JavaScript, the admin's.
	test.setTimeout(120_000);
	const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
	const page = await context.newPage();
	await signIn(page, base, MEMBER, PASSWORD);
	await page.goto(`${base}/bilan`);
	// The end-of-course survey comes first (issue « Formation, part 1 », point 4): five ratings and a comment.
	const survey = page.getByRole('region', { name: 'Votre avis sur la formation' });
	await expect(survey).toBeVisible();
	await expect(page.getByRole('region', { name: 'Votre attestation de fin de formation' })).toHaveCount(0);
	await expectNoAxeViolation(page);
	// The attestation's address leads back here until the survey is answered or put off.
	expect((await page.request.get(`${base}/bilan/attestation.pdf`, { maxRedirects: 0 })).status()).toBe(303);
	for (let i = 0; i < 5; i++) await survey.locator(`input[name="r${i}"][value="${5 - (i % 2)}"]`).check();
	await survey.getByLabel('Un commentaire, une suggestion (facultatif)').fill('Clair et concret.');
	await survey.getByRole('button', { name: 'Envoyer mon avis' }).click();
	await expect(page.getByRole('status')).toContainText('Merci pour vos réponses');
	const offer = page.getByRole('region', { name: 'Votre attestation de fin de formation' });
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	const waited = page.waitForEvent('download');
	await offer.getByRole('link', { name: 'Télécharger mon attestation' }).click();
	const download = await waited;
	const pdfPath = test.info().outputPath('attestation.pdf');
	await download.saveAs(pdfPath);
	const pdf = readFileSync(pdfPath);
	expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
	const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' }).replace(
		/\s+/g,
		' '
	);
	expect(text).toContain('Léa Membre');
	expect(text).toContain('« Se faire connaître en ligne »');
	// Signed with the image the admin uploaded: one image (and its transparency), in place of the empty frame.
	expect(pdfImages(pdfPath)).toEqual([
		['image', '480', '200'],
		['smask', '480', '200']
	]);
	expect(text).not.toContain('Signature et cachet');
	if (process.env.SCREENSHOTS_DIR)
		execFileSync('pdftoppm', [
			'-r',
			'80',
			'-png',
			'-singlefile',
			pdfPath,
			`${process.env.SCREENSHOTS_DIR}/experience-attestation`
		]);
	const verifyUrl = new RegExp(`${base.replace(/[.:/]/g, '\\$&')}/attestation/[a-z2-7]{26}`).exec(text)![0];
	// The e-mail of the first issue says where to download it and where it is checked.
	await expect
		.poll(() => smtp.received.find((m) => m.parsed.subject?.includes('attestation de fin de formation')))
		.toBeTruthy();
	const mail = smtp.received.find((m) => m.parsed.subject?.includes('attestation de fin de formation'))!;
	expect(mail.parsed.text).toContain(verifyUrl);
	// A second download is the very same file.
	const again = await page.request.get(`${base}/bilan/attestation.pdf`);
	expect(Buffer.from(await again.body()).equals(pdf)).toBe(true);
	await page.reload();
	await expect(offer.getByRole('link', { name: /\/attestation\// })).toHaveAttribute(
		'href',
		new URL(verifyUrl).pathname
	);
	await context.close();

	// A visitor, without an account, at the address the PDF prints (and its QR code holds).
	const visitorContext = await browser.newContext({ viewport: { width: 360, height: 740 } });
	const visitor = await visitorContext.newPage();
	const problems: string[] = [];
	visitor.on('pageerror', (error) => problems.push(error.message));
	visitor.on('console', (message) => {
		if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
	});
	// Only the JavaScript the page needs: its one small script that hashes the file, not the app's client.
	const scripts: string[] = [];
	visitor.on('response', (response) => {
		if (response.request().resourceType() === 'script') scripts.push(new URL(response.url()).pathname);
	});
	const answer = await visitor.goto(verifyUrl);
	expect(answer!.headers()['x-robots-tag']).toBe('noindex');
	await expect(visitor.getByRole('status').first()).toContainText('Attestation valide');
	await expect(visitor.getByText('Léa Membre')).toBeVisible();
	await expect(visitor.getByText(MEMBER)).toHaveCount(0);
	await visitor
		.locator('html[data-hydrated]')
		.waitFor({ timeout: 10_000 })
		.catch(() => expect(problems).toEqual([]));
	expect(problems).toEqual([]);
	expect(scripts).toEqual([expect.stringMatching(/\/attestation-check\.[\w-]+\.js$/)]);
	// Its words say that the file stays in the browser.
	await expect(visitor.getByText('sans l’envoyer')).toBeVisible();
	await expect(visitor.getByText('envoyez-le')).toBeHidden();
	await expectNoAxeViolation(visitor);
	await expectNoHorizontalScroll(visitor);
	// The very file: recognised in the browser, never sent.
	const sent: string[] = [];
	visitor.on('request', (request) => {
		if (request.method() === 'POST') sent.push(request.url());
	});
	await visitor.getByLabel('Fichier PDF de l’attestation').setInputFiles(pdfPath);
	await expect(visitor.getByText('Document authentique')).toBeVisible();
	const altered = Buffer.from(pdf);
	const at = altered.indexOf('Membre');
	altered.write('Mombre', at >= 0 ? at : altered.length - 20);
	await visitor.getByLabel('Fichier PDF de l’attestation').setInputFiles({
		name: 'attestation.pdf',
		mimeType: 'application/pdf',
		buffer: altered
	});
	await expect(visitor.getByText('Document différent')).toBeVisible();
	expect(sent).toEqual([]);
	expect((await fetch(`${base}/attestation/${'a'.repeat(26)}`)).status).toBe(404);
	await visitorContext.close();
	// Without JavaScript, the form sends the file and the server hashes it.
	const plainContext = await browser.newContext({
		javaScriptEnabled: false,
		viewport: { width: 1280, height: 900 }
	});
	const plain = await plainContext.newPage();
	await plain.goto(verifyUrl);
	await expect(plain.getByText('envoyez-le')).toBeVisible();
	await expect(plain.getByText('sans l’envoyer')).toBeHidden();
	await plain.getByLabel('Fichier PDF de l’attestation').setInputFiles(pdfPath);
	await plain.getByRole('button', { name: 'Vérifier le fichier' }).click();
	await expect(plain.getByText('Document authentique')).toBeVisible();
	await plainContext.close();

	// The admin revokes it, after confirming who they are; the page then says so, with the reason.
	const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
	const admin = await adminContext.newPage();
	await signIn(admin, base, E2E_ADMIN.email, E2E_ADMIN.password);
	// The follow-up shows where the member is: the whole programme done, its quiz passed at the second attempt.
	await admin.goto(`${base}/admin/suivi`);
	const row = admin.getByRole('row', { name: /Léa Membre/ });
	await expect(row).toContainText('3/3 (100 %)');
	await expect(row).toContainText('1/1 réussis');
	await expect(admin.getByRole('row', { name: /^Le quiz du mur/ })).toContainText('100 %');
	await expectNoAxeViolation(admin);
	await admin.screenshot({ path: test.info().outputPath('suivi-1280.png'), fullPage: true });
	const csv = await (await admin.request.get(`${base}/admin/suivi.csv`)).text();
	expect(csv).toContain('Léa Membre');
	// The member's own page: each module as she went through it, the quiz's two attempts with their scores.
	await row.getByRole('link', { name: 'Léa Membre', exact: true }).click();
	await expect(admin.getByRole('heading', { level: 1, name: 'Léa Membre' })).toBeVisible();
	const quizRow = admin.getByRole('row', { name: /^Le quiz du mur/ });
	await expect(quizRow).toContainText(/0 % \(pas encore\)[\s\S]*100 % \(réussi\)/);
	await expect(admin.getByRole('row', { name: /^Filmer un chantier/ })).toContainText(
		/arrêtée à \d+\ss\ssur\s12\ss/
	);
	await expect(admin.getByText('Aucune relance envoyée.')).toBeVisible();
	await expectNoAxeViolation(admin);
	await admin.screenshot({ path: test.info().outputPath('suivi-membre-1280.png'), fullPage: true });
	await admin.setViewportSize({ width: 360, height: 740 });
	await expectNoAxeViolation(admin);
	await expectNoHorizontalScroll(admin);
	await admin.screenshot({ path: test.info().outputPath('suivi-membre-360.png'), fullPage: true });
	await admin.setViewportSize({ width: 1280, height: 900 });
	await admin.goto(`${base}/admin/attestations`);
	await expect(admin.getByRole('rowheader', { name: /Léa Membre/ })).toBeVisible();
	await expectNoAxeViolation(admin);
	await admin.getByRole('button', { name: 'Confirmer mon identité pour révoquer' }).click();
	await expect(admin).toHaveURL(/\/admin\/confirmer\?redirectTo=/);
	await admin.getByLabel('Mot de passe').fill(E2E_ADMIN.password);
	await admin.getByRole('button', { name: 'Confirmer' }).click();
	await expect(admin).toHaveURL(/\/admin\/attestations$/);
	await admin.getByLabel('Motif de la révocation').fill('Délivrée par erreur');
	await admin.getByRole('button', { name: 'Révoquer' }).click();
	await expect(
		admin.getByText('Attestation révoquée : sa page de vérification le dit désormais')
	).toBeVisible();
	await expectNoAxeViolation(admin);
	await adminContext.close();
	const revoked = await (await fetch(verifyUrl)).text();
	expect(revoked).toContain('Attestation révoquée');
	expect(revoked).toContain('Délivrée par erreur');
});

test('a funded course (issue « Formation, part 1 »): the programme sheet, the positioning, a question answered by the trainer, the certificat and the proof file; nobody else reads the thread', async ({
	browser,
	playwright
}) => {
	test.setTimeout(120_000);
	// The trainer fills the programme sheet and asks a positioning, from /admin/cours.
	const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
	const admin = await adminContext.newPage();
	await signIn(admin, base, E2E_ADMIN.email, E2E_ADMIN.password);
	await admin.goto(`${base}/admin/cours`);
	await admin.locator('html[data-hydrated]').waitFor();
	const sheet = admin.locator('form[action="?/settings"]');
	await expect(admin.getByText('À compléter pour la fiche')).toBeVisible();
	for (const [label, value] of [
		['Public visé', 'Artisans du bâtiment, seuls ou avec une petite équipe.'],
		['Prérequis', 'Aucun, sinon un téléphone qui prend des photos.'],
		['Accessibilité', 'Contact handicap : Claire, 04 72 00 00 00.'],
		['Qualification du formateur', 'Artisan maçon pendant quinze ans, formateur depuis cinq.'],
		['Délai d’accès', 'Sous 7 jours après l’acceptation de la candidature.'],
		['Tarif', '1 200 € HT par stagiaire'],
		['Nom du formateur', 'Claire Formatrice'],
		[
			'Questionnaire de positionnement (facultatif)',
			'Avez-vous un site internet ?\n- Oui\n- Non\n\nVos clients vous trouvent par :\n- Le bouche à oreille\n- Google'
		]
	] as const)
		await sheet.getByLabel(label, { exact: true }).fill(value);
	await admin.getByRole('button', { name: 'Enregistrer les réglages' }).click();
	await expect(admin.getByText('À compléter pour la fiche')).toHaveCount(0);
	await expectNoAxeViolation(admin);

	// The public sheet: what Qualiopi's indicator 1 lists, and the way to apply.
	const visitorContext = await browser.newContext({ viewport: { width: 360, height: 740 } });
	const visitor = await visitorContext.newPage();
	await visitor.goto(`${base}/formation`);
	await expect(visitor.getByRole('heading', { level: 1, name: 'Se faire connaître en ligne' })).toBeVisible();
	await expect(visitor.getByText('1 200 € HT par stagiaire')).toBeVisible();
	await expect(visitor.getByText(/Assistance pédagogique et technique par Claire Formatrice/)).toContainText(
		'sous 2 jours ouvrés'
	);
	await expect(visitor.getByText('Les résultats sont publiés à partir de 5 stagiaires.')).toBeVisible();
	await expect(visitor.getByRole('link', { name: 'Candidater à la formation' })).toHaveAttribute(
		'href',
		'/candidature'
	);
	await expectNoAxeViolation(visitor);
	await expectNoHorizontalScroll(visitor);
	await keepScreenshot(visitor, 'formation-360.png');
	await visitorContext.close();

	// The member: the positioning comes before any module, then a question from a module's page.
	const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
	const page = await context.newPage();
	await signIn(page, base, MEMBER, PASSWORD);
	await page.goto(`${base}/cours/${VIDEO_MODULE}`);
	await expect(page).toHaveURL(/\/cours\/positionnement$/);
	await expectNoAxeViolation(page);
	await page.getByRole('checkbox', { name: 'Non' }).check();
	await page.getByRole('checkbox', { name: 'Google' }).check();
	await page.getByRole('button', { name: 'Envoyer mes réponses' }).click();
	// Every module is done already: the course's list (else the first module left to do).
	await expect(page).toHaveURL(/\/cours(\/[\w-]+)?$/);
	await page.goto(`${base}/cours/${VIDEO_MODULE}`);
	await page.getByText('Poser une question au formateur').click();
	await page.getByLabel(/Votre question sur/).fill('Quel **angle** pour filmer un mur ?');
	await page.getByLabel(/Pièce jointe/).setInputFiles({
		name: 'plan.pdf',
		mimeType: 'application/pdf',
		buffer: Buffer.from('%PDF-1.4\n%%EOF\n')
	});
	await page.getByRole('button', { name: 'Envoyer ma question' }).click();
	await expect(page).toHaveURL(/\/questions\/[0-9a-f-]{36}$/);
	const threadUrl = page.url();
	await expect(page.locator('.message strong', { hasText: 'angle' })).toBeVisible();
	await expect(page.getByRole('link', { name: 'plan.pdf' })).toBeVisible();
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	await keepScreenshot(page, 'question-360.png');

	// Another account and a visitor read nothing of it.
	const other = await playwright.request.newContext({ baseURL: base });
	const otherPage = await (await browser.newContext()).newPage();
	await register(otherPage, base, 'Autre Compte', 'autre.compte@exemple.fr');
	const otherThread = await otherPage.request.get(threadUrl);
	expect(otherThread.status()).toBe(404);
	const threadId = threadUrl.split('/').pop()!;
	expect((await otherPage.request.get(`${base}/api/cours/questions/${threadId}`)).status()).toBe(404);
	expect((await other.get(`/api/cours/questions/${threadId}`)).status()).toBe(401);
	expect((await other.get(threadUrl, { maxRedirects: 0 })).status()).toBe(303);
	await other.dispose();

	// The trainer answers from /admin/questions; the member is told by e-mail, with the thread's address.
	await admin.goto(`${base}/admin/questions`);
	await expect(admin.getByRole('row', { name: /Léa Membre/ })).toContainText('Filmer un chantier');
	await expectNoAxeViolation(admin);
	await keepScreenshot(admin, 'admin-questions-1280.png');
	await admin.getByRole('link', { name: 'Léa Membre' }).click();
	await admin.getByLabel('Votre réponse').fill('À hauteur d’yeux, **de biais**.');
	await admin.getByRole('button', { name: 'Envoyer' }).click();
	await expect(admin.getByText('Réponse envoyée')).toBeVisible();
	await expectNoAxeViolation(admin);
	await expect
		.poll(() => smtp.received.some((m) => m.parsed.subject?.startsWith('Le formateur vous a répondu')))
		.toBe(true);
	const told = smtp.received.find((m) => m.parsed.subject?.startsWith('Le formateur vous a répondu'))!;
	expect(told.envelopeTo).toEqual([MEMBER]);
	expect(told.parsed.text).toContain(threadUrl);
	await page.goto(threadUrl);
	await expect(page.getByText('Le formateur', { exact: true })).toBeVisible();

	// The certificat de réalisation, from /bilan: one page, the completed modules' duration.
	await page.goto(`${base}/bilan`);
	const waited = page.waitForEvent('download');
	await page.getByRole('link', { name: 'Télécharger le certificat de réalisation' }).click();
	const certificatePath = test.info().outputPath('certificat.pdf');
	await (await waited).saveAs(certificatePath);
	const certificate = execFileSync('pdftotext', [certificatePath, '-'], { encoding: 'utf8' }).replace(
		/\s+/g,
		' '
	);
	expect(certificate).toContain('Certificat de réalisation');
	expect(certificate).toContain('Léa Membre');
	expect(certificate).toContain('Léa Peinture');

	// The proof file, from the member's follow-up page: every kind of record, and the documents.
	await admin.goto(`${base}/admin/suivi`);
	await admin.getByRole('link', { name: 'Léa Membre', exact: true }).click();
	await expect(admin.getByText('Avez-vous un site internet ?')).toBeVisible();
	const zipResponse = await admin.request.get(`${admin.url()}/preuves.zip`);
	expect(zipResponse.status()).toBe(200);
	const zipPath = test.info().outputPath('preuves.zip');
	writeFileSync(zipPath, await zipResponse.body());
	const listing = execFileSync('unzip', ['-Z1', zipPath], { encoding: 'utf8' }).trim().split('\n').sort();
	expect(listing).toEqual(
		[
			'attestation-fin-de-formation.pdf',
			'certificat-de-realisation.pdf',
			'connexions.csv',
			'modules-termines.csv',
			'positionnement.csv',
			'positions-video.csv',
			'questions-reponses.csv',
			'quiz.csv',
			'satisfaction.csv'
		].sort()
	);
	expect(execFileSync('unzip', ['-p', zipPath, 'questions-reponses.csv'], { encoding: 'utf8' })).toContain(
		'de biais'
	);
	await expectNoAxeViolation(admin);
	await keepScreenshot(admin, 'suivi-preuves-1280.png');
	await adminContext.close();
	await context.close();
});
