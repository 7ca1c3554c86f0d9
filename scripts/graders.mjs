// `npm run graders`: the third-party checkers a careful reviewer runs (issue "Experience, part 3", point 6), on the
// built server, in both site modes. Not part of `npm test`: a minute or two (a JVM, every page twice).
// - The W3C Nu HTML Checker (`vnu-jar`, Java from Debian: `apt-get install default-jre-headless`) over every page of
//   both sitemaps, the 404 page, and the signed-in pages of the members' area and the administration (every page of
//   their route trees without an id in its URL): no error but those listed in ACCEPTED_HTML, each with its reason.
// - The course as a member reads it (issue « The house, part 4 », point 4): a lesson with its video, captions and
//   quiz, before and after an attempt; /bilan with every module done; the attestation's public page; the course
//   editor; /admin/suivi with a learner — made here through the admin's API as the editor makes them.
// - The blog (issue « Content, part 2 », point 7): an article with a cover published through the content API; /blog,
//   the article and the editor's pages through the Nu checker, the feed through an RSS library (rss-parser).
// - caniemail's data (`@jsx-email/doiuse-email`) over every e-mail preview, for Gmail, Outlook and Apple Mail: no
//   unsupported feature but those listed in ACCEPTED_EMAIL, each with why it does not change what the reader sees.
// Exits non-zero when anything else is found.
import { spawnSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	statSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { doIUseEmail } from '@jsx-email/doiuse-email';
import vnuJar from 'vnu-jar';
import Parser from 'rss-parser';
import { courseInUse, signedInAdmin, startServer } from '../bench/lib.mjs';

/** Nu errors that are the checker's mistakes, not the page's: matched on the message. */
const ACCEPTED_HTML = [
	{
		// e.g. `minmax(min(100%, var(--column-width)), 1fr)`, reported as « Invalid type: “100%, var(--column-width)” ».
		message: /^CSS: .*(\b(min|max|clamp)\(|Invalid type: “[^”]*var\(--)/,
		reason:
			'the checker does not type var() inside min(), max() or clamp() (it takes it for an invalid value); browsers do'
	}
];

/** caniemail findings that change nothing a reader sees: matched on the message. */
const ACCEPTED_EMAIL = [
	{
		message: /`(<style> element|@media|prefers-color-scheme)`/,
		reason:
			'the dark theme and the narrow-screen rules are progressive: every style that carries meaning is inline'
	},
	{
		message: /`(border-radius|box-shadow|text-decoration-thickness|text-underline-offset)`/,
		reason: 'decoration only: square corners or a plain underline lose nothing'
	},
	{
		message: /`<body> element` is not supported/,
		reason: 'the client replaces <body> by a <div>: the message’s own table carries its layout and colours'
	},
	{
		message: /`role attribute` is not supported/,
		reason:
			'role="presentation" on layout tables is for screen readers; a client that drops it shows the same'
	},
	{
		message: /`white-space` is not supported/,
		reason:
			'only `nowrap` on a field’s label (FieldsTable): a label that wraps reads the same; line breaks are <br>'
	}
];

const CLIENTS = ['gmail.*', 'outlook.*', 'apple-mail.*'];
const ADMIN = { name: 'Graders', email: 'graders@exemple.fr', password: 'une phrase de passe solide' };

if (!existsSync('build/server.js')) {
	const built = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
	if (built.status !== 0) process.exit(built.status ?? 1);
}

/** An article with a cover, published as the editor publishes it: its id and slug. */
async function publishedArticle(server, cookie) {
	const headers = { cookie, origin: server.url };
	const form = new FormData();
	form.set(
		'file',
		new Blob([readFileSync('tests/fixtures/images/Landscape_2.jpg')], { type: 'image/jpeg' }),
		'mur.jpg'
	);
	const upload = await fetch(`${server.url}/api/admin/upload`, { method: 'POST', headers, body: form });
	if (upload.status !== 201) throw new Error(`the cover's upload answered ${upload.status}`);
	const cover = (await upload.json()).value;
	const slug = 'murs-en-pierre-seche';
	const fields = {
		kind: 'article',
		slug,
		title: 'Murs en pierre sèche : ce qu’il faut savoir',
		description:
			'Les règles d’un mur en pierre sèche qui tient : fondation, fruit, boutisses et drainage, en bref.',
		body: '## La fondation\n\nUne tranchée **hors gel**, voir [le devis](/devis).\n\n- le fruit\n- les boutisses\n\n| Hauteur | Fruit |\n|---|---|\n| 1 m | 10 % |'
	};
	const json = { ...headers, 'content-type': 'application/json' };
	const created = await fetch(`${server.url}/api/admin/pages`, {
		method: 'POST',
		headers: json,
		body: JSON.stringify(fields)
	});
	if (created.status !== 201) throw new Error(`the article's creation answered ${created.status}`);
	const { id, version } = await created.json();
	const { kind: _kind, ...draft } = fields;
	const saved = await fetch(`${server.url}/api/admin/pages/${id}`, {
		method: 'PUT',
		headers: json,
		body: JSON.stringify({
			version,
			draft: { ...draft, cover: { value: cover, alt: 'Un mur de pierre sèche au soleil' } }
		})
	});
	if (saved.status !== 200) throw new Error(`the article's draft answered ${saved.status}`);
	const published = await fetch(`${server.url}/api/admin/pages/${id}/publish`, {
		method: 'POST',
		headers: json,
		body: JSON.stringify({ version: (await saved.json()).version })
	});
	if (published.status !== 200)
		throw new Error(`the article's publish answered ${published.status}: ${await published.text()}`);
	return { id, slug };
}

/** Every page under a route folder without a parameter in its URL (`[id]`), groups left out. */
function staticPagesUnder(folder, prefix) {
	const found = [];
	const walk = (dir, url) => {
		for (const entry of readdirSync(dir)) {
			const full = path.join(dir, entry);
			if (statSync(full).isDirectory()) {
				if (!entry.includes('[')) walk(full, entry.startsWith('(') ? url : `${url}/${entry}`);
			} else if (entry === '+page.svelte') found.push(url || '/');
		}
	};
	walk(folder, prefix);
	return found.sort();
}

const work = mkdtempSync(path.join(tmpdir(), 'atelier-graders-'));
const files = new Map();
let emailProblems = 0;
const save = (mode, url, html) => {
	const file = path.join(work, mode, `${files.size}.html`);
	writeFileSync(file, html);
	files.set(file, `${mode} ${url}`);
};

try {
	for (const mode of ['platform', 'showcase']) {
		mkdirSync(path.join(work, mode));
		const server = await startServer({ SITE_MODE: mode });
		try {
			const xml = await (await fetch(`${server.url}/sitemap.xml`)).text();
			const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
			for (const url of [...paths, '/cette-page-n-existe-pas'])
				save(mode, url, await (await fetch(server.url + url)).text());
			if (mode !== 'platform') continue;

			const cookie = await signedInAdmin(server, ADMIN);
			const signedIn = (url) => fetch(server.url + url, { headers: { cookie } });
			const privatePages = [
				...staticPagesUnder('src/routes/(members)', ''),
				...staticPagesUnder('src/routes/admin', '/admin').filter((url) => url !== '/admin/confirmer')
			];
			for (const url of privatePages) {
				const response = await signedIn(url);
				if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
				save(mode, url, await response.text());
			}

			// The blog as an admin makes it (issue « Content, part 2 », point 7): an article with a cover, published
			// through the content API; then /blog, the article, the editor's pages, and the feed — XML that an RSS
			// library parses into the article whole.
			const article = await publishedArticle(server, cookie);
			for (const url of [
				'/blog',
				`/blog/${article.slug}`,
				'/admin/pages',
				`/admin/pages/${article.id}`,
				'/admin/pages/home'
			])
				save(mode, url, await (await signedIn(url)).text());
			const feed = await new Parser().parseString(await (await fetch(`${server.url}/blog/rss.xml`)).text());
			const item = feed.items.find((entry) => entry.link === `${server.url}/blog/${article.slug}`);
			if (
				!item ||
				item.guid !== `atelier-article-${article.id}` ||
				!item['content:encoded']?.includes('<h2') ||
				item.enclosure?.type !== 'image/webp' ||
				!(Number(item.enclosure?.length) > 0)
			)
				throw new Error(`the feed does not carry the article whole: ${JSON.stringify(item ?? feed.items)}`);
			console.log(
				`feed parsed: « ${feed.title} », ${feed.items.length} item(s), guid, content:encoded and enclosure`
			);

			const course = [];
			await courseInUse(server, cookie, {
				wrongAttemptFirst: true,
				snapshot: (label, html) => (course.push(label), save(mode, label, html))
			});
			console.log(`course pages checked: ${course.join(', ')}`);

			// The e-mails, as the previews page renders them (the admin's list names every template).
			const list = await (await signedIn('/admin/emails')).text();
			const templates = [
				...new Set([...list.matchAll(/href="\/admin\/emails\/([a-z0-9-]+)"/g)].map((m) => m[1]))
			];
			if (templates.length < 10) throw new Error(`only ${templates.length} e-mail previews listed`);
			for (const name of templates) {
				const html = await (await signedIn(`/admin/emails/${name}/html`)).text();
				const result = doIUseEmail(html, { emailClients: CLIENTS });
				const unexplained = (result.errors ?? []).filter(
					(error) => !ACCEPTED_EMAIL.some((accepted) => accepted.message.test(error))
				);
				emailProblems += unexplained.length;
				console.log(
					`email ${name}: ${unexplained.length} unsupported (${(result.errors ?? []).length - unexplained.length} accepted)`
				);
				for (const error of unexplained) console.log(`  ${error}`);
			}
			console.log(`email previews checked: ${templates.length} (${CLIENTS.join(', ')})`);
		} finally {
			await server.stop();
		}
	}

	const vnu = spawnSync(
		'java',
		['-Xss8m', '-jar', vnuJar, '--format', 'json', '--exit-zero-always', '--errors-only', ...files.keys()],
		{ encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }
	);
	if (vnu.error || vnu.status !== 0)
		throw new Error(
			`the Nu checker did not run (status ${vnu.status}, ${vnu.signal ?? ''} ${vnu.error?.message ?? ''} ${vnu.stdout.slice(0, 300)} ${vnu.stderr.slice(0, 300)})`
		);
	const messages = JSON.parse(vnu.stderr).messages.filter((m) => m.type === 'error');
	let htmlProblems = 0;
	const acceptedCount = new Map();
	for (const message of messages) {
		const file = decodeURIComponent(new URL(message.url).pathname);
		const accepted = ACCEPTED_HTML.find((a) => a.message.test(message.message));
		if (accepted) {
			acceptedCount.set(accepted.reason, (acceptedCount.get(accepted.reason) ?? 0) + 1);
			continue;
		}
		htmlProblems++;
		console.log(`html ${files.get(file) ?? file}:${message.lastLine}: ${message.message}`);
		if (message.extract) console.log(`  ${message.extract.replace(/\s+/g, ' ').slice(0, 160)}`);
	}
	console.log(`html documents checked: ${files.size}, errors: ${htmlProblems}`);
	for (const [reason, count] of acceptedCount) console.log(`  accepted ×${count}: ${reason}`);
	if (htmlProblems + emailProblems > 0) {
		console.log(`graders: ${htmlProblems} HTML error(s), ${emailProblems} e-mail problem(s)`);
		process.exitCode = 1;
	} else console.log('graders: clean');
} finally {
	rmSync(work, { recursive: true, force: true });
}
