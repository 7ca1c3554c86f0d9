// Part "showcase" of `npm run bench` (issue "Showcase mode", point 7): in SITE_MODE=showcase, each page type
// served from the page cache against a bare node:http server sending the same bytes with the same headers, both
// in their own process, under the same load generator, alternating rounds, compressed as browsers ask; the
// baseline is checked before measuring (lib.mjs `againstBareServer`). Goal: >= 0.95 on every page type.
import { againstBareServer, fmt, ratioText, startServer } from './lib.mjs';

const PAGES = {
	home: '/',
	service: '/services/facades-et-enduits',
	area: '/secteurs/cremieu',
	article: '/blog/mur-de-soutenement-regles',
	realisations: '/realisations'
};

export async function benchShowcase() {
	const server = await startServer({ SITE_MODE: 'showcase' });
	const ratios = [];
	try {
		for (const [name, target] of Object.entries(PAGES)) {
			await fetch(server.url + target);
			const page = await againstBareServer(server, target);
			ratios.push(page.ratio);
			console.log(
				`showcase.${name}_ratio ${ratioText(page)} (${target}: cached ${fmt(page.appRps, 0)} req/s, p50 ${fmt(page.appP50)} ms vs bare node:http sending the same ${(page.bytes / 1024).toFixed(0)} KB (${page.encoding}) ${fmt(page.bareRps, 0)} req/s, p50 ${fmt(page.bareP50)} ms; 16 clients; goal >= 0.95)`
			);
		}
		const valid = ratios.filter((r) => r !== null);
		console.log(
			valid.length === ratios.length
				? `showcase.min_ratio ${fmt(Math.min(...valid))} (the slowest page type; goal >= 0.95)`
				: `showcase.min_ratio none (a page type's run had errors)`
		);
	} finally {
		await server.stop();
	}
}
