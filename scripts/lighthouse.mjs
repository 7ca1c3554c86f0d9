// `npm run lighthouse [-- showcase|platform|members] [--runs=N] [--page=/path]`: Lighthouse 12 (mobile: its default
// emulation and throttling) on the built server, with the system Chromium, in one site mode (`members`: the
// platform's signed-in pages, on a course in use — a lesson with video, captions, poster and quiz, /bilan, the
// attestation's public page). Each page is measured N times
// (3 by default) and the run with the median performance score is reported — Lighthouse's own advice for
// noisy machines, and these have 2 shared cores. Prints one line per page with the four category scores and
// exits non-zero when one is under 95. Not part of `npm test`: several minutes, and timing-sensitive.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { courseInUse, signedInAdmin, startServer } from '../bench/lib.mjs';

/**
 * A path with no page: the 404 page, measured with `--ignore-status-code` (Lighthouse refuses a document answered
 * 404 otherwise). Its SEO score cannot reach 100 and should not: the audit "Page has successful HTTP status code"
 * fails, as it must for a page that does not exist.
 */
const NOT_FOUND = '/cette-page-n-existe-pas';

const PAGES = {
	showcase: [
		'/',
		'/services/facades-et-enduits',
		'/secteurs/cremieu',
		'/blog/mur-de-soutenement-regles',
		'/realisations',
		'/contact',
		NOT_FOUND
	],
	platform: [
		'/',
		'/macon',
		'/paysagiste',
		'/contact',
		'/devis',
		'/mentions-legales',
		'/cgv',
		'/confidentialite',
		'/login',
		'/register',
		'/formation',
		'/candidature',
		// Two articles with covers are published first (`withArticles`): the list and one article.
		'/blog',
		'/blog/murs-en-pierre-seche',
		NOT_FOUND
	],
	// Filled in once the course is made (its lesson's and attestation's paths, a question's thread): see below. The
	// home page is measured in the same run, as the ceiling the lesson is held to (issue « Formation, part 1 »).
	members: ['/', '/dashboard', '/cours', '/bilan', '/admin/questions']
};
const TARGET = 95;
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';

const args = process.argv.slice(2);
const mode = args.find((a) => !a.startsWith('--')) ?? 'showcase';
const runs = Number(args.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 3);
/** `--page=/contact` (repeatable): only those pages of the mode. */
const only = args.filter((a) => a.startsWith('--page=')).map((a) => a.slice('--page='.length));
if (!PAGES[mode]) {
	console.error(`usage: npm run lighthouse -- [${Object.keys(PAGES).join('|')}]`);
	process.exit(2);
}
if (!existsSync('build/server.js')) {
	const built = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
	if (built.status !== 0) process.exit(built.status ?? 1);
}

/** One request, retried once: a kept-alive socket the server closed while Lighthouse ran fails the first try. */
async function warm(url, headers) {
	const init = { headers: headers ?? {} };
	try {
		await (await fetch(url, init)).arrayBuffer();
	} catch {
		await (await fetch(url, init)).arrayBuffer();
	}
}

/** One Lighthouse run: the four scores (performance first) and the audits, or null when it failed. */
function lighthouse(url, report, headers) {
	const run = spawnSync(
		process.execPath,
		[
			'node_modules/lighthouse/cli/index.js',
			url,
			'--quiet',
			'--output=json',
			`--output-path=${report}`,
			'--only-categories=performance,accessibility,best-practices,seo',
			...(url.endsWith(NOT_FOUND) ? ['--ignore-status-code'] : []),
			...(headers ? [`--extra-headers=${JSON.stringify(headers)}`] : []),
			'--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking'
		],
		{ env: { ...process.env, CHROME_PATH: CHROME }, encoding: 'utf8', timeout: 180_000 }
	);
	if (run.status !== 0) {
		console.error(run.stderr);
		return null;
	}
	const { categories, audits } = JSON.parse(readFileSync(report, 'utf8'));
	const scores = ['performance', 'accessibility', 'best-practices', 'seo'].map((c) =>
		Math.round(categories[c].score * 100)
	);
	return { scores, audits };
}

