// Part "blog" of `npm run bench` (issue « Content, part 2 »): ten articles of 60,000 characters published, then
// `/blog`, `/blog/rss.xml` and one article served to 16 clients against a legal page in the same run (goal: the
// blog and its feed at least half the legal page's requests a second), and an article whose body is the hostile
// one that took two minutes a view (« # t » 15,000 times): its first view, rendered, against an ordinary one's.
import { BROWSER_HEADERS, fmt, load, signedInAdmin, startServer } from './lib.mjs';

const ADMIN = { name: 'Bench', email: 'bench-blog@exemple.fr', password: 'une phrase de passe de banc' };
const LONG_BODY = Array.from(
	{ length: 600 },
	(_, i) =>
		`## Partie ${i}\n\nUn paragraphe de conseils avec un [lien](/contact) et du **gras**.\n\n- un\n- deux\n`
)
	.join('\n')
	.slice(0, 60_000);

async function publish(server, cookie, slug, body) {
	const headers = { cookie, origin: server.url, 'content-type': 'application/json' };
	const created = await fetch(`${server.url}/api/admin/pages`, {
		method: 'POST',
		headers,
		body: JSON.stringify({
			kind: 'article',
			slug,
			title: `Un long article ${slug}`,
			description: 'Une description assez longue pour passer les règles de publication du blog.',
			body
		})
	});
	if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
	const { id, version } = await created.json();
	const published = await fetch(`${server.url}/api/admin/pages/${id}/publish`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ version })
	});
	if (published.status !== 200)
		throw new Error(`publish answered ${published.status}: ${await published.text()}`);
}

const REQUESTS = 2000;

export async function benchBlog() {
	const server = await startServer();
	try {
		const cookie = await signedInAdmin(server, ADMIN);
		for (let i = 1; i <= 10; i++) await publish(server, cookie, `long-${i}`, LONG_BODY);
		const paths = ['/mentions-legales', '/blog', '/blog/rss.xml', '/blog/long-5'];
		for (const path of paths) await load(server.url, path, { total: 50, headers: BROWSER_HEADERS });
		const results = {};
		for (const path of paths)
			results[path] = await load(server.url, path, { total: REQUESTS, headers: BROWSER_HEADERS });
		const legal = results['/mentions-legales'];
		for (const path of paths.slice(1)) {
			const r = results[path];
			console.log(
				`blog.${path} ${fmt(r.rps, 0)} req/s, p50 ${fmt(r.p50)} ms against /mentions-legales ${fmt(legal.rps, 0)} req/s: ${fmt(r.rps / legal.rps, 2)}x (16 clients, ten 60,000-character articles; ${path === '/blog/long-5' ? 'an article of 60,000 characters: no goal' : 'goal >= 0.5'})${r.failures ? `; ${r.failures} failures` : ''}`
			);
		}

		await publish(server, cookie, 'ordinaire', LONG_BODY);
		await publish(server, cookie, 'hostile', '# t\n'.repeat(15_000));
		const firstView = async (path) => {
			const started = performance.now();
			const response = await fetch(`${server.url}${path}`);
			await response.arrayBuffer();
			return performance.now() - started;
		};
		const ordinary = await firstView('/blog/ordinaire');
		const hostile = await firstView('/blog/hostile');
		const again = await firstView('/blog/hostile');
		console.log(
			`blog.hostile_first_view ${fmt(hostile, 0)} ms (« # t » 15,000 times, rendered once) against an ordinary 60,000-character article's ${fmt(ordinary, 0)} ms; its next view ${fmt(again, 0)} ms (goal: rendering <= 200 ms)`
		);
	} finally {
		await server.stop();
	}
}