/**
 * Platform mode measures its pages with real photos, as a site shows them: an admin is made, and every image slot
 * gets an upload of a photo from tests/fixtures/images (the large one where the slot is wide) through the same API
 * the admin page uses. Without it each slot would be the stock host's, unreachable here, and its small fallback.
 */
async function withRealPhotos(base) {
	const admin = {
		name: 'Lighthouse',
		email: 'lighthouse@exemple.fr',
		password: 'une phrase de passe solide'
	};
	const setup = await fetch(`${base}/api/admin/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(admin)
	});
	if (setup.status !== 201) throw new Error(`admin setup answered ${setup.status}`);
	const login = await fetch(`${base}/login`, {
		method: 'POST',
		headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
		body: new URLSearchParams({ email: admin.email, password: admin.password }),
		redirect: 'manual'
	});
	const cookie = (login.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
	const headers = { cookie, origin: base };
	const slots = await (await fetch(`${base}/api/admin/site-images`, { headers })).json();
	const photos = ['Landscape_1', 'Landscape_3', 'Landscape_5', 'Landscape_6', 'Landscape_8', 'Landscape_9'];
	let n = 0;
	for (const slot of slots.images) {
		const name = (slot.width ?? 0) >= 1200 ? '2569067123_aca715a2ee_o' : photos[n++ % photos.length];
		const form = new FormData();
		const bytes = readFileSync(path.join('tests/fixtures/images', `${name}.jpg`));
		form.append('file', new Blob([bytes], { type: 'image/jpeg' }), `${name}.jpg`);
		const upload = await fetch(`${base}/api/admin/upload`, { method: 'POST', headers, body: form });
		if (upload.status !== 201) throw new Error(`upload answered ${upload.status}`);
		const { value } = await upload.json();
		const put = await fetch(`${base}/api/admin/site-images`, {
			method: 'PUT',
			headers: { ...headers, 'content-type': 'application/json' },
			body: JSON.stringify({ key: slot.key, url: value, alt: slot.label ?? slot.key })
		});
		if (put.status !== 200) throw new Error(`site image ${slot.key} answered ${put.status}`);
	}
	await withArticles(base, headers);
}

/**
 * Two articles with a cover each, published as the editor does: the blog as a site that writes shows it. A cover is
 * shown up to 40rem wide (1,280 px on a 2× screen): a wide slot, so it gets a camera-sized photo like the wide slots
 * above, and a phone is sent the 800 px variant. (A 600 px photo as a cover sends a phone the whole photo at the
 * master's quality, 84 KB where the variant weighs 45: Lighthouse's simulated LCP then reads 2.0–2.3 s, 99.)
 */
async function withArticles(base, headers) {
	const json = { ...headers, 'content-type': 'application/json' };
	for (const [slug, photo, type] of [
		['murs-en-pierre-seche', '2569067123_aca715a2ee_o.jpg', 'image/jpeg'],
		['enduit-a-la-chaux', '4.webp', 'image/webp']
	]) {
		const form = new FormData();
		const bytes = readFileSync(path.join('tests/fixtures/images', photo));
		form.append('file', new Blob([bytes], { type }), photo);
		const upload = await fetch(`${base}/api/admin/upload`, { method: 'POST', headers, body: form });
		if (upload.status !== 201) throw new Error(`upload answered ${upload.status}`);
		const { value, stats } = await upload.json();
		const draft = {
			slug,
			title: `Ce qu’il faut savoir : ${slug.replaceAll('-', ' ')}`,
			description:
				'Les règles d’un ouvrage qui tient, expliquées simplement par un artisan, avec les erreurs à éviter.',
			body: Array.from(
				{ length: 8 },
				(_, i) => `## Partie ${i + 1}\n\nUn paragraphe de conseils, avec [un lien](/contact).`
			).join('\n\n'),
			cover: { value, alt: 'Un mur de pierre au soleil du matin', width: stats.width }
		};
		const created = await fetch(`${base}/api/admin/pages`, {
			method: 'POST',
			headers: json,
			body: JSON.stringify({ kind: 'article', ...draft, cover: undefined })
		});
		if (created.status !== 201) throw new Error(`article answered ${created.status}`);
		const { id, version } = await created.json();
		const saved = await fetch(`${base}/api/admin/pages/${id}`, {
			method: 'PUT',
			headers: json,
			body: JSON.stringify({ version, draft })
		});
		if (saved.status !== 200) throw new Error(`article draft answered ${saved.status}`);
		const published = await fetch(`${base}/api/admin/pages/${id}/publish`, {
			method: 'POST',
			headers: json,
			body: JSON.stringify({ version: (await saved.json()).version })
		});
		if (published.status !== 200)
			throw new Error(`publish answered ${published.status}: ${await published.text()}`);
	}
}

const server = await startServer({ SITE_MODE: mode === 'showcase' ? 'showcase' : 'platform' });
/** The session's cookie on the members' pages (an admin reads the course as members do). */
let headers = null;
if (mode === 'platform') await withRealPhotos(server.url);
if (mode === 'members') {
	const cookie = await signedInAdmin(server, {
		name: 'Lighthouse',
		email: 'lighthouse@exemple.fr',
		password: 'une phrase de passe solide'
	});
	headers = { Cookie: cookie };
	const { lesson, attestation } = await courseInUse(server, cookie);
	// A question to the trainer about the lesson, answered: its thread as the member reads it.
	const asked = await fetch(`${server.url}/api/cours/questions`, {
		method: 'POST',
		headers: { cookie, origin: server.url, 'content-type': 'application/json' },
		body: JSON.stringify({ module: lesson.split('/').pop(), text: 'Quel angle pour filmer un **mur** ?' })
	});
	if (asked.status !== 201) throw new Error(`a question answered ${asked.status}`);
	const { id } = await asked.json();
	await fetch(`${server.url}/api/cours/questions/${id}/messages`, {
		method: 'POST',
		headers: { cookie, origin: server.url, 'content-type': 'application/json' },
		body: JSON.stringify({ text: 'À hauteur d’yeux, de biais.' })
	});
	PAGES.members.unshift(lesson, attestation, `/questions/${id}`);
}
const out = mkdtempSync(path.join(tmpdir(), 'atelier-lighthouse-'));
console.log(`reports in ${out}`);
let failed = false;
try {
	console.log(`Lighthouse mobile, SITE_MODE=${mode}, median of ${runs} runs`);
	console.log('page | performance | accessibility | best practices | SEO | performance runs');
	for (const page of PAGES[mode].filter((p) => only.length === 0 || only.includes(p))) {
		// Warm the page cache first: a visitor meets the cached page, not the first render after a deploy.
		await warm(server.url + page, headers);
		const results = [];
		for (let run = 0; run < runs; run++) {
			const result = lighthouse(
				server.url + page,
				path.join(out, `${page.replaceAll('/', '_') || 'home'}-${run}.json`),
				headers
			);
			if (result) results.push(result);
		}
		if (results.length === 0) {
			failed = true;
			console.log(`${page} | Lighthouse failed`);
			continue;
		}
		results.sort((a, b) => a.scores[0] - b.scores[0]);
		const { scores, audits } = results[Math.floor(results.length / 2)];
		const spread = results.map((r) => r.scores[0]).join('/');
		// The members' pages and the attestation's check are `noindex` (private, or a code's page): SEO's « is
		// crawlable » fails on them, as it must; the other three categories are judged.
		const judged = mode === 'members' ? scores.slice(0, 3) : scores;
		if (judged.some((s) => s < TARGET)) {
			failed = true;
			const failing = Object.values(audits)
				.filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
				.map((a) => `${a.id} (${a.displayValue ?? a.score})`);
			console.log(
				`${page} | ${scores.join(' | ')} | performance runs ${spread} | below ${TARGET}: ${failing.join(', ')}`
			);
		} else console.log(`${page} | ${scores.join(' | ')} | performance runs ${spread}`);
	}
} finally {
	await server.stop();
}
process.exit(failed ? 1 : 0);
